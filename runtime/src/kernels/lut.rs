//! Weights kept in TFLite Micro's LUT-compressed form (`TFLM_DECODE`, decode type 0,
//! `DecodeStateLut`): a value table per output channel and a bit string of indices of 1 to
//! 7 bits, read in flash as they are and decoded by the kernels as they read them. The
//! int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED `_lut` kernels decode one output
//! channel's weights (or a block of them) into a small stack buffer and run the shared dot
//! micro-kernels ([`crate::kernels::dot::Dot`]) on it; the whole filter is never in RAM.
//!
//! Bit-exact with the same op on the decoded filter (`DecodeStateLut` then the int8
//! kernel): element `k` of channel `c` is `table[c * stride + index_k]` (`table[index_k]`
//! for a single table), the sums are the same wrapping int32 sums, the requantization the
//! same. The compiler checks every index against the table at compile time (it decodes the
//! tensor once and compares), so the kernels trust their inputs.
//!
//! The compiler re-orders the indices (never their width) so that each output channel's
//! weights are one run of the bit string: CONV_2D and FULLY_CONNECTED already store them
//! so (output channel first); DEPTHWISE_CONV_2D's `[1, h, w, channels]` filter is
//! transposed to channel-major rows of `h * w` taps.
//!
//! The drivers read their filter through [`WeightRows`], so the same three loop nests also
//! serve int4 filters kept packed ([`crate::kernels::int4::Int4Weights`]): a weight source is
//! one more `decode`, never a copy of a driver.

use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::dot::Dot;
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::{Numerics, S8};
use crate::kernels::requant::Requant;

/// Bytes of the stack buffer a kernel decodes weights into. A CONV_2D or FULLY_CONNECTED
/// row up to this long is decoded once per output channel; a longer one is decoded in
/// pieces of this size at every use (slower, no larger buffer). DEPTHWISE_CONV_2D decodes
/// four channels' taps at a time, so it takes filters of up to `BLOCK / 4` taps
/// ([`DEPTHWISE_MAX_TAPS`]; the compiler decodes larger ones at compile time).
pub const BLOCK: usize = 512;

/// The largest DEPTHWISE_CONV_2D window (`h * w` taps) the `_lut` kernel takes.
pub const DEPTHWISE_MAX_TAPS: usize = BLOCK / 4;

/// A filter in LUT form. `indices` is an MSB-first bit string of `width`-bit indices, one
/// per weight, output channel `c`'s weights being elements `c * row .. (c + 1) * row`
/// (`row` the weights per output channel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LutWeights<'a> {
    /// Bits per index, 1 to 7.
    pub width: u8,
    /// Entries between two channels' value tables (`value_table_channel_stride`).
    pub stride: usize,
    /// One value table per output channel; else every channel reads the first.
    pub per_channel: bool,
    /// The value tables.
    pub table: &'a [i8],
    /// The indices.
    pub indices: &'a [u8],
}

/// A filter the `_lut` drivers read in output-channel rows: `decode` writes elements `start ..
/// start + out.len()` of the flat filter (output channel `channel`'s row holds `start`) as
/// int8 into `out`. The compiler checks every element the kernel will read at compile time,
/// so implementations trust their inputs.
pub trait WeightRows {
    /// Decodes elements `start .. start + out.len()` (of output channel `channel`) into `out`.
    fn decode(&self, channel: usize, start: usize, out: &mut [i8]);
}

impl WeightRows for LutWeights<'_> {
    #[inline]
    fn decode(&self, channel: usize, start: usize, out: &mut [i8]) {
        LutWeights::decode(self, channel, start, out)
    }
}

impl LutWeights<'_> {
    /// Decodes elements `start .. start + out.len()` of the bit string with output channel
    /// `channel`'s table into `out`.
    #[inline]
    pub fn decode(&self, channel: usize, start: usize, out: &mut [i8]) {
        let table = if self.per_channel { &self.table[channel * self.stride..] } else { self.table };
        match self.width {
            1 => decode_w::<1>(self.indices, table, start, out),
            2 => decode_w::<2>(self.indices, table, start, out),
            3 => decode_w::<3>(self.indices, table, start, out),
            4 => decode_w::<4>(self.indices, table, start, out),
            5 => decode_w::<5>(self.indices, table, start, out),
            6 => decode_w::<6>(self.indices, table, start, out),
            _ => decode_w::<7>(self.indices, table, start, out),
        }
    }
}

