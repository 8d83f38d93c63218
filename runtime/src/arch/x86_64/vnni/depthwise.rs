//! AVX-512 DEPTHWISE_CONV_2D with depth multiplier 1: the int8 `Window` variant (the
//! model's `[tap][channel]` filter and the folded bias, as the AVX2 form reads them) and
//! the legacy uint8 `Window` (the model's filter and bias, offsets folded here); other
//! multipliers take the AVX2 form.
//!
//! **Tap pairs.** Once per call the weights of each block of 32 channels are widened into
//! int16 tap pairs, `[pair][16 channels][tap 2p, tap 2p + 1]`, in registers' order (a few
//! KiB on the stack, a small part of the work: `taps x depth` against `taps x depth x
//! pixels`). Per output pixel and block, each pair of taps loads 32 inputs of both taps,
//! interleaves them bytewise (`vpunpcklbw`/`vpunpckhbw`: channels `0..8, 16..24` and
//! `8..16, 24..32`), widens them to int16 (`vpmovsxbw`, `vpmovzxbw` for uint8) and adds
//! both taps' products to sixteen int32 lanes with one `vpdpwssd` (the `vpmaddwd` + `vpaddd`
//! pair: each product `|x * w| <= 2^15 * 2^8` is exact in int32, and the sum wraps like
//! the reference's, a ring). An odd last tap pairs with weight 0. The two accumulators are
//! put back in channel order (`vshufi64x2`) and the folded bias is added before the
//! requantization ([`Requant16`]). The loop nest is the one depthwise driver's
//! (`crate::kernels::depthwise_conv_2d::window_driver`; this module is its micro-kernel
//! [`Vnni`] and the entry): a window fully inside the image reads its taps at offsets
//! computed once per call, two horizontal neighbours per pass when both windows' columns are
//! inside; in a border window a tap outside the image reads the input zero point, which adds `w * (zp + input_offset) = 0` to the folded bias: the
//! reference's sum over the valid taps, modulo 2^32. Channel tails (`depth % 32`) are
//! masked loads and stores (masked lanes hold weight 0), so no channel takes a scalar path.
//!
//! uint8 shares the loop: inputs are widened unsigned, the weights are `w + weights_offset`
//! (in `[-255, 255]`), and the folded bias `bias + input_offset * sum(w + weights_offset)`
//! is computed with the pairs.

use super::requant::Byte;
use super::{Avx512Vnni, Requant16};
use crate::kernels::depthwise_conv_2d::window_driver::{drive, Activations, DepthwiseMicro};
use crate::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use crate::kernels::numerics::{S8, U8};
use crate::kernels::window::ConvGeometry;
use core::arch::x86_64::*;

/// `DepthwiseConv2dVariant::Window`.
pub(crate) fn depthwise_window(t: Avx512Vnni, p: &DepthwiseConv2dParams<S8>, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let depth = g.filter_shape[3];
    // Fewer than sixteen channels fill at most half the lanes: the AVX2 form's eight-channel
    // two-pixel pass is faster there.
    if p.depth_multiplier() == 1 && g.input_shape[3] == depth && depth >= 16 && fits(g) && worth_preparing(g) {
        let folded = &packed[..depth];
        let taps = g.filter_shape[1] * g.filter_shape[2];
        let filter = &filter[..taps * depth];
        let rq = Requant16::new(&p.quant, &p.clamp);
        // -input_offset is the input zero point, an int8.
        let zp = (-p.quant.input_offset) as i8;
        // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
        return unsafe { mult1(g, input, filter, 0, |c| folded[c], zp, &rq, output) };
    }
    crate::arch::x86_64::depthwise_window(t.avx2(), p, input, filter, bias, packed, output)
}

/// `depthwise_conv_2d_u8_window` (legacy uint8): depth multiplier 1 here, other multipliers
/// and an `i32::MIN` multiplier the AVX2 form.
pub(crate) fn depthwise_conv_2d_u8_window(t: Avx512Vnni, p: &DepthwiseConv2dParams<U8>, input: &[u8], filter: &[u8], bias: Option<&[i32]>, output: &mut [u8]) {
    let g = &p.geometry;
    let depth = g.filter_shape[3];
    let taps = g.filter_shape[1] * g.filter_shape[2];
    match Requant16::new_u8(&p.quant, &p.clamp) {
        Some(rq) if p.depth_multiplier() == 1 && g.input_shape[3] == depth && fits(g) && worth_preparing(g) => {
            let (in_off, w_off) = (p.quant.input_offset, p.quant.weights_offset);
            let filter = &filter[..taps * depth];
            let w = |t: usize, c: usize| filter[t * depth + c] as i32 + w_off;
            // bias + input_offset * sum(w + weights_offset), wrapping as the reference's sum.
            let folded = |c: usize| (0..taps).fold(bias.map_or(0, |b| b[c]), |acc, t| acc.wrapping_add(in_off.wrapping_mul(w(t, c))));
            // -input_offset is the input zero point, a uint8.
            let zp = (-in_off) as u8;
            // SAFETY: the token proves that the CPU executes AVX2 and AVX-512 F/BW/VL/VNNI.
            // `w_off` is `-filter_zero_point`, in `[-255, 0]`.
            unsafe { mult1(g, input, filter, w_off as i16, folded, zp, &rq, output) }
        }
        _ => crate::arch::x86_64::depthwise_conv_2d_u8_window(t.avx2(), p, input, filter, bias, output),
    }
}

