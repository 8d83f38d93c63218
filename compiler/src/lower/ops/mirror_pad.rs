//! MIRROR_PAD: TFLite Micro `mirror_pad.cc` (int8 and float32). `paddings` is a constant
//! int32 or int64 `[rank, 2]` tensor of `(before, after)` pairs; mode REFLECT mirrors
//! about the edge element, SYMMETRIC about the edge. Each padding is at most the
//! dimension's size (minus one for REFLECT): TFLite's rule, which TFLite Micro does not
//! check (it would read out of bounds). A mode code outside the schema's two is refused
//! (TFLite Micro would run it as SYMMETRIC). The output is `before + size + after` per
//! dimension. The per-dimension index tables are computed here with the runtime's
//! [`mirror_index`] (TFLite Micro's `GetInputDimension`); runtime
//! `tflc_runtime::kernels::mirror_pad`.

use super::movement::{const_ints, expect_one_of, expect_shape, get, kernel_fn, lower_copy, put, with_elem, Elem};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::mirror_pad::{mirror_index, mirror_pad, MirrorPadParams};
use tflc_runtime::kernels::nd::{row_major_strides, MAX_RANK};

crate::runtime_struct_lit!(kernels::mirror_pad::MirrorPadParams<'a> { out_shape, offsets });

#[derive(Debug, Clone, PartialEq)]
pub struct MirrorPad {
    pub input: TensorId,
    pub output: TensorId,
    pub dtype: DType,
    pub input_len: usize,
    pub out_shape: Vec<usize>,
    pub offsets: Vec<usize>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, mode: i8) -> Result<MirrorPad, LowerError> {
    let (input, output, dtype) = lower_copy(cx, 2)?;
    expect_one_of(cx, input, &[DType::I8, DType::F32], "MIRROR_PAD")?;
    let offset = match mode {
        0 => 1, // REFLECT
        1 => 0, // SYMMETRIC
        m => return Err(cx.unsupported(format!("mirror padding mode {m} (REFLECT is 0, SYMMETRIC 1)"))),
    };
    let rank = input.shape.len();
    if rank == 0 || rank > MAX_RANK {
        return Err(cx.unsupported_tensor(input, format!("rank {rank} (1 to {MAX_RANK} are supported)")));
    }
    let pads_t = cx.input(1)?;
    if pads_t.shape != [rank, 2] {
        return Err(cx.invalid_tensor(pads_t, format!("shape {:?}, expected [{rank}, 2]", pads_t.shape)));
    }
    let pads = const_ints(cx, pads_t)?;
    if pads.len() != rank * 2 {
        return Err(cx.invalid_tensor(pads_t, format!("{} values, expected {}", pads.len(), rank * 2)));
    }
    let mut out_shape = Vec::with_capacity(rank);
    let mut lefts = Vec::with_capacity(rank);
    for (d, &n) in input.shape.iter().enumerate() {
        let limit = n.saturating_sub(offset);
        let side = |v: i64| usize::try_from(v).ok().filter(|&v| v <= limit);
        let (Some(l), Some(r)) = (side(pads[2 * d]), side(pads[2 * d + 1])) else {
            return Err(cx.invalid_tensor(
                pads_t,
                format!("paddings ({}, {}) of dimension {d} (size {n}) must be 0 to {limit} for this mode", pads[2 * d], pads[2 * d + 1]),
            ));
        };
        out_shape.push(n + l + r);
        lefts.push(l);
    }
    expect_shape(cx, output, &out_shape)?;
    let strides = row_major_strides(&input.shape);
    let mut offsets = Vec::with_capacity(out_shape.iter().sum());
    for d in 0..rank {
        offsets.extend((0..out_shape[d]).map(|o| mirror_index(o, lefts[d], input.shape[d], offset) * strides[d]));
    }
    Ok(MirrorPad { input: input.id, output: output.id, dtype, input_len: input.num_elements(), out_shape, offsets })
}

impl MirrorPad {
    fn params(&self) -> MirrorPadParams<'_> {
        MirrorPadParams { out_shape: &self.out_shape, offsets: &self.offsets }
    }

    fn run<T: Elem>(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let x = get::<T>(s, self.input)?;
        if x.len() != self.input_len {
            return Err(ExecError(format!("MIRROR_PAD: input {} has {} elements, expected {}", self.input, x.len(), self.input_len)));
        }
        let mut y = vec![T::default(); self.out_shape.iter().product()];
        mirror_pad(&self.params(), x, &mut y);
        put(s, self.output, y);
        Ok(())
    }
}

