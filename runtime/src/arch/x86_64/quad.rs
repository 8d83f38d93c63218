//! AVX2 CONV_2D, the `Quad` variant: the compile-time packed int8 tap quads of
//! `crate::kernels::conv_2d::quad` (its module doc has the layout and the exactness
//! argument), read without `vpdpbusd`. (`vpmaddubsw` would multiply the unsigned bytes by
//! the weights directly, but it saturates its int16 pair sums, which reach `2 * 255 * 128`
//! here: not used.)
//!
//! Each pixel's window is gathered once as unsigned bytes ([`gather16`], [`xor_copy`]) and widened to
//! int16 (`u` in `[0, 255]`); per quad of taps a tile of four pixels times eight channels
//! sign-extends the eight channels' 32 weight bytes to int16 (`vpmovsxbw`, two registers:
//! per channel the tap pairs `(4t, 4t + 1)`, `(4t + 2, 4t + 3)` in adjacent lanes, shared by
//! the four pixels), broadcasts each pixel's four activations (`vpbroadcastq`) and
//! multiplies (`vpmaddwd`: the pair sums `u * w` of at most `2 * 255 * 128`, exact). A
//! channel's accumulator is two adjacent lanes, summed once per pixel at the end
//! (`vphaddd`, then `vpermq` into channel order) before the folded bias and the
//! requantization ([`super::Requant8`]).

use super::{Avx2, Requant8};
use crate::kernels::conv_2d::quad::{blocks, gather, quads, BLOCK, MAX_TAPS};
use crate::kernels::conv_2d::wide::taps_inside;
use crate::kernels::conv_2d::wide::PixelWalk;
use crate::kernels::conv_2d::{Conv2dParams, ConvGeometry};
use crate::kernels::numerics::S8;
use core::arch::x86_64::*;

/// Output pixels per tile.
const PIXELS: usize = 4;
/// Output channels per tile (half a packed block).
const HALF: usize = BLOCK / 2;
/// Longest gathered row: the taps rounded up to a quad.
const ROW: usize = 4 * MAX_TAPS.div_ceil(4);

/// `Conv2dVariant::Quad`, int8.
pub(crate) fn conv_2d_s8_quad(_: Avx2, p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let rq = Requant8::new(&p.quant, &p.clamp);
    let zp = (-p.quant.input_offset) as i8;
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { quad(&p.geometry, zp, input, packed, output, &rq) }
}

/// Room after the last gathered row for [`gather16`]'s excess.
pub(crate) const SLACK: usize = 16;

/// `src ^ 0x80` into `dst` (as long), sixteen bytes at a time (SSE2, the x86-64 baseline).
#[inline(always)]
pub(crate) fn xor_copy(src: &[i8], dst: &mut [u8]) {
    let n = src.len().min(dst.len());
    let mut c = 0;
    while c + 16 <= n {
        // SAFETY: SSE2 is part of x86-64; 16 bytes of `src` and `dst` at `c + 16 <= n`
        // (unaligned load and store).
        unsafe {
            let v = _mm_loadu_si128(src.as_ptr().add(c).cast());
            _mm_storeu_si128(dst.as_mut_ptr().add(c).cast(), _mm_xor_si128(v, _mm_set1_epi8(-128)));
        }
        c += 16;
    }
    for (d, &x) in dst[c..n].iter_mut().zip(&src[c..n]) {
        *d = x as u8 ^ 0x80;
    }
}

/// Whether every output pixel's window is the `depth` input bytes at `pixel * depth`, a
/// whole number of quads (1x1, stride 1, no padding, the output as large as the input):
/// then a pass's rows are one contiguous run of the input ([`xor_copy`]).
#[inline(always)]
pub(crate) fn contiguous(g: &ConvGeometry) -> bool {
    let [_, f_h, f_w, f_d] = g.filter_shape;
    f_h == 1 && f_w == 1 && f_d % 4 == 0 && g.stride_height == 1 && g.stride_width == 1 && g.pad_top == 0 && g.pad_left == 0 && g.input_shape[..3] == g.output_shape[..3]
}

/// `quad::gather` into `dst[..len]` (the same bytes), a window inside the input with
/// dilation 1 copied in whole blocks of sixteen per run of `filter_width * depth`: the
/// excess of a run lands on the next run (written afterwards) or past the window, at most
/// fifteen bytes into `dst[len..]` (a caller passes the rest of its buffer: the next
/// pixel's row, written afterwards, or [`SLACK`]), and the last quad's padding is written
/// last.
#[inline(always)]
pub(crate) fn gather16(g: &ConvGeometry, input: &[i8], zp: i8, at: [usize; 3], dst: &mut [u8], len: usize) {
    let [b, oy, ox] = at;
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, f_d] = g.filter_shape;
    let taps = f_h * f_w * f_d;
    let in_y0 = (oy * g.stride_height) as isize - g.pad_top as isize;
    let in_x0 = (ox * g.stride_width) as isize - g.pad_left as isize;
    let inside = taps_inside(in_y0, 1, f_h, in_h).len() == f_h && taps_inside(in_x0, 1, f_w, in_w).len() == f_w;
    if g.dilation_height == 1 && g.dilation_width == 1 && inside {
        let run = f_w * f_d;
        let in_row = in_w * in_d;
        let start = ((b * in_h + in_y0 as usize) * in_w + in_x0 as usize) * in_d;
        let whole = run.next_multiple_of(16);
        if start + (f_h - 1) * in_row + whole <= input.len() && (f_h - 1) * run + whole <= dst.len() {
            for ky in 0..f_h {
                xor_copy(&input[start + ky * in_row..][..whole], &mut dst[ky * run..][..whole]);
            }
            dst[taps..len].fill(0);
            return;
        }
    }
    gather(g, input, zp, at, &mut dst[..len], 0x80)
}

