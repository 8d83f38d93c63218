//! MAX_POOL_2D, int8, int16 (16x8) and float32.
//!
//! Mirrors TFLite Micro `pooling_common.cc` (`PoolingPrepare`, shared with AVERAGE_POOL_2D
//! in [`super::pool_2d::lower_pool`]): padding without dilation, equal input and
//! output quantization, the fused activation as a clamp. The kernel takes the maximum over
//! the part of each window inside the input.

use super::conv_common::params_type;
use super::pool_2d::{lower_pool, Pool2d, PoolClamp};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::max_pool_2d::{max_pool_2d_f32, max_pool_2d_s16, max_pool_2d_s8, MaxPool2dParams};
use tflc_runtime::kernels::numerics::{F32, S16, S8};

/// The runtime parameters per numerics (uint8 MAX_POOL_2D is refused: TFLite Micro has none).
#[derive(Debug, Clone, PartialEq)]
pub enum MaxPool2dScheme {
    S8(MaxPool2dParams<S8>),
    S16(MaxPool2dParams<S16>),
    F32(MaxPool2dParams<F32>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct MaxPool2d {
    pub pool: Pool2d,
    pub scheme: MaxPool2dScheme,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &crate::ir::Pool2dOptions) -> Result<MaxPool2d, LowerError> {
    let pool = lower_pool(cx, o)?;
    let geometry = pool.geometry;
    let scheme = match pool.clamp {
        PoolClamp::S8(clamp) => MaxPool2dScheme::S8(MaxPool2dParams { geometry, clamp }),
        PoolClamp::F32(clamp) => MaxPool2dScheme::F32(MaxPool2dParams { geometry, clamp }),
        PoolClamp::S16(clamp) => MaxPool2dScheme::S16(MaxPool2dParams { geometry, clamp }),
        PoolClamp::U8(_) => return Err(cx.unsupported("uint8 MAX_POOL_2D (TFLite Micro's MAX_POOL_2D takes int8, int16 and float32)")),
    };
    Ok(MaxPool2d { pool, scheme })
}

impl Kernel for MaxPool2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let (x, y) = (self.pool.input, self.pool.output);
        match &self.scheme {
            MaxPool2dScheme::S8(p) => {
                let mut out = s.take_i8(y, self.pool.output_len());
                let input = s.i8(x)?;
                self.pool.check_input("MAX_POOL_2D", input.len())?;
                max_pool_2d_s8(p, input, &mut out);
                s.insert(y, TensorData::I8(out));
            }
            MaxPool2dScheme::S16(p) => {
                let mut out = s.take_i16(y, self.pool.output_len());
                let input = s.i16(x)?;
                self.pool.check_input("MAX_POOL_2D", input.len())?;
                max_pool_2d_s16(p, input, &mut out);
                s.insert(y, TensorData::I16(out));
            }
            MaxPool2dScheme::F32(p) => {
                let mut out = s.take_f32(y, self.pool.output_len());
                let input = s.f32(x)?;
                self.pool.check_input("MAX_POOL_2D", input.len())?;
                max_pool_2d_f32(p, input, &mut out);
                s.insert(y, TensorData::F32(out));
            }
        }
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let path = quote! { kernels::max_pool_2d::MaxPool2dParams };
        let ty = path.clone();
        let (p, f) = match &self.scheme {
            MaxPool2dScheme::S8(p) => (cx.params_lit(params_type::<S8>(&rt, path, false), p), quote! { max_pool_2d_s8 }),
            MaxPool2dScheme::S16(p) => (cx.params_lit(params_type::<S16>(&rt, path, false), p), quote! { max_pool_2d_s16 }),
            MaxPool2dScheme::F32(p) => (cx.params_lit(params_type::<F32>(&rt, path, false), p), quote! { max_pool_2d_f32 }),
        };
        cx.window_call("pool_rows", &p, ty, self.pool.input, self.pool.output, |_, p, input, output| {
            quote! { #rt::kernels::max_pool_2d::#f(#p, #input, #output); }
        })
    }

    fn overlap(&self) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
        let elem = match &self.scheme {
            MaxPool2dScheme::S8(_) => 1,
            MaxPool2dScheme::S16(_) => 2,
            MaxPool2dScheme::F32(_) => 4,
        };
        super::window_overlap(tflc_runtime::kernels::overlap::Rows::pool(&self.pool.geometry), elem)
    }
}