/// [`LutWeights::decode`] for `W`-bit indices: a bit buffer refilled a byte at a time (the
/// bit string's last byte followed by zeros), each index its top `W` unread bits.
#[inline(always)]
fn decode_w<const W: usize>(indices: &[u8], table: &[i8], start: usize, out: &mut [i8]) {
    let mask = (1u32 << W) - 1;
    let pos = start * W;
    // Widths that divide a byte, from a byte boundary: whole bytes of `8 / W` indices each
    // (most of a row: FULLY_CONNECTED reads each weight once per inference), then the rest.
    if 8 % W == 0 && pos.is_multiple_of(8) {
        let per = 8 / W;
        let whole = out.len() / per;
        let (head, tail) = out.split_at_mut(whole * per);
        let bytes = &indices[pos / 8..][..whole];
        for (o, &b) in head.chunks_exact_mut(per).zip(bytes) {
            for (j, v) in o.iter_mut().enumerate() {
                *v = table[((u32::from(b) >> (8 - W * (j + 1))) & mask) as usize];
            }
        }
        if !tail.is_empty() {
            decode_bits::<W>(indices, table, start + whole * per, tail);
        }
        return;
    }
    decode_bits::<W>(indices, table, start, out)
}

/// [`decode_w`] from any bit position.
#[inline(always)]
fn decode_bits<const W: usize>(indices: &[u8], table: &[i8], start: usize, out: &mut [i8]) {
    let mask = (1u32 << W) - 1;
    let pos = start * W;
    let mut next = pos >> 3;
    let mut buf = u32::from(indices.get(next).copied().unwrap_or(0));
    let mut bits = 8 - (pos & 7);
    next += 1;
    for o in out {
        if bits < W {
            buf = buf << 8 | u32::from(indices.get(next).copied().unwrap_or(0));
            next += 1;
            bits += 8;
        }
        bits -= W;
        *o = table[((buf >> bits) & mask) as usize];
    }
}

/// The requantized output of output channel `oc` for the wrapping sum `acc`.
#[inline(always)]
fn finish(acc: i32, bias: Option<&[i32]>, q: &crate::kernels::numerics::QuantS8<'_>, oc: usize, clamp: &crate::kernels::numerics::Clamp<i8>) -> i8 {
    let acc = match bias {
        Some(b) => S8::add_bias(acc, b[oc]),
        None => acc,
    };
    S8::requantize(acc, q, oc, clamp)
}

/// FULLY_CONNECTED int8 on LUT weights (`[units, depth]`), symmetric weights
/// (`weights_offset == 0`): four units' rows decoded at a time while they fit [`BLOCK`],
/// else one unit's (in pieces past [`BLOCK`]), and dotted with every batch row.
#[inline(never)]
pub(crate) fn fully_connected_lut<D: Dot>(p: &FullyConnectedParams<S8>, input: &[i8], w: &impl WeightRows, bias: Option<&[i32]>, output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    debug_assert_eq!(p.weights_offset, 0);
    let off = p.quant.input_offset;
    let mut buf = [0i8; BLOCK];
    // Four units at a time while their rows fit the buffer together: one pass over each
    // batch row feeds four sums (`Dot::dot4_offset`).
    let mut first = 0;
    let rq = Requant::new(&p.quant, &p.clamp);
    if depth > 0 && 4 * depth <= BLOCK {
        while first + 4 <= units {
            for j in 0..4 {
                w.decode(first + j, (first + j) * depth, &mut buf[j * depth..(j + 1) * depth]);
            }
            let (r0, rest) = buf.split_at(depth);
            let (r1, rest) = rest.split_at(depth);
            let (r2, r3) = rest.split_at(depth);
            let init: [i32; 4] = core::array::from_fn(|j| bias.map_or(0, |b| b[first + j]));
            for b in 0..batches {
                let acc = D::dot4_offset(&input[b * depth..][..depth], [r0, r1, r2, &r3[..depth]], off, init);
                rq.store(first, &acc, &mut output[b * units + first..][..4]);
            }
            first += 4;
        }
    }
    for u in first..units {
        if depth <= BLOCK {
            let ws = &mut buf[..depth];
            w.decode(u, u * depth, ws);
            for b in 0..batches {
                let acc = D::dot1_offset(&input[b * depth..][..depth], ws, off, 0);
                output[b * units + u] = finish(acc, bias, &p.quant, u, &p.clamp);
            }
        } else {
            for b in 0..batches {
                let mut acc = 0;
                for s in (0..depth).step_by(BLOCK) {
                    let n = BLOCK.min(depth - s);
                    w.decode(u, u * depth + s, &mut buf[..n]);
                    acc = D::dot1_offset(&input[b * depth + s..][..n], &buf[..n], off, acc);
                }
                output[b * units + u] = finish(acc, bias, &p.quant, u, &p.clamp);
            }
        }
    }
}

