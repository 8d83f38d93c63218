//! LESS with broadcasting on unquantized element types (int32, float32). Mirrors TFLite Micro
//! `comparisons.cc` (`reference_ops::Less` / `BroadcastLess4DSlow` through
//! `ComparisonImpl`): `output[i] = input1[i] < input2[i]`, the bool output stored as one byte,
//! 0 or 1, as TFLite stores `bool`. (Quantized int8 LESS rescales both operands first; the
//! compiler refuses it.)

use crate::kernels::nd::{broadcast_binary, Broadcast};

/// Precomputed parameters of LESS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessParams<'a> {
    pub broadcast: Broadcast<'a>,
}

/// `input1 < input2` elementwise with broadcasting, 1 for true and 0 for false.
#[inline]
pub fn less<T: Copy + PartialOrd>(params: &LessParams, input1: &[T], input2: &[T], output: &mut [u8]) {
    scalar::less(params, input1, input2, output)
}

pub mod scalar {
    //! Scalar reference implementation.
    use super::*;

    pub fn less<T: Copy + PartialOrd>(p: &LessParams, input1: &[T], input2: &[T], output: &mut [u8]) {
        broadcast_binary(&p.broadcast, input1, input2, output, |a, b| u8::from(a < b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::nd::plan_broadcast;
    use proptest::prelude::*;
    use std::vec::Vec;

    #[test]
    fn hand_computed() {
        let plan = plan_broadcast(&[4], &[1]).unwrap();
        let p = LessParams { broadcast: plan.as_broadcast() };
        let mut out = [9u8; 4];
        less(&p, &[-1i32, 0, 1, i32::MIN], &[0], &mut out);
        assert_eq!(out, [1, 0, 0, 1]);
        let mut out = [9u8; 3];
        let plan = plan_broadcast(&[3], &[3]).unwrap();
        less(&LessParams { broadcast: plan.as_broadcast() }, &[1.0f32, f32::NAN, -0.0], &[2.0, 1.0, 0.0], &mut out);
        assert_eq!(out, [1, 0, 0]);
    }

    proptest! {
        /// Every element is `a < b` of the broadcast operands (checked against a naive index walk).
        #[test]
        fn matches_naive(a in proptest::collection::vec(any::<i32>(), 6), b in proptest::collection::vec(any::<i32>(), 3)) {
            let plan = plan_broadcast(&[2, 3], &[3]).unwrap();
            let mut out = [0u8; 6];
            less(&LessParams { broadcast: plan.as_broadcast() }, &a, &b, &mut out);
            let want: Vec<u8> = (0..6).map(|i| u8::from(a[i] < b[i % 3])).collect();
            prop_assert_eq!(out.to_vec(), want);
        }
    }
}