/// Registers of prepared weights (16 KiB on the stack): the tap pairs and the folded bias of
/// as many 32-channel blocks as fit, the blocks of a larger layer in several sweeps.
const WBUF: usize = 256;

/// Registers one 32-channel block takes in the buffer: two per tap pair, two of folded bias.
fn per_block(g: &ConvGeometry) -> usize {
    2 * (g.filter_shape[1] * g.filter_shape[2]).div_ceil(2) + 2
}

/// Narrowest output row [`mult1`] takes. Its speed comes from interior windows (two
/// neighbours per pass sharing the weight loads, no border masks); on a narrow image most
/// windows touch the left or right border, and the per-call preparation of the tap pairs
/// is not repaid: kws's 25x5x64 depthwise layers took 22.8 µs each in this form against
/// 13.5 in the AVX2 form (host_bench --per-op, idle machine). Narrower layers take the AVX2
/// form.
const MIN_OUT_W: usize = 8;

/// Whether the output rows are wide enough for [`mult1`] (see [`MIN_OUT_W`]).
fn worth_preparing(g: &ConvGeometry) -> bool {
    g.output_shape[2] >= MIN_OUT_W
}

/// Whether [`mult1`] takes this geometry: a non-empty window whose block fits the buffer.
fn fits(g: &ConvGeometry) -> bool {
    g.filter_shape[1] * g.filter_shape[2] > 0 && per_block(g) <= WBUF
}

/// An activation type: how 32 of them widen to int16.
trait Act: Byte {
    /// The byte broadcast for the zero point.
    fn bits(self) -> i8;
    /// 32 activations, widened to int16 in place order.
    ///
    /// # Safety
    /// AVX512BW.
    unsafe fn widen(v: __m256i) -> __m512i;
}

impl Act for i8 {
    #[inline(always)]
    fn bits(self) -> i8 {
        self
    }
    #[inline(always)]
    unsafe fn widen(v: __m256i) -> __m512i {
        // SAFETY: register-only AVX512BW by the caller's guarantee.
        unsafe { _mm512_cvtepi8_epi16(v) }
    }
}

impl Act for u8 {
    #[inline(always)]
    fn bits(self) -> i8 {
        self as i8
    }
    #[inline(always)]
    unsafe fn widen(v: __m256i) -> __m512i {
        // SAFETY: register-only AVX512BW by the caller's guarantee.
        unsafe { _mm512_cvtepu8_epi16(v) }
    }
}

