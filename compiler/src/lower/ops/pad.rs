//! PAD (and, through [`lower_pad`], PADV2): constant padding before and after every
//! dimension. Mirrors TFLite Micro `pad_common.cc` / `pad.cc`:
//! - `paddings` is a constant int32 `[rank, 2]` tensor of `(before, after)` pairs, none
//!   negative; the output shape is `before + input + after` per dimension;
//! - the pad value is the `constant_values` operand when there is one (3 inputs, for both
//!   builtins): one constant of the input's element type, used raw -- for int8 it must
//!   carry the output's scale and zero point; without it, int8 pads with the output zero
//!   point and int16 / int32 / float32 with 0 (TFLite Micro does not use an int16 zero point).
//!
//! The runtime kernel is `tflc_runtime::kernels::pad` (generic over the element).

use super::movement::{expect_distinct_outputs, expect_same_type_and_quant, get, kernel_fn, put, Elem};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use tflc_runtime::kernels::nd::MAX_RANK;
use tflc_runtime::kernels::pad::{pad, pad_output_shape, PadParams};

/// The padding value, typed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PadValue {
    I8(i8),
    I16(i16),
    I32(i32),
    F32(f32),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pad {
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub input_shape: Vec<usize>,
    pub output_shape: Vec<usize>,
    pub before: Vec<usize>,
    pub value: PadValue,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Pad, LowerError> {
    lower_pad(cx)
}

/// PAD and PADV2 (they share TFLite Micro's prepare and eval).
pub(crate) fn lower_pad(cx: &OpCx<'_, '_>) -> Result<Pad, LowerError> {
    cx.expect_arity(2..=3, 1)?;
    let input = cx.input(0)?;
    let paddings = cx.input(1)?;
    let constant = cx.optional_input(2);
    let output = cx.output(0)?;
    let dtype = input.dtype;
    if !matches!(dtype, DType::I8 | DType::I16 | DType::I32 | DType::F32) {
        return Err(cx.unsupported_tensor(input, format!("element type {dtype}")));
    }
    expect_same_type_and_quant(cx, input, output)?;
    expect_distinct_outputs(cx)?;
    let rank = input.shape.len();
    if rank == 0 || rank > MAX_RANK {
        return Err(cx.unsupported_tensor(input, format!("rank {rank} (1 to {MAX_RANK} are supported)")));
    }

    let p = cx.const_i32(paddings)?;
    if paddings.shape != [rank, 2] || p.len() != rank * 2 {
        return Err(cx.invalid_tensor(paddings, format!("shape {:?}, expected [{rank}, 2]", paddings.shape)));
    }
    let pairs: Vec<(i64, i64)> = p.chunks_exact(2).map(|c| (i64::from(c[0]), i64::from(c[1]))).collect();
    let mut want = vec![0; rank];
    pad_output_shape(&input.shape, &pairs, &mut want)
        .ok_or_else(|| cx.invalid_tensor(paddings, format!("paddings {pairs:?} are negative or too large")))?;
    if output.shape != want {
        return Err(cx.invalid_tensor(output, format!("shape {:?}, but the paddings give {want:?}", output.shape)));
    }
    let before: Vec<usize> = pairs.iter().map(|&(b, _)| b as usize).collect();

    let value = match constant {
        Some(c) => {
            if c.dtype != dtype {
                return Err(cx.invalid_tensor(c, format!("element type {} differs from the input's {dtype}", c.dtype)));
            }
            if c.num_elements() != 1 {
                return Err(cx.invalid_tensor(c, format!("{} pad values, expected one", c.num_elements())));
            }
            if dtype == DType::I8 {
                // TFLite Micro: same scale and zero point as the output (compared exactly).
                let (cq, oq) = (c.quant.as_ref().and_then(|q| q.per_tensor()), output.quant.as_ref().and_then(|q| q.per_tensor()));
                if cq != oq {
                    return Err(cx.unsupported_tensor(c, "the pad value's quantization differs from the output's"));
                }
            }
            let bytes = cx.expect_constant(c)?;
            match TensorData::from_le_bytes(dtype, bytes) {
                Some(TensorData::I8(v)) if v.len() == 1 => PadValue::I8(v[0]),
                Some(TensorData::I16(v)) if v.len() == 1 => PadValue::I16(v[0]),
                Some(TensorData::I32(v)) if v.len() == 1 => PadValue::I32(v[0]),
                Some(TensorData::F32(v)) if v.len() == 1 && v[0].is_finite() => PadValue::F32(v[0]),
                Some(TensorData::F32(_)) => return Err(cx.unsupported_tensor(c, "a pad value that is not finite")),
                _ => return Err(cx.invalid_tensor(c, "malformed pad value")),
            }
        }
        None => match dtype {
            DType::I8 => {
                let zp = output.quant.as_ref().and_then(|q| q.per_tensor()).map_or(0, |(_, z)| z);
                let zp = i8::try_from(zp).map_err(|_| cx.invalid_tensor(output, format!("int8 zero point {zp} is out of range")))?;
                PadValue::I8(zp)
            }
            DType::I16 => PadValue::I16(0),
            DType::I32 => PadValue::I32(0),
            _ => PadValue::F32(0.0),
        },
    };
    Ok(Pad { input: input.id, output: output.id, dtype, input_shape: input.shape.clone(), output_shape: want, before, value })
}

crate::runtime_struct_lit!(kernels::pad::PadParams<'a, T> { input_shape, output_shape, before, pad_value });

impl Pad {
    /// The runtime params, borrowing the shapes this op owns, with `pad_value` (which must
    /// be of the element type).
    fn params<T>(&self, pad_value: T) -> PadParams<'_, T> {
        PadParams { input_shape: &self.input_shape, output_shape: &self.output_shape, before: &self.before, pad_value }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore, pad_value: T) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.input_shape.iter().product::<usize>() {
            return Err(ExecError(format!("PAD: input {} has {} elements", self.input, x.len())));
        }
        let mut y = vec![T::default(); self.output_shape.iter().product()];
        pad(&self.params(pad_value), x, &mut y);
        put(s, self.output, y);
        Ok(())
    }

    /// The params const `P: PadParams<'static, elem>` for `pad_value`.
    fn params_const<T: Lit>(&self, cx: &mut EmitCx<'_, '_, '_>, elem: TokenStream, pad_value: T) -> Ident {
        cx.params_lit(quote! { kernels::pad::PadParams<'static, #elem> }, &self.params(pad_value))
    }
}

impl Kernel for Pad {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self.value {
            PadValue::I8(v) if self.dtype == DType::I8 => self.run::<i8>(s, v),
            PadValue::I16(v) if self.dtype == DType::I16 => self.run::<i16>(s, v),
            PadValue::I32(v) if self.dtype == DType::I32 => self.run::<i32>(s, v),
            PadValue::F32(v) if self.dtype == DType::F32 => self.run::<f32>(s, v),
            _ => Err(ExecError(format!("PAD: pad value {:?} for element type {}", self.value, self.dtype))),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = match self.value {
            PadValue::I8(v) => self.params_const(cx, quote! { i8 }, v),
            PadValue::I16(v) => self.params_const(cx, quote! { i16 }, v),
            PadValue::I32(v) => self.params_const(cx, quote! { i32 }, v),
            PadValue::F32(v) => self.params_const(cx, quote! { f32 }, v),
        };
        if let Some((span, input_at, output_at)) = cx.overlapped(self.input, self.output) {
            let rt = cx.rt().clone();
            return quote! { #rt::kernels::overlap::pad_overlapped(&#p, #span, #input_at, #output_at); };
        }
        let f = kernel_fn(cx, "pad", "pad", self.dtype);
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #f(&#p, #x, #y); }
    }

    /// The output over the input, walked from its end
    /// (`tflc_runtime::kernels::overlap::pad_overlapped`): the input may sit at its own place
    /// inside the output.
    fn overlap(&self) -> Vec<(usize, usize, crate::ir::DeltaBound)> {
        // Overlapped, the kernel gets a typed view of the arena span: only types that have one.
        let elem = self.dtype.arena_elem().and(self.dtype.size()).unwrap_or(0);
        let min = tflc_runtime::kernels::overlap::pad_min_delta(&self.params(()));
        super::copy_overlap(min, 0, self.input_shape.iter().product(), self.output_shape.iter().product(), elem)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    /// A PAD (or, with `value`, PADV2) model on int8 `[.., ..]` data quantized (0.1, zp).
    pub(crate) fn model(kind: OpKind, in_shape: &[usize], pads: &[i32], out_shape: &[usize], zp: i64, value: Option<(i8, (f32, i64))>) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.1, zp)));
        let p = b.constant_i32("paddings", &[in_shape.len(), 2], pads, None);
        let mut ins = vec![Some(x), Some(p)];
        if let Some((v, q)) = value {
            ins.push(Some(b.constant_i8("value", &[], &[v], Some(q))));
        }
        let y = b.activation("y", DType::I8, out_shape, Some((0.1, zp)));
        b.op(kind, &ins, &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// Independent expectation: output at `idx` is the input at `idx - before` when inside.
    pub(crate) fn expected(in_shape: &[usize], pads: &[i32], data: &[i8], v: i8) -> (Vec<usize>, Vec<i8>) {
        let out_shape: Vec<usize> = in_shape.iter().enumerate().map(|(d, &n)| n + pads[2 * d] as usize + pads[2 * d + 1] as usize).collect();
        let out = (0..out_shape.iter().product())
            .map(|i| {
                let idx = unravel(i, &out_shape);
                let mut src = Vec::new();
                for (d, &o) in idx.iter().enumerate() {
                    let b = pads[2 * d] as usize;
                    if o < b || o >= b + in_shape[d] {
                        return v;
                    }
                    src.push(o - b);
                }
                data[ravel(&src, in_shape)]
            })
            .collect();
        (out_shape, out)
    }

    pub(crate) fn check(kind: OpKind, in_shape: &[usize], pads: &[i32], zp: i64, value: Option<i8>) {
        let data = i8s(21, in_shape.iter().product());
        let (out_shape, want) = expected(in_shape, pads, &data, value.unwrap_or(zp as i8));
        let (bytes, x, y) = model(kind, in_shape, pads, &out_shape, zp, value.map(|v| (v, (0.1, zp))));
        let s = run_op0(&bytes, &[(x, TensorData::I8(data))]);
        assert_eq!(i8_of(&s, y), want, "shape {in_shape:?} pads {pads:?}");
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, 1));
        assert!(text.contains("kernels :: pad :: pad_s8 (& P0"), "{text}");
        let v = value.unwrap_or(zp as i8);
        let lit = if v < 0 { format!("pad_value : - {}", -(v as i16)) } else { format!("pad_value : {v}") };
        assert!(text.contains(&lit), "{lit} in {text}");
    }

    #[test]
    fn every_edge_and_rank() {
        check(OpKind::Pad, &[1, 5, 6, 3], &[0, 0, 1, 2, 2, 1, 0, 0], 2, None);
        check(OpKind::Pad, &[1, 2, 3, 3], &[1, 0, 0, 3, 2, 0, 1, 1], -128, None);
        check(OpKind::Pad, &[4], &[3, 0], 127, None);
        check(OpKind::Pad, &[2, 3], &[0, 0, 0, 0], -5, None);
        check(OpKind::Pad, &[2, 1, 2, 1, 2], &[1, 1, 0, 2, 1, 0, 2, 2, 0, 1], 0, None);
        check(OpKind::Pad, &[0, 2], &[1, 1, 1, 0], 7, None);
    }

    #[test]
    fn float_and_int32() {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::F32, &[2], None);
        let p = b.constant_i32("paddings", &[1, 2], &[1, 2], None);
        let y = b.activation("y", DType::F32, &[5], None);
        b.op(OpKind::Pad, &[Some(x), Some(p)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let bytes = b.finish();
        let s = run_op0(&bytes, &[(x, TensorData::F32(vec![1.5, -2.5]))]);
        assert_eq!(s.get(y), Some(&TensorData::F32(vec![0.0, 1.5, -2.5, 0.0, 0.0])));
        let (text, _, _) = emit_op0(&bytes);
        assert!(text.contains("PadParams < 'static , f32 >") && text.contains("kernels :: pad :: pad (& P0"), "{text}");

        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I32, &[2], None);
        let p = b.constant_i32("paddings", &[1, 2], &[0, 1], None);
        let c = b.constant_i32("c", &[1], &[-9], None);
        let y = b.activation("y", DType::I32, &[3], None);
        b.op(OpKind::PadV2, &[Some(x), Some(p), Some(c)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        let s = run_op0(&b.finish(), &[(x, TensorData::I32(vec![4, 5]))]);
        assert_eq!(s.get(y), Some(&TensorData::I32(vec![4, 5, -9])));
    }

    #[test]
    fn malformed_variants_are_errors() {
        // Wrong output shape, negative padding, paddings of the wrong shape.
        assert!(matches!(lower_err(&model(OpKind::Pad, &[2, 2], &[1, 1, 0, 0], &[3, 2], 0, None).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(OpKind::Pad, &[2, 2], &[-1, 1, 0, 0], &[2, 2], 0, None).0), LowerError::Invalid { .. }));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 2], Some((0.1, 0)));
        let p = b.constant_i32("paddings", &[4], &[1, 1, 0, 0], None);
        let y = b.activation("y", DType::I8, &[4, 2], Some((0.1, 0)));
        b.op(OpKind::Pad, &[Some(x), Some(p)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
        // Computed paddings.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 2], Some((0.1, 0)));
        let p = b.activation("paddings", DType::I32, &[2, 2], None);
        let y = b.activation("y", DType::I8, &[4, 2], Some((0.1, 0)));
        b.op(OpKind::Pad, &[Some(x), Some(p)], &[y]);
        b.inputs(&[x, p]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
        // Missing paddings.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, &[2, 2], Some((0.1, 0)));
        let y = b.activation("y", DType::I8, &[2, 2], Some((0.1, 0)));
        b.op(OpKind::Pad, &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Invalid { .. }));
        // int8 pad value with another quantization.
        assert!(matches!(
            lower_err(&model(OpKind::PadV2, &[2, 2], &[1, 1, 0, 0], &[4, 2], 0, Some((3, (0.2, 0)))).0),
            LowerError::Unsupported { .. }
        ));
    }
}
