//! [`super::Conv2dVariant::Gemm`] and [`super::Conv2dVariant::GemmChunked`]: CONV_2D as a blocked matrix product, two output pixels
//! times two output channels per block, every loaded word used twice.
//!
//! - **Weights** are packed at compile time (`pack`): per pair of output channels
//!   `(a, b)` the two folded biases (`bias + input_offset * sum(w)`, as in
//!   [`super::Conv2dVariant::pack`]), the two channels' requantization constants (two
//!   multipliers, two shifts in one word; the params' multiplier tables are then not read,
//!   and the compiler emits them empty), then the two filter rows (OHWI order, each window row
//!   zero-padded to whole words) interleaved per group of four taps `t0..t3` as the words
//!   `[a t0, b t0, a t2, b t2]`, `[a t1, b t1, a t3, b t3]` (`Dot::dot_2x2`): one LDRD
//!   feeds a group of both channels and each SXTB16 gives one lane pair of a channel. An
//!   odd last channel is paired with zeros.
//! - **Activations**: each pixel's window is widened into a stack buffer in chunks of at
//!   most [`CHUNK_TAPS`] taps (`Dot::widen4` words, the two pixels of a block side by side
//!   per group), each chunk then read by every channel pair of a block (all pairs when the
//!   window is one chunk, `Gemm`; else `BLOCK_PAIRS` at a time, their accumulators kept
//!   between chunks, `GemmChunked`). A window inside the input is widened straight from its rows (each row's
//!   taps padded to whole words with zero weights, so a first layer on 1 or 3 channels too;
//!   the padding reads the bytes after the row, when they are still in the input); any
//!   other (a border window) is first gathered into a byte buffer with the taps outside the
//!   image set to the input zero point: such a tap contributes `w * (zp +
//!   input_offset) = 0`, exactly the reference's skipped tap, so every window starts from
//!   the folded bias.
//! - **Taps as bytes** ([`Dot::GEMM_BYTES`], Helium): the same packed words, but each
//!   pixel's window chunk is copied as int8 with each group's taps in the order
//!   `t0 t2 t1 t3` ([`Dot::permute_into`]), which is the order of a channel's bytes in its
//!   pair's words, so that a de-interleaving load (`VLD20.8`/`VLD21.8`) of 32 packed bytes
//!   gives channel `a`'s sixteen taps and channel `b`'s, each multiplied by sixteen of a
//!   pixel's taps in one `VMLADAVA.S8` ([`Dot::dot_2x2_bytes`]): 9 instructions per 64
//!   multiply-accumulates, against 10 per 32 for the widened words.
//! - **Requantization** of a block in registers: `MultiplyByQuantizedMultiplier` as one
//!   `Dot::doubling_high_mul` (`h`), then TFLite's `RoundingDivideByPOT(h, e)` plus the
//!   output offset as `((u >> (e - 1)) + 1 + 2 * offset) >> 1` with `u = h - (h < 0)`
//!   (the nested-floor form of `(h + 2^(e-1) - (h < 0)) >> e`); the four results halved,
//!   saturated, clamped and packed together (`Dot::pack4_halved`), and stored as one
//!   halfword per pixel when both pixels and both channels exist. That form is exact
//!   when no intermediate overflows, which `requant_is_exact` proves at compile time from
//!   the weights and biases (the accumulator is bounded by `|bias| + 255 * sum |w|`);
//!   [`super::Conv2dVariant::select`] picks this variant only then, and only for right
//!   shifts (`output_shift < 0`) and multipliers in `[2^30, 2^31)` (or 0).
//!
//! Results are identical to [`super::scalar`] (wrapping int32 accumulation).

use super::{Conv2dParams, ConvGeometry};
use crate::kernels::dot::Dot;
use crate::kernels::numerics::S8;
use crate::kernels::window::valid_taps;

/// Taps per window row in the packed layout: the row's `f_w * f_d` taps, padded with zero
/// weights to whole groups of four, so that every row of a window inside the input is
/// widened straight from the input (see [`load_chunk`]).
fn padded_row(g: &ConvGeometry) -> usize {
    let [_, _, f_w, f_d] = g.filter_shape;
    (f_w * f_d).next_multiple_of(4)
}

/// Words per packed filter row: the window's padded rows ([`padded_row`]) in groups of
/// four taps.
pub(crate) fn row_words(g: &ConvGeometry) -> usize {
    g.filter_shape[1] * padded_row(g) / 4
}

/// Words at the head of a channel pair's packed words: the two folded biases, the two
/// requantization multipliers (`m2`, [`Dot::doubling_high_mul`]'s form) and the two shifts
/// (`e - 1`, one byte each: channel `a`'s in bits 0..8, `b`'s in bits 8..16).
const HEAD: usize = 5;

/// Words per channel pair in the packed table: the [`HEAD`] and two interleaved rows.
fn pair_words(g: &ConvGeometry) -> usize {
    pair_words_of(g, 2)
}

/// Words per channel pair when a group of four taps of the pair takes `group_words` words
/// (2: int8, [`pack`]; 1: int4, [`pack_int4`]).
fn pair_words_of(g: &ConvGeometry, group_words: usize) -> usize {
    HEAD + group_words * row_words(g)
}

/// Taps per widened chunk of a window: a window of at most this many taps is
/// `conv_gemm`'s, a longer one `conv_gemm_chunked`'s, which widens it in chunks of at
/// most this many taps into a stack buffer (two pixels: 256 bytes), and each
/// chunk is read by every channel pair of a block.
pub const CHUNK_TAPS: usize = 64;
const CHUNK_GROUPS: usize = CHUNK_TAPS / 4;
/// Channel pairs per block of a window of more than one chunk: their accumulators wait on
/// the stack (128 bytes) between chunks; a window of one chunk takes every pair at once
/// and keeps none. The micro-kernel may ask for more ([`Dot::CHUNKED_BLOCK_PAIRS`]).
const BLOCK_PAIRS: usize = 8;
/// Bytes past a chunk in the gather buffer, where the fixed-size copies of a row's last
/// few taps may spill ([`put`], [`fill`]).
const SLACK: usize = 16;

/// The length of [`pack`]'s table.
#[cfg(feature = "prepare")]
pub(crate) fn packed_len(g: &ConvGeometry) -> usize {
    g.filter_shape[0].div_ceil(2) * pair_words(g)
}

