//! MEAN, int8 in and out (and int16 in and out, 16x8: the same arithmetic clamped to int16,
//! TFLite Micro's `EvalIntegerMean<int16_t>`), over the axes of a constant int32 second
//! input; float32 MEAN is
//! the reduction family's (`reduce.rs`, `ReduceOp::Mean`: TFLite's `Mean<float, float>`,
//! the sum in TFLite's order then one division, any rank up to 8).
//!
//! Mirrors TFLite Micro `reduce.cc` / `reduce_common.cc`: every int8 MEAN goes through
//! `PrepareMeanOrSumHelper` (`QuantizeMultiplier(double(in_scale) / double(out_scale))`) and
//! `EvalIntegerMean` -> reference `QuantizedMeanOrSum`, whether or not the input and output
//! quantization are equal (there is no special 4-D / equal-scale path for int8 in TFLite
//! Micro). Axes are resolved as TFLite's `ResolveAxis` does (negative axes count from the
//! end, duplicates are ignored, out-of-range is an error; shared with the reduction family,
//! [`super::reduce::reduced_axes`]). Everything that depends only
//! on shapes (the `1/n` folded into the multiplier, the `-zp * n` offset) is computed here
//! ([`tflc_runtime::prepare::mean_s8`]). Shapes of rank below 4 are padded with leading 1s.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::TensorId;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::mean::{mean_s16, mean_s8, MeanParams};

crate::runtime_struct_lit!(kernels::mean::MeanParams { input_shape, reduce_axes, multiplier, shift, sum_offset, output_offset });

#[derive(Debug, Clone)]
pub struct Mean {
    pub input: TensorId,
    pub output: TensorId,
    /// The input shape padded to rank 4 with leading 1s, the axes, the requantization.
    pub params: MeanParams,
    /// int16 in and out (else int8).
    pub int16: bool,
}

/// A lowered MEAN: int8 or int16 (this file's kernels) or float32 (the reduction family's).
#[derive(Debug, Clone)]
pub enum MeanOp {
    S8(Mean),
    F32(super::reduce::Reduce),
}

impl Kernel for MeanOp {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self {
            MeanOp::S8(k) => k.execute(s),
            MeanOp::F32(k) => k.execute(s),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        match self {
            MeanOp::S8(k) => k.emit(cx),
            MeanOp::F32(k) => k.emit(cx),
        }
    }
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, keep_dims: bool) -> Result<MeanOp, LowerError> {
    if cx.input(0).is_ok_and(|t| t.dtype == crate::ir::DType::F32) {
        return super::reduce::lower_reduce(cx, super::reduce::ReduceOp::Mean, keep_dims).map(MeanOp::F32);
    }
    lower_s8(cx, keep_dims).map(MeanOp::S8)
}

fn lower_s8(cx: &OpCx<'_, '_>, keep_dims: bool) -> Result<Mean, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let input = cx.input(0)?;
    let axis = cx.input(1)?;
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    // int16: TFLite Micro's Prepare takes any zero point (the quantizer writes 0); the
    // arithmetic is int8's.
    let int16 = input.dtype == crate::ir::DType::I16;
    let (in_q, out_q) = if int16 {
        cx.expect_dtype(output, crate::ir::DType::I16)?;
        (cx.per_tensor_q(input)?, cx.per_tensor_q(output)?)
    } else {
        (cx.q_s8(input)?, cx.q_s8(output)?)
    };
    for (t, q) in [(input, in_q), (output, out_q)] {
        if int16 && !(-32768..=32767).contains(&q.zero_point) {
            return Err(cx.invalid_tensor(t, format!("int16 zero point {} is out of range", q.zero_point)));
        }
    }
    let rank = input.shape.len();
    if rank == 0 || rank > 4 {
        return Err(cx.unsupported_tensor(input, format!("input of rank {rank} (tflc's MEAN takes ranks 1 to 4)")));
    }
    if input.shape.contains(&0) {
        return Err(cx.unsupported_tensor(input, format!("input of shape {:?} is empty", input.shape)));
    }
    let resolved = super::reduce::reduced_axes(cx, input, axis, output, keep_dims)?;

    let pad = 4 - rank;
    let mut input_shape = [1usize; 4];
    let mut reduce_axes = [false; 4];
    for (d, &n) in input.shape.iter().enumerate() {
        input_shape[pad + d] = n;
        reduce_axes[pad + d] = resolved.contains(&d);
    }
    let n: usize = resolved.iter().filter_map(|&d| input.shape.get(d)).product();
    let q = tflc_runtime::prepare::mean_s8(in_q.scale, in_q.zero_point, out_q.scale, n).ok_or_else(|| {
        cx.invalid(format!(
            "the scale ratio {} / {} cannot be quantized",
            in_q.scale, out_q.scale
        ))
    })?;
    let params = MeanParams {
        input_shape,
        reduce_axes,
        multiplier: q.multiplier,
        shift: q.shift,
        sum_offset: q.sum_offset,
        output_offset: out_q.zero_point,
    };
    Ok(Mean { input: input.id, output: output.id, params, int16 })
}

