//! CAST: TFLite Micro `cast.cc`, `static_cast` per element, from int8, int16, int32,
//! uint32 or float32 to int8, int16, int32, uint32 or float32 (TFLite Micro's other pairs:
//! bool inputs, which generated code has no arena view for, are refused). Quantization is
//! ignored, as TFLite Micro ignores it: CAST converts raw values. The runtime kernel is the
//! generic `kernels::cast::cast::<A, B>`.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::cast::cast;

const TYPES: [DType; 5] = [DType::I8, DType::I16, DType::I32, DType::U32, DType::F32];

#[derive(Debug, Clone, PartialEq)]
pub struct Cast {
    pub input: TensorId,
    pub output: TensorId,
    pub from: DType,
    pub to: DType,
    pub len: usize,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Cast, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    cx.expect_activation(output)?;
    for t in [input, output] {
        if !TYPES.contains(&t.dtype) {
            return Err(cx.unsupported_tensor(t, format!("element type {} (CAST converts int8, int16, int32, uint32 and float32)", t.dtype)));
        }
    }
    if input.num_elements() != output.num_elements() {
        return Err(cx.invalid_tensor(output, format!("{} elements, the input has {}", output.num_elements(), input.num_elements())));
    }
    Ok(Cast { input: input.id, output: output.id, from: input.dtype, to: output.dtype, len: input.num_elements() })
}

fn run<A: tflc_runtime::kernels::cast::CastTo<B>, B: Default + Clone>(x: &[A], n: usize) -> Vec<B> {
    let mut y = vec![B::default(); n];
    cast(x, &mut y);
    y
}

macro_rules! cast_from {
    ($x:expr, $n:expr, $to:expr) => {
        match $to {
            DType::I8 => TensorData::I8(run($x, $n)),
            DType::I16 => TensorData::I16(run($x, $n)),
            DType::I32 => TensorData::I32(run($x, $n)),
            DType::U32 => TensorData::U32(run($x, $n)),
            DType::F32 => TensorData::F32(run($x, $n)),
            other => return Err(ExecError(format!("CAST to {other}"))),
        }
    };
}

impl Kernel for Cast {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let n = self.len;
        let y = match self.from {
            DType::I8 => cast_from!(s.i8(self.input)?, n, self.to),
            DType::I16 => cast_from!(s.i16(self.input)?, n, self.to),
            DType::I32 => cast_from!(s.i32(self.input)?, n, self.to),
            DType::U32 => cast_from!(s.u32(self.input)?, n, self.to),
            DType::F32 => cast_from!(s.f32(self.input)?, n, self.to),
            other => return Err(ExecError(format!("CAST from {other}"))),
        };
        if y.to_le_bytes().len() != n * self.to.size().unwrap_or(0) {
            return Err(ExecError(format!("CAST: input {} does not have {n} elements", self.input)));
        }
        s.insert(self.output, y);
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (x, y) = (cx.input(self.input), cx.output(self.output));
        let a = format_ident!("{}", self.from.rust_name().unwrap_or("u8"));
        let b = format_ident!("{}", self.to.rust_name().unwrap_or("u8"));
        quote! { #rt::kernels::cast::cast::<#a, #b>(#x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};
    use crate::tflite::builder::ModelBuilder;

    fn model(from: DType, to: DType, n: usize) -> (Vec<u8>, crate::ir::TensorId, crate::ir::TensorId) {
        let mut m = ModelBuilder::new();
        let x = m.activation("x", from, &[n], None);
        let y = m.activation("y", to, &[n], None);
        m.op(OpKind::Cast, &[Some(x)], &[y]);
        m.inputs(&[x]);
        m.outputs(&[y]);
        (m.finish(), x, y)
    }

    #[test]
    fn the_audio_front_ends_pairs() {
        let (b, x, y) = model(DType::U32, DType::I32, 3);
        let s = run_op0("cast_u32_i32", &b, &[(x, TensorData::U32(vec![0, 0x8000_0000, 7]))]);
        assert_eq!(s.i32(y).unwrap(), &[0, i32::MIN, 7]);
        let (b, x, y) = model(DType::I32, DType::U32, 2);
        let s = run_op0("cast_i32_u32", &b, &[(x, TensorData::I32(vec![-1, 5]))]);
        assert_eq!(s.u32(y).unwrap(), &[u32::MAX, 5]);
        let (b, x, y) = model(DType::I16, DType::I32, 2);
        let s = run_op0("cast_i16_i32", &b, &[(x, TensorData::I16(vec![-32768, 32767]))]);
        assert_eq!(s.i32(y).unwrap(), &[-32768, 32767]);
        // int32 to int8 keeps the low byte (static_cast), it does not saturate.
        let (b, x, y) = model(DType::I32, DType::I8, 4);
        let s = run_op0("cast_i32_i8", &b, &[(x, TensorData::I32(vec![-128, 127, 128, 300]))]);
        assert_eq!(out_i8(&s, y), vec![-128, 127, -128, 44]);
    }

    #[test]
    fn unsupported_and_malformed() {
        expect_unsupported(&model(DType::Bool, DType::I32, 2).0);
        expect_unsupported(&model(DType::I32, DType::I64, 2).0);
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I32, &[3], None);
        let y = m.activation("y", DType::I8, &[4], None);
        m.op(OpKind::Cast, &[Some(x)], &[y]);
        m.inputs(&[x]);
        m.outputs(&[y]);
        expect_invalid(&m.finish());
    }
}
