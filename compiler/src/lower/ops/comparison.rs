//! The comparison family: EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL
//! (`a <op> b` elementwise with numpy broadcasting, bool output). The builtin files only
//! name their [`Comparison`]; everything else is here.
//!
//! Mirrors TFLite Micro `comparisons.cc`: element types as its `*Eval` switches have them
//! (int8, int32, int64, float32 for all six; bool for EQUAL and NOT_EQUAL), the raw values
//! compared for unquantized types and int8 rescaled first (`ComparisonsPrepare`:
//! `left_shift` 8, offsets `-zero_point`, `QuantizeMultiplierSmallerThanOneExp(scale)` per
//! input, so a scale of 1 or more is refused as TFLite's `TFLITE_CHECK_LT` aborts on it).
//! GREATER's int16 case is refused: `ComparisonsPrepare` computes the scaling only for
//! int8, so TFLite Micro's int16 GREATER rescales with uninitialised parameters.

use super::binary::{lower_binary, Binary, NO_BROADCAST};
use super::movement::{get, put};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::kernels::comparison::{
    compare, compare_s8, Comparison, ComparisonParams, QuantizedComparisonParams,
};
use tflc_runtime::prepare::quantize_multiplier_smaller_than_one_exp;

crate::runtime_struct_lit!(kernels::comparison::ComparisonParams<'a> { op, broadcast });
crate::runtime_struct_lit!(kernels::comparison::QuantizedComparisonParams<'a> {
    op,
    broadcast,
    left_shift,
    input1_offset,
    input1_multiplier,
    input1_shift,
    input2_offset,
    input2_multiplier,
    input2_shift,
});

impl Lit for Comparison {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let v = format_ident!("{}", format!("{self:?}"));
        quote! { #rt::kernels::comparison::Comparison::#v }
    }
}

/// The TFLite builtin name of a comparison, for messages.
fn name(op: Comparison) -> &'static str {
    match op {
        Comparison::Equal => "EQUAL",
        Comparison::NotEqual => "NOT_EQUAL",
        Comparison::Greater => "GREATER",
        Comparison::GreaterEqual => "GREATER_EQUAL",
        Comparison::Less => "LESS",
        Comparison::LessEqual => "LESS_EQUAL",
    }
}

/// The element type of a lowered comparison; int8 with its rescaling (the broadcast the
/// [`NO_BROADCAST`] placeholder: the real one borrows [`Binary::plan`]).
#[derive(Debug, Clone, PartialEq)]
pub enum CompareType {
    Bool,
    I32,
    I64,
    F32,
    S8(QuantizedComparisonParams<'static>),
}

/// A lowered comparison: the walk, the operator and the element type.
#[derive(Debug, Clone, PartialEq)]
pub struct Compare {
    pub bin: Binary,
    pub op: Comparison,
    pub ty: CompareType,
}

/// Lowers the comparison `op` (the whole of each builtin's lowering).
pub(crate) fn lower_comparison(cx: &OpCx<'_, '_>, op: Comparison) -> Result<Compare, LowerError> {
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    cx.expect_dtype(i2, i1.dtype)?;
    cx.expect_dtype(o, DType::Bool)?;
    let ty = match i1.dtype {
        DType::Bool if matches!(op, Comparison::Equal | Comparison::NotEqual) => CompareType::Bool,
        DType::I32 => CompareType::I32,
        DType::I64 => CompareType::I64,
        DType::F32 => CompareType::F32,
        DType::I8 => {
            let mut scaling = [(0, 0, 0); 2];
            for (s, t) in scaling.iter_mut().zip([i1, i2]) {
                let q = cx.q_s8(t)?;
                let (m, shift) = quantize_multiplier_smaller_than_one_exp(f64::from(q.scale)).ok_or_else(|| {
                    cx.unsupported_tensor(t, format!("int8 scale {} (TFLite Micro's {} rescales with QuantizeMultiplierSmallerThanOneExp, which requires a scale below 1)", q.scale, name(op)))
                })?;
                *s = (-q.zero_point, m, shift);
            }
            let [(input1_offset, input1_multiplier, input1_shift), (input2_offset, input2_multiplier, input2_shift)] = scaling;
            CompareType::S8(QuantizedComparisonParams {
                op,
                broadcast: NO_BROADCAST,
                left_shift: 8,
                input1_offset,
                input1_multiplier,
                input1_shift,
                input2_offset,
                input2_multiplier,
                input2_shift,
            })
        }
        DType::I16 if op == Comparison::Greater => {
            return Err(cx.unsupported_tensor(
                i1,
                "element type int16 (TFLite Micro's int16 GREATER rescales with parameters its Prepare never computes: its result is undefined, every output false on a fresh arena)",
            ))
        }
        other => {
            let types = if matches!(op, Comparison::Equal | Comparison::NotEqual) { "bool, int8, int32, int64 and float32" } else { "int8, int32, int64 and float32" };
            return Err(cx.unsupported_tensor(i1, format!("element type {other} (TFLite Micro's {} takes {types})", name(op))));
        }
    };
    Ok(Compare { bin, op, ty })
}

/// The contents of a bool tensor as bytes 0/1, the runtime's representation.
pub(crate) fn bool_bytes(s: &TensorStore, t: crate::ir::TensorId) -> Result<Vec<u8>, ExecError> {
    Ok(get::<bool>(s, t)?.iter().map(|&b| u8::from(b)).collect())
}

/// Stores bytes 0/1 as the bool tensor `t`.
pub(crate) fn put_bool_bytes(s: &mut TensorStore, t: crate::ir::TensorId, v: &[u8]) {
    put(s, t, v.iter().map(|&b| b != 0).collect::<Vec<bool>>());
}

impl Compare {
    fn params(&self) -> ComparisonParams<'_> {
        ComparisonParams {
            op: self.op,
            broadcast: self.bin.broadcast(false),
        }
    }

