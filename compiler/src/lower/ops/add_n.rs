//! ADD_N: the elementwise sum of two or more tensors of one shape, float32 or int8 (all
//! inputs one quantization, as TFLite Micro's Prepare requires). The int8 arithmetic and
//! its quirks are [`tflc_runtime::kernels::accumulate`]'s (shared with CUMSUM).

use super::movement::{get, put};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::accumulate::{add_n_f32, add_n_s8, prepare_scaled_sum, ScaledSumParams};

crate::runtime_struct_lit!(kernels::accumulate::ScaledSumParams {
    left_shift,
    input_offset,
    input_multiplier,
    input_shift,
    output_offset,
    output_multiplier,
    output_shift,
});

/// A lowered ADD_N: its inputs, output, length, and the int8 rescaling (`None`: float32).
#[derive(Debug, Clone, PartialEq)]
pub struct AddN {
    pub inputs: Vec<TensorId>,
    pub output: TensorId,
    pub len: usize,
    pub s8: Option<ScaledSumParams>,
}

/// The int8 rescaling of ADD_N / CUMSUM from `input` to `output` (TFLite's Prepare);
/// refused where TFLite's `QuantizeMultiplierSmallerThanOneExp` would abort.
pub(crate) fn scaled_sum(cx: &OpCx<'_, '_>, input: &crate::ir::Tensor<'_>, output: &crate::ir::Tensor<'_>) -> Result<ScaledSumParams, LowerError> {
    let (qi, qo) = (cx.q_s8(input)?, cx.q_s8(output)?);
    prepare_scaled_sum(qi.scale, qi.zero_point, qo.scale, qo.zero_point).ok_or_else(|| {
        cx.unsupported_tensor(output, format!("output scale {} for input scale {} (the output multiplier 2 s_in / (2^20 s_out) must be below 1, as TFLite requires)", qo.scale, qi.scale))
    })
}

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<AddN, LowerError> {
    if cx.op.inputs.len() < 2 || cx.op.outputs.len() != 1 {
        return Err(cx.invalid(format!("expected at least 2 inputs and 1 output, found {} and {}", cx.op.inputs.len(), cx.op.outputs.len())));
    }
    let first = cx.input(0)?;
    let output = cx.output(0)?;
    cx.expect_activation(output)?;
    cx.expect_dtype(output, first.dtype)?;
    if output.shape != first.shape {
        return Err(cx.invalid_tensor(output, format!("output shape {:?}, but the inputs' is {:?}", output.shape, first.shape)));
    }
    let mut inputs = Vec::new();
    for i in 0..cx.op.inputs.len() {
        let t = cx.input(i)?;
        cx.expect_dtype(t, first.dtype)?;
        if t.shape != first.shape {
            return Err(cx.invalid_tensor(t, format!("shape {:?}, but input 0's is {:?}", t.shape, first.shape)));
        }
        if first.dtype == DType::I8 {
            let (q0, q) = (cx.q_s8(first)?, cx.q_s8(t)?);
            if q0.scale != q.scale || q0.zero_point != q.zero_point {
                return Err(cx.unsupported_tensor(t, "a quantization other than input 0's (TFLite Micro's ADD_N requires one)"));
            }
        }
        inputs.push(t.id);
    }
    let s8 = match first.dtype {
        DType::F32 => None,
        DType::I8 => Some(scaled_sum(cx, first, output)?),
        other => return Err(cx.unsupported_tensor(first, format!("element type {other} (TFLite Micro's ADD_N takes float32 and int8)"))),
    };
    Ok(AddN { inputs, output: output.id, len: first.num_elements(), s8 })
}

impl AddN {
    fn run<T: super::movement::Elem>(&self, s: &mut TensorStore, f: impl FnOnce(&[&[T]], &mut [T])) -> Result<(), ExecError> {
        let xs = self.inputs.iter().map(|&t| get::<T>(s, t)).collect::<Result<Vec<_>, _>>()?;
        if xs.iter().any(|x| x.len() != self.len) {
            return Err(ExecError("ADD_N: an input of the wrong length".into()));
        }
        let mut out = vec![T::default(); self.len];
        f(&xs, &mut out);
        put(s, self.output, out);
        Ok(())
    }
}

