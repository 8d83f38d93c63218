//! Bit-exactness vectors: the one committed-vector format of the runtime tests. Each test
//! holds its inputs, the TFLite-level parameters it starts from (scales as f32 bit
//! patterns, zero points, options, shapes), derives the kernel parameters through the
//! runtime's prepare functions, runs the kernel and requires the expected output byte for
//! byte. The expected outputs come from an oracle, never from these kernels, as each test's
//! doc line says: the TFLite Micro Python interpreter (PyPI `tflite-micro`, reference
//! kernels) on tiny single-op models built for shapes, broadcasting patterns, masks, ranks
//! and flags the ../shared corpus does not reach; TFLite's reference kernels (ai-edge-litert
//! `BUILTIN_REF`) for RELU6 / RELU_N1_TO_1 with requantization; or the TFLite Micro golden
//! data of ../shared (an operator's recorded input and output in a corpus model or a
//! single-op model). Inputs of the built models are seeded random int8 data.
//! Self-contained: no ../shared needed.
//!
//! (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and the pools still read their vectors
//! from `data/tflm_golden/*.txt` in `golden_vectors.rs` while their kernel API is being
//! reworked; they move here with it.)

#![allow(clippy::unreadable_literal)]

use tflc_runtime::kernels::nd::{activation_range_f32, activation_range_i32, plan_broadcast, PlainBinaryParams};
use tflc_runtime::kernels::{
    add, concatenation, dequantize, hard_swish, leaky_relu, logistic, maximum, mean, minimum, mul, pack, pad, prelu,
    quantize, relu, resize_bilinear, resize_nearest_neighbor, slice, softmax, split, split_v, strided_slice, sub, tanh,
    transpose, unpack,
};
use tflc_runtime::prepare::{self, FusedActivation};
use tflc_runtime::quant::QuantParams;

fn q(scale_bits: u32, zero_point: i32) -> QuantParams {
    QuantParams { scale: f32::from_bits(scale_bits), zero_point }
}

/// Expected output: TFLite Micro.
#[test]
fn add_rank5_broadcast_relu6() {
    let a: [i8; 24] = [-55, -72, 14, 50, 36, -91, 104, 68, -20, -17, -101, 29, -114, 5, -71, 72, -32, 26, -21, -11, -108, 14, -70, 11];
    let b: [i8; 15] = [10, 55, 91, 4, 23, -69, -22, 99, 38, -57, -85, 64, -24, 1, -89];
    let plan = plan_broadcast(&[2, 3, 1, 4, 1], &[3, 1, 5]).unwrap();
    let p = add::prepare_add(q(0x3cb09b6f, 93), q(0x3cd09f13, -88), q(0x3d8d1410, -37), FusedActivation::Relu6, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 360];
    add::add_s8(&p, &a, &b, &mut out);
    let want: [i8; 360] = [-37, -30, -17, -37, -37, -37, -36, -22, -37, -37, -25, -9, 4, -28, -21, -14, 2, 16, -16, -9, -37, -37, -14, -37, -37, -37, -37, -20, -37, -37, -37, -37, 7, -15, -37, -37, -26, 19, -4, -37, -37, -27, -37, -37, -37, -37, -32, -37, -37, -37, -37, -6, -37, -29, -37, -37, 6, -27, -18, -37, -19, -2, 11, -21, -14, -37, -37, -28, -37, -37, 3, 19, 33, 0, 7, -9, 8, 21, -11, -4, -37, -30, 14, -8, -37, -37, -37, -25, -37, -37, -27, -9, 36, 13, -22, -37, -20, 24, 2, -33, -37, 1, -31, -22, -37, -37, -37, -37, -37, -37, -32, 23, -10, -1, -34, -37, 11, -21, -12, -37, -36, -19, -6, -37, -31, -35, -19, -5, -37, -30, -37, -37, -32, -37, -37, -21, -4, 9, -23, -16, -37, -37, -3, -26, -37, -37, -37, -2, -25, -37, -37, -37, -29, -37, -37, -37, -33, 12, -10, -37, -37, -16, -37, -37, -37, -37, -15, -37, -37, -37, -37, -37, -37, -37, -37, -37, -1, -33, -24, -37, -37, -37, -36, -37, -37, -28, -12, 2, -31, -24, -37, -35, -22, -37, -37, -7, 9, 23, -10, -3, -37, -37, -33, -37, -37, -37, -37, 5, -18, -37, -37, -37, -19, -37, -37, -37, -19, 26, 3, -32, -37, -37, -37, -37, -37, -37, -8, -37, -32, -37, -37, -32, -37, -37, -37, -37, 13, -20, -11, -37, -37, -23, -10, -37, -35, -22, -5, 8, -24, -17, -36, -20, -7, -37, -32, -33, -17, -3, -36, -29, -37, -37, -7, -30, -37, -37, -34, 11, -11, -37, -37, -37, -4, -26, -37, -37, -37, 0, -23, -37, -37, -20, -37, -37, -37, -37, -2, -34, -25, -37, -37, -16, -37, -37, -37, -37, -13, -37, -37, -37, -37, -37, -34, -37, -37, -25, -9, 4, -28, -21, -37, -35, -22, -37, -37, -26, -10, 4, -29, -22, -37, -37, -31, -37, -37, -37, -37, 7, -15, -37, -37, -37, -19, -37, -37, -37, -37, 6, -16, -37, -37, -37, -37, -37, -37, -37, -6, -37, -29, -37, -37, -32, -37, -37, -37, -37, -6, -37, -30, -37];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn add_rank6_broadcast() {
    let a: [i8; 24] = [-97, -15, 20, 17, 77, -127, -97, -100, -123, -16, 48, -3, -125, -69, -57, 65, 92, -92, -96, -19, 4, -65, 20, -105];
    let b: [i8; 8] = [-2, 41, 77, 69, -46, 45, 88, -37];
    let plan = plan_broadcast(&[2, 1, 2, 1, 3, 2], &[1, 2, 1, 2, 1, 2]).unwrap();
    let p = add::prepare_add(q(0x3d3b6daf, -119), q(0x3d712add, -108), q(0x3d9f61cb, -93), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 96];
    add::add_s8(&p, &a, &b, &mut out);
    let want: [i8; 96] = [0, 81, 69, 100, 102, 15, 60, 102, 127, 121, 127, 36, 0, 31, -15, 80, 85, 88, 60, 52, 45, 101, 127, 109, -33, 84, 36, 103, 69, 18, 68, 22, 127, 41, 127, -44, -33, 34, -48, 83, 52, 91, 68, -28, 53, 21, 127, 29, -16, 49, 24, 127, 111, 36, 43, 70, 83, 127, 127, 57, 1, 79, 60, 51, 69, 28, 60, 100, 119, 73, 127, 49, -50, 52, -10, 127, 78, 39, 52, -10, 92, 69, 127, -23, -33, 82, 26, 55, 36, 31, 69, 20, 127, -8, 127, -31];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn add_scalar_relu_n1_to_1() {
    let a: [i8; 21] = [-91, 45, 15, -85, -19, -7, -70, 48, 93, 14, 51, -64, -112, -104, -79, -53, -126, -113, 121, -80, 18];
    let b: [i8; 1] = [-98];
    let plan = plan_broadcast(&[3, 7], &[]).unwrap();
    let p = add::prepare_add(q(0x3d74cd27, -14), q(0x3d2265ec, -4), q(0x3c7c3fb9, 93), FusedActivation::ReluN1To1, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 21];
    add::add_s8(&p, &a, &b, &mut out);
    let want: [i8; 21] = [28, 80, 28, 28, 28, 28, 28, 92, 127, 28, 103, 28, 28, 28, 28, 28, 28, 28, 127, 28, 28];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn sub_broadcast() {
    let a: [i8; 6] = [-42, 20, -8, -79, 53, -59];
    let b: [i8; 4] = [88, -102, -119, 78];
    let plan = plan_broadcast(&[2, 1, 3], &[4, 1]).unwrap();
    let p = sub::prepare_sub(q(0x3c3bbabb, -3), q(0x3d941fa8, 22), q(0x3d58d2df, -71), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 24];
    sub::sub_s8(&p, &a, &b, &mut out);
    let want: [i8; 24] = [-128, -128, -128, 90, 103, 97, 113, 127, 121, -128, -128, -128, -128, -128, -128, 82, 111, 86, 105, 127, 110, -128, -128, -128];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn sub_same_shape_relu() {
    let a: [i8; 60] = [86, 68, 64, -25, -17, -1, 99, -30, -23, -119, 74, 18, -69, 15, 61, 43, 73, -22, -59, 64, 81, -9, 61, -40, 29, 87, -106, -119, 51, -66, 18, 72, -61, 1, -44, -55, -16, 56, -89, 52, 86, -102, 51, -79, -36, 126, -42, -105, -112, 64, 12, -61, 43, 14, -124, -43, -93, 63, -34, 44];
    let b: [i8; 60] = [60, 23, -98, 80, 72, 51, 112, 125, 33, 95, -123, -53, -11, 84, -91, 124, -56, -29, -73, -21, 119, 6, -54, -100, -94, 65, -47, 94, 78, -2, -2, 56, 126, 24, 123, -21, -56, -52, -26, 49, -26, -58, 96, 10, 102, -52, -96, -57, 59, -73, -104, -113, 22, -108, 17, -44, -47, -93, 76, -30];
    let plan = plan_broadcast(&[3, 4, 5], &[3, 4, 5]).unwrap();
    let p = sub::prepare_sub(q(0x3d9c5fe0, -124), q(0x3d80e744, 90), q(0x3c430f16, 5), FusedActivation::Relu, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 60];
    sub::sub_s8(&p, &a, &b, &mut out);
    let want: [i8; 60] = [127, 127, 127, 127, 127, 127, 127, 127, 127, 11, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 16, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn sub_rank5_relu_n1_to_1() {
    let a: [i8; 12] = [18, 59, 66, -5, 63, -7, -98, -55, -23, 97, 39, 114];
    let b: [i8; 6] = [58, -7, -90, -82, -93, -79];
    let plan = plan_broadcast(&[1, 2, 2, 1, 3], &[2, 1, 3]).unwrap();
    let p = sub::prepare_sub(q(0x3ce3cd29, 14), q(0x3c65133d, 30), q(0x3d09ce50, 49), FusedActivation::ReluN1To1, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 12];
    sub::sub_s8(&p, &a, &b, &mut out);
    let want: [i8; 12] = [41, 79, 79, 79, 79, 77, 19, 19, 68, 79, 79, 79];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn mul_broadcast_relu6() {
    let a: [i8; 24] = [49, 64, -86, -19, -15, -38, 78, -37, -83, -84, -38, -73, 77, -122, -24, -60, 49, 119, 18, 58, 10, 19, 117, 66];
    let b: [i8; 4] = [68, -83, 68, -32];
    let plan = plan_broadcast(&[2, 3, 4], &[4]).unwrap();
    let p = mul::prepare_mul(q(0x3d9328c7, 81), q(0x3d80d5ac, -62), q(0x3d89da00, -86), FusedActivation::Relu6, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 24];
    mul::mul_s8(&p, &a, &b, &mut out);
    let want: [i8; 24] = [-86, -62, -86, -86, -86, 3, -86, -86, -86, 3, -86, -86, -86, 3, -86, -86, -86, -86, -86, -86, -86, 1, 3, -86];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn mul_saturating() {
    let a: [i8; 10] = [117, -14, 60, -26, -47, 9, 119, 58, -32, 21];
    let b: [i8; 3] = [-80, 118, -93];
    let plan = plan_broadcast(&[5, 1, 2], &[1, 3, 1]).unwrap();
    let p = mul::prepare_mul(q(0x3d8a6e71, -89), q(0x3c476b7c, 7), q(0x39d1b717, -113), FusedActivation::None, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 30];
    mul::mul_s8(&p, &a, &b, &mut out);
    let want: [i8; 30] = [-128, -128, 127, 127, -128, -128, -128, -128, 127, 127, -128, -128, -128, -128, 127, 127, -128, -128, -128, -128, 127, 127, -128, -128, -128, -128, 127, 127, -128, -128];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn mul_rank5() {
    let a: [i8; 12] = [9, 49, -42, -35, -31, 54, 96, -94, -17, 96, -43, 105];
    let b: [i8; 8] = [-28, -3, 51, 30, -65, -25, -32, 36];
    let plan = plan_broadcast(&[2, 1, 3, 1, 2], &[2, 2, 1, 2, 1]).unwrap();
    let p = mul::prepare_mul(q(0x3cf3b457, 102), q(0x3d0f9d65, -83), q(0x3d838690, 80), FusedActivation::Relu, plan.as_broadcast()).unwrap();
    let mut out = [0i8; 48];
    mul::mul_s8(&p, &a, &b, &mut out);
    let want: [i8; 48] = [80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 81, 80, 83, 80, 80, 80, 80, 80, 80, 80, 80, 80, 83, 80, 86];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn maximum_rank4_both_broadcast() {
    let a: [i8; 6] = [-47, -20, -17, 29, -14, 47];
    let b: [i8; 20] = [107, -75, -66, -110, -12, -44, -55, 57, -21, -54, -31, -14, 113, 28, 33, -68, 70, -23, -43, -108];
    let plan = plan_broadcast(&[2, 1, 3, 1], &[1, 4, 1, 5]).unwrap();
    let p = maximum::MaximumParams { broadcast: plan.as_broadcast() };
    let mut out = [0i8; 120];
    maximum::maximum_s8(&p, &a, &b, &mut out);
    assert_eq!(out, [107, -47, -47, -47, -12, 107, -20, -20, -20, -12, 107, -17, -17, -17, -12, -44, -47, 57, -21, -47, -20, -20, 57, -20, -20, -17, -17, 57, -17, -17, -31, -14, 113, 28, 33, -20, -14, 113, 28, 33, -17, -14, 113, 28, 33, -47, 70, -23, -43, -47, -20, 70, -20, -20, -20, -17, 70, -17, -17, -17, 107, 29, 29, 29, 29, 107, -14, -14, -14, -12, 107, 47, 47, 47, 47, 29, 29, 57, 29, 29, -14, -14, 57, -14, -14, 47, 47, 57, 47, 47, 29, 29, 113, 29, 33, -14, -14, 113, 28, 33, 47, 47, 113, 47, 47, 29, 70, 29, 29, 29, -14, 70, -14, -14, -14, 47, 70, 47, 47, 47]);
}

/// Expected output: TFLite Micro.
#[test]
fn minimum_rank5() {
    let a: [i8; 12] = [33, -93, 114, -6, 0, 32, 121, -36, 37, -109, 119, 59];
    let b: [i8; 18] = [1, -103, -100, -119, 7, 54, 91, 14, -16, 25, 52, -68, -102, 8, 11, -39, -79, 89];
    let plan = plan_broadcast(&[2, 1, 2, 1, 3], &[3, 1, 2, 3]).unwrap();
    let p = minimum::MinimumParams { broadcast: plan.as_broadcast() };
    let mut out = [0i8; 72];
    minimum::minimum_s8(&p, &a, &b, &mut out);
    assert_eq!(out, [1, -103, -100, -119, -93, 54, -6, -103, -100, -119, 0, 32, 33, -93, -16, 25, -93, -68, -6, 0, -16, -6, 0, -68, -102, -93, 11, -39, -93, 89, -102, 0, 11, -39, -79, 32, 1, -103, -100, -119, -36, 37, -109, -103, -100, -119, 7, 54, 91, -36, -16, 25, -36, -68, -109, 14, -16, -109, 52, -68, -102, -36, 11, -39, -79, 37, -109, 8, 11, -109, -79, 59]);
}

/// Expected output: TFLite Micro.
#[test]
fn prelu_channel_alpha() {
    let x: [i8; 60] = [-95, 37, 79, 115, -50, 53, -19, 30, 67, 10, 16, -91, -54, 21, 56, -48, 34, 66, 74, 112, 81, 34, 37, -67, 77, -57, -26, -53, -15, -13, 4, 30, 4, -36, 36, -71, -118, -85, -84, 65, -49, 53, -74, 103, 96, 77, 56, -108, -90, 82, 52, 11, -126, -58, 61, 89, -77, -79, 125, -67];
    let alpha: [i8; 5] = [-84, 90, -98, -117, 50];
    let plan = plan_broadcast(&[1, 3, 4, 5], &[5]).unwrap();
    let p = prelu::prepare_prelu(q(0x3c9387df, -114), q(0x3d02094d, 110), q(0x3d457395, 107), plan.as_broadcast()).unwrap();
    let mut out = [0i8; 60];
    prelu::prelu_s8(&p, &x, &alpha, &mut out);
    assert_eq!(out, [114, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 116, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 125, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 123, 108, 118, 118, 127, 127, 127, 122, 127, 127, 127, 127, 109, 116, 127, 127, 127, 127, 127, 127, 127, 121, 120, 127, 125]);
}

/// Expected output: TFLite Micro.
#[test]
fn prelu_spatial_alpha() {
    let x: [i8; 24] = [-109, 11, 29, 17, 31, 82, -5, 112, -123, -90, -127, -39, 121, 15, 3, -118, -16, 91, -82, 98, -91, -17, 39, 11];
    let alpha: [i8; 12] = [-15, 49, -102, -123, -68, 55, -41, -51, -48, 98, -26, -125];
    let plan = plan_broadcast(&[1, 3, 4, 2], &[3, 4, 1]).unwrap();
    let p = prelu::prepare_prelu(q(0x3d6640f0, -19), q(0x3d58b90a, 43), q(0x3cc70d1f, -104), plan.as_broadcast()).unwrap();
    let mut out = [0i8; 24];
    prelu::prelu_s8(&p, &x, &alpha, &mut out);
    assert_eq!(out, [127, -35, 7, -21, 12, 127, -72, 127, 127, 127, -128, -128, 127, -25, -53, 127, -97, 127, -128, 127, 127, -99, 30, -35]);
}

/// Expected output: TFLite Micro.
#[test]
fn relu_requantizing() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = relu::prepare_relu(q(0x3c99b445, 76), q(0x3d931c79, -59)).unwrap();
    let mut out = [0i8; 256];
    relu::relu_s8(&p, &x, &mut out);
    assert_eq!(out, [-59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -59, -58, -58, -58, -58, -57, -57, -57, -57, -56, -56, -56, -56, -55, -55, -55, -55, -54, -54, -54, -54, -53, -53, -53, -52, -52, -52, -52, -51, -51, -51, -51, -50, -50, -50, -50, -49, -49, -49, -49, -48, -48, -48, -48, -47, -47, -47, -46, -46, -46, -46, -45]);
}

/// Expected output: TFLite Micro.
#[test]
fn relu6_same_quantization_tflm() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = relu::prepare_relu6(q(0x3c609f0e, 42), q(0x3c609f0e, 42)).unwrap();
    let mut out = [0i8; 256];
    relu::relu_s8(&p, &x, &mut out);
    assert_eq!(out, [42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127]);
}

/// Expected output: TFLite's reference kernels (ai-edge-litert BUILTIN_REF); TFLite Micro has no such kernel or ignores the output quantization.
#[test]
fn relu6_requantizing_tflite() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = relu::prepare_relu6(q(0x3d8027c7, -107), q(0x3ce07cef, 41)).unwrap();
    let mut out = [0i8; 256];
    relu::relu_s8(&p, &x, &mut out);
    assert_eq!(out, [41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 43, 46, 48, 50, 52, 55, 57, 59, 62, 64, 66, 68, 71, 73, 75, 78, 80, 82, 84, 87, 89, 91, 94, 96, 98, 100, 103, 105, 107, 110, 112, 114, 116, 119, 121, 123, 125, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127]);
}

/// Expected output: TFLite's reference kernels (ai-edge-litert BUILTIN_REF); TFLite Micro has no such kernel or ignores the output quantization.
#[test]
fn relu_n1_to_1_requantizing_tflite() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = relu::prepare_relu_n1_to_1(q(0x3d9596dc, -40), q(0x3c872ae5, 36)).unwrap();
    let mut out = [0i8; 256];
    relu::relu_s8(&p, &x, &mut out);
    assert_eq!(out, [-25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -22, -17, -13, -8, -4, 1, 5, 9, 14, 18, 23, 27, 32, 36, 40, 45, 49, 54, 58, 63, 67, 71, 76, 80, 85, 89, 94, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97, 97]);
}

/// Expected output: TFLite's reference kernels (ai-edge-litert BUILTIN_REF); TFLite Micro has no such kernel or ignores the output quantization.
#[test]
fn relu_n1_to_1_same_quantization_tflite() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = relu::prepare_relu_n1_to_1(q(0x3d23e3d3, 80), q(0x3d23e3d3, 80)).unwrap();
    let mut out = [0i8; 256];
    relu::relu_s8(&p, &x, &mut out);
    assert_eq!(out, [55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105]);
}

/// Expected output: TFLite Micro.
#[test]
fn leaky_relu_negative_alpha() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = leaky_relu::prepare_leaky_relu(q(0x3d24034f, 127), q(0x3cad2e00, -38), f32::from_bits(0xbe99999a)).unwrap();
    let mut out = [0i8; 256];
    leaky_relu::leaky_relu_s8(&p, &x, &mut out);
    assert_eq!(out, [107, 106, 106, 105, 105, 104, 103, 103, 102, 102, 101, 101, 100, 100, 99, 98, 98, 97, 97, 96, 96, 95, 94, 94, 93, 93, 92, 92, 91, 90, 90, 89, 89, 88, 88, 87, 86, 86, 85, 85, 84, 84, 83, 82, 82, 81, 81, 80, 80, 79, 78, 78, 77, 77, 76, 76, 75, 75, 74, 73, 73, 72, 72, 71, 71, 70, 69, 69, 68, 68, 67, 67, 66, 65, 65, 64, 64, 63, 63, 62, 61, 61, 60, 60, 59, 59, 58, 57, 57, 56, 56, 55, 55, 54, 53, 53, 52, 52, 51, 51, 50, 50, 49, 48, 48, 47, 47, 46, 46, 45, 44, 44, 43, 43, 42, 42, 41, 40, 40, 39, 39, 38, 38, 37, 36, 36, 35, 35, 34, 34, 33, 32, 32, 31, 31, 30, 30, 29, 28, 28, 27, 27, 26, 26, 25, 25, 24, 23, 23, 22, 22, 21, 21, 20, 19, 19, 18, 18, 17, 17, 16, 15, 15, 14, 14, 13, 13, 12, 11, 11, 10, 10, 9, 9, 8, 7, 7, 6, 6, 5, 5, 4, 3, 3, 2, 2, 1, 1, 0, 0, -1, -2, -2, -3, -3, -4, -4, -5, -6, -6, -7, -7, -8, -8, -9, -10, -10, -11, -11, -12, -12, -13, -14, -14, -15, -15, -16, -16, -17, -18, -18, -19, -19, -20, -20, -21, -22, -22, -23, -23, -24, -24, -25, -25, -26, -27, -27, -28, -28, -29, -29, -30, -31, -31, -32, -32, -33, -33, -34, -35, -35, -36, -36, -37, -37, -38]);
}

/// Expected output: TFLite Micro.
#[test]
fn leaky_relu_alpha_above_one() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = leaky_relu::prepare_leaky_relu(q(0x3d933ffe, -51), q(0x3d96a822, 18), f32::from_bits(0x3fd9999a)).unwrap();
    let mut out = [0i8; 256];
    leaky_relu::leaky_relu_s8(&p, &x, &mut out);
    assert_eq!(out, [-110, -108, -107, -105, -103, -102, -100, -98, -97, -95, -93, -92, -90, -88, -87, -85, -83, -82, -80, -78, -77, -75, -73, -72, -70, -68, -67, -65, -63, -62, -60, -58, -57, -55, -53, -52, -50, -48, -47, -45, -43, -42, -40, -38, -37, -35, -34, -32, -30, -29, -27, -25, -24, -22, -20, -19, -17, -15, -14, -12, -10, -9, -7, -5, -4, -2, 0, 1, 3, 5, 6, 8, 10, 11, 13, 15, 16, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 126, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127]);
}

/// Expected output: TFLite Micro.
#[test]
fn requantize_s8_s8() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = quantize::prepare_requantize(q(0x3c7d5275, 35), q(0x3d3e4b07, -70)).unwrap();
    let mut out = [0i8; 256];
    quantize::quantize_s8_s8(&p, &x, &mut out);
    assert_eq!(out, [-124, -124, -124, -123, -123, -123, -123, -122, -122, -122, -121, -121, -121, -120, -120, -120, -119, -119, -119, -118, -118, -118, -117, -117, -117, -116, -116, -116, -115, -115, -115, -114, -114, -114, -113, -113, -113, -112, -112, -112, -111, -111, -111, -110, -110, -110, -109, -109, -109, -108, -108, -108, -107, -107, -107, -106, -106, -106, -105, -105, -105, -104, -104, -104, -103, -103, -103, -102, -102, -102, -101, -101, -101, -100, -100, -100, -99, -99, -99, -98, -98, -98, -97, -97, -97, -96, -96, -96, -95, -95, -95, -94, -94, -94, -93, -93, -93, -92, -92, -92, -91, -91, -91, -90, -90, -90, -89, -89, -89, -88, -88, -88, -87, -87, -87, -86, -86, -86, -85, -85, -85, -84, -84, -84, -83, -83, -83, -82, -82, -82, -81, -81, -81, -80, -80, -80, -79, -79, -79, -78, -78, -78, -77, -77, -77, -76, -76, -76, -75, -75, -75, -74, -74, -74, -73, -73, -73, -72, -72, -72, -71, -71, -71, -70, -69, -69, -69, -68, -68, -68, -67, -67, -67, -66, -66, -66, -65, -65, -65, -64, -64, -64, -63, -63, -63, -62, -62, -62, -61, -61, -61, -60, -60, -60, -59, -59, -59, -58, -58, -58, -57, -57, -57, -56, -56, -56, -55, -55, -55, -54, -54, -54, -53, -53, -53, -52, -52, -52, -51, -51, -51, -50, -50, -50, -49, -49, -49, -48, -48, -48, -47, -47, -47, -46, -46, -46, -45, -45, -45, -44, -44, -44, -43, -43, -43, -42, -42, -42, -41, -41, -41, -40, -40, -40, -39, -39]);
}

/// Expected output: TFLite Micro.
#[test]
fn requantize_s8_s8_same_scale() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = quantize::prepare_requantize(q(0x3cca37e3, 49), q(0x3cca37e3, 49)).unwrap();
    let mut out = [0i8; 256];
    quantize::quantize_s8_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127]);
}

