//! [`super::Conv2dVariant::Gemm`]: CONV_2D as a blocked matrix product, two output pixels
//! times two output channels per block, every loaded word used twice.
//!
//! - **Weights** are packed at compile time ([`pack`]): per pair of output channels
//!   `(a, b)` the two folded biases (`bias + input_offset * sum(w)`, as in
//!   [`super::Conv2dVariant::pack`]), then the two filter rows (OHWI order, zero-padded to
//!   whole words) interleaved per group of four taps `t0..t3` as the words
//!   `[a t0, b t0, a t2, b t2]`, `[a t1, b t1, a t3, b t3]` ([`Dot::dot_2x2`]): one LDRD
//!   feeds a group of both channels and each SXTB16 gives one lane pair of a channel. An
//!   odd last channel is paired with zeros.
//! - **Activations**: each pixel's window (at most [`MAX_TAPS`] taps) is widened once
//!   into a stack buffer ([`Dot::widen4`] words, the two pixels of a block side by side per
//!   group), then read by every channel pair. A window inside the input is widened straight from its rows when they are whole
//!   words; any other (a border window, or rows that are not whole words, e.g. a first
//!   layer on 1 or 3 channels) is first gathered into a byte buffer with the taps outside
//!   the image set to the input zero point: such a tap contributes `w * (zp +
//!   input_offset) = 0`, exactly the reference's skipped tap, so every window starts from
//!   the folded bias.
//! - **Requantization** of a block in registers: `MultiplyByQuantizedMultiplier` as one
//!   [`Dot::doubling_high_mul`] (`h`), then TFLite's `RoundingDivideByPOT(h, e)` plus the
//!   output offset as `((u >> (e - 1)) + 1 + 2 * offset) >> 1` with `u = h - (h < 0)`
//!   (the nested-floor form of `(h + 2^(e-1) - (h < 0)) >> e`); the four results halved,
//!   saturated, clamped and packed together ([`Dot::pack4_halved`]). That form is exact
//!   when no intermediate overflows, which [`requant_is_exact`] proves at compile time from
//!   the weights and biases (the accumulator is bounded by `|bias| + 255 * sum |w|`);
//!   [`super::Conv2dVariant::select`] picks this variant only then, and only for right
//!   shifts (`output_shift < 0`) and multipliers in `[2^30, 2^31)` (or 0).
//!
//! Results are identical to [`super::scalar`] (wrapping int32 accumulation).

use super::{Conv2dParams, ConvGeometry};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::S8;
use crate::kernels::window::valid_taps;

/// Words per packed filter row: the window's taps in groups of four.
pub(crate) fn row_words(g: &ConvGeometry) -> usize {
    let [_, f_h, f_w, f_d] = g.filter_shape;
    (f_h * f_w * f_d).div_ceil(4)
}

/// Words per channel pair in the packed table: two biases and two interleaved rows.
fn pair_words(g: &ConvGeometry) -> usize {
    2 + 2 * row_words(g)
}

/// The largest window (`filter_height * filter_width * depth`) [`conv_gemm`] takes: its
/// two widened pixels (256 bytes) and gather buffer live on the stack.
pub const MAX_TAPS: usize = 64;
const MAX_GROUPS: usize = MAX_TAPS / 4;

/// The length of [`pack`]'s table.
pub(crate) fn packed_len(g: &ConvGeometry) -> usize {
    g.filter_shape[0].div_ceil(2) * pair_words(g)
}

/// The multiplier and shift of channel `c` (one for every channel, or per channel).
#[inline(always)]
fn channel_quant(p: &Conv2dParams<S8>, c: usize) -> (i32, i32) {
    let q = &p.quant;
    let i = if q.output_multiplier.len() == 1 { 0 } else { c };
    (q.output_multiplier[i], q.output_shift[i])
}

/// The compile-time packing (see the module doc). A channel whose multiplier is 0 outputs
/// its clamped output offset whatever it accumulates, so it is packed with a zero bias and
/// zero weights (its accumulator is then 0, which the block requantization maps to 0).
pub(crate) fn pack(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
    let g = &p.geometry;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let row = f_h * f_w * f_d;
    packed.fill(0);
    for (pair, dst) in packed.chunks_exact_mut(pair_words(g)).enumerate() {
        let (biases, rows) = dst.split_at_mut(2);
        for lane in 0..2 {
            let c = 2 * pair + lane;
            if c >= out_d || channel_quant(p, c).0 == 0 {
                continue;
            }
            let taps = &filter[c * row..][..row];
            biases[lane] = crate::prepare::fold_input_offset(taps.iter().copied(), bias.map_or(0, |b| b[c]), p.quant.input_offset);
            for (k, &w) in taps.iter().enumerate() {
                // Tap t of a group: word t % 2, byte lane + 2 * (t / 2).
                let t = k % 4;
                let word = &mut rows[2 * (k / 4) + t % 2];
                let mut bytes = word.to_le_bytes();
                bytes[lane + 2 * (t / 2)] = w as u8;
                *word = i32::from_le_bytes(bytes);
            }
        }
    }
}