/// The multiplier and shift of channel `c` (one for every channel, or per channel).
#[inline(always)]
#[cfg(feature = "prepare")]
fn channel_quant(p: &Conv2dParams<S8>, c: usize) -> (i32, i32) {
    let q = &p.quant;
    let i = if q.output_multiplier.len() == 1 { 0 } else { c };
    (q.output_multiplier[i], q.output_shift[i])
}

/// The compile-time packing (see the module doc). A channel whose multiplier is 0 outputs
/// its clamped output offset whatever it accumulates, so it is packed with a zero bias,
/// zero weights and zero requantization constants (its accumulator is then 0, which the
/// block requantization maps to 0).
#[cfg(feature = "prepare")]
pub(crate) fn pack(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
    pack_pairs(p, filter, bias, packed, 2, |rows, lane, k, w| {
        // Tap t of a group: word t % 2, byte lane + 2 * (t / 2).
        let t = k % 4;
        let word = &mut rows[2 * (k / 4) + t % 2];
        let mut bytes = word.to_le_bytes();
        bytes[lane + 2 * (t / 2)] = w as u8;
        *word = i32::from_le_bytes(bytes);
    });
}

/// [`pack`] and [`pack_int4`]'s loop: per channel pair the [`HEAD`] (folded biases,
/// multipliers, shifts), then `put(rows, lane, k, w)` for every weight `w` of the pair's
/// channel `lane` at padded position `k` of its window into the pair's rows
/// (`group_words` words per group of four taps).
#[cfg(feature = "prepare")]
fn pack_pairs(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32], group_words: usize, put: impl Fn(&mut [i32], usize, usize, i8)) {
    let g = &p.geometry;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let (row, run, prow) = (f_h * f_w * f_d, f_w * f_d, padded_row(g));
    packed.fill(0);
    for (pair, dst) in packed.chunks_exact_mut(pair_words_of(g, group_words)).enumerate() {
        let (head, rows) = dst.split_at_mut(HEAD);
        for lane in 0..2 {
            let c = 2 * pair + lane;
            if c >= out_d || channel_quant(p, c).0 == 0 {
                continue;
            }
            let taps = &filter[c * row..][..row];
            head[lane] = crate::prepare::fold_input_offset(taps.iter().copied(), bias.map_or(0, |b| b[c]), p.quant.input_offset);
            let (m2, em1) = channel_consts(p, c);
            head[2 + lane] = m2;
            head[4] |= (em1 & 0xff) << (8 * lane);
            for (i, &w) in taps.iter().enumerate() {
                // Tap i (row i / run) at padded position k.
                put(rows, lane, i / run * prow + i % run, w);
            }
        }
    }
}


/// The length of [`pack_int4`]'s table.
#[cfg(feature = "prepare")]
pub(crate) fn packed_len_int4(g: &ConvGeometry) -> usize {
    g.filter_shape[0].div_ceil(2) * pair_words_of(g, 1)
}

/// [`pack`] for an int4 filter (`filter`'s values in `-8..=7`, the unpacked weights): the
/// same heads, then per group of four taps of a channel pair one word of eight nibbles,
/// [`Dot::dot_2x2_int4`]'s order: `a t0, a t1, b t0, b t1, a t2, a t3, b t2, b t3` from the
/// low nibble up. Half the words of [`pack`]'s rows.
#[cfg(feature = "prepare")]
pub(crate) fn pack_int4(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
    use crate::kernels::int4::{pair_nibble_bit, put_nibble};
    pack_pairs(p, filter, bias, packed, 1, |rows, lane, k, w| put_nibble(&mut rows[k / 4], pair_nibble_bit(lane, k % 4), w));
}

/// CONV_2D int8 with an int4 filter packed by [`pack_int4`] (the `Gemm` variants' windows
/// and requantization, `requant_is_exact` on the unpacked filter): the `Gemm` drivers with
/// [`Dot::dot_2x2_int4`], which takes a group's weights from one word. `PW`: a pointwise
/// layer ([`is_pointwise`]). Windows of one chunk keep their sums in registers, longer ones
/// go chunk by chunk as `GemmChunked`'s.
#[inline(never)]
pub(crate) fn conv_gemm_int4<D: Dot, const PW: bool>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let Some((packed, output)) = operands(p, 1, packed, output) else { return };
    let mut buf = [0u8; CHUNK_TAPS + SLACK];
    let mut xs = [[0u32; 4]; CHUNK_GROUPS];
    let xs = &mut Int4Chunk(xs.as_flattened_mut());
    if one_chunk(g) {
        return pairs_one_chunk::<D, PW, _>(p, input, packed, output, xs, &mut buf);
    }
    chunked_loop::<D, PW, BLOCK_PAIRS, CHUNK_GROUPS, _>(p, input, packed, output, xs, &mut buf);
}

/// Whether the block requantization is exact for every input: for every channel, a
/// multiplier of 0 (see [`pack`]), or a multiplier in `[2^30, 2^31)` with a right shift of
/// 1..=31, where the high multiply `h` of an accumulator bounded by `|bias| + 255 *
/// sum |w|` (and by 2^31) stays below 2^30 in magnitude (then no step overflows).
#[cfg(feature = "prepare")]
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

/// How [`load`] puts a pixel's chunk of taps into the chunk buffer.
trait Taps {
    /// Puts `src` (whole groups of four taps) at tap `at` of pixel `slot` of `xs`.
    fn put<D: Dot>(src: &[i8], xs: &mut [u32], at: usize, slot: usize);
}

/// Widened ([`Dot::widen_into`]): four words per group, pixel `slot`'s words in each
/// ([`Dot::dot_2x2`]'s layout, or [`Dot::GEMM_QUADS`]').
struct Widened;

impl Taps for Widened {
    #[inline(always)]
    fn put<D: Dot>(src: &[i8], xs: &mut [u32], at: usize, slot: usize) {
        D::widen_into(src, &mut xs[at..], slot);
    }
}

/// [`Widened`] with the portable widening ([`crate::kernels::dot::scalar::Scalar`]'s
/// int16 lanes), whatever `D` widens to.
struct PortableWidened;

impl Taps for PortableWidened {
    #[inline(always)]
    fn put<D: Dot>(src: &[i8], xs: &mut [u32], at: usize, slot: usize) {
        <crate::kernels::dot::scalar::Scalar as Dot>::widen_into(src, &mut xs[at..], slot);
    }
}

