//! ARG_MAX and ARG_MIN: the index of the largest (smallest) value along a constant int32
//! axis, float32 or int8 input, int32 output (TFLite Micro `arg_min_max.cc`: int32 axis
//! and output only, input float32 or int8; the values compared raw, quantization unused).
//! The output is the input's shape without the axis; an empty axis is refused (TFLite
//! Micro would read past the input).

use super::movement::{get, put};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::arg_min_max::{arg_min_max, ArgMinMaxParams};

crate::runtime_struct_lit!(kernels::arg_min_max::ArgMinMaxParams { outer, axis_size, inner, max });

/// A lowered ARG_MAX / ARG_MIN.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgMinMax {
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub params: ArgMinMaxParams,
}

pub(crate) fn lower_arg_min_max(cx: &OpCx<'_, '_>, max: bool) -> Result<ArgMinMax, LowerError> {
    let name = if max { "ARG_MAX" } else { "ARG_MIN" };
    cx.expect_arity(2..=2, 1)?;
    let (input, axis, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    cx.expect_activation(output)?;
    if !matches!(input.dtype, DType::F32 | DType::I8) {
        return Err(cx.unsupported_tensor(input, format!("element type {} (TFLite Micro's {name} takes float32 and int8)", input.dtype)));
    }
    if output.dtype != DType::I32 {
        return Err(cx.unsupported_tensor(output, format!("index type {} (TFLite Micro's {name} writes int32 only)", output.dtype)));
    }
    let a = cx.const_i32(axis)?;
    let rank = input.shape.len();
    let &[a] = a.as_slice() else {
        return Err(cx.invalid_tensor(axis, format!("{} axis values (expected one)", a.len())));
    };
    let r = rank as i64;
    let d = if a < 0 { i64::from(a) + r } else { i64::from(a) };
    if rank == 0 || !(0..r).contains(&d) {
        return Err(cx.invalid_tensor(axis, format!("axis {a} is out of range for rank {rank}")));
    }
    let d = d as usize;
    let mut expected = input.shape.clone();
    let axis_size = expected.remove(d);
    if output.shape != expected {
        return Err(cx.invalid_tensor(output, format!("output shape {:?}, but dropping axis {d} of {:?} gives {expected:?}", output.shape, input.shape)));
    }
    if axis_size == 0 {
        return Err(cx.unsupported_tensor(input, format!("axis {d} of {:?} is empty", input.shape)));
    }
    let params = ArgMinMaxParams { outer: input.shape[..d].iter().product(), axis_size, inner: input.shape[d + 1..].iter().product(), max };
    Ok(ArgMinMax { input: input.id, output: output.id, dtype: input.dtype, params })
}

impl ArgMinMax {
    fn run<T: super::movement::Elem + PartialOrd>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let x = get::<T>(s, self.input)?;
        if x.len() != p.outer * p.axis_size * p.inner {
            return Err(ExecError(format!("input has {} elements", x.len())));
        }
        let mut out = vec![0i32; p.outer * p.inner];
        arg_min_max(p, x, &mut out);
        put(s, self.output, out);
        Ok(())
    }
}

impl Kernel for ArgMinMax {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self.dtype {
            DType::I8 => self.run::<i8>(s),
            _ => self.run::<f32>(s),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::arg_min_max::ArgMinMaxParams }, &self.params);
        let (x, y) = (cx.input(self.input), cx.output(self.output));
        quote! { #rt::kernels::arg_min_max::arg_min_max(&#p, #x, #y); }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::reduce::tests::{check, vector};
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use crate::ir::{DType, OpKind};

    fn model(kind: OpKind, dtype: DType, shape: &[usize], axis: &[i32], out: &[usize], out_dtype: DType) -> (Vec<u8>, [crate::ir::TensorId; 2]) {
        let q = (dtype == DType::I8).then_some((0.5, 3));
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", dtype, shape, q);
        let a = m.constant_i32("axis", &[axis.len()], axis, None);
        let y = m.activation("y", out_dtype, out, None);
        m.op(kind, &[Some(x), Some(a)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        (m.finish(), [x, y])
    }

    const CASES: &[(&[usize], i32, &[usize])] = &[(&[4, 6, 5], 1, &[4, 5]), (&[4, 6, 5], -1, &[4, 6]), (&[7, 3], 0, &[3]), (&[9], 0, &[]), (&[2, 1, 3], 1, &[2, 3])];

    /// Every case in int8 (small value range, so ties occur) and float32 (NaN among the
    /// values), against TFLite Micro; and the refusals.
    pub(crate) fn check_all(kind: OpKind, prefix: &str, vectors: &[(&str, &[i32])]) {
        for (k, &(shape, axis, out)) in CASES.iter().enumerate() {
            let n: usize = shape.iter().product();
            let xq: Vec<i8> = i8s(140 + k as u64, n).iter().map(|&v| v / 40).collect();
            let (bytes, [x, y]) = model(kind.clone(), DType::I8, shape, &[axis], out, DType::I32);
            let name = format!("{prefix}_s8_{k}");
            check(&name, &bytes, &[(x, TensorData::I8(xq))], y, vector(vectors, &name));
            let mut xf: Vec<f32> = i8s(150 + k as u64, n).iter().map(|&v| f32::from(v) * 0.1).collect();
            for v in xf.iter_mut().step_by(7) {
                *v = f32::NAN;
            }
            let (bytes, [x, y]) = model(kind.clone(), DType::F32, shape, &[axis], out, DType::I32);
            let name = format!("{prefix}_f32_{k}");
            check(&name, &bytes, &[(x, TensorData::F32(xf))], y, vector(vectors, &name));
        }
        expect_unsupported(&model(kind.clone(), DType::I32, &[3, 2], &[0], &[2], DType::I32).0);
        expect_unsupported(&model(kind.clone(), DType::F32, &[3, 2], &[0], &[2], DType::I64).0);
        expect_unsupported(&model(kind.clone(), DType::F32, &[0, 2], &[0], &[2], DType::I32).0);
        expect_invalid(&model(kind.clone(), DType::F32, &[3, 2], &[2], &[3], DType::I32).0);
        expect_invalid(&model(kind.clone(), DType::F32, &[3, 2], &[0, 1], &[2], DType::I32).0);
        expect_invalid(&model(kind, DType::F32, &[3, 2], &[0], &[3], DType::I32).0);
    }
}
