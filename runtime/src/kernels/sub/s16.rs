//! 16x8 SUB (int16 activations): TFLite Micro `sub.cc`'s int16 path (`reference_ops::Sub`
//! / `BroadcastQuantSubSlow`): the int8 arithmetic with `left_shift` 15 and the int16
//! clamp; the multipliers as `sub_common.cc` computes them (the scale ratios in f32).

use super::SubParams;
use crate::kernels::add::s16::add_sub_one_s16;
use crate::kernels::nd::Broadcast;
use crate::prepare::{activation_range_s16, quantize_multiplier_smaller_than_one_exp, FusedActivation};
use crate::quant::QuantParams;

/// TFLite Micro `CalculateOpDataSub` for an int16 output. `None` where TFLite would fail.
pub fn prepare_sub_s16<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    activation: FusedActivation,
    broadcast: Broadcast<'a>,
) -> Option<SubParams<'a>> {
    let left_shift = 15;
    let twice_max_input_scale: f32 = 2.0 * input1.scale.max(input2.scale);
    let real_input1_multiplier = (input1.scale / twice_max_input_scale) as f64;
    let real_input2_multiplier = (input2.scale / twice_max_input_scale) as f64;
    let real_output_multiplier = (twice_max_input_scale / ((1i32 << left_shift) as f32 * output.scale)) as f64;
    let (input1_multiplier, input1_shift) = quantize_multiplier_smaller_than_one_exp(real_input1_multiplier)?;
    let (input2_multiplier, input2_shift) = quantize_multiplier_smaller_than_one_exp(real_input2_multiplier)?;
    let (output_multiplier, output_shift) = quantize_multiplier_smaller_than_one_exp(real_output_multiplier)?;
    let (activation_min, activation_max) = activation_range_s16(activation, output.scale, output.zero_point)?;
    Some(SubParams {
        input1_offset: -input1.zero_point,
        input2_offset: -input2.zero_point,
        output_offset: output.zero_point,
        left_shift,
        input1_multiplier,
        input1_shift,
        input2_multiplier,
        input2_shift,
        output_multiplier,
        output_shift,
        activation_min,
        activation_max,
        broadcast,
    })
}

/// int16 SUB with broadcasting.
pub fn sub_s16(p: &SubParams, input1: &[i16], input2: &[i16], output: &mut [i16]) {
    debug_assert!(p.activation_min <= p.activation_max);
    crate::kernels::nd::broadcast_binary(&p.broadcast, input1, input2, output, |x, y| add_sub_one_s16::<true>(p, x, y));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::nd::plan_broadcast;

    /// Equal scales: exact integer subtraction, saturating.
    #[test]
    fn equal_scales_are_exact() {
        let q = QuantParams { scale: 1.0 / 1024.0, zero_point: 0 };
        let plan = plan_broadcast(&[4], &[4]).unwrap();
        let p = prepare_sub_s16(q, q, q, FusedActivation::None, plan.as_broadcast()).unwrap();
        let mut out = [0i16; 4];
        sub_s16(&p, &[100, -32768, 32767, 0], &[-50, 1, -1, 0], &mut out);
        assert_eq!(out, [150, -32768, 32767, 0]);
    }
}
