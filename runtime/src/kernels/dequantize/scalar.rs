//! Scalar reference implementation of DEQUANTIZE.

use super::DequantizeParams;

/// `output[i] = scale * (input[i] - zero_point)` for int8 input.
pub fn dequantize_s8_f32(p: &DequantizeParams, input: &[i8], output: &mut [f32]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = p.scale * (x as i32 - p.zero_point) as f32;
    }
}

/// `output[i] = scale * (input[i] - zero_point)` for int16 input.
pub fn dequantize_s16_f32(p: &DequantizeParams, input: &[i16], output: &mut [f32]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = p.scale * (x as i32 - p.zero_point) as f32;
    }
}

/// `output[i] = scale * (input[i] - zero_point)` for uint8 input.
pub fn dequantize_u8_f32(p: &DequantizeParams, input: &[u8], output: &mut [f32]) {
    debug_assert_eq!(input.len(), output.len());
    for (o, &x) in output.iter_mut().zip(input) {
        *o = p.scale * (x as i32 - p.zero_point) as f32;
    }
}