/// Whether the block requantization is exact for every input: for every channel, a
/// multiplier of 0 (see [`pack`]), or a multiplier in `[2^30, 2^31)` with a right shift of
/// 1..=31, where the high multiply `h` of an accumulator bounded by `|bias| + 255 *
/// sum |w|` (and by 2^31) stays below 2^30 in magnitude (then no step overflows).
pub(crate) fn requant_is_exact(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>) -> bool {
    let q = &p.quant;
    let [out_d, f_h, f_w, f_d] = p.geometry.filter_shape;
    let row = f_h * f_w * f_d;
    let shapes_ok = q.output_multiplier.len() == q.output_shift.len()
        && (q.output_multiplier.len() == 1 || q.output_multiplier.len() == out_d)
        && !q.output_multiplier.is_empty()
        && filter.len() >= out_d * row
        && bias.is_none_or(|b| b.len() >= out_d);
    shapes_ok
        && (0..out_d).all(|c| {
            let (m, shift) = channel_quant(p, c);
            if m == 0 {
                return true;
            }
            if m < 1 << 30 || !(-31..=-1).contains(&shift) {
                return false;
            }
            let taps: i64 = filter[c * row..][..row].iter().map(|&w| (w as i64).abs()).sum();
            let acc = (bias.map_or(0, |b| b[c] as i64).abs() + 255 * taps).min(1 << 31);
            (acc * m as i64 + (1 << 30)) >> 31 < 1 << 30
        })
}

/// Where the output pixel `(b, oy, ox)` reads its window.
#[derive(Clone, Copy)]
struct Pixel {
    b: usize,
    oy: usize,
    ox: usize,
}

impl Pixel {
    #[inline(always)]
    fn advance(&mut self, out_h: usize, out_w: usize) {
        self.ox += 1;
        if self.ox == out_w {
            self.ox = 0;
            self.oy += 1;
            if self.oy == out_h {
                self.oy = 0;
                self.b += 1;
            }
        }
    }
}

/// Four int8 as a little-endian word.
#[inline(always)]
fn word(c: &[i8]) -> u32 {
    u32::from_le_bytes([c[0] as u8, c[1] as u8, c[2] as u8, c[3] as u8])
}

/// Widens `src` (whole words) into half `slot` (0 or 1) of the groups of `dst`.
#[inline(always)]
fn widen<D: Dot>(src: &[i8], dst: &mut [u64], slot: usize) {
    let (keep, shift) = if slot == 0 { (!0u64 << 32, 0) } else { (!0u64 >> 32, 32) };
    for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(2)) {
        let [e, o] = D::widen4(word(s));
        d[0] = (d[0] & keep) | ((e as u64) << shift);
        d[1] = (d[1] & keep) | ((o as u64) << shift);
    }
}

/// Copies a short run (a few taps of a first layer) word by word.
#[inline(always)]
fn copy_run(dst: &mut [u8], src: &[i8]) {
    let (d4, dt) = dst.split_at_mut(src.len() & !3);
    let (s4, st) = src.split_at(d4.len());
    for (d, s) in d4.chunks_exact_mut(4).zip(s4.chunks_exact(4)) {
        d.copy_from_slice(&word(s).to_le_bytes());
    }
    for (d, &s) in dt.iter_mut().zip(st) {
        *d = s as u8;
    }
}

