//! Hand-checked: MaxPoolingWithArgmax2D's indices put every value back where it came from;
//! later writes win; indices out of the output are dropped. Golden vectors from a NumPy
//! transcription of MediaPipe's kernel are in the compiler's tests
//! (`lower/ops/max_unpooling_2d.rs`).

use super::*;
use crate::kernels::max_pooling_with_argmax_2d::{max_pooling_with_argmax_2d_f32, MaxPoolingWithArgmax2dParams};

#[test]
fn unpooling_inverts_pooling_with_argmax() {
    let input: [f32; 16] = [1.0, 2.0, 4.0, 3.0, 3.0, 0.0, 1.0, 8.0, 5.0, 6.0, -1.0, -2.0, 7.0, 0.5, -3.0, -4.0];
    let pool = MaxPoolingWithArgmax2dParams {
        input_shape: [1, 4, 4, 1],
        output_shape: [1, 2, 2, 1],
        filter: [2, 2],
        stride: [2, 2],
        padding: [0, 0],
        activation_min: f32::MIN,
        activation_max: f32::MAX,
    };
    let (mut pooled, mut idx) = ([0.0; 4], [0.0; 4]);
    max_pooling_with_argmax_2d_f32(&pool, &input, &mut pooled, &mut idx);
    let p = MaxUnpooling2dParams { input_shape: [1, 2, 2, 1], output_shape: [1, 4, 4, 1], filter_width: 2, stride: [2, 2], padding: [0, 0] };
    let mut out = [f32::NAN; 16];
    max_unpooling_2d_f32(&p, &pooled, &idx, &mut out);
    assert_eq!(out, [0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 8.0, 0.0, 0.0, -1.0, 0.0, 7.0, 0.0, 0.0, 0.0]);
}

#[test]
fn overlapping_writes_keep_the_last_and_out_of_range_indices_are_dropped() {
    // 1x2 input, filter 2x2, stride 1: output 2x4, padding ((2-1)*1 + 2 - 4)/2 = 0.
    let p = MaxUnpooling2dParams { input_shape: [1, 1, 2, 1], output_shape: [1, 2, 4, 1], filter_width: 2, stride: [1, 1], padding: [0, 0] };
    let mut out = [f32::NAN; 8];
    // Value 1 to window (0, 1) = output (0, 1); value 2 to window (0, 0) of x = 1: output (0, 1) again.
    max_unpooling_2d_f32(&p, &[1.0, 2.0], &[1.1, 0.1], &mut out);
    assert_eq!(out, [0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    for bad in [f32::NAN, -1.0, 1e10, -1e10, 40.0] {
        let mut out = [f32::NAN; 8];
        max_unpooling_2d_f32(&p, &[1.0, 2.0], &[bad, 2.1], &mut out);
        let first = if bad.is_nan() { 1.0 } else { 0.0 };
        assert_eq!(out, [first, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0], "index {bad}");
    }
}
