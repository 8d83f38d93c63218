//! 16x8 ADD (int16 activations): TFLite Micro `add.cc`'s int16 path, `reference_ops::Add`
//! (`AddGeneralParamScale` -> `AddElementwise`) and `BroadcastAdd6DSlow`: the int8
//! arithmetic ([`AddParams`]) with `left_shift` 15 and the int16 clamp.

use super::AddParams;
#[cfg(feature = "prepare")]
use crate::kernels::nd::Broadcast;
#[cfg(feature = "prepare")]
use crate::prepare::{activation_range_s16, FusedActivation};
use crate::quant::multiply_by_quantized_multiplier_smaller_than_one_exp as mbqm_lt1;
#[cfg(feature = "prepare")]
use crate::quant::QuantParams;

/// TFLite Micro `CalculateOpDataAdd` for an int16 output: `left_shift` 15, the multipliers
/// in f64 from the f32 scales, the int16 activation range. `None` where TFLite would fail.
#[cfg(feature = "prepare")]
pub fn prepare_add_s16<'a>(
    input1: QuantParams,
    input2: QuantParams,
    output: QuantParams,
    activation: FusedActivation,
    broadcast: Broadcast<'a>,
) -> Option<AddParams<'a>> {
    let activation = activation_range_s16(activation, output.scale, output.zero_point)?;
    super::add_params(15, activation, input1, input2, output, broadcast)
}

/// One element of the int16 ADD or (`SUB = true`) SUB lambda: `AddElementwise` /
/// `BroadcastAdd6DSlow`'s `op` (and `BroadcastQuantSubSlow`'s), in int32.
#[inline(always)]
pub(crate) fn add_sub_one_s16<const SUB: bool>(p: &AddParams, x: i16, y: i16) -> i16 {
    let input1_val = p.input1_offset.wrapping_add(x as i32);
    let input2_val = p.input2_offset.wrapping_add(y as i32);
    let scaled1 = mbqm_lt1(input1_val.wrapping_mul(1 << p.left_shift), p.input1_multiplier, p.input1_shift);
    let scaled2 = mbqm_lt1(input2_val.wrapping_mul(1 << p.left_shift), p.input2_multiplier, p.input2_shift);
    let raw = if SUB { scaled1.wrapping_sub(scaled2) } else { scaled1.wrapping_add(scaled2) };
    let raw_output = mbqm_lt1(raw, p.output_multiplier, p.output_shift).wrapping_add(p.output_offset);
    raw_output.max(p.activation_min).min(p.activation_max) as i16
}

/// int16 ADD with broadcasting.
pub fn add_s16(p: &AddParams, input1: &[i16], input2: &[i16], output: &mut [i16]) {
    debug_assert!(p.activation_min <= p.activation_max);
    crate::kernels::nd::broadcast_binary(&p.broadcast, input1, input2, output, |x, y| add_sub_one_s16::<false>(p, x, y));
}

/// [`add_s16`] with the output written over `input1_output` (operand 1, the output's shape;
/// `input2` may broadcast). ADD is symmetric: to write over operand 2 a compiler exchanges
/// the operands and their params, as for [`super::add_s8_in_place`].
pub fn add_s16_in_place(p: &AddParams, input1_output: &mut [i16], input2: &[i16]) {
    debug_assert!(p.activation_min <= p.activation_max);
    crate::kernels::nd::broadcast_binary_in_place(&p.broadcast, input1_output, input2, |x, y| add_sub_one_s16::<false>(p, x, y));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::nd::plan_broadcast;
    use crate::kernels::test_util::Rng;
    use proptest::prelude::*;
    use std::vec::Vec;

    proptest! {
        /// Within one output step of the real-valued sum (zero points 0, as the 16x8
        /// converter makes them), saturating at the int16 range.
        #[test]
        fn follows_the_real_sum(s1 in 1e-5f32..1e-2, s2 in 1e-5f32..1e-2, so in 1e-5f32..2e-2, seed in any::<u64>()) {
            let q = |scale| QuantParams { scale, zero_point: 0 };
            let plan = plan_broadcast(&[3, 5], &[5]).unwrap();
            let Some(p) = prepare_add_s16(q(s1), q(s2), q(so), FusedActivation::None, plan.as_broadcast()) else { return Ok(()) };
            let mut r = Rng(seed);
            let a: Vec<i16> = (0..15).map(|_| r.range(-32768, 32767) as i16).collect();
            let b: Vec<i16> = (0..5).map(|_| r.range(-32768, 32767) as i16).collect();
            let mut out = [0i16; 15];
            add_s16(&p, &a, &b, &mut out);
            for k in 0..15 {
                let real = (a[k] as f64 * s1 as f64 + b[k % 5] as f64 * s2 as f64) / so as f64;
                let want = real.clamp(-32768.0, 32767.0);
                prop_assert!((out[k] as f64 - want).abs() <= 1.5, "{k}: got {}, real {real}", out[k]);
            }
        }
    }
}