/// Expected output: TFLite Micro.
#[test]
fn quantize_f32_s8_ties_and_saturation() {
    let x: [f32; 68] = [f32::from_bits(0xbf88a477), f32::from_bits(0xc01ab8dd), f32::from_bits(0xbdc93936), f32::from_bits(0xbe9e210e), f32::from_bits(0xbfe7a868), f32::from_bits(0xbeb365ba), f32::from_bits(0xc0b41438), f32::from_bits(0xc04754cd), f32::from_bits(0x3e89cabc), f32::from_bits(0xc0040921), f32::from_bits(0x402c9948), f32::from_bits(0x400ad193), f32::from_bits(0xbf81829b), f32::from_bits(0xbf51d40f), f32::from_bits(0x4039d9c0), f32::from_bits(0xc00536ff), f32::from_bits(0x3f765611), f32::from_bits(0xc0037630), f32::from_bits(0xbeec05e4), f32::from_bits(0xc08e33a9), f32::from_bits(0x3ef7bc35), f32::from_bits(0x3ed4c040), f32::from_bits(0x3f5736c5), f32::from_bits(0x3f09650f), f32::from_bits(0x4084786d), f32::from_bits(0x3ef6f670), f32::from_bits(0x3fb866d3), f32::from_bits(0x4041b2fb), f32::from_bits(0x3f77e110), f32::from_bits(0x3edf7533), f32::from_bits(0xbfa98d1e), f32::from_bits(0xbf03b86e), f32::from_bits(0xc017c0f7), f32::from_bits(0xc09b6d16), f32::from_bits(0x3f7a8420), f32::from_bits(0x408a9597), f32::from_bits(0x4010a441), f32::from_bits(0x3e7e31d7), f32::from_bits(0xc02b5d41), f32::from_bits(0xbfc3183d), f32::from_bits(0xbbfbe113), f32::from_bits(0xc043ba1d), f32::from_bits(0xbdd4b1ac), f32::from_bits(0x3fb07a5c), f32::from_bits(0xc03544fc), f32::from_bits(0x4034d731), f32::from_bits(0x3dae3736), f32::from_bits(0xc0667e68), f32::from_bits(0x3daa620f), f32::from_bits(0x3ec8a971), f32::from_bits(0xbe9d7f97), f32::from_bits(0xbfefe281), f32::from_bits(0xc0a68408), f32::from_bits(0xc089fc38), f32::from_bits(0xc019fece), f32::from_bits(0xbf4b8d63), f32::from_bits(0xc03d576c), f32::from_bits(0xbd39b322), f32::from_bits(0x4030f841), f32::from_bits(0x40528a37), f32::from_bits(0x3c0cee5b), f32::from_bits(0xbc0cee5b), f32::from_bits(0x3cd36588), f32::from_bits(0xbd3029f2), f32::from_bits(0x49742400), f32::from_bits(0xc9742400), f32::from_bits(0x00000000), f32::from_bits(0x80000000)];
    let p = quantize::QuantizeParams { scale: f32::from_bits(0x3c8cee5b), zero_point: 79 };
    let mut out = [0i8; 68];
    quantize::quantize_f32_s8(&p, &x, &mut out);
    assert_eq!(out, [17, -62, 73, 61, -26, 59, -128, -102, 95, -41, 127, 127, 20, 31, 127, -42, 127, -40, 52, -128, 107, 103, 127, 110, 127, 107, 127, 127, 127, 104, 2, 49, -59, -128, 127, 127, 127, 93, -77, -10, 79, -99, 73, 127, -86, 127, 84, -128, 84, 102, 61, -30, -128, -128, -61, 33, -93, 76, 127, 127, 80, 78, 81, 76, 127, -128, 79, 79]);
}

