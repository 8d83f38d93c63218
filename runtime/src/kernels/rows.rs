//! The one set of drivers of the host SIMD row-product variants: CONV_2D `Pointwise` (1x1
//! pixels read in place) and `Window` (each window gathered into a row), and
//! FULLY_CONNECTED `Dot4` (the batch rows). Each multiplies a few rows of `k` int8 by every
//! `k`-long row of the model's OHWI / `[units, depth]` filter, from the folded bias
//! (`<Op>Variant::pack`), requantized; the multiplication is a micro-kernel per instruction
//! set ([`RowsMicro`]: AVX2 `crate::arch::x86_64::gemm`, AVX-512 VNNI
//! `crate::arch::x86_64::vnni::rows`, NEON with and without `sdot`
//! `crate::arch::aarch64::gemm`), each entered under its own `#[target_feature]`.
//!
//! `Window` gathers each window (border ones included) into a contiguous row, taps outside
//! the image set to the input zero point: such a tap contributes `w * (zp + input_offset) =
//! 0` on top of the folded bias, exactly as the reference's skipped tap, so every window is
//! one row of the same matrix product. Windows longer than [`GATHER_MAX`] take the portable
//! variant. The portable forms of the three variants are `conv_2d::fast` and
//! `fully_connected::fast` over the `kernels::dot` micro-kernels.

use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::S8;
use crate::kernels::window::Window;

/// Longest window (`filter_height * filter_width * depth` int8) gathered on the stack (two
/// of them: two output pixels per pass).
pub(crate) const GATHER_MAX: usize = 4608;

/// Largest filter (`output_depth * rows padded`) copied with zero-padded rows.
const PADDED_MAX: usize = 8192;

/// The most rows a micro-kernel's pass takes.
pub(crate) const MAX_ROWS: usize = 4;

/// A host SIMD micro-kernel of the row-product variants.
pub(crate) trait RowsMicro {
    /// Rows per pass (at most [`MAX_ROWS`]; at least 2).
    const ROWS: usize;
    /// A gathered window of `k` taps is multiplied as `k` rounded up to a multiple of this
    /// (filter rows copied zero-padded when they fit [`PADDED_MAX`]), so that the product has
    /// no scalar tail; 1: the kernel has none.
    const PAD: usize;
    /// `outs[p][c] = requant(folded[c] + sum_i xs[p][i] * filter[c * k + i])` for every
    /// channel `c < folded.len()`, for `xs.len() == outs.len()` rows (1 to `ROWS`) of `k`
    /// int8 each; `filter` holds `folded.len()` rows of `k`.
    ///
    /// # Safety
    /// The instruction set the implementation names (its entry's `#[target_feature]`).
    unsafe fn pass(&self, xs: &[&[i8]], k: usize, filter: &[i8], folded: &[i32], outs: &mut [&mut [i8]]);
}

/// [`RowsMicro::pass`] over the rows `x_at(0..n_rows)` into the matching `out_d`-long rows of
/// `output`, `K::ROWS` at a time.
///
/// # Safety
/// What `K::pass` requires of the CPU.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn all_rows<'x, K: RowsMicro>(k: &K, n_rows: usize, x_at: impl Fn(usize) -> &'x [i8], depth: usize, filter: &[i8], folded: &[i32], output: &mut [i8]) {
    let out_d = folded.len();
    let mut outs = output[..n_rows * out_d].chunks_exact_mut(out_d);
    let mut i = 0;
    while i < n_rows {
        let m = (n_rows - i).min(K::ROWS).min(MAX_ROWS);
        let xs: [&[i8]; MAX_ROWS] = core::array::from_fn(|j| x_at(i + j.min(m - 1)));
        let mut os: [&mut [i8]; MAX_ROWS] = core::array::from_fn(|j| if j < m { outs.next().unwrap_or_default() } else { &mut [] });
        // SAFETY: the caller's guarantee.
        unsafe { k.pass(&xs[..m], depth, filter, folded, &mut os[..m]) };
        i += m;
    }
}

