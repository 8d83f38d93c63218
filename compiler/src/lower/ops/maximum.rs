//! MAXIMUM (and, through [`lower_min_max`], MINIMUM) with numpy broadcasting, on int8,
//! int16, int32 or float32.
//!
//! Mirrors TFLite Micro `maximum_minimum.cc`: no Prepare at all, an elementwise
//! `max`/`min` of the raw values (for quantized types TFLite relies on the converter giving
//! both inputs and the output one quantization, and neither TFLite nor TFLite Micro checks
//! it; we compute what they compute). All three tensors share one element type.

use super::binary::{lower_binary, Binary};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::maximum::{maximum, MaximumParams};
use tflc_runtime::kernels::minimum::{minimum, MinimumParams};

crate::runtime_struct_lit!(kernels::maximum::MaximumParams<'a> { broadcast });
crate::runtime_struct_lit!(kernels::minimum::MinimumParams<'a> { broadcast });

/// Which of the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinMaxOp {
    Maximum,
    Minimum,
}

/// MAXIMUM or MINIMUM: the params are only the walk ([`Binary::broadcast`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MinMax {
    pub op: MinMaxOp,
    pub bin: Binary,
    pub dtype: DType,
}

pub(crate) fn lower_min_max(cx: &OpCx<'_, '_>, op: MinMaxOp) -> Result<MinMax, LowerError> {
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    let dtype = o.dtype;
    if !matches!(dtype, DType::I8 | DType::I16 | DType::I32 | DType::F32) {
        return Err(cx.unsupported_tensor(o, format!("element type {dtype}")));
    }
    cx.expect_dtype(i1, dtype)?;
    cx.expect_dtype(i2, dtype)?;
    Ok(MinMax { op, bin, dtype })
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<MinMax, LowerError> {
    lower_min_max(cx, MinMaxOp::Maximum)
}

impl MinMax {
    fn run<T: Copy + PartialOrd + Default>(
        &self,
        s: &mut TensorStore,
        get: for<'s> fn(&'s TensorStore, crate::ir::TensorId) -> Result<&'s [T], ExecError>,
        take: fn(&mut TensorStore, crate::ir::TensorId, usize) -> Vec<T>,
        wrap: fn(Vec<T>) -> TensorData,
    ) -> Result<(), ExecError> {
        let broadcast = self.bin.broadcast(false);
        let mut out = take(s, self.bin.output, broadcast.out_len());
        let (x, y) = self.bin.operands(s, get)?;
        match self.op {
            MinMaxOp::Maximum => maximum(&MaximumParams { broadcast }, x, y, &mut out),
            MinMaxOp::Minimum => minimum(&MinimumParams { broadcast }, x, y, &mut out),
        }
        s.insert(self.bin.output, wrap(out));
        Ok(())
    }
}

impl Kernel for MinMax {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self.dtype {
            DType::I8 => self.run(s, TensorStore::i8, TensorStore::take_i8, TensorData::I8),
            DType::I16 => self.run(s, TensorStore::i16, TensorStore::take_i16, TensorData::I16),
            DType::I32 => self.run(s, TensorStore::i32, TensorStore::take_i32, TensorData::I32),
            DType::F32 => self.run(s, TensorStore::f32, TensorStore::take_f32, TensorData::F32),
            other => Err(ExecError(format!("MAXIMUM/MINIMUM on {other}"))),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let bin = &self.bin;
        match self.op {
            MinMaxOp::Maximum => bin.emit_in_place_capable(cx, quote! { kernels::maximum::MaximumParams<'static> }, ("maximum", "maximum"), |swap| {
                MaximumParams { broadcast: bin.broadcast(swap) }
            }),
            MinMaxOp::Minimum => bin.emit_in_place_capable(cx, quote! { kernels::minimum::MinimumParams<'static> }, ("minimum", "minimum"), |swap| {
                MinimumParams { broadcast: bin.broadcast(swap) }
            }),
        }
    }

    /// Every element type (the runtime's in-place variant is generic; all three tensors
    /// share one type); operand 2 too for the integer types, where `max`/`min` commute
    /// exactly (for floats the NaN and signed-zero cases depend on the operand order).
    fn in_place(&self) -> Vec<(usize, usize)> {
        self.bin.in_place_pairs(self.dtype != DType::F32)
    }
}

