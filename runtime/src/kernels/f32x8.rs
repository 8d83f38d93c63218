//! The packed float32 variants of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED (issue 11
//! point 4): one loop nest per operator, generic over an eight-lane float vector
//! ([`F32x8`]), instantiated with AVX2+FMA (`arch::x86_64::f32`), NEON (`arch::aarch64`,
//! two `float32x4_t` per vector) and a portable `[f32; 8]` ([`Portable`]).
//!
//! These are not the reference. The reference float kernels (`conv_2d_f32`, ...) accumulate
//! in TFLite's order with one rounding per multiply and per add, and give TFLite's bits. The
//! packed variants start each output from its bias, accumulate taps in the packed order with
//! a fused multiply-add where the ISA has one (one rounding per tap), and clamp. Their
//! results differ from the reference by reassociation only; the test suites bound the
//! difference by `len * 2^-22 * sum |x * w|` (see `tests_f32.rs`, `packed_tolerance`).
//!
//! Packed layouts (compile time, [`Conv2dF32Variant::pack`] and friends; zero in the padding
//! lanes, so no loop has a channel tail):
//!
//! - CONV_2D: per block of [`CONV_NR`] = 16 output channels, the 16 biases, then for every
//!   tap `(ky, kx, ic)` of the OHWI filter the 16 channels' weights. The kernel computes four
//!   output pixels times 16 channels (eight vector accumulators, two weight vectors per tap,
//!   one broadcast per pixel) where the four windows are inside the input along the row, and
//!   one pixel times 16 channels elsewhere (taps outside the input skipped).
//! - DEPTHWISE_CONV_2D (depth multiplier 1): per block of 8 channels, the 8 biases, then per
//!   tap `(ky, kx)` the 8 weights; four pixels per pass inside the input, one elsewhere.
//! - FULLY_CONNECTED: per block of 8 units, the 8 biases, then per input element the 8
//!   units' weights (`[depth][8]`); four blocks (32 units) per pass.
//!
//! [`Conv2dF32Variant::pack`]: crate::kernels::conv_2d::Conv2dF32Variant::pack

use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::F32;
use crate::kernels::window::{valid_taps, ConvGeometry};

/// Output channels per CONV_2D block (two vectors).
pub const CONV_NR: usize = 16;
/// Channels (depthwise) or units (fully connected) per block (one vector).
pub const LANES: usize = 8;
/// Output pixels per block of the CONV_2D and depthwise inner loops.
const PIXELS: usize = 4;

/// Eight float32 lanes. `Self` is a zero-sized proof that the CPU executes the
/// implementation (only its detection makes one), so the methods are safe.
pub(crate) trait F32x8: Copy {
    type V: Copy;
    fn splat(self, x: f32) -> Self::V;
    fn load(self, s: &[f32; 8]) -> Self::V;
    fn store(self, v: Self::V, s: &mut [f32; 8]);
    /// `acc + a * b` (fused where the ISA has it).
    fn mul_add(self, acc: Self::V, a: Self::V, b: Self::V) -> Self::V;
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// `min(max(v, lo), hi)` per lane.
    fn clamp(self, v: Self::V, lo: Self::V, hi: Self::V) -> Self::V;
}

/// The portable implementation: plain `[f32; 8]`, `acc + a * b` with two roundings. It runs
/// the packed variants where no SIMD implementation is selected (an x86-64 CPU without
/// AVX2+FMA, `TFLC_TEST_FEATURE=portable`, other hosts).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl F32x8 for Portable {
    type V = [f32; 8];
    #[inline(always)]
    fn splat(self, x: f32) -> [f32; 8] {
        [x; 8]
    }
    #[inline(always)]
    fn load(self, s: &[f32; 8]) -> [f32; 8] {
        *s
    }
    #[inline(always)]
    fn store(self, v: [f32; 8], s: &mut [f32; 8]) {
        *s = v;
    }
    #[inline(always)]
    fn mul_add(self, acc: [f32; 8], a: [f32; 8], b: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|i| acc[i] + a[i] * b[i])
    }
    #[inline(always)]
    fn add(self, a: [f32; 8], b: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|i| a[i] + b[i])
    }
    #[inline(always)]
    fn clamp(self, v: [f32; 8], lo: [f32; 8], hi: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|i| v[i].max(lo[i]).min(hi[i]))
    }
}

