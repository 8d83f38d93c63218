//! RESIZE_BILINEAR (NHWC, rank 4), int8, to the constant int32 `size = [height, width]`.
//! TFLite Micro's int8 path is `reference_ops::ResizeBilinearInteger` (10-bit fixed-point
//! coordinates, int64 weighted sum); the two `scale_10` factors are computed here by the
//! runtime's `prepare_resize_bilinear`. `align_corners` together with
//! `half_pixel_centers` is refused, as TFLite Micro does. The interpolation works on raw
//! values, so the output must carry the input's quantization.
//!
//! float32 is TFLite Micro's `reference_ops::ResizeBilinear<float>`
//! ([`tflc_runtime::kernels::resize_bilinear::resize_bilinear_f32`]); the two `f32` scales
//! are computed here as TFLite computes them.

use super::movement::lower_resize;
use super::{ExecError, Kernel, OpCx, TensorData, TensorStore};
use crate::emit::EmitCx;
use crate::error::LowerError;
use crate::ir::{DType, ResizeOptions, TensorId};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::kernels::resize_bilinear::{
    prepare_resize_bilinear, prepare_resize_bilinear_f32, resize_bilinear_f32, resize_bilinear_s8, ResizeBilinearF32Params, ResizeBilinearParams,
};

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

crate::runtime_struct_lit!(kernels::resize_bilinear::ResizeBilinearF32Params {
    batches,
    input_height,
    input_width,
    depth,
    output_height,
    output_width,
    height_scale,
    width_scale,
    half_pixel_centers,
});

