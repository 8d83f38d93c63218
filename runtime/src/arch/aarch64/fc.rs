//! NEON FULLY_CONNECTED int8, the `Dot4` variant: the model's `[units, depth]` weights and
//! the folded bias (`FullyConnectedVariant::pack`), four input rows per pass through
//! the one row-product driver (`crate::kernels::rows::dot4`), with `sdot` when the dot-product extension is selected.

use super::gemm::{sdot, smull, NeonRows, Sdot, Smull};
use core::marker::PhantomData;
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
    if !crate::kernels::rows::fits_dot4(p) {
        return crate::kernels::fully_connected::fast::fully_connected_dot4::<crate::isa::Dot>(p, input, filter, packed, output);
    }
    let k = NeonRows::<Smull> { rq: Requant8::new(&p.quant, &p.clamp), step: PhantomData };
    // SAFETY: NEON is enabled for this build (the token exists only then).
    unsafe { smull::dot4(&k, p, input, filter, packed, output) }
}

/// [`fully_connected_dot4`] with `sdot`.
pub(crate) fn fully_connected_dot4_sdot(_: Dotprod, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    if !crate::kernels::rows::fits_dot4(p) {
        return crate::kernels::fully_connected::fast::fully_connected_dot4::<crate::isa::Dot>(p, input, filter, packed, output);
    }
    let k = NeonRows::<Sdot> { rq: Requant8::new(&p.quant, &p.clamp), step: PhantomData };
    // SAFETY: the token proves that the CPU has the dot-product extension.
    unsafe { sdot::dot4(&k, p, input, filter, packed, output) }
}
