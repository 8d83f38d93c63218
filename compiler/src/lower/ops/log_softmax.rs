//! LOG_SOFTMAX (TFLite Micro `log_softmax.cc`): rows of the last dimension.
//! - float32: `reference_ops::LogSoftmax`, `kernels::elementwise::log_softmax_f32`.
//! - int8: `reference_ops::LogSoftmaxQuantized` with `CalculateOpData`'s parameters
//!   (`PreprocessLogSoftmaxScalingExp(1, input_scale, 5)`, `diff_min`),
//!   `kernels::elementwise::log_softmax_s8`. TFLite Micro's Prepare requires the output
//!   scale to be exactly 16/256 and its zero point 127; so does tflc, naming the tensor.
//!   An input scale whose multipliers TFLite's `TFLITE_CHECK`s abort on (a softmax
//!   multiplier not above one, a reverse scaling not below one) is refused.

use super::unary::{lower_unary, Unary};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::elementwise::{log_softmax_f32, log_softmax_s8, prepare_log_softmax_s8, LogSoftmaxParams, LogSoftmaxS8Params};

crate::runtime_struct_lit!(kernels::elementwise::LogSoftmaxParams { depth });
crate::runtime_struct_lit!(kernels::elementwise::LogSoftmaxS8Params {
    depth,
    input_multiplier,
    input_left_shift,
    reverse_scaling_divisor,
    reverse_scaling_right_shift,
    diff_min
});

/// The element type and its parameters.
#[derive(Debug, Clone)]
pub enum LogSoftmaxScheme {
    F32(LogSoftmaxParams),
    S8(LogSoftmaxS8Params),
}

