//! int16 RELU and RELU6: TFLite Micro `activations.cc`'s int16 cases. RELU is
//! `ReluQuantized<int16_t>` with `CalculateReluOpData<int16_t>` (both zero points 0,
//! `QuantizeMultiplier(double(s_in / s_out))`, bounds `zp_out + roundf(bound / s_out)` in
//! the int16 range): the int8 kernel's arithmetic with the int16 clamp. RELU6 is
//! `Relu6Quantized<int16_t>`, a clamp to `[zp_in, FloatToQuantizedType(6, s_in, zp_in)]`
//! in the input's quantization, which equals the requantizing form exactly when input and
//! output quantization are equal (the only case the compiler lowers).

use super::ReluParams;
#[cfg(feature = "prepare")]
use crate::prepare::quantize_multiplier;
use crate::quant::multiply_by_quantized_multiplier;
#[cfg(feature = "prepare")]
use crate::quant::{round_f32, QuantParams};

/// `CalculateReluOpData<int16_t>` for `[act_min, act_max]` (`None`: +infinity). `None`
/// when a zero point is not 0 (TFLite Micro's Prepare fails) or the scales do not quantize.
#[cfg(feature = "prepare")]
pub fn prepare_relu_x_s16(input: QuantParams, output: QuantParams, act_min: f32, act_max: Option<f32>) -> Option<ReluParams> {
    if input.zero_point != 0 || output.zero_point != 0 {
        return None;
    }
    let (output_multiplier, output_shift) = quantize_multiplier((input.scale / output.scale) as f64)?;
    let q = |f: f32| output.zero_point.wrapping_add(round_f32(f / output.scale) as i32);
    let activation_min = (i16::MIN as i32).max(q(act_min));
    let activation_max = match act_max {
        None => i16::MAX as i32,
        Some(m) => (i16::MAX as i32).min(q(m)),
    };
    Some(ReluParams { input_zero_point: 0, output_zero_point: 0, output_multiplier, output_shift, activation_min, activation_max })
}

/// One int16 RELU / RELU6 element: `clamp(zp_out + MBQM(x - zp_in, m, s), lo, hi)`.
#[inline(always)]
fn relu_one_s16(p: &ReluParams, x: i16) -> i16 {
    let v = p.output_zero_point.wrapping_add(multiply_by_quantized_multiplier((x as i32).wrapping_sub(p.input_zero_point), p.output_multiplier, p.output_shift));
    v.max(p.activation_min).min(p.activation_max) as i16
}

/// int16 RELU / RELU6: `clamp(zp_out + MBQM(x - zp_in, m, s), lo, hi)`.
pub fn relu_s16(p: &ReluParams, input: &[i16], output: &mut [i16]) {
    crate::kernels::nd::map(input, output, |x| relu_one_s16(p, x))
}

/// [`relu_s16`] in place.
pub fn relu_s16_in_place(p: &ReluParams, data: &mut [i16]) {
    crate::kernels::nd::map_in_place(data, |x| relu_one_s16(p, x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relu_and_relu6_in_int16() {
        let q = QuantParams { scale: 1.0 / 1024.0, zero_point: 0 };
        let p = prepare_relu_x_s16(q, q, 0.0, None).unwrap();
        let mut out = [0i16; 4];
        relu_s16(&p, &[-32768, -1, 0, 32767], &mut out);
        assert_eq!(out, [0, 0, 0, 32767]);
        let p = prepare_relu_x_s16(q, q, 0.0, Some(6.0)).unwrap();
        relu_s16(&p, &[-5, 6143, 6144, 6145], &mut out);
        assert_eq!(out, [0, 6143, 6144, 6144]);
        // Halving: rounds half away from zero.
        let p = prepare_relu_x_s16(q, QuantParams { scale: 2.0 / 1024.0, zero_point: 0 }, 0.0, None).unwrap();
        relu_s16(&p, &[3, 5, 32767, -9], &mut out);
        assert_eq!(out, [2, 3, 16384, 0]);
        assert!(prepare_relu_x_s16(QuantParams { scale: 1.0, zero_point: 1 }, q, 0.0, None).is_none());
    }
}
