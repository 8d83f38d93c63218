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
//! difference by `len * 2^-22 * sum |x * w|` (see `test_util::compare_packed`).
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
//! AVX-512 reads the same tables: CONV_2D through [`F32x16`] (one 16-channel block per
//! `__m512`, 8 pixels per pass), depthwise and FULLY_CONNECTED through [`F32Blocks`] (two
//! 8-lane blocks per `__m512`; depthwise 8 pixels per pass, FULLY_CONNECTED 64 units), each
//! output computed with the same chain of fused multiply-adds as with AVX2+FMA.
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

/// The packed float variants' portable forms (their variant tables' `portable`): the loop
/// nests on [`Portable`].
pub(crate) mod portable {
    use super::Portable;
    use crate::kernels::conv_2d::Conv2dParams;
    use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
    use crate::kernels::fully_connected::FullyConnectedParams;
    use crate::kernels::numerics::F32;

    /// [`super::conv_2d`] on [`Portable`].
    pub(crate) fn conv_2d(p: &Conv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
        super::conv_2d(Portable, p, input, packed, output)
    }

    /// [`super::depthwise_conv_2d`] on [`Portable`].
    pub(crate) fn depthwise_conv_2d(p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
        super::depthwise_conv_2d(Portable, p, input, packed, output)
    }

    /// [`super::fully_connected`] on [`Portable`].
    pub(crate) fn fully_connected(p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
        super::fully_connected(Portable, p, input, packed, output)
    }
}

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
#[cfg(feature = "prepare")]
pub fn conv_packed_len(g: &ConvGeometry) -> usize {
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    out_d.div_ceil(CONV_NR) * CONV_NR * (1 + f_h * f_w * f_d)
}