/// The params of one element type.
#[derive(Debug, Clone, PartialEq)]
pub enum ResizeBilinearScheme {
    S8(ResizeBilinearParams),
    F32(ResizeBilinearF32Params),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ResizeBilinear {
    pub input: TensorId,
    pub output: TensorId,
    pub params: ResizeBilinearScheme,
}

pub(crate) fn lower(cx: &OpCx<'_, '_>, o: &ResizeOptions) -> Result<ResizeBilinear, LowerError> {
    if o.align_corners && o.half_pixel_centers {
        return Err(cx.invalid("align_corners and half_pixel_centers are both set"));
    }
    let r = lower_resize(cx)?;
    if r.input.dtype == DType::F32 {
        let ([batches, ih, iw, depth], [oh, ow]) = (r.input_shape, r.output_hw);
        let params = prepare_resize_bilinear_f32(batches, ih, iw, depth, oh, ow, o.align_corners, o.half_pixel_centers)
            .ok_or_else(|| cx.invalid("align_corners and half_pixel_centers are both set"))?;
        return Ok(ResizeBilinear { input: r.input.id, output: r.output.id, params: ResizeBilinearScheme::F32(params) });
    }
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
    Ok(ResizeBilinear { input: r.input.id, output: r.output.id, params: ResizeBilinearScheme::S8(params) })
}

impl Kernel for ResizeBilinear {
    fn execute(&self, s: &mut TensorStore) -> Result<(), ExecError> {
        let p = match &self.params {
            ResizeBilinearScheme::S8(p) => p,
            ResizeBilinearScheme::F32(p) => {
                let x = s.f32(self.input)?;
                if x.len() != p.batches * p.input_height * p.input_width * p.depth {
                    return Err(ExecError(format!("RESIZE_BILINEAR: input {} has {} elements", self.input, x.len())));
                }
                let mut y = vec![0f32; p.batches * p.output_height * p.output_width * p.depth];
                resize_bilinear_f32(p, x, &mut y);
                s.insert(self.output, TensorData::F32(y));
                return Ok(());
            }
        };
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
        let (p, f) = match &self.params {
            ResizeBilinearScheme::S8(p) => (cx.params_lit(quote! { kernels::resize_bilinear::ResizeBilinearParams }, p), quote! { resize_bilinear_s8 }),
            ResizeBilinearScheme::F32(p) => (cx.params_lit(quote! { kernels::resize_bilinear::ResizeBilinearF32Params }, p), quote! { resize_bilinear_f32 }),
        };
        let rt = cx.rt().clone();
        let x = cx.input(self.input);
        let y = cx.output(self.output);
        quote! { #rt::kernels::resize_bilinear::#f(&#p, #x, #y); }
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
        // int16 has no kernel.
        let mut b = ModelBuilder::new();
        let x = b.activation("x", DType::I16, &[1, 2, 2, 1], Some((0.5, 0)));
        let s = b.constant_i32("size", &[2], &[4, 4], None);
        let y = b.activation("y", DType::I16, &[1, 4, 4, 1], Some((0.5, 0)));
        b.op(OpKind::ResizeBilinear(o), &[Some(x), Some(s)], &[y]);
        b.inputs(&[x]).outputs(&[y]);
        assert!(matches!(lower_err(&b.finish()), LowerError::Unsupported { .. }));
    }

    /// float32 (`reference_ops::ResizeBilinear<float>`) under the three flag settings,
    /// upscaling and downscaling, 2 channels and 2 batches: bit for bit with TFLite Micro's
    /// outputs, and each output within 1e-6 (relative to the input's magnitude) of the
    /// bilinear interpolation in f64 at TFLite's source coordinates.
    #[test]
    fn float32_against_tflite_micro() {
        let cases: [(&[usize], [usize; 2], bool, bool); 5] = [
            (&[2, 3, 4, 2], [5, 7], false, false),
            (&[2, 3, 4, 2], [5, 7], true, false),
            (&[2, 3, 4, 2], [5, 7], false, true),
            (&[1, 5, 6, 2], [2, 3], false, true),
            (&[1, 5, 6, 2], [3, 4], true, false),
        ];
        for (k, &(shape, [oh, ow], ac, hp)) in cases.iter().enumerate() {
            let (b, ih, iw, d) = (shape[0], shape[1], shape[2], shape[3]);
            let mut m = ModelBuilder::new();
            let x = m.activation("x", DType::F32, shape, None);
            let s = m.constant_i32("size", &[2], &[oh as i32, ow as i32], None);
            let y = m.activation("y", DType::F32, &[b, oh, ow, d], None);
            m.op(OpKind::ResizeBilinear(ResizeOptions { align_corners: ac, half_pixel_centers: hp }), &[Some(x), Some(s)], &[y]);
            m.inputs(&[x]).outputs(&[y]);
            let bytes = m.finish();
            let xs: Vec<f32> = super::super::test_helpers::i8s(140 + k as u64, b * ih * iw * d).iter().map(|&q| f32::from(q) * 0.173 - 0.3).collect();
            let name = format!("resize_bilinear_f32_{k}");
            let st = super::super::test_helpers::run_op0(&name, &bytes, &[(x, TensorData::F32(xs.clone()))]);
            let got = st.f32(y).unwrap().to_vec();
            // The real interpolation at the source coordinates TFLite uses (f64).
            let coord = |o: usize, i: usize, n: usize| -> (f64, usize, usize) {
                let sc = if ac && n > 1 { (i - 1) as f64 / (n - 1) as f64 } else { i as f64 / n as f64 };
                let v = if hp { (o as f64 + 0.5) * sc - 0.5 } else { o as f64 * sc };
                (v, (v.floor().max(0.0)) as usize, (v.ceil() as usize).min(i - 1))
            };
            let mut n = 0;
            for bb in 0..b {
                for oy in 0..oh {
                    let (vy, y0, y1) = coord(oy, ih, oh);
                    let dy = vy - y0 as f64;
                    for ox in 0..ow {
                        let (vx, x0, x1) = coord(ox, iw, ow);
                        let dx = vx - x0 as f64;
                        for c in 0..d {
                            let at = |yy: usize, xx: usize| xs[((bb * ih + yy) * iw + xx) * d + c] as f64;
                            let r = at(y0, x0) * (1.0 - dy) * (1.0 - dx) + at(y1, x0) * dy * (1.0 - dx) + at(y0, x1) * (1.0 - dy) * dx + at(y1, x1) * dy * dx;
                            assert!((got[n] as f64 - r).abs() < 1e-6 * 128.0 * 0.173, "{name} output {n}: {} vs {r}", got[n]);
                            n += 1;
                        }
                    }
                }
            }
            let want = RESIZE_BILINEAR_F32_TFLM.iter().find(|(nm, _)| *nm == name).map_or(&[][..], |(_, v)| *v);
            if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
                continue;
            }
            assert_eq!(got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "{name}");
        }
    }

