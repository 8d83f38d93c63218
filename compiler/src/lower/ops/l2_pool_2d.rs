//! L2_POOL_2D: TFLite Micro `l2_pool_2d.cc`, float32 only (it refuses every other type;
//! so does tflc). The window, padding and output-shape checks are the pools'
//! ([`super::pool_2d::lower_pool`], TFLite's `ComputePaddingHeightWidth`); the kernel is
//! `tflc_runtime::kernels::l2_pool_2d` (`reference_ops::L2Pool`, bit-exact).

use super::pool_2d::{lower_pool, Pool2d, PoolClamp};
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, Pool2dOptions};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::l2_pool_2d::{l2_pool_2d_f32, L2Pool2dParams};

crate::runtime_struct_lit!(kernels::l2_pool_2d::L2Pool2dParams { geometry, clamp });

#[derive(Debug, Clone, PartialEq)]
pub struct L2Pool2d {
    pub pool: Pool2d,
    pub params: L2Pool2dParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &Pool2dOptions) -> Result<L2Pool2d, LowerError> {
    let input = cx.input(0)?;
    if input.dtype != DType::F32 {
        return Err(cx.unsupported_tensor(input, format!("{} input (TFLite Micro's L2_POOL_2D runs float32 only)", input.dtype)));
    }
    let pool = lower_pool(cx, o)?;
    let PoolClamp::F32(clamp) = pool.clamp else {
        return Err(cx.unsupported_tensor(input, "a non-float32 output"));
    };
    Ok(L2Pool2d { params: L2Pool2dParams { geometry: pool.geometry, clamp }, pool })
}

impl Kernel for L2Pool2d {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let (x, y) = (self.pool.input, self.pool.output);
        let mut out = s.take_f32(y, self.pool.output_len());
        let input = s.f32(x)?;
        self.pool.check_input("L2_POOL_2D", input.len())?;
        l2_pool_2d_f32(&self.params, input, &mut out);
        s.insert(y, TensorData::F32(out));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(quote! { kernels::l2_pool_2d::L2Pool2dParams }, &self.params);
        let input = cx.input(self.pool.input);
        let output = cx.output(self.pool.output);
        quote! { #rt::kernels::l2_pool_2d::l2_pool_2d_f32(&#p, #input, #output); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::average_pool_2d::pool_opts;
    use super::super::test_helpers::{expect_invalid, expect_unsupported, i8s, run_op0};
    use super::super::TensorData;
    use crate::ir::{Activation, DType, OpKind, Padding, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(dtype: DType, input: &[usize], output: &[usize], padding: Padding, filter: [i32; 2], stride: [i32; 2], act: Activation) -> (Vec<u8>, TensorId, TensorId) {
        let q = (dtype != DType::F32).then_some((0.1, 0));
        let mut b = ModelBuilder::new();
        let x = b.activation("x", dtype, input, q);
        let y = b.activation("y", dtype, output, q);
        b.op(OpKind::L2Pool2d(pool_opts(padding, filter, stride, act)), &[Some(x)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    fn check(name: &str, input: [usize; 4], output: [usize; 4], padding: Padding, (filter, stride): ([i32; 2], [i32; 2]), act: Activation, want: &[f32]) {
        let (bytes, x, y) = model(DType::F32, &input, &output, padding, filter, stride, act);
        let n: usize = input.iter().product();
        let v: Vec<f32> = i8s(41, n).iter().map(|&v| v as f32 / 10.0).collect();
        let store = run_op0(name, &bytes, &[(x, TensorData::F32(v))]);
        if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
            return;
        }
        let got: Vec<u32> = store.f32(y).unwrap().iter().map(|v| v.to_bits()).collect();
        assert_eq!(got, want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "{name}");
    }

    #[test]
    fn float32_matches_tflite_micro() {
        // SAME 3x3 stride 2 (clipped windows at the edges), VALID 2x2 stride 1 with RELU6.
        check("l2_pool_2d_f32_same", [1, 5, 6, 3], [1, 3, 3, 3], Padding::Same, ([3, 3], [2, 2]), Activation::None, WANT_SAME);
        check("l2_pool_2d_f32_valid_relu6", [2, 3, 4, 2], [2, 2, 3, 2], Padding::Valid, ([2, 2], [1, 1]), Activation::Relu6, WANT_VALID_RELU6);
    }

    #[test]
    fn refusals() {
        // int8 (TFLite Micro: float32 only), a wrong output shape, a zero stride.
        expect_unsupported(&model(DType::I8, &[1, 4, 4, 1], &[1, 2, 2, 1], Padding::Valid, [2, 2], [2, 2], Activation::None).0);
        expect_invalid(&model(DType::F32, &[1, 4, 4, 1], &[1, 3, 2, 1], Padding::Valid, [2, 2], [2, 2], Activation::None).0);
        expect_invalid(&model(DType::F32, &[1, 4, 4, 1], &[1, 2, 2, 1], Padding::Valid, [2, 2], [0, 2], Activation::None).0);
    }

    const WANT_SAME: &[f32] = &[
        5.9799666, 7.668442, 8.9360695, 7.405403, 6.7125506, 6.301719, 7.4709435, 3.3726845, 5.897033,
        6.6061416, 6.1412086, 6.744957, 7.932983, 5.1577344, 4.545327, 6.5944424, 5.6737704, 7.879192,
        4.4600077, 5.5347385, 6.934335, 4.464303, 2.8746014, 6.721855, 3.5049963, 3.335416, 6.9348755,
    ];
    const WANT_VALID_RELU6: &[f32] = &[
        6.0, 6.0, 6.0, 5.801939, 3.1040297, 5.1093054, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 4.0518517,
        4.2080283, 6.0, 1.781853, 6.0, 5.0985293, 6.0, 6.0, 3.3462665, 5.0544534,
    ];
}
