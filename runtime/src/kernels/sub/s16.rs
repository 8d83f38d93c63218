//! 16x8 SUB (int16 activations): TFLite Micro `sub.cc`'s int16 path (`reference_ops::Sub`
//! / `BroadcastQuantSubSlow`): the int8 arithmetic with `left_shift` 15 and the int16
//! clamp; the multipliers as `sub_common.cc` computes them (the scale ratios in f32).

use super::SubParams;
use crate::kernels::add::s16::add_sub_one_s16;
#[cfg(feature = "prepare")]
use crate::kernels::nd::Broadcast;
#[cfg(feature = "prepare")]
use crate::prepare::{activation_range_s16, FusedActivation};
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

/// TFLite Micro `CalculateOpDataSub` for an int16 output. `None` where TFLite would fail.
#[cfg(feature = "prepare")]
pub fn prepare_sub_s16<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    activation: FusedActivation,
    broadcast: Broadcast<'a>,
) -> Option<SubParams<'a>> {
    let activation = activation_range_s16(activation, output.scale, output.zero_point)?;
    super::sub_params(15, activation, input1, input2, output, broadcast)
}

/// int16 SUB with broadcasting.
pub fn sub_s16(p: &SubParams, input1: &[i16], input2: &[i16], output: &mut [i16]) {
    debug_assert!(p.activation_min <= p.activation_max);
    crate::kernels::nd::broadcast_binary(&p.broadcast, input1, input2, output, |x, y| add_sub_one_s16::<true>(p, x, y));
}

/// [`sub_s16`] with the output written over `input1_output` (operand 1, the output's shape;
/// `input2` may broadcast).
pub fn sub_s16_in_place(p: &SubParams, input1_output: &mut [i16], input2: &[i16]) {
    debug_assert!(p.activation_min <= p.activation_max);
    crate::kernels::nd::broadcast_binary_in_place(&p.broadcast, input1_output, input2, |x, y| add_sub_one_s16::<true>(p, x, y));
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