    fn run<T: super::movement::Elem + PartialOrd>(
        &self,
        s: &mut TensorStore,
    ) -> Result<(), ExecError> {
        let mut out = vec![0u8; self.bin.plan.as_broadcast().out_len()];
        let (x, y) = self.bin.operands(s, get::<T>)?;
        compare(&self.params(), x, y, &mut out);
        put_bool_bytes(s, self.bin.output, &out);
        Ok(())
    }
}

impl Kernel for Compare {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.ty {
            CompareType::Bool => {
                let (x, y) = (
                    bool_bytes(s, self.bin.input1)?,
                    bool_bytes(s, self.bin.input2)?,
                );
                if x.len() != self.bin.input1_len || y.len() != self.bin.input2_len {
                    return Err(ExecError(format!(
                        "operand lengths {} and {}",
                        x.len(),
                        y.len()
                    )));
                }
                let mut out = vec![0u8; self.bin.plan.as_broadcast().out_len()];
                compare(&self.params(), &x, &y, &mut out);
                put_bool_bytes(s, self.bin.output, &out);
                Ok(())
            }
            CompareType::I32 => self.run::<i32>(s),
            CompareType::I64 => self.run::<i64>(s),
            CompareType::F32 => self.run::<f32>(s),
            CompareType::S8(p) => {
                let mut out = vec![0u8; self.bin.plan.as_broadcast().out_len()];
                let (x, y) = self.bin.operands(s, get::<i8>)?;
                compare_s8(
                    &QuantizedComparisonParams {
                        broadcast: self.bin.broadcast(false),
                        ..*p
                    },
                    x,
                    y,
                    &mut out,
                );
                put_bool_bytes(s, self.bin.output, &out);
                Ok(())
            }
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let (p, f) = match &self.ty {
            CompareType::S8(p) => {
                let p = QuantizedComparisonParams {
                    broadcast: self.bin.broadcast(false),
                    ..*p
                };
                (
                    cx.params_lit(
                        quote! { kernels::comparison::QuantizedComparisonParams<'static> },
                        &p,
                    ),
                    quote! { compare_s8 },
                )
            }
            _ => (
                cx.params_lit(
                    quote! { kernels::comparison::ComparisonParams<'static> },
                    &self.params(),
                ),
                quote! { compare },
            ),
        };
        let (a, b) = if self.ty == CompareType::Bool {
            (
                cx.input_bytes(self.bin.input1),
                cx.input_bytes(self.bin.input2),
            )
        } else {
            (cx.input(self.bin.input1), cx.input(self.bin.input2))
        };
        let out = cx.output_bytes(self.bin.output);
        quote! { #rt::kernels::comparison::#f(&#p, #a, #b, #out); }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::{OpKind, TensorId};

    /// A model with one comparison of `kind` on `dtype` operands; the output is bool.
    pub(crate) fn model(
        kind: OpKind,
        dtype: DType,
        a: (&[usize], Q),
        b: (&[usize], Q),
    ) -> (Vec<u8>, [TensorId; 3]) {
        let out = crate::lower::ops::binary::broadcast_shape(a.0, b.0)
            .expect("broadcastable test shapes");
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", dtype, a.0, a.1);
        let y = m.activation("y", dtype, b.0, b.1);
        let z = m.activation("z", DType::Bool, &out, None);
        m.op(kind, &[Some(x), Some(y)], &[z]);
        m.inputs(&[x, y]).outputs(&[z]);
        (m.finish(), [x, y, z])
    }

    /// Bool output `t` as a string of '0'/'1' (the vectors' compact form).
    pub(crate) fn bits(s: &TensorStore, t: TensorId) -> String {
        match s.get(t) {
            Some(TensorData::Bool(v)) => v.iter().map(|&b| if b { '1' } else { '0' }).collect(),
            other => panic!("not a bool output: {other:?}"),
        }
    }

    /// Runs op 0 and compares its bool output with the TFLite Micro vector `want` ('0'/'1';
    /// empty while generating with `TFLC_DUMP_OP_MODELS`).
    pub(crate) fn check_bits(
        name: &str,
        bytes: &[u8],
        inputs: &[(TensorId, TensorData)],
        out: TensorId,
        want: &str,
    ) {
        let store = run_op0(name, bytes, inputs);
        if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            return;
        }
        assert_eq!(
            bits(&store, out),
            want,
            "{name}: differs from TFLite Micro's output"
        );
    }

    /// 256 int8 values: every value once, in a scrambled order.
    fn every_i8() -> Vec<i8> {
        (0..256u32)
            .map(|i| ((i * 167 + 13) % 256) as u8 as i8)
            .collect()
    }

    fn floats() -> Vec<f32> {
        let mut v = vec![
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            f32::MIN,
            1.0,
            -1.0,
        ];
        v.extend(i8s(7, 20).iter().map(|&q| f32::from(q) * 0.25));
        v
    }

    /// One comparison over every type TFLite Micro has for it, each against its committed
    /// TFLite Micro vector (`vectors`, by case name suffix): int8 with different
    /// quantizations and broadcasting (every int8 value against a trailing vector), int8
    /// against a scalar, int32 and int64 extremes, float32 with NaN, infinities and signed
    /// zeros, bool for EQUAL and NOT_EQUAL. Besides the vector, the unquantized cases are
    /// checked against the naive broadcast definition.
    pub(crate) fn check_all(kind: OpKind, op: Comparison, prefix: &str, vectors: &[(&str, &str)]) {
        let want = |case: &str| {
            vectors
                .iter()
                .find(|(n, _)| *n == case)
                .map_or("", |(_, v)| *v)
        };
        let name = |case: &str| format!("{prefix}_{case}");
        // int8, different quantizations, [8, 32] against [32].
        let (bytes, [x, y, z]) = model(
            kind.clone(),
            DType::I8,
            (&[8, 32], Some((0.05, -3))),
            (&[32], Some((0.11, 20))),
        );
        let bv: Vec<i8> = every_i8().iter().step_by(8).map(|&v| v / 2).collect();
        check_bits(
            &name("s8_bcast"),
            &bytes,
            &[(x, TensorData::I8(every_i8())), (y, TensorData::I8(bv))],
            z,
            want("s8_bcast"),
        );
        // int8 against a scalar, scales differing only slightly (the rescaling's rounding matters).
        let (bytes, [x, y, z]) = model(
            kind.clone(),
            DType::I8,
            (&[4, 64], Some((0.0078125, 0))),
            (&[], Some((0.0078, 1))),
        );
        check_bits(
            &name("s8_scalar"),
            &bytes,
            &[
                (x, TensorData::I8(every_i8())),
                (y, TensorData::I8(vec![3])),
            ],
            z,
            want("s8_scalar"),
        );
        // int32 / int64 / float32, [2, 1, 16] against [3, 1] (both sides stretch).
        let ints: Vec<i32> = i8s(3, 32)
            .iter()
            .map(|&q| i32::from(q))
            .chain([i32::MIN, i32::MAX, 0, -1])
            .collect();
        let (a32, b32) = (ints[..32].to_vec(), vec![i32::MIN, 0, i32::MAX]);
        let mut a32 = a32;
        a32[..4].copy_from_slice(&ints[32..]);
        let naive = |a: &[usize], b: &[usize], av: &[f64], bv: &[f64]| -> String {
            broadcast_reference(a, av, b, bv, |p, q| op.holds(p, q))
                .1
                .iter()
                .map(|&v| if v { '1' } else { '0' })
                .collect()
        };
        let (bytes, [x, y, z]) = model(
            kind.clone(),
            DType::I32,
            (&[2, 1, 16], None),
            (&[3, 1], None),
        );
        let s = run_op0(
            &name("i32"),
            &bytes,
            &[
                (x, TensorData::I32(a32.clone())),
                (y, TensorData::I32(b32.clone())),
            ],
        );
        let f = |v: &[i32]| v.iter().map(|&q| f64::from(q)).collect::<Vec<_>>();
        assert_eq!(bits(&s, z), naive(&[2, 1, 16], &[3, 1], &f(&a32), &f(&b32)));
        check_bits(
            &name("i32"),
            &bytes,
            &[(x, TensorData::I32(a32)), (y, TensorData::I32(b32))],
            z,
            want("i32"),
        );
        let a64: Vec<i64> = i8s(4, 32)
            .iter()
            .map(|&q| i64::from(q) << 40)
            .chain([i64::MIN, i64::MAX])
            .collect();
        let b64 = vec![i64::MIN, 0, 1 << 40, i64::MAX];
        let (bytes, [x, y, z]) = model(kind.clone(), DType::I64, (&[34, 1], None), (&[4], None));
        let s = run_op0(
            &name("i64"),
            &bytes,
            &[
                (x, TensorData::I64(a64.clone())),
                (y, TensorData::I64(b64.clone())),
            ],
        );
        let (fa, fb): (Vec<f64>, Vec<f64>) = (
            a64.iter().map(|&q| q as f64).collect(),
            b64.iter().map(|&q| q as f64).collect(),
        );
        // (i64 -> f64 keeps the order of these values: all multiples of 2^40 or the extremes.)
        assert_eq!(bits(&s, z), naive(&[34, 1], &[4], &fa, &fb));
        check_bits(
            &name("i64"),
            &bytes,
            &[(x, TensorData::I64(a64)), (y, TensorData::I64(b64))],
            z,
            want("i64"),
        );
        let fv = floats();
        let n = fv.len();
        let (bytes, [x, y, z]) = model(kind.clone(), DType::F32, (&[n, 1], None), (&[n], None));
        let s = run_op0(
            &name("f32"),
            &bytes,
            &[
                (x, TensorData::F32(fv.clone())),
                (y, TensorData::F32(fv.clone())),
            ],
        );
        let g: Vec<f64> = fv.iter().map(|&q| f64::from(q)).collect();
        assert_eq!(bits(&s, z), naive(&[n, 1], &[n], &g, &g));
        check_bits(
            &name("f32"),
            &bytes,
            &[(x, TensorData::F32(fv.clone())), (y, TensorData::F32(fv))],
            z,
            want("f32"),
        );
        if matches!(op, Comparison::Equal | Comparison::NotEqual) {
            let (bytes, [x, y, z]) =
                model(kind.clone(), DType::Bool, (&[2, 1], None), (&[1, 2], None));
            let s = run_op0(
                &name("bool"),
                &bytes,
                &[
                    (x, TensorData::Bool(vec![false, true])),
                    (y, TensorData::Bool(vec![false, true])),
                ],
            );
            let eq = op == Comparison::Equal;
            let want_naive: String = [(0, 0), (0, 1), (1, 0), (1, 1)]
                .iter()
                .map(|(a, b)| if (a == b) == eq { '1' } else { '0' })
                .collect();
            assert_eq!(bits(&s, z), want_naive);
            check_bits(
                &name("bool"),
                &bytes,
                &[
                    (x, TensorData::Bool(vec![false, true])),
                    (y, TensorData::Bool(vec![false, true])),
                ],
                z,
                want("bool"),
            );
        } else {
            let (bytes, _) = model(kind.clone(), DType::Bool, (&[2], None), (&[2], None));
            let e = lower_op0(&bytes).unwrap_err().to_string();
            assert!(e.contains("element type bool"), "{e}");
        }
        check_refusals(kind);
    }

    /// What every comparison refuses: mixed element types, a non-bool output, uint8/int16
    /// operands (TFLite Micro's switch has no such case), int8 scales of 1 or more,
    /// unquantized int8, and the malformed shapes and arities of the binary family.
    fn check_refusals(kind: OpKind) {
        let q = Some((0.5, 0));
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I32, &[3], None);
        let y = m.activation("y", DType::F32, &[3], None);
        let z = m.activation("z", DType::Bool, &[3], None);
        m.op(kind.clone(), &[Some(x), Some(y)], &[z]);
        expect_unsupported(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I32, &[3], None);
        let z = m.activation("z", DType::I32, &[3], None);
        m.op(kind.clone(), &[Some(x), Some(x)], &[z]);
        expect_unsupported(&m.finish());
        for dtype in [DType::U8, DType::I16] {
            let e = lower_op0(&model(kind.clone(), dtype, (&[3], q), (&[3], q)).0)
                .unwrap_err()
                .to_string();
            assert!(e.contains("element type"), "{e}");
        }
        let e = lower_op0(&model(kind.clone(), DType::I8, (&[3], Some((1.0, 0))), (&[3], q)).0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("below 1") && e.contains("tensor 0"), "{e}");
        expect_unsupported(&model(kind.clone(), DType::I8, (&[3], None), (&[3], q)).0);
        expect_invalid(&model(kind.clone(), DType::I8, (&[3], Some((0.0, 0))), (&[3], q)).0);
        expect_invalid(&model(kind.clone(), DType::I8, (&[3], Some((0.5, 300))), (&[3], q)).0);
        // Output of the wrong shape; operands that do not broadcast; missing operands.
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I32, &[2, 3], None);
        let y = m.activation("y", DType::I32, &[3], None);
        let z = m.activation("z", DType::Bool, &[3, 3], None);
        m.op(kind.clone(), &[Some(x), Some(y)], &[z]);
        expect_invalid(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I32, &[2, 3], None);
        let y = m.activation("y", DType::I32, &[2], None);
        let z = m.activation("z", DType::Bool, &[2, 3], None);
        m.op(kind.clone(), &[Some(x), Some(y)], &[z]);
        expect_invalid(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I32, &[3], None);
        let z = m.activation("z", DType::Bool, &[3], None);
        m.op(kind.clone(), &[Some(x), None], &[z]);
        expect_invalid(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", DType::I32, &[3], None);
        m.op(kind, &[Some(x), Some(x)], &[]);
        expect_invalid(&m.finish());
    }

    /// Every comparison in every element type against TFLite Micro
    /// (`tools/op_test_vectors.py`, prefixes `equal_`, `not_equal_`, `greater_`,
    /// `greater_equal_`, `less_`, `less_equal_`).
    #[test]
    fn tflite_micro_vectors() {
        let ops = [
            (OpKind::Equal, Comparison::Equal, "equal", EQUAL),
            (OpKind::NotEqual, Comparison::NotEqual, "not_equal", NOT_EQUAL),
            (OpKind::Greater, Comparison::Greater, "greater", GREATER),
            (OpKind::GreaterEqual, Comparison::GreaterEqual, "greater_equal", GREATER_EQUAL),
            (OpKind::Less, Comparison::Less, "less", LESS),
            (OpKind::LessEqual, Comparison::LessEqual, "less_equal", LESS_EQUAL),
        ];
        for (kind, op, prefix, vectors) in ops {
            check_all(kind, op, prefix, vectors);
        }
    }

    const EQUAL: &[(&str, &str)] = &[
        ("bool", "1001"),
        ("f32", "1100000000000000000000000000000011000000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000010000000000001100000000010000000000000000000011000000000100000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000110000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000000000000000000000001000000000000100000000000000000001"),
        ("i32", "100000000000000000100000000000000100000000000000000000000000000000000000000000000000000000000000"),
        ("i64", "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000010000001"),
        ("s8_bcast", "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
        ("s8_scalar", "0001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
    ];

    const NOT_EQUAL: &[(&str, &str)] = &[
        ("bool", "0110"),
        ("f32", "0011111111111111111111111111111100111111111111111111111111111111111111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111101111111111110011111111101111111111111111111100111111111011111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111001111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111111111111111111111110111111111111011111111111111111110"),
        ("i32", "011111111111111111011111111111111011111111111111111111111111111111111111111111111111111111111111"),
        ("i64", "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111101111110"),
        ("s8_bcast", "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111110111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"),
        ("s8_scalar", "1110111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"),
    ];

    const GREATER: &[(&str, &str)] = &[
        ("f32", "0000101001010010111011101000011100001010010100101110111010000111000000000000000000000000000000001100111111111111111111111111111100000000000000000000000000000000110010110101001011101110100001110000100001010010111011101000011111001010010100101110111010000111110011110111111111111111111111110000100000000000000000000000000011001111010100101110111010000111000010000100001011101110100001101100111101110011111111101110111111001111011100111111111011101111000010000100000000000010000000001100111101110010111111101000011100001000010000100100001010000000000010000100001000000010100000000000100001000010110000101000011011001111011100101110111010000111000010000100001011100010100001100000100001000010111010101000011000001000010000000000000000000000110011110111001111111110111011110000100001000010000000100000000011001111011100111111111010101111110011110111001111111110100011111100111101111111111111111110111111001111011100111111111010000111000010000100001011000010100000100000100001000010110000101000000000001000010000101110111010000110"),
        ("i32", "011111111111111101000110111101010000000000000000111111111111111101110111101000010000000000000000"),
        ("i64", "1110100010001110111011101110111010001000100010001000100011101000111010001000111010001110111010001110100011101110100010001000100000001110"),
        ("s8_bcast", "1011010111001010110101110110101110010101101011101101011101101011010111011010110011010110111110110101100110101101111101101111001101011011110011011110011011010111100110111100110110101111011101111001101101011110111011010111001010111101110110101110010101111011"),
        ("s8_scalar", "1010010010010010110110110110100100100101101101101101001001001011011011011010010010010010110110110100100100100101101101101001001001001011011011010010010010010110110110100100100100101101101101001001001001011011011010010010010010110110110100100100100101101101"),
    ];

    const GREATER_EQUAL: &[(&str, &str)] = &[
        ("f32", "1100101001010010111011101000011111001010010100101110111010000111000000000000000000000000000000001101111111111111111111111111111100001000000000000000000000000000110011110101001011101110100001110000101001010010111011101000011111001011010100101110111010000111110011111111111111111111111111110000100001000000000000000000000011001111011100101110111010000111000010000101001011101110100001111100111101111111111111111110111111001111011111111111111111101111000010000100001000000010000000001100111101110011111111101000011100001000010000101100001010000000000010000100001001000010100000000000100001000010111000101000011011001111011100101111111010000111000010000100001011101010100001100000100001000010111011101000011000001000010000000000001000000000110011110111111111111111111011110000100001000010000000101000000011001111011100111111111011101111110011110111001111111110101011111100111101111111111111111111111111001111011100111111111010001111000010000100001011000010100001100000100001000010110000101000001000001000010100101110111010000111"),
        ("i32", "111111111111111101100110111101010100000000000000111111111111111101110111101000010000000000000000"),
        ("i64", "1110100010001110111011101110111010001000100010001000100011101000111010001000111010001110111010001110100011101110100010001000100010001111"),
        ("s8_bcast", "1011010111001010110101110110101110010101101011101101011101101011010111011010110011010110111110110101100110101101111101101111001101011011111011011110011011010111100110111100110110101111011101111001101101011110111011010111001010111101110110101110010101111011"),
        ("s8_scalar", "1011010010010010110110110110100100100101101101101101001001001011011011011010010010010010110110110100100100100101101101101001001001001011011011010010010010010110110110100100100100101101101101001001001001011011011010010010010010110110110100100100100101101101"),
    ];

    const LESS: &[(&str, &str)] = &[
        ("f32", "0001010110101101000100010111100000010101101011010001000101111000000000000000000000000000000000000000000000000000000000000000000011010111111111111111111111111111000100001010110100010001011110001101010110101101000100010111100000010100101011010001000101111000000100000000000000000000000000001101011110111111111111111111111100010000100011010001000101111000110101111010110100010001011110000001000010000000000000000001000000010000100000000000000000010000110101111011110111111101111111110001000010001100000000010111100011010111101111010011110101111111110101111011110110111101011111111101011110111101000111010111100100010000100011010000000101111000110101111011110100010101011110011101011110111101000100010111100111010111101111111111110111111111000100001000000000000000000100001101011110111101111111010111111100010000100011000000000100010000000100001000110000000001010100000001000010000000000000000000000000010000100011000000000101110000110101111011110100111101011110011101011110111101001111010111110111010111101011010001000101111000"),
        ("i32", "000000000000000010011001000010101011111111111111000000000000000010001000010111101111111111111111"),
        ("i64", "0001011101110001000100010001000101110111011101110111011100010111000101110111000101110001000101110001011100010001011101110111011101110000"),
        ("s8_bcast", "0100101000110101001010001001010001101010010100010010100010010100101000100101001100101001000001001010011001010010000010010000110010100100000100100001100100101000011001000011001001010000100010000110010010100001000100101000110101000010001001010001101010000100"),
        ("s8_scalar", "0100101101101101001001001001011011011010010010010010110110110100100100100101101101101101001001001011011011011010010010010110110110110100100100101101101101101001001001011011011011010010010010110110110110100100100101101101101101001001001011011011011010010010"),
    ];

    const LESS_EQUAL: &[(&str, &str)] = &[
        ("f32", "1101010110101101000100010111100011010101101011010001000101111000000000000000000000000000000000000001000000000000000000000000000011011111111111111111111111111111000101001010110100010001011110001101011110101101000100010111100000010101101011010001000101111000000100001000000000000000000000001101011111111111111111111111111100010000101011010001000101111000110101111011110100010001011110010001000010001100000000010001000000010000100011000000000100010000110101111011111111111101111111110001000010001101000000010111100011010111101111011011110101111111110101111011110111111101011111111101011110111101001111010111100100010000100011010001000101111000110101111011110100011101011110011101011110111101000101010111100111010111101111111111111111111111000100001000110000000001000100001101011110111101111111011111111100010000100011000000000101010000000100001000110000000001011100000001000010000000000000000001000000010000100011000000000101111000110101111011110100111101011111011101011110111101001111010111111111010111101111010001000101111001"),
        ("i32", "100000000000000010111001000010101111111111111111000000000000000010001000010111101111111111111111"),
        ("i64", "0001011101110001000100010001000101110111011101110111011100010111000101110111000101110001000101110001011100010001011101110111011111110001"),
        ("s8_bcast", "0100101000110101001010001001010001101010010100010010100010010100101000100101001100101001000001001010011001010010000010010000110010100100001100100001100100101000011001000011001001010000100010000110010010100001000100101000110101000010001001010001101010000100"),
        ("s8_scalar", "0101101101101101001001001001011011011010010010010010110110110100100100100101101101101101001001001011011011011010010010010110110110110100100100101101101101101001001001011011011011010010010010110110110110100100100101101101101101001001001011011011011010010010"),
    ];
}