/// `Conv2dVariant::Pointwise` (1x1, no padding, every window inside the input): the pixels'
/// input rows as they are.
///
/// # Safety
/// What `K::pass` requires of the CPU.
#[inline(always)]
pub(crate) unsafe fn pointwise<K: RowsMicro>(k: &K, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let out_d = g.filter_shape[0];
    let [_, out_h, out_w, _] = g.output_shape;
    let n_px = batches * out_h * out_w;
    if out_d == 0 || n_px == 0 {
        return;
    }
    let at = |i: usize| {
        let (ox, oy, b) = (i % out_w, (i / out_w) % out_h, i / (out_w * out_h));
        &input[((b * in_h + oy * g.stride_height) * in_w + ox * g.stride_width) * in_d..][..in_d]
    };
    // SAFETY: the caller's guarantee.
    unsafe { all_rows(k, n_px, at, in_d, &filter[..out_d * in_d], &packed[..out_d], output) }
}

/// `FullyConnectedVariant::Dot4`: the batch rows. A layer of depth 0 takes the portable form
/// (`fits_dot4`).
///
/// # Safety
/// What `K::pass` requires of the CPU.
#[inline(always)]
pub(crate) unsafe fn dot4<K: RowsMicro>(k: &K, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    if units == 0 || batches == 0 || depth == 0 {
        return;
    }
    let input = &input[..batches * depth];
    // SAFETY: the caller's guarantee.
    unsafe { all_rows(k, batches, |b| &input[b * depth..][..depth], depth, &filter[..units * depth], &packed[..units], output) }
}

/// Whether [`dot4`] takes the layer (a depth of at least 1: the portable form requantizes
/// the bias alone).
#[inline(always)]
pub(crate) fn fits_dot4(p: &FullyConnectedParams<S8>) -> bool {
    p.geometry.input_depth > 0
}

/// Whether [`gathered`] takes the layer (windows of at most [`GATHER_MAX`] taps).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn fits_window(p: &Conv2dParams<S8>) -> bool {
    let [_, f_h, f_w, f_d] = p.geometry.filter_shape;
    f_h * f_w * f_d <= GATHER_MAX
}

/// Copies the window of output pixel `(b, oy, ox)` into `col` (`f_h * f_w * f_d` int8, row
/// by row), taps outside the image set to the zero point.
#[inline(always)]
pub(crate) fn gather(p: &Conv2dParams<S8>, input: &[i8], [b, oy, ox]: [usize; 3], col: &mut [i8]) {
    let g = &p.geometry;
    let [_, in_h, in_w, in_d] = g.input_shape;
    let [_, _, f_w, f_d] = g.filter_shape;
    // -input_offset is the input zero point, an int8.
    let zero_point = (-p.quant.input_offset) as i8;
    let Window { in_y0, in_x0, ky: ky_range, kx: kx_range, .. } = g.window(b, oy, ox);
    for (ky, col_row) in col.chunks_exact_mut(f_w * f_d).enumerate() {
        if !ky_range.contains(&ky) {
            col_row.fill(zero_point);
            continue;
        }
        let iy = (in_y0 + (g.dilation_height * ky) as isize) as usize;
        let row = (b * in_h + iy) * in_w;
        if g.dilation_width == 1 && kx_range.len() == f_w {
            col_row.copy_from_slice(&input[(row + in_x0 as usize) * in_d..][..f_w * f_d]);
            continue;
        }
        for (kx, tap) in col_row.chunks_exact_mut(f_d).enumerate() {
            if kx_range.contains(&kx) {
                let ix = (in_x0 + (g.dilation_width * kx) as isize) as usize;
                tap.copy_from_slice(&input[(row + ix) * in_d..][..f_d]);
            } else {
                tap.fill(zero_point);
            }
        }
    }
}