impl Kernel for AddN {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        match &self.s8 {
            Some(p) => self.run::<i8>(s, |x, y| add_n_s8(p, x, y)),
            None => self.run::<f32>(s, add_n_f32),
        }
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let xs: Vec<TokenStream> = self.inputs.iter().map(|&t| cx.input(t)).collect();
        let y = cx.output(self.output);
        match &self.s8 {
            Some(p) => {
                let p = cx.params_lit(quote! { kernels::accumulate::ScaledSumParams }, p);
                quote! { #rt::kernels::accumulate::add_n_s8(&#p, &[#(#xs),*], #y); }
            }
            None => quote! { #rt::kernels::accumulate::add_n_f32(&[#(#xs),*], #y); },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::reduce::tests::{check, vector};
    use super::super::test_helpers::*;
    use super::super::TensorData;
    use super::*;
    use crate::ir::OpKind;

    fn model(dtype: DType, n: usize, shape: &[usize], q: Q, qo: Q) -> (Vec<u8>, Vec<TensorId>, TensorId) {
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let xs: Vec<TensorId> = (0..n).map(|i| m.activation(&format!("x{i}"), dtype, shape, q)).collect();
        let y = m.activation("y", dtype, shape, qo);
        m.op(OpKind::AddN, &xs.iter().map(|&x| Some(x)).collect::<Vec<_>>(), &[y]);
        m.inputs(&xs).outputs(&[y]);
        (m.finish(), xs, y)
    }

    /// int8 with nonzero zero points (TFLite's extra `-zp_in` term) and saturation, and
    /// float32, for 2, 3 and 5 inputs, against TFLite Micro; and the refusals.
    #[test]
    fn against_tflite_micro() {
        for (k, &(n, qi, qo)) in [(2, (0.1, 0), (0.2, 0)), (3, (0.05, -20), (0.07, 9)), (5, (0.3, 100), (0.25, -128))].iter().enumerate() {
            let (bytes, xs, y) = model(DType::I8, n, &[3, 20], Some(qi), Some(qo));
            let inputs: Vec<_> = xs.iter().enumerate().map(|(j, &x)| (x, TensorData::I8(i8s(160 + (k * 8 + j) as u64, 60)))).collect();
            let name = format!("add_n_s8_{k}");
            check(&name, &bytes, &inputs, y, vector(VECTORS_S8, &name));
            let (bytes, xs, y) = model(DType::F32, n, &[3, 20], None, None);
            let inputs: Vec<_> = xs.iter().enumerate().map(|(j, &x)| (x, TensorData::F32(i8s(170 + (k * 8 + j) as u64, 60).iter().map(|&v| f32::from(v) * 0.013).collect()))).collect();
            let name = format!("add_n_f32_{k}");
            check(&name, &bytes, &inputs, y, vector(VECTORS_F32, &name));
        }
        expect_unsupported(&model(DType::I32, 2, &[3], None, None).0);
        expect_unsupported(&model(DType::I8, 2, &[3], Some((0.5, 0)), Some((1e-9, 0))).0);
        expect_invalid(&model(DType::F32, 1, &[3], None, None).0);
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let a = m.activation("a", DType::I8, &[3], Some((0.5, 0)));
        let b = m.activation("b", DType::I8, &[3], Some((0.25, 0)));
        let y = m.activation("y", DType::I8, &[3], Some((0.5, 0)));
        m.op(OpKind::AddN, &[Some(a), Some(b)], &[y]);
        expect_unsupported(&m.finish());
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let a = m.activation("a", DType::F32, &[3], None);
        let b = m.activation("b", DType::F32, &[4], None);
        let y = m.activation("y", DType::F32, &[3], None);
        m.op(OpKind::AddN, &[Some(a), Some(b)], &[y]);
        expect_invalid(&m.finish());
    }

    const VECTORS_S8: &[(&str, &[i8])] = &[
        ("add_n_s8_0", &[-41, 6, 29, -39, -62, -77, 1, 62, 73, -4, 5, -4, 21, -17, 7, 71, 1, 0, -82, 34, 5, -89, 89, -1, -10, 87, 14, 61, -63, -43, -4, 25, -15, -1, 11, -5, 85, 80, 5, -7, -25, -19, 15, 1, -25, -98, 34, 9, -49, -116, 7, -110, 1, -71, 51, -75, 32, -8, -106, 88]),
        ("add_n_s8_1", &[-9, 86, 52, 127, -38, -58, 127, 43, 50, 77, 127, 21, 31, 48, 116, 127, 109, -64, 127, 100, 48, 12, 127, 123, 127, -14, 97, 127, 82, 70, -30, 56, -128, 30, 127, -70, -31, 91, 127, 123, 127, 127, 127, -47, 127, 80, 92, 3, 127, 25, 73, 51, -70, -72, -128, 127, -72, 25, 18, 81]),
        ("add_n_s8_2", &[-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128]),
    ];
    const VECTORS_F32: &[(&str, &[f32])] = &[
        ("add_n_f32_0", &[1.547, 0.286, 1.04, 0.468, -1.313, -0.36399996, 1.8460001, -0.065, 0.13, 0.41599995, -1.053, -1.534, -0.624, -1.677, -0.29899997, 2.106, 0.728, -1.417, 1.573, 1.248, -0.85800004, -0.455, 2.158, 0.507, -0.71500003, 0.31200004, -0.09100002, 2.015, -0.24700001, 0.15599996, -1.274, -0.455, -3.042, -1.235, 1.7420001, -0.57199997, 0.45500004, -2.3400002, -2.145, -0.18199998, 1.8720001, 1.2609999, -0.533, -0.936, -0.32499993, -1.898, -0.65000004, -2.5479999, 0.273, 0.143, 1.4300001, 0.039000034, 1.027, 0.351, -2.145, -0.19500005, -0.598, -2.392, 1.001, -1.534]),
        ("add_n_f32_1", &[-0.42900002, 1.794, 0.71500003, -2.0800002, -0.29900002, 3.77, 0.36399996, -0.546, 1.7030001, -0.572, 1.1309999, -1.0400001, 1.781, -1.7679999, 0.88399994, -0.71500003, -0.89699996, 0.88400006, 0.10400003, 2.8990002, -1.898, -1.69, 0.26, 0.962, -1.6769999, 2.717, -0.26, -0.67600006, -0.50699997, -1.001, 2.3660002, 0.90999997, -2.977, 3.081, 2.171, 0.59800005, -0.715, 1.677, 1.1570001, -3.4450002, 0.507, -2.9510002, 1.716, 1.859, 1.014, -0.286, 0.116999984, -0.9879999, -0.22099999, -1.0009998, 0.32500005, -2.8730001, -1.066, -0.18199998, -0.19500005, -1.794, -0.429, -0.90999997, 4.186, 4.303]),
        ("add_n_f32_2", &[-2.041, -0.4939999, -2.483, 1.0529999, 0.884, 1.144, -0.5590001, -2.73, 1.4559999, 1.573, -1.222, -3.4190001, 0.5200001, -1.339, 3.1330004, 0.5719999, -1.7030001, 1.5600002, -0.611, 1.859, -1.0139997, 2.756, 0.793, 0.819, -0.42900002, -4.966, 1.4300001, -0.351, -0.9750001, -0.858, 1.937, -0.57199985, -2.353, -1.209, -2.535, -0.13000007, -1.924, -1.8070002, 3.705, -1.352, -2.574, -0.832, 4.1470003, 2.3140001, -0.8189999, -0.39, -2.4050002, 0.66300005, -1.7289999, 2.236, -2.8079998, -1.612, -0.58500004, 2.795, -0.46799994, -1.9889998, 2.9802322e-8, 2.223, -1.6380001, 0.2340002]),
    ];
}
