//! Against the definition: each output is its bias plus the sum over every (input position,
//! filter tap) that lands on it, computed by gathering in the same order, and hand-checked
//! values. The golden vectors from a TFLite graph are in the compiler's tests
//! (`lower/ops/convolution_2d_transpose_bias.rs`).

use super::*;
use std::vec::Vec;

fn gather(p: &Convolution2dTransposeBiasParams, input: &[f32], filter: &[f32], bias: &[f32]) -> Vec<f32> {
    let [n, ih, iw, id] = p.input_shape;
    let [od, fh, fw, _] = p.filter_shape;
    let [_, oh, ow, _] = p.output_shape;
    let mut out = Vec::new();
    for b in 0..n {
        for oy in 0..oh {
            for ox in 0..ow {
                for oc in 0..od {
                    let mut acc = bias[oc];
                    for iy in 0..ih {
                        for ix in 0..iw {
                            for ic in 0..id {
                                let fy = (oy + p.padding[0]) as isize - (iy * p.stride[0]) as isize;
                                let fx = (ox + p.padding[1]) as isize - (ix * p.stride[1]) as isize;
                                if fy >= 0 && fx >= 0 && (fy as usize) < fh && (fx as usize) < fw {
                                    acc += input[((b * ih + iy) * iw + ix) * id + ic] * filter[((oc * fh + fy as usize) * fw + fx as usize) * id + ic];
                                }
                            }
                        }
                    }
                    out.push(acc);
                }
            }
        }
    }
    out
}

fn values(seed: u32, out: &mut [f32]) {
    let mut s = seed;
    for v in out {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        *v = ((s >> 16) % 17) as f32 * 0.25 - 2.0;
    }
}

#[test]
fn same_and_valid_padding_match_the_definition_bit_for_bit() {
    // (input h, w, stride h, w, filter h, w, SAME?)
    for (ih, iw, sh, sw, fh, fw, same) in
        [(3, 4, 2, 2, 3, 3, true), (3, 4, 2, 2, 3, 3, false), (2, 3, 1, 2, 2, 4, true), (4, 2, 3, 1, 2, 3, true), (1, 1, 2, 2, 1, 1, false), (2, 2, 1, 1, 3, 3, true)]
    {
        let (id, od) = (2, 3);
        let ph = if same { (fh as isize - ((ih - 1) % sh) as isize - 1).max(0) as usize } else { 0 };
        let pw = if same { (fw as isize - ((iw - 1) % sw) as isize - 1).max(0) as usize } else { 0 };
        let (oh, ow) = (sh * (ih - 1) + fh - ph, sw * (iw - 1) + fw - pw);
        let p = Convolution2dTransposeBiasParams {
            input_shape: [1, ih, iw, id],
            filter_shape: [od, fh, fw, id],
            output_shape: [1, oh, ow, od],
            stride: [sh, sw],
            padding: [ph / 2, pw / 2],
        };
        let (mut input, mut filter, mut bias) = (std::vec![0.0; ih * iw * id], std::vec![0.0; od * fh * fw * id], [0.0; 3]);
        values(1, &mut input);
        values(2, &mut filter);
        values(3, &mut bias);
        let mut out = std::vec![f32::NAN; oh * ow * od];
        convolution_2d_transpose_bias_f32(&p, &input, &filter, &bias, &mut out);
        let want = gather(&p, &input, &filter, &bias);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&out), bits(&want), "{p:?}");
    }
}

#[test]
fn a_single_pixel_is_the_filter_plus_bias() {
    // 1x1 input, 2x2 filter, stride 2, VALID: the output is the filter scaled by the input.
    let p = Convolution2dTransposeBiasParams { input_shape: [1, 1, 1, 1], filter_shape: [1, 2, 2, 1], output_shape: [1, 2, 2, 1], stride: [2, 2], padding: [0, 0] };
    let mut out = [0.0; 4];
    convolution_2d_transpose_bias_f32(&p, &[2.0], &[1.0, 2.0, 3.0, 4.0], &[0.5], &mut out);
    assert_eq!(out, [2.5, 4.5, 6.5, 8.5]);
}
