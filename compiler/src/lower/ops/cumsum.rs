//! CUMSUM: the running sum along a constant int32 axis (one element, negative from the
//! end), `exclusive` and `reverse` as options; float32 or int8 (TFLite Micro `cumsum.cc`;
//! the int8 rescaling is ADD_N's, [`super::add_n::scaled_sum`]).

use super::movement::{get, put};
use super::{ExecError, Kernel, OpCx, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::accumulate::{cumsum_f32, cumsum_s8, CumsumParams, ScaledSumParams};

crate::runtime_struct_lit!(kernels::accumulate::CumsumParams { outer, depth, inner, exclusive, reverse });

/// A lowered CUMSUM (`s8`: the int8 rescaling; `None` for float32).
#[derive(Debug, Clone, PartialEq)]
pub struct Cumsum {
    pub input: TensorId,
    pub output: TensorId,
    pub params: CumsumParams,
    pub s8: Option<ScaledSumParams>,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, exclusive: bool, reverse: bool) -> Result<Cumsum, LowerError> {
    cx.expect_arity(2..=2, 1)?;
    let (input, axis, output) = (cx.input(0)?, cx.input(1)?, cx.output(0)?);
    cx.expect_activation(output)?;
    cx.expect_dtype(output, input.dtype)?;
    if output.shape != input.shape {
        return Err(cx.invalid_tensor(output, format!("output shape {:?}, but the input's is {:?}", output.shape, input.shape)));
    }
    let s8 = match input.dtype {
        DType::F32 => None,
        DType::I8 => Some(super::add_n::scaled_sum(cx, input, output)?),
        other => return Err(cx.unsupported_tensor(input, format!("element type {other} (TFLite Micro's CUMSUM takes float32 and int8)"))),
    };
    let a = cx.const_i32(axis)?;
    let &[a] = a.as_slice() else {
        return Err(cx.invalid_tensor(axis, format!("{} axis values (TFLite Micro requires one)", a.len())));
    };
    let rank = input.shape.len();
    let d = if a < 0 { i64::from(a) + rank as i64 } else { i64::from(a) };
    if rank == 0 || !(0..rank as i64).contains(&d) {
        return Err(cx.invalid_tensor(axis, format!("axis {a} is out of range for rank {rank}")));
    }
    let d = d as usize;
    let params = CumsumParams {
        outer: input.shape[..d].iter().product(),
        depth: input.shape[d],
        inner: input.shape[d + 1..].iter().product(),
        exclusive,
        reverse,
    };
    Ok(Cumsum { input: input.id, output: output.id, params, s8 })
}

impl Kernel for Cumsum {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let n = self.params.outer * self.params.depth * self.params.inner;
        match &self.s8 {
            Some(q) => {
                let x = get::<i8>(s, self.input)?;
                if x.len() != n {
                    return Err(ExecError(format!("CUMSUM: input has {} elements, expected {n}", x.len())));
                }
                let mut out = vec![0i8; n];
                cumsum_s8(&self.params, q, x, &mut out);
                put(s, self.output, out);
            }
            None => {
                let x = get::<f32>(s, self.input)?;
                if x.len() != n {
                    return Err(ExecError(format!("CUMSUM: input has {} elements, expected {n}", x.len())));
                }
                let mut out = vec![0f32; n];
                cumsum_f32(&self.params, x, &mut out);
                put(s, self.output, out);
            }
        }
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::accumulate::CumsumParams }, &self.params);
        let (x, y) = (cx.input(self.input), cx.output(self.output));
        match &self.s8 {
            Some(q) => {
                let q = cx.params_lit(quote! { kernels::accumulate::ScaledSumParams }, q);
                quote! { #rt::kernels::accumulate::cumsum_s8(&#p, &#q, #x, #y); }
            }
            None => quote! { #rt::kernels::accumulate::cumsum_f32(&#p, #x, #y); },
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

    fn model(dtype: DType, shape: &[usize], axis: &[i32], exclusive: bool, reverse: bool, q: Q, qo: Q) -> (Vec<u8>, [TensorId; 2]) {
        let mut m = crate::tflite::builder::ModelBuilder::new();
        let x = m.activation("x", dtype, shape, q);
        let a = m.constant_i32("axis", &[axis.len()], axis, None);
        let y = m.activation("y", dtype, shape, qo);
        m.op(OpKind::Cumsum { exclusive, reverse }, &[Some(x), Some(a)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        (m.finish(), [x, y])
    }

    /// Each axis (negative too) with every exclusive/reverse combination, int8 (nonzero
    /// zero points, saturation) and float32, against TFLite Micro; and the refusals.
    #[test]
    fn against_tflite_micro() {
        let mut k = 0;
        for &(shape, axis) in &[(&[3usize, 4, 5][..], 1), (&[3, 4, 5][..], -1), (&[6, 2][..], 0), (&[7][..], 0)] {
            for (exclusive, reverse) in [(false, false), (true, false), (false, true), (true, true)] {
                let n: usize = shape.iter().product();
                let (bytes, [x, y]) = model(DType::I8, shape, &[axis], exclusive, reverse, Some((0.05, -9)), Some((0.12, 4)));
                let name = format!("cumsum_s8_{k}");
                check(&name, &bytes, &[(x, TensorData::I8(i8s(180 + k, n)))], y, vector(VECTORS_S8, &name));
                let (bytes, [x, y]) = model(DType::F32, shape, &[axis], exclusive, reverse, None, None);
                let name = format!("cumsum_f32_{k}");
                let xf: Vec<f32> = i8s(190 + k, n).iter().map(|&v| f32::from(v) * 0.011).collect();
                check(&name, &bytes, &[(x, TensorData::F32(xf))], y, vector(VECTORS_F32, &name));
                k += 1;
            }
        }
        expect_unsupported(&model(DType::I32, &[3], &[0], false, false, None, None).0);
        expect_invalid(&model(DType::F32, &[3, 2], &[2], false, false, None, None).0);
        expect_invalid(&model(DType::F32, &[3, 2], &[0, 1], false, false, None, None).0);
        expect_unsupported(&model(DType::I8, &[3], &[0], false, false, Some((0.5, 0)), Some((1e-9, 0))).0);
    }

    const VECTORS_S8: &[(&str, &[i8])] = &[
        ("cumsum_s8_0", &[33, 34, 64, 4, 52, 79, 87, 73, 22, 29, 77, 48, 127, 5, -6, 113, 34, 127, -15, 35, -16, 1, -11, -11, -22, -4, 3, -3, -39, -57, 37, -7, -33, 14, -36, 55, -1, -15, 44, -65, 24, -34, 50, 35, 58, 62, 13, 6, 32, 94, 86, -33, 27, 57, 62, 72, -27, -12, 109, 101]),
        ("cumsum_s8_1", &[8, 8, 8, 8, 8, 54, -17, 57, -36, -21, 93, 37, 19, 5, 0, 114, 26, 62, -17, -21, 8, 8, 8, 8, 8, -25, -20, -9, 14, 12, 11, 30, -31, 32, 37, -29, 14, 25, 15, 68, 8, 8, 8, 8, 8, 26, 64, -5, 33, -1, 31, 89, 9, 67, -11, 38, 84, -10, 114, 40]),
        ("cumsum_s8_2", &[-34, 23, 36, 69, 109, -65, 1, 19, 77, 106, -25, -6, -20, 72, 68, 7, 40, 9, 61, 47, 54, 92, -6, -47, 127, 2, 127, -44, -29, 101, -43, 83, -31, -14, 54, -37, 32, -12, 22, 34, 29, 51, 101, -6, 62, 32, 74, 44, 32, 38, 8, 100, 11, 38, 26, 26, 57, -7, 41, -27]),
        ("cumsum_s8_3", &[-50, 37, 119, -28, -90, -20, 24, 83, 12, -47, -19, 48, 28, -8, -29, 8, 8, 8, 8, 8, 122, 46, -11, 13, 59, 84, 19, 37, 12, 29, 45, -21, 46, -32, 43, 8, 8, 8, 8, 8, -69, 101, 24, 42, -45, -45, 91, -12, 59, -26, -25, 36, 28, 40, -25, 8, 8, 8, 8, 8]),
        ("cumsum_s8_4", &[3, -2, 1, 20, 33, 38, 52, 47, 39, 65, -34, -84, -31, -72, -21, 62, 12, 57, 82, 127, 61, 101, 58, 95, 77, -3, 13, 62, 59, 42, 56, 42, 97, 54, 109, 2, 39, 72, 45, 28, 17, 48, 38, 40, -7, 39, 82, 112, 86, 64, 17, 24, 33, -7, -22, -37, -11, -56, -19, 35]),
        ("cumsum_s8_5", &[8, 32, -13, -59, -89, 8, -11, -23, -7, 20, 8, 43, 4, 1, -19, 8, 4, -44, -23, -17, 8, 1, -25, -11, 12, 8, 42, 49, 73, 112, 8, -15, 37, 5, -28, 8, 24, 42, 52, 37, 8, 7, -27, -58, -79, 8, 57, 35, 30, 42, 8, -9, 29, 14, 44, 8, 9, 18, 49, 84]),
        ("cumsum_s8_6", &[16, 58, 50, 47, 17, -110, -61, -55, -37, -9, 67, 35, 81, 79, 55, 12, -28, -46, -25, -20, -64, -20, -16, -44, 1, -74, -27, -22, -12, 1, -36, 10, 45, 30, -24, 26, -12, -28, 7, -35, 47, 48, 62, 68, 28, -49, -28, 5, -38, -30, 29, 69, 79, 38, 35, -101, -53, -26, -30, -6]),
        ("cumsum_s8_7", &[70, 25, 41, -1, 8, 53, 16, 62, 7, 8, 84, 114, 81, 44, 8, 86, 75, 35, 39, 8, 102, 49, 13, 9, 8, 127, 75, 20, 23, 8, -43, -76, -49, -35, 8, 103, 62, 68, 19, 8, -25, -2, -57, -13, 8, 3, -14, -24, 5, 8, 34, 33, 50, 17, 8, -21, -70, -80, -37, 8]),
        ("cumsum_s8_8", &[41, -22, -2, -30, 21, 10, -9, 9, 1, 62, 27, 53]),
        ("cumsum_s8_9", &[8, 8, -41, 5, -59, 30, -52, 42, -59, 56, -72, 42]),
        ("cumsum_s8_10", &[32, -32, 42, -15, 27, 22, 11, 1, 6, 17, -36, -30]),
        ("cumsum_s8_11", &[-55, 33, -42, 53, -25, 2, -8, -49, -15, -6, 8, 8]),
        ("cumsum_s8_12", &[64, 101, 127, 102, 99, 100, 79]),
        ("cumsum_s8_13", &[8, -34, -14, -29, -19, -5, -29]),
        ("cumsum_s8_14", &[-3, 45, 66, 38, 1, -3, -31]),
        ("cumsum_s8_15", &[-73, -46, -74, -55, -25, 1, 8]),
    ];
    const VECTORS_F32: &[(&str, &[f32])] = &[
        ("cumsum_f32_0", &[-0.352, -0.561, 0.275, -1.056, 0.32999998, 0.09900001, -0.528, -0.26399997, -0.04400003, 1.474, -1.155, -1.617, -1.5289999, -0.18700004, 0.95699996, -2.354, -2.244, -2.189, -0.08800004, 0.77, 1.221, 1.089, -1.188, 1.056, 0.616, 1.166, 0.69299996, -0.54999995, 0.814, 0.671, 1.661, 1.1989999, 0.14300007, -0.42900002, -0.53900003, 1.562, 0.76999986, 0.22000006, -0.55, -0.04400003, -0.352, 0.561, 1.375, 0.495, -1.353, 0.83599997, 0.20899999, 2.233, 0.20899999, 0.04399991, 0.18699998, -0.32999998, 2.937, 1.122, -0.5720001, -0.704, -0.010999978, 2.706, 0.957, -1.2980001]),
        ("cumsum_f32_1", &[0.0, 0.0, 0.0, 0.0, 0.0, 0.759, 0.396, -0.451, -0.616, -0.539, 1.9909999, -0.15400001, 0.803, -0.528, -1.7709999, 1.287, -0.61600006, -0.462, 0.495, -1.9799999, 0.0, 0.0, 0.0, 0.0, 0.0, 0.033, 1.254, 0.561, -1.375, 0.693, -1.32, 0.24199998, 0.032999992, -1.452, 0.26400003, -1.144, -0.572, -0.09900001, -0.352, -0.47299996, 0.0, 0.0, 0.0, 0.0, 0.0, 0.715, 0.65999997, -0.198, 1.155, 0.198, -0.28600007, 0.23099998, 0.198, 0.08799994, -0.165, 0.36299992, 0.09899998, 1.331, 1.298, -0.638]),
        ("cumsum_f32_2", &[1.21, -1.628, 1.419, -0.396, -0.6599999, -0.16499999, -2.519, 0.748, 0.46199998, -0.5059999, -0.088, -1.859, 0.352, -0.37399998, -1.8039999, -0.044, -0.924, -0.495, -0.473, -1.298, 0.583, 2.167, 0.86899996, -1.21, -2.8270001, 0.66, 1.144, 1.364, -0.187, -1.452, 1.309, 0.77, 0.20899999, -0.583, -0.099, 0.99, 0.935, 0.341, 0.385, -0.176, -1.5400001, 2.6839998, 4.653, 2.376, 1.7709999, -1.595, 3.0689998, 3.696, 1.507, 1.056, -0.352, 1.7049999, 2.431, 1.375, -0.286, -0.099, 0.55, 1.188, 0.484, -0.099]),
        ("cumsum_f32_3", &[-1.9029999, -2.2330003, -1.0339999, 0.0, -1.8590001, -1.188, -2.6620002, -0.616, -0.759, -1.3970001, -0.902, -1.276, -0.407, -1.375, -0.473, 0.0, 0.0, 0.0, 0.0, 0.0, 0.42900002, -1.408, 0.66, -0.737, -1.419, -0.264, -0.010999978, -0.473, -0.032999992, -0.605, 0.858, -0.935, 0.825, -0.429, 0.363, 0.0, 0.0, 0.0, 0.0, 0.0, 0.46200007, -1.364, 0.374, -0.055000067, -2.068, -0.87999994, -0.737, 0.352, -0.40700006, -1.947, 0.374, -0.264, 0.143, 0.946, -0.561, 0.0, 0.0, 0.0, 0.0, 0.0]),
        ("cumsum_f32_4", &[-1.375, -2.024, -1.3859999, -0.5169999, -0.5059999, 0.649, -0.473, -0.671, -0.13200003, -0.35200003, -0.594, -0.86899996, -0.47299996, -1.045, -1.9909999, -0.682, -0.528, 0.54999995, 0.57199997, 0.42899996, 0.099, 1.221, 0.54999995, 1.7379999, 1.2099999, -0.473, 0.41799998, -0.77, -1.661, -0.638, 0.429, -0.594, -0.473, -0.495, 0.51699996, 0.077, -0.528, -0.363, -1.188, 0.15400004, -0.902, 0.022000015, 0.275, 1.1, 0.07700002, 1.232, 0.264, -0.48400003, -1.2980001, -1.8040001, 0.352, 0.065999985, 0.065999985, 1.397, 1.3199999, -0.957, -2.0570002, -3.344, -3.2120001, -2.8270001]),
        ("cumsum_f32_5", &[0.0, 1.21, 0.39600003, 1.034, 0.44000006, 0.0, -0.803, -1.0669999, 0.11000013, 1.4190001, 0.0, -0.022, -0.88, -0.957, -0.85800004, 0.0, -0.627, -0.17599997, 0.5170001, 1.0340002, 0.0, -0.473, -0.86899996, -0.45099998, -1.727, 0.0, 1.078, -0.16500008, 0.91299987, 2.277, 0.0, -0.077, -0.814, -0.50600004, 0.704, 0.0, 0.176, 0.792, -0.25299996, 0.16500002, 0.0, 0.121, -0.20899999, 0.143, -1.232, 0.0, -0.737, -0.055000007, 0.16499999, 1.089, 0.0, 0.737, 0.110000014, -1.1, -2.475, 0.0, -0.99, 0.011000037, -0.8249999, 0.5500001]),
        ("cumsum_f32_6", &[0.8139999, -0.50600004, -1.001, -0.97900003, -0.407, -0.066000044, 0.79199994, -0.15400004, 0.14299995, -0.572, -1.1440002, -1.2540002, -2.5960002, -1.6830001, -0.506, 0.70400006, 0.47300005, -0.671, 0.143, -0.099, 0.8360001, -0.2529999, 0.96800005, -0.176, -0.319, -1.386, -0.957, 0.032999992, 1.045, 1.232, 1.9359999, 1.0339999, 0.715, -0.22000003, 1.122, -1.2429998, -0.5829999, -0.2529999, -1.0999999, -1.254, -0.924, -0.88000005, 0.506, -0.20899999, 0.88, -0.43999994, -1.54, -1.1769999, -1.254, -0.83599997, -1.914, -2.002, -1.276, -1.87, -0.627, -0.3740001, -0.3850001, -1.639, -1.529, -0.44]),
        ("cumsum_f32_7", &[1.001, 0.33000004, -0.594, 0.297, 0.0, -1.5509999, -0.60499996, 0.110000014, 0.671, 0.0, 0.24200004, -0.40699995, 0.88, -0.132, 0.0, 1.287, 0.5939999, 1.1769999, 1.045, 0.0, -2.695, -1.6389999, -1.375, -1.045, 0.0, -1.3639998, -1.5179999, -1.2429999, -0.132, 0.0, -0.0990001, -0.4180001, -1.6170001, -0.517, 0.0, -1.331, 0.055000067, -0.72599995, -0.65999997, 0.0, 2.761, 1.793, 1.826, 0.792, 0.0, 0.09899999, -0.143, 0.594, 0.066, 0.0, -2.7059999, -2.8049998, -1.485, -0.253, 0.0, 0.022000074, -0.979, -1.683, -0.825, 0.0]),
        ("cumsum_f32_8", &[0.583, -0.891, -0.693, -0.48399997, -1.8039999, 0.561, -2.9369998, -0.561, -2.893, -1.771, -2.145, -2.475]),
        ("cumsum_f32_9", &[0.0, 0.0, -0.594, -1.276, -0.594, -2.255, 0.07700002, -1.848, -0.27499998, -0.4840001, -0.539, -0.75900006]),
        ("cumsum_f32_10", &[0.29699993, 0.143, 0.58299994, -0.264, 1.65, 0.528, 0.495, 1.837, -0.803, 0.65999997, -0.429, 0.121]),
        ("cumsum_f32_11", &[0.18700004, -1.375, -0.86899996, -0.29700005, -1.122, -1.353, -0.07700002, -0.20899999, -1.397, -0.253, 0.0, 0.0]),
        ("cumsum_f32_12", &[0.077, 1.166, 0.34100002, -0.792, 0.517, -0.12099999, 0.539]),
        ("cumsum_f32_13", &[0.0, -0.066, 0.572, -0.41799998, -1.507, -1.4959999, -0.41799998]),
        ("cumsum_f32_14", &[2.684, 2.0900002, 2.585, 1.8809999, 0.83599997, 0.43999994, -0.88]),
        ("cumsum_f32_15", &[-1.287, -1.122, -1.221, 0.143, 0.726, -0.264, 0.0]),
    ];
}
