//! Against hand-checked values (SAME and VALID, ties, an all-padding-clipped window,
//! activation clamps). Golden vectors from a NumPy transcription of MediaPipe's kernel are
//! in the compiler's tests (`lower/ops/max_pooling_with_argmax_2d.rs`).

use super::*;

fn params(input_shape: [usize; 4], output_shape: [usize; 4], filter: [usize; 2], stride: [usize; 2], padding: [usize; 2]) -> MaxPoolingWithArgmax2dParams {
    MaxPoolingWithArgmax2dParams { input_shape, output_shape, filter, stride, padding, activation_min: f32::MIN, activation_max: f32::MAX }
}

#[test]
fn valid_2x2_stride_2_finds_the_first_maximum() {
    // 4x4, one channel; the window of the top-right output has two equal maxima (4.0).
    let input = [1.0, 2.0, 4.0, 4.0, 3.0, 0.0, 1.0, 1.0, 5.0, 6.0, -1.0, -2.0, 7.0, 0.5, -3.0, -4.0];
    let p = params([1, 4, 4, 1], [1, 2, 2, 1], [2, 2], [2, 2], [0, 0]);
    let (mut out, mut idx) = ([0.0; 4], [0.0; 4]);
    max_pooling_with_argmax_2d_f32(&p, &input, &mut out, &mut idx);
    assert_eq!(out, [3.0, 4.0, 7.0, -1.0]);
    assert_eq!(idx, [2.1, 0.1, 2.1, 0.1]);
}

#[test]
fn same_padding_clips_the_window_and_clamps() {
    // 3x3, 2x2 window, stride 2, SAME: out 2x2, padding 0 (ComputePadding rounds down), the
    // last row and column windows are clipped. RELU6 clamps.
    let input = [-1.0, 9.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0, -0.5];
    let mut p = params([1, 3, 3, 1], [1, 2, 2, 1], [2, 2], [2, 2], [0, 0]);
    p.activation_min = 0.0;
    p.activation_max = 6.0;
    let (mut out, mut idx) = ([0.0; 4], [0.0; 4]);
    max_pooling_with_argmax_2d_f32(&p, &input, &mut out, &mut idx);
    assert_eq!(out, [6.0, 0.0, 0.0, 0.0]);
    assert_eq!(idx, [1.1, 0.1, 0.1, 0.1]);
}

#[test]
fn padding_offsets_the_window_and_nan_never_wins() {
    // 2x2 input, 3x3 window, stride 1, padding 1: window coordinates count the padding.
    let input = [f32::NAN, 1.0, 2.0, 0.0];
    let p = params([1, 2, 2, 1], [1, 2, 2, 1], [3, 3], [1, 1], [1, 1]);
    let (mut out, mut idx) = ([0.0; 4], [0.0; 4]);
    max_pooling_with_argmax_2d_f32(&p, &input, &mut out, &mut idx);
    assert_eq!(out, [2.0, 2.0, 2.0, 2.0]);
    // Input (1, 0) is window (2, 1) from output (0, 0), (2, 0) from (0, 1), (1, 1) from (1, 0) and (1, 0) from (1, 1).
    assert_eq!(idx, [7.1, 6.1, 4.1, 3.1]);
}