/// `Conv2dVariant::Window`: every window gathered, two output pixels per pass. [`fits_window`]
/// holds.
///
/// # Safety
/// What `K::pass` requires of the CPU.
#[inline(always)]
pub(crate) unsafe fn gathered<K: RowsMicro>(k: &K, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, _, _, _] = g.input_shape;
    let [out_d, f_h, f_w, f_d] = g.filter_shape;
    let [_, out_h, out_w, _] = g.output_shape;
    let window = f_h * f_w * f_d;
    let n_px = batches * out_h * out_w;
    if out_d == 0 || n_px == 0 || window == 0 || window > GATHER_MAX {
        return;
    }
    let folded = &packed[..out_d];
    let filter = &filter[..out_d * window];
    let pixel = |i: usize| [i / (out_w * out_h), (i / out_w) % out_h, i % out_w];
    // Rows of a length that is not a multiple of the kernel's step (first layers: 27 =
    // 3x3x3) would end in scalar products; a small filter is copied once with its rows
    // zero-padded (the gathered rows get zeros there too), so the product has no scalar tail.
    let padded_k = window.next_multiple_of(K::PAD.max(1));
    // (Initialized only when used: a kernel without a tail, or a window already a multiple
    // of its step, does not zero 8 KiB per call.)
    let mut padded: [i8; PADDED_MAX];
    let (len, filter) = if padded_k != window && out_d * padded_k <= PADDED_MAX && padded_k <= GATHER_MAX {
        padded = [0i8; PADDED_MAX];
        for (dst, src) in padded.chunks_exact_mut(padded_k).zip(filter.chunks_exact(window)) {
            dst[..window].copy_from_slice(src);
        }
        (padded_k, &padded[..out_d * padded_k])
    } else {
        (window, filter)
    };
    let (mut buf0, mut buf1) = ([0i8; GATHER_MAX], [0i8; GATHER_MAX]);
    let (col0, col1) = (&mut buf0[..len], &mut buf1[..len]);
    let mut outs = output[..n_px * out_d].chunks_exact_mut(out_d);
    let mut i = 0;
    while i < n_px {
        let (Some(o0), o1) = (outs.next(), if i + 1 < n_px { outs.next() } else { None }) else { return };
        gather(p, input, pixel(i), &mut col0[..window]);
        match o1 {
            Some(o1) => {
                gather(p, input, pixel(i + 1), &mut col1[..window]);
                // SAFETY: the caller's guarantee.
                unsafe { k.pass(&[&*col0, &*col1], len, filter, folded, &mut [o0, o1]) };
                i += 2;
            }
            None => {
                // SAFETY: as above.
                unsafe { k.pass(&[&*col0], len, filter, folded, &mut [o0]) };
                i += 1;
            }
        }
    }
}

/// `mod $name { pointwise, gathered, dot4 }`: the three drivers for the micro-kernel type
/// `$k` (in the calling module's scope), each inside a `#[target_feature(enable =
/// $features)]` function where the instruction set needs one (the drivers and the
/// micro-kernel are `#[inline(always)]` into it).
macro_rules! rows_entries {
    ($(#[$doc:meta])* mod $name:ident($k:ty) $(features $features:literal)?) => {
        $(#[$doc])*
        #[allow(dead_code)]
        pub(crate) mod $name {
            use super::*;
            use $crate::kernels::conv_2d::Conv2dParams;
            use $crate::kernels::fully_connected::FullyConnectedParams;
            use $crate::kernels::numerics::S8;

            /// `Pointwise`.
            ///
            /// # Safety
            /// The CPU executes the micro-kernel's instruction set.
            $(#[target_feature(enable = $features)])?
            pub(crate) unsafe fn pointwise(k: &$k, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
                // SAFETY: this function's target features.
                unsafe { $crate::kernels::rows::pointwise(k, p, input, filter, packed, output) }
            }

            /// `Window` ([`crate::kernels::rows::fits_window`] holds).
            ///
            /// # Safety
            /// The CPU executes the micro-kernel's instruction set.
            $(#[target_feature(enable = $features)])?
            pub(crate) unsafe fn gathered(k: &$k, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
                // SAFETY: this function's target features.
                unsafe { $crate::kernels::rows::gathered(k, p, input, filter, packed, output) }
            }

            /// FULLY_CONNECTED `Dot4` ([`crate::kernels::rows::fits_dot4`] holds).
            ///
            /// # Safety
            /// The CPU executes the micro-kernel's instruction set.
            $(#[target_feature(enable = $features)])?
            pub(crate) unsafe fn dot4(k: &$k, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
                // SAFETY: this function's target features.
                unsafe { $crate::kernels::rows::dot4(k, p, input, filter, packed, output) }
            }
        }
    };
}
pub(crate) use rows_entries;