/// As bytes in a packed channel's order ([`Dot::permute_into`], [`Dot::GEMM_BYTES`]):
/// `xs` is the pixel's own buffer (`slot` is not used).
struct Bytes;

impl Taps for Bytes {
    #[inline(always)]
    fn put<D: Dot>(src: &[i8], xs: &mut [u32], at: usize, _slot: usize) {
        D::permute_into(src, &mut bytemuck::cast_slice_mut::<u32, i8>(xs)[at..]);
    }
}

/// A pixel pair's chunk of taps in the form the micro-kernel reads: widened groups
/// ([`Dot::dot_2x2`]) or two pixels' bytes ([`Dot::dot_2x2_bytes`]).
trait PairChunk {
    /// Words of a channel pair's packed weights per group of four taps: 2 (int8, [`pack`]),
    /// 1 (int4, [`pack_int4`]).
    const GROUP_WORDS: usize = 2;
    /// Loads taps `t0..t0 + 4 * ng` of pixel `px`'s window into pixel `slot` (0 or 1).
    #[allow(clippy::too_many_arguments)]
    fn load<D: Dot, const PW: bool>(&mut self, p: &Conv2dParams<S8>, input: &[i8], px: Pixel, buf: &mut [u8], slot: usize, t0: usize, ng: usize);
    /// The block's accumulators `acc` plus the chunk's taps times a channel pair's packed
    /// words `w` (two per group of the chunk).
    fn dot<D: Dot>(&self, w: &[i32], acc: [i32; 4]) -> [i32; 4];
}

/// [`PairChunk`] of [`Dot::dot_2x2`]: the widened groups.
struct WideChunk<'a>(&'a mut [u32]);

impl PairChunk for WideChunk<'_> {
    #[inline(always)]
    fn load<D: Dot, const PW: bool>(&mut self, p: &Conv2dParams<S8>, input: &[i8], px: Pixel, buf: &mut [u8], slot: usize, t0: usize, ng: usize) {
        load::<D, PW, Widened>(p, input, px, &mut self.0[..4 * ng], buf, slot, t0, ng);
    }
    #[inline(always)]
    fn dot<D: Dot>(&self, w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        D::dot_2x2(self.0, w, acc)
    }
}

/// [`PairChunk`] of [`Dot::dot_2x2_int4`]: the widened groups, weights as int4
/// ([`pack_int4`]).
struct Int4Chunk<'a>(&'a mut [u32]);

impl PairChunk for Int4Chunk<'_> {
    const GROUP_WORDS: usize = 1;
    #[inline(always)]
    fn load<D: Dot, const PW: bool>(&mut self, p: &Conv2dParams<S8>, input: &[i8], px: Pixel, buf: &mut [u8], slot: usize, t0: usize, ng: usize) {
        let xs = &mut self.0[..4 * ng];
        if D::GEMM_QUADS || D::RAW_WIDE_TAPS {
            // An implementation whose own widening keeps raw bytes (RV32): the int16 lanes
            // `dot_2x2_int4` reads, widened portably.
            load::<D, PW, PortableWidened>(p, input, px, xs, buf, slot, t0, ng);
        } else {
            load::<D, PW, Widened>(p, input, px, xs, buf, slot, t0, ng);
        }
    }
    #[inline(always)]
    fn dot<D: Dot>(&self, w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        D::dot_2x2_int4(self.0, bytemuck::cast_slice(w), acc)
    }
}

/// [`PairChunk`] of [`Dot::dot_2x2_bytes`]: pixel 0's bytes and pixel 1's, each buffer
/// at least a chunk (the micro-kernel reads as many taps as the weights it is given have).
struct ByteChunk<'a> {
    x0: &'a mut [u32],
    x1: &'a mut [u32],
}

impl PairChunk for ByteChunk<'_> {
    #[inline(always)]
    fn load<D: Dot, const PW: bool>(&mut self, p: &Conv2dParams<S8>, input: &[i8], px: Pixel, buf: &mut [u8], slot: usize, t0: usize, ng: usize) {
        let x = if slot == 0 { &mut *self.x0 } else { &mut *self.x1 };
        load::<D, PW, Bytes>(p, input, px, &mut x[..ng], buf, 0, t0, ng);
    }
    #[inline(always)]
    fn dot<D: Dot>(&self, w: &[i32], acc: [i32; 4]) -> [i32; 4] {
        D::dot_2x2_bytes(bytemuck::cast_slice(self.x0), bytemuck::cast_slice(self.x1), w, acc)
    }
}

/// Copies `src[..len]` to `dst[at..]`. A run of at most 16 bytes is copied as one of a few
/// fixed sizes (inline loads and stores instead of a `memcpy` call, which costs more than
/// the 3 or 9 bytes of a first layer's row) when both sides have the room; the bytes it
/// writes past `len` are garbage that the caller overwrites next or never reads. Not
/// inlined: [`load_chunk`] has several call sites, and each inlined copy cost flash.
#[inline(never)]
fn put(dst: &mut [u8], at: usize, src: &[i8], len: usize) {
    let src: &[u8] = bytemuck::cast_slice(src);
    if len <= 16 && src.len() >= 16 && dst.len() >= at + 16 {
        if len <= 4 {
            dst[at..at + 4].copy_from_slice(&src[..4]);
        } else if len <= 8 {
            dst[at..at + 8].copy_from_slice(&src[..8]);
        } else if len <= 12 {
            dst[at..at + 12].copy_from_slice(&src[..12]);
        } else {
            dst[at..at + 16].copy_from_slice(&src[..16]);
        }
        return;
    }
    dst[at..at + len].copy_from_slice(&src[..len]);
}

/// Fills `dst[at..at + len]` with `v`, short runs as [`put`] does (may write up to 16
/// bytes past `at`; not inlined, as [`put`]).
#[inline(never)]
fn fill(dst: &mut [u8], at: usize, len: usize, v: u8) {
    if len <= 16 && dst.len() >= at + 16 {
        if len <= 8 {
            dst[at..at + 8].fill(v);
        } else {
            dst[at..at + 16].fill(v);
        }
        return;
    }
    dst[at..at + len].fill(v);
}

/// Whether the layer's windows are 1x1 on whole words (a pointwise layer: a window's taps
/// are its pixel's channels, with no padding taps): the drivers then run with `PW` set and
/// take [`load`]'s direct path.
#[inline(always)]
pub(crate) fn is_pointwise(g: &ConvGeometry) -> bool {
    g.filter_shape[1] == 1 && g.filter_shape[2] == 1 && g.input_shape[3].is_multiple_of(4)
}

