//! The `_in_place` kernel variants (output written over operand 1) must produce exactly
//! what the out-of-place kernels produce, for every broadcasting pattern where operand 1
//! has the output's shape.

use proptest::prelude::*;
use tflc_runtime::kernels::nd::{is_dense, plan_broadcast};
use tflc_runtime::kernels::{add, leaky_relu, maximum, minimum, mul, prelu, quantize, relu, sub};
use tflc_runtime::prepare::FusedActivation;
use tflc_runtime::quant::QuantParams;

/// Operand 1 has the full shape; operand 2 is a broadcastable suffix with some 1s.
fn shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    proptest::collection::vec((1usize..5, any::<bool>()), 1..6).prop_flat_map(|dims| {
        let s1: Vec<usize> = dims.iter().map(|d| d.0).collect();
        let s2: Vec<usize> = dims.iter().map(|d| if d.1 { 1 } else { d.0 }).collect();
        (0..=s2.len()).prop_map(move |c| (s1.clone(), s2[c..].to_vec()))
    })
}

fn data(n: usize, seed: u64) -> Vec<i8> {
    let mut r = seed;
    (0..n)
        .map(|_| {
            r = r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (r >> 56) as u8 as i8
        })
        .collect()
}

proptest! {
    #[test]
    fn binary_in_place_matches((s1, s2) in shapes(), seed in any::<u64>(), zp in -128i32..128) {
        let plan = plan_broadcast(&s1, &s2).unwrap();
        let b = plan.as_broadcast();
        prop_assert!(is_dense(b.out_shape, b.in1_strides));
        let x = data(s1.iter().product(), seed);
        let y = data(s2.iter().product(), seed ^ 0x5555);
        let (qa, qb, qo) = (QuantParams { scale: 0.03, zero_point: zp }, QuantParams { scale: 0.02, zero_point: -zp / 2 }, QuantParams { scale: 0.05, zero_point: 7 });
        let mut want = vec![0i8; x.len()];
        let mut got = x.clone();

        let p = add::prepare_add(qa, qb, qo, FusedActivation::Relu6, b).unwrap();
        add::add_s8(&p, &x, &y, &mut want);
        add::add_s8_in_place(&p, &mut got, &y);
        prop_assert_eq!(&got, &want);

        let p = sub::prepare_sub(qa, qb, qo, FusedActivation::None, b).unwrap();
        got.copy_from_slice(&x);
        sub::sub_s8(&p, &x, &y, &mut want);
        sub::sub_s8_in_place(&p, &mut got, &y);
        prop_assert_eq!(&got, &want);

        let p = mul::prepare_mul(qa, qb, qo, FusedActivation::None, b).unwrap();
        got.copy_from_slice(&x);
        mul::mul_s8(&p, &x, &y, &mut want);
        mul::mul_s8_in_place(&p, &mut got, &y);
        prop_assert_eq!(&got, &want);

        let p = maximum::MaximumParams { broadcast: b };
        got.copy_from_slice(&x);
        maximum::maximum_s8(&p, &x, &y, &mut want);
        maximum::maximum_in_place(&p, &mut got, &y);
        prop_assert_eq!(&got, &want);

        let p = minimum::MinimumParams { broadcast: b };
        got.copy_from_slice(&x);
        minimum::minimum_s8(&p, &x, &y, &mut want);
        minimum::minimum_in_place(&p, &mut got, &y);
        prop_assert_eq!(&got, &want);

        let p = prelu::prepare_prelu(qa, qb, qo, b).unwrap();
        got.copy_from_slice(&x);
        prelu::prelu_s8(&p, &x, &y, &mut want);
        prelu::prelu_s8_in_place(&p, &mut got, &y);
        prop_assert_eq!(&got, &want);
    }

    #[test]
    fn unary_in_place_matches(si in 0.001f32..0.1, so in 0.001f32..0.1, zi in -128i32..128, zo in -128i32..128, alpha in -2f32..2.0) {
        let x: Vec<i8> = (-128..=127).collect();
        let (qi, qo) = (QuantParams { scale: si, zero_point: zi }, QuantParams { scale: so, zero_point: zo });
        let mut want = vec![0i8; 256];
        let mut got = x.clone();
        let p = relu::prepare_relu6(qi, qo).unwrap();
        relu::relu_s8(&p, &x, &mut want);
        relu::relu_s8_in_place(&p, &mut got);
        prop_assert_eq!(&got, &want);
        let p = leaky_relu::prepare_leaky_relu(qi, qo, alpha).unwrap();
        got.copy_from_slice(&x);
        leaky_relu::leaky_relu_s8(&p, &x, &mut want);
        leaky_relu::leaky_relu_s8_in_place(&p, &mut got);
        prop_assert_eq!(&got, &want);
        let p = quantize::prepare_requantize(qi, qo).unwrap();
        got.copy_from_slice(&x);
        quantize::quantize_s8_s8(&p, &x, &mut want);
        quantize::quantize_s8_s8_in_place(&p, &mut got);
        prop_assert_eq!(&got, &want);
    }
}
