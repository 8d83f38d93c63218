//! NEON CONV_2D int8, the `Pointwise` variant (1x1, no padding): the model's OHWI filter and
//! the folded bias (`Conv2dVariant::pack`), four pixels per pass through
//! the one row-product driver (`crate::kernels::rows::pointwise`), with `sdot` when the dot-product extension is selected.

use super::gemm::{sdot, smull, NeonRows, Sdot, Smull};
use core::marker::PhantomData;
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
    let k = NeonRows::<Smull> { rq: Requant8::new(&p.quant, &p.clamp), step: PhantomData };
    // SAFETY: NEON is enabled for this build (the token exists only then).
    unsafe { smull::pointwise(&k, p, input, filter, packed, output) }
}

/// [`conv_2d_pointwise`] with `sdot`.
pub(crate) fn conv_2d_pointwise_sdot(_: Dotprod, p: &Conv2dParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let k = NeonRows::<Sdot> { rq: Requant8::new(&p.quant, &p.clamp), step: PhantomData };
    // SAFETY: the token proves that the CPU has the dot-product extension.
    unsafe { sdot::pointwise(&k, p, input, filter, packed, output) }
}