/// CONV_2D int8 on LUT weights (`[out_d, h, w, f_d]`, grouped too): four output channels'
/// rows (`h * w * f_d` weights each) decoded once when they fit [`BLOCK`] together (no
/// groups), then every output pixel of those channels; the rest one channel at a time, its
/// row decoded once when it fits, else each tap's weights decoded in pieces as the window
/// reads them. Taps outside the image are skipped (TFLite's `ConvPerChannel`); without
/// groups or column dilation a window row's taps are one dot product.
#[inline(never)]
pub(crate) fn conv_2d_lut<D: Dot>(p: &Conv2dParams<S8>, input: &[i8], w: &impl WeightRows, bias: Option<&[i32]>, output: &mut [i8]) {
    let g = &p.geometry;
    let in_d = g.input_shape[3];
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    if f_d == 0 || out_d == 0 {
        return;
    }
    let groups = in_d / f_d;
    let per_group = out_d / groups.max(1);
    let row = f_h * f_w * f_d;
    let fits = row <= BLOCK;
    let off = p.quant.input_offset;
    // Without groups or column dilation, a window row's valid taps are one run of
    // `taps * f_d` bytes in the input and in the filter row: one dot product per window row.
    let merge = groups == 1 && g.dilation_width == 1;
    let mut buf = [0i8; BLOCK];
    // Four output channels at a time while their rows fit the buffer together (and no
    // groups): one pass over each window feeds four sums (`Dot::dot4_offset`).
    let mut first = 0;
    let rq = Requant::new(&p.quant, &p.clamp);
    if groups == 1 && row > 0 && 4 * row <= BLOCK {
        while first + 4 <= out_d {
            for j in 0..4 {
                w.decode(first + j, (first + j) * row, &mut buf[j * row..(j + 1) * row]);
            }
            let (r0, rest) = buf.split_at(row);
            let (r1, rest) = rest.split_at(row);
            let (r2, r3) = rest.split_at(row);
            let r3 = &r3[..row];
            // The bias starts the sums (wrapping int32 sums in any order are the same).
            let init: [i32; 4] = core::array::from_fn(|j| bias.map_or(0, |b| b[first + j]));
            for win in g.windows() {
                let mut acc = init;
                for ky in win.ky.clone() {
                    let runs = if merge { win.kx.start..win.kx.start + usize::from(!win.kx.is_empty()) } else { win.kx.clone() };
                    let n = if merge { win.kx.len() * f_d } else { f_d };
                    for kx in runs {
                        let xs = &input[win.input_pixel(g, ky, kx) * in_d..][..n];
                        let t = (ky * f_w + kx) * f_d;
                        acc = D::dot4_offset(xs, [&r0[t..t + n], &r1[t..t + n], &r2[t..t + n], &r3[t..t + n]], off, acc);
                    }
                }
                let at = win.output_pixel(g) * out_d + first;
                rq.store(first, &acc, &mut output[at..at + 4]);
            }
            first += 4;
        }
    }
    for oc in first..out_d {
        let in_c0 = (oc / per_group.max(1)) * f_d;
        if fits {
            w.decode(oc, oc * row, &mut buf[..row]);
        }
        for win in g.windows() {
            let mut acc = 0;
            for ky in win.ky.clone() {
                if fits && merge {
                    if let Some(kx) = win.kx.clone().next() {
                        let n = win.kx.len() * f_d;
                        let xs = &input[win.input_pixel(g, ky, kx) * in_d..][..n];
                        let tap = (ky * f_w + kx) * f_d;
                        acc = D::dot1_offset(xs, &buf[tap..tap + n], off, acc);
                    }
                    continue;
                }
                for kx in win.kx.clone() {
                    let xs = &input[win.input_pixel(g, ky, kx) * in_d + in_c0..][..f_d];
                    let tap = (ky * f_w + kx) * f_d;
                    if fits {
                        acc = D::dot1_offset(xs, &buf[tap..tap + f_d], off, acc);
                    } else {
                        for s in (0..f_d).step_by(BLOCK) {
                            let n = BLOCK.min(f_d - s);
                            w.decode(oc, oc * row + tap + s, &mut buf[..n]);
                            acc = D::dot1_offset(&xs[s..s + n], &buf[..n], off, acc);
                        }
                    }
                }
            }
            output[win.output_pixel(g) * out_d + oc] = finish(acc, bias, &p.quant, oc, &p.clamp);
        }
    }
}

