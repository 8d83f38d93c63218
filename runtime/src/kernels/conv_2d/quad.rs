//! [`super::Conv2dVariant::Quad`]: the x86-64 int8 CONV_2D as a matrix product of unsigned
//! activation bytes and int8 weights packed at compile time in quads of taps, sixteen output
//! channels per block: the layout AVX-512 VNNI's `vpdpbusd` reads (four u8 x i8 products
//! summed into each int32 lane).
//!
//! - **Weights** (`pack`): first one folded bias per output channel, padded to whole
//!   blocks of sixteen: `bias + (input_offset - 128) * sum(w)` (wrapping); then per block
//!   of sixteen output channels, per quad of taps `4t..4t + 4` of the window (OHWI order,
//!   the last quad zero-padded), sixteen words: word `j` holds channel `16 * block + j`'s
//!   four int8 weights, byte `k` (little-endian) tap `4t + k`. A channel past the last is
//!   zero.
//! - **Activations**: each output pixel's window is gathered into a row of bytes
//!   `u = x + 128` (`x ^ 0x80`, in `[0, 255]`), [`quads`] x 4 long; a tap outside the image
//!   is `zp + 128` (`zp = -input_offset`, the input zero point) and the padding of the last
//!   quad is 0 (its weights are 0).
//! - **Exactness**: the reference accumulates `bias + sum w * (x + input_offset)` over the
//!   taps inside the image. Here a tap inside contributes `w * (x + 128)` and the folded bias
//!   `(input_offset - 128) * w`: together `w * (x + input_offset)`. A tap outside
//!   contributes `w * (zp + 128) = w * (128 - input_offset)`, which cancels its share of the
//!   folded bias: 0, as the reference's skipped tap. One `vpdpbusd` lane adds four products
//!   `u * w` with `u` in `[0, 255]`, `w` in `[-128, 127]`: at most `4 * 255 * 128` in
//!   magnitude, so the products and their sum are exact (`vpdpbusd`, not the saturating
//!   `vpdpbusds`: the accumulation wraps in int32 like the reference's, a ring, where the
//!   order and the folded bias give the same sums).
//!
//! This module holds the layout, the packing, the gather, the portable form (any build
//! without a SIMD form, and the suites' check of the layout) and the one driver of the SIMD
//! forms ([`drive`]: the pixel walk, the gather buffers and passes of a few pixels), generic
//! over a micro-kernel ([`QuadMicro`]) that multiplies one pass's rows by every block and
//! stores the requantized outputs: AVX2 (`crate::arch::x86_64::quad`), AVX-VNNI
//! (`crate::arch::x86_64::avxvnni`) and AVX-512 VNNI (`crate::arch::x86_64::vnni::quad`),
//! each entered through [`quad_entry!`] under its own `#[target_feature]`.

use super::wide::{taps_inside, PixelWalk};
use super::{Conv2dParams, ConvGeometry};
use crate::kernels::numerics::S8;
use crate::kernels::requant::Requant;

/// The longest window (`filter_height * filter_width * depth`) the variant takes (as
/// `Wide`'s: the gathered rows of a few pixels live on the stack).
pub const MAX_TAPS: usize = super::wide::MAX_TAPS;

/// Output channels per packed block.
pub(crate) const BLOCK: usize = 16;

/// Tap quads per window (the last one zero-padded).
pub(crate) fn quads(g: &ConvGeometry) -> usize {
    let [_, f_h, f_w, f_d] = g.filter_shape;
    (f_h * f_w * f_d).div_ceil(4)
}

/// Blocks of [`BLOCK`] output channels.
pub(crate) fn blocks(g: &ConvGeometry) -> usize {
    g.filter_shape[0].div_ceil(BLOCK)
}

/// The length of [`pack`]'s table: the padded biases, then every block's tap quads.
#[cfg(feature = "prepare")]
pub(crate) fn packed_len(g: &ConvGeometry) -> usize {
    BLOCK * blocks(g) * (1 + quads(g))
}

/// Whether this geometry fits the variant: ungrouped, a non-empty window of at most
/// [`MAX_TAPS`] taps (`Wide`'s bounds).
#[cfg(feature = "prepare")]
pub(crate) fn fits(g: &ConvGeometry) -> bool {
    super::wide::fits(g)
}