/// Packs the OHWI `filter` and `bias` into the CONV_2D layout.
#[cfg(feature = "prepare")]
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
pub(crate) fn at16(s: &[f32], at: usize) -> &[f32; 16] {
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
        self.tap_in(g, ky, kx, ox, g.input_shape[3])
    }

    /// [`Self::tap`] with the input depth `in_d` given.
    #[inline(always)]
    fn tap_in(&self, g: &ConvGeometry, ky: usize, kx: usize, ox: usize, in_d: usize) -> usize {
        let in_w = g.input_shape[2];
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
#[cfg(feature = "prepare")]
pub fn depthwise_packed_len(g: &ConvGeometry) -> usize {
    let [_, f_h, f_w, out_d] = g.filter_shape;
    out_d.div_ceil(LANES) * LANES * (1 + f_h * f_w)
}

/// Packs the `[1, H, W, C]` `filter` and `bias` into the depthwise layout.
#[cfg(feature = "prepare")]
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

/// A vector of `BLOCKS` consecutive packed blocks of [`LANES`] channels (depthwise) or units
/// (FULLY_CONNECTED), as those two loop nests read their tables: any [`F32x8`] is one with
/// one block ([`One`]); AVX-512 (`arch::x86_64::f32::Avx512F32`) with two, lane `8 * k + j`
/// being lane `j` of the `k`-th block. Every lane computes the same operations in the same
/// order whichever type runs it, so two types with the same `mul_add` rounding give the
/// same bits.
pub(crate) trait F32Blocks: Copy {
    /// `BLOCKS * LANES` lanes.
    type V: Copy;
    /// Packed blocks per vector.
    const BLOCKS: usize;
    /// Lanes per vector.
    const CHANNELS: usize = Self::BLOCKS * LANES;
    fn splat_b(self, x: f32) -> Self::V;
    /// Lanes `at..at + 8` of blocks `first..first + BLOCKS` of `packed` (blocks of `block`
    /// floats; a block past the table's end reads zeros).
    fn load_blocks(self, packed: &[f32], block: usize, first: usize, at: usize) -> Self::V;
    /// The `CHANNELS` values at `s[at..at + CHANNELS]` (in range by the callers'
    /// construction; a bug reads zeros and the suites catch it).
    fn load_full(self, s: &[f32], at: usize) -> Self::V;
    /// The `n` (at most `CHANNELS`) values at `s[at..at + n]` in the first `n` lanes. The
    /// other lanes hold what follows in `s` (a full load where `s` has `CHANNELS` values from
    /// `at`), else zero: the loop nests never store those lanes.
    fn load_n(self, s: &[f32], at: usize, n: usize) -> Self::V;
    /// `acc + a * b` per lane (fused where the ISA has it).
    fn mul_add_b(self, acc: Self::V, a: Self::V, b: Self::V) -> Self::V;
    fn add_b(self, a: Self::V, b: Self::V) -> Self::V;
    /// Clamps `v` to `[lo, hi]` and stores its first `n` lanes at `out[at..at + n]`.
    fn clamp_store_b(self, v: Self::V, lo: Self::V, hi: Self::V, out: &mut [f32], at: usize, n: usize);
}

/// One [`F32x8`] vector as a vector of one packed block.
#[derive(Clone, Copy, Debug)]
pub(crate) struct One<T>(pub(crate) T);

impl<T: F32x8> F32Blocks for One<T> {
    type V = T::V;
    const BLOCKS: usize = 1;
    #[inline(always)]
    fn splat_b(self, x: f32) -> T::V {
        self.0.splat(x)
    }
    #[inline(always)]
    fn load_blocks(self, packed: &[f32], block: usize, first: usize, at: usize) -> T::V {
        self.0.load(at8(packed, first * block + at))
    }
    #[inline(always)]
    fn load_full(self, s: &[f32], at: usize) -> T::V {
        self.0.load(at8(s, at))
    }
    #[inline(always)]
    fn load_n(self, s: &[f32], at: usize, n: usize) -> T::V {
        match s.get(at..).and_then(|t| t.first_chunk::<8>()) {
            Some(a) => self.0.load(a),
            None => {
                // The last channels of the last pixel: fewer than 8 values left.
                let mut tmp = [0.0f32; 8];
                let n = n.min(8).min(s.len().saturating_sub(at));
                tmp[..n].copy_from_slice(&s[at..at + n]);
                self.0.load(&tmp)
            }
        }
    }
    #[inline(always)]
    fn mul_add_b(self, acc: T::V, a: T::V, b: T::V) -> T::V {
        self.0.mul_add(acc, a, b)
    }
    #[inline(always)]
    fn add_b(self, a: T::V, b: T::V) -> T::V {
        self.0.add(a, b)
    }
    #[inline(always)]
    fn clamp_store_b(self, v: T::V, lo: T::V, hi: T::V, out: &mut [f32], at: usize, n: usize) {
        store_n(self.0, self.0.clamp(v, lo, hi), out, at, n)
    }
}

/// DEPTHWISE_CONV_2D with depth multiplier 1 from the packed table, with an eight-lane
/// vector type: four pixels times one block of 8 channels per pass.
#[inline(always)]
pub(crate) fn depthwise_conv_2d<T: F32x8>(t: T, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    depthwise_blocks::<One<T>, PIXELS>(One(t), p, input, packed, output)
}

/// DEPTHWISE_CONV_2D with depth multiplier 1 from the packed table: `P` output pixels times
/// `T::CHANNELS` channels per pass where `P` windows along the row lie inside the input,
/// else four (when `P` is larger), else one pixel with the taps outside the input skipped.
/// Each output starts from its bias and accumulates its taps `(ky, kx)` in that order,
/// whichever pass computes it.
#[inline(always)]
pub(crate) fn depthwise_blocks<T: F32Blocks, const P: usize>(t: T, p: &DepthwiseConv2dParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, out_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    debug_assert_eq!(in_d, out_d);
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
                    depthwise_pixels::<T, P>(t, p, &row, ox, full_kx.clone(), input, packed, output)
                } else if P > PIXELS && fits(ox, PIXELS) {
                    depthwise_pixels::<T, PIXELS>(t, p, &row, ox, full_kx.clone(), input, packed, output)
                } else {
                    let kx_range = valid_taps(x_origin(ox), g.dilation_width, f_w, in_w);
                    depthwise_pixels::<T, 1>(t, p, &row, ox, kx_range, input, packed, output)
                };
            }
        }
    }
}