const ZERO8: [f32; 8] = [0.0; 8];

/// The eight values at `s[at..at + 8]` (in range by the callers' construction; a bug reads
/// zeros and the suites catch it).
#[inline(always)]
fn at8(s: &[f32], at: usize) -> &[f32; 8] {
    match s.get(at..).and_then(|t| t.first_chunk::<8>()) {
        Some(a) => a,
        None => {
            debug_assert!(false, "packed float read out of range");
            &ZERO8
        }
    }
}

/// Stores the first `n` lanes of `v` at `out[at..at + n]`.
#[inline(always)]
fn store_n<T: F32x8>(t: T, v: T::V, out: &mut [f32], at: usize, n: usize) {
    if n == 8 {
        if let Some(d) = out.get_mut(at..).and_then(|d| d.first_chunk_mut::<8>()) {
            t.store(v, d);
            return;
        }
    }
    let mut tmp = [0.0f32; 8];
    t.store(v, &mut tmp);
    let n = n.min(8).min(out.len().saturating_sub(at));
    out[at..at + n].copy_from_slice(&tmp[..n]);
}

// ---------------------------------------------------------------------------------------
// CONV_2D

/// Length of the packed CONV_2D table: per block of 16 output channels, 16 biases and
/// `16 * filter_height * filter_width * filter_depth` weights.
pub fn conv_packed_len(g: &ConvGeometry) -> usize {
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    out_d.div_ceil(CONV_NR) * CONV_NR * (1 + f_h * f_w * f_d)
}

/// Packs the OHWI `filter` and `bias` into the CONV_2D layout.
pub fn conv_pack(g: &ConvGeometry, filter: &[f32], bias: Option<&[f32]>, packed: &mut [f32]) {
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let k = f_h * f_w * f_d;
    let block = CONV_NR * (1 + k);
    packed.fill(0.0);
    for (bi, blk) in packed.chunks_exact_mut(block).enumerate() {
        for j in 0..CONV_NR {
            let oc = bi * CONV_NR + j;
            if oc >= out_d {
                break;
            }
            blk[j] = bias.map_or(0.0, |b| b[oc]);
            for t in 0..k {
                blk[CONV_NR + t * CONV_NR + j] = filter[oc * k + t];
            }
        }
    }
}

/// Sixteen float32 lanes: one CONV_2D block of [`CONV_NR`] output channels, as the CONV_2D
/// loop nest reads it. Any [`F32x8`] is one as a [`Pair`] of its vectors; AVX-512
/// (`arch::x86_64::f32::Avx512F32`) is one with a single `__m512`. Every lane computes the
/// same operations in the same order whichever type runs it, so two types with the same
/// `mul_add` rounding give the same bits.
pub(crate) trait F32x16: Copy {
    /// Sixteen lanes.
    type V: Copy;
    /// One value broadcast to the lanes.
    type S: Copy;
    fn splat16(self, x: f32) -> Self::S;
    fn load16(self, s: &[f32; 16]) -> Self::V;
    /// `acc + x * w` per lane (fused where the ISA has it).
    fn mul_add16(self, acc: Self::V, x: Self::S, w: Self::V) -> Self::V;
    /// Clamps `v` to `[lo, hi]` and stores its first `n` lanes at `out[at..at + n]`.
    fn clamp_store16(self, v: Self::V, lo: Self::S, hi: Self::S, out: &mut [f32], at: usize, n: usize);
}

/// Two eight-lane vectors of an [`F32x8`] as one sixteen-lane block.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair<T>(pub(crate) T);