/// Expected output: TFLite Micro.
#[test]
fn dequantize_all_values() {
    let x: Vec<i8> = (-128..=127).collect();
    let p = dequantize::DequantizeParams { scale: f32::from_bits(0x3d7b7bbe), zero_point: -23 };
    let mut out = [0f32; 256];
    dequantize::dequantize_s8_f32(&p, &x, &mut out);
    let want: [f32; 256] = [f32::from_bits(0xc0ce4b82), f32::from_bits(0xc0cc548a), f32::from_bits(0xc0ca5d93), f32::from_bits(0xc0c8669b), f32::from_bits(0xc0c66fa4), f32::from_bits(0xc0c478ac), f32::from_bits(0xc0c281b5), f32::from_bits(0xc0c08abd), f32::from_bits(0xc0be93c6), f32::from_bits(0xc0bc9cce), f32::from_bits(0xc0baa5d7), f32::from_bits(0xc0b8aee0), f32::from_bits(0xc0b6b7e8), f32::from_bits(0xc0b4c0f1), f32::from_bits(0xc0b2c9f9), f32::from_bits(0xc0b0d302), f32::from_bits(0xc0aedc0a), f32::from_bits(0xc0ace513), f32::from_bits(0xc0aaee1b), f32::from_bits(0xc0a8f724), f32::from_bits(0xc0a7002c), f32::from_bits(0xc0a50935), f32::from_bits(0xc0a3123d), f32::from_bits(0xc0a11b46), f32::from_bits(0xc09f244e), f32::from_bits(0xc09d2d57), f32::from_bits(0xc09b365f), f32::from_bits(0xc0993f68), f32::from_bits(0xc0974870), f32::from_bits(0xc0955179), f32::from_bits(0xc0935a81), f32::from_bits(0xc091638a), f32::from_bits(0xc08f6c92), f32::from_bits(0xc08d759b), f32::from_bits(0xc08b7ea3), f32::from_bits(0xc08987ac), f32::from_bits(0xc08790b4), f32::from_bits(0xc08599bd), f32::from_bits(0xc083a2c5), f32::from_bits(0xc081abce), f32::from_bits(0xc07f69ad), f32::from_bits(0xc07b7bbe), f32::from_bits(0xc0778dcf), f32::from_bits(0xc0739fe0), f32::from_bits(0xc06fb1f1), f32::from_bits(0xc06bc402), f32::from_bits(0xc067d613), f32::from_bits(0xc063e824), f32::from_bits(0xc05ffa35), f32::from_bits(0xc05c0c46), f32::from_bits(0xc0581e57), f32::from_bits(0xc0543068), f32::from_bits(0xc0504279), f32::from_bits(0xc04c548a), f32::from_bits(0xc048669b), f32::from_bits(0xc04478ac), f32::from_bits(0xc0408abd), f32::from_bits(0xc03c9cce), f32::from_bits(0xc038aee0), f32::from_bits(0xc034c0f1), f32::from_bits(0xc030d302), f32::from_bits(0xc02ce513), f32::from_bits(0xc028f724), f32::from_bits(0xc0250935), f32::from_bits(0xc0211b46), f32::from_bits(0xc01d2d57), f32::from_bits(0xc0193f68), f32::from_bits(0xc0155179), f32::from_bits(0xc011638a), f32::from_bits(0xc00d759b), f32::from_bits(0xc00987ac), f32::from_bits(0xc00599bd), f32::from_bits(0xc001abce), f32::from_bits(0xbffb7bbe), f32::from_bits(0xbff39fe0), f32::from_bits(0xbfebc402), f32::from_bits(0xbfe3e824), f32::from_bits(0xbfdc0c46), f32::from_bits(0xbfd43068), f32::from_bits(0xbfcc548a), f32::from_bits(0xbfc478ac), f32::from_bits(0xbfbc9cce), f32::from_bits(0xbfb4c0f1), f32::from_bits(0xbface513), f32::from_bits(0xbfa50935), f32::from_bits(0xbf9d2d57), f32::from_bits(0xbf955179), f32::from_bits(0xbf8d759b), f32::from_bits(0xbf8599bd), f32::from_bits(0xbf7b7bbe), f32::from_bits(0xbf6bc402), f32::from_bits(0xbf5c0c46), f32::from_bits(0xbf4c548a), f32::from_bits(0xbf3c9cce), f32::from_bits(0xbf2ce513), f32::from_bits(0xbf1d2d57), f32::from_bits(0xbf0d759b), f32::from_bits(0xbefb7bbe), f32::from_bits(0xbedc0c46), f32::from_bits(0xbebc9cce), f32::from_bits(0xbe9d2d57), f32::from_bits(0xbe7b7bbe), f32::from_bits(0xbe3c9cce), f32::from_bits(0xbdfb7bbe), f32::from_bits(0xbd7b7bbe), f32::from_bits(0x00000000), f32::from_bits(0x3d7b7bbe), f32::from_bits(0x3dfb7bbe), f32::from_bits(0x3e3c9cce), f32::from_bits(0x3e7b7bbe), f32::from_bits(0x3e9d2d57), f32::from_bits(0x3ebc9cce), f32::from_bits(0x3edc0c46), f32::from_bits(0x3efb7bbe), f32::from_bits(0x3f0d759b), f32::from_bits(0x3f1d2d57), f32::from_bits(0x3f2ce513), f32::from_bits(0x3f3c9cce), f32::from_bits(0x3f4c548a), f32::from_bits(0x3f5c0c46), f32::from_bits(0x3f6bc402), f32::from_bits(0x3f7b7bbe), f32::from_bits(0x3f8599bd), f32::from_bits(0x3f8d759b), f32::from_bits(0x3f955179), f32::from_bits(0x3f9d2d57), f32::from_bits(0x3fa50935), f32::from_bits(0x3face513), f32::from_bits(0x3fb4c0f1), f32::from_bits(0x3fbc9cce), f32::from_bits(0x3fc478ac), f32::from_bits(0x3fcc548a), f32::from_bits(0x3fd43068), f32::from_bits(0x3fdc0c46), f32::from_bits(0x3fe3e824), f32::from_bits(0x3febc402), f32::from_bits(0x3ff39fe0), f32::from_bits(0x3ffb7bbe), f32::from_bits(0x4001abce), f32::from_bits(0x400599bd), f32::from_bits(0x400987ac), f32::from_bits(0x400d759b), f32::from_bits(0x4011638a), f32::from_bits(0x40155179), f32::from_bits(0x40193f68), f32::from_bits(0x401d2d57), f32::from_bits(0x40211b46), f32::from_bits(0x40250935), f32::from_bits(0x4028f724), f32::from_bits(0x402ce513), f32::from_bits(0x4030d302), f32::from_bits(0x4034c0f1), f32::from_bits(0x4038aee0), f32::from_bits(0x403c9cce), f32::from_bits(0x40408abd), f32::from_bits(0x404478ac), f32::from_bits(0x4048669b), f32::from_bits(0x404c548a), f32::from_bits(0x40504279), f32::from_bits(0x40543068), f32::from_bits(0x40581e57), f32::from_bits(0x405c0c46), f32::from_bits(0x405ffa35), f32::from_bits(0x4063e824), f32::from_bits(0x4067d613), f32::from_bits(0x406bc402), f32::from_bits(0x406fb1f1), f32::from_bits(0x40739fe0), f32::from_bits(0x40778dcf), f32::from_bits(0x407b7bbe), f32::from_bits(0x407f69ad), f32::from_bits(0x4081abce), f32::from_bits(0x4083a2c5), f32::from_bits(0x408599bd), f32::from_bits(0x408790b4), f32::from_bits(0x408987ac), f32::from_bits(0x408b7ea3), f32::from_bits(0x408d759b), f32::from_bits(0x408f6c92), f32::from_bits(0x4091638a), f32::from_bits(0x40935a81), f32::from_bits(0x40955179), f32::from_bits(0x40974870), f32::from_bits(0x40993f68), f32::from_bits(0x409b365f), f32::from_bits(0x409d2d57), f32::from_bits(0x409f244e), f32::from_bits(0x40a11b46), f32::from_bits(0x40a3123d), f32::from_bits(0x40a50935), f32::from_bits(0x40a7002c), f32::from_bits(0x40a8f724), f32::from_bits(0x40aaee1b), f32::from_bits(0x40ace513), f32::from_bits(0x40aedc0a), f32::from_bits(0x40b0d302), f32::from_bits(0x40b2c9f9), f32::from_bits(0x40b4c0f1), f32::from_bits(0x40b6b7e8), f32::from_bits(0x40b8aee0), f32::from_bits(0x40baa5d7), f32::from_bits(0x40bc9cce), f32::from_bits(0x40be93c6), f32::from_bits(0x40c08abd), f32::from_bits(0x40c281b5), f32::from_bits(0x40c478ac), f32::from_bits(0x40c66fa4), f32::from_bits(0x40c8669b), f32::from_bits(0x40ca5d93), f32::from_bits(0x40cc548a), f32::from_bits(0x40ce4b82), f32::from_bits(0x40d04279), f32::from_bits(0x40d23971), f32::from_bits(0x40d43068), f32::from_bits(0x40d62760), f32::from_bits(0x40d81e57), f32::from_bits(0x40da154f), f32::from_bits(0x40dc0c46), f32::from_bits(0x40de033e), f32::from_bits(0x40dffa35), f32::from_bits(0x40e1f12d), f32::from_bits(0x40e3e824), f32::from_bits(0x40e5df1c), f32::from_bits(0x40e7d613), f32::from_bits(0x40e9cd0b), f32::from_bits(0x40ebc402), f32::from_bits(0x40edbafa), f32::from_bits(0x40efb1f1), f32::from_bits(0x40f1a8e9), f32::from_bits(0x40f39fe0), f32::from_bits(0x40f596d8), f32::from_bits(0x40f78dcf), f32::from_bits(0x40f984c7), f32::from_bits(0x40fb7bbe), f32::from_bits(0x40fd72b5), f32::from_bits(0x40ff69ad), f32::from_bits(0x4100b052), f32::from_bits(0x4101abce), f32::from_bits(0x4102a74a), f32::from_bits(0x4103a2c5), f32::from_bits(0x41049e41), f32::from_bits(0x410599bd), f32::from_bits(0x41069539), f32::from_bits(0x410790b4), f32::from_bits(0x41088c30), f32::from_bits(0x410987ac), f32::from_bits(0x410a8328), f32::from_bits(0x410b7ea3), f32::from_bits(0x410c7a1f), f32::from_bits(0x410d759b), f32::from_bits(0x410e7117), f32::from_bits(0x410f6c92), f32::from_bits(0x4110680e), f32::from_bits(0x4111638a), f32::from_bits(0x41125f06), f32::from_bits(0x41135a81)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn strided_slice_steps() {
    let x: [i8; 60] = [24, 82, 60, 47, -93, 126, -126, -22, -120, 73, -111, -124, -31, -118, 52, -4, -119, 59, 98, 82, 122, 8, -118, 108, 30, 41, -83, 31, -73, -61, -8, -24, 105, -66, -87, 18, 82, 103, 23, -7, 0, -53, -76, -31, 26, -73, 118, -19, 46, -114, -76, 101, -125, -101, 32, 34, -68, -26, 88, 61];
    let plan = strided_slice::prepare_strided_slice(&[3, 4, 5], &[0, 1, -1], &[3, 4, 0], &[2, 1, -2], 0, 0, 0, false).unwrap();
    let p = plan.as_params();
    let mut out = vec![0i8; p.out_len()];
    strided_slice::strided_slice_s8(&p, &x, &mut out);
    let want: [i8; 12] = [73, -22, 52, -31, 82, 59, -114, -19, 32, -125, 61, -26];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn strided_slice_masks_and_shrink() {
    let x: [i8; 120] = [75, 66, -116, -36, -90, 93, -23, -84, -99, 109, 58, 67, -18, -25, 19, 7, 18, -82, -119, -32, -67, -42, 48, 84, 66, 3, -54, 36, -31, -95, -24, -80, 115, 111, -26, 112, 26, 71, -94, -76, 88, 36, 71, 66, -7, -100, 23, 73, -69, 44, -17, 103, -83, 121, -67, 1, 42, 76, -74, -84, 83, 47, 120, 111, -50, -15, -127, 110, -7, -33, -102, 82, 90, -14, 90, 117, 93, -77, -55, 24, 92, 69, -101, 19, -110, -126, -70, 49, -6, -46, -33, 106, 29, -88, 123, -101, -49, 25, -31, -98, 81, 91, -121, -91, -9, 5, 45, 16, -25, 42, -55, 121, -45, -13, -71, -15, 31, 58, 12, 52];
    let plan = strided_slice::prepare_strided_slice(&[2, 3, 4, 5], &[1, 0, -3, 1], &[2, 2, 4, -1], &[1, 1, 1, 2], 2, 4, 1, false).unwrap();
    let p = plan.as_params();
    let mut out = vec![0i8; p.out_len()];
    strided_slice::strided_slice_s8(&p, &x, &mut out);
    let want: [i8; 12] = [-127, -7, 82, -14, 93, -55, -70, -6, 106, -88, -49, -31];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn strided_slice_reverse_all() {
    let x: [i8; 24] = [-35, 46, 115, 39, -124, 20, -33, 33, 79, 58, -45, -128, -50, 106, 9, -35, 24, -9, 48, 36, 1, 71, 11, 20];
    let plan = strided_slice::prepare_strided_slice(&[2, 3, 4], &[0, 0, 0], &[0, 0, 0], &[-1, -1, -1], 7, 7, 0, false).unwrap();
    let p = plan.as_params();
    let mut out = vec![0i8; p.out_len()];
    strided_slice::strided_slice_s8(&p, &x, &mut out);
    let want: [i8; 24] = [20, 11, 71, 1, 36, 48, -9, 24, -35, 9, 106, -50, -128, -45, 58, 79, 33, -33, 20, -124, 39, 115, 46, -35];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn strided_slice_clamped() {
    let x: [i8; 24] = [-18, -12, -114, -65, -44, -28, 56, -120, 127, 101, 67, -62, 86, 8, 71, -112, -69, 59, -70, 92, 68, 2, 31, -67];
    let plan = strided_slice::prepare_strided_slice(&[4, 6], &[-10, 2], &[10, 100], &[3, 3], 0, 0, 0, false).unwrap();
    let p = plan.as_params();
    let mut out = vec![0i8; p.out_len()];
    strided_slice::strided_slice_s8(&p, &x, &mut out);
    let want: [i8; 4] = [-114, -28, 68, -67];
    assert_eq!(out, want);
}

/// Expected output: TFLite Micro.
#[test]
fn resize_bilinear_align_corners() {
    let x: [i8; 40] = [-94, 21, -124, -10, 94, 32, 101, -57, -48, -77, -61, 39, -14, 6, -52, 1, -55, 96, -12, -63, -25, 87, 120, 38, 23, 20, 26, -19, 34, 95, 73, -83, 56, -36, -98, -114, -34, -59, -107, 8];
    let p = resize_bilinear::prepare_resize_bilinear(1, 4, 5, 2, 7, 3, true, false).unwrap();
    let mut out = [0i8; 42];
    resize_bilinear::resize_bilinear_s8(&p, &x, &mut out);
    assert_eq!(out, [-94, 21, 94, 32, -48, -77, -78, 30, 21, 17, -30, -70, -61, 39, -52, 1, -12, -63, -43, 63, -15, 11, 11, 16, -25, 87, 23, 20, 34, 95, 24, 2, -38, -47, -37, 52, 73, -83, -98, -114, -107, 8]);
}

/// Expected output: TFLite Micro.
#[test]
fn resize_bilinear_plain() {
    let x: [i8; 18] = [-32, 32, -122, -102, 124, 62, -70, 58, -83, 97, -87, -26, 87, -65, -42, 84, 93, 119];
    let p = resize_bilinear::prepare_resize_bilinear(1, 3, 3, 2, 5, 7, false, false).unwrap();
    let mut out = [0i8; 70];
    resize_bilinear::resize_bilinear_s8(&p, &x, &mut out);
    assert_eq!(out, [-32, 32, -71, -25, -109, -83, -52, -55, 54, 15, 124, 62, 124, 62, -55, 48, -74, 35, -92, 22, -71, 15, -30, 12, -3, 9, -3, 9, -39, 33, -54, 60, -70, 86, -68, 68, -58, 29, -51, 3, -51, 3, 55, -40, 10, 14, -35, 69, -20, 88, 26, 89, 57, 90, 57, 90, 87, -65, 32, -1, -24, 63, -3, 94, 55, 109, 93, 119, 93, 119]);
}

/// Expected output: TFLite Micro.
#[test]
fn resize_bilinear_downscale_half_pixel() {
    let x: [i8; 36] = [23, -72, -51, 38, 99, 55, -120, 112, 116, 79, -79, 27, -115, -80, 108, 75, 5, 110, 86, 9, -5, 56, 112, 122, 40, -93, -111, -63, 31, -57, 62, 99, -65, -90, -38, 59];
    let p = resize_bilinear::prepare_resize_bilinear(1, 6, 6, 1, 4, 3, false, true).unwrap();
    let mut out = [0i8; 12];
    resize_bilinear::resize_bilinear_s8(&p, &x, &mut out);
    assert_eq!(out, [-19, 20, 51, -74, 93, 37, 29, -3, 85, 54, -80, 5]);
}

/// Expected output: TFLite Micro.
#[test]
fn resize_nearest_align_corners() {
    let x: [i8; 40] = [98, 115, 33, -90, 80, -113, 5, -75, 23, -26, 125, 38, 15, 94, 49, 27, -96, 15, 92, 94, -8, 57, -22, -45, 57, -92, 29, -114, 10, -21, -34, -78, -118, -29, -11, 87, 103, -29, -56, -100];
    let (mut rows, mut cols) = ([0usize; 7], [0usize; 3]);
    resize_nearest_neighbor::prepare_resize_nearest_neighbor(4, 5, 2, true, false, &mut rows, &mut cols);
    let p = resize_nearest_neighbor::ResizeNearestNeighborParams { batches: 1, depth: 2, input_batch_stride: 40, row_offsets: &rows, col_offsets: &cols };
    let mut out = [0i8; 42];
    resize_nearest_neighbor::resize_nearest_neighbor_s8(&p, &x, &mut out);
    assert_eq!(out, [98, 115, 80, -113, 23, -26, 125, 38, 49, 27, 92, 94, 125, 38, 49, 27, 92, 94, -8, 57, 57, -92, 10, -21, -8, 57, 57, -92, 10, -21, -34, -78, -11, 87, -56, -100, -34, -78, -11, 87, -56, -100]);
}

/// Expected output: TFLite Micro.
#[test]
fn resize_nearest_plain() {
    let x: [i8; 18] = [26, -88, 112, 95, 1, 71, 99, -75, -66, -62, 79, 122, -116, 114, 75, -93, -8, -1];
    let (mut rows, mut cols) = ([0usize; 5], [0usize; 7]);
    resize_nearest_neighbor::prepare_resize_nearest_neighbor(3, 3, 2, false, false, &mut rows, &mut cols);
    let p = resize_nearest_neighbor::ResizeNearestNeighborParams { batches: 1, depth: 2, input_batch_stride: 18, row_offsets: &rows, col_offsets: &cols };
    let mut out = [0i8; 70];
    resize_nearest_neighbor::resize_nearest_neighbor_s8(&p, &x, &mut out);
    assert_eq!(out, [26, -88, 26, -88, 26, -88, 112, 95, 112, 95, 1, 71, 1, 71, 26, -88, 26, -88, 26, -88, 112, 95, 112, 95, 1, 71, 1, 71, 99, -75, 99, -75, 99, -75, -66, -62, -66, -62, 79, 122, 79, 122, 99, -75, 99, -75, 99, -75, -66, -62, -66, -62, 79, 122, 79, 122, -116, 114, -116, 114, -116, 114, 75, -93, 75, -93, -8, -1, -8, -1]);
}

/// Expected output: TFLite Micro.
#[test]
fn resize_nearest_downscale_half_pixel() {
    let x: [i8; 42] = [-41, 71, 62, -30, -85, 31, 110, -106, -83, -39, 64, 49, 33, 63, 42, 53, 70, 57, -60, -65, 110, 94, 13, 8, 52, -69, -87, -123, 14, 79, -53, -5, -84, -120, -51, -34, -102, -116, 43, 47, -11, 26];
    let (mut rows, mut cols) = ([0usize; 4], [0usize; 3]);
    resize_nearest_neighbor::prepare_resize_nearest_neighbor(7, 6, 1, false, true, &mut rows, &mut cols);
    let p = resize_nearest_neighbor::ResizeNearestNeighborParams { batches: 1, depth: 1, input_batch_stride: 42, row_offsets: &rows, col_offsets: &cols };
    let mut out = [0i8; 12];
    resize_nearest_neighbor::resize_nearest_neighbor_s8(&p, &x, &mut out);
    assert_eq!(out, [71, -30, 31, 63, 53, 57, -69, -123, 79, -116, 47, 26]);
}

/// Expected output: TFLite Micro.
#[test]
fn resize_nearest_align_and_half() {
    let x: [i8; 12] = [124, 46, 31, 19, -92, -38, -57, -128, -15, -67, 100, -125];
    let (mut rows, mut cols) = ([0usize; 5], [0usize; 6]);
    resize_nearest_neighbor::prepare_resize_nearest_neighbor(3, 4, 1, true, true, &mut rows, &mut cols);
    let p = resize_nearest_neighbor::ResizeNearestNeighborParams { batches: 1, depth: 1, input_batch_stride: 12, row_offsets: &rows, col_offsets: &cols };
    let mut out = [0i8; 30];
    resize_nearest_neighbor::resize_nearest_neighbor_s8(&p, &x, &mut out);
    assert_eq!(out, [124, 46, 31, 31, 19, 19, -92, -38, -57, -57, -128, -128, -92, -38, -57, -57, -128, -128, -15, -67, 100, 100, -125, -125, -15, -67, 100, 100, -125, -125]);
}

/// Expected output: TFLite Micro.
#[test]
fn transpose_rank5() {
    let x: [i8; 48] = [-56, 32, 51, 74, 119, 42, -35, -117, 76, 8, -128, -104, -46, -85, 117, 111, 75, 36, -68, -118, -55, 75, 96, 60, -22, -128, 30, 60, -26, 1, 114, 75, -37, -14, -27, -59, -116, -85, -29, -99, -107, -106, 62, 20, -114, -92, 46, 22];
    let plan = transpose::prepare_transpose(&[2, 3, 1, 4, 2], &[4, 0, 2, 1, 3]).unwrap();
    let mut out = [0i8; 48];
    transpose::transpose_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-56, 51, 119, -35, 76, -128, -46, 117, 75, -68, -55, 96, -22, 30, -26, 114, -37, -27, -116, -29, -107, 62, -114, 46, 32, 74, 42, -117, 8, -104, -85, 111, 36, -118, 75, 60, -128, 60, 1, 75, -14, -59, -85, -99, -106, 20, -92, 22]);
}

/// Expected output: TFLite Micro.
#[test]
fn transpose_rank5_reverse() {
    let x: [i8; 36] = [-58, -114, -80, -43, 42, 78, 0, -65, -112, -38, 38, 117, -102, 30, 43, -39, -79, 13, 67, -107, -117, 61, 56, -45, -1, -16, 14, -18, 0, 67, -94, -37, 31, 4, -68, 99];
    let plan = transpose::prepare_transpose(&[2, 1, 3, 2, 3], &[4, 3, 2, 1, 0]).unwrap();
    let mut out = [0i8; 36];
    transpose::transpose_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-58, 67, 0, -1, -102, -94, -43, 61, -38, -18, -39, 4, -114, -107, -65, -16, 30, -37, 42, 56, 38, 0, -79, -68, -80, -117, -112, 14, 43, 31, 78, -45, 117, 67, 13, 99]);
}

/// Expected output: TFLite Micro.
#[test]
fn transpose_rank3() {
    let x: [i8; 60] = [-60, -6, -124, 116, -77, 104, 61, 65, -94, 1, 10, -100, -125, 30, -71, 105, -11, -31, 25, -98, -83, -53, 58, -77, 96, -119, -83, -20, 68, 32, 64, -24, 56, -65, -26, -70, -55, 110, -99, 83, -19, 17, -74, 81, 119, 105, -77, -128, 80, 15, -47, 82, -93, 59, 50, -11, 43, 40, -101, 6];
    let plan = transpose::prepare_transpose(&[3, 4, 5], &[2, 0, 1]).unwrap();
    let mut out = [0i8; 60];
    transpose::transpose_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-60, 104, 10, 105, -83, -119, 64, -70, -19, 105, -47, -11, -6, 61, -100, -11, -53, -83, -24, -55, 17, -77, 82, 43, -124, 65, -125, -31, 58, -20, 56, 110, -74, -128, -93, 40, 116, -94, 30, 25, -77, 68, -65, -99, 81, 80, 59, -101, -77, 1, -71, -98, 96, 32, -26, 83, 119, 15, 50, 6]);
}