/// [`load_chunk`], and for a pointwise layer (`PW`: [`is_pointwise`], a compile-time
/// constant so the other layers' loops are unchanged) whose pixel is inside the input,
/// the chunk straight from the pixel's channels `t0..`: the row walk's set-up costs more
/// than copying a few words (about 80 instructions per pixel on RV32 and the M4).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn load<D: Dot, const PW: bool, T: Taps>(p: &Conv2dParams<S8>, input: &[i8], px: Pixel, xs: &mut [u32], buf: &mut [u8], slot: usize, t0: usize, ng: usize) {
    if PW {
        let g = &p.geometry;
        let [_, in_h, in_w, in_d] = g.input_shape;
        let (iy, ix) = (px.oy * g.stride_height, px.ox * g.stride_width);
        if iy >= g.pad_top && ix >= g.pad_left && iy - g.pad_top < in_h && ix - g.pad_left < in_w {
            let at = ((px.b * in_h + iy - g.pad_top) * in_w + ix - g.pad_left) * in_d + t0;
            if let Some(src) = input.get(at..at + 4 * ng) {
                return T::put::<D>(src, xs, 0, slot);
            }
        }
    }
    load_chunk::<D, T>(p, input, px, xs, buf, slot, t0, ng)
}

/// Puts the padded taps `t0..t0 + 4 * ng` of the window of pixel `px` (OHWI order, each
/// row padded to [`padded_row`] taps; the padding taps read anything, their weights are
/// zero) into `xs`: straight from the input rows when the window is inside
/// the input (the padding then reads the bytes after a row, also inside `input`), else
/// through `buf`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn load_chunk<D: Dot, T: Taps>(p: &Conv2dParams<S8>, input: &[i8], px: Pixel, xs: &mut [u32], buf: &mut [u8], slot: usize, t0: usize, ng: usize) {
    let g = &p.geometry;
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, _] = g.filter_shape;
    let [in_y0, in_x0] = g.origin(px.oy, px.ox);
    let (run, prow) = (f_w * in_d, padded_row(g));
    // The chunk's taps (whole groups: prow is a multiple of 4) and the rows they are in.
    let t1 = (t0 + 4 * ng).min(f_h * prow);
    let rows = t0 / prow..t1.div_ceil(prow);
    // Whether every tap of the window is in the image (f_h, f_w >= 1: the window has taps).
    let fits = |origin: isize, dilation: usize, taps: usize, size: usize| origin >= 0 && origin as usize + (taps - 1) * dilation < size;
    // Where the window's row ky starts in the input (in_y0, in_x0 >= 0 when it fits).
    let row_at = |ky: usize| ((px.b * in_h + in_y0 as usize + ky * g.dilation_height) * in_w + in_x0 as usize) * in_d;
    if g.dilation_width == 1
        && fits(in_y0, g.dilation_height, f_h, in_h)
        && fits(in_x0, 1, f_w, in_w)
        && (run == prow || row_at(f_h - 1) + prow <= input.len())
    {
        // Every tap is in the image, and the padding after the last row (if any) is still
        // inside `input`; the part [a, b) of row ky is whole words (t0 and prow are
        // multiples of 4), at word ky * prow + a - t0 of the chunk's groups.
        for ky in rows {
            let (a, b) = (t0.max(ky * prow) - ky * prow, t1.min(ky * prow + prow) - ky * prow);
            let src = &input[row_at(ky) + a..][..b - a];
            T::put::<D>(src, xs, ky * prow + a - t0, slot);
        }
        return;
    }
    // Gather the chunk's taps into bytes, those outside the image as the input zero point
    // (a tap `w * (zp + input_offset)` = 0, the reference's skipped tap), in increasing
    // order (so what `put`/`fill` spill past a segment is overwritten by the next one).
    let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
    let kx_range = valid_taps(in_x0, g.dilation_width, f_w, in_w);
    let zero_point = (-p.quant.input_offset) as i8 as u8;
    for ky in rows {
        // The part [a, b) of padded row ky; positions from `run` on are padding (filled
        // with the zero point below, as taps outside the image).
        let (a, b) = (t0.max(ky * prow) - ky * prow, t1.min(ky * prow + prow) - ky * prow);
        let at = ky * prow + a - t0;
        if !ky_range.contains(&ky) {
            fill(buf, at, b - a, zero_point);
            continue;
        }
        let iy = (in_y0 + (ky * g.dilation_height) as isize) as usize;
        let base = (px.b * in_h + iy) * in_w;
        if g.dilation_width == 1 {
            // The valid taps of the row are the positions [lo, hi), input element
            // `(base + in_x0) * in_d + position`.
            let (lo, hi) = (kx_range.start * in_d, kx_range.end * in_d);
            let (va, vb) = (a.max(lo), b.min(hi));
            if a < va.min(b) {
                fill(buf, at, va.min(b) - a, zero_point);
            }
            if va < vb {
                let start = ((base as isize + in_x0) * in_d as isize + va as isize) as usize;
                put(buf, at + va - a, &input[start..], vb - va);
            }
            let rest = a.max(hi).max(va);
            if rest < b {
                fill(buf, at + rest - a, b - rest, zero_point);
            }
            continue;
        }
        for kx in a / in_d..b.div_ceil(in_d) {
            let (sa, sb) = (a.max(kx * in_d), b.min(kx * in_d + in_d));
            if kx_range.contains(&kx) {
                let ix = (in_x0 + (kx * g.dilation_width) as isize) as usize;
                put(buf, at + sa - a, &input[(base + ix) * in_d + sa - kx * in_d..], sb - sa);
            } else {
                fill(buf, at + sa - a, sb - sa, zero_point);
            }
        }
    }
    let bytes: &[i8] = bytemuck::cast_slice(&buf[..4 * ng]);
    T::put::<D>(bytes, xs, 0, slot);
}

/// The requantization constants of channel `c` as [`pack`] stores them, `(m2, e - 1)`. A channel with multiplier
/// 0 needs no case of its own: [`pack`] gives it a zero bias and zero weights, so it
/// accumulates 0, and `m2 = 0` maps 0 to 0 whatever the shift (a high multiply of 0 is 0,
/// and so is any arithmetic shift of 0, also by an amount past 31).
#[inline(always)]
#[cfg(feature = "prepare")]
fn channel_consts(p: &Conv2dParams<S8>, c: usize) -> (i32, i32) {
    let (m, shift) = channel_quant(p, c);
    // -shift - 1 = !shift.
    ((m as u32).wrapping_mul(2) as i32, !shift)
}