#[cfg(test)]
mod tests {
    use super::super::average_pool_2d::{pool_model, pool_opts};
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{Activation, OpKind, Padding};

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build, dumped with
    // `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc pool_2d`.

    /// SAME 3x3 stride 2 on odd sizes (padding on every edge), RELU clamping at the zero
    /// point.
    #[test]
    fn same_3x3_stride_2_relu() {
        let want: &[i8] = &[
            95, 46, 44, 111, 34, 16, 111, 111, 16, 112, 93, 109, 104, 120, 109, 50, 58, 15, 117, 101, 109, 104, 101,
            109, 39, 56, 93, 122, 101, 82, 122, 101, 9, 27, 47, 93,
        ];
        let o = pool_opts(Padding::Same, [3, 3], [2, 2], Activation::Relu);
        let (bytes, x, y) = pool_model(OpKind::MaxPool2d, &[1, 7, 5, 3], &[1, 4, 3, 3], (0.04, 9), None, o);
        let store = run_op0("maxpool_same_relu", &bytes, &[(x, TensorData::I8(i8s(51, 105)))]);
        assert_eq!(out_i8(&store, y), want);
    }

    /// By hand: padding cells never win (all-negative input), and RELU_N1_TO_1 clamps
    /// both sides (scale 1/64, zero point 0: [-64, 64]).
    #[test]
    fn padding_never_wins_and_clamps() {
        let o = pool_opts(Padding::Same, [2, 2], [1, 1], Activation::None);
        let (bytes, x, y) = pool_model(OpKind::MaxPool2d, &[1, 2, 2, 1], &[1, 2, 2, 1], (0.5, 0), None, o);
        let store = run_op0(
            "maxpool_negative",
            &bytes,
            &[(x, TensorData::I8(vec![-100, -90, -80, -128]))],
        );
        // Windows (SAME, pad only after): {-100,-90,-80,-128}, {-90,-128}, {-80,-128}, {-128}.
        assert_eq!(out_i8(&store, y), vec![-80, -90, -80, -128]);

        let o = pool_opts(Padding::Valid, [1, 1], [1, 1], Activation::ReluN1To1);
        let (bytes, x, y) = pool_model(
            OpKind::MaxPool2d,
            &[1, 1, 4, 1],
            &[1, 1, 4, 1],
            (1.0 / 64.0, 0),
            None,
            o,
        );
        let store = run_op0("maxpool_clamp", &bytes, &[(x, TensorData::I8(vec![-128, -3, 70, 127]))]);
        assert_eq!(out_i8(&store, y), vec![-64, -3, 64, 64]);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let o = pool_opts(Padding::Same, [3, 3], [2, 2], Activation::Relu);
        let (bytes, ..) = pool_model(OpKind::MaxPool2d, &[1, 7, 5, 3], &[1, 4, 3, 3], (0.04, 9), None, o);
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let o = pool_opts(Padding::Valid, [2, 2], [2, 2], Activation::None);
        let (bytes, ..) = pool_model(
            OpKind::MaxPool2d,
            &[1, 4, 4, 2],
            &[1, 2, 2, 2],
            (0.1, 3),
            Some((0.1, -3)),
            o.clone(),
        );
        let e = lower_op0(&bytes).expect_err("requantizing");
        assert!(
            matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("MAX_POOL_2D"),
            "{e}"
        );
        let (bytes, ..) = pool_model(OpKind::MaxPool2d, &[1, 4, 4, 2], &[1, 2, 2, 3], (0.1, 3), None, o);
        assert!(
            matches!(lower_op0(&bytes), Err(LowerError::Invalid { .. })),
            "output depth"
        );
        let o = pool_opts(Padding::Same, [2, 2], [2, 2], Activation::Tanh);
        let (bytes, ..) = pool_model(OpKind::MaxPool2d, &[1, 4, 4, 2], &[1, 2, 2, 2], (0.1, 3), None, o);
        assert!(
            matches!(lower_op0(&bytes), Err(LowerError::Unsupported { .. })),
            "fused TANH"
        );
    }
}
