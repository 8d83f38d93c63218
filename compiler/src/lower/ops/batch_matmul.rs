//! BATCH_MATMUL(lhs, rhs): TFLite Micro `batch_matmul.cc` for float32, int8 and int16 (both
//! operands and the output of one type; ranks 2..=5; `adj_x` / `adj_y`; batch dimensions
//! equal or 1, broadcast).
//!
//! Prepare as TFLite Micro's: int8 and int16 per-tensor quantization, one multiplier
//! `QuantizeMultiplier(double(float(s_lhs * s_rhs)) / double(s_out))` (the product in
//! float32, as `GetQuantizedConvolutionMultipler` without a bias computes it), the clamp the
//! output type's full range (the op has no fused activation); int16 zero points 0 on all
//! three tensors. The output must hold as many elements as the broadcast shape (TFLite
//! Micro's `ReshapeOutputTensor` check).
//!
//! A constant RHS stored `[.., depth, cols]` (`adj_y` false) is transposed at compile time
//! into a table `[.., cols, depth]` and the kernel runs with `adj_y` set: TFLite Micro's
//! first `Eval` does the same transposition into a persistent buffer.

use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{DType, Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::batch_matmul::{batch_matmul_f32, batch_matmul_s16, batch_matmul_s8, BatchMatmulParams, MatmulNumerics, MatmulQuantS16, MatmulQuantS8, S16x16};
use tflc_runtime::kernels::numerics::{F32, S8};
use tflc_runtime::prepare::quantize_multiplier;

crate::runtime_struct_lit!(kernels::batch_matmul::MatmulQuantS8<'a> { quant, rhs_offset });
crate::runtime_struct_lit!(kernels::batch_matmul::MatmulQuantS16 { output_multiplier, output_shift });

/// A numerics the generated code names.
trait Named: MatmulNumerics {
    fn path(rt: &TokenStream) -> TokenStream;
}

impl Named for S8 {
    fn path(rt: &TokenStream) -> TokenStream {
        quote! { #rt::kernels::numerics::S8 }
    }
}

impl Named for S16x16 {
    fn path(rt: &TokenStream) -> TokenStream {
        quote! { #rt::kernels::batch_matmul::S16x16 }
    }
}

impl Named for F32 {
    fn path(rt: &TokenStream) -> TokenStream {
        quote! { #rt::kernels::numerics::F32 }
    }
}

impl<'a, M: Named> Lit for BatchMatmulParams<'a, M>
where
    M::Quant<'a>: Lit,
{
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let BatchMatmulParams { lhs_batch, rhs_batch, rows, depth, cols, adj_x, adj_y, quant } = self;
        let (lb, rb, m, k, n, ax, ay, q) = (lhs_batch.lit(rt), rhs_batch.lit(rt), rows.lit(rt), depth.lit(rt), cols.lit(rt), adj_x.lit(rt), adj_y.lit(rt), quant.lit(rt));
        quote! {
            #rt::kernels::batch_matmul::BatchMatmulParams {
                lhs_batch: #lb, rhs_batch: #rb, rows: #m, depth: #k, cols: #n, adj_x: #ax, adj_y: #ay, quant: #q
            }
        }
    }
}

/// The shape part of the params (the quantization is per scheme).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatmulShape {
    pub lhs_batch: [usize; 3],
    pub rhs_batch: [usize; 3],
    pub rows: usize,
    pub depth: usize,
    pub cols: usize,
    pub adj_x: bool,
    pub adj_y: bool,
}

impl MatmulShape {
    fn params<'q, M: MatmulNumerics>(&self, quant: M::Quant<'q>) -> BatchMatmulParams<'q, M> {
        let MatmulShape { lhs_batch, rhs_batch, rows, depth, cols, adj_x, adj_y } = *self;
        BatchMatmulParams { lhs_batch, rhs_batch, rows, depth, cols, adj_x, adj_y, quant }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum MatmulScheme {
    /// int8: `(input_offset, rhs_offset, output_offset, multiplier, shift)` held as tables.
    S8 { input_offset: i32, rhs_offset: i32, output_offset: i32, multiplier: [i32; 1], shift: [i32; 1] },
    S16(MatmulQuantS16),
    F32,
}

/// A constant RHS transposed at compile time, in its element type.
#[derive(Debug, Clone, PartialEq)]
pub enum PackedRhs {
    I8(Vec<i8>),
    I16(Vec<i16>),
    F32(Vec<f32>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct BatchMatmul {
    pub lhs: TensorId,
    pub rhs: TensorId,
    pub output: TensorId,
    pub shape: MatmulShape,
    pub scheme: MatmulScheme,
    /// `Some`: the RHS transposed at compile time (then `shape.adj_y` is set).
    pub packed: Option<PackedRhs>,
}

fn extended5(cx: &OpCx<'_, '_>, t: &Tensor<'_>) -> Result<[usize; 5], LowerError> {
    let s = &t.shape;
    if !(2..=5).contains(&s.len()) {
        return Err(cx.unsupported_tensor(t, format!("rank {} (TFLite Micro's BATCH_MATMUL takes ranks 2 to 5)", s.len())));
    }
    let mut e = [1; 5];
    e[5 - s.len()..].copy_from_slice(s);
    Ok(e)
}

/// `data` (`batches` matrices `[rows][cols]`) transposed per matrix.
fn transpose<T: Copy>(data: &[T], batches: usize, rows: usize, cols: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(data.len());
    for b in 0..batches {
        let m = &data[b * rows * cols..][..rows * cols];
        for c in 0..cols {
            for r in 0..rows {
                out.push(m[r * cols + c]);
            }
        }
    }
    out
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, adj_x: bool, adj_y: bool) -> Result<BatchMatmul, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let lhs = cx.input(0)?;
    let rhs = cx.input(1)?;
    let output = cx.output(0)?;
    if !matches!(lhs.dtype, DType::F32 | DType::I8 | DType::I16) {
        return Err(cx.unsupported_tensor(lhs, format!("{} operands (TFLite Micro's BATCH_MATMUL runs float32, int8 and int16)", lhs.dtype)));
    }
    for t in [rhs, output] {
        if t.dtype != lhs.dtype {
            return Err(cx.unsupported_tensor(t, format!("{} with a {} LHS (TFLite Micro requires one type)", t.dtype, lhs.dtype)));
        }
    }
    let (l, r) = (extended5(cx, lhs)?, extended5(cx, rhs)?);
    let (lhs_batch, rhs_batch): ([usize; 3], [usize; 3]) = ([l[0], l[1], l[2]], [r[0], r[1], r[2]]);
    for d in 0..3 {
        if lhs_batch[d] != rhs_batch[d] && lhs_batch[d] != 1 && rhs_batch[d] != 1 {
            return Err(cx.invalid_tensor(rhs, format!("batch dimensions {lhs_batch:?} and {rhs_batch:?} do not broadcast")));
        }
    }
    let (rows, depth) = if adj_x { (l[4], l[3]) } else { (l[3], l[4]) };
    let (depth_r, cols) = if adj_y { (r[4], r[3]) } else { (r[3], r[4]) };
    if depth != depth_r {
        return Err(cx.invalid_tensor(rhs, format!("accumulation depth {depth_r}, the LHS has {depth}")));
    }
    let out_batch: usize = (0..3).map(|d| lhs_batch[d].max(rhs_batch[d])).product();
    let want = out_batch * rows * cols;
    let out_shape = &output.shape;
    if output.num_elements() != want || out_shape.len() < lhs.shape.len().max(rhs.shape.len()) {
        return Err(cx.invalid_tensor(output, format!("output shape {out_shape:?}, but the operands give {want} elements")));
    }
    let scheme = match lhs.dtype {
        DType::F32 => MatmulScheme::F32,
        dtype => {
            let int16 = dtype == DType::I16;
            let q = |t: &Tensor<'_>| if int16 { cx.q_s16(t) } else { cx.q_s8(t) };
            let (ql, qr, qo) = (q(lhs)?, q(rhs)?, q(output)?);
            let real = (ql.scale * qr.scale) as f64 / qo.scale as f64;
            let (m, s) = quantize_multiplier(real).ok_or_else(|| cx.invalid_tensor(output, "the effective scale cannot be quantized"))?;
            if int16 {
                if s >= 8 {
                    return Err(cx.unsupported_tensor(output, format!("effective scale of 2^{} or more (16x8 requantization needs less than 128)", s - 1)));
                }
                MatmulScheme::S16(MatmulQuantS16 { output_multiplier: m, output_shift: s })
            } else {
                MatmulScheme::S8 { input_offset: -ql.zero_point, rhs_offset: -qr.zero_point, output_offset: qo.zero_point, multiplier: [m], shift: [s] }
            }
        }
    };
    let mut shape = MatmulShape { lhs_batch, rhs_batch, rows, depth, cols, adj_x, adj_y };
    let packed = match (rhs.data, adj_y) {
        (Some(bytes), false) => {
            let batches: usize = rhs_batch.iter().product();
            let n = batches * depth * cols;
            let width = lhs.dtype.size().unwrap_or(1);
            if bytes.len() != n * width {
                return Err(cx.invalid_tensor(rhs, format!("holds {} bytes for {n} elements", bytes.len())));
            }
            shape.adj_y = true;
            Some(match TensorData::from_le_bytes(rhs.dtype, bytes) {
                Some(TensorData::I8(v)) => PackedRhs::I8(transpose(&v, batches, depth, cols)),
                Some(TensorData::I16(v)) => PackedRhs::I16(transpose(&v, batches, depth, cols)),
                Some(TensorData::F32(v)) => PackedRhs::F32(transpose(&v, batches, depth, cols)),
                _ => return Err(cx.invalid_tensor(rhs, "unreadable constant")),
            })
        }
        _ => None,
    };
    Ok(BatchMatmul { lhs: lhs.id, rhs: rhs.id, output: output.id, shape, scheme, packed })
}

impl BatchMatmul {
    fn quant_s8<'q>(&self, multiplier: &'q [i32; 1], shift: &'q [i32; 1], input_offset: i32, rhs_offset: i32, output_offset: i32) -> MatmulQuantS8<'q> {
        let quant = tflc_runtime::kernels::numerics::QuantS8 { input_offset, output_offset, output_multiplier: multiplier, output_shift: shift };
        MatmulQuantS8 { quant, rhs_offset }
    }
}

impl Kernel for BatchMatmul {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let bad = |what: &str| ExecError(format!("BATCH_MATMUL: {what} has the wrong element count"));
        match (&self.scheme, &self.packed) {
            (MatmulScheme::S8 { input_offset, rhs_offset, output_offset, multiplier, shift }, packed) => {
                let p = self.shape.params::<S8>(self.quant_s8(multiplier, shift, *input_offset, *rhs_offset, *output_offset));
                let rhs = match packed {
                    Some(PackedRhs::I8(v)) => v.as_slice(),
                    _ => s.i8(self.rhs)?,
                };
                let lhs = s.i8(self.lhs)?;
                let [nl, nr, no] = tflc_runtime::kernels::batch_matmul::lengths(&p);
                if lhs.len() != nl || rhs.len() != nr {
                    return Err(bad("an operand"));
                }
                let mut out = vec![0; no];
                batch_matmul_s8(&p, lhs, rhs, &mut out);
                s.insert(self.output, TensorData::I8(out));
            }
            (MatmulScheme::S16(q), packed) => {
                let p = self.shape.params::<S16x16>(*q);
                let rhs = match packed {
                    Some(PackedRhs::I16(v)) => v.as_slice(),
                    _ => s.i16(self.rhs)?,
                };
                let lhs = s.i16(self.lhs)?;
                let [nl, nr, no] = tflc_runtime::kernels::batch_matmul::lengths(&p);
                if lhs.len() != nl || rhs.len() != nr {
                    return Err(bad("an operand"));
                }
                let mut out = vec![0; no];
                batch_matmul_s16(&p, lhs, rhs, &mut out);
                s.insert(self.output, TensorData::I16(out));
            }
            (MatmulScheme::F32, packed) => {
                let p = self.shape.params::<F32>(());
                let rhs = match packed {
                    Some(PackedRhs::F32(v)) => v.as_slice(),
                    _ => s.f32(self.rhs)?,
                };
                let lhs = s.f32(self.lhs)?;
                let [nl, nr, no] = tflc_runtime::kernels::batch_matmul::lengths(&p);
                if lhs.len() != nl || rhs.len() != nr {
                    return Err(bad("an operand"));
                }
                let mut out = vec![0.0; no];
                batch_matmul_f32(&p, lhs, rhs, &mut out);
                s.insert(self.output, TensorData::F32(out));
            }
        }
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let ty = |n: TokenStream| quote! { kernels::batch_matmul::BatchMatmulParams<'static, #n> };
        let (p, f) = match &self.scheme {
            MatmulScheme::S8 { input_offset, rhs_offset, output_offset, multiplier, shift } => {
                let params = self.shape.params::<S8>(self.quant_s8(multiplier, shift, *input_offset, *rhs_offset, *output_offset));
                (cx.params_lit(ty(<S8 as Named>::path(&rt)), &params), quote! { batch_matmul_s8 })
            }
            MatmulScheme::S16(q) => (cx.params_lit(ty(<S16x16 as Named>::path(&rt)), &self.shape.params::<S16x16>(*q)), quote! { batch_matmul_s16 }),
            MatmulScheme::F32 => (cx.params_lit(ty(<F32 as Named>::path(&rt)), &self.shape.params::<F32>(())), quote! { batch_matmul_f32 }),
        };
        let lhs = cx.input(self.lhs);
        let rhs = match &self.packed {
            Some(PackedRhs::I8(v)) => cx.table_i8("rhs", v),
            Some(PackedRhs::I16(v)) => cx.table_i16("rhs", v),
            Some(PackedRhs::F32(v)) => cx.table_f32("rhs", v),
            None => cx.input(self.rhs),
        };
        let output = cx.output(self.output);
        quote! { #rt::kernels::batch_matmul::#f(&#p, #lhs, #rhs, #output); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::{emit_op0, expect_invalid, expect_unsupported, i8s, run_op0};
    use super::super::TensorData;
    use crate::ir::{DType, OpKind, Quantization, TensorId};
    use crate::tflite::builder::ModelBuilder;

    /// `lhs x rhs` of `dtype`; `rhs_const` makes the RHS a constant from a fixed seed.
    /// int8: scales 0.05 / 0.03 / 0.2, zero points 5 / -9 / -3; int16: zero points 0.
    fn model(dtype: DType, lhs: &[usize], rhs: &[usize], out: &[usize], adj: (bool, bool), rhs_const: bool) -> (Vec<u8>, Vec<TensorId>, TensorId) {
        let q = |s: f32, z: i64| match dtype {
            DType::F32 => None,
            DType::I16 => Some((s / 64.0, 0)),
            _ => Some((s, z)),
        };
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, lhs, q(0.05, 5));
        let n: usize = rhs.iter().product();
        let y = if rhs_const {
            let v = i8s(21, 2 * n);
            let (data, quant): (Vec<u8>, _) = match dtype {
                DType::F32 => (v[..n].iter().flat_map(|&x| (x as f32 / 32.0).to_le_bytes()).collect(), None),
                DType::I16 => (v.chunks(2).flat_map(|c| i16::from_le_bytes([c[0] as u8, c[1] as u8]).to_le_bytes()).collect(), q(0.03, 0)),
                _ => (v[..n].iter().map(|&x| x as u8).collect(), q(0.03, -9)),
            };
            let quant = quant.map(|(s, z)| Quantization { scale: vec![s], zero_point: vec![z], axis: None });
            b.constant("w", dtype, rhs, data, quant)
        } else {
            b.activation("w", dtype, rhs, q(0.03, -9))
        };
        // int16: an output scale that keeps the products of full-range inputs in range.
        let z = b.activation("z", dtype, out, q(if dtype == DType::I16 { 51.2 } else { 0.2 }, -3));
        b.op(OpKind::BatchMatmul { adj_x: adj.0, adj_y: adj.1 }, &[Some(x), Some(y)], &[z]);
        let inputs = if rhs_const { vec![x] } else { vec![x, y] };
        b.inputs(&inputs).outputs(&[z]);
        (b.finish(), inputs, z)
    }

    fn data(dtype: DType, seed: u64, n: usize) -> TensorData {
        let v = i8s(seed, 2 * n);
        match dtype {
            DType::F32 => TensorData::F32(v[..n].iter().map(|&x| x as f32 / 16.0).collect()),
            DType::I16 => TensorData::I16(v.chunks(2).map(|c| i16::from_le_bytes([c[0] as u8, c[1] as u8])).collect()),
            _ => TensorData::I8(v[..n].to_vec()),
        }
    }

    /// Runs the case and compares output 0 with TFLite Micro's (`want`, as i64 / f32 bits).
    fn check(name: &str, dtype: DType, [lhs, rhs, out]: [&[usize]; 3], adj: (bool, bool), rhs_const: bool, want: &[f64]) {
        let (bytes, inputs, z) = model(dtype, lhs, rhs, out, adj, rhs_const);
        let shapes = [lhs, rhs];
        let ins: Vec<_> = inputs.iter().enumerate().map(|(i, &t)| (t, data(dtype, 30 + i as u64, shapes[i].iter().product()))).collect();
        let store = run_op0(name, &bytes, &ins);
        if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            return;
        }
        let got: Vec<f64> = match store.get(z) {
            Some(TensorData::I8(v)) => v.iter().map(|&x| x as f64).collect(),
            Some(TensorData::I16(v)) => v.iter().map(|&x| x as f64).collect(),
            Some(TensorData::F32(v)) => v.iter().map(|&x| x as f64).collect(),
            other => panic!("{name}: {other:?}"),
        };
        // f32 -> f64 is exact, and TFLite Micro's printed values parse back to the same f64.
        assert_eq!(got, want, "{name}: differs from TFLite Micro");
    }

    fn wide<T: Copy + Into<f64>>(v: &[T]) -> Vec<f64> {
        v.iter().map(|&x| x.into()).collect()
    }

    #[test]
    fn int8_matches_tflite_micro() {
        check("batch_matmul_s8", DType::I8, [&[2, 3, 4], &[2, 4, 5], &[2, 3, 5]], (false, false), false, &wide(WANT_S8));
        // Batch broadcasting (lhs batch 2 x 1, constant rhs batch 3) with the RHS packed.
        check("batch_matmul_s8_bcast", DType::I8, [&[2, 1, 3, 4], &[3, 4, 2], &[2, 3, 3, 2]], (false, false), true, &wide(WANT_S8_BCAST));
        check("batch_matmul_s8_adj", DType::I8, [&[1, 4, 3], &[2, 5, 4], &[2, 3, 5]], (true, true), false, &wide(WANT_S8_ADJ));
        let text = emit_op0(&model(DType::I8, &[2, 1, 3, 4], &[3, 4, 2], &[2, 3, 3, 2], (false, false), true).0);
        assert!(text.contains("OP0_RHS") && text.contains("adj_y: true"), "{text}");
    }

    #[test]
    fn int16_matches_tflite_micro() {
        check("batch_matmul_s16", DType::I16, [&[2, 3, 4], &[4, 5], &[2, 3, 5]], (false, false), true, &wide(WANT_S16));
        check("batch_matmul_s16_adj_x", DType::I16, [&[2, 4, 3], &[2, 4, 5], &[2, 3, 5]], (true, false), false, &wide(WANT_S16_ADJ_X));
    }

    #[test]
    fn float32_matches_tflite_micro() {
        check("batch_matmul_f32", DType::F32, [&[2, 3, 6], &[6, 5], &[2, 3, 5]], (false, false), true, &wide(WANT_F32));
        check("batch_matmul_f32_adj_y", DType::F32, [&[3, 6], &[2, 5, 6], &[2, 3, 5]], (false, true), false, &wide(WANT_F32_ADJ_Y));
    }

    #[test]
    fn refusals() {
        // Depths that differ, batches that do not broadcast, a wrong output size, rank 6,
        // int32 and mixed types.
        expect_invalid(&model(DType::I8, &[2, 3, 4], &[2, 5, 5], &[2, 3, 5], (false, false), false).0);
        expect_invalid(&model(DType::I8, &[2, 3, 4], &[3, 4, 5], &[3, 3, 5], (false, false), false).0);
        expect_invalid(&model(DType::I8, &[2, 3, 4], &[2, 4, 5], &[2, 3, 4], (false, false), false).0);
        expect_unsupported(&model(DType::F32, &[1, 1, 1, 1, 3, 4], &[4, 5], &[1, 1, 1, 1, 3, 5], (false, false), false).0);
        expect_unsupported(&model(DType::I32, &[3, 4], &[4, 5], &[3, 5], (false, false), false).0);
    }

    const WANT_S8: &[i8] = &[
        -128, -128, -42, -13, 65, -8, 9, 77, 11, 29, -93, -68, -79, 83, 34, -73, -101, 96, 29, 28, 76, -85,
        52, 39, -15, 85, 127, -128, -44, 10,
    ];
    const WANT_S8_BCAST: &[i8] = &[
        -128, 29, 24, 24, -128, -25, 3, 43, 21, -47, 50, 106, -85, 83, 36, 127, -128, -20, 68, -5, 127,
        -12, -44, 1, 65, 57, -66, -101, -72, -109, 98, 39, 83, -88, -115, 16,
    ];
    const WANT_S8_ADJ: &[i8] = &[
        -90, -30, 85, 25, -77, 65, 25, -41, -42, 47, 19, 29, -86, -10, -128, 84, 113, -53, -111, 101, 57,
        53, 60, 50, 7, -16, 127, 114, -110, 127,
    ];
    const WANT_S16: &[i16] = &[
        -411, 118, -22, 412, -124, -44, -174, -35, -255, -263, 343, 356, -118, -94, -111, -278, -551, 10,
        149, 528, -99, 333, 220, 268, -98, 172, 463, -6, 47, -260,
    ];
    const WANT_S16_ADJ_X: &[i16] = &[
        -354, -114, -289, -226, 81, 627, 182, 699, 225, -178, 78, 174, 152, -20, 282, 156, 78, -287, -432,
        -303, -131, 389, 362, 638, 626, 29, 155, -661, -435, -33,
    ];
    const WANT_F32: &[f32] = &[
        -34.128906, -8.287109, 38.921875, 28.021484, -34.742188, -22.699219, -19.283203, -38.060547,
        -7.5859375, -25.710938, 32.953125, 39.851562, 14.896484, -6.1289062, 11.392578, -23.041016,
        -16.882812, 0.49804688, 6.5234375, 12.308594, -12.839844, -5.673828, 23.814453, 20.626953,
        29.708984, -21.708984, -10.537109, 47.625, 37.91992, 8.232422,
    ];
    const WANT_F32_ADJ_Y: &[f32] = &[
        56.101562, -56.003906, -68.58203, -57.914062, 75.08594, -16.3125, -61.589844, 58.773438, -94.21484,
        73.75, -24.386719, 45.69922, 8.363281, 69.03125, -107.60156, -6.3710938, -63.289062, 28.371094,
        108.36328, 33.5625, -50.51172, 38.05078, -66.19531, 25.019531, -46.289062, 70.390625, -32.054688,
        55.304688, -48.5625, -6.5507812,
    ];
}
