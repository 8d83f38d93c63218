//! AVERAGE_POOL_2D, int8, int16 (zero point 0) and float32.
//!
//! Mirrors TFLite Micro `pooling_common.cc` (`PoolingPrepare`, in [`super::pool_2d`]). The
//! kernel averages over the part of each window inside the input (padding cells are not
//! counted).

use super::conv_common::params_type;
use super::pool_2d::{lower_pool, Pool2d, PoolClamp};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::Pool2dOptions;
#[cfg(test)]
use crate::ir::TensorId;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::average_pool_2d::{average_pool_2d_u8, average_pool_2d_f32, average_pool_2d_s16, average_pool_2d_s8, AveragePool2dParams};
use tflc_runtime::kernels::numerics::{F32, S16, S8, U8};

/// The runtime parameters per quantization scheme.
#[derive(Debug, Clone, PartialEq)]
pub enum AveragePool2dScheme {
    S8(AveragePool2dParams<S8>),
    S16(AveragePool2dParams<S16>),
    F32(AveragePool2dParams<F32>),
    U8(AveragePool2dParams<U8>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct AveragePool2d {
    pub pool: Pool2d,
    pub scheme: AveragePool2dScheme,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &Pool2dOptions) -> Result<AveragePool2d, LowerError> {
    let pool = lower_pool(cx, o)?;
    let geometry = pool.geometry;
    let scheme = match pool.clamp {
        PoolClamp::S8(clamp) => AveragePool2dScheme::S8(AveragePool2dParams { geometry, clamp }),
        PoolClamp::S16(clamp) => AveragePool2dScheme::S16(AveragePool2dParams { geometry, clamp }),
        PoolClamp::F32(clamp) => AveragePool2dScheme::F32(AveragePool2dParams { geometry, clamp }),
        PoolClamp::U8(clamp) => AveragePool2dScheme::U8(AveragePool2dParams { geometry, clamp }),
    };
    Ok(AveragePool2d { pool, scheme })
}

impl Kernel for AveragePool2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let (x, y) = (self.pool.input, self.pool.output);
        match &self.scheme {
            AveragePool2dScheme::S8(p) => {
                let mut out = s.take_i8(y, self.pool.output_len());
                let input = s.i8(x)?;
                self.pool.check_input("AVERAGE_POOL_2D", input.len())?;
                average_pool_2d_s8(p, input, &mut out);
                s.insert(y, TensorData::I8(out));
            }
            AveragePool2dScheme::S16(p) => {
                let mut out = s.take_i16(y, self.pool.output_len());
                let input = s.i16(x)?;
                self.pool.check_input("AVERAGE_POOL_2D", input.len())?;
                average_pool_2d_s16(p, input, &mut out);
                s.insert(y, TensorData::I16(out));
            }
            AveragePool2dScheme::U8(p) => {
                let mut out = s.take_u8(y, self.pool.output_len());
                let input = s.u8(x)?;
                self.pool.check_input("AVERAGE_POOL_2D", input.len())?;
                average_pool_2d_u8(p, input, &mut out);
                s.insert(y, TensorData::U8(out));
            }
            AveragePool2dScheme::F32(p) => {
                let mut out = s.take_f32(y, self.pool.output_len());
                let input = s.f32(x)?;
                self.pool.check_input("AVERAGE_POOL_2D", input.len())?;
                average_pool_2d_f32(p, input, &mut out);
                s.insert(y, TensorData::F32(out));
            }
        }
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let path = quote! { kernels::average_pool_2d::AveragePool2dParams };
        let ty = path.clone();
        let (p, f) = match &self.scheme {
            AveragePool2dScheme::S8(p) => (cx.params_lit(params_type::<S8>(&rt, path, false), p), quote! { average_pool_2d_s8 }),
            AveragePool2dScheme::S16(p) => (cx.params_lit(params_type::<S16>(&rt, path, false), p), quote! { average_pool_2d_s16 }),
            AveragePool2dScheme::U8(p) => (cx.params_lit(params_type::<U8>(&rt, path, false), p), quote! { average_pool_2d_u8 }),
            AveragePool2dScheme::F32(p) => (cx.params_lit(params_type::<F32>(&rt, path, false), p), quote! { average_pool_2d_f32 }),
        };
        cx.window_call("pool_rows", &p, ty, self.pool.input, self.pool.output, |_, p, input, output| {
            quote! { #rt::kernels::average_pool_2d::#f(#p, #input, #output); }
        })
    }

    fn overlap(&self) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
        let elem = match &self.scheme {
            AveragePool2dScheme::S8(_) => 1,
            AveragePool2dScheme::S16(_) => 2,
            AveragePool2dScheme::U8(_) => 1,
            AveragePool2dScheme::F32(_) => 4,
        };
        super::window_overlap(tflc_runtime::kernels::overlap::Rows::pool(&self.pool.geometry), elem)
    }
}

