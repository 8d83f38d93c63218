//! AVERAGE_POOL_2D, int8 and int16 (zero point 0) (and the pooling checks MAX_POOL_2D
//! shares).
//!
//! Mirrors TFLite Micro `pooling_common.cc` (`PoolingPrepare`): padding from
//! `ComputePaddingHeightWidth` without dilation, input and output quantization equal
//! (`|scale_in - scale_out| <= 1e-6`, same zero point; there is no requantization), the
//! fused activation as a clamp in the output quantization. The kernel averages over the
//! part of each window inside the input (padding cells are not counted).

use super::conv_2d::{positive, rt_padding};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{array, int, EmitCx};
use crate::error::LowerError;
use crate::ir::{Pool2dOptions, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::average_pool_2d::{average_pool_2d_s16, average_pool_2d_s8, AveragePool2dParams};
use tflc_runtime::prepare::compute_padding;

/// The compile-time part of an int8 pooling op (AVERAGE_POOL_2D and MAX_POOL_2D).
#[derive(Debug, Clone, PartialEq)]
pub struct Pool2d {
    pub input: TensorId,
    pub output: TensorId,
    pub input_shape: [usize; 4],
    pub output_shape: [usize; 4],
    pub filter: [usize; 2],
    pub stride: [usize; 2],
    /// Top and left padding.
    pub pad: [usize; 2],
    pub activation_min: i32,
    pub activation_max: i32,
    /// int16 activations (the clamp is then an int16 range).
    pub int16: bool,
}

/// Checks and prepares an int8 pooling op with options `o` (TFLite Micro `PoolingPrepare`).
pub(crate) fn lower_pool(cx: &OpCx<'_, '_>, o: &Pool2dOptions) -> Result<Pool2d, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let input = cx.input(0)?;
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    let int16 = input.dtype == crate::ir::DType::I16;
    let (in_q, out_q) = if int16 { (cx.q_s16(input)?, cx.q_s16(output)?) } else { (cx.q_s8(input)?, cx.q_s8(output)?) };
    if ((in_q.scale - out_q.scale).abs() as f64) > 1.0e-6 || in_q.zero_point != out_q.zero_point {
        return Err(cx.unsupported_tensor(
            output,
            format!(
                "output quantization (scale={} zp={}) differs from the input's (scale={} zp={}); TFLite Micro requires them equal",
                out_q.scale, out_q.zero_point, in_q.scale, in_q.zero_point
            ),
        ));
    }
    let input_shape = cx.shape4(input)?;
    let output_shape = cx.shape4(output)?;
    let [batches, in_h, in_w, depth] = input_shape;
    let filter = [
        positive(cx, "filter_height", o.filter_h)?,
        positive(cx, "filter_width", o.filter_w)?,
    ];
    let stride = [
        positive(cx, "stride_h", o.stride_h)?,
        positive(cx, "stride_w", o.stride_w)?,
    ];
    let padding = rt_padding(cx, o.padding)?;
    let (oh, pad_top) = compute_padding(padding, in_h, filter[0], stride[0], 1)
        .ok_or_else(|| cx.invalid("the window does not fit the input height"))?;
    let (ow, pad_left) = compute_padding(padding, in_w, filter[1], stride[1], 1)
        .ok_or_else(|| cx.invalid("the window does not fit the input width"))?;
    if oh == 0 || ow == 0 {
        return Err(cx.invalid(format!(
            "the {}x{} window does not fit the {in_h}x{in_w} input",
            filter[0], filter[1]
        )));
    }
    if output_shape != [batches, oh, ow, depth] {
        return Err(cx.invalid_tensor(
            output,
            format!(
                "output shape {output_shape:?}, but the options give {:?}",
                [batches, oh, ow, depth]
            ),
        ));
    }
    // Every window must overlap the input (the average kernel divides by the cells inside;
    // TFLite Micro fails the op otherwise). ComputePadding guarantees it; check anyway.
    for (out, inp, f, s, p) in [
        (oh, in_h, filter[0], stride[0], pad_top),
        (ow, in_w, filter[1], stride[1], pad_left),
    ] {
        for o in 0..out {
            let start = (o * s) as i64 - p as i64;
            if start >= inp as i64 || start + f as i64 <= 0 {
                return Err(cx.invalid(format!("pooling window {o} lies entirely in the padding")));
            }
        }
    }
    let (activation_min, activation_max) = cx.activation_range(o.activation, out_q, int16)?;
    Ok(Pool2d {
        input: input.id,
        output: output.id,
        input_shape,
        output_shape,
        filter,
        stride,
        pad: [pad_top, pad_left],
        activation_min,
        activation_max,
        int16,
    })
}