/// [`super::Conv2dVariant::Gemm`] (windows of at most one chunk, [`one_chunk`]);
/// `packed` from [`pack`].
///
/// Per pair of output pixels the window is widened once and every channel pair runs its
/// whole dot product from its folded bias and requantizes in registers
/// ([`gemm_one_chunk`]). Longer windows are [`conv_gemm_chunked`]'s: two entry functions,
/// chosen at compile time by [`super::Conv2dVariant::select`], so that a model whose
/// windows are all one chunk links neither the chunked path's code nor its stack.
#[inline(never)]
pub(crate) fn conv_gemm<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    debug_assert!(one_chunk(&p.geometry), "a window of more than one chunk is GemmChunked's");
    if let Some((packed, output)) = operands(p, 2, packed, output) {
        gemm_one_chunk::<D, false>(p, input, packed, output);
    }
}

/// [`super::Conv2dVariant::GemmPw`]: [`conv_gemm`] for a pointwise layer ([`is_pointwise`]),
/// each pixel's chunk taken straight from its channels. Its own entry (and variant) so that
/// a model links only the instantiations its layers use.
#[inline(never)]
pub(crate) fn conv_gemm_pw<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    debug_assert!(one_chunk(&p.geometry) && is_pointwise(&p.geometry), "GemmPw takes pointwise windows of one chunk");
    if let Some((packed, output)) = operands(p, 2, packed, output) {
        gemm_one_chunk::<D, true>(p, input, packed, output);
    }
}

/// [`super::Conv2dVariant::GemmChunked`] (any window; selected for windows of more than
/// one chunk); `packed` from [`pack`].
///
/// The channel pairs run in blocks of [`BLOCK_PAIRS`] ([`gemm_chunked`]): per block, each
/// chunk of the window is widened and every pair of the block adds it to its accumulators
/// (kept on the stack between chunks), the last chunk requantizes. Wrapping int32 sums, so
/// the chunking does not change the result.
#[inline(never)]
pub(crate) fn conv_gemm_chunked<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    if let Some((packed, output)) = operands(p, 2, packed, output) {
        chunked::<D, false>(p, input, packed, output);
    }
}

/// [`super::Conv2dVariant::GemmChunkedPw`]: [`conv_gemm_chunked`] for a pointwise layer
/// ([`is_pointwise`]), as [`conv_gemm_pw`].
#[inline(never)]
pub(crate) fn conv_gemm_chunked_pw<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    if let Some((packed, output)) = operands(p, 2, packed, output) {
        chunked::<D, true>(p, input, packed, output);
    }
}

/// [`conv_gemm_chunked`]'s choice of loop.
#[inline(always)]
fn chunked<D: Dot, const PW: bool>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    // The block size is the micro-kernel's ([`Dot::CHUNKED_BLOCK_PAIRS`]), a const
    // generic so that the accumulators are a fixed-size stack array.
    // So is the chunk's length ([`Dot::CHUNKED_GROUPS`]: stack buffers of widened words
    // and of gathered bytes, `BUF` = its taps plus `SLACK`).
    const _: () = assert!(CHUNK_TAPS + SLACK == 80 && 4 * 72 + SLACK == 304);
    if D::GEMM_QUADS {
        // Blocks of 32 channel pairs (16 quads of accumulators: 1 KiB of stack).
        match D::CHUNKED_GROUPS {
            72 => gemm_chunked4::<D, PW, 16, 72, 304>(p, input, packed, output),
            _ => gemm_chunked4::<D, PW, 16, CHUNK_GROUPS, 80>(p, input, packed, output),
        }
        return;
    }
    match (D::CHUNKED_BLOCK_PAIRS, D::CHUNKED_GROUPS) {
        (32, 72) => gemm_chunked::<D, PW, 32, 72, 304>(p, input, packed, output),
        (32, _) => gemm_chunked::<D, PW, 32, CHUNK_GROUPS, 80>(p, input, packed, output),
        _ => gemm_chunked::<D, PW, BLOCK_PAIRS, CHUNK_GROUPS, 80>(p, input, packed, output),
    }
}

/// Whether the window is at most one chunk ([`CHUNK_TAPS`]): [`conv_gemm`]'s windows.
pub(crate) fn one_chunk(g: &ConvGeometry) -> bool {
    row_words(g) <= CHUNK_GROUPS
}

/// `packed` (`group_words` words per group of four taps of a channel pair: 2 for [`pack`],
/// 1 for [`pack_int4`]) and `output` cut to the lengths the geometry needs, or `None` when
/// there is nothing to compute.
#[inline(always)]
fn operands<'a, 'o>(p: &Conv2dParams<S8>, group_words: usize, packed: &'a [i32], output: &'o mut [i8]) -> Option<(&'a [i32], &'o mut [i8])> {
    let g = &p.geometry;
    let [batches, _, _, _] = g.input_shape;
    let [out_d, _, _, _] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let pixels = batches * out_h * out_w;
    if pixels == 0 || out_d == 0 || row_words(g) == 0 {
        return None;
    }
    Some((&packed[..out_d.div_ceil(2) * pair_words_of(g, group_words)], &mut output[..pixels * out_d]))
}

/// The output pixels in pairs: each block of `outs` (two pixels' outputs, or a lone last
/// pixel's) with its pixels and whether it has two.
#[inline(always)]
fn pixel_pairs<'o>(p: &Conv2dParams<S8>, output: &'o mut [i8]) -> impl Iterator<Item = (&'o mut [i8], Pixel, Pixel, bool)> {
    let [out_d, _, _, _] = p.geometry.filter_shape;
    let [_, out_h, out_w, _] = p.geometry.output_shape;
    let mut px = Pixel { b: 0, oy: 0, ox: 0 };
    output.chunks_mut(2 * out_d).map(move |outs| {
        let (px0, two) = (px, outs.len() == 2 * out_d);
        px.advance(out_h, out_w);
        let px1 = px;
        if two {
            px.advance(out_h, out_w);
        }
        (outs, px0, px1, two)
    })
}

