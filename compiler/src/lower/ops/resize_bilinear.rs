//! RESIZE_BILINEAR (NHWC, rank 4), int8, to the constant int32 `size = [height, width]`.
//! TFLite Micro's int8 path is `reference_ops::ResizeBilinearInteger` (10-bit fixed-point
//! coordinates, int64 weighted sum); the two `scale_10` factors are computed here by the
//! runtime's `prepare_resize_bilinear`. `align_corners` together with
//! `half_pixel_centers` is refused, as TFLite Micro does. The interpolation works on raw
//! values, so the output must carry the input's quantization.

use super::movement::lower_resize;
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, ResizeOptions, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::resize_bilinear::{prepare_resize_bilinear, resize_bilinear_s8, ResizeBilinearParams};

crate::runtime_struct_lit!(kernels::resize_bilinear::ResizeBilinearParams {
    batches,
    input_height,
    input_width,
    depth,
    output_height,
    output_width,
    height_scale_10,
    width_scale_10,
    half_pixel_centers,
});

#[derive(Debug, Clone, PartialEq)]
pub struct ResizeBilinear {
    pub input: TensorId,
    pub output: TensorId,
    pub params: ResizeBilinearParams,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &ResizeOptions) -> Result<ResizeBilinear, LowerError> {
    if o.align_corners && o.half_pixel_centers {
        return Err(cx.invalid("align_corners and half_pixel_centers are both set"));
    }
    let r = lower_resize(cx)?;
    cx.expect_dtype(r.input, DType::I8)?;
    cx.q_s8(r.input)?;
    let ([batches, ih, iw, depth], [oh, ow]) = (r.input_shape, r.output_hw);
    let params = prepare_resize_bilinear(batches, ih, iw, depth, oh, ow, o.align_corners, o.half_pixel_centers)
        .ok_or_else(|| cx.unsupported("the sizes overflow the kernel's 32-bit fixed-point coordinates"))?;
    // The kernel computes `index * scale_10 + scale_10 + 1023` in i32 for every output row and
    // column; keep that in range.
    let fits = |n: usize, s: i32| (n as i64 + 2) * i64::from(s) + 2048 <= i64::from(i32::MAX);
    if !fits(oh, params.height_scale_10) || !fits(ow, params.width_scale_10) {
        return Err(cx.unsupported("the sizes overflow the kernel's 32-bit fixed-point coordinates"));
    }
    Ok(ResizeBilinear { input: r.input.id, output: r.output.id, params })
}

