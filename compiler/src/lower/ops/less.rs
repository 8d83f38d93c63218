//! LESS: `a < b` elementwise with numpy broadcasting, int32 or float32 operands, bool output.
//!
//! Mirrors TFLite Micro `comparisons.cc` (`LessEval`): for int32 and float32 a plain
//! comparison of the raw values (`reference_ops::Less` / `Broadcast4DSlowLess`). TFLite
//! Micro rescales quantized int8/uint8 operands to a common scale first; tflc refuses those
//! (and every other type) with the tensor named.

use super::binary::{lower_binary, Binary};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::DType;
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::less::{less, LessParams};

crate::runtime_struct_lit!(kernels::less::LessParams<'a> { broadcast });

/// LESS: the walk ([`Binary::broadcast`]) and the operands' element type.
#[derive(Debug, Clone, PartialEq)]
pub struct Less {
    pub bin: Binary,
    pub dtype: DType,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<Less, LowerError> {
    let (bin, [i1, i2, o]) = lower_binary(cx)?;
    let dtype = i1.dtype;
    if !matches!(dtype, DType::I32 | DType::F32) {
        return Err(cx.unsupported_tensor(i1, format!("element type {dtype} (LESS lowers int32 and float32; quantized operands are rescaled by TFLite and not supported)")));
    }
    cx.expect_dtype(i2, dtype)?;
    cx.expect_dtype(o, DType::Bool)?;
    Ok(Less { bin, dtype })
}

impl Less {
    fn run<T: Copy + PartialOrd>(
        &self,
        s: &mut TensorStore,
        get: for<'s> fn(&'s TensorStore, crate::ir::TensorId) -> Result<&'s [T], ExecError>,
    ) -> Result<(), ExecError> {
        let broadcast = self.bin.broadcast(false);
        let mut out = vec![0u8; broadcast.out_len()];
        let (x, y) = self.bin.operands(s, get)?;
        less(&LessParams { broadcast }, x, y, &mut out);
        s.insert(self.bin.output, TensorData::Bool(out.iter().map(|&b| b != 0).collect()));
        Ok(())
    }
}

impl Kernel for Less {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match self.dtype {
            DType::I32 => self.run(s, TensorStore::i32),
            DType::F32 => self.run(s, TensorStore::f32),
            other => Err(ExecError(format!("LESS on {other}"))),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::less::LessParams<'static> }, &LessParams { broadcast: self.bin.broadcast(false) });
        let a = cx.input(self.bin.input1);
        let b = cx.input(self.bin.input2);
        let out = cx.output_bytes(self.bin.output);
        let rt = cx.rt();
        quote! { #rt::kernels::less::less(&#p, #a, #b, #out); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_helpers::*;
    use super::*;
    use crate::ir::OpKind;

    /// int32 and float32 over the broadcast patterns, against a naive walk.
    #[test]
    fn every_pattern() {
        for (a_shape, b_shape) in BROADCAST_CASES {
            let av: Vec<i32> = i8s(21, a_shape.iter().product()).iter().map(|&v| v as i32 * 3).collect();
            let bv: Vec<i32> = i8s(22, b_shape.iter().product()).iter().map(|&v| v as i32 * 3).collect();
            let (out_shape, want) = broadcast_reference(a_shape, &av, b_shape, &bv, |a, b| a < b);
            let mut m = crate::tflite::builder::ModelBuilder::new();
            let x = m.activation("a", DType::I32, a_shape, None);
            let y = m.activation("b", DType::I32, b_shape, None);
            let z = m.activation("lt", DType::Bool, &out_shape, None);
            m.op(OpKind::Less, &[Some(x), Some(y)], &[z]);
            m.inputs(&[x, y]).outputs(&[z]);
            let store = run_op0("less_i32", &m.finish(), &[(x, TensorData::I32(av)), (y, TensorData::I32(bv))]);
            assert_eq!(store.get(z), Some(&TensorData::Bool(want)), "{a_shape:?} {b_shape:?}");
        }
    }

    #[test]
    fn quantized_int8_is_refused() {
        let (bytes, _) = binary_model(OpKind::Less, DType::I8, (&[4], Some((0.5, 0))), (&[4], Some((0.5, 0))), (&[4], None));
        let model = crate::tflite::read_model(&bytes).unwrap();
        let e = crate::lower::lower_subgraph(model.main()).check().unwrap_err().to_string();
        assert!(e.contains("op 0 (LESS)") && e.contains("element type int8"), "{e}");
    }
}
