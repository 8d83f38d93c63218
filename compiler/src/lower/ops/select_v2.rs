//! SELECT_V2: `condition ? x : y` elementwise with three-way numpy broadcasting; the
//! condition is bool, `x`, `y` and the output int8, int16 or float32 of one type.
//!
//! Mirrors TFLite Micro `select.cc`: `SelectPrepare` requires a bool condition and `x`, `y`
//! of one type and checks the broadcast (`CheckBroadcastShape`: each dimension 1 or the
//! largest, 0 when any is 0); `SelectEval` takes float32, int8 and int16 and copies the raw
//! values (`reference_ops::Select` / `BroadcastSelect5DSlow`; no requantization, whatever
//! the operands' quantization).

use super::binary::broadcast_shape;
use super::comparison::bool_bytes;
use super::movement::{get, put, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::nd::MAX_RANK;
use tflc_runtime::kernels::select::{select, SelectParams};

crate::runtime_struct_lit!(kernels::select::SelectParams<'a> { out_shape, condition_strides, x_strides, y_strides });

/// A lowered SELECT_V2: its tensors, element type and walk (owned; [`Self::params`]
/// borrows it).
#[derive(Debug, Clone, PartialEq)]
pub struct SelectV2 {
    pub condition: TensorId,
    pub x: TensorId,
    pub y: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub lens: [usize; 3],
    pub out_shape: Vec<usize>,
    pub strides: [Vec<usize>; 3],
}

/// The element strides of an operand of `shape` over `out` (right-aligned; 0 where the
/// operand has size 1 or lacks the dimension).
fn strides_over(shape: &[usize], out: &[usize]) -> Vec<usize> {
    let mut s = vec![0; out.len()];
    let mut acc = 1;
    for (k, &d) in shape.iter().enumerate().rev() {
        let o = out.len() - (shape.len() - k);
        s[o] = if d == 1 { 0 } else { acc };
        acc *= d;
    }
    s
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<SelectV2, LowerError> {
    cx.expect_arity(3..=3, 1)?;
    let (c, x, y, o) = (cx.input(0)?, cx.input(1)?, cx.input(2)?, cx.output(0)?);
    cx.expect_activation(o)?;
    cx.expect_dtype(c, DType::Bool)?;
    if !matches!(x.dtype, DType::I8 | DType::I16 | DType::F32) {
        return Err(cx.unsupported_tensor(x, format!("element type {} (TFLite Micro's SELECT_V2 takes int8, int16 and float32)", x.dtype)));
    }
    cx.expect_dtype(y, x.dtype)?;
    cx.expect_dtype(o, x.dtype)?;
    let rank = c.shape.len().max(x.shape.len()).max(y.shape.len());
    if rank > MAX_RANK {
        return Err(cx.unsupported(format!("operands of rank above {MAX_RANK}")));
    }
    let shape = broadcast_shape(&c.shape, &x.shape)
        .and_then(|s| broadcast_shape(&s, &y.shape))
        .ok_or_else(|| cx.invalid(format!("shapes {:?}, {:?} and {:?} do not broadcast", c.shape, x.shape, y.shape)))?;
    if o.shape != shape {
        return Err(cx.invalid_tensor(o, format!("output shape {:?}, but the operands broadcast to {shape:?}", o.shape)));
    }
    // A rank-0 output walks as [1].
    let out_shape = if shape.is_empty() { vec![1] } else { shape };
    let strides = [c, x, y].map(|t| strides_over(&t.shape, &out_shape));
    Ok(SelectV2 {
        condition: c.id,
        x: x.id,
        y: y.id,
        output: o.id,
        dtype: x.dtype,
        lens: [c, x, y].map(|t| t.num_elements()),
        out_shape,
        strides,
    })
}

impl SelectV2 {
    fn params(&self) -> SelectParams<'_> {
        SelectParams { out_shape: &self.out_shape, condition_strides: &self.strides[0], x_strides: &self.strides[1], y_strides: &self.strides[2] }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let c = bool_bytes(s, self.condition)?;
        let (x, y) = (get::<T>(s, self.x)?, get::<T>(s, self.y)?);
        if [c.len(), x.len(), y.len()] != self.lens {
            return Err(ExecError(format!("operand lengths {}, {} and {} (expected {:?})", c.len(), x.len(), y.len(), self.lens)));
        }
        let p = self.params();
        let mut out = vec![T::default(); p.out_len()];
        select(&p, &c, x, y, &mut out);
        put(s, self.output, out);
        Ok(())
    }
}

impl Kernel for SelectV2 {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self.dtype {
            DType::I8 => self.run::<i8>(s),
            DType::I16 => self.run::<i16>(s),
            DType::F32 => self.run::<f32>(s),
            other => Err(ExecError(format!("SELECT_V2 on {other}"))),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::select::SelectParams<'static> }, &self.params());
        let c = cx.input_bytes(self.condition);
        let x = cx.input(self.x);
        let y = cx.input(self.y);
        let out = cx.output(self.output);
        quote! { #rt::kernels::select::select(&#p, #c, #x, #y, #out); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::OpKind;

    fn model(dtype: DType, c: &[usize], a: &[usize], b: &[usize], out: &[usize]) -> (Vec<u8>, [TensorId; 4]) {
        let q = (dtype != DType::F32).then_some((0.5, 0));
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let ct = m.activation("c", DType::Bool, c, None);
        let x = m.activation("x", dtype, a, q);
        let y = m.activation("y", dtype, b, q);
        let z = m.activation("z", dtype, out, q);
        m.op(OpKind::SelectV2, &[Some(ct), Some(x), Some(y)], &[z]);
        m.inputs(&[ct, x, y]).outputs(&[z]);
        (m.finish(), [ct, x, y, z])
    }

    /// The naive three-way broadcast.
    fn naive<T: Copy>(c: (&[usize], &[bool]), x: (&[usize], &[T]), y: (&[usize], &[T])) -> (Vec<usize>, Vec<T>) {
        let (s, cx) = broadcast_reference(c.0, c.1, x.0, x.1, |c, x| (c, x));
        broadcast_reference(&s, &cx, y.0, y.1, |(c, x), y| if c { x } else { y })
    }

    const CASES: &[(&[usize], &[usize], &[usize])] = &[
        (&[2, 3, 4], &[2, 3, 4], &[2, 3, 4]),
        (&[2, 1, 4], &[3, 1], &[2, 3, 1]),
        (&[], &[4], &[2, 1]),
        (&[1, 3, 1, 2, 1], &[1, 4, 1, 5], &[]),
        (&[], &[], &[]),
    ];

    /// Every case and element type against the naive definition, and the TFLite Micro
    /// vectors of the broadcast cases (`tools/op_test_vectors.py`, prefix `select_v2_`).
    #[test]
    fn against_naive_and_tflite_micro() {
        for (k, (cs, xs, ys)) in CASES.iter().enumerate() {
            let c: Vec<bool> = i8s(50 + k as u64, cs.iter().product()).iter().map(|&v| v < 0).collect();
            let xv = i8s(60 + k as u64, xs.iter().product());
            let yv = i8s(70 + k as u64, ys.iter().product());
            let (out, want) = naive((cs, &c), (xs, &xv), (ys, &yv));
            let (bytes, [ct, x, y, z]) = model(DType::I8, cs, xs, ys, &out);
            let inputs = [(ct, TensorData::Bool(c.clone())), (x, TensorData::I8(xv.clone())), (y, TensorData::I8(yv.clone()))];
            let name = format!("select_v2_s8_{k}");
            let s = run_op0(&name, &bytes, &inputs);
            assert_eq!(out_i8(&s, z), want, "{cs:?} {xs:?} {ys:?}");
            let v = VECTORS_S8.iter().find(|(n, _)| *n == name).map_or(&[][..], |(_, v)| *v);
            check_vector(&name, &bytes, &inputs, z, v);
            let to16 = |v: &[i8]| v.iter().map(|&q| i16::from(q) * 251).collect::<Vec<i16>>();
            let (bytes, [ct, x, y, z]) = model(DType::I16, cs, xs, ys, &out);
            let s = run_op0("select_v2_s16", &bytes, &[(ct, TensorData::Bool(c.clone())), (x, TensorData::I16(to16(&xv))), (y, TensorData::I16(to16(&yv)))]);
            assert_eq!(s.get(z), Some(&TensorData::I16(to16(&want))));
            let tof = |v: &[i8]| v.iter().map(|&q| f32::from(q) * 0.5).collect::<Vec<f32>>();
            let (bytes, [ct, x, y, z]) = model(DType::F32, cs, xs, ys, &out);
            let s = run_op0("select_v2_f32", &bytes, &[(ct, TensorData::Bool(c)), (x, TensorData::F32(tof(&xv))), (y, TensorData::F32(tof(&yv)))]);
            assert_eq!(s.get(z), Some(&TensorData::F32(tof(&want))));
        }
    }

    const VECTORS_S8: &[(&str, &[i8])] = &[
        ("select_v2_s8_0", &[-59, -99, -45, -77, 25, 27, -90, 106, -121, -26, -67, -80, -43, -113, -21, 113, -21, 58, 49, 92, -40, -114, 93, 127]),
        ("select_v2_s8_1", &[118, -77, 118, -77, 26, -6, 26, -6, -54, 69, -54, 69, -77, -77, -77, 114, -6, -6, -6, -57, 69, 69, 69, -104]),
        ("select_v2_s8_2", &[104, 104, 104, 104, -59, -59, -59, -59]),
        ("select_v2_s8_3", &[-55, -55, -55, -55, -55, -56, 99, -20, 42, 114, -55, -55, -55, -55, -55, 94, 28, 93, -85, 17, -55, -55, -55, -55, -55, -68, 9, -96, 124, 115, -55, -55, -55, -55, -55, 21, -4, 29, 23, 81, -56, 99, -20, 42, 114, -56, 99, -20, 42, 114, 94, 28, 93, -85, 17, 94, 28, 93, -85, 17, -68, 9, -96, 124, 115, -68, 9, -96, 124, 115, 21, -4, 29, 23, 81, 21, -4, 29, 23, 81, -55, -55, -55, -55, -55, -56, 99, -20, 42, 114, -55, -55, -55, -55, -55, 94, 28, 93, -85, 17, -55, -55, -55, -55, -55, -68, 9, -96, 124, 115, -55, -55, -55, -55, -55, 21, -4, 29, 23, 81]),
        ("select_v2_s8_4", &[-70]),
    ];

    /// A zero dimension broadcasts with 1 (TFLite's `CheckBroadcastShape`) and leaves an
    /// empty output.
    #[test]
    fn empty_output() {
        let (bytes, [ct, x, y, z]) = model(DType::I8, &[0, 3], &[1, 3], &[3], &[0, 3]);
        let s = run_op0("select_v2_empty", &bytes, &[(ct, TensorData::Bool(vec![])), (x, TensorData::I8(vec![1, 2, 3])), (y, TensorData::I8(vec![4, 5, 6]))]);
        assert_eq!(out_i8(&s, z), Vec::<i8>::new());
    }

    #[test]
    fn refusals() {
        // Condition not bool; x and y of different types; int32; wrong output shape;
        // shapes that do not broadcast; a missing operand.
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let c = m.activation("c", DType::I8, &[3], Some((0.5, 0)));
        let x = m.activation("x", DType::I8, &[3], Some((0.5, 0)));
        let z = m.activation("z", DType::I8, &[3], Some((0.5, 0)));
        m.op(OpKind::SelectV2, &[Some(c), Some(x), Some(x)], &[z]);
        expect_unsupported(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let c = m.activation("c", DType::Bool, &[3], None);
        let x = m.activation("x", DType::I8, &[3], Some((0.5, 0)));
        let y = m.activation("y", DType::F32, &[3], None);
        let z = m.activation("z", DType::I8, &[3], Some((0.5, 0)));
        m.op(OpKind::SelectV2, &[Some(c), Some(x), Some(y)], &[z]);
        expect_unsupported(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let c = m.activation("c", DType::Bool, &[3], None);
        let x = m.activation("x", DType::I32, &[3], None);
        m.op(OpKind::SelectV2, &[Some(c), Some(x), Some(x)], &[x]);
        expect_unsupported(&m.finish());
        expect_invalid(&model(DType::I8, &[2, 1], &[3], &[1], &[3, 3]).0);
        expect_invalid(&model(DType::I8, &[2, 1], &[3], &[4], &[2, 3]).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let c = m.activation("c", DType::Bool, &[3], None);
        let x = m.activation("x", DType::F32, &[3], None);
        let z = m.activation("z", DType::F32, &[3], None);
        m.op(OpKind::SelectV2, &[Some(c), Some(x), None], &[z]);
        expect_invalid(&m.finish());
    }
}