/// The compile-time packing (see the module doc).
#[cfg(feature = "prepare")]
pub(crate) fn pack(p: &Conv2dParams<S8>, filter: &[i8], bias: Option<&[i32]>, packed: &mut [i32]) {
    let g = &p.geometry;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let taps = f_h * f_w * f_d;
    let n_quads = quads(g);
    packed.fill(0);
    let (biases, rows) = packed.split_at_mut(BLOCK * blocks(g));
    let offset = p.quant.input_offset.wrapping_sub(128);
    for (c, b) in biases.iter_mut().enumerate().take(out_d) {
        *b = crate::prepare::fold_input_offset(filter[c * taps..][..taps].iter().copied(), bias.map_or(0, |b| b[c]), offset);
    }
    for (blk, dst) in rows.chunks_exact_mut(BLOCK * n_quads).enumerate() {
        for (t, words) in dst.chunks_exact_mut(BLOCK).enumerate() {
            for (j, word) in words.iter_mut().enumerate() {
                let c = BLOCK * blk + j;
                if c >= out_d {
                    continue;
                }
                let mut bytes = [0u8; 4];
                for (k, b) in bytes.iter_mut().enumerate() {
                    if 4 * t + k < taps {
                        *b = filter[c * taps + 4 * t + k] as u8;
                    }
                }
                *word = i32::from_le_bytes(bytes);
            }
        }
    }
}

/// Copies the window of output pixel `(b, oy, ox)` into `row` (`4 * quads` bytes) as the
/// module doc's unsigned bytes: `x ^ 0x80`, taps outside the image `zp ^ 0x80`, the last
/// quad's padding 0. `xor` turns a run of raw int8 into unsigned bytes in place (a SIMD
/// form may do a whole tile at once afterwards instead: then it passes a no-op and the
/// padding written here is `zp` and `0x80`, raw).
#[inline(always)]
pub(crate) fn gather<E: Copy + From<u8>>(g: &ConvGeometry, input: &[i8], zp: i8, [b, oy, ox]: [usize; 3], row: &mut [E], flip: u8) {
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, f_d] = g.filter_shape;
    let taps = f_h * f_w * f_d;
    let [in_y0, in_x0] = g.origin(oy, ox);
    let run = f_w * f_d;
    let copy = |src: &[i8], dst: &mut [E]| {
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = E::from(s as u8 ^ flip);
        }
    };
    row[taps..].fill(E::from(0x80 ^ flip));
    let window = &mut row[..taps];
    let zp = E::from(zp as u8 ^ flip);
    if g.dilation_height == 1 && g.dilation_width == 1 && in_y0 >= 0 && in_x0 >= 0 && in_y0 as usize + f_h <= in_h && in_x0 as usize + f_w <= in_w {
        let start = ((b * in_h + in_y0 as usize) * in_w + in_x0 as usize) * in_d;
        for (ky, dst) in window.chunks_exact_mut(run).enumerate() {
            copy(&input[start + ky * in_w * in_d..][..run], dst);
        }
        return;
    }
    let ky_range = taps_inside(in_y0, g.dilation_height, f_h, in_h);
    let kx_range = taps_inside(in_x0, g.dilation_width, f_w, in_w);
    for (ky, dst) in window.chunks_exact_mut(run).enumerate() {
        if !ky_range.contains(&ky) {
            dst.fill(zp);
            continue;
        }
        let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
        let base = (b * in_h + iy) * in_w;
        for (kx, tap) in dst.chunks_exact_mut(f_d).enumerate() {
            if kx_range.contains(&kx) {
                let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                copy(&input[(base + ix) * in_d..][..f_d], tap);
            } else {
                tap.fill(zp);
            }
        }
    }
}

/// CONV_2D int8, the portable [`super::Conv2dVariant::Quad`]: every output pixel's
/// accumulators `folded[c] + sum u * w` from the packed layout, requantized sixteen
/// channels at a time.
pub(crate) fn conv_quad(p: &Conv2dParams<S8>, input: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, ..] = g.input_shape;
    let out_d = g.filter_shape[0];
    let [_, out_h, out_w, _] = g.output_shape;
    let rq = Requant::new(&p.quant, &p.clamp);
    let zp = (-p.quant.input_offset) as i8;
    let n_quads = quads(g);
    let (biases, rows) = packed.split_at(BLOCK * blocks(g));
    let mut buf = [0u8; 4 * MAX_TAPS.div_ceil(4)];
    let row = &mut buf[..4 * n_quads];
    let mut walk = PixelWalk::new(g);
    for px in 0..batches * out_h * out_w {
        gather(g, input, zp, walk.next_pixel(), row, 0x80);
        for (blk, ws) in rows.chunks_exact(BLOCK * n_quads).enumerate() {
            let mut acc: [i32; BLOCK] = core::array::from_fn(|j| biases[BLOCK * blk + j]);
            for (u, words) in row.chunks_exact(4).zip(ws.chunks_exact(BLOCK)) {
                for (a, &w) in acc.iter_mut().zip(words) {
                    let w = w.to_le_bytes();
                    let dot: i32 = (0..4).map(|k| u[k] as i32 * w[k] as i8 as i32).sum();
                    *a = a.wrapping_add(dot);
                }
            }
            let c0 = BLOCK * blk;
            let n = (out_d - c0).min(BLOCK);
            rq.store(c0, &acc[..n], &mut output[px * out_d + c0..][..n]);
        }
    }
}

