//! 16x8 MUL (int16 activations): TFLite Micro `mul.cc`'s int16 path,
//! `reference_integer_ops::Mul` / `BroadcastMul6DSlow` with `T = int16_t` (`MulElementwise`):
//! the int8 arithmetic with the int16 clamp. TFLite Micro requires every zero point to be
//! 0 for int16 ([`prepare_mul_s16`] refuses others).

use super::MulParams;
#[cfg(feature = "prepare")]
use crate::kernels::nd::Broadcast;
#[cfg(feature = "prepare")]
use crate::prepare::{activation_range_s16, quantize_multiplier, FusedActivation};
use crate::quant::multiply_by_quantized_multiplier;
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

/// TFLite Micro `CalculateOpDataMul` for int16 (f64 math; zero points 0). `None` where
/// TFLite Micro fails.
#[cfg(feature = "prepare")]
pub fn prepare_mul_s16<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    activation: FusedActivation,
    broadcast: Broadcast<'a>,
) -> Option<MulParams<'a>> {
    if input1.zero_point != 0 || input2.zero_point != 0 || output.zero_point != 0 {
        return None;
    }
    let real_multiplier = input1.scale as f64 * input2.scale as f64 / output.scale as f64;
    let (output_multiplier, output_shift) = quantize_multiplier(real_multiplier)?;
    let (activation_min, activation_max) = activation_range_s16(activation, output.scale, output.zero_point)?;
    Some(MulParams { input1_offset: 0, input2_offset: 0, output_offset: 0, output_multiplier, output_shift, activation_min, activation_max, broadcast })
}

#[inline(always)]
fn mul_one_s16(p: &MulParams, x: i16, y: i16) -> i16 {
    let input1_val = p.input1_offset.wrapping_add(x as i32);
    let input2_val = p.input2_offset.wrapping_add(y as i32);
    let unclamped = p.output_offset.wrapping_add(multiply_by_quantized_multiplier(input1_val.wrapping_mul(input2_val), p.output_multiplier, p.output_shift));
    unclamped.max(p.activation_min).min(p.activation_max) as i16
}

/// int16 MUL with broadcasting.
pub fn mul_s16(p: &MulParams, input1: &[i16], input2: &[i16], output: &mut [i16]) {
    debug_assert!(p.activation_min <= p.activation_max);
    crate::kernels::nd::broadcast_binary(&p.broadcast, input1, input2, output, |x, y| mul_one_s16(p, x, y));
}

/// [`mul_s16`] with the output written over `input1_output` (operand 1, the output's shape;
/// `input2` may broadcast). MUL is symmetric: to write over operand 2 a compiler exchanges
/// the operands and their offsets, as for [`super::mul_s8_in_place`].
pub fn mul_s16_in_place(p: &MulParams, input1_output: &mut [i16], input2: &[i16]) {
    debug_assert!(p.activation_min <= p.activation_max);
    crate::kernels::nd::broadcast_binary_in_place(&p.broadcast, input1_output, input2, |x, y| mul_one_s16(p, x, y));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::nd::plan_broadcast;

    /// Power-of-two scales: the product is an exact shift, rounded half away from zero
    /// by the multiplier, saturating.
    #[test]
    fn power_of_two_scales() {
        let q = |s: f32| QuantParams { scale: s, zero_point: 0 };
        let plan = plan_broadcast(&[4], &[1]).unwrap();
        let p = prepare_mul_s16(q(1.0 / 256.0), q(1.0 / 256.0), q(1.0 / 256.0), FusedActivation::None, plan.as_broadcast()).unwrap();
        let mut out = [0i16; 4];
        // x * 512 / 256 = 2x.
        mul_s16(&p, &[100, -100, 20000, -20000], &[512], &mut out);
        assert_eq!(out, [200, -200, 32767, -32768]);
        assert!(prepare_mul_s16(QuantParams { scale: 1.0, zero_point: 1 }, q(1.0), q(1.0), FusedActivation::None, plan.as_broadcast()).is_none());
    }
}
