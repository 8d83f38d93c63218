//! NEON FULLY_CONNECTED int8, the `Dot4` variant: the model's `[units, depth]` weights and
//! the folded bias (`FullyConnectedVariant::pack`), four input rows per pass through
//! [`super::gemm::rows`], with `sdot` when the dot-product extension is selected.

use super::gemm::{all_rows, Sdot, Smull, Step};
use super::{Dotprod, Neon, Requant8};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::S8;

/// `FullyConnectedVariant::Dot4`: the `sdot` form when [`crate::isa`] selected it.
pub(crate) fn fully_connected_dot4(token: Neon, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    match crate::isa::dotprod() {
        Some(d) => fully_connected_dot4_sdot(d, p, input, filter, packed, output),
        None => fully_connected_dot4_smull(token, p, input, filter, packed, output),
    }
}

/// [`fully_connected_dot4`] in plain NEON.
pub(crate) fn fully_connected_dot4_smull(_: Neon, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: NEON is enabled for this build (the token exists only then).
    unsafe { dot4::<Smull>(p, input, filter, packed, output) }
}

/// [`fully_connected_dot4`] with `sdot`.
pub(crate) fn fully_connected_dot4_sdot(_: Dotprod, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: the token proves that the CPU has the dot-product extension.
    unsafe { dot4_sdot(p, input, filter, packed, output) }
}

#[target_feature(enable = "dotprod")]
unsafe fn dot4_sdot(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    // SAFETY: the dot-product extension is enabled here and executable (the caller's token).
    unsafe { dot4::<Sdot>(p, input, filter, packed, output) }
}

/// # Safety
/// As [`Step::step`] for `S`.
#[inline(always)]
unsafe fn dot4<S: Step>(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    if units == 0 || batches == 0 {
        return;
    }
    let folded = &packed[..units];
    let filter = &filter[..units * depth];
    let rq = Requant8::new(&p.quant, &p.clamp);
    let input = &input[..batches * depth];
    // SAFETY: by the caller's guarantee.
    unsafe { all_rows::<S>(batches, |b| &input[b * depth..][..depth], depth, filter, folded, &rq, output) }
}