/// Four pixels (widened rows `x`, `4 * n_quads` int16 each) times channels `c0..c0 + 8`
/// (half `h` of block `blk`): per pixel the eight channels' sums `u . w` (no bias).
///
/// # Safety
/// AVX2; every `x[p]` points at `4 * n_quads` readable int16; `rows` holds block `blk`.
#[inline(always)]
unsafe fn tile(x: [*const i16; PIXELS], rows: &[i32], n_quads: usize, blk: usize, h: usize) -> [__m256i; PIXELS] {
    let stride = BLOCK * n_quads;
    let w = &rows[blk * stride..][..stride];
    // SAFETY: AVX2 by the caller's guarantee; the weight loads read 8 i32 (two of 16 bytes)
    // at `16 * t + 8 * h`, inside `w`; the broadcasts four int16 at `4t` of each row.
    unsafe {
        let mut acc = [[_mm256_setzero_si256(); 2]; PIXELS];
        for t in 0..n_quads {
            let wp = w.as_ptr().add(BLOCK * t + HALF * h).cast::<__m128i>();
            let w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(wp));
            let w1 = _mm256_cvtepi8_epi16(_mm_loadu_si128(wp.add(1)));
            for p in 0..PIXELS {
                let xv = _mm256_set1_epi64x(x[p].add(4 * t).cast::<i64>().read_unaligned());
                acc[p][0] = _mm256_add_epi32(acc[p][0], _mm256_madd_epi16(xv, w0));
                acc[p][1] = _mm256_add_epi32(acc[p][1], _mm256_madd_epi16(xv, w1));
            }
        }
        let mut sums = [_mm256_setzero_si256(); PIXELS];
        for p in 0..PIXELS {
            // Lanes (c0, c1, c4, c5 | c2, c3, c6, c7), then the 64-bit pairs in order.
            sums[p] = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_hadd_epi32(acc[p][0], acc[p][1]));
        }
        sums
    }
}

/// Every output pixel, [`PIXELS`] at a time, with gather buffers sized for the window (they
/// are zeroed on every call, and a row-driven op calls the kernel once per row band).
///
/// # Safety
/// AVX2.
unsafe fn quad(g: &ConvGeometry, zp: i8, input: &[i8], packed: &[i32], output: &mut [i8], rq: &Requant8) {
    let [batches, ..] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w * f_d;
    if out_d == 0 || batches * out_h * out_w == 0 || taps == 0 || taps > MAX_TAPS {
        return;
    }
    let len = 4 * quads(g);
    // SAFETY: by the caller's guarantee; each buffer holds `PIXELS` rows of `len`.
    unsafe {
        if PIXELS * len + SLACK <= 512 {
            run::<512>(g, zp, input, packed, output, rq, len)
        } else if PIXELS * len + SLACK <= 1536 {
            run::<1536>(g, zp, input, packed, output, rq, len)
        } else if PIXELS * len + SLACK <= 4096 {
            run::<4096>(g, zp, input, packed, output, rq, len)
        } else {
            run::<{ PIXELS * ROW + SLACK }>(g, zp, input, packed, output, rq, len)
        }
    }
}

/// [`quad`] with gather buffers of `N >= PIXELS * len + SLACK` bytes and as many int16.
#[target_feature(enable = "avx2")]
unsafe fn run<const N: usize>(g: &ConvGeometry, zp: i8, input: &[i8], packed: &[i32], output: &mut [i8], rq: &Requant8, len: usize) {
    let [batches, ..] = g.input_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let out_d = g.filter_shape[0];
    let n_px = batches * out_h * out_w;
    let n_blocks = blocks(g);
    let n_quads = len / 4;
    let (biases, rows) = packed.split_at(BLOCK * n_blocks);
    assert!(PIXELS * len + SLACK <= N && rows.len() >= n_blocks * BLOCK * n_quads);
    let flat = contiguous(g);
    let mut bytes = [0u8; N];
    let mut wide = [0i16; N];
    let mut walk = PixelWalk::new(g);
    let mut px0 = 0;
    while px0 < n_px {
        let n = (n_px - px0).min(PIXELS);
        if flat {
            // One run: pixel `px`'s window is the `len` bytes at `px * len`.
            xor_copy(&input[px0 * len..][..n * len], &mut bytes[..n * len]);
        } else {
            // In order, each with the rest of the buffer (`gather16`'s excess).
            for k in 0..n {
                gather16(g, input, zp, walk.next_pixel(), &mut bytes[k * len..], len);
            }
        }
        for (d, &s) in wide[..n * len].iter_mut().zip(&bytes[..n * len]) {
            *d = s as i16;
        }
        let x: [*const i16; PIXELS] = core::array::from_fn(|k| wide[k.min(n - 1) * len..][..len].as_ptr());
        for blk in 0..n_blocks {
            for h in 0..2 {
                let c0 = BLOCK * blk + HALF * h;
                if c0 >= out_d {
                    break;
                }
                let m = (out_d - c0).min(HALF);
                // SAFETY: this function's target feature; the rows are `len` int16 (sliced
                // above), the table holds block `blk` (asserted); the bias load reads 8 i32 of
                // the padded biases.
                unsafe {
                    let sums = tile(x, rows, n_quads, blk, h);
                    let bias = _mm256_loadu_si256(biases[c0..][..HALF].as_ptr().cast());
                    for (p, &s) in sums.iter().enumerate().take(n) {
                        rq.store(c0, _mm256_add_epi32(s, bias), &mut output[(px0 + p) * out_d + c0..][..m]);
                    }
                }
            }
        }
        px0 += n;
    }
}
