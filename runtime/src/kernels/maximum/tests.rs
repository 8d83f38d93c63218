use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{kernel_tests, Binary, BinaryKernel, BinaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

/// MAXIMUM of int8 (both inputs and the output share one quantization; no options).
#[derive(Clone, Debug)]
struct Maximum;

impl BinaryS8Op for Maximum {
    type Params<'a> = MaximumParams<'a>;
    const REFERENCE: BinaryKernel<Self> = (scalar::maximum, scalar::maximum_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        Just(Maximum).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        std::vec![Maximum]
    }

    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<MaximumParams<'a>> {
        Some(MaximumParams { broadcast })
    }

    fn ideal(&self, x: i8, y: i8) -> f64 {
        x.max(y) as f64
    }

    fn tolerance(&self) -> f64 {
        0.0
    }
}

kernel_tests!(impl_scalar, Binary<Maximum>, (scalar::maximum, scalar::maximum_in_place));
kernel_tests!(impl_dispatch, if true, Binary<Maximum>, (maximum_s8, maximum_in_place));

#[test]
fn hand_computed() {
    let plan = plan_broadcast(&[2, 2], &[2]).unwrap();
    let p = MaximumParams { broadcast: plan.as_broadcast() };
    let mut out = [0i8; 4];
    maximum_s8(&p, &[-128, 5, 127, -1], &[0, 6], &mut out);
    assert_eq!(out, [0, 6, 127, 6]);
}
