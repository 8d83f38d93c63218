//! Scalar reference implementation of [`super::svdf_s8`].

use super::SvdfParams;
use crate::quant::multiply_by_quantized_multiplier;

/// See [`super::svdf_s8`].
pub fn svdf_s8(
    p: &SvdfParams,
    input: &[i8],
    weights_feature: &[i8],
    weights_time: &[i8],
    bias: &[i32],
    state: &mut [i8],
    output: &mut [i8],
) {
    let mem = p.memory_size;
    // Shift the whole state left by one element; each row's last slot is rewritten below.
    if !state.is_empty() {
        state.copy_within(1.., 0);
    }

    for b in 0..p.batches {
        let x = &input[b * p.input_size..(b + 1) * p.input_size];
        let st = &mut state[b * p.num_filters * mem..(b + 1) * p.num_filters * mem];

        // Feature matmul: the newest activation of every filter.
        for (f, w) in weights_feature.chunks_exact(p.input_size).enumerate() {
            let mut dot: i32 = 0;
            for (&wv, &xv) in w.iter().zip(x) {
                dot = dot.wrapping_add((wv as i32).wrapping_mul((xv as i32).wrapping_sub(p.input_zero_point)));
            }
            let dot = multiply_by_quantized_multiplier(dot, p.feature_multiplier, p.feature_shift).clamp(-128, 127);
            // C++ stores `zero_point + dot` into an int8_t: a wrapping narrowing.
            st[f * mem + mem - 1] = p.state_zero_point.wrapping_add(dot) as i8;
        }

        // Time: per unit, bias plus the rank filters' state x time-weight dot products.
        for u in 0..p.num_units {
            let mut acc = bias[u];
            for f in u * p.rank..(u + 1) * p.rank {
                let s = &st[f * mem..(f + 1) * mem];
                let w = &weights_time[f * mem..(f + 1) * mem];
                for (&wv, &sv) in w.iter().zip(s) {
                    acc = acc.wrapping_add((wv as i32).wrapping_mul((sv as i32).wrapping_sub(p.state_zero_point)));
                }
            }
            let v = multiply_by_quantized_multiplier(acc, p.output_multiplier, p.output_shift)
                .wrapping_add(p.output_zero_point);
            output[b * p.num_units + u] = v.clamp(-128, 127) as i8;
        }
    }
}

/// `ActivationValFloat` (TFLite Micro `activation_utils.h`), with `TfLiteMax(a, b)` =
/// `a > b ? a : b` and `TfLiteMin(a, b)` = `a < b ? a : b`.
#[inline]
fn activation_f32(act: super::SvdfActivation, a: f32) -> f32 {
    use super::SvdfActivation as A;
    let max = |a: f32, b: f32| if a > b { a } else { b };
    let min = |a: f32, b: f32| if a < b { a } else { b };
    match act {
        A::None => a,
        A::Relu => max(0.0, a),
        A::ReluN1To1 => max(-1.0, min(a, 1.0)),
        A::Relu6 => max(0.0, min(a, 6.0)),
        A::Tanh => crate::math::tanhf(a),
        A::SignBit => {
            if a.is_sign_negative() {
                1.0
            } else {
                0.0
            }
        }
    }
}

/// float32 SVDF (TFLite Micro's `EvalFloatSvdfReference`): shifts the state one step, writes the feature projections of `input` into its newest column, then sums the time-weighted state per unit, adds `bias` and applies the activation.
pub fn svdf_f32(
    p: &super::SvdfF32Params,
    input: &[f32],
    weights_feature: &[f32],
    weights_time: &[f32],
    bias: &[f32],
    state: &mut [f32],
    output: &mut [f32],
) {
    let m = p.memory_size;
    // Left shift of the whole buffer by one element.
    if !state.is_empty() {
        state.copy_within(1.., 0);
    }
    for b in 0..p.batches {
        let x = &input[b * p.input_size..][..p.input_size];
        let st = &mut state[b * p.num_filters * m..][..p.num_filters * m];
        for (f, w) in weights_feature.chunks_exact(p.input_size).enumerate() {
            let mut dot = 0.0f32;
            for (&wi, &xi) in w.iter().zip(x) {
                dot += wi * xi;
            }
            st[f * m + m - 1] = dot;
        }
        let out = &mut output[b * p.num_units..][..p.num_units];
        for (u, y) in out.iter_mut().enumerate() {
            let mut acc = if bias.is_empty() { 0.0 } else { bias[u] };
            for f in u * p.rank..(u + 1) * p.rank {
                let mut dot = 0.0f32;
                for (&wt, &s) in weights_time[f * m..][..m].iter().zip(&st[f * m..][..m]) {
                    dot += wt * s;
                }
                acc += dot;
            }
            *y = activation_f32(p.activation, acc);
        }
    }
}