impl Mean {
    fn output_len(&self) -> usize {
        self.params
            .input_shape
            .iter()
            .zip(self.params.reduce_axes)
            .map(|(&d, r)| if r { 1 } else { d })
            .product()
    }
}

impl Kernel for Mean {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let n: usize = self.params.input_shape.iter().product();
        let bad = |len: usize| ExecError(format!("MEAN: input has {len} elements, expected {n}"));
        if self.int16 {
            let mut out = s.take_i16(self.output, self.output_len());
            let input = s.i16(self.input)?;
            if input.len() != n {
                return Err(bad(input.len()));
            }
            mean_s16(&self.params, input, &mut out);
            s.insert(self.output, TensorData::I16(out));
            return Ok(());
        }
        let mut out = s.take_i8(self.output, self.output_len());
        let input = s.i8(self.input)?;
        if input.len() != n {
            return Err(bad(input.len()));
        }
        mean_s8(&self.params, input, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::mean::MeanParams }, &self.params);
        let rt = cx.rt().clone();
        let input = cx.input(self.input);
        let output = cx.output(self.output);
        if self.int16 {
            return quote! { #rt::kernels::mean::mean_s16(&#p, #input, #output); };
        }
        quote! { #rt::kernels::mean::mean_s8(&#p, #input, #output); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    /// A single MEAN: input `shape` quantized `in_q`, axes as an int32 constant of
    /// `axes_shape`, output `out_shape` quantized `out_q`.
    fn build(
        shape: &[usize],
        in_q: (f32, i64),
        axes: &[i32],
        axes_shape: &[usize],
        keep_dims: bool,
        out_shape: &[usize],
        out_q: (f32, i64),
    ) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, shape, Some(in_q));
        let a = b.constant_i32("axes", axes_shape, axes, None);
        let y = b.activation("y", DType::I8, out_shape, Some(out_q));
        b.op(OpKind::Mean { keep_dims }, &[Some(x), Some(a)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        name: &str,
        shape: &[usize],
        in_q: (f32, i64),
        axes: &[i32],
        keep_dims: bool,
        out_shape: &[usize],
        out_q: (f32, i64),
        seed: u64,
    ) -> Vec<i8> {
        let (bytes, x, y) = build(shape, in_q, axes, &[axes.len()], keep_dims, out_shape, out_q);
        let xv = i8s(seed, shape.iter().product());
        out_i8(&run_op0(name, &bytes, &[(x, TensorData::I8(xv))]), y)
    }

    // Expected outputs: the TFLite Micro interpreter (pip `tflite-micro`, reference
    // kernels) run once on the models and inputs these tests build, dumped with
    // `TFLC_DUMP_OP_MODELS=<dir> cargo test -p tflc mean`.

    /// The global-average-pool form (axes 1 and 2, keep_dims) with requantization.
    #[test]
    fn spatial_axes_keep_dims_requantized() {
        let want: &[i8] = &[-55, -8, 96, 37, 54, -17, -70, -51];
        assert_eq!(
            run(
                "mean_hw_keep",
                &[2, 5, 3, 4],
                (0.05, -7),
                &[1, 2],
                true,
                &[2, 1, 1, 4],
                (0.02, 3),
                61
            ),
            want
        );
    }

    /// The last axis by a negative index, rank 3, dims dropped.
    #[test]
    fn negative_axis_rank3_dropped() {
        let want: &[i8] = &[-3, 5, 33, 15, 3, -3];
        assert_eq!(
            run(
                "mean_last_axis",
                &[2, 3, 5],
                (0.1, 4),
                &[-1],
                false,
                &[2, 3],
                (0.1, 4),
                62
            ),
            want
        );
    }

    /// A leading axis and a duplicate (1 and -2 are the same axis of a rank-3 input).
    #[test]
    fn leading_and_duplicate_axes() {
        let want: &[i8] = &[-13, 42];
        assert_eq!(
            run(
                "mean_dup_axes",
                &[3, 4, 2],
                (0.07, 0),
                &[0, 1, -2],
                false,
                &[2],
                (0.05, -10),
                63
            ),
            want
        );
    }

    /// Every axis of a rank-2 input, to a scalar.
    #[test]
    fn all_axes_to_scalar() {
        let want: &[i8] = &[49];
        assert_eq!(
            run("mean_scalar", &[6, 7], (0.03, -2), &[0, 1], false, &[], (0.01, 1), 64),
            want
        );
    }

    /// No axes at all (an empty axes tensor): a pure requantization of every element.
    #[test]
    fn no_axes_requantizes() {
        let want: &[i8] = &[
            127, -22, -109, 127, 121, -94, -86, 56, -24, 64, -112, -128, 127, 127, 86,
        ];
        assert_eq!(
            run("mean_no_axes", &[3, 5], (0.05, -20), &[], false, &[3, 5], (0.03, 6), 65),
            want
        );
    }

    /// By hand: saturation at both ends (the mean doubles through the scales), and a scalar
    /// axis tensor.
    #[test]
    fn saturates_and_takes_a_scalar_axis() {
        let (bytes, x, y) = build(&[2, 2], (1.0, 0), &[1], &[], false, &[2], (0.5, 0));
        let store = run_op0(
            "mean_saturate",
            &bytes,
            &[(x, TensorData::I8(vec![127, 120, -128, -100]))],
        );
        assert_eq!(out_i8(&store, y), vec![127, -128]);
        let (bytes, x, y) = build(&[2, 2], (1.0, 0), &[1], &[], false, &[2], (1.0, 0));
        let store = run_op0("mean_exact", &bytes, &[(x, TensorData::I8(vec![10, 20, -6, -10]))]);
        assert_eq!(out_i8(&store, y), vec![15, -8]);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let (bytes, ..) = build(&[2, 5, 3, 4], (0.05, -7), &[1, 2], &[2], true, &[2, 1, 1, 4], (0.02, 3));
        insta::assert_snapshot!(emit_op0(&bytes));
    }

    #[test]
    fn malformed_models_are_errors() {
        let invalid = |e: &LowerError| matches!(e, LowerError::Invalid { .. });
        // Axis out of range, output shape not the reduction's.
        let (bytes, ..) = build(&[2, 3], (0.1, 0), &[2], &[1], false, &[2], (0.1, 0));
        assert!(invalid(&lower_op0(&bytes).expect_err("axis 2 of rank 2")));
        let (bytes, ..) = build(&[2, 3], (0.1, 0), &[1], &[1], true, &[2], (0.1, 0));
        assert!(invalid(&lower_op0(&bytes).expect_err("keep_dims shape")));
        // Rank 5.
        let (bytes, ..) = build(&[1, 2, 1, 2, 2], (0.1, 0), &[1], &[1], true, &[1, 1, 1, 2, 2], (0.1, 0));
        assert!(
            matches!(lower_op0(&bytes), Err(LowerError::Unsupported { .. })),
            "rank 5"
        );
        // Axes not a constant, or not int32.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 3], Some((0.1, 0)));
        let a = b.activation("axes", DType::I32, &[1], None);
        let y = b.activation("y", DType::I8, &[2], Some((0.1, 0)));
        b.op(OpKind::Mean { keep_dims: false }, &[Some(x), Some(a)], &[y]);
        let e = lower_op0(&b.finish()).expect_err("non-constant axes");
        assert!(
            matches!(e, LowerError::Unsupported { .. }) && e.to_string().contains("MEAN"),
            "{e}"
        );
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 3], Some((0.1, 0)));
        let a = b.constant("axes", DType::I64, &[1], 1i64.to_le_bytes().to_vec(), None);
        let y = b.activation("y", DType::I8, &[2], Some((0.1, 0)));
        b.op(OpKind::Mean { keep_dims: false }, &[Some(x), Some(a)], &[y]);
        assert!(
            matches!(lower_op0(&b.finish()), Err(LowerError::Unsupported { .. })),
            "int64 axes"
        );
        // Missing axes.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 3], Some((0.1, 0)));
        let y = b.activation("y", DType::I8, &[2], Some((0.1, 0)));
        b.op(OpKind::Mean { keep_dims: false }, &[Some(x)], &[y]);
        assert!(invalid(&lower_op0(&b.finish()).expect_err("one input")));
    }

    /// int16 MEAN (16x8, as `ai-edge-quantizer` writes it: zero points 0; and one with zero
    /// points, which TFLite Micro's Prepare accepts), bit for bit with TFLite Micro's PyPI
    /// release (`EvalIntegerMean<int16_t>`): the global-average form, the last axis, every
    /// axis, and a large reduction that saturates.
    #[test]
    fn int16_against_tflite_micro() {
        #[allow(clippy::type_complexity)]
        let cases: [(&str, &[usize], (f32, i64), &[i32], bool, &[usize], (f32, i64)); 5] = [
            ("mean_s16_hw_keep", &[2, 5, 3, 4], (0.0005, 0), &[1, 2], true, &[2, 1, 1, 4], (0.0002, 0)),
            ("mean_s16_last_axis", &[2, 3, 7], (0.001, 0), &[-1], false, &[2, 3], (0.001, 0)),
            ("mean_s16_all", &[6, 7], (0.0003, 0), &[0, 1], false, &[], (0.00001, 0)),
            ("mean_s16_zero_points", &[3, 8], (0.002, 100), &[1], true, &[3, 1], (0.0015, -250)),
            ("mean_s16_saturate", &[1, 16, 16, 2], (0.01, 0), &[1, 2], true, &[1, 1, 1, 2], (0.00002, 0)),
        ];
        for (k, (name, shape, in_q, axes, keep_dims, out_shape, out_q)) in cases.into_iter().enumerate() {
            let mut b = ModelBuilder::new();
            let x = b.activation("x", DType::I16, shape, Some(in_q));
            let a = b.constant_i32("axes", &[axes.len()], axes, None);
            let y = b.activation("y", DType::I16, out_shape, Some(out_q));
            b.op(OpKind::Mean { keep_dims }, &[Some(x), Some(a)], &[y]);
            b.inputs(&[x]).outputs(&[y]);
            let bytes = b.finish();
            let n: usize = shape.iter().product();
            let xv: Vec<i16> = i8s(90 + k as u64, n).iter().zip(i8s(190 + k as u64, n)).map(|(&h, l)| (h as i16) << 8 | (l as u8 as i16)).collect();
            let got = match run_op0(name, &bytes, &[(x, TensorData::I16(xv))]).get(y) {
                Some(TensorData::I16(v)) => v.clone(),
                other => panic!("{name}: {other:?}"),
            };
            let want = MEAN_S16_TFLM.iter().find(|v| v.0 == name).map(|v| v.1);
            match want {
                Some(w) => assert_eq!(got, w, "{name}"),
                None => assert!(std::env::var_os("TFLC_DUMP_OP_MODELS").is_some(), "{name}: no vector"),
            }
        }
    }

    /// TFLite Micro's outputs (`tools/op_test_vectors.py`, pip tflite-micro
    /// 0.dev20261023182759).
    const MEAN_S16_TFLM: &[(&str, &[i16])] = &[
        ("mean_s16_all", &[12931]),
        ("mean_s16_hw_keep", &[8619, -20036, -6805, 691, -12500, 5125, 20913, 10981]),
        ("mean_s16_last_axis", &[2783, -4369, -3097, 3013, 8912, 6034]),
        ("mean_s16_saturate", &[-32768, -32768]),
        ("mean_s16_zero_points", &[-5783, -25599, 201]),
    ];

    /// float32 MEAN over the reductions' axis cases (rank 5 too) and TFLite Micro's 4-D
    /// `keep_dims` height-width path (`[1, 2]` and `[2, 1]`): bit for bit with TFLite Micro,
    /// and the naive sum in row-major order divided by the count.
    #[test]
    fn float32_against_tflite_micro() {
        use super::super::reduce::tests::{check, model, naive, vector, AxisCase, AXES};
        let spatial: [AxisCase; 2] = [(&[2, 3, 4, 5], &[1, 2], true, &[2, 1, 1, 5]), (&[1, 4, 4, 3], &[2, 1], true, &[1, 1, 1, 3])];
        for (k, &(shape, axes, keep_dims, out_shape)) in AXES.iter().chain(&spatial).enumerate() {
            let n: usize = shape.iter().product();
            let resolved = super::super::reduce::resolve_axes(shape.len(), axes).unwrap();
            let count: usize = resolved.iter().map(|&d| shape[d]).product();
            let xf: Vec<f32> = i8s(130 + k as u64, n).iter().map(|&q| f32::from(q) * 0.37 + 0.01).collect();
            let (bytes, [x, y]) = model(OpKind::Mean { keep_dims }, DType::F32, shape, None, axes, out_shape, None);
            let name = format!("mean_f32_{k}");
            let s = run_op0(&name, &bytes, &[(x, TensorData::F32(xf.clone()))]);
            let want: Vec<f32> = naive(shape, &xf, &resolved, 0.0f32, |a, b| b + a).iter().map(|&v| v / count as f32).collect();
            assert_eq!(s.get(y), Some(&TensorData::F32(want)), "{name}");
            check(&name, &bytes, &[(x, TensorData::F32(xf))], y, vector(MEAN_F32_TFLM, &name));
        }
        expect_unsupported(&model(OpKind::Mean { keep_dims: false }, DType::F32, &[2, 0], None, &[1], &[2], None).0);
    }

    /// TFLite Micro's outputs (`tools/op_test_vectors.py`).
    const MEAN_F32_TFLM: &[(&str, &[f32])] = &[
        ("mean_f32_0", &[
            -6.896666, -27.493334, 35.283337, 12.343333, -27.123331, 17.893333, -3.4433334, -2.2100003
        ]),
        ("mean_f32_1", &[
            -6.835, -17.01, 7.6412506
        ]),
        ("mean_f32_2", &[
            6.0533338
        ]),
        ("mean_f32_3", &[
            -0.36, -29.22, 30.35, -5.54, 3.34, 10.740001, 19.99, -27.37, -17.38, -6.6499996, -5.17, -13.68, 14.440001,
            -40.320004, 41.079998, 36.27, -8.13, 45.149998, 21.1, -7.02, 39.969997, 45.149998, 46.629997, -3.69,
            7.0400004, 32.199997, 20.36, 37.01, -37.730003, -42.54
        ]),
        ("mean_f32_4", &[
            11.110001, -32.920002, 7.78, 10.740001, 34.05, 4.0800004, 12.96, 16.66, -24.04, -36.250004, 35.53, 19.99,
            -25.52, 39.6, 19.62, -31.44, 14.070001, -2.95, 8.52, 11.85, 18.51, 7.78, -18.86, -1.1
        ]),
        ("mean_f32_5", &[
            7.1325, -18.25875, 5.004999, -7.62125, 8.52, -11.59875, 3.94125, -6.835001
        ]),
        ("mean_f32_6", &[
            8.180833, 4.511666, -0.11333402, -1.2541671, -3.1658337, -9.702499, 2.1066666, 8.026667, -2.5491672,
            4.8508334
        ]),
        ("mean_f32_7", &[
            -9.055001, -3.019376, -0.93812555
        ]),
    ];
}