impl Kernel for MirrorPad {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        with_elem!(self.dtype, T => self.run::<T>(s))
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::mirror_pad::MirrorPadParams<'static> }, &self.params());
        let f = kernel_fn(cx, "mirror_pad", "mirror_pad", self.dtype);
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #f(&#p, #x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::{emit_op0, lower_err};
    use super::super::test_helpers::{check_vector, i8s, run_op0};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(dtype: DType, in_shape: &[usize], pads: &[i32], mode: i8, out_shape: &[usize]) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype == DType::I8).then_some((0.05, -5));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, in_shape, q);
        let p = b.constant_i32("paddings", &[in_shape.len(), 2], pads, None);
        let y = b.activation("y", dtype, out_shape, q);
        b.op(OpKind::MirrorPad { mode }, &[Some(x), Some(p)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    /// TFLite Micro's outputs (tools/op_test_vectors.py): REFLECT and SYMMETRIC at their
    /// largest paddings, and an unpadded dimension.
    #[test]
    fn int8_matches_tflite_micro() {
        let (bytes, x, y) = model(DType::I8, &[1, 3, 4, 2], &[0, 0, 2, 1, 3, 2, 0, 1], 0, &[1, 6, 9, 3]);
        check_vector("mirror_pad_s8_reflect", &bytes, &[(x, TensorData::I8(i8s(71, 24)))], y, WANT_REFLECT);
        let (bytes, x, y) = model(DType::I8, &[3, 4], &[3, 1, 0, 4], 1, &[7, 8]);
        check_vector("mirror_pad_s8_symmetric", &bytes, &[(x, TensorData::I8(i8s(72, 12)))], y, WANT_SYMMETRIC);
        let (text, ..) = emit_op0(&bytes);
        assert!(text.contains("kernels :: mirror_pad :: mirror_pad_s8 (& P0 ,"), "{text}");
    }

    #[test]
    fn float32() {
        let (bytes, x, y) = model(DType::F32, &[3], &[2, 2], 0, &[7]);
        let s = run_op0("mirror_pad_f32", &bytes, &[(x, TensorData::F32(vec![1.0, 2.0, 3.0]))]);
        assert_eq!(s.f32(y).unwrap(), &[3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]);
        let (bytes, x, y) = model(DType::F32, &[3], &[3, 1], 1, &[7]);
        let s = run_op0("mirror_pad_f32_symmetric", &bytes, &[(x, TensorData::F32(vec![1.0, 2.0, 3.0]))]);
        assert_eq!(s.f32(y).unwrap(), &[3.0, 2.0, 1.0, 1.0, 2.0, 3.0, 3.0]);
    }

    #[test]
    fn malformed_and_unsupported() {
        let inv = |b: &[u8]| matches!(lower_err(b), LowerError::Invalid { .. });
        assert!(inv(&model(DType::I8, &[3], &[3, 0], 0, &[6]).0));
        assert!(inv(&model(DType::I8, &[3], &[4, 0], 1, &[7]).0));
        assert!(inv(&model(DType::I8, &[3], &[-1, 0], 1, &[2]).0));
        assert!(inv(&model(DType::I8, &[3], &[1, 1], 1, &[6]).0));
        assert!(matches!(lower_err(&model(DType::I8, &[3], &[1, 1], 2, &[5]).0), LowerError::Unsupported { .. }));
        assert!(matches!(lower_err(&model(DType::I16, &[3], &[1, 1], 0, &[5]).0), LowerError::Unsupported { .. }));
    }

    const WANT_REFLECT: &[i8] = &[
        -127, -5, -127, 68, 56, 68, 29, -87, 29, 76, 59, 76, 29, -87, 29, 68, 56, 68, -127, -5, -127,
        68, 56, 68, 29, -87, 29, -71, 106, -71, 51, 89, 51, -107, 115, -107, 23, 19, 23, -107, 115,
        -107, 51, 89, 51, -71, 106, -71, 51, 89, 51, -107, 115, -107, -44, 24, -44, -57, -104, -57,
        -54, 114, -54, 118, 26, 118, -54, 114, -54, -57, -104, -57, -44, 24, -44, -57, -104, -57, -54,
        114, -54, -71, 106, -71, 51, 89, 51, -107, 115, -107, 23, 19, 23, -107, 115, -107, 51, 89, 51,
        -71, 106, -71, 51, 89, 51, -107, 115, -107, -127, -5, -127, 68, 56, 68, 29, -87, 29, 76, 59,
        76, 29, -87, 29, 68, 56, 68, -127, -5, -127, 68, 56, 68, 29, -87, 29, -71, 106, -71, 51, 89,
        51, -107, 115, -107, 23, 19, 23, -107, 115, -107, 51, 89, 51, -71, 106, -71, 51, 89, 51, -107,
        115, -107,
    ];
    const WANT_SYMMETRIC: &[i8] = &[
        -112, -11, 40, -44, -44, 40, -11, -112, -123, -100, 90, -125, -125, 90, -100, -123, 104, -59,
        -122, 51, 51, -122, -59, 104, 104, -59, -122, 51, 51, -122, -59, 104, -123, -100, 90, -125,
        -125, 90, -100, -123, -112, -11, 40, -44, -44, 40, -11, -112, -112, -11, 40, -44, -44, 40, -11,
        -112,
    ];
}