/// Widens the window of pixel `px` into slot `slot` of `xs`, through `buf` when it is not
/// a window of whole-word rows inside the input.
#[inline(never)]
fn load_pixel<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], px: Pixel, xs: &mut [u64], buf: &mut [u8], slot: usize) {
    let g = &p.geometry;
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let in_y0 = (px.oy * g.stride_height) as isize - g.pad_top as isize;
    let in_x0 = (px.ox * g.stride_width) as isize - g.pad_left as isize;
    let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
    let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
    let run = f_w * in_d;
    let interior = ky_range.len() == f_h && kx_range.len() == f_w;
    if interior && g.dilation_width == 1 && run % 4 == 0 {
        // Every tap is in the image, so in_y0, in_x0 >= 0; row ky is `run` contiguous int8
        // (`run / 2` entries of `xs`).
        for (ky, dst) in xs.chunks_exact_mut(run / 2).enumerate().take(f_h) {
            let iy = in_y0 as usize + ky * g.dilation_height;
            let src = &input[((px.b * in_h + iy) * in_w + in_x0 as usize) * in_d..][..run];
            widen::<D>(src, dst, slot);
        }
        return;
    }
    let zero_point = (-p.quant.input_offset) as i8 as u8;
    let taps = f_h * run;
    for (ky, row) in buf[..taps].chunks_exact_mut(run).enumerate() {
        if !ky_range.contains(&ky) {
            row.fill(zero_point);
            continue;
        }
        let iy = (in_y0 + (ky * g.dilation_height) as isize) as usize;
        let base = (px.b * in_h + iy) * in_w;
        if g.dilation_width == 1 && kx_range.len() == f_w {
            copy_run(row, &input[(base + in_x0 as usize) * in_d..][..run]);
            continue;
        }
        for (kx, tap) in row.chunks_exact_mut(in_d).enumerate() {
            if kx_range.contains(&kx) {
                let ix = (in_x0 + (kx * g.dilation_width) as isize) as usize;
                copy_run(tap, &input[(base + ix) * in_d..][..in_d]);
            } else {
                tap.fill(zero_point);
            }
        }
    }
    let bytes: &[i8] = bytemuck::cast_slice(&buf[..4 * row_words(g)]);
    widen::<D>(bytes, xs, slot);
}

/// The requantization constants of channel `c`, `(m2, e - 1)` (a channel with multiplier
/// 0 accumulates 0, which `(0, 0)` maps to 0).
#[inline(always)]
fn channel_consts(p: &Conv2dParams<S8>, c: usize) -> (i32, i32) {
    let (m, shift) = channel_quant(p, c);
    if m == 0 {
        return (0, 0);
    }
    // -shift - 1 = !shift.
    ((m as u32).wrapping_mul(2) as i32, !shift)
}

/// [`super::Conv2dVariant::Gemm`]; `packed` from [`pack`].
#[inline(never)]
pub(crate) fn conv_gemm<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, _, _, _] = g.input_shape;
    let [out_d, _, _, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let pixels = batches * out_h * out_w;
    let k4 = row_words(g);
    if pixels == 0 || out_d == 0 || k4 > MAX_GROUPS {
        return;
    }
    let mut xs_buf = [0u64; 2 * MAX_GROUPS];
    // The padding taps of the last group (zero weights) read zeros.
    let mut buf = [0u8; MAX_TAPS];
    let xs = &mut xs_buf[..2 * k4];
    let packed = &packed[..out_d.div_ceil(2) * pair_words(g)];
    let (c1, lo, hi) = (1 + 2 * p.quant.output_offset, p.clamp.min, p.clamp.max);
    let mut px = Pixel { b: 0, oy: 0, ox: 0 };
    for outs in output[..pixels * out_d].chunks_mut(2 * out_d) {
        load_pixel::<D>(p, input, px, xs, &mut buf, 0);
        px.advance(out_h, out_w);
        if outs.len() == 2 * out_d {
            load_pixel::<D>(p, input, px, xs, &mut buf, 1);
            px.advance(out_h, out_w);
        }
        block_row::<D>(p, xs, packed, k4, c1, lo, hi, outs);
    }
}

/// Every channel pair of one pixel pair (`outs`: the two pixels' outputs, or a lone last
/// pixel's).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block_row<D: Dot>(p: &Conv2dParams<S8>, xs: &[u64], packed: &[i32], k4: usize, c1: i32, lo: i8, hi: i8, outs: &mut [i8]) {
    let out_d = p.geometry.filter_shape[0];
    let rq = |acc: i32, (m2, em1): (i32, i32)| {
        let h = D::doubling_high_mul(acc, m2);
        D::shift_right(h.wrapping_add(h >> 31), em1).wrapping_add(c1)
    };
    for (pair, wp) in packed.chunks_exact(2 + 2 * k4).enumerate() {
        let (bias, w) = wp.split_at(2);
        let acc = D::dot_2x2(xs, w, [bias[0], bias[1], bias[0], bias[1]]);
        let c = 2 * pair;
        let (ka, kb) = (channel_consts(p, c), channel_consts(p, (c + 1).min(out_d - 1)));
        let r = [rq(acc[0], ka), rq(acc[1], kb), rq(acc[2], ka), rq(acc[3], kb)];
        let v = D::pack4_halved(r, lo, hi).to_le_bytes().map(|b| b as i8);
        // Channel c + 1 of an odd last pair does not exist.
        let (two, o1) = (c + 1 < out_d, out_d + c);
        if let Some(d) = outs.get_mut(c) {
            *d = v[0];
        }
        if let (true, Some(d)) = (two, outs.get_mut(c + 1)) {
            *d = v[1];
        }
        if let Some(d) = outs.get_mut(o1) {
            *d = v[2];
        }
        if let (true, Some(d)) = (two, outs.get_mut(o1 + 1)) {
            *d = v[3];
        }
    }
}