/// A single-op pooling model for the tests of both pools: returns its bytes, input and
/// output. `q` is the (shared) input and output quantization unless `out_q` is given.
#[cfg(test)]
pub(crate) fn pool_model(
    kind: fn(Pool2dOptions) -> crate::ir::OpKind,
    input: &[usize],
    output: &[usize],
    q: (f32, i64),
    out_q: Option<(f32, i64)>,
    o: Pool2dOptions,
) -> (Vec<u8>, TensorId, TensorId) {
    use crate::ir::DType;
    let mut b = crate::tflite::builder::ModelBuilder::new();
    let x = b.activation("x", DType::I8, input, Some(q));
    let y = b.activation("y", DType::I8, output, Some(out_q.unwrap_or(q)));
    b.op(kind(o), &[Some(x)], &[y]);
    b.inputs(&[x]).outputs(&[y]);
    (b.finish(), x, y)
}

#[cfg(test)]
pub(crate) fn pool_opts(
    padding: crate::ir::Padding,
    filter: [i32; 2],
    stride: [i32; 2],
    activation: crate::ir::Activation,
) -> Pool2dOptions {
    Pool2dOptions {
        padding,
        stride_w: stride[1],
        stride_h: stride[0],
        filter_w: filter[1],
        filter_h: filter[0],
        activation,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use crate::ir::{Activation, DType, OpKind, Padding};

    fn run(name: &str, input: &[usize], output: &[usize], q: (f32, i64), o: Pool2dOptions, seed: u64) -> Vec<i8> {
        let (bytes, x, y) = pool_model(OpKind::AveragePool2d, input, output, q, None, o);
        let xv = i8s(seed, input.iter().product());
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(xv))]), y)
    }

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build, dumped with
    // `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc pool_2d`.

    /// SAME 3x3, stride 1: partial windows on every edge and corner.
    #[test]
    fn same_3x3_partial_windows_on_every_edge() {
        let want: &[i8] = &[
            34, -8, 95, 9, 7, 56, -5, 11, 3, -39, 29, -28, -17, 7, -18, -28, -1, -9, 19, -6, 63, -9, 10, 36, -26, 11,
            -8, -55, 32, -14, -37, -2, 4, -40, -11, 21, 22, 3, 50, -1, 15, 42, -30, -6, 15, -55, 5, 2, -57, -30, 12,
            -55, -29, 26, 12, -30, 11, 0, -18, 22, -3, -10, 4, -22, -1, -4, -33, -19, 8, -41, -24, 42, 24, -43, 17, 22,
            -35, 34, 29, -22, 20, 10, -20, -13, -12, -19, -11, -29, -20, 23,
        ];
        let o = pool_opts(Padding::Same, [3, 3], [1, 1], Activation::None);
        assert_eq!(
            run("avgpool_same_3x3", &[1, 5, 6, 3], &[1, 5, 6, 3], (0.05, -4), o, 41),
            want
        );
    }

    /// Two batches, a 2x3 window with stride 2 (padding only at the bottom and right), RELU6.
    #[test]
    fn batches_rectangular_window_stride_2_relu6() {
        let want: &[i8] = &[
            48, 29, -45, 1, 23, 21, 9, 29, 5, -12, 20, 34, -35, -59, -10, 60, 68, -8, 14, -3, 36, 42, 75, -59, -31, 19,
            65, -18, -31, -1, 74, 25, 26, 32, -12, -9, 13, 12, -39, -26, 33, 4, -53, 50, 29, 47, -32, -22, 6, -30, 29,
            20, 3, -65, 45, 8, 3, -22, -17, -53, -23, 38, -27, -30, 80, -2, 45, 27, 3, -9, 31, -31, 5, -14, -31, -44,
            48, 26, -58, -30, -8, 72, -51, -9, 16, 26, 11, -4, -49, 30, -46, 43, -72, -18, -89, -54,
        ];
        let o = pool_opts(Padding::Same, [2, 3], [2, 2], Activation::Relu6);
        assert_eq!(
            run("avgpool_rect_relu6", &[2, 5, 7, 4], &[2, 3, 4, 4], (0.03, -100), o, 42),
            want
        );
    }

    /// By hand: the average rounds half away from zero, and saturated inputs stay put.
    #[test]
    fn rounds_half_away_from_zero() {
        let o = pool_opts(Padding::Valid, [1, 2], [1, 2], Activation::None);
        let (bytes, x, y) = pool_model(OpKind::AveragePool2d, &[1, 1, 8, 1], &[1, 1, 4, 1], (0.1, 0), None, o);
        let store = run_op0(
            "avgpool_rounding",
            &bytes,
            &[(x, TensorData::I8(vec![1, 2, -1, -2, 127, 127, -128, -128]))],
        );
        assert_eq!(out_i8(&store, y), vec![2, -2, 127, -128]);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let o = pool_opts(Padding::Same, [2, 3], [2, 2], Activation::Relu6);
        let (bytes, ..) = pool_model(
            OpKind::AveragePool2d,
            &[2, 5, 7, 4],
            &[2, 3, 4, 4],
            (0.03, -100),
            None,
            o,
        );
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let o = pool_opts(Padding::Valid, [2, 2], [2, 2], Activation::None);
        let err = |input: &[usize], output: &[usize], out_q: Option<(f32, i64)>, o: Pool2dOptions| {
            let (bytes, ..) = pool_model(OpKind::AveragePool2d, input, output, (0.1, 3), out_q, o);
            lower_op0(&bytes).expect_err("lowering must fail")
        };
        let unsupported = |e: &LowerError| matches!(e, LowerError::Unsupported { .. });
        // Requantizing pools are not TFLite Micro's.
        assert!(unsupported(&err(
            &[1, 4, 4, 2],
            &[1, 2, 2, 2],
            Some((0.2, 3)),
            o.clone()
        )));
        assert!(unsupported(&err(
            &[1, 4, 4, 2],
            &[1, 2, 2, 2],
            Some((0.1, 4)),
            o.clone()
        )));
        // Wrong output shape, zero-sized window, zero stride.
        assert!(!unsupported(&err(&[1, 4, 4, 2], &[1, 3, 2, 2], None, o.clone())));
        assert!(!unsupported(&err(
            &[1, 4, 4, 2],
            &[1, 2, 2, 2],
            None,
            pool_opts(Padding::Valid, [0, 2], [2, 2], Activation::None)
        )));
        assert!(!unsupported(&err(
            &[1, 4, 4, 2],
            &[1, 2, 2, 2],
            None,
            pool_opts(Padding::Valid, [2, 2], [2, 0], Activation::None)
        )));
        // Window larger than a VALID input.
        assert!(!unsupported(&err(&[1, 1, 4, 2], &[1, 0, 2, 2], None, o.clone())));
        // Rank 3, int16.
        assert!(unsupported(&err(&[4, 4, 2], &[2, 2, 2], None, o.clone())));
        let mut b = crate::tflite::builder::ModelBuilder::new();
        // int16 with a non-zero zero point (TFLite requires symmetric int16).
        let x = b.activation("x", DType::I16, &[1, 4, 4, 2], Some((0.1, 5)));
        let y = b.activation("y", DType::I16, &[1, 2, 2, 2], Some((0.1, 5)));
        b.op(OpKind::AveragePool2d(o), &[Some(x)], &[y]);
        let e = lower_op0(&b.finish()).expect_err("int16 zero point");
        assert!(unsupported(&e) && e.to_string().contains("AVERAGE_POOL_2D"), "{e}");
    }
}