impl<T: F32x8> F32x16 for Pair<T> {
    type V = [T::V; 2];
    type S = T::V;
    #[inline(always)]
    fn splat16(self, x: f32) -> T::V {
        self.0.splat(x)
    }
    #[inline(always)]
    fn load16(self, s: &[f32; 16]) -> [T::V; 2] {
        [self.0.load(at8(s, 0)), self.0.load(at8(s, 8))]
    }
    #[inline(always)]
    fn mul_add16(self, acc: [T::V; 2], x: T::V, w: [T::V; 2]) -> [T::V; 2] {
        [self.0.mul_add(acc[0], x, w[0]), self.0.mul_add(acc[1], x, w[1])]
    }
    #[inline(always)]
    fn clamp_store16(self, v: [T::V; 2], lo: T::V, hi: T::V, out: &mut [f32], at: usize, n: usize) {
        let t = self.0;
        store_n(t, t.clamp(v[0], lo, hi), out, at, n.min(8));
        if n > 8 {
            store_n(t, t.clamp(v[1], lo, hi), out, at + 8, n - 8);
        }
    }
}

/// The sixteen values at `s[at..at + 16]` (in range by the callers' construction; a bug
/// reads zeros and the suites catch it).
#[inline(always)]
fn at16(s: &[f32], at: usize) -> &[f32; 16] {
    const ZERO16: [f32; 16] = [0.0; 16];
    match s.get(at..).and_then(|t| t.first_chunk::<16>()) {
        Some(a) => a,
        None => {
            debug_assert!(false, "packed float read out of range");
            &ZERO16
        }
    }
}

/// CONV_2D (ungrouped) from the packed table, with an eight-lane vector type: four pixels
/// per block.
#[inline(always)]
pub(crate) fn conv_2d<T: F32x8>(t: T, p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    conv_2d_blocks::<Pair<T>, PIXELS>(Pair(t), p, input, packed, output)
}

/// CONV_2D (ungrouped) from the packed table: `P` output pixels times [`CONV_NR`] channels
/// per block where `P` windows along the row lie inside the input, else four (when `P` is
/// larger), else one pixel with the taps outside the input skipped. Each output starts from
/// its bias and accumulates its taps `(ky, kx, ic)` in that order, whichever block computes
/// it.
#[inline(always)]
pub(crate) fn conv_2d_blocks<T: F32x16, const P: usize>(t: T, p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    debug_assert_eq!(f_d, in_d);
    let full_kx = 0..f_w;
    let x_origin = |ox: usize| (ox * g.stride_width) as isize - g.pad_left as isize;
    // `n` pixels from `ox` on, all with every column tap inside the input.
    let fits = |ox: usize, n: usize| {
        ox + n <= out_w
            && valid_taps(x_origin(ox), g.dilation_width, f_w, in_w) == full_kx
            && valid_taps(x_origin(ox + n - 1), g.dilation_width, f_w, in_w) == full_kx
    };
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let row = ConvRow {
                input: b * in_h * in_w * in_d,
                in_y0,
                ky_range: valid_taps(in_y0, g.dilation_height, f_h, in_h),
                output: (b * out_h + oy) * out_w * out_d,
            };
            let mut ox = 0;
            while ox < out_w {
                ox += if fits(ox, P) {
                    conv_pixels::<T, P>(t, p, &row, ox, input, packed, output)
                } else if P > PIXELS && fits(ox, PIXELS) {
                    conv_pixels::<T, PIXELS>(t, p, &row, ox, input, packed, output)
                } else {
                    conv_pixel(t, p, &row, ox, input, packed, output)
                };
            }
        }
    }
}

/// What the blocks of one CONV_2D output row share.
struct ConvRow {
    /// The offset of the row's batch in the input.
    input: usize,
    /// The input row of the first tap row (negative above the input).
    in_y0: isize,
    /// The tap rows inside the input.
    ky_range: core::ops::Range<usize>,
    /// The offset of the row in the output.
    output: usize,
}

impl ConvRow {
    /// The input offset of tap `(ky, kx)` of output pixel `ox` (a tap inside the input).
    #[inline(always)]
    fn tap(&self, g: &ConvGeometry, ky: usize, kx: usize, ox: usize) -> usize {
        let [_, _, in_w, in_d] = g.input_shape;
        let iy = (self.in_y0 + (g.dilation_height * ky) as isize) as usize;
        let ix = ((ox * g.stride_width + g.dilation_width * kx) as isize - g.pad_left as isize) as usize;
        self.input + (iy * in_w + ix) * in_d
    }
}