/// The mask of the first `n <= 32` lanes.
#[inline(always)]
fn first(n: usize) -> u32 {
    debug_assert!(n <= 32);
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Depth multiplier 1: `filter` `[tap][channel]` (taps row-major), each weight taken as
/// `w + w_off` in int16 (`w_off` 0 for int8), `folded(c)` the bias with the input offset
/// folded in over every tap, `zp` the input zero point: the driver
/// (`crate::kernels::depthwise_conv_2d::window_driver`) with the micro-kernel [`Vnni`].
///
/// # Safety
/// AVX2 and AVX512F/BW/VL/VNNI.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
#[allow(clippy::too_many_arguments)]
unsafe fn mult1<A: Act>(g: &ConvGeometry, input: &[A], filter: &[A], w_off: i16, folded: impl Fn(usize) -> i32, zp: A, rq: &Requant16, output: &mut [A]) {
    if !fits(g) {
        return;
    }
    let taps = g.filter_shape[1] * g.filter_shape[2];
    let mut wbuf = [_mm512_setzero_si512(); WBUF];
    let mut k = Vnni { rq, filter, w_off, folded, zp, depth: g.input_shape[3], taps, wbuf: &mut wbuf };
    // SAFETY: this function's target features; `fits` bounds the window by `WBUF` taps.
    unsafe { drive::<_, WBUF>(&mut k, g, input, output) }
}

/// The micro-kernel: 32 channels per block, two output pixels per interior pass (they
/// share each weight load), the weights of as many blocks as fit [`WBUF`] prepared per
/// sweep (the tap pairs, then the folded bias). See the module documentation.
struct Vnni<'a, 'r, A: Act, F: Fn(usize) -> i32> {
    rq: &'a Requant16<'r>,
    filter: &'a [A],
    w_off: i16,
    folded: F,
    zp: A,
    depth: usize,
    taps: usize,
    wbuf: &'a mut [__m512i; WBUF],
}

impl<A: Act, F: Fn(usize) -> i32> DepthwiseMicro for Vnni<'_, '_, A, F> {
    type Act = A;
    type X = __m256i;
    type Acc = [__m512i; 2];
    const BLOCK: usize = 32;
    const PIXELS: usize = 2;

    #[inline(always)]
    unsafe fn prepare(&mut self, b0: usize, left: usize) -> usize {
        let (depth, taps) = (self.depth, self.taps);
        let pairs = taps.div_ceil(2);
        let per = 2 * pairs + 2;
        let nb = (WBUF / per).min(left);
        for j in 0..nb {
            let c0 = (b0 + j) * 32;
            let w = &mut self.wbuf[j * per..][..per];
            let m = first((depth - c0).min(32));
            // The pairs as the activations are interleaved (channels past `depth` are not
            // stored, whatever their weights); `w_off` added to a pair's second tap only when
            // it exists (its weight stays 0).
            for (p, wp) in w[..2 * pairs].chunks_exact_mut(2).enumerate() {
                let tap = |t: usize| &self.filter[t * depth + c0..(t + 1) * depth];
                // SAFETY: AVX512F/BW/VL by the caller's guarantee; each masked load reads the
                // first `min(32, depth - c0)` weights of a tap's slice, which has them.
                unsafe {
                    let wa = _mm256_maskz_loadu_epi8(m, tap(2 * p).as_ptr().cast());
                    let (wb, k) = if 2 * p + 1 < taps { (_mm256_maskz_loadu_epi8(m, tap(2 * p + 1).as_ptr().cast()), u32::MAX) } else { (_mm256_setzero_si256(), 0x5555_5555) };
                    let off = _mm512_set1_epi16(self.w_off);
                    for (v, x) in wp.iter_mut().zip([_mm256_unpacklo_epi8(wa, wb), _mm256_unpackhi_epi8(wa, wb)]) {
                        let x = A::widen(x);
                        *v = _mm512_mask_add_epi16(x, k, x, off);
                    }
                }
            }
            let mut lanes = [0i32; 16];
            for half in 0..2 {
                for (i, l) in lanes.iter_mut().enumerate() {
                    let c = c0 + 16 * half + i;
                    *l = if c < depth { (self.folded)(c) } else { 0 };
                }
                // SAFETY: AVX512F by the caller's guarantee; the load reads the 16 i32 of `lanes`.
                w[2 * pairs + half] = unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) };
            }
        }
        nb
    }

    #[inline(always)]
    unsafe fn load(&self, at: *const A, n: usize) -> __m256i {
        // SAFETY: AVX512BW/VL by the caller's guarantee; the caller's bounds (masked-off lanes
        // are not read).
        unsafe { if n == 32 { _mm256_loadu_si256(at.cast()) } else { _mm256_mask_loadu_epi8(self.zero(), first(n), at.cast()) } }
    }

    #[inline(always)]
    unsafe fn zero(&self) -> __m256i {
        // SAFETY: AVX by the caller's guarantee (register-only).
        unsafe { _mm256_set1_epi8(self.zp.bits()) }
    }

    /// Both accumulators of each pixel over the tap pairs, put back in channel order, plus
    /// the folded bias; the pixels share each weight load.
    #[inline(always)]
    unsafe fn window<S: Activations<__m256i>, const P: usize>(&self, j: usize, _: usize, n: usize, x: &S) -> [[__m512i; 2]; P] {
        let pairs = self.taps.div_ceil(2);
        let per = 2 * pairs + 2;
        let (w, bias) = self.wbuf[j * per..][..per].split_at(2 * pairs);
        // SAFETY: register-only AVX512F/BW/VNNI intrinsics by the caller's guarantee, and the
        // caller's bounds for `x.tap`.
        unsafe {
            let zpv = self.zero();
            let mut acc = [[_mm512_setzero_si512(); 2]; P];
            for (p, w) in w.chunks_exact(2).enumerate() {
                for (q, a) in acc.iter_mut().enumerate() {
                    let (xa, xb) = (x.tap(q, 2 * p, n), if 2 * p + 1 < x.taps() { x.tap(q, 2 * p + 1, n) } else { zpv });
                    a[0] = _mm512_dpwssd_epi32(a[0], A::widen(_mm256_unpacklo_epi8(xa, xb)), w[0]);
                    a[1] = _mm512_dpwssd_epi32(a[1], A::widen(_mm256_unpackhi_epi8(xa, xb)), w[1]);
                }
            }
            for a in acc.iter_mut() {
                let [a0, a1] = *a;
                *a = [_mm512_add_epi32(_mm512_shuffle_i64x2::<0x44>(a0, a1), bias[0]), _mm512_add_epi32(_mm512_shuffle_i64x2::<0xEE>(a0, a1), bias[1])];
            }
            acc
        }
    }

    /// Requantizes one block's accumulators (channels `c..c + n`, `n <= 32`) into `out`.
    #[inline(always)]
    unsafe fn store(&self, acc: [__m512i; 2], c: usize, n: usize, out: &mut [A]) {
        // SAFETY: AVX512F/BW/VL by the caller's guarantee.
        unsafe {
            self.rq.store(c, acc[0], &mut out[c..][..n.min(16)]);
            if n > 16 {
                self.rq.store(c + 16, acc[1], &mut out[c + 16..][..n - 16]);
            }
        }
    }
}