/// The output pixels in blocks of four ([`Dot::GEMM_QUADS`]): each block of `outs` (four
/// pixels' outputs, or the last one to three), its pixels, and how many it has.
#[inline(always)]
fn pixel_quads<'o>(p: &Conv2dParams<S8>, output: &'o mut [i8]) -> impl Iterator<Item = (&'o mut [i8], [Pixel; 4], usize)> {
    let [out_d, _, _, _] = p.geometry.filter_shape;
    let [_, out_h, out_w, _] = p.geometry.output_shape;
    let mut px = Pixel { b: 0, oy: 0, ox: 0 };
    output.chunks_mut(4 * out_d).map(move |outs| {
        let n = outs.len() / out_d.max(1);
        let mut pxs = [px; 4];
        for (s, q) in pxs.iter_mut().enumerate().take(n) {
            *q = px;
            if s + 1 < n {
                px.advance(out_h, out_w);
            }
        }
        px.advance(out_h, out_w);
        (outs, pxs, n)
    })
}

/// Requantizes and stores one block of [`Dot::dot_4x4`] (`acc`: pairs `a` and `b` of
/// four pixels, channels `c..c + 4`, or `c..c + 2` when `b` is `None`) into `outs` (the
/// block's pixels' outputs, pixels 2 and 3 from `2 * out_d` on).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn store_quad<D: Dot>(out_d: usize, acc: [[i32; 4]; 4], ha: &[i32; HEAD], hb: Option<&[i32; HEAD]>, c: usize, c1: i32, lo: i8, hi: i8, outs: &mut [i8]) {
    let (near, far) = outs.split_at_mut((2 * out_d).min(outs.len()));
    store(out_d, requant_pair::<D>(acc[0], ha, c1, lo, hi), c, near);
    store(out_d, requant_pair::<D>(acc[2], ha, c1, lo, hi), c, far);
    if let Some(hb) = hb {
        store(out_d, requant_pair::<D>(acc[1], hb, c1, lo, hi), c + 2, near);
        store(out_d, requant_pair::<D>(acc[3], hb, c1, lo, hi), c + 2, far);
    }
}

/// Gathered taps on a word boundary, so that a `Dot::widen_into` that copies words
/// ([`Dot::GEMM_QUADS`]' RV32 one) takes them a word at a time.
#[repr(C, align(4))]
struct WordAligned<const N: usize>([u8; N]);

/// [`gemm_one_chunk`] in blocks of four pixels ([`Dot::GEMM_QUADS`]): per block the
/// window of each pixel is copied once into its slot, and every two channel pairs run
/// their whole dot product ([`Dot::dot_4x4`]) from their folded biases; an odd last pair
/// runs as both pairs of a block (its second results unused). Pixel slots past the last
/// pixel of a call's last block keep the previous block's taps; their results are not
/// stored.
#[inline(never)]
fn gemm_one_chunk4<D: Dot, const PW: bool>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let mut xs_buf = [0u32; 4 * CHUNK_GROUPS];
    let mut buf = WordAligned([0u8; CHUNK_TAPS + SLACK]);
    quads_one_chunk::<D, PW>(p, input, packed, output, &mut xs_buf, &mut buf.0);
}

/// [`gemm_one_chunk4`]'s loop on buffers of any size (`xs_buf` at least the window's
/// groups, `buf` at least its taps plus [`SLACK`]): also [`gemm_chunked4`]'s when the
/// window is one of its chunks, so that the accumulators go from the biases to the
/// requantization without the round trip through the stack that chunks need. Not inlined:
/// both callers share one copy of the loop and its inlined micro-kernels (about 4 KB on
/// RV32).
#[inline(never)]
fn quads_one_chunk<D: Dot, const PW: bool>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8], xs_buf: &mut [u32], buf: &mut [u8]) {
    let k4 = row_words(&p.geometry);
    let (out_d, pw) = (p.geometry.filter_shape[0], pair_words(&p.geometry));
    let (c1, lo, hi) = (1 + 2 * p.quant.output_offset, p.clamp.min, p.clamp.max);
    let Some(xs) = xs_buf.get_mut(..4 * k4) else { return };
    for (outs, pxs, n) in pixel_quads(p, output) {
        for (slot, &px) in pxs.iter().enumerate().take(n) {
            load::<D, PW, Widened>(p, input, px, xs, buf, slot, 0, k4);
        }
        let quads = packed.chunks_exact(2 * pw);
        let odd = quads.remainder();
        let mut c = 0;
        for wq in quads {
            let (wa, wb) = wq.split_at(pw);
            let (Some((ha, wa)), Some((hb, wb))) = (wa.split_first_chunk::<HEAD>(), wb.split_first_chunk::<HEAD>()) else { return };
            let (ia, ib) = ([ha[0], ha[1], ha[0], ha[1]], [hb[0], hb[1], hb[0], hb[1]]);
            let acc = D::dot_4x4(xs, wa, wb, [ia, ib, ia, ib]);
            store_quad::<D>(out_d, acc, ha, Some(hb), c, c1, lo, hi, outs);
            c += 4;
        }
        if let Some((h, w)) = odd.split_first_chunk::<HEAD>() {
            let i = [h[0], h[1], h[0], h[1]];
            let acc = D::dot_4x4(xs, w, w, [i, i, i, i]);
            store_quad::<D>(out_d, acc, h, None, c, c1, lo, hi, outs);
        }
    }
}

/// [`conv_gemm`]'s loop (windows of at most one chunk).
#[inline(never)]
fn gemm_one_chunk<D: Dot, const PW: bool>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    if D::GEMM_QUADS {
        return gemm_one_chunk4::<D, PW>(p, input, packed, output);
    }
    // The padding taps of the last group (zero weights) read whatever is there.
    let mut buf = [0u8; CHUNK_TAPS + SLACK];
    if D::GEMM_BYTES {
        let (mut x0, mut x1) = ([0u32; CHUNK_GROUPS], [0u32; CHUNK_GROUPS]);
        return pairs_one_chunk::<D, PW, _>(p, input, packed, output, &mut ByteChunk { x0: &mut x0, x1: &mut x1 }, &mut buf);
    }
    let mut xs_buf = [0u32; 4 * CHUNK_GROUPS];
    pairs_one_chunk::<D, PW, _>(p, input, packed, output, &mut WideChunk(&mut xs_buf), &mut buf);
}

