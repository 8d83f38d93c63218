use super::*;
use crate::kernels::nd::plan_broadcast;
use crate::kernels::test_util::{kernel_tests, Binary, BinaryKernel, BinaryS8Op};
use proptest::prelude::*;
use std::vec::Vec;

/// MINIMUM of int8 (both inputs and the output share one quantization; no options).
#[derive(Clone, Debug)]
struct Minimum;

impl BinaryS8Op for Minimum {
    type Params<'a> = MinimumParams<'a>;
    const REFERENCE: BinaryKernel<Self> = (scalar::minimum, scalar::minimum_in_place);

    fn strategy() -> BoxedStrategy<Self> {
        Just(Minimum).boxed()
    }

    fn edge_cases() -> Vec<Self> {
        std::vec![Minimum]
    }

    fn params<'a>(&self, broadcast: Broadcast<'a>) -> Option<MinimumParams<'a>> {
        Some(MinimumParams { broadcast })
    }

    fn ideal(&self, x: i8, y: i8) -> f64 {
        x.min(y) as f64
    }

    fn tolerance(&self) -> f64 {
        0.0
    }
}

kernel_tests!(impl_scalar, Binary<Minimum>, (scalar::minimum, scalar::minimum_in_place));
kernel_tests!(impl_dispatch, if true, Binary<Minimum>, (minimum_s8, minimum_in_place));

#[test]
fn hand_computed() {
    let plan = plan_broadcast(&[2, 2], &[2]).unwrap();
    let p = MinimumParams { broadcast: plan.as_broadcast() };
    let mut out = [0i8; 4];
    minimum_s8(&p, &[-128, 5, 127, -1], &[0, 6], &mut out);
    assert_eq!(out, [-128, 5, 0, -1]);
}
