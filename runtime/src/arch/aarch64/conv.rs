//! NEON CONV_2D int8, the `Pointwise` variant (1x1, no padding): the model's OHWI filter and
//! the folded bias (`Conv2dVariant::pack`), four pixels per pass through
//! [`super::gemm::rows`], with `sdot` when the dot-product extension is selected.

use super::gemm::{all_rows, Sdot, Smull, Step};
use super::{Dotprod, Neon, Requant8};
use crate::kernels::conv_2d::Conv2dParams;
use crate::kernels::numerics::S8;

/// `Conv2dVariant::Pointwise`: the `sdot` form when [`crate::isa`] selected it.
pub(crate) fn conv_2d_pointwise(token: Neon, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    match crate::isa::dotprod() {
        Some(d) => conv_2d_pointwise_sdot(d, p, input, filter, packed, output),
        None => conv_2d_pointwise_smull(token, p, input, filter, packed, output),
    }
}

/// [`conv_2d_pointwise`] in plain NEON.
pub(crate) fn conv_2d_pointwise_smull(_: Neon, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: NEON is enabled for this build (the token exists only then).
    unsafe { pointwise::<Smull>(p, input, filter, packed, output) }
}

/// [`conv_2d_pointwise`] with `sdot`.
pub(crate) fn conv_2d_pointwise_sdot(_: Dotprod, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: the token proves that the CPU has the dot-product extension.
    unsafe { pointwise_sdot(p, input, filter, packed, output) }
}

#[target_feature(enable = "dotprod")]
unsafe fn pointwise_sdot(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: the dot-product extension is enabled here and executable (the caller's token).
    unsafe { pointwise::<Sdot>(p, input, filter, packed, output) }
}

/// # Safety
/// As [`Step::step`] for `S`.
#[inline(always)]
unsafe fn pointwise<S: Step>(p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let g = &p.geometry;
    let [batches, in_h, in_w, in_d] = g.input_shape;
    let out_d = g.filter_shape[0];
    let [_, out_h, out_w, _] = g.output_shape;
    let n_px = batches * out_h * out_w;
    if out_d == 0 || n_px == 0 {
        return;
    }
    let folded = &packed[..out_d];
    let filter = &filter[..out_d * in_d];
    let rq = Requant8::new(&p.quant, &p.clamp);
    let at = |i: usize| {
        let (ox, oy, b) = (i % out_w, (i / out_w) % out_h, i / (out_w * out_h));
        &input[((b * in_h + oy * g.stride_height) * in_w + ox * g.stride_width) * in_d..][..in_d]
    };
    // SAFETY: by the caller's guarantee.
    unsafe { all_rows::<S>(n_px, at, in_d, filter, folded, &rq, output) }
}