#[derive(Debug, Clone)]
pub struct LogSoftmax {
    pub un: Unary,
    pub scheme: LogSoftmaxScheme,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<LogSoftmax, LowerError> {
    let (un, [input, output]) = lower_unary(cx, true)?;
    let depth = input.shape.last().copied().unwrap_or(1);
    let scheme = match input.dtype {
        DType::F32 => LogSoftmaxScheme::F32(LogSoftmaxParams { depth }),
        DType::I8 => {
            let (i, o) = (cx.q_s8(input)?, cx.q_s8(output)?);
            if o.scale != 16.0 / 256.0 || o.zero_point != 127 {
                return Err(cx.unsupported_tensor(
                    output,
                    format!("int8 output scale {} and zero point {} (TFLite Micro's LOG_SOFTMAX requires scale 16/256 and zero point 127)", o.scale, o.zero_point),
                ));
            }
            let p = prepare_log_softmax_s8(i.scale, depth).ok_or_else(|| {
                cx.unsupported_tensor(input, format!("input scale {} (TFLite Micro's PreprocessLogSoftmaxScalingExp aborts: a multiplier does not quantize)", i.scale))
            })?;
            LogSoftmaxScheme::S8(p)
        }
        other => return Err(cx.unsupported_tensor(input, format!("element type {other} (TFLite Micro's LOG_SOFTMAX supports float32 and int8)"))),
    };
    Ok(LogSoftmax { un, scheme })
}

impl Kernel for LogSoftmax {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.scheme {
            LogSoftmaxScheme::F32(p) => self.un.run::<f32, f32>(s, |x, y| log_softmax_f32(p, x, y)),
            LogSoftmaxScheme::S8(p) => self.un.run::<i8, i8>(s, |x, y| log_softmax_s8(p, x, y)),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (p, f) = match &self.scheme {
            LogSoftmaxScheme::F32(p) => (cx.params_lit(quote! { kernels::elementwise::LogSoftmaxParams }, p), quote! { log_softmax_f32 }),
            LogSoftmaxScheme::S8(p) => (cx.params_lit(quote! { kernels::elementwise::LogSoftmaxS8Params }, p), quote! { log_softmax_s8 }),
        };
        let (x, y) = (cx.input(self.un.input), cx.output(self.un.output));
        quote! { #rt::kernels::elementwise::#f(&#p, #x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};

    /// TFLite Micro's outputs (vectors with the math family's), rows with large spreads: bit
    /// for bit (its `exp` and `log` are glibc's, ours `tflc_runtime::math`'s; they could
    /// differ by one ulp near a rounding boundary, and do not here).
    #[test]
    fn against_tflite_micro() {
        let x: Vec<f32> = i8s(41, 4 * 16).iter().map(|&v| v as f32 * 0.09).collect();
        let (bytes, [a, z]) = unary_model(OpKind::LogSoftmax, (DType::F32, &[4, 16], None), (DType::F32, &[4, 16], None));
        super::super::math::tests::check("math_log_softmax_f32", &bytes, &[(a, TensorData::F32(x))], z, 0);
    }

    /// int8 against TFLite Micro, bit for bit: random rows and rows built to hit the edges
    /// (a constant row, -128 beside 127, single-element and long rows, one dominant value),
    /// at input scales from fine (every difference counts) to coarse (most fall below
    /// `diff_min`), including scale 1/16 (the multiplier capped at 2^31 - 1).
    #[test]
    fn int8_against_tflite_micro() {
        let mut edge: Vec<i8> = vec![5; 16];
        edge.extend([-128, 127].iter().cycle().take(16));
        edge.extend([127].iter().chain([-128; 15].iter()));
        edge.extend((0..16).map(|k| (k * 17 - 128) as i8));
        for (name, scale, shape) in [
            ("math_log_softmax_s8_fine", 0.01f32, [8usize, 16]),
            ("math_log_softmax_s8", 0.1, [8, 16]),
            ("math_log_softmax_s8_coarse", 0.75, [8, 16]),
            ("math_log_softmax_s8_max", 16.0, [8, 16]),
            ("math_log_softmax_s8_long", 0.05, [2, 64]),
            ("math_log_softmax_s8_single", 0.1, [128, 1]),
        ] {
            let mut x = edge.clone();
            x.extend(i8s(43 + shape[1] as u64, 128 - edge.len()));
            let (bytes, [a, z]) = unary_model(OpKind::LogSoftmax, (DType::I8, &shape, Some((scale, -3))), (DType::I8, &shape, Some((16.0 / 256.0, 127))));
            super::super::math::tests::check(name, &bytes, &[(a, TensorData::I8(x))], z, 0);
        }
    }

    #[test]
    fn refusals() {
        // int8 output quantization other than 16/256 and 127 (TFLite Micro's Prepare).
        expect_unsupported(&unary_model(OpKind::LogSoftmax, (DType::I8, &[4], Some((0.1, 0))), (DType::I8, &[4], Some((16.0 / 256.0, 0)))).0);
        expect_unsupported(&unary_model(OpKind::LogSoftmax, (DType::I8, &[4], Some((0.1, 0))), (DType::I8, &[4], Some((0.0625001, 127)))).0);
        // int16 and uint8.
        expect_unsupported(&unary_model(OpKind::LogSoftmax, (DType::I16, &[4], Some((0.1, 0))), (DType::I16, &[4], Some((0.1, 0)))).0);
        expect_invalid(&unary_model(OpKind::LogSoftmax, (DType::F32, &[4], None), (DType::F32, &[2, 2], None)).0);
    }

    /// The scaling checks: an input scale of 2^-26 makes the softmax multiplier exactly 1,
    /// which TFLite's `QuantizeMultiplierGreaterThanOne` aborts on (a multiplier above one
    /// never rounds to a reverse scaling of one, as an f32 scale is never that close to
    /// 2^-26); tflc refuses it. 2^-25 is fine.
    #[test]
    fn scaling_checks() {
        let refused = 2f32.powi(-26);
        assert!(tflc_runtime::kernels::elementwise::prepare_log_softmax_s8(refused, 4).is_none());
        expect_unsupported(&unary_model(OpKind::LogSoftmax, (DType::I8, &[4], Some((refused, 0))), (DType::I8, &[4], Some((16.0 / 256.0, 127)))).0);
        assert!(tflc_runtime::kernels::elementwise::prepare_log_softmax_s8(2f32.powi(-25), 4).is_some());
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_call() {
        let (bytes, _) = unary_model(OpKind::LogSoftmax, (DType::I8, &[2, 8], Some((0.1, 0))), (DType::I8, &[2, 8], Some((16.0 / 256.0, 127))));
        insta::assert_snapshot!(emit_op0(&bytes));
    }
}