/// [`gemm_one_chunk`]'s loop on buffers of any size (`xs` at least the window's
/// groups, `buf` at least its taps plus [`SLACK`]): also [`gemm_chunked`]'s when its chunks
/// are longer than [`CHUNK_TAPS`] (Helium's 288) and the window is one of them, so that
/// the accumulators go from the biases to the requantization without the round trip
/// through the stack that chunks need. Not inlined, as [`quads_one_chunk`]: one copy of
/// the loop for both callers (Cortex-M55 vww and person_detect images 3.6 KB smaller).
#[inline(never)]
fn pairs_one_chunk<D: Dot, const PW: bool, C: PairChunk>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8], xs: &mut C, buf: &mut [u8]) {
    let k4 = row_words(&p.geometry);
    let (c1, lo, hi) = (1 + 2 * p.quant.output_offset, p.clamp.min, p.clamp.max);
    for (outs, px0, px1, two) in pixel_pairs(p, output) {
        xs.load::<D, PW>(p, input, px0, buf, 0, 0, k4);
        if two {
            xs.load::<D, PW>(p, input, px1, buf, 1, 0, k4);
        }
        block_row::<D, C>(p.geometry.filter_shape[0], xs, packed, pair_words_of(&p.geometry, C::GROUP_WORDS), c1, lo, hi, outs);
    }
}

/// [`conv_gemm_chunked`]'s loop (any window; one chunk at a time).
#[inline(never)]
fn gemm_chunked<D: Dot, const PW: bool, const PAIRS: usize, const GROUPS: usize, const BUF: usize>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    // Arrays of groups, flattened (a const generic may only be a whole length).
    let mut buf = [0u8; BUF];
    if D::GEMM_BYTES {
        let (mut x0, mut x1) = ([0u32; GROUPS], [0u32; GROUPS]);
        let xs = &mut ByteChunk { x0: &mut x0, x1: &mut x1 };
        return chunked_loop::<D, PW, PAIRS, GROUPS, _>(p, input, packed, output, xs, &mut buf);
    }
    let mut xs_groups = [[0u32; 4]; GROUPS];
    chunked_loop::<D, PW, PAIRS, GROUPS, _>(p, input, packed, output, &mut WideChunk(xs_groups.as_flattened_mut()), &mut buf)
}

/// [`gemm_chunked`]'s loop on its buffers (`xs` a chunk of `GROUPS` groups).
#[inline(always)]
fn chunked_loop<D: Dot, const PW: bool, const PAIRS: usize, const GROUPS: usize, C: PairChunk>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8], xs: &mut C, buf: &mut [u8]) {
    let k4 = row_words(&p.geometry);
    let chunks = k4.div_ceil(GROUPS);
    let pw = pair_words_of(&p.geometry, C::GROUP_WORDS);
    if GROUPS > CHUNK_GROUPS && chunks == 1 {
        return pairs_one_chunk::<D, PW, C>(p, input, packed, output, xs, buf);
    }
    let mut accs = [[0i32; 4]; PAIRS];
    let (c1, lo, hi) = (1 + 2 * p.quant.output_offset, p.clamp.min, p.clamp.max);
    for (outs, px0, px1, two) in pixel_pairs(p, output) {
        for (blk, wps) in packed.chunks(PAIRS * pw).enumerate() {
            for chunk in 0..chunks {
                let g0 = chunk * GROUPS;
                let ng = GROUPS.min(k4 - g0);
                xs.load::<D, PW>(p, input, px0, buf, 0, 4 * g0, ng);
                if two {
                    xs.load::<D, PW>(p, input, px1, buf, 1, 4 * g0, ng);
                }
                let (first, last) = (chunk == 0, chunk + 1 == chunks);
                // A vector requantization of the whole block after its last chunk (two
                // pixels, an even depth: every block but possibly a call's last).
                let out_d = p.geometry.filter_shape[0];
                let block = D::BLOCK_REQUANT && two && out_d.is_multiple_of(2);
                let mut n = 0;
                for (j, (wp, acc)) in wps.chunks_exact(pw).zip(accs.iter_mut()).enumerate() {
                    let Some((head, w)) = wp.split_first_chunk::<HEAD>() else { return };
                    let start = if first { [head[0], head[1], head[0], head[1]] } else { *acc };
                    *acc = xs.dot::<D>(&w[C::GROUP_WORDS * g0..][..C::GROUP_WORDS * ng], start);
                    n += 1;
                    if last && !block {
                        let v = requant_pair::<D>(*acc, head, c1, lo, hi);
                        store(out_d, v, 2 * (blk * PAIRS + j), outs);
                    }
                }
                if last && block {
                    let (o0, o1) = outs.split_at_mut(out_d);
                    let c = 2 * blk * PAIRS;
                    D::requant_pairs(&accs[..n], wps, pw, c1, lo, hi, &mut o0[c..], &mut o1[c..]);
                }
            }
        }
    }
}