/// `Q` depthwise output pixels from `ox` on (the column taps `kx_range` of each inside the
/// input) times every channel, `T::CHANNELS` at a time. Returns `Q`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn depthwise_pixels<T: F32Blocks, const Q: usize>(
    t: T,
    p: &DepthwiseConv2dParams<F32>,
    row: &ConvRow,
    ox: usize,
    kx_range: core::ops::Range<usize>,
    input: &[f32],
    packed: &[f32],
    output: &mut [f32],
) -> usize {
    let g = &p.geometry;
    let [_, f_h, f_w, out_d] = g.filter_shape;
    let in_d = g.input_shape[3];
    let block = LANES * (1 + f_h * f_w);
    let (lo, hi) = (t.splat_b(p.clamp.min), t.splat_b(p.clamp.max));
    // The input offset of tap (ky, kx) of pixel ox is `row.tap(..)`; pixel ox + i is `i`
    // strides further along the row.
    let step = g.stride_width * in_d;
    // Whether every input vector of the pass lies inside the input (all but the last
    // channels of the input's last pixels): then each is one full load, with no tail test
    // in the tap loop.
    let last_tap = match (row.ky_range.clone().last(), kx_range.clone().last()) {
        (Some(ky), Some(kx)) => row.tap_in(g, ky, kx, ox, in_d) + (Q - 1) * step,
        _ => 0,
    };
    for first in (0..out_d.div_ceil(LANES)).step_by(T::BLOCKS) {
        let c0 = first * LANES;
        let n = (out_d - c0).min(T::CHANNELS);
        let mut acc = [t.load_blocks(packed, block, first, 0); Q];
        let pass = DepthwisePass { row, ox, kx_range: kx_range.clone(), step, c0, block, first };
        if last_tap + c0 + T::CHANNELS <= input.len() {
            depthwise_taps(t, p, &pass, packed, &mut acc, |at| t.load_full(input, at));
        } else {
            depthwise_taps(t, p, &pass, packed, &mut acc, |at| t.load_n(input, at, n));
        }
        for (i, a) in acc.iter().enumerate() {
            t.clamp_store_b(*a, lo, hi, output, row.output + (ox + i) * out_d + c0, n);
        }
    }
    Q
}

/// Where one depthwise pass reads: its pixels' row, first pixel and column taps, the input
/// stride between its pixels, and its channels.
struct DepthwisePass<'r> {
    row: &'r ConvRow,
    ox: usize,
    kx_range: core::ops::Range<usize>,
    /// Input offset from one pixel of the pass to the next.
    step: usize,
    /// The pass's first channel.
    c0: usize,
    /// Floats per packed block.
    block: usize,
    /// The pass's first packed block.
    first: usize,
}