/// Expected output: TFLite Micro.
#[test]
fn pad_rank5_every_edge() {
    let x: [i8; 24] = [2, 81, -95, -87, 60, -19, -23, -41, -90, 12, -108, -20, -112, -64, 44, 119, -112, 13, 9, 45, -33, -62, -88, -102];
    let mut out_shape = [0usize; 5];
    pad::pad_output_shape(&[1, 2, 3, 2, 2], &[(0, 1), (1, 0), (2, 1), (0, 0), (1, 2)], &mut out_shape).unwrap();
    let p = pad::PadParams { input_shape: &[1, 2, 3, 2, 2], output_shape: &out_shape, before: &[0, 1, 2, 0, 1], pad_value: -95i8 };
    let mut out = [0i8; 360];
    pad::pad_s8(&p, &x, &mut out);
    assert_eq!(out, [-95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, 2, 81, -95, -95, -95, -95, -87, -95, -95, -95, 60, -19, -95, -95, -95, -23, -41, -95, -95, -95, -90, 12, -95, -95, -95, -108, -20, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -112, -64, -95, -95, -95, 44, 119, -95, -95, -95, -112, 13, -95, -95, -95, 9, 45, -95, -95, -95, -33, -62, -95, -95, -95, -88, -102, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95, -95]);
}

/// Expected output: TFLite Micro.
#[test]
fn padv2_rank3() {
    let x: [i8; 12] = [118, 9, 61, 70, -106, 126, 36, -125, 106, 119, 94, -95];
    let mut out_shape = [0usize; 3];
    pad::pad_output_shape(&[2, 3, 2], &[(1, 1), (0, 2), (1, 0)], &mut out_shape).unwrap();
    let p = pad::PadParams { input_shape: &[2, 3, 2], output_shape: &out_shape, before: &[1, 0, 1], pad_value: -77i8 };
    let mut out = [0i8; 60];
    pad::pad_s8(&p, &x, &mut out);
    assert_eq!(out, [-77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, 118, 9, -77, 61, 70, -77, -106, 126, -77, -77, -77, -77, -77, -77, -77, 36, -125, -77, 106, 119, -77, 94, -95, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77, -77]);
}

/// Expected output: TFLite Micro.
#[test]
fn pad_rank1() {
    let x: [i8; 5] = [88, -17, -10, -39, 42];
    let mut out_shape = [0usize; 1];
    pad::pad_output_shape(&[5], &[(3, 2)], &mut out_shape).unwrap();
    let p = pad::PadParams { input_shape: &[5], output_shape: &out_shape, before: &[3], pad_value: -74i8 };
    let mut out = [0i8; 10];
    pad::pad_s8(&p, &x, &mut out);
    assert_eq!(out, [-74, -74, -74, 88, -17, -10, -39, 42, -74, -74]);
}

/// Expected output: TFLite Micro.
#[test]
fn concatenation_axis0_three_inputs() {
    let x0: [i8; 6] = [98, 81, 88, -106, -54, -115];
    let x1: [i8; 12] = [-1, 86, 55, -48, -64, -21, 40, -123, 65, -99, -38, -58];
    let x2: [i8; 18] = [120, -100, -57, 56, 109, -119, 101, -96, -30, -27, -117, -36, 24, 125, -95, -90, -60, 12];
    let mut offsets = [0usize; 3];
    let mut lens = [0usize; 3];
    let axis = split::resolve_axis(0, 3).unwrap();
    assert_eq!(axis, 0);
    let (outer, row) = concatenation::prepare_concatenation(&[&[1, 2, 3], &[2, 2, 3], &[3, 2, 3]], axis, &mut offsets, &mut lens).unwrap();
    let p = concatenation::ConcatenationParams { outer, output_row: row, offsets: &offsets, lens: &lens };
    let mut out = [0i8; 36];
    concatenation::concatenation_s8(&p, &[&x0, &x1, &x2], &mut out);
    assert_eq!(out, [98, 81, 88, -106, -54, -115, -1, 86, 55, -48, -64, -21, 40, -123, 65, -99, -38, -58, 120, -100, -57, 56, 109, -119, 101, -96, -30, -27, -117, -36, 24, 125, -95, -90, -60, 12]);
}

/// Expected output: TFLite Micro.
#[test]
fn concatenation_negative_axis() {
    let x0: [i8; 6] = [-1, -46, 4, -114, -59, 119];
    let x1: [i8; 24] = [27, -42, 56, -91, -35, 86, 112, 40, 36, -88, 93, -29, -75, -57, 39, 33, 37, 108, -68, 63, -41, -28, 60, -61];
    let x2: [i8; 12] = [-42, -19, 31, -29, 60, 52, -110, -27, -120, -81, 12, 70];
    let mut offsets = [0usize; 3];
    let mut lens = [0usize; 3];
    let axis = split::resolve_axis(-1, 3).unwrap();
    assert_eq!(axis, 2);
    let (outer, row) = concatenation::prepare_concatenation(&[&[2, 3, 1], &[2, 3, 4], &[2, 3, 2]], axis, &mut offsets, &mut lens).unwrap();
    let p = concatenation::ConcatenationParams { outer, output_row: row, offsets: &offsets, lens: &lens };
    let mut out = [0i8; 42];
    concatenation::concatenation_s8(&p, &[&x0, &x1, &x2], &mut out);
    assert_eq!(out, [-1, 27, -42, 56, -91, -42, -19, -46, -35, 86, 112, 40, 31, -29, 4, 36, -88, 93, -29, 60, 52, -114, -75, -57, 39, 33, -110, -27, -59, 37, 108, -68, 63, -120, -81, 119, -41, -28, 60, -61, 12, 70]);
}

/// Expected output: TFLite Micro.
#[test]
fn concatenation_middle_axis() {
    let x0: [i8; 6] = [-30, 70, -113, 93, -102, -38];
    let x1: [i8; 24] = [-37, -124, -90, -120, -93, 121, -44, -20, 53, -27, 4, 12, 92, -41, -42, -98, -66, 6, -118, 54, 84, 0, 120, 122];
    let mut offsets = [0usize; 2];
    let mut lens = [0usize; 2];
    let axis = split::resolve_axis(1, 3).unwrap();
    assert_eq!(axis, 1);
    let (outer, row) = concatenation::prepare_concatenation(&[&[2, 1, 3], &[2, 4, 3]], axis, &mut offsets, &mut lens).unwrap();
    let p = concatenation::ConcatenationParams { outer, output_row: row, offsets: &offsets, lens: &lens };
    let mut out = [0i8; 30];
    concatenation::concatenation_s8(&p, &[&x0, &x1], &mut out);
    assert_eq!(out, [-30, 70, -113, -37, -124, -90, -120, -93, 121, -44, -20, 53, -27, 4, 12, 93, -102, -38, 92, -41, -42, -98, -66, 6, -118, 54, 84, 0, 120, 122]);
}

/// Expected output: TFLite Micro.
#[test]
fn split_negative_axis_three() {
    let x: [i8; 24] = [-67, -7, -113, -126, -12, 95, 107, 40, 13, -51, 125, 54, -35, 28, -85, -107, -7, -64, 13, 44, 94, 106, -76, 27];
    let axis = split::resolve_axis(-2, 3).unwrap();
    let size = split::split_size([2, 6, 2][axis], 3).unwrap();
    let plan = split::prepare_split_output(&[2, 6, 2], axis, 0, size).unwrap();
    let mut out = [0i8; 8];
    split::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-67, -7, -113, -126, -35, 28, -85, -107], "output 0");
    let plan = split::prepare_split_output(&[2, 6, 2], axis, size, size).unwrap();
    let mut out = [0i8; 8];
    split::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-12, 95, 107, 40, -7, -64, 13, 44], "output 1");
    let plan = split::prepare_split_output(&[2, 6, 2], axis, 2 * size, size).unwrap();
    let mut out = [0i8; 8];
    split::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [13, -51, 125, 54, 94, 106, -76, 27], "output 2");
}