/// [`gemm_chunked`] in blocks of four pixels ([`Dot::GEMM_QUADS`], as [`gemm_one_chunk4`]):
/// per block of `2 * QUADS` channel pairs, each chunk of the four windows is copied once
/// and every two pairs add it to their sixteen accumulators ([`Dot::dot_4x4`], kept on the
/// stack between chunks); the last chunk requantizes and stores.
#[inline(never)]
fn gemm_chunked4<D: Dot, const PW: bool, const QUADS: usize, const GROUPS: usize, const BUF: usize>(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let k4 = row_words(&p.geometry);
    let chunks = k4.div_ceil(GROUPS);
    let (out_d, pw) = (p.geometry.filter_shape[0], pair_words(&p.geometry));
    let mut xs_groups = [[0u32; 4]; GROUPS];
    let xs_buf = xs_groups.as_flattened_mut();
    let mut buf = WordAligned([0u8; BUF]);
    if chunks == 1 {
        return quads_one_chunk::<D, PW>(p, input, packed, output, xs_buf, &mut buf.0);
    }
    let mut accs = [[[0i32; 4]; 4]; QUADS];
    let (c1, lo, hi) = (1 + 2 * p.quant.output_offset, p.clamp.min, p.clamp.max);
    for (outs, pxs, n) in pixel_quads(p, output) {
        for (blk, wps) in packed.chunks(2 * QUADS * pw).enumerate() {
            for chunk in 0..chunks {
                let g0 = chunk * GROUPS;
                let ng = GROUPS.min(k4 - g0);
                let xs = &mut xs_buf[..4 * ng];
                for (slot, &px) in pxs.iter().enumerate().take(n) {
                    load::<D, PW, Widened>(p, input, px, xs, &mut buf.0, slot, 4 * g0, ng);
                }
                let (first, last) = (chunk == 0, chunk + 1 == chunks);
                let start = |i: [[i32; 4]; 4], acc: [[i32; 4]; 4]| if first { i } else { acc };
                let quads = wps.chunks_exact(2 * pw);
                let odd = quads.remainder();
                let mut c = 4 * QUADS * blk;
                let mut accs = accs.iter_mut();
                for (wq, acc) in quads.zip(&mut accs) {
                    let (wa, wb) = wq.split_at(pw);
                    let (Some((ha, wa)), Some((hb, wb))) = (wa.split_first_chunk::<HEAD>(), wb.split_first_chunk::<HEAD>()) else { return };
                    let (ia, ib) = ([ha[0], ha[1], ha[0], ha[1]], [hb[0], hb[1], hb[0], hb[1]]);
                    *acc = D::dot_4x4(xs, &wa[2 * g0..][..2 * ng], &wb[2 * g0..][..2 * ng], start([ia, ib, ia, ib], *acc));
                    if last {
                        store_quad::<D>(out_d, *acc, ha, Some(hb), c, c1, lo, hi, outs);
                    }
                    c += 4;
                }
                if let (Some((h, w)), Some(acc)) = (odd.split_first_chunk::<HEAD>(), accs.next()) {
                    let i = [h[0], h[1], h[0], h[1]];
                    let w = &w[2 * g0..][..2 * ng];
                    *acc = D::dot_4x4(xs, w, w, start([i, i, i, i], *acc));
                    if last {
                        store_quad::<D>(out_d, *acc, h, None, c, c1, lo, hi, outs);
                    }
                }
            }
        }
    }
}

/// Every channel pair of `packed` (`pw` words each) over one pixel pair whose windows are
/// one chunk (`outs`: the two pixels' `out_d` outputs, or a lone last pixel's). With an even
/// `out_d` and two pixels (every block but possibly a call's last) each pair's four outputs
/// are two halfword stores with no bounds checks; otherwise [`store`] writes what exists.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block_row<D: Dot, C: PairChunk>(out_d: usize, xs: &C, packed: &[i32], pw: usize, c1: i32, lo: i8, hi: i8, outs: &mut [i8]) {
    let pairs = packed.chunks_exact(pw);
    if D::BLOCK_REQUANT && out_d >= 32 && out_d.is_multiple_of(2) && outs.len() == 2 * out_d {
        // A vector requantization: the accumulators of up to 32 pairs on the stack, then
        // one `requant_pairs` for them (from 32 channels on: below, the round trip through
        // the stack cost more than it saved, measured on vww's 8- and 16-channel layers).
        const ROW: usize = 32;
        let (o0, o1) = outs.split_at_mut(out_d);
        let mut accs = [[0i32; 4]; ROW];
        for ((blk, d0), d1) in packed.chunks(ROW * pw).zip(o0.chunks_mut(2 * ROW)).zip(o1.chunks_mut(2 * ROW)) {
            let mut n = 0;
            for (acc, wp) in accs.iter_mut().zip(blk.chunks_exact(pw)) {
                let Some((head, w)) = wp.split_first_chunk::<HEAD>() else { return };
                *acc = xs.dot::<D>(w, [head[0], head[1], head[0], head[1]]);
                n += 1;
            }
            D::requant_pairs(&accs[..n], blk, pw, c1, lo, hi, d0, d1);
        }
        return;
    }
    if out_d.is_multiple_of(2) && outs.len() == 2 * out_d {
        let (o0, o1) = outs.split_at_mut(out_d);
        for ((d0, d1), wp) in o0.chunks_exact_mut(2).zip(o1.chunks_exact_mut(2)).zip(pairs) {
            let Some((head, w)) = wp.split_first_chunk::<HEAD>() else { return };
            let acc = xs.dot::<D>(w, [head[0], head[1], head[0], head[1]]);
            let v = requant_pair::<D>(acc, head, c1, lo, hi).to_le_bytes().map(|b| b as i8);
            d0.copy_from_slice(&v[..2]);
            d1.copy_from_slice(&v[2..]);
        }
        return;
    }
    for (pair, wp) in pairs.enumerate() {
        let Some((head, w)) = wp.split_first_chunk::<HEAD>() else { return };
        let acc = cold_dot::<D, C>(xs, w, [head[0], head[1], head[0], head[1]]);
        store(out_d, requant_pair::<D>(acc, head, c1, lo, hi), 2 * pair, outs);
    }
}

/// [`PairChunk::dot`] for [`block_row`]'s rare blocks (a call's lone last pixel, an odd
/// channel count): not inlined, so that the micro-kernel is not copied once more for them.
#[inline(never)]
fn cold_dot<D: Dot, C: PairChunk>(xs: &C, w: &[i32], acc: [i32; 4]) -> [i32; 4] {
    xs.dot::<D>(w, acc)
}

/// Requantizes the block `acc` (`[p0 a, p0 b, p1 a, p1 b]`) of one channel pair with the
/// constants of its packed `head`: the four int8 results as a word, `p0 a` in the low byte.
#[inline(always)]
fn requant_pair<D: Dot>(acc: [i32; 4], head: &[i32; HEAD], c1: i32, lo: i8, hi: i8) -> u32 {
    let (ma, mb, sa) = (head[2], head[3], head[4]);
    // Channel b's shift is byte 1; `shift_right` reads only the low byte's amount.
    let sb = sa >> 8;
    let rq = |acc: i32, m2: i32, e: i32| {
        let h = D::doubling_high_mul(acc, m2);
        D::shift_right(h.wrapping_add(h >> 31), e).wrapping_add(c1)
    };
    D::pack4_halved([rq(acc[0], ma, sa), rq(acc[1], mb, sb), rq(acc[2], ma, sa), rq(acc[3], mb, sb)], lo, hi)
}

/// Stores the requantized block `v` ([`requant_pair`]) of channels `c`, `c + 1` into
/// `outs` (two pixels' `out_d` outputs, or a lone pixel's), what of it exists.
#[inline(always)]
fn store(out_d: usize, v: u32, c: usize, outs: &mut [i8]) {
    let v = v.to_le_bytes().map(|b| b as i8);
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