/// Accumulates the taps `(ky, kx)` of a depthwise pass into `acc` (one vector per pixel),
/// reading each input vector with `load(offset)`.
#[inline(always)]
fn depthwise_taps<T: F32Blocks, const Q: usize>(t: T, p: &DepthwiseConv2dParams<F32>, pass: &DepthwisePass, packed: &[f32], acc: &mut [T::V; Q], load: impl Fn(usize) -> T::V) {
    let g = &p.geometry;
    let f_w = g.filter_shape[2];
    let in_d = g.input_shape[3];
    for ky in pass.row.ky_range.clone() {
        for kx in pass.kx_range.clone() {
            let wv = t.load_blocks(packed, pass.block, pass.first, LANES + (ky * f_w + kx) * LANES);
            let at = pass.row.tap_in(g, ky, kx, pass.ox, in_d) + pass.c0;
            for (i, a) in acc.iter_mut().enumerate() {
                *a = t.mul_add_b(*a, load(at + i * pass.step), wv);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// FULLY_CONNECTED

/// Length of the packed FULLY_CONNECTED table: per block of 8 units, 8 biases and `8 *
/// input_depth` weights.
#[cfg(feature = "prepare")]
pub fn fc_packed_len(output_depth: usize, input_depth: usize) -> usize {
    output_depth.div_ceil(LANES) * LANES * (1 + input_depth)
}

/// Packs the `[units, depth]` `filter` and `bias` into the FULLY_CONNECTED layout.
#[cfg(feature = "prepare")]
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

/// FULLY_CONNECTED from the packed table, with an eight-lane vector type.
#[inline(always)]
pub(crate) fn fully_connected<T: F32x8>(t: T, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    fully_connected_blocks(One(t), p, input, packed, output)
}

/// Packed 8-unit blocks per group of [`fully_connected_blocks`]' single-chain part.
const FC_GROUP: usize = 4;

/// FULLY_CONNECTED from the packed table. The first `FC_GROUP * floor(blocks / FC_GROUP)`
/// blocks of 8 units accumulate each unit in one chain (its bias, then every input in
/// order), [`FC_GROUP`] vectors at a time (then one at a time where a vector holds several
/// blocks); the last blocks (fewer than [`FC_GROUP`]) in two chains, over the even and the
/// odd inputs, added at the end. Which chain a unit gets depends only on its block, not on
/// `T`: every implementation gives the same bits for the same `mul_add` rounding.
#[inline(always)]
pub(crate) fn fully_connected_blocks<T: F32Blocks>(t: T, p: &FullyConnectedParams<F32>, input: &[f32], packed: &[f32], output: &mut [f32]) {
    let g = &p.geometry;
    let (depth, units) = (g.input_depth, g.output_depth);
    let block = LANES * (1 + depth);
    let (lo, hi) = (t.splat_b(p.clamp.min), t.splat_b(p.clamp.max));
    let n_blocks = units.div_ceil(LANES);
    // The blocks of one chain per unit.
    let single = n_blocks / FC_GROUP * FC_GROUP;
    let store = |a: T::V, first: usize, out: &mut [f32]| {
        let u0 = first * LANES;
        t.clamp_store_b(a, lo, hi, out, u0, (units - u0).min(T::CHANNELS));
    };
    for bt in 0..g.batches {
        let xs = &input[bt * depth..][..depth];
        let out = &mut output[bt * units..][..units];
        let mut first = 0;
        while first + FC_GROUP * T::BLOCKS <= single {
            let mut acc: [T::V; FC_GROUP] = [t.splat_b(0.0); FC_GROUP];
            for (j, a) in acc.iter_mut().enumerate() {
                *a = t.load_blocks(packed, block, first + j * T::BLOCKS, 0);
            }
            for (k, &x) in xs.iter().enumerate() {
                let xv = t.splat_b(x);
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = t.mul_add_b(*a, xv, t.load_blocks(packed, block, first + j * T::BLOCKS, LANES + k * LANES));
                }
            }
            for (j, a) in acc.iter().enumerate() {
                store(*a, first + j * T::BLOCKS, out);
            }
            first += FC_GROUP * T::BLOCKS;
        }
        // `single` is a multiple of FC_GROUP blocks; with several blocks per vector, fewer
        // than FC_GROUP vectors of it may remain.
        while first < single {
            let mut a = t.load_blocks(packed, block, first, 0);
            for (k, &x) in xs.iter().enumerate() {
                a = t.mul_add_b(a, t.splat_b(x), t.load_blocks(packed, block, first, LANES + k * LANES));
            }
            store(a, first, out);
            first += T::BLOCKS;
        }
        while first < n_blocks {
            // Two accumulators over the even and odd inputs, added at the end.
            let mut a0 = t.load_blocks(packed, block, first, 0);
            let mut a1 = t.splat_b(0.0);
            let mut pairs = xs.chunks_exact(2);
            for (kk, x) in pairs.by_ref().enumerate() {
                a0 = t.mul_add_b(a0, t.splat_b(x[0]), t.load_blocks(packed, block, first, LANES + 2 * kk * LANES));
                a1 = t.mul_add_b(a1, t.splat_b(x[1]), t.load_blocks(packed, block, first, LANES + (2 * kk + 1) * LANES));
            }
            if let [x] = pairs.remainder() {
                a0 = t.mul_add_b(a0, t.splat_b(*x), t.load_blocks(packed, block, first, LANES + (depth - 1) * LANES));
            }
            store(t.add_b(a0, a1), first, out);
            first += T::BLOCKS;
        }
    }
}