/// DEPTHWISE_CONV_2D int8 on LUT weights, the indices in channel-major rows of `h * w`
/// taps (at most [`DEPTHWISE_MAX_TAPS`]): four output channels' taps decoded at a time
/// (lane `j` of tap `t` at `4t + j`), then every output pixel of those channels with the
/// four-lane multiply-accumulate, lanes past the last channel zero. A whole block of four
/// channels with depth multiplier 1 (every block of kws's depthwise layers) reads its four
/// inputs of a tap as one run; a tail block or another multiplier gathers each lane's input
/// channel ([`depthwise_block`]).
#[inline(never)]
pub(crate) fn depthwise_conv_2d_lut<D: Dot>(p: &DepthwiseConv2dParams<S8>, input: &[i8], w: &impl WeightRows, bias: Option<&[i32]>, output: &mut [i8]) {
    let [_, f_h, f_w, out_d] = p.geometry.filter_shape;
    let mult = p.depth_multiplier();
    let taps = f_h * f_w;
    if mult == 0 || taps > DEPTHWISE_MAX_TAPS {
        return;
    }
    let mut buf = [0i8; BLOCK];
    let mut one = [0i8; DEPTHWISE_MAX_TAPS];
    for c0 in (0..out_d).step_by(4) {
        let n = 4.min(out_d - c0);
        buf[..4 * taps].fill(0);
        for j in 0..n {
            w.decode(c0 + j, (c0 + j) * taps, &mut one[..taps]);
            for (t, &v) in one[..taps].iter().enumerate() {
                buf[4 * t + j] = v;
            }
        }
        depthwise_block::<D>(p, input, &buf[..4 * taps], c0, n, bias, output);
    }
}

/// Every output pixel of output channels `c0 .. c0 + n` of [`depthwise_conv_2d_lut`], the
/// block's taps decoded into `taps` (lane `j` of tap `t` at `4t + j`). The sums start at the
/// bias (one more wrapping term: the same int32 sums), then each is requantized.
/// A whole block with depth multiplier 1 (`wide`) reads the four inputs of a tap as the run
/// `c0 .. c0 + 4` of the input pixel; otherwise lane `j` gathers input channel
/// `(c0 + j) / multiplier`. One copy of the loop for both (a branch per tap, not a second
/// instantiation: the code is flash too).
#[inline(always)]
fn depthwise_block<D: Dot>(
    p: &DepthwiseConv2dParams<S8>,
    input: &[i8],
    taps: &[i8],
    c0: usize,
    n: usize,
    bias: Option<&[i32]>,
    output: &mut [i8],
) {
    let g = &p.geometry;
    let in_d = g.input_shape[3];
    let [_, _, f_w, out_d] = g.filter_shape;
    let mult = p.depth_multiplier();
    let wide = n == 4 && mult == 1;
    let off = p.quant.input_offset;
    let init: [i32; 4] = core::array::from_fn(|j| if j < n { bias.map_or(0, |b| b[c0 + j]) } else { 0 });
    for win in g.windows() {
        let mut acc = init;
        for ky in win.ky.clone() {
            for kx in win.kx.clone() {
                let at = win.input_pixel(g, ky, kx) * in_d;
                let x: [i8; 4] = if wide {
                    let xs = &input[at + c0..][..4];
                    [xs[0], xs[1], xs[2], xs[3]]
                } else {
                    core::array::from_fn(|j| if j < n { input[at + (c0 + j) / mult] } else { 0 })
                };
                let ws = &taps[4 * (ky * f_w + kx)..][..4];
                acc = D::mac4_offset(x, [ws[0], ws[1], ws[2], ws[3]], off, acc);
            }
        }
        let out_at = win.output_pixel(g) * out_d + c0;
        for (j, (o, &a)) in output[out_at..][..n].iter_mut().zip(&acc).enumerate() {
            *o = S8::requantize(a, &p.quant, c0 + j, &p.clamp);
        }
    }
}

/// FULLY_CONNECTED int8 with LUT weights ([`LutWeights`]; `weights_offset` 0), on this
/// target's dot micro-kernels. Bit-exact with
/// [`crate::kernels::fully_connected::fully_connected_s8`] on the decoded weights.
pub fn fully_connected_s8_lut(params: &FullyConnectedParams<S8>, input: &[i8], weights: &LutWeights<'_>, bias: Option<&[i32]>, output: &mut [i8]) {
    fully_connected_lut::<crate::isa::Dot>(params, input, weights, bias, output)
}