/// Expected output: TFLite Micro.
#[test]
fn split_axis0() {
    let x: [i8; 12] = [-97, -105, -126, 27, 61, -13, -9, -80, -86, 100, 76, -88];
    let axis = split::resolve_axis(0, 2).unwrap();
    let size = split::split_size([4, 3][axis], 2).unwrap();
    let plan = split::prepare_split_output(&[4, 3], axis, 0, size).unwrap();
    let mut out = [0i8; 6];
    split::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-97, -105, -126, 27, 61, -13], "output 0");
    let plan = split::prepare_split_output(&[4, 3], axis, size, size).unwrap();
    let mut out = [0i8; 6];
    split::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-9, -80, -86, 100, 76, -88], "output 1");
}

/// Expected output: TFLite Micro.
#[test]
fn split_v_minus_one() {
    let x: [i8; 42] = [24, -107, 24, 96, -15, -119, 17, -2, -77, 27, -93, 48, -18, 75, -81, 118, -80, -111, -32, 41, -3, 41, 95, -26, 28, -78, -67, 36, 47, 105, 73, 125, -98, -14, -4, 64, 22, -67, 74, 80, -34, 72];
    let axis = split::resolve_axis(1, 3).unwrap();
    let mut sizes = [0usize; 3];
    split_v::split_v_sizes([3, 7, 2][axis], &[2, -1, 1], &mut sizes).unwrap();
    let mut start = 0;
    let plan = split_v::prepare_split_output(&[3, 7, 2], axis, start, sizes[0]).unwrap();
    start += sizes[0];
    let mut out = [0i8; 12];
    split_v::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [24, -107, 24, 96, -81, 118, -80, -111, 47, 105, 73, 125], "output 0");
    let plan = split_v::prepare_split_output(&[3, 7, 2], axis, start, sizes[1]).unwrap();
    start += sizes[1];
    let mut out = [0i8; 24];
    split_v::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-15, -119, 17, -2, -77, 27, -93, 48, -32, 41, -3, 41, 95, -26, 28, -78, -98, -14, -4, 64, 22, -67, 74, 80], "output 1");
    let plan = split_v::prepare_split_output(&[3, 7, 2], axis, start, sizes[2]).unwrap();
    let mut out = [0i8; 6];
    split_v::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-18, 75, -67, 36, -34, 72], "output 2");
}

/// Expected output: TFLite Micro.
#[test]
fn split_v_last_axis() {
    let x: [i8; 20] = [97, 108, 10, 101, 7, 90, 31, 60, 82, -114, 25, -6, -84, 11, -54, -48, 7, -105, 45, 90];
    let axis = split::resolve_axis(2, 3).unwrap();
    let mut sizes = [0usize; 2];
    split_v::split_v_sizes([2, 2, 5][axis], &[1, 4], &mut sizes).unwrap();
    let mut start = 0;
    let plan = split_v::prepare_split_output(&[2, 2, 5], axis, start, sizes[0]).unwrap();
    start += sizes[0];
    let mut out = [0i8; 4];
    split_v::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [97, 90, 25, -48], "output 0");
    let plan = split_v::prepare_split_output(&[2, 2, 5], axis, start, sizes[1]).unwrap();
    let mut out = [0i8; 16];
    split_v::split_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [108, 10, 101, 7, 31, 60, 82, -114, -6, -84, 11, -54, 7, -105, 45, 90], "output 1");
}

/// Expected output: TFLite Micro.
#[test]
fn pack_axis0() {
    let x0: [i8; 6] = [-121, 40, -60, -34, 79, -65];
    let x1: [i8; 6] = [0, 43, -47, -84, -22, -74];
    let x2: [i8; 6] = [-10, 40, 2, -111, 113, -51];
    let (outer, row, inner) = pack::prepare_pack(&[2, 3], 0, 3).unwrap();
    let offsets: Vec<usize> = (0..3).map(|k| k * inner).collect();
    let lens = [inner; 3];
    let p = pack::PackParams { outer, output_row: row, offsets: &offsets, lens: &lens };
    let mut out = [0i8; 18];
    pack::pack_s8(&p, &[&x0, &x1, &x2], &mut out);
    assert_eq!(out, [-121, 40, -60, -34, 79, -65, 0, 43, -47, -84, -22, -74, -10, 40, 2, -111, 113, -51]);
}

/// Expected output: TFLite Micro.
#[test]
fn pack_last_axis() {
    let x0: [i8; 6] = [-119, -122, -82, -62, 33, 15];
    let x1: [i8; 6] = [123, -128, 0, 60, 35, 11];
    let (outer, row, inner) = pack::prepare_pack(&[2, 3], 2, 2).unwrap();
    let offsets: Vec<usize> = (0..2).map(|k| k * inner).collect();
    let lens = [inner; 2];
    let p = pack::PackParams { outer, output_row: row, offsets: &offsets, lens: &lens };
    let mut out = [0i8; 12];
    pack::pack_s8(&p, &[&x0, &x1], &mut out);
    assert_eq!(out, [-119, 123, -122, -128, -82, 0, -62, 60, 33, 35, 15, 11]);
}

/// Expected output: TFLite Micro.
#[test]
fn unpack_axis1() {
    let x: [i8; 24] = [65, -106, 98, 20, 92, 113, -19, -86, -83, 49, -3, 22, -97, 47, -41, 11, -116, -30, 20, 29, 38, 83, -1, -122];
    let plan = unpack::prepare_unpack_output(&[2, 3, 4], 1, 0).unwrap();
    let mut out = [0i8; 8];
    unpack::unpack_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [65, -106, 98, 20, -97, 47, -41, 11], "output 0");
    let plan = unpack::prepare_unpack_output(&[2, 3, 4], 1, 1).unwrap();
    let mut out = [0i8; 8];
    unpack::unpack_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [92, 113, -19, -86, -116, -30, 20, 29], "output 1");
    let plan = unpack::prepare_unpack_output(&[2, 3, 4], 1, 2).unwrap();
    let mut out = [0i8; 8];
    unpack::unpack_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-83, 49, -3, 22, 38, 83, -1, -122], "output 2");
}

/// Expected output: TFLite Micro.
#[test]
fn unpack_last_axis() {
    let x: [i8; 12] = [91, -24, -32, 4, 110, 33, 32, 52, 118, -108, 103, 26];
    let plan = unpack::prepare_unpack_output(&[3, 2, 2], 2, 0).unwrap();
    let mut out = [0i8; 6];
    unpack::unpack_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [91, -32, 110, 32, 118, 103], "output 0");
    let plan = unpack::prepare_unpack_output(&[3, 2, 2], 2, 1).unwrap();
    let mut out = [0i8; 6];
    unpack::unpack_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [-24, 4, 33, 52, -108, 26], "output 1");
}

/// Expected output: TFLite Micro.
#[test]
fn slice_minus_one_rank3() {
    let x: [i8; 60] = [-54, 126, 45, 100, -91, -20, 40, -99, -5, 29, 4, 13, 23, 33, 89, 88, 61, -34, -7, -76, -61, -118, 98, -113, 78, -36, 61, -128, -66, -81, -35, -90, 103, 46, 44, -89, -13, 21, 61, -101, -73, -1, -31, 85, -39, -26, -126, -16, -98, -2, -102, -87, -56, 119, -4, -31, -97, 125, 27, 104];
    let plan = slice::prepare_slice(&[3, 4, 5], &[1, 0, 2], &[-1, 3, -1]).unwrap();
    let mut out = [0i8; 18];
    slice::slice_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [98, -113, 78, -128, -66, -81, 103, 46, 44, -31, 85, -39, -16, -98, -2, -56, 119, -4]);
}

/// Expected output: TFLite Micro.
#[test]
fn slice_rank5() {
    let x: [i8; 72] = [46, -50, 47, 71, -5, -82, -57, 126, -102, -67, 26, -71, 121, -30, 67, -22, -88, -65, -89, -120, 12, -30, 70, 53, -7, -117, -3, -96, 58, -118, -20, -17, -103, 49, -116, -104, -85, 40, 119, -52, -69, 1, 87, -124, 48, -104, 16, -65, 13, 107, -85, 15, -114, -120, 76, 62, -53, 74, -88, 25, -64, -5, -7, 60, 3, 59, -13, 35, -51, -113, 22, 121];
    let plan = slice::prepare_slice(&[2, 3, 2, 3, 2], &[1, 1, 0, 1, 1], &[1, 2, 2, 2, 1]).unwrap();
    let mut out = [0i8; 8];
    slice::slice_s8(&plan.as_params(), &x, &mut out);
    assert_eq!(out, [15, -120, 74, 25, 60, 59, -113, 121]);
}

