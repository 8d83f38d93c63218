//! Bit-exactness against TFLite Micro golden data for single-op models
//! (`../shared/ops/golden/<model>/`, see `../shared/ops/README.md`).
//!
//! The op parameters that the (future) compiler reads from each `.tflite` (tensor scales
//! as f32 bit patterns, zero points, shapes, options, small constant tensors) are written
//! out by hand below from the model files; the expected outputs are read from the golden
//! `.bin` files. Each test prints SKIP and passes when `../shared` is absent.

use std::path::{Path, PathBuf};
use tflc_runtime::kernels::nd::plan_broadcast;
use tflc_runtime::prepare::FusedActivation;
use tflc_runtime::quant::QuantParams;

fn golden_dir(model: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/ops/golden").join(model);
    if dir.join("index.json").is_file() {
        Some(dir)
    } else {
        eprintln!("SKIP {model}: golden data not found at {} (../shared absent)", dir.display());
        None
    }
}

fn read_i8(dir: &Path, file: &str) -> Vec<i8> {
    let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()));
    bytes.into_iter().map(|b| b as i8).collect()
}

fn read_f32(dir: &Path, file: &str) -> Vec<f32> {
    let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()));
    bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn q(scale_bits: u32, zero_point: i32) -> QuantParams {
    QuantParams { scale: f32::from_bits(scale_bits), zero_point }
}

const RUNS: [&str; 2] = ["run0", "run1"];

fn mismatches<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T]) -> String {
    assert_eq!(got.len(), want.len());
    let bad: Vec<_> = got.iter().zip(want).enumerate().filter(|(_, (g, w))| g != w).take(8).collect();
    format!("{} mismatches, first: {:?}", got.iter().zip(want).filter(|(g, w)| g != w).count(), bad)
}

macro_rules! assert_same {
    ($got:expr, $want:expr, $ctx:expr) => {{
        let (g, w) = (&$got, &$want);
        assert!(g[..] == w[..], "{}: {}", $ctx, mismatches(&g[..], &w[..]));
    }};
}

mod elementwise {
    use super::*;
    use tflc_runtime::kernels::{add, dequantize, leaky_relu, maximum, minimum, mul, prelu, quantize, relu};