    /// TFLite Micro's outputs (`tools/op_test_vectors.py`).
    const RESIZE_BILINEAR_F32_TFLM: &[(&str, &[f32])] = &[
        ("resize_bilinear_f32_0", &[
            -3.7599998, 16.654, -3.0679998, 11.809999, -2.3512855, 9.214999, -1.5604284, 13.367001, 3.9261446,
            6.0021396, 14.108429, -12.879573, 16.654, -17.599998, 6.4124002, 5.858799, 3.4862287, 2.9721704,
            1.9786577, -0.112172365, 4.7268867, -3.7896576, 6.0911136, -3.4733126, 6.0713425, 0.8368583, 6.066399,
            1.9144006, 14.4396, -5.144001, 7.4405136, -3.937943, 3.0215998, -5.124229, 6.3432, -13.487543, 5.18657,
            -10.146169, -0.44828665, 4.899886, -1.8570001, 8.661398, 18.176401, -16.561998, 6.194914, -6.992627,
            -2.5094576, -1.5060573, -1.3824865, -8.267886, -1.8570011, -11.213828, -3.9330003, -10.343885, -4.452,
            -10.126401, 19.422, -20.367998, 5.7797136, -8.010856, -4.3531427, -0.3000006, -3.957714, -6.528002,
            -4.2048573, -11.569715, -5.094571, -15.425142, -5.3170004, -16.388998, -17.426998, 19.595, -5.6629987,
            -4.0318575, -0.473001, -21.01057, -15.005002, -18.044855, -18.464996, -14.238855, -10.852999, -9.59257,
            -8.95, -8.431, -12.548399, 9.837799, -3.9280562, -3.2311146, -0.81405807, -13.596285, -14.219088,
            -15.850227, -17.323198, -13.467768, -10.126398, -6.4489126, -8.3272, -4.6941996, -10.507, 1.2223995,
            -5.8804855, -3.5029716, -4.08623, -8.203629, -10.788743, -12.830143, -11.27314, -11.485683, -5.5394263,
            -4.1702557, -4.105999, -2.3413997, -14.14, -5.1094007, -15.207657, -5.9200287, -13.220627, -6.854229,
            -2.069539, -8.1591425, 4.5934305, -7.0815983, 6.768286, -3.6215992, 7.3120003, -2.7566, -15.351, -7.22,
            -18.316713, -6.725714, -16.265427, -6.4044285, 0.8368616, -6.602143, 9.882285, -5.613571, 10.870857,
            -3.4387136, 11.118, -2.8949997
        ]),
        ("resize_bilinear_f32_1", &[
            7.8309994, 8.8689995, -2.203, -0.3000002, -12.2369995, -9.469, -5.317, 1.6894999, 1.6029999, 12.848,
            10.253, -2.635499, 18.903, -18.118998, 10.166499, 13.6265, -1.9435003, 2.295, -14.053499, -9.0365,
            -3.3707497, -2.15975, 7.3119993, 4.717, 12.11275, -5.662999, 16.9135, -16.043, 12.501999, 18.384,
            -1.6840005, 4.8900003, -15.87, -8.604, -1.4245005, -6.009, 13.020999, -3.4139998, 13.972499, -8.6905,
            14.923999, -13.967, 5.6684995, 9.6475, 3.9817495, -0.12699986, 2.2949996, -9.9015, 9.171749, -8.3445,
            16.0485, -6.7875, 7.1822505, -10.5935, -1.6839995, -14.3995, -1.165, 0.91099995, 9.647499, -5.1439996,
            20.46, -11.198999, 19.768, -10.68, 19.076, -10.161, 0.39200115, -12.4965, -18.291998, -14.832, 13.539999,
            -2.5489998, 4.8899994, 1.6029999, -3.7599998, 5.7549996, -11.2855, -7.9119997, -18.810999, -21.578999,
            -17.254, -21.492498, -15.697, -21.405998, 14.145499, -1.2514999, 2.5977497, 3.5059998, -8.95, 8.263499,
            -13.448, -0.42975003, -17.946, -9.122999, -10.89625, -15.134748, -3.8465, -21.1465, 14.750999,
            0.045999974, 0.30550003, 5.4089994, -14.139999, 10.771999, -15.610499, 7.0525, -17.081, 3.333, -4.5385,
            -8.776999, 8.004, -20.887, -3.4139996, 8.782499, -3.6734996, 12.0695, -3.9329998, 15.3565, -9.296,
            11.117999, -14.658999, 6.8795, -1.2082496, 3.37625, 12.2425, -0.12699986, -21.578999, 17.519, -7.652499,
            18.73, 6.2739997, 19.941, -2.9815, 15.1835, -12.2369995, 10.426, 2.1220007, 15.529499, 16.481, 20.633
        ]),
        ("resize_bilinear_f32_2", &[
            -1.6840004, -15.351002, -6.070787, -12.323499, -13.089644, -7.4795, 3.506, -7.3930006, 18.235708,
            -6.4414964, -3.7105768, 5.3225036, -17.427, 12.675, -9.2960005, -12.8598, -6.515643, -12.353157, -2.06707,
            -11.542528, 2.5718002, -4.1405993, 6.0367413, 3.236615, 1.0938854, 3.8495283, -1.9953969, 4.232599,
            -20.714, -9.123, -7.1829257, -12.397642, 14.466787, -17.63707, 1.1705003, 0.73800087, -12.261706,
            17.753778, 8.300578, 1.6400666, 21.152, -8.431, 1.3954065, 5.616603, 3.1748319, 3.3799598, 6.0219126,
            -0.19866753, 4.388301, 6.654601, 3.241563, 12.808452, 9.983617, 3.634512, 14.197399, -2.0991986, 16.135,
            15.442998, 10.079998, 13.8983555, 0.39199942, 11.426928, 6.5334997, 10.598999, 13.577071, 9.511569,
            11.105641, 4.964141, 9.561, 2.1219997, 5.5820007, -3.2410002, -2.4501448, 4.852931, -15.301573, 17.803217,
            -11.6315, 19.076002, -6.935788, 16.036135, -11.582074, -5.514721, -14.486002, -18.984, 3.0215998,
            -2.6181998, -3.107544, 3.3503013, -12.914171, 12.8999, -6.6144996, 9.4918, 0.053412095, 3.3626513,
            -6.807274, -8.856089, -11.0952, -16.4928, -0.81900007, -1.6840001, -4.093643, 1.0963576, -9.333072,
            5.5449286, 0.9109998, -4.8845005, 10.53721, -15.647571, 0.3549254, -13.868142, -6.009, -12.756, -3.933001,
            -8.534802, -5.6506433, -6.7183013, -8.39887, -3.811902, -4.279001, -4.6769, -0.53231895, -6.7281857,
            -6.2660313, -13.312073, -9.8496, -17.427, -6.0089993, -13.102, -6.688643, -11.928071, -7.776071,
            -10.049786, -7.7390003, -4.5385, -7.9120007, -0.78193295, -10.680001, -12.9413595, -12.41, -20.540998
        ]),
        ("resize_bilinear_f32_3", &[
            5.53875, 8.695999, 5.3008747, -3.2193747, -4.49525, -1.4677501, -11.090875, 7.4850006, -11.307124,
            -6.9605, 10.685499, -10.788124
        ]),
        ("resize_bilinear_f32_4", &[
            3.1599998, 10.598999, -13.621, 4.601666, 5.639665, -11.545, 8.8689995, -22.443998, 2.468, -20.194998,
            2.2373335, -9.065333, -4.0483336, 8.292333, 10.252999, -6.355, 13.020999, -5.317, -16.446667, -4.567333,
            -3.5293348, 5.6396656, -10.507, 20.806
        ]),
    ];
}