/// Expected output: TFLite Micro.
#[test]
fn add_f32_broadcast_relu6() {
    let a: [f32; 24] = [f32::from_bits(0x3f1073f6), f32::from_bits(0x40eeaf24), f32::from_bits(0xbfc68bcb), f32::from_bits(0x3fb9b630), f32::from_bits(0xbfef90c1), f32::from_bits(0xbf848189), f32::from_bits(0x3fe5394e), f32::from_bits(0xbf7fda1a), f32::from_bits(0xc1153f8d), f32::from_bits(0x3f130b7b), f32::from_bits(0x40820460), f32::from_bits(0xc029c60f), f32::from_bits(0x405769fc), f32::from_bits(0x40790e80), f32::from_bits(0x3ffc0812), f32::from_bits(0x4073ae43), f32::from_bits(0xc0e152b4), f32::from_bits(0xc0c2f8ff), f32::from_bits(0x40091654), f32::from_bits(0x4045318d), f32::from_bits(0x408237ca), f32::from_bits(0x3f894ba3), f32::from_bits(0x405f34b1), f32::from_bits(0x4018827a)];
    let b: [f32; 3] = [f32::from_bits(0xc09fd8de), f32::from_bits(0xc0a7af3d), f32::from_bits(0x40648960)];
    let plan = plan_broadcast(&[2, 3, 4], &[3, 1]).unwrap();
    let (activation_min, activation_max) = activation_range_f32(FusedActivation::Relu6);
    let p = PlainBinaryParams { activation_min, activation_max, broadcast: plan.as_broadcast() };
    let mut out = [0f32; 24];
    add::add_f32(&p, &a, &b, &mut out);
    let want: [f32; 24] = [f32::from_bits(0x00000000), f32::from_bits(0x401dac8c), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x4084a61f), f32::from_bits(0x40c00000), f32::from_bits(0x3f6b0d44), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40c00000), f32::from_bits(0x40949799), f32::from_bits(0x40c00000), f32::from_bits(0x40be85ed)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn sub_f32_relu_n1_to_1() {
    let a: [f32; 15] = [f32::from_bits(0x3f893ef2), f32::from_bits(0xc0bbd987), f32::from_bits(0x3f746be6), f32::from_bits(0xbf8e6170), f32::from_bits(0x406abbf1), f32::from_bits(0x40f2a6c7), f32::from_bits(0xbf3ced7f), f32::from_bits(0x3f9dd5f5), f32::from_bits(0xc0453dac), f32::from_bits(0x40504a4f), f32::from_bits(0xbf93d3fa), f32::from_bits(0x40c1bbe4), f32::from_bits(0x40fc67b0), f32::from_bits(0x40a474d5), f32::from_bits(0x40515eb1)];
    let b: [f32; 15] = [f32::from_bits(0xc08b3f14), f32::from_bits(0xc0b67f44), f32::from_bits(0x4051f7f2), f32::from_bits(0x3ff4308d), f32::from_bits(0x408554cd), f32::from_bits(0xbecbeb2c), f32::from_bits(0x3eac2fb0), f32::from_bits(0x40c1bb22), f32::from_bits(0xc097edb1), f32::from_bits(0xc0343354), f32::from_bits(0x3fb226a3), f32::from_bits(0x3fa417aa), f32::from_bits(0x3ef85260), f32::from_bits(0x3ec570e3), f32::from_bits(0xc0b17d9c)];
    let plan = plan_broadcast(&[3, 5], &[3, 5]).unwrap();
    let (activation_min, activation_max) = activation_range_f32(FusedActivation::ReluN1To1);
    let p = PlainBinaryParams { activation_min, activation_max, broadcast: plan.as_broadcast() };
    let mut out = [0f32; 15];
    sub::sub_f32(&p, &a, &b, &mut out);
    let want: [f32; 15] = [f32::from_bits(0x3f800000), f32::from_bits(0xbe2b4860), f32::from_bits(0xbf800000), f32::from_bits(0xbf800000), f32::from_bits(0xbeff6d48), f32::from_bits(0x3f800000), f32::from_bits(0xbf800000), f32::from_bits(0xbf800000), f32::from_bits(0x3f800000), f32::from_bits(0x3f800000), f32::from_bits(0xbf800000), f32::from_bits(0x3f800000), f32::from_bits(0x3f800000), f32::from_bits(0x3f800000), f32::from_bits(0x3f800000)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn mul_f32_broadcast() {
    let a: [f32; 12] = [f32::from_bits(0x408622d6), f32::from_bits(0x3fe336c9), f32::from_bits(0xc0334557), f32::from_bits(0x3f886e2f), f32::from_bits(0x4117c5bc), f32::from_bits(0x409621d3), f32::from_bits(0xc0b6cfc2), f32::from_bits(0xc082122f), f32::from_bits(0x4028d489), f32::from_bits(0xc0c4b825), f32::from_bits(0xbfb789dd), f32::from_bits(0xbfa7d2b3)];
    let b: [f32; 3] = [f32::from_bits(0x3f548692), f32::from_bits(0xc10bca2c), f32::from_bits(0xbd9bf3af)];
    let plan = plan_broadcast(&[1, 4, 3], &[3]).unwrap();
    let (activation_min, activation_max) = activation_range_f32(FusedActivation::None);
    let p = PlainBinaryParams { activation_min, activation_max, broadcast: plan.as_broadcast() };
    let mut out = [0f32; 12];
    mul::mul_f32(&p, &a, &b, &mut out);
    let want: [f32; 12] = [f32::from_bits(0x405eb6b8), f32::from_bits(0xc178245f), f32::from_bits(0x3e5a6b42), f32::from_bits(0x3f6285ed), f32::from_bits(0xc2a5c072), f32::from_bits(0xbeb6eac7), f32::from_bits(0xc097c426), f32::from_bits(0x420e0d30), f32::from_bits(0xbe4db2c8), f32::from_bits(0xc0a34fe7), f32::from_bits(0x4148719b), f32::from_bits(0x3dcc78a4)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn add_i32_ignores_fused_relu() {
    let a: [i32; 10] = [2147483647, 986872257, -760166910, -584027525, 546482585, 81359123, -943803125, 1006588671, -688376006, -236718282];
    let b: [i32; 5] = [7, -810560809, 594822274, -1013307352, 732105615];
    let plan = plan_broadcast(&[2, 5], &[5]).unwrap();
    let (activation_min, activation_max) = activation_range_i32(FusedActivation::None);
    let p = PlainBinaryParams { activation_min, activation_max, broadcast: plan.as_broadcast() };
    let mut out = [0i32; 10];
    add::add_i32(&p, &a, &b, &mut out);
    assert_eq!(out, [-2147483642, 176311448, -165344636, -1597334877, 1278588200, 81359130, -1754363934, 1601410945, -1701683358, 495387333]);
}

/// Expected output: TFLite Micro.
#[test]
fn sub_i32_relu6() {
    let a: [i32; 12] = [2147483647, -681291714, -466229010, -733145848, -1065287875, -183722401, 622943381, 850189010, -943521085, -102751600, -881560493, 354566842];
    let b: [i32; 4] = [7, -471241329, 269802815, -219089362];
    let plan = plan_broadcast(&[4, 3], &[4, 1]).unwrap();
    let (activation_min, activation_max) = activation_range_i32(FusedActivation::Relu6);
    let p = PlainBinaryParams { activation_min, activation_max, broadcast: plan.as_broadcast() };
    let mut out = [0i32; 12];
    sub::sub_i32(&p, &a, &b, &mut out);
    assert_eq!(out, [6, 0, 0, 0, 0, 6, 6, 6, 0, 6, 0, 6]);
}

/// Expected output: TFLite Micro.
#[test]
fn mul_i32_relu() {
    let a: [i32; 12] = [2147483647, 9113, 60729, 52994, 20013, -21859, 10519, -6796, -63336, 19540, -12498, 37203];
    let b: [i32; 12] = [7, 36543, 62145, 24006, -28270, -20908, -6351, -3711, 39405, -50376, -40957, 32042];
    let plan = plan_broadcast(&[3, 4], &[3, 4]).unwrap();
    let (activation_min, activation_max) = activation_range_i32(FusedActivation::Relu);
    let p = PlainBinaryParams { activation_min, activation_max, broadcast: plan.as_broadcast() };
    let mut out = [0i32; 12];
    mul::mul_i32(&p, &a, &b, &mut out);
    assert_eq!(out, [2147483641, 333016359, 0, 1272173964, 0, 457027972, 0, 25219956, 1799212216, 0, 511880586, 1192058526]);
}

/// Expected output: TFLite Micro.
#[test]
fn relu_f32_values() {
    let x: [f32; 45] = [f32::from_bits(0xbf9491bb), f32::from_bits(0xbf4cb377), f32::from_bits(0x40898c4b), f32::from_bits(0x3f81770a), f32::from_bits(0x40b970dc), f32::from_bits(0xc12009a9), f32::from_bits(0xc0da9d33), f32::from_bits(0xc0c14fc7), f32::from_bits(0x40c35ac1), f32::from_bits(0x415313a4), f32::from_bits(0x412439d9), f32::from_bits(0x400b077b), f32::from_bits(0xc1091068), f32::from_bits(0xc09226f3), f32::from_bits(0x4047f588), f32::from_bits(0x404e922a), f32::from_bits(0x40518666), f32::from_bits(0xc038c7f7), f32::from_bits(0x40b23740), f32::from_bits(0xc121a371), f32::from_bits(0x402b2a8e), f32::from_bits(0xc0091d40), f32::from_bits(0xc0424326), f32::from_bits(0x40f90cdd), f32::from_bits(0x3f3cf88f), f32::from_bits(0x3facc3ea), f32::from_bits(0xbf60b945), f32::from_bits(0x40b364ec), f32::from_bits(0x40be0707), f32::from_bits(0x4073d5eb), f32::from_bits(0xc0a7ed70), f32::from_bits(0x3fada98b), f32::from_bits(0xbf9847f9), f32::from_bits(0xc00822c4), f32::from_bits(0xc08f67d3), f32::from_bits(0x40d97aef), f32::from_bits(0xc014eb94), f32::from_bits(0x3fd6d4a7), f32::from_bits(0x400982c4), f32::from_bits(0x3e9fe18c), f32::from_bits(0x00000000), f32::from_bits(0x80000000), f32::from_bits(0x40c00000), f32::from_bits(0x40d00000), f32::from_bits(0x8da24260)];
    let mut out = [0f32; 45];
    relu::relu_f32(&x, &mut out);
    let want: [f32; 45] = [f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40898c4b), f32::from_bits(0x3f81770a), f32::from_bits(0x40b970dc), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40c35ac1), f32::from_bits(0x415313a4), f32::from_bits(0x412439d9), f32::from_bits(0x400b077b), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x4047f588), f32::from_bits(0x404e922a), f32::from_bits(0x40518666), f32::from_bits(0x00000000), f32::from_bits(0x40b23740), f32::from_bits(0x00000000), f32::from_bits(0x402b2a8e), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40f90cdd), f32::from_bits(0x3f3cf88f), f32::from_bits(0x3facc3ea), f32::from_bits(0x00000000), f32::from_bits(0x40b364ec), f32::from_bits(0x40be0707), f32::from_bits(0x4073d5eb), f32::from_bits(0x00000000), f32::from_bits(0x3fada98b), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40d97aef), f32::from_bits(0x00000000), f32::from_bits(0x3fd6d4a7), f32::from_bits(0x400982c4), f32::from_bits(0x3e9fe18c), f32::from_bits(0x00000000), f32::from_bits(0x80000000), f32::from_bits(0x40c00000), f32::from_bits(0x40d00000), f32::from_bits(0x00000000)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn relu6_f32_values() {
    let x: [f32; 45] = [f32::from_bits(0xbfb858aa), f32::from_bits(0xc00a8961), f32::from_bits(0x3f7a80d9), f32::from_bits(0x400b3661), f32::from_bits(0xbf8615ef), f32::from_bits(0xc07a3cf0), f32::from_bits(0xbf95fc53), f32::from_bits(0xc0826610), f32::from_bits(0x40803477), f32::from_bits(0xbf2faa8a), f32::from_bits(0xc067d9a1), f32::from_bits(0xc03a4aa4), f32::from_bits(0x412bf831), f32::from_bits(0x3ef39edf), f32::from_bits(0x40bc844e), f32::from_bits(0xc0e778ab), f32::from_bits(0x40909e72), f32::from_bits(0xc09c6158), f32::from_bits(0xbf0007e5), f32::from_bits(0x404cf0e2), f32::from_bits(0x40944a2f), f32::from_bits(0x4097a5b8), f32::from_bits(0xbfcdd361), f32::from_bits(0xc06fc9a4), f32::from_bits(0xc0b6a159), f32::from_bits(0x3f63ca8a), f32::from_bits(0x4047ad08), f32::from_bits(0xc09a4e7d), f32::from_bits(0xc0b8a64a), f32::from_bits(0x3fcda0dc), f32::from_bits(0x40bbe4ef), f32::from_bits(0x40cc1a15), f32::from_bits(0x3f975811), f32::from_bits(0xc154f6cf), f32::from_bits(0xc0d045d3), f32::from_bits(0x41092b35), f32::from_bits(0x411369bf), f32::from_bits(0xbf909713), f32::from_bits(0xc0afd8f6), f32::from_bits(0x40ae646c), f32::from_bits(0x00000000), f32::from_bits(0x80000000), f32::from_bits(0x40c00000), f32::from_bits(0x40d00000), f32::from_bits(0x8da24260)];
    let mut out = [0f32; 45];
    relu::relu6_f32(&x, &mut out);
    let want: [f32; 45] = [f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x3f7a80d9), f32::from_bits(0x400b3661), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40803477), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40c00000), f32::from_bits(0x3ef39edf), f32::from_bits(0x40bc844e), f32::from_bits(0x00000000), f32::from_bits(0x40909e72), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x404cf0e2), f32::from_bits(0x40944a2f), f32::from_bits(0x4097a5b8), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x3f63ca8a), f32::from_bits(0x4047ad08), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x3fcda0dc), f32::from_bits(0x40bbe4ef), f32::from_bits(0x40c00000), f32::from_bits(0x3f975811), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40c00000), f32::from_bits(0x40c00000), f32::from_bits(0x00000000), f32::from_bits(0x00000000), f32::from_bits(0x40ae646c), f32::from_bits(0x00000000), f32::from_bits(0x80000000), f32::from_bits(0x40c00000), f32::from_bits(0x40c00000), f32::from_bits(0x00000000)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn leaky_relu_f32_values() {
    let x: [f32; 45] = [f32::from_bits(0x3f3bac7c), f32::from_bits(0xc11cd7f8), f32::from_bits(0x41017686), f32::from_bits(0x40101106), f32::from_bits(0xbf2fddf8), f32::from_bits(0x3fc05be8), f32::from_bits(0x40d5c30d), f32::from_bits(0xc0802e60), f32::from_bits(0xc0f02290), f32::from_bits(0x40228fb5), f32::from_bits(0xbff18901), f32::from_bits(0x406ea50a), f32::from_bits(0xbef505c2), f32::from_bits(0xc0d0061a), f32::from_bits(0x4041f210), f32::from_bits(0x4081ac26), f32::from_bits(0x40e061a7), f32::from_bits(0x40937e3a), f32::from_bits(0x41127c21), f32::from_bits(0xc04b212c), f32::from_bits(0x4021c24c), f32::from_bits(0x40274e43), f32::from_bits(0x3f782aad), f32::from_bits(0xbf8d9c82), f32::from_bits(0xc02da6df), f32::from_bits(0x40da65e9), f32::from_bits(0xc0b53128), f32::from_bits(0xbfe8df3c), f32::from_bits(0xc1378b09), f32::from_bits(0xbea5146f), f32::from_bits(0xc0215971), f32::from_bits(0xc0110c00), f32::from_bits(0xbf9fa21a), f32::from_bits(0xc0b8920a), f32::from_bits(0x3ef7b2a7), f32::from_bits(0x408a0e75), f32::from_bits(0xc0cd6833), f32::from_bits(0x40c89ee3), f32::from_bits(0xbf961cad), f32::from_bits(0x40c720db), f32::from_bits(0x00000000), f32::from_bits(0x80000000), f32::from_bits(0x40c00000), f32::from_bits(0x40d00000), f32::from_bits(0x8da24260)];
    let mut out = [0f32; 45];
    leaky_relu::leaky_relu_f32(f32::from_bits(0x3e19999a), &x, &mut out);
    let want: [f32; 45] = [f32::from_bits(0x3f3bac7c), f32::from_bits(0xbfbc365d), f32::from_bits(0x41017686), f32::from_bits(0x40101106), f32::from_bits(0xbdd30a5d), f32::from_bits(0x3fc05be8), f32::from_bits(0x40d5c30d), f32::from_bits(0xbf19d140), f32::from_bits(0xbf9014bd), f32::from_bits(0x40228fb5), f32::from_bits(0xbe90ebce), f32::from_bits(0x406ea50a), f32::from_bits(0xbd930375), f32::from_bits(0xbf79a0ed), f32::from_bits(0x4041f210), f32::from_bits(0x4081ac26), f32::from_bits(0x40e061a7), f32::from_bits(0x40937e3a), f32::from_bits(0x41127c21), f32::from_bits(0xbef3c169), f32::from_bits(0x4021c24c), f32::from_bits(0x40274e43), f32::from_bits(0x3f782aad), f32::from_bits(0xbe29ef03), f32::from_bits(0xbed061d9), f32::from_bits(0x40da65e9), f32::from_bits(0xbf596e31), f32::from_bits(0xbe8bb924), f32::from_bits(0xbfdc4072), f32::from_bits(0xbd461886), f32::from_bits(0xbec19e88), f32::from_bits(0xbeae0e67), f32::from_bits(0xbe3f8f53), f32::from_bits(0xbf5d7c0d), f32::from_bits(0x3ef7b2a7), f32::from_bits(0x408a0e75), f32::from_bits(0xbf767d0b), f32::from_bits(0x40c89ee3), f32::from_bits(0xbe34226a), f32::from_bits(0x40c720db), f32::from_bits(0x00000000), f32::from_bits(0x80000000), f32::from_bits(0x40c00000), f32::from_bits(0x40d00000), f32::from_bits(0x8c42b60d)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn prelu_f32_channel_alpha() {
    let x: [f32; 24] = [f32::from_bits(0x4015f06c), f32::from_bits(0xc076770d), f32::from_bits(0xbfbcfdae), f32::from_bits(0xc06d3162), f32::from_bits(0x4010e9f6), f32::from_bits(0x3f600c45), f32::from_bits(0x3f8ddc82), f32::from_bits(0xc08327e1), f32::from_bits(0xc0bfbb69), f32::from_bits(0xc00e32d4), f32::from_bits(0xc04541ac), f32::from_bits(0xc06579e4), f32::from_bits(0x3f926343), f32::from_bits(0xc010af91), f32::from_bits(0xc04ff634), f32::from_bits(0x3eef24ed), f32::from_bits(0xc0339e2a), f32::from_bits(0xbf2b4e95), f32::from_bits(0xc00cac1a), f32::from_bits(0xc0445b6a), f32::from_bits(0xbfbc9fde), f32::from_bits(0xc0250a77), f32::from_bits(0xbea153f7), f32::from_bits(0xc01c226d)];
    let alpha: [f32; 4] = [f32::from_bits(0x3f7d226a), f32::from_bits(0xbf2b72ed), f32::from_bits(0x3f04101b), f32::from_bits(0x3ea9511b)];
    let plan = plan_broadcast(&[1, 2, 3, 4], &[1, 1, 4]).unwrap();
    let mut out = [0f32; 24];
    prelu::prelu_f32(&plan.as_broadcast(), &x, &alpha, &mut out);
    let want: [f32; 24] = [f32::from_bits(0x4015f06c), f32::from_bits(0x4025102b), f32::from_bits(0xbf42fd63), f32::from_bits(0xbf9ce0bf), f32::from_bits(0x4010e9f6), f32::from_bits(0x3f600c45), f32::from_bits(0x3f8ddc82), f32::from_bits(0xbfad7dc2), f32::from_bits(0xc0bd95fd), f32::from_bits(0x3fbe7794), f32::from_bits(0xbfcb848b), f32::from_bits(0xbf97c62b), f32::from_bits(0x3f926343), f32::from_bits(0x3fc1cc74), f32::from_bits(0xbfd69010), f32::from_bits(0x3eef24ed), f32::from_bits(0xc0319b75), f32::from_bits(0x3ee574ca), f32::from_bits(0xbf91232e), f32::from_bits(0xbf81de8f), f32::from_bits(0xbfba835a), f32::from_bits(0x3fdd102a), f32::from_bits(0xbe2672e3), f32::from_bits(0xbf4e8863)];
    assert_eq!(out.map(f32::to_bits), want.map(f32::to_bits));
}

/// Expected output: TFLite Micro.
#[test]
fn quantize_s16_s8() {
    let x: [i16; 63] = [-32768, 32767, 0, -24654, -11437, 26849, 10017, -6374, 20925, -31812, 9852, 2776, 29829, -849, 12666, -6671, 13490, -14634, -4050, 11889, -31997, 2581, -31145, -65, -178, -28647, -13638, 26758, -26339, 30043, 13606, -13117, 4261, -11634, 10331, -9344, 31697, -25556, -9560, -5945, 19002, -29022, -8103, 17567, 21173, 28983, -8333, 10142, 5771, -12526, -5301, 32154, 25446, 9267, 19433, -19496, 8217, 10371, 10060, 1164, 804, 17035, -23949];
    let p = quantize::prepare_requantize(q(0x3925f3da, 0), q(0x3cdb0c46, -49)).unwrap();
    let mut out = [0i8; 63];
    quantize::quantize_s16_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, 127, -49, -128, -117, 110, 10, -87, 75, -128, 9, -33, 127, -54, 26, -88, 31, -128, -73, 21, -128, -34, -128, -49, -50, -128, -128, 109, -128, 127, 32, -127, -24, -118, 12, -104, 127, -128, -106, -84, 63, -128, -97, 55, 76, 123, -98, 11, -15, -123, -80, 127, 102, 6, 66, -128, 0, 12, 11, -42, -44, 52, -128]);
}