/// Tests for both MAXIMUM and MINIMUM.
#[cfg(test)]
pub(crate) mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use crate::ir::OpKind;

    pub(crate) fn kind(op: MinMaxOp) -> OpKind {
        match op {
            MinMaxOp::Maximum => OpKind::Maximum,
            MinMaxOp::Minimum => OpKind::Minimum,
        }
    }

    fn pick(op: MinMaxOp) -> fn(i32, i32) -> i32 {
        match op {
            MinMaxOp::Maximum => |a, b| a.max(b),
            MinMaxOp::Minimum => |a, b| a.min(b),
        }
    }

    pub(crate) fn check_every_pattern_and_type(op: MinMaxOp) {
        let q = Some((0.25, -3));
        let f = pick(op);
        for (a_shape, b_shape) in BROADCAST_CASES {
            let av = i8s(13, a_shape.iter().product());
            let bv = i8s(14, b_shape.iter().product());
            // int8.
            let (out_shape, want) = broadcast_reference(a_shape, &av, b_shape, &bv, |a, b| f(a as i32, b as i32) as i8);
            let (bytes, [x, y, z]) = binary_model(kind(op), DType::I8, (a_shape, q), (b_shape, q), (&out_shape, q));
            let store = run_op0("minmax_i8", &bytes, &[(x, TensorData::I8(av.clone())), (y, TensorData::I8(bv.clone()))]);
            assert_eq!(out_i8(&store, z), want, "{op:?} {a_shape:?} {b_shape:?}");
            // int32 (values spread wider than int8).
            let (a32, b32): (Vec<i32>, Vec<i32>) =
                (av.iter().map(|&v| v as i32 * 70_001).collect(), bv.iter().map(|&v| v as i32 * -90_001).collect());
            let (_, want) = broadcast_reference(a_shape, &a32, b_shape, &b32, f);
            let (bytes, [x, y, z]) = binary_model(kind(op), DType::I32, (a_shape, None), (b_shape, None), (&out_shape, None));
            let store = run_op0("minmax_i32", &bytes, &[(x, TensorData::I32(a32)), (y, TensorData::I32(b32))]);
            assert_eq!(store.i32(z).unwrap(), &want[..]);
            // float32 and int16.
            let (af, bf): (Vec<f32>, Vec<f32>) = (av.iter().map(|&v| v as f32 * 0.5).collect(), bv.iter().map(|&v| v as f32 * 0.25).collect());
            let (_, want) = broadcast_reference(a_shape, &af, b_shape, &bf, |a, b| f((a * 4.0) as i32, (b * 4.0) as i32) as f32 / 4.0);
            let (bytes, [x, y, z]) = binary_model(kind(op), DType::F32, (a_shape, None), (b_shape, None), (&out_shape, None));
            let store = run_op0("minmax_f32", &bytes, &[(x, TensorData::F32(af)), (y, TensorData::F32(bf))]);
            assert_eq!(store.f32(z).unwrap(), &want[..]);
            let (a16, b16): (Vec<i16>, Vec<i16>) = (av.iter().map(|&v| v as i16 * 250).collect(), bv.iter().map(|&v| v as i16).collect());
            let (_, want) = broadcast_reference(a_shape, &a16, b_shape, &b16, |a, b| f(a as i32, b as i32) as i16);
            let (bytes, [x, y, z]) = binary_model(kind(op), DType::I16, (a_shape, None), (b_shape, None), (&out_shape, None));
            let store = run_op0("minmax_i16", &bytes, &[(x, TensorData::I16(a16)), (y, TensorData::I16(b16))]);
            assert_eq!(store.i16(z).unwrap(), &want[..]);
        }
    }

    pub(crate) fn check_malformed(op: MinMaxOp) {
        let q = Some((0.5, 0));
        expect_invalid(&binary_model(kind(op), DType::I8, (&[2, 3], q), (&[3], q), (&[3, 3], q)).0);
        expect_invalid(&binary_model(kind(op), DType::I8, (&[2, 3], q), (&[2], q), (&[2, 3], q)).0);
        expect_unsupported(&binary_model(kind(op), DType::Bool, (&[3], None), (&[3], None), (&[3], None)).0);
        // Mixed element types.
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        let y = m.activation("y", DType::I16, &[3], q);
        let z = m.activation("z", DType::I8, &[3], q);
        m.op(kind(op), &[Some(x), Some(y)], &[z]);
        expect_unsupported(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[3], q);
        let z = m.activation("z", DType::I8, &[3], q);
        m.op(kind(op), &[Some(x)], &[z]);
        expect_invalid(&m.finish());
    }

    #[test]
    fn every_pattern_and_type() {
        check_every_pattern_and_type(MinMaxOp::Maximum);
    }

    #[test]
    fn malformed_models_are_errors() {
        check_malformed(MinMaxOp::Maximum);
    }

    #[cfg(feature = "format")]
    #[test]
    fn emits_params_and_call() {
        let q = Some((0.5, 1));
        let (bytes, _) = binary_model(OpKind::Maximum, DType::I8, (&[1, 4, 4, 3], q), (&[1, 1, 4, 3], q), (&[1, 4, 4, 3], q));
        insta::assert_snapshot!(emit_op0(&bytes));
    }
}