/// `Q` pixels from `ox` on (every window inside the input along the row) times every block
/// of [`CONV_NR`] channels. Returns `Q`.
#[inline(always)]
fn conv_pixels<T: F32x16, const Q: usize>(t: T, p: &Conv2dParams<F32>, row: &ConvRow, ox: usize, input: &[f32], packed: &[f32], output: &mut [f32]) -> usize {
    let g = &p.geometry;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let block = CONV_NR * (1 + f_h * f_w * f_d);
    let (lo, hi) = (t.splat16(p.clamp.min), t.splat16(p.clamp.max));
    for (bi, blk) in packed.chunks_exact(block).enumerate() {
        let c0 = bi * CONV_NR;
        let mut acc = [t.load16(at16(blk, 0)); Q];
        let w = &blk[CONV_NR..];
        for ky in row.ky_range.clone() {
            for kx in 0..f_w {
                let wt = &w[(ky * f_w + kx) * f_d * CONV_NR..][..f_d * CONV_NR];
                // A plain loop rather than `array::from_fn`, whose closure LLVM does not
                // always inline into the `#[target_feature]` entry (a call per tap).
                let mut xs: [&[f32]; Q] = [&[]; Q];
                for (i, x) in xs.iter_mut().enumerate() {
                    *x = &input[row.tap(g, ky, kx, ox + i)..][..f_d];
                }
                for (ic, wc) in wt.chunks_exact(CONV_NR).enumerate() {
                    let wv = t.load16(at16(wc, 0));
                    for (a, x) in acc.iter_mut().zip(&xs) {
                        *a = t.mul_add16(*a, t.splat16(x[ic]), wv);
                    }
                }
            }
        }
        for (i, a) in acc.iter().enumerate() {
            t.clamp_store16(*a, lo, hi, output, row.output + (ox + i) * out_d + c0, (out_d - c0).min(CONV_NR));
        }
    }
    Q
}

/// One pixel at `ox` times every block of [`CONV_NR`] channels, the taps outside the input
/// skipped. Returns 1.
#[inline(always)]
fn conv_pixel<T: F32x16>(t: T, p: &Conv2dParams<F32>, row: &ConvRow, ox: usize, input: &[f32], packed: &[f32], output: &mut [f32]) -> usize {
    let g = &p.geometry;
    let [_, _, in_w, _] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let block = CONV_NR * (1 + f_h * f_w * f_d);
    let (lo, hi) = (t.splat16(p.clamp.min), t.splat16(p.clamp.max));
    let kx_range = valid_taps((ox * g.stride_width) as isize - g.pad_left as isize, g.dilation_width, f_w, in_w);
    for (bi, blk) in packed.chunks_exact(block).enumerate() {
        let c0 = bi * CONV_NR;
        let mut a = t.load16(at16(blk, 0));
        let w = &blk[CONV_NR..];
        for ky in row.ky_range.clone() {
            for kx in kx_range.clone() {
                let wt = &w[(ky * f_w + kx) * f_d * CONV_NR..][..f_d * CONV_NR];
                let x = &input[row.tap(g, ky, kx, ox)..][..f_d];
                for (&xi, wc) in x.iter().zip(wt.chunks_exact(CONV_NR)) {
                    a = t.mul_add16(a, t.splat16(xi), t.load16(at16(wc, 0)));
                }
            }
        }
        t.clamp_store16(a, lo, hi, output, row.output + ox * out_d + c0, (out_d - c0).min(CONV_NR));
    }
    1
}

// ---------------------------------------------------------------------------------------
// DEPTHWISE_CONV_2D

/// Length of the packed depthwise table (depth multiplier 1): per block of 8 channels, 8
/// biases and `8 * filter_height * filter_width` weights.
pub fn depthwise_packed_len(g: &ConvGeometry) -> usize {
    let [_, f_h, f_w, out_d] = g.filter_shape;
    out_d.div_ceil(LANES) * LANES * (1 + f_h * f_w)
}