    #[test]
    fn op_add_broadcast_relu() {
        let Some(d) = golden_dir("op_add_broadcast_relu") else { return };
        let plan = plan_broadcast(&[1, 4, 6, 3], &[1, 1, 1, 3]).unwrap();
        let p = add::prepare_add(q(0x3cd0d222, -4), q(0x3cc0425d, -17), q(0x3cba16df, -128), FusedActivation::Relu, plan.as_broadcast()).unwrap();
        for r in RUNS {
            let (a, b) = (read_i8(&d, &format!("{r}_in0.bin")), read_i8(&d, &format!("{r}_in1.bin")));
            let mut out = vec![0i8; 72];
            add::add_s8(&p, &a, &b, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// MUL (by a constant scalar) then ADD, same shapes.
    #[test]
    fn op_add_same_shape() {
        let Some(d) = golden_dir("op_add_same_shape") else { return };
        let mplan = plan_broadcast(&[1, 5, 5, 4], &[]).unwrap();
        let pm = mul::prepare_mul(q(0x3cf3b8c3, -2), q(0x3c008081, -128), q(0x3d73b8c3, -2), FusedActivation::None, mplan.as_broadcast()).unwrap();
        let plan = plan_broadcast(&[1, 5, 5, 4], &[1, 5, 5, 4]).unwrap();
        let pa = add::prepare_add(q(0x3cebbd5f, 0), q(0x3d73b8c3, -2), q(0x3d857573, 5), FusedActivation::None, plan.as_broadcast()).unwrap();
        let y: [i8; 1] = [127];
        for r in RUNS {
            let (a, b) = (read_i8(&d, &format!("{r}_in0.bin")), read_i8(&d, &format!("{r}_in1.bin")));
            let mut t3 = vec![0i8; 100];
            mul::mul_s8(&pm, &b, &y, &mut t3);
            if r == "run0" {
                assert_same!(t3, read_i8(&d, "t3.bin"), "mul intermediate");
            }
            let mut out = vec![0i8; 100];
            add::add_s8(&pa, &a, &t3, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_mul_broadcast() {
        let Some(d) = golden_dir("op_mul_broadcast") else { return };
        let plan = plan_broadcast(&[1, 5, 5, 4], &[1, 1, 1, 4]).unwrap();
        let p = mul::prepare_mul(q(0x3cea3edb, -10), q(0x3cc6260a, 9), q(0x3d522963, -19), FusedActivation::None, plan.as_broadcast()).unwrap();
        for r in RUNS {
            let (a, b) = (read_i8(&d, &format!("{r}_in0.bin")), read_i8(&d, &format!("{r}_in1.bin")));
            let mut out = vec![0i8; 100];
            mul::mul_s8(&p, &a, &b, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_mul_same_shape() {
        let Some(d) = golden_dir("op_mul_same_shape") else { return };
        let plan = plan_broadcast(&[1, 6, 6, 2], &[1, 6, 6, 2]).unwrap();
        let p = mul::prepare_mul(q(0x3ce045fa, -5), q(0x3ce2a644, 8), q(0x3d2b0009, 13), FusedActivation::None, plan.as_broadcast()).unwrap();
        for r in RUNS {
            let (a, b) = (read_i8(&d, &format!("{r}_in0.bin")), read_i8(&d, &format!("{r}_in1.bin")));
            let mut out = vec![0i8; 72];
            mul::mul_s8(&p, &a, &b, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_maximum_broadcast() {
        let Some(d) = golden_dir("op_maximum_broadcast") else { return };
        let plan = plan_broadcast(&[1, 4, 4, 3], &[1, 1, 4, 3]).unwrap();
        let p = maximum::MaximumParams { broadcast: plan.as_broadcast() };
        for r in RUNS {
            let (a, b) = (read_i8(&d, &format!("{r}_in0.bin")), read_i8(&d, &format!("{r}_in1.bin")));
            let mut out = vec![0i8; 48];
            maximum::maximum_s8(&p, &a, &b, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_minimum_same_shape() {
        let Some(d) = golden_dir("op_minimum_same_shape") else { return };
        let plan = plan_broadcast(&[1, 3, 7], &[1, 3, 7]).unwrap();
        let p = minimum::MinimumParams { broadcast: plan.as_broadcast() };
        for r in RUNS {
            let (a, b) = (read_i8(&d, &format!("{r}_in0.bin")), read_i8(&d, &format!("{r}_in1.bin")));
            let mut out = vec![0i8; 21];
            minimum::minimum_s8(&p, &a, &b, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_relu_standalone() {
        let Some(d) = golden_dir("op_relu_standalone") else { return };
        let p = relu::prepare_relu(q(0x3cebf6ad, 15), q(0x3c4e5e4b, -128)).unwrap();
        for r in RUNS {
            let mut out = vec![0i8; 80];
            relu::relu_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// Golden data from TFLite's reference kernels (requantizing RELU6), see ops/README.md.
    #[test]
    fn op_relu6_standalone() {
        let Some(d) = golden_dir("op_relu6_standalone") else { return };
        let p = relu::prepare_relu6(q(0x3cec4f59, -8), q(0x3c7a8b45, -128)).unwrap();
        for r in RUNS {
            let mut out = vec![0i8; 80];
            relu::relu_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_leaky_relu() {
        let Some(d) = golden_dir("op_leaky_relu") else { return };
        let p = leaky_relu::prepare_leaky_relu(q(0x3ceb22c7, 4), q(0x3c898204, -83), 0.2f32).unwrap();
        for r in RUNS {
            let mut out = vec![0i8; 108];
            leaky_relu::leaky_relu_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_prelu() {
        let Some(d) = golden_dir("op_prelu") else { return };
        let plan = plan_broadcast(&[1, 6, 6, 3], &[1, 1, 3]).unwrap();
        let p = prelu::prepare_prelu(q(0x3ce67a04, -1), q(0x3b810204, 0), q(0x3cad23b4, -44), plan.as_broadcast()).unwrap();
        let alpha: [i8; 3] = [25, 76, 127];
        for r in RUNS {
            let mut out = vec![0i8; 108];
            prelu::prelu_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &alpha, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// QUANTIZE (f32 -> s8) then RELU.
    #[test]
    fn op_quantize_float_in() {
        let Some(d) = golden_dir("op_quantize_float_in") else { return };
        let t1 = q(0x3cc9df13, -5);
        let pq = quantize::QuantizeParams { scale: t1.scale, zero_point: t1.zero_point };
        let pr = relu::prepare_relu(t1, q(0x3c51a8d0, -128)).unwrap();
        for r in RUNS {
            let mut mid = vec![0i8; 16];
            quantize::quantize_f32_s8(&pq, &read_f32(&d, &format!("{r}_in0.bin")), &mut mid);
            if r == "run0" {
                assert_same!(mid, read_i8(&d, "t1.bin"), "quantize");
            }
            let mut out = vec![0i8; 16];
            relu::relu_s8(&pr, &mid, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// RELU then DEQUANTIZE (s8 -> f32), compared bit for bit.
    #[test]
    fn op_dequantize_float_out() {
        let Some(d) = golden_dir("op_dequantize_float_out") else { return };
        let t1 = q(0x3c3477a7, -128);
        let pr = relu::prepare_relu(q(0x3ccf1096, 16), t1).unwrap();
        let pd = dequantize::DequantizeParams { scale: t1.scale, zero_point: t1.zero_point };
        for r in RUNS {
            let mut mid = vec![0i8; 16];
            relu::relu_s8(&pr, &read_i8(&d, &format!("{r}_in0.bin")), &mut mid);
            let mut out = vec![0f32; 16];
            dequantize::dequantize_s8_f32(&pd, &mid, &mut out);
            let got: Vec<u32> = out.iter().map(|f| f.to_bits()).collect();
            let want: Vec<u32> = read_f32(&d, &format!("{r}_out0.bin")).iter().map(|f| f.to_bits()).collect();
            assert_same!(got, want, r);
        }
    }
}

mod data_movement {
    use super::*;
    use tflc_runtime::kernels::{
        add, concatenation, mul, pack, pad, reshape, resize_bilinear, resize_nearest_neighbor, slice, split, split_v, transpose, unpack,
    };

    /// MUL (input b by a constant) then CONCATENATION on axis 3.
    #[test]
    fn op_concat_axis3() {
        let Some(d) = golden_dir("op_concat_axis3") else { return };
        let mplan = plan_broadcast(&[1, 4, 4, 5], &[]).unwrap();
        let pm = mul::prepare_mul(q(0x3d06b1dc, 1), q(0x3c40c0c1, -128), q(0x3dca0acb, 1), FusedActivation::None, mplan.as_broadcast()).unwrap();
        let mut offsets = [0; 2];
        let mut lens = [0; 2];
        let (outer, row) = concatenation::prepare_concatenation(&[&[1, 4, 4, 3], &[1, 4, 4, 5]], 3, &mut offsets, &mut lens).unwrap();
        let pc = concatenation::ConcatenationParams { outer, output_row: row, offsets: &offsets, lens: &lens };
        for r in RUNS {
            let (a, b) = (read_i8(&d, &format!("{r}_in0.bin")), read_i8(&d, &format!("{r}_in1.bin")));
            let mut t3 = vec![0i8; 80];
            mul::mul_s8(&pm, &b, &[127], &mut t3);
            let mut out = vec![0i8; 128];
            concatenation::concatenation_s8(&pc, &[&a, &t3], &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// UNPACK [3, 5] on axis 0 into three [5], then PACK (t3, t1, t2) on axis 1 -> [5, 3].
    #[test]
    fn op_pack_unpack() {
        let Some(d) = golden_dir("op_pack_unpack") else { return };
        let plans: Vec<_> = (0..3).map(|k| unpack::prepare_unpack_output(&[3, 5], 0, k).unwrap()).collect();
        let (outer, row, inner) = pack::prepare_pack(&[5], 1, 3).unwrap();
        let pp = pack::PackParams { outer, output_row: row, offsets: &[0, inner, 2 * inner], lens: &[inner; 3] };
        for r in RUNS {
            let x = read_i8(&d, &format!("{r}_in0.bin"));
            let (mut t1, mut t2, mut t3) = (vec![0i8; 5], vec![0i8; 5], vec![0i8; 5]);
            let params: Vec<_> = plans.iter().map(|p| p.as_params()).collect();
            unpack::unpack_all(&params, &x, &mut [&mut t1[..], &mut t2[..], &mut t3[..]]);
            if r == "run0" {
                assert_same!(t1, read_i8(&d, "t1.bin"), "unpack 0");
                assert_same!(t3, read_i8(&d, "t3.bin"), "unpack 2");
            }
            let mut out = vec![0i8; 15];
            pack::pack_s8(&pp, &[&t3, &t1, &t2], &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_pad_constant() {
        let Some(d) = golden_dir("op_pad_constant") else { return };
        let mut out_shape = [0; 4];
        pad::pad_output_shape(&[1, 5, 6, 3], &[(0, 0), (1, 2), (2, 1), (0, 0)], &mut out_shape).unwrap();
        assert_eq!(out_shape, [1, 8, 9, 3]);
        let p = pad::PadParams { input_shape: &[1, 5, 6, 3], output_shape: &out_shape, before: &[0, 1, 2, 0], pad_value: 2i8 };
        for r in RUNS {
            let mut out = vec![0i8; 216];
            pad::pad_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_padv2_value() {
        let Some(d) = golden_dir("op_padv2_value") else { return };
        let p = pad::PadParams { input_shape: &[1, 4, 4, 2], output_shape: &[1, 6, 6, 2], before: &[0, 1, 1, 0], pad_value: 30i8 };
        for r in RUNS {
            let mut out = vec![0i8; 72];
            pad::pad_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// MUL then RESHAPE (as a copy).
    #[test]
    fn op_reshape_squeeze_expand() {
        let Some(d) = golden_dir("op_reshape_squeeze_expand") else { return };
        let mplan = plan_broadcast(&[1, 4, 6], &[]).unwrap();
        let pm = mul::prepare_mul(q(0x3ce49402, -4), q(0x3c008081, -128), q(0x3d649402, -4), FusedActivation::None, mplan.as_broadcast()).unwrap();
        for r in RUNS {
            let mut t3 = vec![0i8; 24];
            mul::mul_s8(&pm, &read_i8(&d, &format!("{r}_in0.bin")), &[127], &mut t3);
            let mut out = vec![0i8; 24];
            reshape::reshape_s8(&t3, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_resize_bilinear_half_pixel() {
        let Some(d) = golden_dir("op_resize_bilinear_half_pixel") else { return };
        let p = resize_bilinear::prepare_resize_bilinear(1, 4, 4, 3, 7, 9, false, true).unwrap();
        for r in RUNS {
            let mut out = vec![0i8; 7 * 9 * 3];
            resize_bilinear::resize_bilinear_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_resize_nearest_2x() {
        let Some(d) = golden_dir("op_resize_nearest_2x") else { return };
        let (mut rows, mut cols) = ([0usize; 8], [0usize; 10]);
        resize_nearest_neighbor::prepare_resize_nearest_neighbor(4, 5, 3, false, true, &mut rows, &mut cols);
        let p = resize_nearest_neighbor::ResizeNearestNeighborParams { batches: 1, depth: 3, input_batch_stride: 60, row_offsets: &rows, col_offsets: &cols };
        for r in RUNS {
            let mut out = vec![0i8; 240];
            resize_nearest_neighbor::resize_nearest_neighbor_s8(&p, &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_slice() {
        let Some(d) = golden_dir("op_slice") else { return };
        let plan = slice::prepare_slice(&[1, 8, 8, 4], &[0, 2, 1, 0], &[1, 4, 5, 3]).unwrap();
        for r in RUNS {
            let mut out = vec![0i8; 60];
            slice::slice_s8(&plan.as_params(), &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// SPLIT in two on axis 3, MUL the second half by a constant, ADD the halves.
    #[test]
    fn op_split_2() {
        let Some(d) = golden_dir("op_split_2") else { return };
        let shape = [1, 4, 4, 6];
        let axis = split::resolve_axis(3, 4).unwrap();
        let size = split::split_size(6, 2).unwrap();
        let p0 = split::prepare_split_output(&shape, axis, 0, size).unwrap();
        let p1 = split::prepare_split_output(&shape, axis, size, size).unwrap();
        let mplan = plan_broadcast(&[1, 4, 4, 3], &[]).unwrap();
        let pm = mul::prepare_mul(q(0x3ceada28, 16), q(0x3b008081, -128), q(0x3c6ada28, 16), FusedActivation::None, mplan.as_broadcast()).unwrap();
        let aplan = plan_broadcast(&[1, 4, 4, 3], &[1, 4, 4, 3]).unwrap();
        let pa = add::prepare_add(q(0x3ceada28, 16), q(0x3c6ada28, 16), q(0x3cf0de81, 4), FusedActivation::None, aplan.as_broadcast()).unwrap();
        for r in RUNS {
            let x = read_i8(&d, &format!("{r}_in0.bin"));
            let (mut t3, mut t4) = (vec![0i8; 48], vec![0i8; 48]);
            split::split_s8(&p0.as_params(), &x, &mut t3);
            split::split_s8(&p1.as_params(), &x, &mut t4);
            if r == "run0" {
                assert_same!(t3, read_i8(&d, "t3.bin"), "split 0");
                assert_same!(t4, read_i8(&d, "t4.bin"), "split 1");
            }
            let mut t5 = vec![0i8; 48];
            mul::mul_s8(&pm, &t4, &[127], &mut t5);
            let mut out = vec![0i8; 48];
            add::add_s8(&pa, &t3, &t5, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    /// SPLIT_V [2, 4] on axis 1, then CONCATENATION (t4, t3) on axis 1.
    #[test]
    fn op_split_v() {
        let Some(d) = golden_dir("op_split_v") else { return };
        let shape = [1, 6, 4, 2];
        let mut sizes = [0; 2];
        split_v::split_v_sizes(6, &[2, 4], &mut sizes).unwrap();
        let p0 = split_v::prepare_split_output(&shape, 1, 0, sizes[0]).unwrap();
        let p1 = split_v::prepare_split_output(&shape, 1, sizes[0], sizes[1]).unwrap();
        let mut offsets = [0; 2];
        let mut lens = [0; 2];
        let (outer, row) = concatenation::prepare_concatenation(&[&[1, 4, 4, 2], &[1, 2, 4, 2]], 1, &mut offsets, &mut lens).unwrap();
        let pc = concatenation::ConcatenationParams { outer, output_row: row, offsets: &offsets, lens: &lens };
        for r in RUNS {
            let x = read_i8(&d, &format!("{r}_in0.bin"));
            let (mut t3, mut t4) = (vec![0i8; 16], vec![0i8; 32]);
            split_v::split_all(&[p0.as_params(), p1.as_params()], &x, &mut [&mut t3[..], &mut t4[..]]);
            let mut out = vec![0i8; 48];
            concatenation::concatenation_one(&pc, 0, &t4, &mut out);
            concatenation::concatenation_one(&pc, 1, &t3, &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }

    #[test]
    fn op_transpose_0312() {
        let Some(d) = golden_dir("op_transpose_0312") else { return };
        let plan = transpose::prepare_transpose(&[1, 4, 5, 3], &[0, 3, 1, 2]).unwrap();
        for r in RUNS {
            let mut out = vec![0i8; 60];
            transpose::transpose_s8(&plan.as_params(), &read_i8(&d, &format!("{r}_in0.bin")), &mut out);
            assert_same!(out, read_i8(&d, &format!("{r}_out0.bin")), r);
        }
    }
}