impl Kernel for ResizeBilinear {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = &self.params;
        let x = s.i8(self.input)?;
        if x.len() != p.batches * p.input_height * p.input_width * p.depth {
            return Err(ExecError(format!("RESIZE_BILINEAR: input {} has {} elements", self.input, x.len())));
        }
        let mut y = vec![0i8; p.batches * p.output_height * p.output_width * p.depth];
        resize_bilinear_s8(p, x, &mut y);
        s.insert(self.output, TensorData::I8(y));
        Ok(())
    }

    fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
        let p = cx.params_lit(quote! { kernels::resize_bilinear::ResizeBilinearParams }, &self.params);
        let rt = cx.rt().clone();
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #rt::kernels::resize_bilinear::resize_bilinear_s8(&#p, #x, #y); }
    }
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::*;
    use super::super::TensorData;
    use crate::error::LowerError;
    use crate::ir::{DType, OpKind, ResizeOptions, TensorId};
    use crate::tflite::builder::ModelBuilder;

    fn model(in_shape: &[usize], size: &[i32], out_shape: &[usize], o: ResizeOptions) -> (Vec<u8>, TensorId, TensorId) {
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I8, in_shape, Some((0.027, 6)));
        let s = b.constant_i32("size", &[size.len()], size, None);
        let y = b.activation("y", DType::I8, out_shape, Some((0.027, 6)));
        b.op(OpKind::ResizeBilinear(o), &[Some(x), Some(s)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        (b.finish(), x, y)
    }

    fn run(input: &[i8], in_hw: [usize; 2], out_hw: [usize; 2], align_corners: bool, half_pixel_centers: bool) -> Vec<i8> {
        let (bytes, x, y) = model(
            &[1, in_hw[0], in_hw[1], 1],
            &[out_hw[0] as i32, out_hw[1] as i32],
            &[1, out_hw[0], out_hw[1], 1],
            ResizeOptions { align_corners, half_pixel_centers },
        );
        let s = run_op0(&bytes, &[(x, TensorData::I8(input.to_vec()))]);
        i8_of(&s, y)
    }

    #[test]
    fn hand_computed_rows() {
        // 1 x 2 -> 1 x 4, no flags: source x = 0, 0.5, 1, 1.5 (clamped to the last pixel):
        // 10, (10 + 20) / 2, 20, 20.
        assert_eq!(run(&[10, 20], [1, 2], [1, 4], false, false), vec![10, 15, 20, 20]);
        // align_corners 1 x 2 -> 1 x 3: x = 0, 0.5, 1.
        assert_eq!(run(&[-100, 100], [1, 2], [1, 3], true, false), vec![-100, 0, 100]);
        // half_pixel_centers 1 x 2 -> 1 x 4: x = -0.25 (clamped lower index, weight
        // still applied to pixel 0), 0.25, 0.75, 1.25 (upper clamped):
        // 10, 12.5 -> 13 (half away from zero), 17.5 -> 18, 20.
        assert_eq!(run(&[10, 20], [1, 2], [1, 4], false, true), vec![10, 13, 18, 20]);
        // Negative half rounds away from zero: (-10 + -15) / 2 = -12.5 -> -13.
        assert_eq!(run(&[-10, -15], [1, 2], [1, 3], true, false), vec![-10, -13, -15]);
        // The extremes: (-128 + 127) / 2 = -0.5 rounds away from zero to -1.
        assert_eq!(run(&[-128, 127], [1, 2], [1, 3], true, false), vec![-128, -1, 127]);
        // 2 x 2 -> 3 x 3 align_corners: the centre is the mean of the four corners.
        assert_eq!(run(&[0, 40, 80, 120], [2, 2], [3, 3], true, false), vec![0, 20, 40, 40, 60, 80, 80, 100, 120]);
    }

    #[test]
    fn emits_params() {
        let (bytes, _, _) = model(&[1, 4, 4, 3], &[7, 9], &[1, 7, 9, 3], ResizeOptions { align_corners: false, half_pixel_centers: true });
        let (text, ni, no) = emit_op0(&bytes);
        assert_eq!((ni, no), (1, 1));
        // round(1024 * 4 / 7) = 585, round(1024 * 4 / 9) = 455.
        assert!(text.contains("height_scale_10 : 585 , width_scale_10 : 455 , half_pixel_centers : true"), "{text}");
        assert!(text.contains("resize_bilinear :: resize_bilinear_s8 (& P0"), "{text}");
    }

    #[test]
    fn malformed_and_unsupported_variants() {
        let o = ResizeOptions::default();
        // Both flags, wrong output shape, wrong size shape.
        assert!(matches!(
            lower_err(&model(&[1, 2, 2, 1], &[4, 4], &[1, 4, 4, 1], ResizeOptions { align_corners: true, half_pixel_centers: true }).0),
            LowerError::Invalid { .. }
        ));
        assert!(matches!(lower_err(&model(&[1, 2, 2, 1], &[4, 4], &[1, 4, 5, 1], o.clone()).0), LowerError::Invalid { .. }));
        assert!(matches!(lower_err(&model(&[1, 2, 2, 1], &[4, 4, 1], &[1, 4, 4, 1], o.clone()).0), LowerError::Invalid { .. }));
        // float32 has no kernel yet.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::F32, &[1, 2, 2, 1], None);
        let s = b.constant_i32("size", &[2], &[4, 4], None);
        let y = b.activation("y", DType::F32, &[1, 4, 4, 1], None);
        b.op(OpKind::ResizeBilinear(o), &[Some(x), Some(s)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }
}
