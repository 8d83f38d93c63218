//! PADV2: PAD with an explicit pad value (`constant_values`, the third input). TFLite
//! Micro registers PAD and PADV2 with the same prepare and eval, so this is
//! [`super::pad::lower_pad`]; see there for the rules.

use super::pad::{lower_pad, Pad};
use super::OpCx;
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Pad, LowerError> {
    lower_pad(cx)
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::pad::tests::{check, model};
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind};
    use crate::tflite::builder::ModelBuilder;

    #[test]
    fn explicit_value_at_every_edge() {
        check(OpKind::PadV2, &[1, 4, 4, 2], &[0, 0, 1, 1, 1, 1, 0, 0], 1, Some(1));
        check(OpKind::PadV2, &[1, 4, 4, 2], &[0, 0, 2, 0, 0, 2, 1, 1], 1, Some(-128));
        check(OpKind::PadV2, &[3, 2], &[1, 2, 2, 1], -3, Some(127));
        // Without the value it is PAD (output zero point).
        check(OpKind::PadV2, &[3, 2], &[1, 0, 0, 1], -3, None);
    }

    #[test]
    fn float_value_including_negative_zero() {
        for v in [2.5f32, -0.0, -7.25] {
            let mut b = ModelBuilder::new();
            let x = b.activation("x", DType::F32, &[1, 1], None);
            let p = b.constant_i32("paddings", &[2, 2], &[0, 0, 1, 0], None);
            let c = b.constant_f32("c", &[], &[v]);
            let y = b.activation("y", DType::F32, &[1, 2], None);
            b.op(OpKind::PadV2, &[Some(x), Some(p), Some(c)], &[y]);
            b.inputs(&[x]).outputs(&[y]);
            let bytes = b.finish();
            let s = run_op0(&bytes, &[(x, TensorData::F32(vec![1.0]))]);
            let Some(TensorData::F32(out)) = s.get(y) else { panic!("no output") };
            assert_eq!(out[0].to_bits(), v.to_bits());
            assert_eq!(out[1], 1.0);
            let (text, _, _) = emit_op0(&bytes);
            let want = format!("pad_value : {}{}f32", if v.is_sign_negative() { "- " } else { "" }, v.abs());
            assert!(text.contains(&want), "{want} in {text}");
        }
    }

    #[test]
    fn malformed_values_are_errors() {
        // Value quantized differently from the output.
        assert!(matches!(
            lower_err(&model(OpKind::PadV2, &[2, 2], &[1, 1, 0, 0], &[4, 2], 0, Some((3, (0.1, 1)))).0),
            LowerError::Unsupported { .. }
        ));
        // Value of another element type, two values, not constant, not finite.
        let cases: [(DType, Vec<u8>, &[usize], bool); 4] = [
            (DType::I32, 5i32.to_le_bytes().to_vec(), &[], true),
            (DType::I8, vec![1, 2], &[2], true),
            (DType::I8, vec![], &[], false),
            (DType::F32, f32::NAN.to_le_bytes().to_vec(), &[], true),
        ];
        for (i, (dt, data, shape, constant)) in cases.into_iter().enumerate() {
            let float = dt == DType::F32;
            let mut b = ModelBuilder::new();
            let (xd, q) = if float { (DType::F32, None) } else { (DType::I8, Some((0.1, 0))) };
            let x = b.activation("x", xd, &[2], q);
            let p = b.constant_i32("paddings", &[1, 2], &[1, 0], None);
            let cq = if dt == DType::I8 { Some(crate::ir::Quantization { scale: vec![0.1], zero_point: vec![0], axis: None }) } else { None };
            let c = if constant { b.constant("c", dt, shape, data, cq) } else { b.activation("c", dt, shape, Some((0.1, 0))) };
            let y = b.activation("y", xd, &[3], q);
            b.op(OpKind::PadV2, &[Some(x), Some(p), Some(c)], &[y]);
            b.inputs(&[x]).outputs(&[y]);
            let e = lower_err(&b.finish());
            assert!(matches!(e, LowerError::Invalid { .. } | LowerError::Unsupported { .. }), "case {i}: {e}");
        }
    }
}