/// Packs the `[1, H, W, C]` `filter` and `bias` into the depthwise layout.
pub fn depthwise_pack(g: &ConvGeometry, filter: &[f32], bias: Option<&[f32]>, packed: &mut [f32]) {
    let [_, f_h, f_w, out_d] = g.filter_shape;
    let taps = f_h * f_w;
    let block = LANES * (1 + taps);
    packed.fill(0.0);
    for (bi, blk) in packed.chunks_exact_mut(block).enumerate() {
        for j in 0..LANES {
            let c = bi * LANES + j;
            if c >= out_d {
                break;
            }
            blk[j] = bias.map_or(0.0, |b| b[c]);
            for tap in 0..taps {
                blk[LANES + tap * LANES + j] = filter[tap * out_d + c];
            }
        }
    }
}

/// DEPTHWISE_CONV_2D with depth multiplier 1 from the packed table.
#[inline(always)]
pub(crate) fn depthwise_conv_2d<T: F32x8>(t: T, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, out_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    debug_assert_eq!(in_d, out_d);
    let block = LANES * (1 + f_h * f_w);
    let (lo, hi) = (t.splat(p.clamp.min), t.splat(p.clamp.max));
    let full_kx = 0..f_w;
    for b in 0..batches {
        for oy in 0..out_h {
            let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
            let ky_range = valid_taps(in_y0, g.dilation_height, f_h, in_h);
            let x_origin = |ox: usize| (ox * g.stride_width) as isize - g.pad_left as isize;
            let mut ox = 0;
            while ox < out_w {
                let quad = ox + PIXELS <= out_w
                    && valid_taps(x_origin(ox), g.dilation_width, f_w, in_w) == full_kx
                    && valid_taps(x_origin(ox + PIXELS - 1), g.dilation_width, f_w, in_w) == full_kx;
                let n_pix = if quad { PIXELS } else { 1 };
                let kx_range = if quad { full_kx.clone() } else { valid_taps(x_origin(ox), g.dilation_width, f_w, in_w) };
                let out0 = ((b * out_h + oy) * out_w + ox) * out_d;
                let in_at = |ky: usize, kx: usize, i: usize| {
                    let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
                    let ix = (x_origin(ox + i) + (g.dilation_width * kx) as isize) as usize;
                    ((b * in_h + iy) * in_w + ix) * in_d
                };
                for (bi, blk) in packed.chunks_exact(block).enumerate() {
                    let c0 = bi * LANES;
                    let n = (out_d - c0).min(LANES);
                    // The input lanes of channels c0..c0 + 8 (zero beyond the last channel).
                    let x_lanes = |at: usize| {
                        if n == LANES {
                            t.load(at8(input, at))
                        } else {
                            let mut tmp = [0.0f32; 8];
                            tmp[..n].copy_from_slice(&input[at..at + n]);
                            t.load(&tmp)
                        }
                    };
                    let bias = t.load(at8(blk, 0));
                    let mut acc = [bias; PIXELS];
                    for ky in ky_range.clone() {
                        for kx in kx_range.clone() {
                            let wv = t.load(at8(blk, LANES + (ky * f_w + kx) * LANES));
                            for (i, a) in acc.iter_mut().enumerate().take(n_pix) {
                                *a = t.mul_add(*a, x_lanes(in_at(ky, kx, i) + c0), wv);
                            }
                        }
                    }
                    for (i, a) in acc.iter().enumerate().take(n_pix) {
                        store_n(t, t.clamp(*a, lo, hi), output, out0 + i * out_d + c0, n);
                    }
                }
                ox += n_pix;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// FULLY_CONNECTED

/// Length of the packed FULLY_CONNECTED table: per block of 8 units, 8 biases and `8 *
/// input_depth` weights.
pub fn fc_packed_len(output_depth: usize, input_depth: usize) -> usize {
    output_depth.div_ceil(LANES) * LANES * (1 + input_depth)
}

/// Packs the `[units, depth]` `filter` and `bias` into the FULLY_CONNECTED layout.
pub fn fc_pack(output_depth: usize, input_depth: usize, filter: &[f32], bias: Option<&[f32]>, packed: &mut [f32]) {
    let block = LANES * (1 + input_depth);
    packed.fill(0.0);
    for (bi, blk) in packed.chunks_exact_mut(block).enumerate() {
        for j in 0..LANES {
            let u = bi * LANES + j;
            if u >= output_depth {
                break;
            }
            blk[j] = bias.map_or(0.0, |b| b[u]);
            for k in 0..input_depth {
                blk[LANES + k * LANES + j] = filter[u * input_depth + k];
            }
        }
    }
}

/// FULLY_CONNECTED from the packed table.
#[inline(always)]
pub(crate) fn fully_connected<T: F32x8>(t: T, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    let g = &p.geometry;
    let (depth, units) = (g.input_depth, g.output_depth);
    let block = LANES * (1 + depth);
    let (lo, hi) = (t.splat(p.clamp.min), t.splat(p.clamp.max));
    const GROUP: usize = 4;
    for bt in 0..g.batches {
        let xs = &input[bt * depth..][..depth];
        let out = &mut output[bt * units..][..units];
        let mut blocks = packed.chunks_exact(block).enumerate();
        let n_blocks = units.div_ceil(LANES);
        let mut done = 0;
        while n_blocks - done >= GROUP {
            let grp: [&[f32]; GROUP] = core::array::from_fn(|_| blocks.next().map_or(&[][..], |(_, b)| b));
            let mut acc: [T::V; GROUP] = core::array::from_fn(|j| t.load(at8(grp[j], 0)));
            let ws: [&[f32]; GROUP] = core::array::from_fn(|j| grp[j].get(LANES..).unwrap_or(&[]));
            for (k, &x) in xs.iter().enumerate() {
                let xv = t.splat(x);
                for (a, w) in acc.iter_mut().zip(&ws) {
                    *a = t.mul_add(*a, xv, t.load(at8(w, k * LANES)));
                }
            }
            for (j, a) in acc.iter().enumerate() {
                let u0 = (done + j) * LANES;
                store_n(t, t.clamp(*a, lo, hi), out, u0, (units - u0).min(LANES));
            }
            done += GROUP;
        }
        for (bi, blk) in blocks {
            // Two accumulators over the even and odd inputs, added at the end.
            let mut a0 = t.load(at8(blk, 0));
            let mut a1 = t.splat(0.0);
            let w = &blk[LANES..];
            let mut pairs = xs.chunks_exact(2);
            for (kk, x) in pairs.by_ref().enumerate() {
                a0 = t.mul_add(a0, t.splat(x[0]), t.load(at8(w, 2 * kk * LANES)));
                a1 = t.mul_add(a1, t.splat(x[1]), t.load(at8(w, (2 * kk + 1) * LANES)));
            }
            if let [x] = pairs.remainder() {
                a0 = t.mul_add(a0, t.splat(*x), t.load(at8(w, (depth - 1) * LANES)));
            }
            let a = t.add(a0, a1);
            let u0 = bi * LANES;
            store_n(t, t.clamp(a, lo, hi), out, u0, (units - u0).min(LANES));
        }
    }
}

/// `f32_simd!(f(args...))` at the top of a public packed float variant: returns
/// `crate::arch::<isa>::f32::f(token, args...)` when a SIMD implementation runs here
/// (x86-64: AVX2+FMA selected by [`crate::isa`]; aarch64: NEON, part of the base ISA), else
/// falls through to the portable body.
///
/// `f32_simd!(avx512 f(args...))` first tries `crate::arch::x86_64::f32::avx512::f` (a
/// kernel with an AVX-512 form) when AVX-512 is selected.
macro_rules! f32_simd {
    (avx512 $f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = $crate::arch::x86_64::f32::Avx512F32::selected() {
            return $crate::arch::x86_64::f32::avx512::$f(token, $($arg),*);
        }
        $crate::kernels::f32x8::f32_simd!($f($($arg),*));
    };
    ($f:ident($($arg:expr),* $(,)?)) => {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = $crate::arch::x86_64::f32::Avx2Fma::selected() {
            return $crate::arch::x86_64::f32::$f(token, $($arg),*);
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(tflc_runtime_scalar)))]
        if let Some(token) = $crate::arch::aarch64::f32::Neon::selected() {
            return $crate::arch::aarch64::f32::$f(token, $($arg),*);
        }
    };
}
pub(crate) use f32_simd;
