//! REDUCE_MAX: the maximum over the axes of a constant int32 input, float32 or int8 (with
//! the input's quantization on the output, as TFLite Micro requires); the reduction family
//! ([`super::reduce`]).

use super::reduce::{lower_reduce, Reduce, ReduceOp};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>, keep_dims: bool) -> Result<Reduce, LowerError> {
    lower_reduce(cx, ReduceOp::Max, keep_dims)
}

#[cfg(test)]
mod tests {
    use super::super::reduce::tests::*;
    use crate::ir::OpKind;

    /// Every axis case in float32 (NaN, infinities, -0.0 among the values) and int8, against
    /// the naive reduction and TFLite Micro.
    #[test]
    fn against_tflite_micro() {
        extremum_against_tflite_micro("reduce_max", true, |keep_dims| OpKind::ReduceMax { keep_dims }, VECTORS_F32, VECTORS_S8);
    }

    #[test]
    fn refusals() {
        extremum_refusals(OpKind::ReduceMax { keep_dims: false });
    }

    const VECTORS_F32: &[(&str, &[f32])] = &[
        ("reduce_max_f32_0", &[63.5, f32::INFINITY, -26.0, 44.5, 60.5, 49.5, 47.0, 9.0]),
        ("reduce_max_f32_1", &[31.5, f32::INFINITY, 33.0]),
        ("reduce_max_f32_2", &[f32::INFINITY]),
        ("reduce_max_f32_3", &[-3.4028235e38, -34.5, -25.0, 4.5, -42.5, f32::INFINITY, -53.5, -41.5, 32.0, -4.0, -3.4028235e38, -56.5, -29.5, -3.5, 61.0, -0.0, -64.0, -59.5, 22.5, -24.0, 0.0, -55.5, -42.5, -15.0, -10.0, 40.5, -43.5, -52.0, -58.0, 5.0]),
        ("reduce_max_f32_4", &[-3.4028235e38, 50.0, -17.5, 3.5, 55.0, f32::INFINITY, 7.5, 1.5, 16.5, 62.5, -3.4028235e38, 41.0, 50.0, 4.0, 61.5, -0.0, 56.5, -14.0, -40.5, -42.5, 0.0, 54.5, -25.0, -62.5]),
        ("reduce_max_f32_5", &[54.5, f32::INFINITY, 21.0, 31.0, 63.0, 63.0, 59.0, 61.0]),
    ];
    const VECTORS_S8: &[(&str, &[i8])] = &[
        ("reduce_max_s8_0", &[108, 22, 100, 67, 95, 113, -18, -99]),
        ("reduce_max_s8_1", &[118, 26, 109]),
        ("reduce_max_s8_2", &[106]),
        ("reduce_max_s8_3", &[-15, 13, -67, 42, -93, -42, -47, -19, 98, 4, 80, -20, -5, 50, -34, 4, -20, 64, 73, -55, -112, -75, 39, -41, 26, 65, -125, 0, 125, 53]),
        ("reduce_max_s8_4", &[49, -103, -127, 74, -33, 14, 95, -90, -2, 77, -120, 69, 111, 126, -5, -30, 6, -77, 118, -43, 116, 48, -100, 2]),
        ("reduce_max_s8_5", &[124, 106, 124, 62, 111, 106, 111, 114]),
    ];
}
