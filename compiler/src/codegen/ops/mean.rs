//! MEAN, int8 in and out, over the axes of a constant int32 second input.
//!
//! Mirrors TFLite Micro `reduce.cc` / `reduce_common.cc`: every int8 MEAN goes through
//! `PrepareMeanOrSumHelper` (`QuantizeMultiplier(double(in_scale) / double(out_scale))`) and
//! `EvalIntegerMean` -> reference `QuantizedMeanOrSum`, whether or not the input and output
//! quantization are equal (there is no special 4-D / equal-scale path for int8 in TFLite
//! Micro). Axes are resolved as TFLite's `ResolveAxis` does (negative axes count from the
//! end, duplicates are ignored, out-of-range is an error). Everything that depends only
//! on shapes (the `1/n` folded into the multiplier, the `-zp * n` offset) is computed here
//! ([`tflc_runtime::prepare::mean_s8`]). Shapes of rank below 4 are padded with leading 1s.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::codegen::emit::{array, int, EmitCx};
use crate::error::LowerError;
use crate::ir::{OpKind, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::mean::{mean_s8, MeanParams};

#[derive(Debug, Clone, PartialEq)]
pub struct Mean {
    pub input: TensorId,
    pub output: TensorId,
    /// Input shape padded to rank 4 with leading 1s.
    pub input_shape: [usize; 4],
    pub reduce_axes: [bool; 4],
    pub multiplier: i32,
    pub shift: i32,
    pub sum_offset: i32,
    pub output_offset: i32,
}

/// TFLite `ResolveAxis`: the distinct axes in `0..rank`, in first-seen order; `None` if
/// one is out of range.
fn resolve_axes(rank: usize, axes: &[i32]) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for &a in axes {
        let r = i64::try_from(rank).ok()?;
        let a = if a < 0 { a as i64 + r } else { a as i64 };
        if !(0..r).contains(&a) {
            return None;
        }
        let a = a as usize;
        if !out.contains(&a) {
            out.push(a);
        }
    }
    Some(out)
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Mean, LowerError> {
    let OpKind::Mean { keep_dims } = &cx.op.kind else { return Err(cx.invalid("not a MEAN")) };
    cx.expect_arity(2..=2, 1)?;
    let input = cx.input(0)?;
    let axis = cx.input(1)?;
    let output = cx.output(0)?;
    cx.expect_activation(input)?;
    let in_q = cx.q_s8(input)?;
    let out_q = cx.q_s8(output)?;
    let axes = cx.const_i32(axis)?;

    let rank = input.shape.len();
    if rank == 0 || rank > 4 {
        return Err(cx.unsupported_tensor(input, format!("input of rank {rank} (tflc's MEAN takes ranks 1 to 4)")));
    }
    if input.shape.contains(&0) {
        return Err(cx.unsupported_tensor(input, format!("input of shape {:?} is empty", input.shape)));
    }
    let resolved = resolve_axes(rank, &axes)
        .ok_or_else(|| cx.invalid_tensor(axis, format!("axes {axes:?} are out of range for rank {rank}")))?;

    // The output shape TFLite's Prepare gives.
    let expected: Vec<usize> = input
        .shape
        .iter()
        .enumerate()
        .filter_map(|(d, &n)| match (resolved.contains(&d), keep_dims) {
            (true, true) => Some(1),
            (true, false) => None,
            (false, _) => Some(n),
        })
        .collect();
    if output.shape != expected {
        return Err(cx.invalid_tensor(
            output,
            format!("output shape {:?}, but reducing {:?} over axes {resolved:?} gives {expected:?}", output.shape, input.shape),
        ));
    }

    let pad = 4 - rank;
    let mut input_shape = [1usize; 4];
    let mut reduce_axes = [false; 4];
    for (d, &n) in input.shape.iter().enumerate() {
        input_shape[pad + d] = n;
        reduce_axes[pad + d] = resolved.contains(&d);
    }
    let n: usize = resolved.iter().filter_map(|&d| input.shape.get(d)).product();
    let q = tflc_runtime::prepare::mean_s8(in_q.scale, in_q.zero_point, out_q.scale, n)
        .ok_or_else(|| cx.invalid(format!("the scale ratio {} / {} cannot be quantized", in_q.scale, out_q.scale)))?;
    Ok(Mean {
        input: input.id,
        output: output.id,
        input_shape,
        reduce_axes,
        multiplier: q.multiplier,
        shift: q.shift,
        sum_offset: q.sum_offset,
        output_offset: out_q.zero_point,
    })
}

impl Mean {
    /// The runtime's parameter struct.
    pub fn params(&self) -> MeanParams {
        MeanParams {
            input_shape: self.input_shape,
            reduce_axes: self.reduce_axes,
            multiplier: self.multiplier,
            shift: self.shift,
            sum_offset: self.sum_offset,
            output_offset: self.output_offset,
        }
    }

    fn output_len(&self) -> usize {
        self.input_shape.iter().zip(self.reduce_axes).map(|(&d, r)| if r { 1 } else { d }).product()
    }
}

impl Kernel for Mean {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let mut out = s.take_i8(self.output, self.output_len());
        let input = s.i8(self.input)?;
        let n: usize = self.input_shape.iter().product();
        if input.len() != n {
            return Err(ExecError(format!("MEAN: input has {} elements, expected {n}", input.len())));
        }
        mean_s8(&self.params(), input, &mut out);
        s.insert(self.output, TensorData::I8(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let is = array(&self.input_shape);
        let axes = self.reduce_axes.iter().map(|&b| if b { quote! { true } } else { quote! { false } });
        let (m, sh) = (int(self.multiplier as i64), int(self.shift as i64));
        let (so, oo) = (int(self.sum_offset as i64), int(self.output_offset as i64));
        let p = cx.params(
            quote! { #rt::kernels::mean::MeanParams },
            quote! {
                #rt::kernels::mean::MeanParams {
                    input_shape: #is,
                    reduce_axes: [#(#axes),*],
                    multiplier: #m,
                    shift: #sh,
                    sum_offset: #so,
                    output_offset: #oo,
                }
            },
        );
        let input = cx.input(self.input);
        let output = cx.output(self.output);
        quote! { #rt::kernels::mean::mean_s8(&#p, #input, #output); }
    }
}
