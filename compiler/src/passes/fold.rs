//! Constant folding: a DEQUANTIZE whose input is a constant becomes float32 constant data
//! (weights in flash) and runs no code. This is how float16-weight models (the converter's
//! float16 quantization: every weight and bias a float16 constant behind a DEQUANTIZE) and
//! int8 constants behind a DEQUANTIZE compile to float32 kernels.
//!
//! Folded: float16 (exact widening, `static_cast<float>` of TFLite's `Eigen::half`), and
//! per-tensor int8 (`scale * (q - zero_point)` as the runtime's `dequantize_s8_f32`, which
//! equals TFLite's `double` product rounded once). Anything else is left to DEQUANTIZE's
//! lowering.

use crate::ir::{DType, Model, OpId, OpKind, Subgraph, Tensor, TensorId};
use std::collections::BTreeMap;
use tflc_runtime::kernels::dequantize::{dequantize_s8_f32, DequantizeParams};

/// The constants a subgraph's folding computed: per folded output tensor its float32
/// little-endian bytes, and the operators that produced them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Folded {
    data: BTreeMap<TensorId, Vec<u8>>,
    /// Folded operators, in file order, with the tensor each one made constant.
    pub ops: Vec<(OpId, TensorId)>,
}

/// The folding of every subgraph of a model (indexed like `model.subgraphs`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FoldedModel {
    pub subgraphs: Vec<Folded>,
}

impl FoldedModel {
    /// Folds every subgraph of `model`.
    pub fn of(model: &Model<'_>) -> FoldedModel {
        FoldedModel { subgraphs: model.subgraphs.iter().map(Folded::of).collect() }
    }

    /// Folded operators over all subgraphs.
    pub fn count(&self) -> usize {
        self.subgraphs.iter().map(|f| f.ops.len()).sum()
    }

    /// `model` with the folded tensors constant, borrowing their data from `self`.
    pub fn apply<'f, 'a: 'f>(&'f self, model: &Model<'a>) -> Model<'f> {
        let mut out: Model<'f> = model.clone();
        for (sg, folded) in out.subgraphs.iter_mut().zip(&self.subgraphs) {
            folded.apply_to(sg);
        }
        out
    }
}

impl Folded {
    /// What folding `sg` computes (nothing for a graph without foldable DEQUANTIZE ops).
    pub fn of(sg: &Subgraph<'_>) -> Folded {
        let mut f = Folded::default();
        for op in sg.ops.iter() {
            if op.kind != OpKind::Dequantize || op.outputs.len() != 1 {
                continue;
            }
            let (Some(x), Some(&y)) = (op.input(0).and_then(|t| sg.tensors.get(t)), op.outputs.first()) else { continue };
            let Some(out) = sg.tensors.get(y) else { continue };
            if out.dtype != DType::F32 || out.is_constant() || out.is_variable || out.shape != x.shape || sg.outputs.contains(&y) {
                continue;
            }
            if let Some(values) = dequantize_constant(x) {
                if values.len() == out.num_elements() {
                    f.data.insert(y, values.iter().flat_map(|v| v.to_le_bytes()).collect());
                    f.ops.push((op.id, y));
                }
            }
        }
        f
    }

    /// Makes the folded tensors of `sg` constant, with data borrowed from `self`.
    fn apply_to<'f>(&'f self, sg: &mut Subgraph<'f>) {
        for (&t, bytes) in &self.data {
            if let Some(tensor) = sg.tensors.get_mut(t) {
                tensor.data = Some(bytes);
            }
        }
    }

    /// Whether `op` was folded.
    pub fn contains(&self, op: OpId) -> bool {
        self.ops.iter().any(|&(o, _)| o == op)
    }
}

/// The float32 values of a constant DEQUANTIZE input, when it can be folded.
fn dequantize_constant(x: &Tensor<'_>) -> Option<Vec<f32>> {
    let data = x.data?;
    match x.dtype {
        DType::F16 => {
            if !data.len().is_multiple_of(2) {
                return None;
            }
            Some(data.chunks_exact(2).map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]]))).collect())
        }
        DType::I8 => {
            let (scale, zero_point) = x.quant.as_ref()?.per_tensor()?;
            let zero_point = i32::try_from(zero_point).ok()?;
            if !(scale.is_finite() && scale > 0.0) {
                return None;
            }
            let q: Vec<i8> = data.iter().map(|&b| b as i8).collect();
            let mut out = vec![0f32; q.len()];
            dequantize_s8_f32(&DequantizeParams { scale, zero_point }, &q, &mut out);
            Some(out)
        }
        _ => None,
    }
}

/// IEEE 754 binary16 to binary32, exactly (every half is a float): subnormals normalised,
/// infinities and NaNs (payload kept in the top bits) carried over.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: m * 2^-24, normalised.
            let shift = m.leading_zeros() - 21;
            let m = (m << shift) & 0x3ff;
            sign | ((127 - 15 + 1 - shift) << 23) | (m << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::OpKind;
    use crate::tflite::builder::ModelBuilder;

    #[test]
    fn every_half_widens_exactly() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            let (sign, exp, mant) = ((h >> 15) as i32, ((h >> 10) & 0x1f) as i32, (h & 0x3ff) as f64);
            let want = match exp {
                0 => mant * 2f64.powi(-24),
                0x1f if mant == 0.0 => f64::INFINITY,
                0x1f => f64::NAN,
                e => (1.0 + mant / 1024.0) * 2f64.powi(e - 15),
            } * if sign == 1 { -1.0 } else { 1.0 };
            if want.is_nan() {
                assert!(f.is_nan(), "{h:#06x}");
            } else {
                assert_eq!(f as f64, want, "{h:#06x}");
                assert_eq!(f.is_sign_negative(), sign == 1, "{h:#06x}");
            }
        }
    }

    #[test]
    fn constant_dequantize_becomes_float32_data() {
        let mut m = ModelBuilder::new();
        let halves: Vec<u8> = [0x3c00u16, 0xc000, 0x0001, 0x7bff].iter().flat_map(|h| h.to_le_bytes()).collect();
        let w16 = m.constant("w16", DType::F16, &[4], halves, None);
        let w = m.activation("w", DType::F32, &[4], None);
        let x = m.activation("x", DType::F32, &[4], None);
        let y = m.activation("y", DType::F32, &[4], None);
        m.op(OpKind::Dequantize, &[Some(w16)], &[w]);
        m.op(OpKind::Add { activation: crate::ir::Activation::None }, &[Some(x), Some(w)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        let bytes = m.finish();
        let model = crate::tflite::read_model(&bytes).unwrap();
        let folded = FoldedModel::of(&model);
        assert_eq!(folded.subgraphs[0].ops.len(), 1);
        let model = folded.apply(&model);
        let t = model.main().tensor(w);
        let values: Vec<f32> = t.data.unwrap().chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(values, [1.0, -2.0, 2f32.powi(-24), 65504.0]);
        // A DEQUANTIZE of an activation is not folded.
        assert!(!folded.subgraphs[0].contains(crate::ir::OpId::new(1)));
        // Lowering reports the fold, the planner accepts the constant output, and codegen
        // emits no code for it.
        let lowered = crate::lower::lower_subgraph(model.main());
        assert_eq!(lowered.folded(), [crate::ir::OpId::new(0)]);
        let code = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap().code;
        assert!(code.contains("op 0: DEQUANTIZE") && code.contains("folded at compile time, no code"), "{code}");
        assert_eq!(code.matches("rt::__private::io(").count(), 1, "{code}");
    }
}