// The driver of the SIMD forms: only x86-64 has them (AVX2, AVX-VNNI, AVX-512 VNNI).

#[cfg(target_arch = "x86_64")]
/// Room after the last gathered row for [`gather16`]'s excess.
pub(crate) const SLACK: usize = 16;
#[cfg(target_arch = "x86_64")]
/// The longest gathered row: the taps rounded up to a quad.
pub(crate) const ROW: usize = 4 * MAX_TAPS.div_ceil(4);
#[cfg(target_arch = "x86_64")]
/// The most pixels a micro-kernel's pass takes.
pub(crate) const MAX_PASS: usize = 16;

#[cfg(target_arch = "x86_64")]
/// The packed table as a pass reads it: the padded folded biases, then per block of
/// [`BLOCK`] channels its `n_quads` quads of sixteen words.
pub(crate) struct QuadTable<'a> {
    pub(crate) biases: &'a [i32],
    pub(crate) rows: &'a [i32],
    pub(crate) n_quads: usize,
    pub(crate) n_blocks: usize,
    pub(crate) out_d: usize,
}

#[cfg(target_arch = "x86_64")]
/// A SIMD micro-kernel of the `Quad` variant: how a pass's rows are stored (bytes, or
/// widened) and how they are multiplied by the packed blocks. [`drive`] does the rest.
pub(crate) trait QuadMicro {
    /// The element of a gathered row: `u8` (`x ^ 0x80`) for a kernel that multiplies bytes
    /// (`vpdpbusd`), `i16` (the same values widened) for one that multiplies int16 pairs.
    type Elem: Copy + Default + From<u8>;
    /// Pixels per pass (at most [`MAX_PASS`]).
    const PIXELS: usize;
    /// `dst[i] = src[i] ^ 0x80` as an element, for every `i` below both lengths.
    fn flip_copy(&self, src: &[i8], dst: &mut [Self::Elem]);
    /// Every channel of a pass's `n <= PIXELS` pixels: row `x[p]` is pixel `p`'s gathered
    /// window (`4 * table.n_quads` elements; the rows past `n` repeat the last one), and
    /// pixel `p`'s outputs go to `output[p * table.out_d..][..table.out_d]`.
    ///
    /// # Safety
    /// The instruction set the implementation names (its entry's `#[target_feature]`);
    /// every `x[p]` points at `4 * table.n_quads` readable elements.
    unsafe fn pass(&self, x: &[*const Self::Elem; MAX_PASS], n: usize, table: &QuadTable, output: &mut [i8]);
}

#[cfg(target_arch = "x86_64")]
/// Whether every output pixel's window is the `depth` input bytes at `pixel * depth`, a
/// whole number of quads (1x1, stride 1, no padding, the output as large as the input):
/// then a pass's rows are one contiguous run of the input.
#[inline(always)]
pub(crate) fn contiguous(g: &ConvGeometry) -> bool {
    let [_, f_h, f_w, f_d] = g.filter_shape;
    f_h == 1 && f_w == 1 && f_d % 4 == 0 && g.stride_height == 1 && g.stride_width == 1 && g.pad_top == 0 && g.pad_left == 0 && g.input_shape[..3] == g.output_shape[..3]
}

#[cfg(target_arch = "x86_64")]
/// [`gather`] into `dst[..len]` (the same values), a window inside the input with dilation
/// 1 copied in whole blocks of sixteen per run of `filter_width * depth`
/// ([`QuadMicro::flip_copy`]): the excess of a run lands on the next run (written
/// afterwards) or past the window, at most fifteen elements into `dst[len..]` (a caller
/// passes the rest of its buffer: the next pixel's row, written afterwards, or [`SLACK`]),
/// and the last quad's padding is written last.
#[inline(always)]
pub(crate) fn gather16<K: QuadMicro>(k: &K, g: &ConvGeometry, input: &[i8], zp: i8, at: [usize; 3], dst: &mut [K::Elem], len: usize) {
    let [b, oy, ox] = at;
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, f_h, f_w, f_d] = g.filter_shape;
    let taps = f_h * f_w * f_d;
    let [in_y0, in_x0] = g.origin(oy, ox);
    let inside = taps_inside(in_y0, 1, f_h, in_h).len() == f_h && taps_inside(in_x0, 1, f_w, in_w).len() == f_w;
    if g.dilation_height == 1 && g.dilation_width == 1 && inside {
        let run = f_w * f_d;
        let in_row = in_w * in_d;
        let start = ((b * in_h + in_y0 as usize) * in_w + in_x0 as usize) * in_d;
        let whole = run.next_multiple_of(16);
        if start + (f_h - 1) * in_row + whole <= input.len() && (f_h - 1) * run + whole <= dst.len() {
            for ky in 0..f_h {
                k.flip_copy(&input[start + ky * in_row..][..whole], &mut dst[ky * run..][..whole]);
            }
            dst[taps..len].fill(K::Elem::default());
            return;
        }
    }
    gather(g, input, zp, at, &mut dst[..len], 0x80)
}

