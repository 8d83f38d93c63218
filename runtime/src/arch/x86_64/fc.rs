//! AVX2 FULLY_CONNECTED int8, the `Dot4` variant: the model's `[units, depth]` weights and
//! the folded bias (`FullyConnectedVariant::pack`), two input rows per pass through
//! [`super::gemm::rows`].

use super::gemm::rows;
use super::{Avx2, Requant8};
use crate::kernels::fully_connected::FullyConnectedParams;
use crate::kernels::numerics::S8;

/// `FullyConnectedVariant::Dot4`.
pub(crate) fn fully_connected_dot4(_: Avx2, p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    if p.geometry.input_depth == 0 {
        return crate::kernels::fully_connected::fast::fully_connected_dot4::<crate::isa::Dot>(p, input, filter, packed, output);
    }
    // SAFETY: the token proves that the CPU executes AVX2.
    unsafe { dot4(p, input, filter, packed, output) }
}

#[target_feature(enable = "avx2")]
unsafe fn dot4(p: &FullyConnectedParams<S8>, input: &[i8], filter: &[i8], packed: &[i32], output: &mut [i8]) {
    let (depth, units, batches) = (p.geometry.input_depth, p.geometry.output_depth, p.geometry.batches);
    if units == 0 || batches == 0 {
        return;
    }
    let folded = &packed[..units];
    let filter = &filter[..units * depth];
    let rq = Requant8::new(&p.quant, &p.clamp);
    let output = &mut output[..batches * units];
    let input = &input[..batches * depth];
    let mut pairs = output.chunks_exact_mut(2 * units);
    let mut xs = input.chunks_exact(depth);
    for pair in &mut pairs {
        let (o0, o1) = pair.split_at_mut(units);
        let (Some(x0), Some(x1)) = (xs.next(), xs.next()) else { return };
        // SAFETY: AVX2 (this function's target feature).
        unsafe { rows::<2>([x0, x1], depth, filter, folded, &rq, [o0, o1]) };
    }
    let last = pairs.into_remainder();
    if let (false, Some(x)) = (last.is_empty(), xs.next()) {
        // SAFETY: as above.
        unsafe { rows::<1>([x], depth, filter, folded, &rq, [last]) };
    }
}