impl Pool2d {
    pub(crate) fn output_len(&self) -> usize {
        self.output_shape.iter().product()
    }

    pub(crate) fn input_len(&self) -> usize {
        self.input_shape.iter().product()
    }

    /// The field initializers of the runtime's pooling params (both pools share them).
    pub(crate) fn param_fields(&self) -> TokenStream {
        let is = array(&self.input_shape);
        let [oh, ow] = [self.output_shape[1], self.output_shape[2]].map(|v| int(v as i64));
        let [fh, fw] = self.filter.map(|v| int(v as i64));
        let [sh, sw] = self.stride.map(|v| int(v as i64));
        let [pt, pl] = self.pad.map(|v| int(v as i64));
        let (amin, amax) = (int(self.activation_min as i64), int(self.activation_max as i64));
        quote! {
            input_shape: #is,
            output_height: #oh,
            output_width: #ow,
            filter_height: #fh,
            filter_width: #fw,
            stride_height: #sh,
            stride_width: #sw,
            pad_top: #pt,
            pad_left: #pl,
            output_activation_min: #amin,
            output_activation_max: #amax,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct AveragePool2d(pub Pool2d);

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &crate::ir::Pool2dOptions) -> Result<AveragePool2d, LowerError> {
    Ok(AveragePool2d(lower_pool(cx, o)?))
}

impl AveragePool2d {
    /// The runtime's parameter struct.
    pub fn params(&self) -> AveragePool2dParams {
        let p = &self.0;
        AveragePool2dParams {
            input_shape: p.input_shape,
            output_height: p.output_shape[1],
            output_width: p.output_shape[2],
            filter_height: p.filter[0],
            filter_width: p.filter[1],
            stride_height: p.stride[0],
            stride_width: p.stride[1],
            pad_top: p.pad[0],
            pad_left: p.pad[1],
            output_activation_min: p.activation_min,
            output_activation_max: p.activation_max,
        }
    }
}

impl Kernel for AveragePool2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        if self.0.int16 {
            let mut out = s.take_i16(self.0.output, self.0.output_len());
            let input = s.i16(self.0.input)?;
            if input.len() != self.0.input_len() {
                return Err(ExecError(format!("AVERAGE_POOL_2D: input has {} elements", input.len())));
            }
            average_pool_2d_s16(&self.params(), input, &mut out);
            s.insert(self.0.output, TensorData::I16(out));
            return Ok(());
        }
        let mut out = s.take_i8(self.0.output, self.0.output_len());
        let input = s.i8(self.0.input)?;
        if input.len() != self.0.input_len() {
            return Err(ExecError(format!(
                "AVERAGE_POOL_2D: input has {} elements, expected {}",
                input.len(),
                self.0.input_len()
            )));
        }
        average_pool_2d_s8(&self.params(), input, &mut out);
        s.insert(self.0.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let fields = self.0.param_fields();
        let p = cx.params(
            quote! { #rt::kernels::average_pool_2d::AveragePool2dParams },
            quote! { #rt::kernels::average_pool_2d::AveragePool2dParams { #fields } },
        );
        let input = cx.input(self.0.input);
        let output = cx.output(self.0.output);
        let f = if self.0.int16 { quote! { average_pool_2d_s16 } } else { quote! { average_pool_2d_s8 } };
        quote! { #rt::kernels::average_pool_2d::#f(&#p, #input, #output); }
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