/// CONV_2D int8 with LUT weights ([`LutWeights`]), on this target's dot micro-kernels.
/// Bit-exact with [`crate::kernels::conv_2d::conv_2d_s8`] on the decoded filter.
pub fn conv_2d_s8_lut(params: &Conv2dParams<S8>, input: &[i8], weights: &LutWeights<'_>, bias: Option<&[i32]>, output: &mut [i8]) {
    conv_2d_lut::<crate::isa::Dot>(params, input, weights, bias, output)
}

/// DEPTHWISE_CONV_2D int8 with LUT weights ([`LutWeights`], channel-major rows of at most
/// [`DEPTHWISE_MAX_TAPS`] taps), on this target's dot micro-kernels. Bit-exact with
/// [`crate::kernels::depthwise_conv_2d::depthwise_conv_2d_s8`] on the decoded filter.
pub fn depthwise_conv_2d_s8_lut(params: &DepthwiseConv2dParams<S8>, input: &[i8], weights: &LutWeights<'_>, bias: Option<&[i32]>, output: &mut [i8]) {
    depthwise_conv_2d_lut::<crate::isa::Dot>(params, input, weights, bias, output)
}

/// Test support: an int8 filter encoded in LUT form, for the kernels' suites (each runs
/// its `KernelCase` through the `_lut` kernels with every dot implementation).
#[cfg(test)]
pub(crate) mod testing {
    use super::LutWeights;
    use std::vec;
    use std::vec::Vec;

    /// An owned [`LutWeights`].
    pub(crate) struct Owned {
        pub width: u8,
        pub stride: usize,
        pub per_channel: bool,
        pub table: Vec<i8>,
        pub indices: Vec<u8>,
    }

    impl Owned {
        pub(crate) fn view(&self) -> LutWeights<'_> {
            LutWeights { width: self.width, stride: self.stride, per_channel: self.per_channel, table: &self.table, indices: &self.indices }
        }
    }

    /// `rows` (one per output channel, equal lengths) in LUT form: the smallest width that
    /// holds every row's distinct values, a table per channel (`per_channel`, stride
    /// `2^width + pad`) or one shared table. `None` when a table would need more than 128
    /// entries (8-bit indices, which the kernels do not take).
    pub(crate) fn encode(rows: &[Vec<i8>], per_channel: bool, pad: usize) -> Option<Owned> {
        let distinct = |vs: &mut dyn Iterator<Item = i8>| {
            let mut d: Vec<i8> = vs.collect();
            d.sort_unstable();
            d.dedup();
            d
        };
        let tables: Vec<Vec<i8>> =
            if per_channel { rows.iter().map(|r| distinct(&mut r.iter().copied())).collect() } else { vec![distinct(&mut rows.iter().flatten().copied())] };
        let most = tables.iter().map(Vec::len).max().unwrap_or(1).max(1);
        if most > 128 {
            return None;
        }
        let width = (usize::BITS - (most - 1).leading_zeros()).max(1) as usize;
        let stride = (1 << width) + pad;
        let mut table = vec![0i8; stride * tables.len()];
        for (c, t) in tables.iter().enumerate() {
            table[c * stride..][..t.len()].copy_from_slice(t);
        }
        let n: usize = rows.iter().map(Vec::len).sum();
        let mut indices = vec![0u8; (n * width).div_ceil(8)];
        let mut k = 0;
        for (c, r) in rows.iter().enumerate() {
            let t = &tables[if per_channel { c } else { 0 }];
            for v in r {
                let i = t.binary_search(v).ok()?;
                for j in 0..width {
                    if i >> (width - 1 - j) & 1 == 1 {
                        let bit = k * width + j;
                        indices[bit / 8] |= 0x80 >> (bit % 8);
                    }
                }
                k += 1;
            }
        }
        Some(Owned { width: width as u8, stride, per_channel, table, indices })
    }

    #[test]
    fn decode_round_trips_every_width() {
        let mut rng = crate::kernels::test_util::Rng(7);
        for width in 1..=7usize {
            for per_channel in [false, true] {
                let rows: Vec<Vec<i8>> = (0..3).map(|_| (0..37).map(|_| ((rng.below(1 << width)) as i8).wrapping_mul(3).wrapping_sub(60)).collect()).collect();
                let enc = encode(&rows, per_channel, width % 2).unwrap();
                let w = enc.view();
                for (c, r) in rows.iter().enumerate() {
                    for start in [0, 1, 5] {
                        let mut out = vec![0i8; r.len() - start];
                        w.decode(c, c * r.len() + start, &mut out);
                        assert_eq!(out, r[start..], "width {width} channel {c} start {start}");
                    }
                }
            }
        }
    }
}