/// Expected output: TFLite Micro.
#[test]
fn quantize_s16_s32() {
    let x: [i16; 63] = [-32768, 32767, 0, -19477, 27890, 8050, -5365, 6748, -26627, 451, 27476, -13856, -25815, 13524, -3146, -18094, 13261, -1956, -11412, -21360, -30151, 7334, -17508, 20258, -17267, 5570, 22924, 3286, -18563, -28762, -2101, -20074, -26814, 3336, -10446, 13543, -19437, 17610, 24774, 1891, -10313, -22670, 24613, -6783, 9894, 15300, 9400, 22124, 28671, -25594, -55, 29889, -32629, 25486, 25749, -19647, 22304, -5537, -26425, 28662, 20731, -11925, -4838];
    let p = quantize::prepare_requantize(q(0x3981e579, 0), q(0x36b0ff2d, 0)).unwrap();
    let mut out = [0i32; 63];
    quantize::quantize_s16_s32(&p, &x, &mut out);
    assert_eq!(out, [-1539081, 1539034, 0, -914816, 1309966, 378101, -251989, 316947, -1250645, 21183, 1290521, -650803, -1212506, 635209, -147765, -849858, 622856, -91871, -536011, -1003259, -1416163, 344471, -822334, 951499, -811014, 261618, 1076718, 154340, -871886, -1350923, -98682, -942856, -1259428, 156689, -490639, 636102, -912937, 827125, 1163611, 88818, -484392, -1064788, 1156049, -318591, 464712, 718626, 441509, 1039143, 1346649, -1202126, -2583, 1403858, -1532553, 1197053, 1209406, -922801, 1047597, -260068, -1241157, 1346227, 973715, -560106, -227236]);
}

// Operators recorded in the TFLite Micro golden data of ../shared.

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 14.
#[test]
fn logistic_armzoo_rnnoise_int8_op14() {
    let x: [i8; 24] = [-6, 13, 19, 19, 0, 1, 53, -1, 8, -1, 19, 12, -23, 11, -5, 17, 25, 42, 37, -30, 39, 15, -7, 17];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3d9ec5ff), 8, -128).unwrap();
    let mut out = [0i8; 24];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [-63, 25, 51, 51, -38, -34, 120, -43, 0, -43, 51, 20, -107, 15, -60, 43, 74, 111, 104, -115, 107, 34, -67, 43]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 17.
#[test]
fn logistic_armzoo_rnnoise_int8_op17() {
    let x: [i8; 24] = [43, -22, 28, -21, 3, 24, 61, -33, 14, 16, 36, -8, -38, 40, 59, 1, 15, 9, 18, 57, -28, -10, -81, 41];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3d7146ba), -4, -128).unwrap();
    let mut out = [0i8; 24];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [113, -62, 94, -59, 26, 87, 123, -89, 62, 68, 106, -15, -98, 110, 122, 19, 65, 47, 73, 121, -78, -22, -125, 111]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 20.
#[test]
fn tanh_armzoo_rnnoise_int8_op20() {
    let x: [i8; 24] = [0, 20, -7, 7, 1, 11, 11, 19, -21, 32, -7, -13, -39, 0, -41, -41, -19, -4, -48, -1, -48, 4, -16, -15];
    let p = tflc_runtime::kernels::tanh::prepare_tanh_s8(f32::from_bits(0x3d8ed4ad), -9);
    let mut out = [0i8; 24];
    tanh::tanh_s8(&p, &x, &mut out);
    assert_eq!(out, [71, 124, 18, 103, 77, 113, 113, 123, -88, 127, 18, -35, -124, 71, -125, -125, -77, 43, -127, 65, -127, 92, -58, -51]);
    let mut data = x;
    tanh::tanh_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 32.
#[test]
fn logistic_armzoo_rnnoise_int8_op32() {
    let x: [i8; 48] = [-128, 72, -3, -15, -3, 64, 13, 97, 127, 126, -15, -64, -30, -47, 127, 88, 57, -111, -48, 64, 127, -42, 71, -23, -128, 127, -77, -30, -5, 107, 127, -128, 32, -113, 14, 127, -86, 26, 46, -1, 50, 17, -128, -3, -9, -128, -47, -82];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3e2a9717), 2, -128).unwrap();
    let mut out = [0i8; 48];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, 127, -50, -114, -50, 127, 93, 127, 127, 127, -114, -128, -127, -128, 127, 127, 127, -128, -128, 127, 127, -128, 127, -124, -128, 127, -128, -127, -67, 127, 127, -128, 126, -128, 97, 127, -128, 123, 127, -31, 127, 109, -128, -50, -93, -128, -128, -128]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 36.
#[test]
fn logistic_armzoo_rnnoise_int8_op36() {
    let x: [i8; 48] = [-114, 127, -50, 118, 104, 75, 76, 127, -128, -128, 33, -112, 37, 100, 127, -64, -128, -128, -17, -128, -78, -128, 47, -10, -128, -128, -128, 116, 7, -64, -128, -128, -128, -128, -125, 100, -2, -128, 127, 127, -26, -128, 116, -17, -46, -128, 127, -17];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3e07745a), 4, -128).unwrap();
    let mut out = [0i8; 48];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, 127, -128, 127, 127, 127, 127, 127, -128, -128, 123, -128, 125, 127, 127, -128, -128, -128, -113, -128, -128, -128, 127, -93, -128, -128, -128, 127, 25, -128, -128, -128, -128, -128, -128, 127, -48, -128, 127, 127, -123, -128, 127, -113, -128, -128, 127, -113]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 49.
#[test]
fn logistic_armzoo_rnnoise_int8_op49() {
    let x: [i8; 96] = [127, 49, 15, -123, 127, -34, 67, 127, 73, -123, 127, 3, 127, 127, 127, -84, 127, 41, -128, -99, -49, 9, 127, 96, -126, -112, -128, -122, -128, -114, 127, -127, 127, -70, 127, 59, -43, 127, 127, -47, -19, -128, 127, 35, -120, -118, -128, 8, -128, -63, 127, 127, 20, 81, -71, 41, -86, 127, 123, 49, 127, 127, 127, 127, -128, 127, -10, 15, -128, -16, 127, 41, 24, 39, -24, -128, 44, 34, 11, 75, 11, 20, -83, 24, -128, -94, 112, 127, 127, 127, 15, -10, -128, 118, 40, 127];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3e339f8b), 3, -128).unwrap();
    let mut out = [0i8; 96];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [127, 127, 100, -128, 127, -128, 127, 127, 127, -128, 127, 0, 127, 127, 127, -128, 127, 127, -128, -128, -128, 62, 127, 127, -128, -128, -128, -128, -128, -128, 127, -128, 127, -128, 127, 127, -128, 127, 127, -128, -123, -128, 127, 127, -128, -128, -128, 53, -128, -128, 127, 127, 116, 127, -128, 127, -128, 127, 127, 127, 127, 127, 127, 127, -128, 127, -104, 100, -128, -119, 127, 127, 122, 127, -126, -128, 127, 127, 77, 127, 77, 116, -128, 122, -128, -128, 127, 127, 127, 127, 100, -104, -128, 127, 127, 127]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 4.
#[test]
fn tanh_armzoo_rnnoise_int8_op4() {
    let x: [i8; 24] = [-90, 127, 127, 127, -128, -128, -128, 14, 47, -128, -61, 127, -128, 127, 127, 25, 127, -128, 127, 88, -128, -83, -128, -128];
    let p = tflc_runtime::kernels::tanh::prepare_tanh_s8(f32::from_bits(0x3e17bdda), 9);
    let mut out = [0i8; 24];
    tanh::tanh_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, 127, 127, 127, -128, -128, -128, 81, 127, -128, -128, 127, -128, 127, 127, 126, 127, -128, 127, 127, -128, -128, -128, -128]);
    let mut data = x;
    tanh::tanh_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 53.
#[test]
fn logistic_armzoo_rnnoise_int8_op53() {
    let x: [i8; 96] = [-22, 30, -128, 104, 20, 116, 108, -124, -54, -34, 110, 113, 112, 14, -2, -40, 113, 6, 114, 118, -114, -52, -47, 71, -128, -127, -18, 109, 34, 31, 86, -128, 111, 69, -126, 115, 105, 105, 117, 95, 99, 1, -128, -114, 109, -40, 105, 115, -128, -22, -128, 104, -126, 114, 103, 104, -96, -49, 77, -128, 107, 90, 103, -11, -45, 114, 87, -128, 115, -31, 60, 114, 11, 38, -126, -80, 57, -85, 44, 66, -128, 110, 113, -128, 109, -126, -128, -128, 97, -28, 119, 114, -90, -120, 26, -22];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3e4603e1), -11, -128).unwrap();
    let mut out = [0i8; 96];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [-101, 127, -128, 127, 127, 127, 127, -128, -128, -125, 127, 127, 127, 126, 90, -127, 127, 119, 127, 127, -128, -128, -128, 127, -128, -128, -75, 127, 127, 127, 127, -128, 127, 127, -128, 127, 127, 127, 127, 127, 127, 105, -128, -128, 127, -127, 127, 127, -128, -101, -128, 127, -128, 127, 127, 127, -128, -128, 127, -128, 127, 127, 127, 0, -128, 127, 127, -128, 127, -123, 127, 127, 124, 127, -128, -128, 127, -128, 127, 127, -128, 127, 127, -128, 127, -128, -128, -128, 127, -119, 127, 127, -128, -128, 127, -101]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 56.
#[test]
fn tanh_armzoo_rnnoise_int8_op56() {
    let x: [i8; 96] = [-10, 127, 127, -4, 8, 127, -128, -128, -128, 25, 127, -53, 127, 19, -128, 83, 127, -128, -128, -59, -128, -46, 127, 127, -128, -128, -128, -105, -56, -128, 127, 127, -25, -74, -128, -95, 80, 127, 119, 127, -128, -128, -128, -128, 127, 100, -5, -124, 127, -84, 127, -126, -12, 127, -128, 76, -66, 36, -128, 127, -128, -47, 12, -128, -128, 127, 127, -30, -128, -51, -7, -128, 70, 76, -4, -128, -21, 127, -128, -128, 74, -118, -128, 50, -49, -25, 58, -128, -128, -122, -76, 29, -94, 41, 127, 76];
    let p = tflc_runtime::kernels::tanh::prepare_tanh_s8(f32::from_bits(0x3e117745), 0);
    let mut out = [0i8; 96];
    tanh::tanh_s8(&p, &x, &mut out);
    assert_eq!(out, [-114, 127, 127, -66, 104, 127, -128, -128, -128, 127, 127, -128, 127, 127, -128, 127, 127, -128, -128, -128, -128, -128, 127, 127, -128, -128, -128, -128, -128, -128, 127, 127, -128, -128, -128, -128, 127, 127, 127, 127, -128, -128, -128, -128, 127, 127, -78, -128, 127, -128, 127, -128, -120, 127, -128, 127, -128, 127, -128, 127, -128, -128, 120, -128, -128, 127, 127, -128, -128, -128, -97, -128, 127, 127, -66, -128, -127, 127, -128, -128, 127, -128, -128, 127, -128, -128, 127, -128, -128, -128, -128, 127, -128, 127, 127, 127]);
    let mut data = x;
    tanh::tanh_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 63.
#[test]
fn logistic_armzoo_rnnoise_int8_op63() {
    let x: [i8; 22] = [-42, -40, -68, -58, -91, -98, -97, -101, -89, -79, -74, -74, -82, -89, -106, -114, -114, -116, -116, -110, -109, -110];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3d608f37), -48, -128).unwrap();
    let mut out = [0i8; 22];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [21, 28, -64, -34, -106, -112, -112, -115, -104, -88, -78, -78, -94, -104, -118, -121, -121, -122, -122, -120, -119, -120]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `armzoo_rnnoise_int8` (../shared), op 67.
#[test]
fn logistic_armzoo_rnnoise_int8_op67() {
    let x: [i8; 1] = [5];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3da4330b), -6, -128).unwrap();
    let mut out = [0i8; 1];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [53]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `mlperf_ic_resnet8_int8` (../shared), op 15.
#[test]
fn softmax_mlperf_ic_resnet8_int8_op15() {
    let x: [i8; 10] = [-83, -47, -13, 23, -127, -105, 40, -128, -13, -108];
    let q = prepare::softmax_s8(f32::from_bits(0x3e2ffa5e), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 10, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 10];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -128, -128, -115, -128, -128, 115, -128, -128, -128]);
}

/// Expected output: TFLite Micro, golden run 0 of `mlperf_kws_dscnn_int8` (../shared), op 12.
#[test]
fn softmax_mlperf_kws_dscnn_int8_op12() {
    let x: [i8; 12] = [-85, -28, -18, -13, -45, -22, -61, -91, -65, 101, -128, 55];
    let q = prepare::softmax_s8(f32::from_bits(0x3e142a46), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 12, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 12];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -128, -128, -128, -128, -128, -128, -128, -128, 127, -128, -128]);
}

/// Expected output: TFLite Micro, golden run 0 of `mlperf_streaming_ww_int8` (../shared), op 10.
#[test]
fn softmax_mlperf_streaming_ww_int8_op10() {
    let x: [i8; 3] = [-7, -79, 73];
    let q = prepare::softmax_s8(f32::from_bits(0x3e245c72), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 3, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 3];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -128, 127]);
}

/// Expected output: TFLite Micro, golden run 0 of `mlperf_vww_mobilenet_int8` (../shared), op 30.
#[test]
fn softmax_mlperf_vww_mobilenet_int8_op30() {
    let x: [i8; 2] = [124, -128];
    let q = prepare::softmax_s8(f32::from_bits(0x3c6fccc0), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 2, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 2];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [122, -122]);
}