#[cfg(target_arch = "x86_64")]
/// The gathered row length of a layer the SIMD forms run: `4 * quads`, or `None` when there
/// is nothing to compute (or the window is past [`MAX_TAPS`], which `select` never gives
/// the variant).
#[inline(always)]
pub(crate) fn row_len(g: &ConvGeometry) -> Option<usize> {
    let [batches, ..] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let taps = f_h * f_w * f_d;
    let empty = out_d == 0 || batches * out_h * out_w == 0 || taps == 0 || taps > MAX_TAPS;
    (!empty).then(|| 4 * quads(g))
}

#[cfg(target_arch = "x86_64")]
/// Every output pixel, `K::PIXELS` at a time, through the micro-kernel `k`, with a gather
/// buffer of `N >= K::PIXELS * len + SLACK` elements (zeroed on every call; a row-driven op
/// calls the kernel once per row band). [`quad_entry!`] instantiates it under each
/// instruction set's `#[target_feature]`.
///
/// # Safety
/// What `K::pass` requires of the CPU.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn drive<K: QuadMicro, const N: usize>(k: &K, g: &ConvGeometry, zp: i8, input: &[i8], packed: &[i32], output: &mut [i8], len: usize) {
    let [batches, ..] = g.input_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let out_d = g.filter_shape[0];
    let n_px = batches * out_h * out_w;
    let n_blocks = blocks(g);
    let (biases, rows) = packed.split_at(BLOCK * n_blocks);
    assert!(K::PIXELS <= MAX_PASS && K::PIXELS * len + SLACK <= N && rows.len() >= n_blocks * BLOCK * (len / 4));
    let table = QuadTable { biases, rows, n_quads: len / 4, n_blocks, out_d };
    let flat = contiguous(g);
    let mut buf = [K::Elem::default(); N];
    let mut walk = PixelWalk::new(g);
    let mut px0 = 0;
    while px0 < n_px {
        let n = (n_px - px0).min(K::PIXELS);
        if flat {
            // One run: pixel `px`'s window is the `len` bytes at `px * len`.
            k.flip_copy(&input[px0 * len..][..n * len], &mut buf[..n * len]);
        } else {
            // In order, each with the rest of the buffer (`gather16`'s excess).
            for j in 0..n {
                gather16(k, g, input, zp, walk.next_pixel(), &mut buf[j * len..], len);
            }
        }
        let x: [*const K::Elem; MAX_PASS] = core::array::from_fn(|j| buf[j.min(n - 1) * len..][..len].as_ptr());
        // SAFETY: the caller's guarantee for the CPU; every row is `len` elements of `buf`.
        unsafe { k.pass(&x, n, &table, &mut output[px0 * out_d..]) };
        px0 += n;
    }
}

#[cfg(target_arch = "x86_64")]
/// `unsafe fn $name(k: &$k, g, zp, input, packed, output)`: [`drive`] for the micro-kernel
/// type `$k` inside a `#[target_feature(enable = $features)]` function, with the smallest
/// gather buffer of the sizes listed, else one of `$max` elements (which must hold `PIXELS`
/// rows of [`ROW`] and [`SLACK`]: [`drive`] asserts it).
macro_rules! quad_entry {
    ($(#[$doc:meta])* fn $name:ident($k:ty) features $features:literal sizes [$($size:expr),*] else $max:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The CPU executes the instruction sets of `$features`.
        unsafe fn $name(k: &$k, g: &$crate::kernels::conv_2d::ConvGeometry, zp: i8, input: &[i8], packed: &[i32], output: &mut [i8]) {
            use $crate::kernels::conv_2d::quad::{drive, row_len, QuadMicro};
            #[target_feature(enable = $features)]
            unsafe fn run<const N: usize>(k: &$k, g: &$crate::kernels::conv_2d::ConvGeometry, zp: i8, input: &[i8], packed: &[i32], output: &mut [i8], len: usize) {
                // SAFETY: this function's target features; the caller checked `N`.
                unsafe { drive::<_, N>(k, g, zp, input, packed, output, len) }
            }
            let Some(len) = row_len(g) else { return };
            let need = <$k as QuadMicro>::PIXELS * len + $crate::kernels::conv_2d::quad::SLACK;
            $(
                if need <= $size {
                    // SAFETY: the caller's guarantee.
                    return unsafe { run::<{ $size }>(k, g, zp, input, packed, output, len) };
                }
            )*
            // SAFETY: the caller's guarantee.
            unsafe { run::<{ $max }>(k, g, zp, input, packed, output, len) }
        }
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use quad_entry;