/// Expected output: TFLite Micro, golden run 0 of `op_hard_swish` (../shared), op 1.
#[test]
fn hard_swish_op_hard_swish_op1() {
    let x: [i8; 256] = [61, 20, -13, 53, -67, -13, 109, -90, -104, 29, 23, -43, 107, -74, 118, -31, -37, -99, -40, -51, 57, 54, 48, -87, -39, 41, 109, 45, -97, -19, -46, -24, 12, 36, -111, -72, -29, -57, -19, 19, 64, 0, 40, 102, 13, 103, -12, 3, -96, 106, -28, -24, 49, 29, 83, -69, -118, -95, 60, 88, 103, 25, -93, -48, -10, 60, -1, -97, -37, -14, -70, -75, -119, 113, 106, -4, -14, 115, 5, 122, 116, 80, -99, -51, -43, 68, 16, 46, 88, -15, -48, 13, -64, 27, 30, -97, 89, 36, 37, 26, 6, 103, 5, 73, -87, -126, -115, 108, -56, 4, -56, 7, -26, -121, 57, 29, 55, -37, 94, -4, 28, -42, -41, -40, 79, 77, 19, -69, -59, -104, -121, -75, -77, 105, -39, 81, -109, 38, 100, -66, -48, -24, -37, -96, 98, 47, -68, 68, 4, -25, -86, -42, -66, 59, -70, 72, 43, 13, 101, 123, 32, 116, 101, -6, 125, -80, 6, -3, -86, 7, -35, -23, -116, -117, -20, 115, -62, 40, 12, 63, 29, 60, 111, -69, 50, -41, 74, -115, 79, -86, -125, 110, -85, -12, -53, -120, 34, 24, -67, 1, -116, -60, -18, 106, -117, -90, -1, 30, 97, -26, 40, -78, 97, -105, 73, -38, 110, -72, 57, 5, 51, 23, -48, 72, 108, -126, 118, 106, 63, 59, -89, 68, -6, 4, 71, 51, -83, -10, -91, -124, 24, 11, -13, 58, -47, -116, 29, -50, -55, -122, 9, -63, -85, 30, -66, 60];
    let p = tflc_runtime::kernels::hard_swish::prepare_hard_swish_s8(f32::from_bits(0x3dc9390d), -18, f32::from_bits(0x3d6ad289), -121).unwrap();
    let mut out = [0i8; 256];
    hard_swish::hard_swish_s8(&p, &x, &mut out);
    assert_eq!(out, [14, -56, -116, 1, -121, -116, 97, -121, -121, -40, -51, -125, 93, -121, 112, -127, -127, -121, -126, -121, 8, 2, -8, -121, -127, -20, 97, -13, -121, -122, -123, -125, -70, -28, -121, -121, -127, -121, -122, -58, 20, -96, -22, 85, -68, 86, -115, -91, -121, 92, -127, -125, -6, -40, 52, -121, -121, -121, 13, 61, 86, -47, -121, -121, -112, 13, -98, -121, -127, -117, -121, -121, -121, 104, 92, -103, -117, 107, -86, 119, 109, 47, -121, -121, -125, 26, -63, -11, 61, -118, -121, -68, -121, -44, -39, -121, 62, -28, -27, -46, -84, 86, -86, 35, -121, -121, -121, 95, -121, -89, -121, -82, -126, -121, 8, -40, 4, -127, 71, -103, -42, -125, -126, -126, 45, 42, -58, -121, -121, -121, -121, -121, -121, 90, -127, 49, -121, -25, 81, -121, -121, -125, -127, -121, 78, -10, -121, 26, -89, -126, -121, -125, -121, 11, -121, 33, -16, -68, 83, 121, -35, 109, 83, -107, 124, -121, -84, -102, -121, -82, -127, -125, -121, -121, -123, 107, -121, -22, -70, 18, -40, 13, 100, -121, -4, -126, 37, -121, 45, -121, -121, 98, -121, -115, -121, -121, -32, -49, -121, -95, -121, -121, -121, 92, -121, -121, -98, -39, 76, -126, -22, -121, 76, -121, 35, -127, 98, -121, 8, -86, -3, -51, -121, 33, 95, -121, 112, 92, 18, 11, -121, 26, -107, -89, 32, -3, -121, -112, -121, -121, -49, -73, -116, 9, -122, -121, -40, -121, -121, -121, -77, -121, -121, -39, -121, 13]);
    let mut data = x;
    hard_swish::hard_swish_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `op_logistic` (../shared), op 1.
#[test]
fn logistic_op_logistic_op1() {
    let x: [i8; 64] = [-59, -25, 15, 109, 50, 123, -23, -40, 74, -55, -13, 86, 92, -80, -6, -31, 42, 53, -42, -3, -38, -94, -56, 25, -105, 16, 104, -126, -62, 116, -9, 60, -124, -53, 83, 20, -28, 3, 9, -101, 29, 78, -20, 54, 56, 42, 43, 19, -93, 9, 17, -119, -75, 118, 18, 116, 34, 96, -17, 23, -13, -106, -73, 34];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3df0b86c), 3, -128).unwrap();
    let mut out = [0i8; 64];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -119, 78, 127, 127, 127, -116, -126, 127, -128, -94, 127, 127, -128, -62, -123, 125, 127, -127, -43, -126, -128, -128, 110, -128, 82, 127, -128, -128, 127, -78, 127, -128, -128, 127, 97, -121, 0, 43, -128, 116, 127, -112, 127, 127, 125, 126, 94, -128, 43, 87, -128, -128, 127, 91, 127, 121, 127, -106, 106, -94, -128, -128, 121]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `op_mean_hw_keepdims` (../shared), op 0.
#[test]
fn mean_op_mean_hw_keepdims_op0() {
    let x: [i8; 210] = [-87, -76, 72, 32, -58, -64, -101, -25, 1, 20, 117, 17, 110, -37, -38, -59, -86, 48, -32, -11, 70, 13, -54, 120, 78, -10, -28, 109, -72, 85, 45, 57, 72, 120, 124, -123, 3, 39, 36, 43, -29, 30, 63, -51, -109, 50, 33, 31, -119, 25, -116, -91, 35, 89, 31, -91, -24, 63, -64, -5, 119, -111, -10, 36, -30, -128, -17, 75, -13, -75, -115, -8, -36, 65, 114, -121, 33, 32, -27, -26, 26, -107, -47, 65, -35, -43, -27, -122, -90, -40, 118, -100, -33, -104, 99, 14, -16, -108, 54, 122, -56, -90, -113, -116, -49, -18, 78, 126, -115, 126, 103, -44, 70, -41, 34, 99, 2, 96, -48, 5, -36, -78, -46, 37, -12, -63, -119, -85, -74, -24, 50, 45, -127, -118, 70, -32, -125, 125, 27, 47, 99, -68, -117, 126, -102, -91, -126, -44, 29, -106, -63, 68, 38, 56, -3, 69, -84, 10, 30, -43, -20, -119, 28, 46, -104, 94, 82, 44, -107, 57, -38, 76, 115, 108, 16, -42, -107, -49, -89, -61, 77, 35, -91, -93, -37, -36, 20, -63, 8, 39, 85, -71, -112, -83, 54, 66, 96, -110, -41, 121, 50, 107, -76, 116, -76, 59, 34, -14, 22, -24];
    let q = prepare::mean_s8(f32::from_bits(0x3d0a6e26), 1, f32::from_bits(0x3b9a4616), 35).unwrap();
    let p = mean::MeanParams { input_shape: [1, 7, 5, 6], reduce_axes: [false, true, true, false], multiplier: q.multiplier, shift: q.shift, sum_offset: q.sum_offset, output_offset: -4 };
    let mut out = [0i8; 6];
    mean::mean_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -101, -32, 4, -44, 31]);
}

/// Expected output: TFLite Micro, golden run 1 of `op_mean_hw_keepdims` (../shared), op 0.
#[test]
fn mean_op_mean_hw_keepdims_op0_run1() {
    let x: [i8; 210] = [-119, 35, -72, -70, -3, -60, -48, -86, 58, 85, 82, -11, -20, 82, 123, -116, 71, -119, -99, 48, 15, -1, 83, -89, -107, -42, 107, -86, 19, 6, -7, 84, 121, 69, -37, 112, 37, -75, -43, 112, 68, -54, -39, -2, -23, -87, 38, 21, -9, 110, -8, -98, -2, -70, -116, -40, 16, 58, -12, -100, -10, 108, 55, 81, 87, 85, 36, -20, 35, 14, 19, 12, -4, -71, 0, -40, -75, 49, -110, 80, -92, -107, -10, 118, 114, 94, 39, 6, 69, 96, -120, 83, 88, -71, -107, -85, 29, 102, -10, -47, -67, 44, 22, 9, -56, -93, -67, 8, -62, -42, -128, -32, -59, 83, 114, -30, 36, 31, 28, 112, 63, 124, -85, -113, -9, 118, 90, -62, 35, 116, -21, 68, 93, -21, 105, -36, 12, -19, -58, -86, 1, -7, -112, 28, 60, -64, 98, 86, 90, -12, 55, 96, 44, 27, 62, 101, -38, 16, -97, 70, -13, -38, -64, 60, -84, 25, 93, -119, 103, 13, 36, -11, 59, 9, -7, 29, -81, 22, 125, -120, -13, 120, 43, 27, -69, 78, -26, 51, 36, 66, 119, 20, 72, -104, -71, -113, -82, -85, 47, 2, -1, 60, 77, -42, -122, 74, -27, 63, -49, -61];
    let q = prepare::mean_s8(f32::from_bits(0x3d0a6e26), 1, f32::from_bits(0x3b9a4616), 35).unwrap();
    let p = mean::MeanParams { input_shape: [1, 7, 5, 6], reduce_axes: [false, true, true, false], multiplier: q.multiplier, shift: q.shift, sum_offset: q.sum_offset, output_offset: -4 };
    let mut out = [0i8; 6];
    mean::mean_s8(&p, &x, &mut out);
    assert_eq!(out, [-65, 127, 33, -34, 72, 6]);
}

/// Expected output: TFLite Micro, golden run 0 of `op_softmax_10` (../shared), op 1.
#[test]
fn softmax_op_softmax_10_op1() {
    let x: [i8; 10] = [20, -90, -75, -111, -90, -79, 97, -119, 0, 89];
    let q = prepare::softmax_s8(f32::from_bits(0x3d98befc), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 10, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 10];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [-127, -128, -128, -128, -128, -128, 37, -128, -128, -37]);
}

/// Expected output: TFLite Micro, golden run 0 of `op_tanh` (../shared), op 1.
#[test]
fn tanh_op_tanh_op1() {
    let x: [i8; 64] = [-25, -111, 15, 4, -86, 2, 16, 50, -50, -114, 30, -38, -13, 34, 116, -57, -78, 80, 46, 16, 11, -38, -36, -32, -121, -8, 87, -42, 1, -19, -53, 73, -34, -69, -47, 96, 4, 9, -47, -77, 113, -8, -77, 36, -89, 48, 40, -9, 64, 49, 71, -46, -67, 79, -16, -126, -16, -118, -35, 65, 20, -57, -88, 70];
    let p = tflc_runtime::kernels::tanh::prepare_tanh_s8(f32::from_bits(0x3d767c15), 11);
    let mut out = [0i8; 64];
    tanh::tanh_s8(&p, &x, &mut out);
    assert_eq!(out, [-125, -128, 30, -51, -128, -63, 37, 126, -128, -128, 104, -127, -115, 113, 127, -128, -128, 127, 124, 37, 0, -127, -127, -127, -128, -104, 127, -128, -69, -121, -128, 127, -127, -128, -128, 127, -51, -15, -128, -128, 127, -104, -128, 116, -128, 125, 120, -107, 127, 125, 127, -128, -128, 127, -118, -128, -118, -128, -127, 127, 63, -128, -128, 127]);
    let mut data = x;
    tanh::tanh_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `tflm_dtln_lstm_int8` (../shared), op 3.
#[test]
fn logistic_tflm_dtln_lstm_int8_op3() {
    let x: [i8; 257] = [18, 9, -73, -17, -24, -18, -40, -22, -36, -32, -73, -13, -58, -67, -48, -50, -80, -65, -63, -57, -53, -67, -56, -73, -103, -115, -127, -116, -97, -93, -88, -87, -115, -95, -79, -70, -80, -79, -91, -88, -73, -80, -69, -74, -84, -69, -85, -91, -96, -91, -93, -103, -99, -102, -95, -79, -78, -79, -67, -58, -50, -61, -53, -63, -59, -57, -45, -35, -42, -42, -49, -44, -46, -39, -45, -33, -43, -43, -44, -36, -40, -46, -56, -42, -32, -51, -46, -40, -38, -44, -48, -43, -39, -51, -48, -49, -41, -52, -41, -52, -34, -39, -45, -51, -40, -43, -31, -42, -45, -46, -36, -51, -39, -25, -28, -41, -23, -34, -34, -42, -24, -38, -37, -36, -34, -36, -21, -25, -32, -30, -36, -28, -34, -48, -24, -35, -41, -34, -36, -34, -34, -40, -37, -36, -38, -34, -35, -24, -33, -35, -27, -28, -26, -21, -32, -30, -30, -40, -29, -30, -49, -63, -42, -30, -41, -48, -29, -51, -41, -38, -43, -33, -27, -48, -28, -29, -46, -32, -28, -31, -22, -32, -30, -32, -38, -32, -45, -43, -34, -45, -23, -34, -54, -59, -35, -41, -25, -34, -30, -33, -36, -34, -45, -52, -41, -45, -48, -48, -40, -46, -43, -50, -51, -43, -50, -55, -46, -31, -43, -55, -44, -37, -45, -46, -40, -53, -44, -52, -35, -47, -51, -44, -31, -36, -45, -33, -44, -59, -74, -55, -59, -79, -68, -52, -42, -62, -64, -55, -56, -60, -72, -29, -37, -56, -22, -34, -23];
    let p = tflc_runtime::kernels::logistic::prepare_logistic_s8(f32::from_bits(0x3d1ed2d7), -2, -128).unwrap();
    let mut out = [0i8; 257];
    logistic::logistic_s8(&p, &x, &mut out);
    assert_eq!(out, [47, 27, -113, -36, -52, -38, -80, -47, -74, -67, -113, -27, -102, -109, -91, -94, -116, -108, -106, -101, -97, -109, -100, -113, -123, -125, -126, -125, -122, -121, -119, -119, -125, -121, -116, -111, -116, -116, -120, -119, -113, -116, -110, -113, -118, -110, -118, -120, -121, -120, -121, -123, -122, -123, -121, -116, -115, -116, -109, -102, -94, -104, -97, -106, -103, -101, -87, -72, -83, -83, -92, -86, -89, -79, -87, -69, -85, -85, -86, -74, -80, -89, -100, -83, -67, -95, -89, -80, -77, -86, -91, -85, -79, -95, -91, -92, -82, -96, -82, -96, -71, -79, -87, -95, -80, -85, -65, -83, -87, -89, -74, -95, -79, -54, -60, -82, -49, -71, -71, -83, -52, -77, -76, -74, -71, -74, -45, -54, -67, -63, -74, -60, -71, -91, -52, -72, -82, -71, -74, -71, -71, -80, -76, -74, -77, -71, -72, -52, -69, -72, -58, -60, -56, -45, -67, -63, -63, -80, -61, -63, -92, -106, -83, -63, -82, -91, -61, -95, -82, -77, -85, -69, -58, -91, -60, -61, -89, -67, -60, -65, -47, -67, -63, -67, -77, -67, -87, -85, -71, -87, -49, -71, -98, -103, -72, -82, -54, -71, -63, -69, -74, -71, -87, -96, -82, -87, -91, -91, -80, -89, -85, -94, -95, -85, -94, -99, -89, -65, -85, -99, -86, -76, -87, -89, -80, -97, -86, -96, -72, -90, -95, -86, -65, -74, -87, -69, -86, -103, -113, -99, -103, -116, -110, -96, -83, -105, -107, -99, -100, -104, -112, -61, -76, -100, -47, -71, -49]);
    let mut data = x;
    logistic::logistic_s8_in_place(&p, &mut data);
    assert_eq!(data, out);
}

/// Expected output: TFLite Micro, golden run 0 of `tflm_micro_speech_int8` (../shared), op 3.
#[test]
fn softmax_tflm_micro_speech_int8_op3() {
    let x: [i8; 4] = [-128, 89, 102, 106];
    let q = prepare::softmax_s8(f32::from_bits(0x3dbbddf2), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 4, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 4];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -100, -35, 7]);
}

/// Expected output: TFLite Micro, golden run 0 of `tflm_mnist_lstm_int8` (../shared), op 3.
#[test]
fn softmax_tflm_mnist_lstm_int8_op3() {
    let x: [i8; 10] = [-3, -98, -16, -71, 13, -11, 84, -33, 35, -6];
    let q = prepare::softmax_s8(f32::from_bits(0x3e31d40c), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 10, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 10];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [-128, -128, -128, -128, -128, -128, 127, -128, -128, -128]);
}

/// Expected output: TFLite Micro, golden run 0 of `tflm_person_detect_int8` (../shared), op 30.
#[test]
fn softmax_tflm_person_detect_int8_op30() {
    let x: [i8; 2] = [107, -105];
    let q = prepare::softmax_s8(f32::from_bits(0x3c4d1b73), f32::from_bits(0x3f800000)).unwrap();
    let p = softmax::SoftmaxParams { depth: 2, input_multiplier: q.input_multiplier, input_left_shift: q.input_left_shift, diff_min: q.diff_min };
    let mut out = [0i8; 2];
    softmax::softmax_s8(&p, &x, &mut out);
    assert_eq!(out, [111, -111]);
}
