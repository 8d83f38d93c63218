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

// ---------------------------------------------------------------------------------------
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D and MAX_POOL_2D: each vector
// starts from the tensors' float scales (f32 bits), zero points, shapes and the builtin
// options (padding 0 = SAME / 1 = VALID, act = fused activation code), derives every kernel
// parameter through `tflc_runtime::prepare`, runs the reference kernel and, for the
// convolutions, the variant the compiler selects with its packed weights (they must
// agree); `conv_family` below. Expected outputs: TFLite Micro golden data of ../shared.

mod conv_family {
    use std::collections::HashMap;
    use tflc_runtime::kernels::numerics::{Clamp, QuantS8};
    use tflc_runtime::kernels::window::{ConvGeometry, PoolGeometry};
    use tflc_runtime::kernels::{average_pool_2d, conv_2d, depthwise_conv_2d, fully_connected, max_pool_2d};
    use tflc_runtime::prepare::*;

    #[derive(Debug)]
    pub struct Tensor {
        dtype: String,
        shape: Vec<usize>,
        scales: Vec<f32>,
        zero_points: Vec<i32>,
        data: Vec<i64>,
    }

    /// A tensor: dtype, shape, scales (f32 bits), zero points, data (empty for the output).
    /// A vector without `in2` has no bias.
    pub fn t<T: Copy + Into<i64>>(dtype: &str, shape: &[usize], scales: &[u32], zero_points: &[i32], data: &[T]) -> Tensor {
        Tensor {
            dtype: dtype.to_string(),
            shape: shape.to_vec(),
            scales: scales.iter().map(|&b| f32::from_bits(b)).collect(),
            zero_points: zero_points.to_vec(),
            data: data.iter().map(|&x| x.into()).collect(),
        }
    }

    #[derive(Default, Debug)]
    pub struct Vector {
        op: String,
        options: HashMap<String, i64>,
        tensors: HashMap<String, Tensor>,
    }

    /// The vector of `op` with builtin `options` and tensors `in0`, `in1`, `in2` (as many as
    /// given) and `out`.
    pub fn vector(op: &str, options: &[(&str, i64)], inputs: Vec<Tensor>, out: Tensor) -> Vector {
        let mut tensors: HashMap<String, Tensor> = inputs.into_iter().enumerate().map(|(i, t)| (format!("in{i}"), t)).collect();
        tensors.insert("out".to_string(), out);
        Vector { op: op.to_string(), options: options.iter().map(|&(k, v)| (k.to_string(), v)).collect(), tensors }
    }

    fn i8s(t: &Tensor) -> Vec<i8> {
        t.data.iter().map(|&x| i8::try_from(x).unwrap()).collect()
    }

    fn bias(v: &Vector) -> Option<Vec<i32>> {
        v.tensors.get("in2").map(|b| {
            assert_eq!(b.dtype, "int32");
            b.data.iter().map(|&x| i32::try_from(x).unwrap()).collect()
        })
    }

    fn activation(code: i64) -> FusedActivation {
        match code {
            0 => FusedActivation::None,
            1 => FusedActivation::Relu,
            2 => FusedActivation::ReluN1To1,
            3 => FusedActivation::Relu6,
            _ => panic!("unexpected fused activation {code}"),
        }
    }

    fn padding(code: i64) -> Padding {
        match code {
            0 => Padding::Same,
            1 => Padding::Valid,
            _ => panic!("unexpected padding {code}"),
        }
    }

    fn shape4(s: &[usize]) -> [usize; 4] {
        let mut r = [1; 4];
        r[4 - s.len()..].copy_from_slice(s);
        r
    }

    /// Runs the vector's kernel, returning its output.
    pub fn run(v: &Vector) -> Vec<i8> {
        let input = &v.tensors["in0"];
        let out = &v.tensors["out"];
        assert_eq!((input.dtype.as_str(), out.dtype.as_str()), ("int8", "int8"));
        let x = i8s(input);
        let mut y = vec![0i8; out.shape.iter().product()];
        let opt = |k: &str| v.options[k];
        let optu = |k: &str| usize::try_from(v.options[k]).unwrap();
        let (in_scale, in_zp) = (input.scales[0], input.zero_points[0]);
        let (out_scale, out_zp) = (out.scales[0], out.zero_points[0]);
        match v.op.as_str() {
            "CONV_2D" | "DEPTHWISE_CONV_2D" => {
                let w = &v.tensors["in1"];
                let out_depth = out.shape[3];
                let (multipliers, shifts): (Vec<i32>, Vec<i32>) = (0..out_depth)
                    .map(|c| {
                        let filter_scale = if w.scales.len() > 1 { w.scales[c] } else { w.scales[0] };
                        conv_channel_multiplier(in_scale, filter_scale, out_scale).unwrap()
                    })
                    .unzip();
                let (act_min, act_max) = activation_range_s8(activation(opt("act")), out_scale, out_zp).unwrap();
                let (stride_h, stride_w, dil_h, dil_w) = (optu("stride_h"), optu("stride_w"), optu("dil_h"), optu("dil_w"));
                let (out_h, pad_top) = compute_padding(padding(opt("padding")), input.shape[1], w.shape[1], stride_h, dil_h).unwrap();
                let (out_w, pad_left) = compute_padding(padding(opt("padding")), input.shape[2], w.shape[2], stride_w, dil_w).unwrap();
                assert_eq!([out_h, out_w], [out.shape[1], out.shape[2]]);
                if v.op == "CONV_2D" {
                    let p = conv_2d::Conv2dParams::<tflc_runtime::kernels::numerics::S8> { geometry: ConvGeometry { input_shape: shape4(&input.shape), filter_shape: shape4(&w.shape), output_shape: shape4(&out.shape), stride_height: stride_h, stride_width: stride_w, dilation_height: dil_h, dilation_width: dil_w, pad_top, pad_left }, quant: QuantS8 { input_offset: -in_zp, output_offset: out_zp, output_multiplier: &multipliers, output_shift: &shifts }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                    let (wv, bv) = (i8s(w), bias(v));
                    conv_2d::conv_2d_s8(&p, &x, &wv, bv.as_deref(), &mut y);
                    // The variant the compiler selects, with its packed weights, must agree
                    // with the reference.
                    // Every target class's choice, with its packed weights, must agree with the reference.
                    for target in tflc_runtime::isa::TargetClass::ALL {
                        let variant = conv_2d::Conv2dVariant::select(&p, &wv, bv.as_deref(), target);
                        let mut packed = vec![0; variant.packed_len(&p.geometry)];
                        variant.pack(&p, &wv, bv.as_deref(), &mut packed);
                        let mut fast = vec![0; y.len()];
                        variant.run(&p, tflc_runtime::variants::Operands { input: &x, filter: &wv, bias: bv.as_deref(), packed: &packed }, &mut fast);
                        assert_eq!(fast, y, "{}: the selected variant differs from the reference", v.op);
                    }
                } else {
                    assert_eq!(optu("mult") * input.shape[3], out_depth);
                    let p = depthwise_conv_2d::DepthwiseConv2dParams { geometry: ConvGeometry { input_shape: shape4(&input.shape), filter_shape: shape4(&w.shape), output_shape: shape4(&out.shape), stride_height: stride_h, stride_width: stride_w, dilation_height: dil_h, dilation_width: dil_w, pad_top, pad_left }, quant: QuantS8 { input_offset: -in_zp, output_offset: out_zp, output_multiplier: &multipliers, output_shift: &shifts }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                    let (wv, bv) = (i8s(w), bias(v));
                    depthwise_conv_2d::depthwise_conv_2d_s8(&p, &x, &wv, bv.as_deref(), &mut y);
                    // Every target class's choice, with its packed weights, must agree with the reference.
                    for target in tflc_runtime::isa::TargetClass::ALL {
                        let variant = depthwise_conv_2d::DepthwiseConv2dVariant::select(&p, &wv, bv.as_deref(), target);
                        let mut packed = vec![0; variant.packed_len(&p.geometry)];
                        variant.pack(&p, &wv, bv.as_deref(), &mut packed);
                        let mut fast = vec![0; y.len()];
                        variant.run(&p, tflc_runtime::variants::Operands { input: &x, filter: &wv, bias: bv.as_deref(), packed: &packed }, &mut fast);
                        assert_eq!(fast, y, "{}: the selected variant differs from the reference", v.op);
                    }
                }
            }
            "FULLY_CONNECTED" => {
                let w = &v.tensors["in1"];
                let (units, depth) = (w.shape[0], w.shape[1]);
                let per_channel = w.scales.len() > 1;
                let (multipliers, shifts): (Vec<i32>, Vec<i32>) = if per_channel {
                    (0..units).map(|c| conv_channel_multiplier(in_scale, w.scales[c], out_scale).unwrap()).unzip()
                } else {
                    let (m, s) = fully_connected_tensor_multiplier(in_scale, w.scales[0], out_scale).unwrap();
                    (vec![m], vec![s])
                };
                let (act_min, act_max) = activation_range_s8(activation(opt("act")), out_scale, out_zp).unwrap();
                let p = fully_connected::FullyConnectedParams { geometry: fully_connected::FullyConnectedGeometry { batches: y.len() / units, input_depth: depth, output_depth: units }, weights_offset: if per_channel { 0 } else { -w.zero_points[0] }, quant: QuantS8 { input_offset: -in_zp, output_offset: out_zp, output_multiplier: &multipliers, output_shift: &shifts }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                let (wv, bv) = (i8s(w), bias(v));
                fully_connected::fully_connected_s8(&p, &x, &wv, bv.as_deref(), &mut y);
                // Every target class's choice, with its packed weights, must agree with the reference.
                for target in tflc_runtime::isa::TargetClass::ALL {
                    let variant = fully_connected::FullyConnectedVariant::select(&p, &wv, bv.as_deref(), target);
                    if variant != fully_connected::FullyConnectedVariant::Reference {
                        let mut packed = vec![0; variant.packed_len(&p.geometry)];
                        variant.pack(&p, &wv, bv.as_deref(), &mut packed);
                        let mut fast = vec![0; y.len()];
                        variant.run(&p, tflc_runtime::variants::Operands { input: &x, filter: &wv, bias: bv.as_deref(), packed: &packed }, &mut fast);
                        assert_eq!(fast, y, "{}: the selected variant differs from the reference", v.op);
                    }
                }
            }
            "AVERAGE_POOL_2D" | "MAX_POOL_2D" => {
                assert_eq!((in_scale, in_zp), (out_scale, out_zp));
                let (filter_h, filter_w, stride_h, stride_w) = (optu("filter_h"), optu("filter_w"), optu("stride_h"), optu("stride_w"));
                let (out_h, pad_top) = compute_padding(padding(opt("padding")), input.shape[1], filter_h, stride_h, 1).unwrap();
                let (out_w, pad_left) = compute_padding(padding(opt("padding")), input.shape[2], filter_w, stride_w, 1).unwrap();
                let (act_min, act_max) = activation_range_s8(activation(opt("act")), out_scale, out_zp).unwrap();
                if v.op == "MAX_POOL_2D" {
                    let p = max_pool_2d::MaxPool2dParams { geometry: PoolGeometry { input_shape: shape4(&input.shape), output_height: out_h, output_width: out_w, filter_height: filter_h, filter_width: filter_w, stride_height: stride_h, stride_width: stride_w, pad_top, pad_left }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                    max_pool_2d::max_pool_2d_s8(&p, &x, &mut y);
                } else {
                    let p = average_pool_2d::AveragePool2dParams { geometry: PoolGeometry { input_shape: shape4(&input.shape), output_height: out_h, output_width: out_w, filter_height: filter_h, filter_width: filter_w, stride_height: stride_h, stride_width: stride_w, pad_top, pad_left }, clamp: Clamp { min: (act_min) as i8, max: (act_max) as i8 } };
                    average_pool_2d::average_pool_2d_s8(&p, &x, &mut y);
                }
            }
            other => panic!("no kernel for {other}"),
        }
        y
    }
}

use conv_family::{run, t, vector};

/// Expected output: TFLite Micro, golden run 0 of `mlperf_vww_mobilenet_int8` (../shared), op 27.
#[test]
fn average_pool_2d_mlperf_vww_mobilenet_int8_op27() {
    let x: [i8; 2304] = [-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 109, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 103, -128, -128, 99, -128, -128, -128, -128, -128, 95, -128, -128, -128, -128, -128, -128, 97, -128, -128, -128, -128, -128, -92, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -92, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -90, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 98, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 89, -128, -128, -128, -128, -128, -128, -128, 126, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 53, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 46, -128, -128, 40, -128, -128, -128, -128, -128, 32, -128, -128, -128, -128, -128, -128, 35, -128, -128, -128, -128, -128, -95, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -95, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -94, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 35, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 30, -128, -128, -128, -128, -128, -128, -128, 71, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -108, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -115, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -87, -128, -128, -128, -128, -128, -128, -128, -111, -128, -128, -128, -116, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -102, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -102, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -123, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -58, -128, -128, -128, -128, -128, -128, -128, -121, -128, -128, -128, -92, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -74, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -74, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -121, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -124, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -67, -128, -128, -128, -128, -128, -128, -128, -117, -128, -128, -128, -101, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -82, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -82, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -110, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -112, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -84, -128, -128, -128, -128, -128, -128, -128, -109, -128, -128, -128, -115, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -94, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -97, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -116, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -116, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -89, -128, -128, -128, -128, -128, -128, -128, -117, -128, -128, -128, -107, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -93, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -98, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -123, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -120, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -114, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -115, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -105, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -114, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -118, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128];
    let v = vector("AVERAGE_POOL_2D", &[("padding", 1), ("stride_w", 3), ("stride_h", 3), ("act", 0), ("filter_w", 3), ("filter_h", 3)], vec![t("int8", &[1, 3, 3, 256], &[0x3c8042ed], &[-128], &x)], t::<i8>("int8", &[1, 1, 1, 256], &[0x3c8042ed], &[-128], &[]));
    let want: [i8; 256] = [-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -82, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -83, -128, -128, -84, -128, -128, -128, -128, -128, -85, -128, -128, -128, -128, -128, -128, -85, -128, -128, -128, -128, -128, -112, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -114, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -98, -128, -128, -128, -128, -128, -128, -128, -113, -128, -128, -128, -114, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -104, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -85, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -86, -128, -128, -128, -128, -128, -128, -128, -78, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -106, -128, -128];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_avgpool_2x2_s2_valid` (../shared), op 0.
#[test]
fn average_pool_2d_op_avgpool_2x2_s2_valid_op0() {
    let x: [i8; 360] = [27, -91, -50, 83, 5, 39, -63, -61, 4, 42, -62, 73, -5, 85, 101, -7, -121, -62, 81, -103, -108, -60, -7, -28, -95, 86, 80, 121, 125, -92, -113, -98, -5, -86, -59, -86, -35, 17, 5, 117, 68, 18, -70, 82, 97, -87, 84, -22, -116, -7, 33, -39, 115, -43, 16, 12, 7, 63, -123, -26, 21, -41, -85, -100, -5, 41, 61, 14, -38, -101, 52, -4, -107, -24, -30, -85, -94, -116, 11, 39, -72, 61, -22, 57, -88, -30, 55, -13, -84, -90, -34, -44, -81, 32, -70, -26, -72, -109, -20, 39, 43, -9, 3, 83, 46, 127, 73, -113, -117, -120, -39, 105, -39, -80, 23, -80, -1, 74, -43, 98, 120, 103, 99, 114, -25, -68, -78, -30, -1, 38, -78, 103, -98, -83, -17, 80, 105, 61, -118, -19, -16, 18, 20, -101, -88, -50, -92, -99, 74, 108, -95, -63, -128, -24, 33, 36, 83, 66, -85, -11, 106, 51, 78, 65, -126, 98, -31, -28, 36, 23, 64, -9, 117, 64, 114, -67, -103, -31, 104, -80, 31, -17, -38, -40, -123, 94, 56, -74, -60, -59, 47, 47, 94, -81, -73, -56, 92, -57, 52, 122, -31, 38, 1, 97, -39, -72, -39, 39, -23, 97, -99, 38, 116, 23, 9, -103, 100, 24, 41, -85, 112, -107, 74, 25, -120, -102, -68, 116, 55, 83, 73, -21, -66, 42, 107, -58, 0, 4, -11, 91, -99, 79, 18, -50, 11, -99, -24, 64, -112, 12, -84, -87, 121, -16, -22, -16, 64, 48, -56, -87, 66, -36, 82, 71, 3, -34, -45, 86, -122, -9, 15, 75, -78, 116, -65, 37, 67, 15, 125, 95, -81, 2, 75, -115, 60, -58, 52, 100, 93, 122, -51, -21, 67, 40, 11, 33, 99, -104, -92, -98, 63, 50, 8, -28, 60, -70, 69, 79, -71, 67, -28, 69, 73, -92, -41, -59, -93, -37, 69, 32, -42, 23, -64, 53, 59, 93, -63, -46, 24, -90, -87, 115, -47, 60, 103, 76, 73, -81, 13, -73, -18, 34, 64, -28, -95, 123, 98, -75, -88, -124, -52, -64, -77, 126, 69, 50, -37, 34, 115, -37];
    let v = vector("AVERAGE_POOL_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("filter_w", 2), ("filter_h", 2)], vec![t("int8", &[1, 8, 9, 5], &[0x3cfe5be0], &[-3], &x)], t::<i8>("int8", &[1, 4, 4, 5], &[0x3cfe5be0], &[-3], &[]));
    let want: [i8; 80] = [3, -27, -5, -18, 14, -9, -21, -22, -14, -8, 18, 19, 5, 9, -80, -89, -42, -32, -3, 2, 1, 2, -27, -52, -35, 6, -23, -84, 4, 17, 6, 60, 45, -36, -4, 54, -4, 40, 53, 38, 24, -13, -16, -1, 2, -42, 55, 15, -23, 38, -72, -28, 56, -14, 12, -38, 42, 68, 20, -40, -12, 18, -41, 91, 30, -33, 27, 21, 16, 49, 10, 46, -14, -17, -64, 16, 38, -16, -15, 18];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_avgpool_2x2_s2_valid` (../shared), op 0.
#[test]
fn average_pool_2d_op_avgpool_2x2_s2_valid_op0_run1() {
    let x: [i8; 360] = [-42, 127, 3, -68, 108, -90, -2, 50, 90, -62, -32, 13, 60, 3, 43, 65, 55, 101, -1, -85, -40, -104, 97, 124, 10, 115, -1, 51, 101, -122, 6, -117, 73, 101, 8, -31, -116, 87, 87, 54, -70, -100, -52, 91, 11, 33, -76, 66, -109, -99, -40, 120, 38, -6, 0, 15, 112, -2, 78, 52, 33, 127, 53, -52, 25, -79, -120, 56, 97, 109, -36, -33, 3, -27, -105, -56, -96, 12, -122, 115, -125, 25, 93, -90, 81, 27, -99, 17, -67, 116, -89, -9, -82, 117, 12, -110, 10, 28, 15, 95, 74, -41, -78, -104, 27, -51, -66, 65, -116, -24, -53, 41, 6, 77, -79, -123, 45, 40, -90, -95, -70, 91, 7, -84, 58, -8, 111, -16, 50, -35, -37, 123, -72, -96, 52, 37, -39, 70, -35, -114, 15, -104, -115, -21, 78, 35, 122, -72, 121, 73, 68, -108, -38, 23, 88, -114, 19, -18, -20, -37, -98, 106, -69, 56, -112, 75, -28, 24, -6, 105, -38, -67, -4, 25, 8, -54, -29, -111, -66, -56, -94, -114, -84, -46, 125, 94, 126, 76, 32, 18, 73, 51, 103, -109, 44, -103, -73, 11, -44, 57, 55, -66, 30, -54, 82, 104, 41, 116, -79, 75, -123, -128, -76, -33, -116, -23, 50, 14, 19, -127, -18, 36, 23, -91, 47, -95, 67, -13, 62, -40, -9, 95, 43, 113, 42, -49, -99, 122, -14, 77, -47, 43, 97, -45, 34, 101, 36, 112, 52, 89, -27, -95, -85, -70, 12, -13, 44, -123, 41, 11, -41, -88, -24, 80, 25, -90, 118, 77, 114, -22, 10, 24, 64, 15, 56, 12, -82, 113, -90, -25, -72, 102, -42, 33, -117, 110, 61, 81, -78, -66, -16, -58, 124, 75, -99, -120, 13, 81, 97, 109, -116, 99, 122, 122, 23, -8, 72, -47, -14, 17, 31, -125, 42, -120, 55, -57, 74, 42, -90, -94, 22, -107, 3, 126, -58, 69, -31, 8, 70, -92, -15, -91, -18, 89, -67, 70, 88, 101, -101, -84, 47, 58, -88, -10, -59, -107, 53, -110, -63, -51, 34, -57, 20, -102, 95, 7, 102, 113, -66, -22];
    let v = vector("AVERAGE_POOL_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("filter_w", 2), ("filter_h", 2)], vec![t("int8", &[1, 8, 9, 5], &[0x3cfe5be0], &[-3], &x)], t::<i8>("int8", &[1, 4, 4, 5], &[0x3cfe5be0], &[-3], &[]));
    let want: [i8; 80] = [-35, 42, 39, -23, -13, 20, 77, 53, 7, 9, -10, -65, 52, 74, -27, -52, -76, 66, -6, 65, -37, -36, -25, 19, 18, 32, -23, -31, -19, 41, -97, 53, -10, 6, -81, -10, 27, 3, -4, 34, -26, 44, 6, 40, 36, -32, -20, 83, -53, 53, 58, -21, 43, -38, 65, -50, -31, -52, 27, -52, -3, -23, 56, -10, -30, 23, 10, 7, 29, -86, -5, 25, 55, 15, -33, -49, 42, -4, -14, 21];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_conv_1x1_relu6` (../shared), op 0.
#[test]
fn conv_2d_op_conv_1x1_relu6_op0() {
    let x: [i8; 392] = [-57, 104, -55, 59, 53, 69, -16, -82, 76, -26, -105, -59, -90, -88, -102, -122, -73, -128, 52, 70, 12, 79, 112, -44, 88, -15, -35, 54, 105, 8, -102, -38, -10, -76, -55, -119, 83, 21, 116, -13, -78, -127, -128, 20, 2, -11, 54, 43, 3, 112, -37, -37, -103, 95, -5, 76, 121, -85, 87, -48, -6, 99, -121, -21, 125, 109, 35, 10, 28, -64, -111, 7, -109, 86, -9, -90, -101, 41, 93, 91, 0, 3, 37, -1, -126, 25, 1, -37, -47, -36, 52, -59, -28, 58, 45, 97, 64, 63, -1, -93, 58, 99, -126, -80, -47, 95, 66, -83, -29, 33, -59, 33, 110, -118, -122, -126, -28, -86, 108, -27, -44, 125, -25, -91, 66, -73, -72, 6, 97, -63, 124, 16, -89, -39, -92, -44, -39, 17, 88, 29, -89, 62, 19, -30, 29, -59, -74, -85, 4, -118, -96, -48, -75, 120, 48, 96, -24, 25, -85, -47, 86, 29, -75, -30, -25, -3, 43, -76, 73, -117, -33, 30, 86, -60, 65, -74, -97, -33, 121, 69, -26, 4, 30, -80, -59, 33, 115, -52, 36, -3, -31, 44, 29, -56, 74, -91, -125, -15, -63, 99, -116, -47, -101, -44, -25, -57, 9, -86, -46, -23, 120, -64, 117, -71, -11, 2, 10, 71, -45, 76, -57, 82, -69, 57, -114, 110, 112, -3, 18, 57, 101, 118, -81, -90, -119, 66, -117, -96, -9, 83, -76, -107, 43, 12, -17, -120, -106, 41, 19, -59, -68, 39, -10, 93, 42, -10, -87, -121, 119, 34, 6, -97, 75, 102, -11, -106, -114, 28, 123, 46, -56, -123, -92, -116, -71, 107, -44, 20, 47, 45, -50, 26, -104, -83, 63, -58, -61, -41, -56, -99, 78, -17, -71, -56, 93, 9, -9, 100, 42, -37, -98, 39, -109, 91, -76, -22, -26, -114, 57, -44, -29, 73, -55, -60, 3, -39, 39, -81, -33, -26, 94, 56, 105, -126, 41, -98, -110, -93, 28, -21, 11, -27, -125, 78, -16, -85, 100, 68, -13, -94, -73, -26, 103, 115, -11, 125, 46, -64, 36, -113, -44, -57, 85, -50, 47, 72, -35, 88, -112, -45, 93, 77, 13, -67, 59, 31, 10, -80, 14, -93, -1, 62, -19, 108, -1, -28, 35, 126, -91, 107, -57, -55, 4, 24, 57, 108, 65, -90, -4, 82, 16, -110];
    let filter: [i8; 96] = [-66, 14, -17, -13, -110, 40, 127, -13, -127, 47, -19, -26, -7, 67, 8, -65, -88, 89, 1, 62, 116, 52, -18, -127, -16, 81, 27, -5, -7, -14, 127, -42, -38, 81, 109, -83, 127, 115, 67, -110, 127, -78, -3, 96, -42, -24, -32, -109, 95, -38, -55, -42, 4, 46, 127, 52, -70, -35, 127, -3, 21, -23, 0, 48, 123, -34, 30, 8, 19, 41, -127, 34, -26, -72, 114, -40, -44, -10, 9, 127, 127, 0, 47, 93, -21, 114, -48, -3, -31, -103, -76, 127, -7, 26, 9, -23];
    let bias: [i32; 12] = [-1058, 7842, -295, -1305, 8125, 4607, -3418, -1046, -3470, 5196, -2494, 2676];
    let v = vector("CONV_2D", &[("padding", 1), ("stride_w", 1), ("stride_h", 1), ("act", 3), ("dil_w", 1), ("dil_h", 1)], vec![t("int8", &[1, 7, 7, 8], &[0x3d0cd1f2], &[-2], &x), t("int8", &[12, 1, 1, 8], &[0x3b8d8a35, 0x3b6adff8, 0x3b6aa1cf, 0x3b80ab10, 0x3ac1f125, 0x3b8b9da1, 0x3b8ed17d, 0x3bbbd7ec, 0x3b62f374, 0x3b834664, 0x3b8c7b91, 0x3bc5feb1], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &filter), t("int32", &[12], &[0x391bb751, 0x3901331b, 0x390110e9, 0x390d8e24, 0x38555ddb, 0x39199967, 0x391d1f61, 0x394ea844, 0x38f9ae85, 0x39106c4f, 0x391a8d92, 0x3959d352], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 7, 7, 12], &[0x3c8d4f24], &[-128], &[]));
    let want: [i8; 588] = [-126, 77, 127, -76, -37, -124, -128, -128, -128, -128, -115, -27, -128, -113, -128, -128, -128, 127, -128, -128, -81, -128, -128, -85, 16, -6, -68, -83, -58, -38, -87, 2, -128, -19, -117, 127, -128, -128, -33, -128, -106, 84, -128, -128, 20, -128, 12, -4, -63, -42, -128, -77, -43, -128, 66, -128, -128, -88, -128, -116, -44, -54, -128, -128, -128, -123, -48, -128, -128, -72, -128, 127, 0, -12, -128, -106, -111, -128, -95, -128, -128, -67, -74, -128, -128, -128, -128, -128, -82, 90, -128, -112, 116, -3, 127, -128, -128, -128, -126, -128, -117, 7, -128, -128, 22, -128, -8, -128, 127, 60, -128, -2, -86, -128, -79, -81, -128, 39, -128, -128, -10, -42, -128, -109, -116, -20, -128, -128, -128, -48, -82, -108, -32, -53, -128, -128, -88, -128, -69, 22, -128, 118, -128, -128, -128, -19, 3, -128, -16, -71, -128, -128, 11, -128, -9, -128, -128, 6, -109, -124, -55, -128, -128, -38, -128, -7, -128, -128, -65, -128, -128, -118, -128, 30, 127, -128, -128, -114, -128, -79, -128, -17, -31, -122, -70, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 127, -128, -47, 21, 21, 41, -128, 0, -1, -106, -76, -72, -80, -128, -41, -128, -19, -59, -103, -128, -128, -128, -128, -128, 6, -128, -128, -92, -128, -128, -128, -128, 40, 80, -114, -76, -103, -128, -98, -128, -128, -65, -102, -91, -89, -128, -73, -99, 29, -35, -128, -128, -128, -119, -116, -128, -128, -128, -128, -108, 124, -33, -128, -128, -128, -128, 98, -44, 16, -9, -65, -54, -45, -128, 74, -128, -29, -128, 3, -128, -41, -100, -128, -46, -128, -128, 98, -128, 59, -128, -128, -128, -128, -128, -128, -128, -125, -128, -1, -45, 127, -124, -128, -34, 52, -71, -126, -121, -120, -128, -128, -128, -128, -128, 38, -128, -86, -72, -127, -32, -128, -128, 127, -128, 33, -128, -128, -128, -55, -116, -128, -128, -94, -128, -128, -74, -127, 26, -25, 24, 29, -72, 26, -19, -128, -128, 125, -128, 94, -128, -128, -34, -106, -128, -128, -128, -74, -128, -128, -128, -14, -128, 127, -128, -128, -128, -128, -128, -71, -128, 77, -114, 77, -128, -17, -62, -57, -128, -128, -111, -14, -22, -128, -128, -128, -44, 127, -93, -128, -128, -127, -128, -128, -128, 127, -128, 127, -128, -23, -128, -19, 60, -128, -80, 70, -128, -128, -108, -128, -128, 127, -6, -46, -128, -128, -128, -66, -119, -116, -128, -36, -128, 127, -128, -5, -43, -128, -99, -128, -128, -128, -128, -128, -128, -128, 21, -86, -128, -75, -121, -98, -117, 62, -128, 105, -128, -55, -128, -56, -128, -128, -128, -128, -128, -93, -60, 25, -68, -128, -128, -47, -128, -128, -103, -128, -128, -37, -128, 11, -128, -128, -128, -68, -120, -128, -111, -106, -128, -48, -128, -60, -128, -90, -128, -128, -111, -128, -44, -10, -128, -95, -17, -110, -128, -128, -18, -21, -128, -128, -96, 44, -128, -128, -121, -110, -24, -77, -14, -128, -128, -33, -128, -128, 99, -128, -128, 24, -128, -128, -128, -48, -25, -58, -56, -128, -128, -104, -128, -128, -128, -128, -128, -128, -123, -128, -117, 127, -128, -128, 55, -103, 127, 31, -128, -72, -36, -64, -13, -52, -96, -128, -102, -128, -74, -128, -106, -63, -119, -128, -103, 48, -106, -128, -91, -86, 30, 127, -104, -105, -114, -79, -128, -38, -128, -128, -128, -128, -103, -39, -95, 10, -11, -14, 25, -93, -128, -128, -128, -128, -51, -128];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_conv_1x1_relu6` (../shared), op 0.
#[test]
fn conv_2d_op_conv_1x1_relu6_op0_run1() {
    let x: [i8; 392] = [17, 68, -65, 127, 40, -41, 73, 21, -57, -128, -63, 79, -78, 14, 119, -113, 18, -59, 119, -70, 19, 44, 126, 22, -77, -19, -87, -46, -56, -66, -76, -116, 51, -104, 0, -118, 76, 36, -33, -62, -107, -80, -74, 11, -6, -1, -60, 1, -107, 117, 56, 69, 76, 9, -99, -14, 114, -97, -22, -49, 57, -61, -4, 26, 119, 85, 38, 30, 98, 22, 107, -50, 64, 105, -30, 101, -61, 85, 110, -28, -114, 81, 126, 109, 27, -4, 126, 13, 38, -64, -43, -120, 97, -45, -87, -122, 127, 114, 51, -71, 75, -46, -49, -59, 8, -37, -57, 29, 82, -52, -82, -54, 17, 26, 12, 64, 60, -67, 67, 109, -109, -51, -78, -126, -96, -97, 43, -102, -114, -2, 126, 113, 26, 65, 90, 44, 49, -122, 23, -97, -11, 102, -113, -59, -1, 75, 61, 82, 8, 92, -112, 39, -47, 65, 110, -100, -92, 119, -120, -50, 81, -107, -43, -44, -38, 68, -44, 32, 22, -18, 119, 20, -14, -120, 113, -6, -64, 11, -43, 15, -86, 57, -126, -52, 107, -101, 114, 74, 78, 19, 49, -73, -7, 41, -105, 53, 112, -101, -30, -79, 44, 15, -80, 116, 80, -15, 70, 44, 112, -8, 68, 81, 46, 74, -91, -80, -91, -56, 35, -124, -63, -99, 22, -59, -115, -108, 50, -2, 71, 122, -115, 22, 49, 84, -107, 87, -10, 28, -64, 12, 121, -34, -36, 103, -61, -72, -123, -95, -125, 93, 21, 125, -123, -15, 92, 28, -4, 12, -69, 39, 37, -49, -16, 126, -75, 67, 84, -30, -68, 45, 32, 90, -11, 102, -27, -74, -108, -8, -39, -41, -74, -58, 96, -35, -44, 83, 72, -125, -74, 36, 124, 70, -64, 24, 112, 99, -6, 97, -59, 113, -38, -94, -3, -38, -89, 72, 9, 63, 21, 107, -121, 55, -3, 47, 86, 53, -17, -70, -7, 14, -31, 34, -119, -20, 89, 6, 79, 75, -66, -72, -126, 86, 18, -87, 51, -87, -81, 7, 50, 97, -72, 9, 97, -33, -42, -30, -7, -73, 24, 18, 41, -42, 82, 92, -74, -55, 78, 20, 120, -48, -31, 13, -51, -53, -13, -77, -30, 2, -106, -128, 64, -10, 15, -95, -91, -88, 36, 13, -128, -13, -106, -43, -8, 48, 3, -1, -28, -63, -79, 26, -34, 34];
    let filter: [i8; 96] = [-66, 14, -17, -13, -110, 40, 127, -13, -127, 47, -19, -26, -7, 67, 8, -65, -88, 89, 1, 62, 116, 52, -18, -127, -16, 81, 27, -5, -7, -14, 127, -42, -38, 81, 109, -83, 127, 115, 67, -110, 127, -78, -3, 96, -42, -24, -32, -109, 95, -38, -55, -42, 4, 46, 127, 52, -70, -35, 127, -3, 21, -23, 0, 48, 123, -34, 30, 8, 19, 41, -127, 34, -26, -72, 114, -40, -44, -10, 9, 127, 127, 0, 47, 93, -21, 114, -48, -3, -31, -103, -76, 127, -7, 26, 9, -23];
    let bias: [i32; 12] = [-1058, 7842, -295, -1305, 8125, 4607, -3418, -1046, -3470, 5196, -2494, 2676];
    let v = vector("CONV_2D", &[("padding", 1), ("stride_w", 1), ("stride_h", 1), ("act", 3), ("dil_w", 1), ("dil_h", 1)], vec![t("int8", &[1, 7, 7, 8], &[0x3d0cd1f2], &[-2], &x), t("int8", &[12, 1, 1, 8], &[0x3b8d8a35, 0x3b6adff8, 0x3b6aa1cf, 0x3b80ab10, 0x3ac1f125, 0x3b8b9da1, 0x3b8ed17d, 0x3bbbd7ec, 0x3b62f374, 0x3b834664, 0x3b8c7b91, 0x3bc5feb1], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &filter), t("int32", &[12], &[0x391bb751, 0x3901331b, 0x390110e9, 0x390d8e24, 0x38555ddb, 0x39199967, 0x391d1f61, 0x394ea844, 0x38f9ae85, 0x39106c4f, 0x391a8d92, 0x3959d352], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 7, 7, 12], &[0x3c8d4f24], &[-128], &[]));
    let want: [i8; 588] = [-118, -108, -51, -46, -128, -57, -103, -128, -128, -128, -128, 51, 101, -1, -112, -68, -128, 97, -75, -128, -128, -128, -128, 127, -32, -96, -128, -35, -23, -128, 16, 51, -128, 96, -128, -128, -118, 31, -70, -128, -128, -34, -128, -128, -128, -128, -128, -28, -128, -93, -128, -128, -50, -30, -82, -128, -55, -94, -128, -128, -128, 0, -107, -128, -128, -124, -128, -128, -128, -89, -128, 119, -128, 44, 127, -128, -45, -128, -128, -13, -128, -128, -128, -128, -128, -128, -128, -128, -128, 27, -15, -128, -39, -47, -128, -106, -128, -128, -15, 25, -9, -17, -6, -128, -128, -128, -15, -128, 42, -48, -66, 25, -82, -7, -18, -128, -128, -128, 43, -18, 16, 17, 36, 72, -27, -128, -128, 114, -128, -16, -128, -98, -128, -76, -61, -128, -63, 8, -128, -128, -71, -128, -128, -128, -128, -128, -62, -94, -34, -37, -128, -128, -37, -128, -79, -128, -128, -100, -37, -128, -123, 22, -128, -128, -90, -128, -128, 25, -128, -128, -128, -87, -128, -128, -80, -55, -128, -14, -128, -98, 59, 50, -128, -74, -124, -128, -128, -128, -128, -123, -128, -104, -13, 5, -13, -34, -42, -128, -128, 127, -128, 55, -107, 21, -128, -74, -128, -128, -79, 32, -128, -128, 32, -46, -10, -97, -128, -52, -24, -128, -85, -103, -128, -83, -18, -78, 78, -116, -106, 72, -73, -128, -23, -128, -128, -45, -73, -18, -47, -128, -128, -128, -128, -128, -128, 16, -24, -128, -8, -29, -18, -12, -76, -128, -128, 3, -98, -37, -121, 48, -128, 39, -128, -128, -126, 40, -62, -128, -128, -52, -128, -128, -113, -128, -95, 1, -128, -128, -95, -126, -51, 127, -83, -47, -53, -69, 63, 21, -128, -68, 55, -128, -111, -17, -128, -128, -128, -128, -128, 9, -128, -128, -84, -101, -128, -41, -33, -128, -128, -128, -95, 102, -128, -128, -18, -128, -65, 127, -128, -128, 53, -128, 127, -36, -28, -7, -128, -92, -98, -128, -128, -10, -128, 9, -128, -128, -128, 26, -27, -128, -61, -128, -128, 66, -63, 26, -98, 44, -128, -87, -69, -128, -128, -15, -128, -128, -81, -128, -10, 10, -128, -128, -128, -128, -128, 127, -128, -128, 15, -128, 48, 85, 127, 36, -80, 29, -128, -128, -128, -60, -128, -54, -128, 14, -128, -128, -128, -128, -128, -128, -122, -128, -128, -49, -128, -43, 9, -4, -128, -64, -77, -128, -128, 39, -128, 91, -128, -128, -46, 6, -128, -91, -105, -128, -128, -128, -128, -128, -128, -128, 50, 71, -36, -36, -2, -67, -128, -17, -128, -51, -128, -67, 63, -49, -128, -1, -89, -128, -128, 116, -128, 127, -128, -123, -122, -74, -45, -69, -128, 2, -128, -128, -128, -128, -128, -5, -128, 36, 23, -128, -85, -128, -128, -78, -86, -89, -38, -62, -128, -116, -125, -93, -112, -74, -128, -10, -128, -25, -128, -128, -101, -46, -100, -86, -98, -128, -1, -128, -128, -128, -128, -68, -82, -36, -41, -115, -128, 38, -128, -128, -128, -128, -128, 127, 72, 6, -69, -4, -93, -76, -128, -45, -128, -60, -128, 55, -75, -2, -95, -97, -52, -128, -115, -123, -128, -92, -128, -128, -87, -62, -47, 27, -25, -126, 60, -128, -128, -128, -128, -128, -128, -63, -128, -128, -128, -128, -128, -128, -128, -106, -128, -128, -128, -38, -79, -128, -114, -9, -128, 71, -128, -22, -128, 10, -65, -120, -128, -128, -128, -63, -71, -128, -128, -124, -128, -49, -86, -63, -128, -128, -128, -128, -128, -128, -122, -33, -128, -128];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_conv_3x3_dilation2_same` (../shared), op 0.
#[test]
fn conv_2d_op_conv_3x3_dilation2_same_op0() {
    let x: [i8; 200] = [-71, 66, -37, 123, -101, 79, -63, -13, 63, 113, -11, 27, -43, 120, 87, -16, 118, 37, -68, -27, 84, 112, -12, 60, -90, 62, 10, 10, -11, -75, -67, -121, 38, -68, 67, -29, -65, -45, 35, -66, -73, 47, 8, 21, -29, 49, -128, -57, -49, -4, 72, 62, 12, 76, 23, -71, -78, -62, 41, 127, -42, 0, 5, 74, 25, 93, -55, -82, -48, -4, -26, -44, 61, 81, -73, 46, -39, 67, -38, -12, 40, 71, -23, -102, -37, -79, -64, 26, -84, 57, -62, 121, -48, -22, 51, 55, -15, -74, -115, 50, 126, -51, -48, -17, 103, -123, -76, 90, 40, 99, -52, 16, 127, 117, -87, -110, 124, -6, -12, 18, 43, 51, 74, 54, 41, -102, -98, 57, -31, 81, 82, -65, 38, 80, -32, 67, -79, 57, 25, -54, 87, 106, 71, 11, 125, -52, 72, -115, -116, -24, -5, 1, 69, -115, 65, -85, -6, 110, -66, 29, -29, 102, 51, 37, 95, 106, -117, -84, -117, 120, -105, -97, 56, -36, 94, 110, 9, -53, -29, -103, -55, -109, 84, 83, -33, -92, -2, 64, 17, 16, 31, -9, 113, 90, 33, -14, -19, 95, 33, -34];
    let filter: [i8; 54] = [-31, -63, 18, -13, 62, 11, 69, 73, 42, 49, 32, 20, 46, -36, 11, -23, -32, 127, -17, 110, -15, -111, -88, -36, 50, 26, 112, -41, 45, 36, -123, -2, -127, 20, 65, -28, 7, 7, 35, -120, -127, 17, -38, 63, 60, -68, 59, -89, 62, 120, -86, -23, -57, -7];
    let bias: [i32; 3] = [-1036, -1283, 4630];
    let v = vector("CONV_2D", &[("padding", 0), ("stride_w", 1), ("stride_h", 1), ("act", 0), ("dil_w", 2), ("dil_h", 2)], vec![t("int8", &[1, 10, 10, 2], &[0x3cffa80b], &[7], &x), t("int8", &[3, 3, 3, 2], &[0x3be0d22e, 0x3b9170e1, 0x3baa3583], &[0, 0, 0], &filter), t("int32", &[3], &[0x396084ef, 0x39113ee8, 0x3929fb08], &[0, 0, 0], &bias)], t::<i8>("int8", &[1, 10, 10, 3], &[0x3d600d9c], &[11], &[]));
    let want: [i8; 300] = [16, -7, -16, -5, -44, 9, -10, 10, 8, 30, 38, 66, 50, 33, 21, -67, 30, -27, 44, 22, 14, 72, -12, 70, 43, 59, 117, 8, -11, -37, 71, 25, -6, -28, -2, 19, 30, -13, 13, -27, 3, 109, -4, 14, 122, 11, 16, 39, -21, -5, 7, -58, 39, 53, -36, -8, 49, -17, 67, 43, -73, -24, -3, -12, -37, 22, 32, -60, 27, 29, 49, 4, -21, 31, -6, -11, 24, 5, -88, -6, -41, 32, 63, 97, -14, 37, 29, 2, 32, 49, -81, -28, -32, 53, -33, 30, 38, -60, -37, -50, 76, 80, 112, 34, -34, -121, 52, 56, -13, 3, 33, 23, -19, 22, 71, -81, 55, -10, 33, 11, -63, -2, 10, -26, -4, 63, 37, -15, 40, -81, 17, -22, -4, -26, -49, 66, -54, -41, -31, -30, 81, 6, 19, 37, -68, 63, 105, 25, -77, -28, -27, 41, 58, -99, -5, -47, 26, -24, 61, -22, -29, 26, -9, 65, -21, -33, -29, 59, 127, 37, 18, -19, -57, 25, 75, 59, -4, -37, 10, 4, 30, 30, 36, -26, 34, 69, 23, 56, 112, 16, -30, 122, -36, 8, 22, 33, 69, -48, -45, 69, 22, -99, 49, -39, 68, -14, 32, -14, 1, 99, 42, 45, 78, 24, 15, 93, 88, 72, 66, -14, 20, 73, 80, -99, -107, -77, 61, 58, 7, -51, -55, -27, 61, 64, -28, -3, 43, 39, -63, -33, 42, -5, -42, -24, -2, 61, 38, 62, 53, -47, -43, -29, 90, -85, -31, -69, 23, 61, -33, 28, 106, -27, -51, 0, -34, 26, -1, 27, 62, 74, -12, -63, -18, 52, 19, -19, -121, 60, 104, 60, 49, 81, -6, 7, -23, 55, -19, 27, 84, 58, 56, 4, 55, 110, 88, -55, -33, 14, -10, 15];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_conv_3x3_dilation2_same` (../shared), op 0.
#[test]
fn conv_2d_op_conv_3x3_dilation2_same_op0_run1() {
    let x: [i8; 200] = [124, 116, 70, 70, -30, -47, -76, 99, 53, -69, -82, 18, 113, -110, -26, 12, -115, -101, -88, 91, 12, -37, -79, -84, 123, 63, 23, 19, 22, -29, 94, -37, 74, -125, 4, 20, 64, -62, -47, 69, 116, -18, 119, -85, -21, -93, -90, -81, 121, 29, 116, -19, -126, 53, 65, 5, 126, 16, -35, -71, 4, -122, -17, 23, 86, 102, 81, 93, 4, 98, 9, -108, -94, 58, 4, 23, -128, -112, 12, 83, 113, -104, -5, 18, 95, -105, 9, -108, -20, 98, -73, 61, -107, 87, 109, -28, 30, 115, -98, 118, -66, -42, 70, 28, 97, 27, 40, 2, 31, 98, 99, 37, -8, 35, 69, 80, 125, 96, 92, 42, -107, -24, -65, -92, -42, 7, 3, -73, 32, 72, 83, 1, -64, -125, -43, 67, -94, -59, 22, -117, -56, -8, -56, -17, 1, 47, 72, -18, -103, 116, 81, 6, -33, -82, 22, 23, -50, -11, -113, 43, -5, -41, -69, 2, 102, 113, 34, 73, -44, -93, -41, 56, -124, 108, -115, 76, 50, -57, -116, -49, -90, -108, 53, -28, 3, 120, 106, 117, 54, 111, -60, -16, -88, 109, 43, -65, -72, -4, 3, -63];
    let filter: [i8; 54] = [-31, -63, 18, -13, 62, 11, 69, 73, 42, 49, 32, 20, 46, -36, 11, -23, -32, 127, -17, 110, -15, -111, -88, -36, 50, 26, 112, -41, 45, 36, -123, -2, -127, 20, 65, -28, 7, 7, 35, -120, -127, 17, -38, 63, 60, -68, 59, -89, 62, 120, -86, -23, -57, -7];
    let bias: [i32; 3] = [-1036, -1283, 4630];
    let v = vector("CONV_2D", &[("padding", 0), ("stride_w", 1), ("stride_h", 1), ("act", 0), ("dil_w", 2), ("dil_h", 2)], vec![t("int8", &[1, 10, 10, 2], &[0x3cffa80b], &[7], &x), t("int8", &[3, 3, 3, 2], &[0x3be0d22e, 0x3b9170e1, 0x3baa3583], &[0, 0, 0], &filter), t("int32", &[3], &[0x396084ef, 0x39113ee8, 0x3929fb08], &[0, 0, 0], &bias)], t::<i8>("int8", &[1, 10, 10, 3], &[0x3d600d9c], &[11], &[]));
    let want: [i8; 300] = [-1, -13, 12, 8, -32, -20, 81, 10, 70, 46, -10, -22, 30, -30, 42, -12, -22, -59, -34, 55, 94, -31, -70, -4, -65, -7, -48, 16, -40, 22, 67, 33, 34, 9, 10, 18, 83, 5, -37, -98, -4, 23, 78, -10, 127, 41, 9, 97, -76, 62, 127, 70, 10, -66, -37, 99, 59, 3, -10, 4, -52, -10, 23, -85, 33, 94, 86, -1, 4, -22, -1, 38, 103, -28, -32, -74, 114, 14, 60, 83, 127, 67, 10, 61, -22, 58, 87, 1, 2, 11, 32, 54, 21, 19, 26, 3, 63, -21, -106, 91, -51, 10, 71, -12, -17, 70, 14, 45, 46, -18, 67, -12, -41, -9, -28, -79, 46, 18, -55, -1, 7, 94, 127, -50, 67, 127, 36, 97, -31, 7, 24, -52, -62, -15, -22, 89, -85, -41, 16, -56, -15, -66, 42, 62, 44, 57, 12, 17, 2, 7, 47, 30, 70, 23, 30, 14, 93, -46, -8, 31, 39, -40, -62, 76, 48, 49, 58, 50, -36, 121, 91, 127, -50, 43, 48, 119, 39, 50, 60, 50, 50, 0, 2, -10, 21, 54, -53, -46, 34, -47, 63, 99, 53, -107, 127, 74, -56, -13, -91, 60, -19, -34, 66, 127, -119, -13, -28, -59, 56, 58, 79, 6, 13, 57, -26, -6, 57, -5, -108, 16, -42, 6, 25, -102, 22, 14, 3, 76, -34, -18, 90, -11, -21, -85, -77, 15, 27, 4, -36, -17, -2, 54, 39, -2, 35, 25, 39, -9, 16, 55, -21, -2, 8, 28, -6, 41, -28, 6, -82, 31, 69, -35, -68, -40, 33, 5, 88, -39, 21, 87, -26, 6, 3, 40, 43, 5, -30, -8, 2, 74, 2, -11, 26, 18, -49, 56, -9, 56, 16, 49, 39, -68, 24, 111, 19, -35, 40, -34, 12, -4];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_conv_3x3_s1_same_relu` (../shared), op 0.
#[test]
fn conv_2d_op_conv_3x3_s1_same_relu_op0() {
    let x: [i8; 297] = [112, 31, -93, 60, 125, -116, -99, -49, 15, 2, -109, -36, -28, -1, 52, 77, -8, 107, 4, 22, -22, -57, 24, -39, 80, -73, 95, -31, 95, -89, -12, 51, -24, -121, -82, -58, -16, 36, 23, -62, 79, -109, -92, -18, 33, -79, 38, 33, -29, 30, 107, -18, -116, -51, -74, -112, 3, -127, 85, 3, 31, -126, 101, -99, 29, -109, 10, -5, 64, -89, 15, 43, -28, -61, -85, 114, -93, 40, 81, 13, -99, 89, -119, -124, -71, -101, 107, -111, 57, -123, 51, 30, -120, 95, -1, -47, 63, 59, -100, 40, -30, -35, -29, 109, 23, 68, 57, -37, 3, -41, 69, -92, 52, 98, 3, 71, -124, -111, 103, -62, -109, 33, -21, 111, 7, 78, -3, 15, -18, 57, -4, 125, -120, 34, -57, 127, 24, -33, 84, -120, 109, 121, -42, 106, 112, 114, -101, -55, 101, 93, -109, -126, -4, 35, -29, -5, -78, -23, -62, -115, -10, -89, -50, 38, -111, 82, 106, 9, 28, -100, -41, 22, 8, -1, 95, -28, -41, 50, 76, 88, -1, 9, -1, 90, 112, 30, 44, 124, -8, 113, 110, 113, -78, -33, 29, -103, -40, -96, 11, -108, -62, -128, 5, -12, -3, -25, -7, 62, -59, 33, 71, -97, 38, -63, -111, -20, 34, 98, 28, -119, -105, 11, 93, -55, 25, 11, -1, 81, 76, -17, -55, 19, 6, -121, 18, -34, 27, -4, 123, -47, -103, 66, 20, -70, 127, -7, 58, 77, 18, 46, 37, -44, -74, -101, -9, -102, -86, 83, 110, -115, -114, -81, -61, -61, -107, -125, 54, 60, -97, 85, -48, 108, 29, 62, 25, -42, 94, 53, 9, 83, -75, -61, -75, 21, -119, 22, -120, 29, 43, -103, -16, -126, -100, -76, -48, 54, -74];
    let filter: [i8; 135] = [-70, 127, -22, -94, 12, 15, 58, -22, -74, 69, -10, 39, 22, -31, 74, 41, 40, 126, -14, 49, 98, 31, 31, -22, 23, -58, -24, 5, -123, 110, 36, 64, -3, 22, -107, -111, -41, 54, -100, -7, -98, -7, -70, -12, 115, 127, 46, 13, -49, -46, 89, -92, 70, -23, 34, 43, -39, 79, 54, 1, -22, -60, -14, -78, -14, 127, 9, 22, 71, 4, 46, 8, 30, 44, 38, 31, 2, 61, 20, 96, -76, 8, -85, 26, 27, -59, -35, -127, 42, 57, 26, -1, -52, -8, 89, 49, -80, 7, 1, -67, 70, -81, 26, -87, 33, 8, -3, 4, 59, 24, -87, -69, 48, -43, -60, -17, -103, 99, 114, 58, 57, -9, 36, -122, -53, 113, 51, -34, 69, 69, 1, -127, -75, 22, 13];
    let bias: [i32; 5] = [-710, 472, -856, 3605, -276];
    let v = vector("CONV_2D", &[("padding", 0), ("stride_w", 1), ("stride_h", 1), ("act", 1), ("dil_w", 1), ("dil_h", 1)], vec![t("int8", &[1, 9, 11, 3], &[0x3d011b90], &[-7], &x), t("int8", &[5, 3, 3, 3], &[0x3be17cd7, 0x3b6c045c, 0x3bd8b452, 0x3bc0e055, 0x3b8f586d], &[0, 0, 0, 0, 0], &filter), t("int32", &[5], &[0x3963705f, 0x38ee0f37, 0x395a9464, 0x39428b9e, 0x391095fc], &[0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 9, 11, 5], &[0x3cefd3a5], &[-128], &[]));
    let want: [i8; 495] = [-128, -128, -128, -128, -128, -128, -128, -128, 40, -38, -128, -71, -128, -128, 4, -128, -8, -99, -72, -128, 11, -128, -128, -128, -128, 37, -128, 5, -72, -128, 4, -128, -128, -76, 5, -128, -26, -128, -115, -87, -128, -128, -128, -128, -128, -123, -128, 33, 87, -128, -128, -112, -128, -128, -20, -128, -3, -128, -128, -128, -128, -123, 127, -73, -128, 95, -128, -128, -128, 33, -128, -78, -128, 127, -128, -39, -128, -71, -128, -105, -128, -128, -128, -11, -75, -128, 122, -15, -112, -65, 5, -128, -128, -128, -128, -80, -128, -127, 29, -128, -128, 6, 54, -16, -78, -16, -128, -41, -128, -44, -73, -128, -128, 21, 24, -128, -128, -46, -128, -126, -17, -128, -117, -128, -102, -105, -128, -128, -122, -128, -128, -128, -128, -128, -128, 127, 67, -128, -128, 127, -128, -33, -128, 61, -128, -128, -128, -128, 113, -128, -128, -78, -128, -82, -128, -11, -128, -128, -128, -128, -128, -11, -128, 57, -128, -128, -128, -92, -83, -128, 49, -128, -128, 6, -128, -32, -35, -127, -98, -128, 25, 41, 112, -128, 25, -128, -36, 127, -128, 23, -128, -128, 63, 43, -128, -128, -76, -128, 127, -45, -74, 12, -128, -128, -128, -9, -95, 13, -128, -42, 44, -128, -43, -128, 45, -128, -128, -76, -25, -26, -128, -128, -128, -118, -128, -47, 12, -78, -128, -37, 127, -128, -99, -128, -81, -61, -128, 79, -74, -128, 67, -69, -88, -128, 21, -57, -45, -128, 119, 90, 10, -128, 127, -128, 62, 52, -128, -11, -128, -128, -128, -87, -58, -86, -128, -128, 8, -82, -128, -128, -128, -128, -128, -128, -128, -76, -128, -128, -128, -12, -128, -104, -128, -128, -128, -128, -128, -128, -110, -128, -119, -35, -128, -112, -128, -128, -109, -123, 127, -85, 25, -128, 127, -128, 81, 127, -128, -128, -128, -128, 31, -52, -121, 79, -128, -76, -128, -128, 127, 127, -12, -128, -96, -128, 100, -36, -128, -101, -128, -70, -128, -26, -122, -128, 9, -128, -128, -64, -21, -128, -128, -1, -67, -128, -99, -128, -80, -33, -110, -128, -128, -128, -19, -128, -74, 125, -128, -51, -128, -128, -128, -128, -90, -67, -76, -103, -119, -128, -128, -128, -51, -128, 127, -128, -128, 127, -128, -128, -112, 67, -128, -115, -128, -128, -56, -128, -128, -128, 72, -128, -128, -70, -128, -16, -114, -13, -128, -43, -128, -128, -104, -119, -3, 3, -128, -128, -123, 79, 1, -128, -128, -101, -106, 20, -75, -128, -72, -128, -67, 72, 60, -114, -128, -29, -102, -128, -128, -128, -122, -128, -128, 10, -76, -128, -115, -128, -128, -128, -62, -128, -43, -46, -127, -128, -112, -17, -128, 57, -128, -128, -128, -128, -14, 9, -128, 50, -128, -97, -128, -49, 28, -128, -128, -128, -128, -38, -128, -128, -128, -65, -128, -101, -128, -116, -101, -128, -120, -128, -78, -128, -60, -18, -128, -128, -102, -128, -28, -128, 24, -128, -128, -128, -128, -20, -128];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_conv_3x3_s1_same_relu` (../shared), op 0.
#[test]
fn conv_2d_op_conv_3x3_s1_same_relu_op0_run1() {
    let x: [i8; 297] = [102, 20, 17, 51, -55, 26, -39, 5, -9, -28, -96, -43, -70, -81, 95, -7, -126, -120, 48, -28, -51, 72, 116, 24, 11, 11, -123, -2, -66, 120, 93, -14, -115, 0, -44, 75, -39, -26, 100, 85, -77, 116, 82, -30, 98, -38, 100, 119, -104, -59, 118, 40, 65, 112, 16, -127, -16, -13, -93, -36, 118, -53, -10, 119, -106, 27, 117, -31, 27, -12, -103, -89, 8, -72, -121, -5, -72, 86, -122, 65, -4, 67, -100, 71, 118, 45, 9, 43, -52, -71, -43, -30, 61, 64, 106, 93, 2, 56, 23, -91, -109, -9, 54, 68, 89, -72, -81, -95, -113, 14, -56, 58, 88, -103, 53, -103, 66, 10, 39, -107, -79, 96, 87, -36, 83, -114, 15, -84, -86, 113, -26, 47, -68, 45, 36, -75, -37, -21, 30, -39, -119, 82, 60, -20, 116, -15, 39, 29, -107, 65, -61, 36, 90, 82, 59, 13, -33, 127, 24, 71, 91, -46, 69, -16, 79, -128, -14, -95, 86, 4, -12, 119, -127, -68, 66, -42, 90, 58, 44, -102, -73, 67, -75, 36, -112, -48, -40, -4, 0, -45, 84, 58, 41, -3, -30, -11, -38, -16, -102, 29, 28, 93, -47, 87, -46, 17, -27, 46, 58, -33, -81, -63, -85, 83, -35, 96, 19, 23, -56, -120, 85, 119, -106, 4, 38, -89, -57, 107, -30, 122, -61, 105, -124, 7, 77, 51, -22, -90, 125, 48, 25, -40, 27, 13, 64, -105, -70, -24, -15, -101, 22, -91, -87, 93, 90, 23, -40, 16, -32, 29, 39, -53, -91, -31, 2, 94, 26, -113, -3, 51, 55, 119, -27, -54, -71, 89, 93, 32, -114, -107, -65, -21, 109, -67, -101, -80, 15, -64, 30, -54, 98, 96, 56, -106, 52, 92, -49];
    let filter: [i8; 135] = [-70, 127, -22, -94, 12, 15, 58, -22, -74, 69, -10, 39, 22, -31, 74, 41, 40, 126, -14, 49, 98, 31, 31, -22, 23, -58, -24, 5, -123, 110, 36, 64, -3, 22, -107, -111, -41, 54, -100, -7, -98, -7, -70, -12, 115, 127, 46, 13, -49, -46, 89, -92, 70, -23, 34, 43, -39, 79, 54, 1, -22, -60, -14, -78, -14, 127, 9, 22, 71, 4, 46, 8, 30, 44, 38, 31, 2, 61, 20, 96, -76, 8, -85, 26, 27, -59, -35, -127, 42, 57, 26, -1, -52, -8, 89, 49, -80, 7, 1, -67, 70, -81, 26, -87, 33, 8, -3, 4, 59, 24, -87, -69, 48, -43, -60, -17, -103, 99, 114, 58, 57, -9, 36, -122, -53, 113, 51, -34, 69, 69, 1, -127, -75, 22, 13];
    let bias: [i32; 5] = [-710, 472, -856, 3605, -276];
    let v = vector("CONV_2D", &[("padding", 0), ("stride_w", 1), ("stride_h", 1), ("act", 1), ("dil_w", 1), ("dil_h", 1)], vec![t("int8", &[1, 9, 11, 3], &[0x3d011b90], &[-7], &x), t("int8", &[5, 3, 3, 3], &[0x3be17cd7, 0x3b6c045c, 0x3bd8b452, 0x3bc0e055, 0x3b8f586d], &[0, 0, 0, 0, 0], &filter), t("int32", &[5], &[0x3963705f, 0x38ee0f37, 0x395a9464, 0x39428b9e, 0x391095fc], &[0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 9, 11, 5], &[0x3cefd3a5], &[-128], &[]));
    let want: [i8; 495] = [-111, -109, -128, -79, -128, -2, -128, -128, -123, -92, -100, -128, -128, -55, -128, -121, 75, -77, -128, 32, -128, -61, -128, -128, -128, -128, -83, 2, -128, -128, 69, -128, -128, -128, -128, -84, -128, -128, 4, -128, -83, -128, -128, -128, 34, -122, -128, -128, -76, -128, -128, -127, -13, -128, -59, 22, -49, 1, -89, -88, 30, -105, 28, -128, -14, -8, -116, -128, -128, 34, -57, -97, 34, 75, -58, 127, -103, -128, -128, 90, 84, -56, 51, 64, -128, -128, -128, 77, -128, -92, -101, -1, -27, -128, 127, -128, -128, -73, -128, -128, 107, -128, -62, -128, -128, -48, 32, -98, -97, -106, -128, -128, -128, -14, -128, -128, -128, -128, -128, -128, -128, 69, -128, -128, -128, -128, -94, -128, 127, -128, -128, -128, -128, -34, -128, 3, -104, -8, -118, -128, -128, -81, -86, -128, -80, -106, 39, -95, -105, -111, 127, -109, -128, -128, -128, -128, -128, 35, 66, -128, -128, -128, -10, 38, -44, -26, 58, -31, -128, -128, -128, -119, 1, 17, -128, -128, -128, -128, -8, -12, -128, -128, -128, 30, -128, -128, -14, -128, -128, -128, -79, -45, -128, -128, -128, -128, 41, 53, -128, -128, -128, -128, 32, 79, -128, -128, -128, -18, -128, -128, -70, -71, -128, -128, -128, -29, -35, -34, -79, -128, -128, -128, -128, -27, -128, -128, -128, -99, -47, -128, -128, -128, -128, -72, -128, -63, -78, -128, -128, -128, 97, -51, -26, -128, 127, 127, -128, -128, -128, 54, -128, -128, -78, 127, -128, -50, -128, 56, -128, 75, 127, -128, -23, -128, -128, 127, -128, -62, -128, -43, -128, -63, -111, -9, -33, -128, -128, -128, -128, -128, -32, -92, -128, -128, -128, 61, -33, -128, -128, -25, -63, -128, -112, -128, -128, -128, -128, -47, -112, -128, -128, -128, -128, 127, -128, -128, 102, -128, -128, -17, -128, -29, -128, -30, -128, 36, -128, -111, -128, -128, -128, -105, 127, -128, -128, 6, -128, -121, -128, -57, 72, -128, -123, -105, -114, -97, 23, 127, -128, 17, -128, -128, -40, -128, -128, -128, -68, 23, 41, -128, -128, -8, -128, -128, 44, -86, -31, 28, -128, -113, -2, -128, -128, -60, 76, -128, -128, -128, 127, -128, 87, -29, 90, -128, 16, -34, -103, 54, -128, -128, -128, -128, 13, -53, -128, 9, -112, -128, -128, -128, -14, -85, 47, 22, -128, -29, -128, -128, -57, -33, -128, -5, 127, -77, -128, -29, -128, -128, -128, 41, -128, -48, -128, 2, -128, -128, -128, -128, 127, -88, -128, -128, -128, -83, -113, -10, -128, 88, 4, -128, 46, -128, -128, -128, 8, -128, 15, -128, -128, -122, -128, -128, -118, 18, -122, -128, -128, -46, 73, -128, -55, -128, 26, -128, 0, 73, -128, -128, -128, -128, -128, -103, -35, -45, -44, -82, -128, -128, -128, -82, -128, -128, -128, -26, -128, 121, -119, -128, -128, -93, -100, -128, -109, -128, -128, -128, -128, -21, -128, -128, -89, -128, -128, 0, -91];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_conv_3x3_s2_valid` (../shared), op 0.
#[test]
fn conv_2d_op_conv_3x3_s2_valid_op0() {
    let x: [i8; 480] = [-92, 6, -115, -39, -30, 10, 118, 7, 5, 93, -19, 109, -90, 97, 101, -41, -63, -124, 31, -80, 99, 79, -59, 25, 33, 70, -73, 71, -115, 26, -101, -85, 73, 65, -21, 76, -15, 8, -30, -47, 102, -52, -66, 86, 86, 56, -5, 93, -21, -119, -47, 20, -60, 118, -112, -105, -112, 111, 75, 18, -61, 9, 15, 90, -113, -74, -128, -92, 121, -14, -113, -41, -38, 120, 1, -80, -23, -72, 64, -125, -118, -50, 109, 119, 82, -42, -125, 52, -99, -58, -81, 127, -70, 48, -23, -49, 30, 48, 97, 48, -57, 84, 70, -62, -32, 28, -117, 34, 46, 88, -87, 104, 10, 126, 20, -78, -127, -84, 57, -8, -119, -52, 59, 67, 78, 92, 31, -119, -54, -60, -84, 62, 95, -33, -96, -85, -10, 39, -69, -91, 108, -66, -81, 94, -52, 15, 122, 23, 32, 59, 90, 39, 14, 105, -77, -59, 119, -113, -20, 2, 9, -107, 106, 70, -35, 73, 124, 110, -90, 107, -123, -48, -84, 86, 81, -73, 105, 100, 32, 73, -116, -67, 14, -33, -92, -52, -94, 93, 75, 55, -7, 61, -79, -97, 53, -110, -1, 34, 22, -128, 105, -72, -102, -41, 47, 83, 45, -25, 80, -119, -30, 83, 125, 87, -112, 25, -16, 33, 115, 116, 40, -43, -69, 48, -120, -21, 61, -21, -127, 92, -90, -60, 75, 19, 123, -35, 40, -49, 88, 88, -52, 24, 114, -92, -78, -3, -83, -88, 93, -47, 47, 29, 74, 99, -89, -6, 18, -50, -27, -111, -36, 43, 77, 119, 65, -76, -60, -98, 57, -15, -52, 75, -47, 56, -63, 26, -128, 9, 99, 57, -15, 52, -87, 110, 17, -111, -55, 28, 109, -56, -67, 67, -77, -107, -120, -88, -46, 127, 24, 17, 16, 19, -33, -29, -53, -76, 43, -9, 30, -89, 97, -56, -96, 93, -60, 24, -49, -89, 42, -11, -60, 94, -110, -37, 61, -93, 103, -87, 31, 49, -113, 50, -22, 13, 10, 115, 77, 114, 34, 82, 62, -112, 43, -84, -74, 71, -13, -46, 33, 32, 15, -77, 103, 115, 17, -61, -50, -56, -18, -59, -61, -10, -35, 101, 123, -71, 8, -51, -35, -100, 81, 35, -53, 88, -69, -39, -2, 32, 105, -18, 80, -22, -86, -70, 92, 59, 80, -106, -67, 117, -91, -91, -75, 69, -71, 14, -17, -26, 115, 16, 74, -101, -123, -95, -84, 119, 98, 29, -98, 24, 124, -53, 25, -67, -22, -15, 30, 18, 116, -76, 75, 4, -40, 112, 111, -13, 5, 37, -13, 74, -102, 13, -15, -106, 115, -34, 47, -22, 98, 79, 48, -24, 4, -58, 28, -113, -59, -63, 36, -51, -123, 1, 123, 59, -58, 59, 10, 22, 124, 115, 124, 22, 17, 64, -19, 106, 91, 22, 27, -115, 99, -24, 103, 110, 95, -19, -73, -44, 32, -94];
    let filter: [i8; 216] = [12, 89, -38, 48, 8, -39, -37, 4, -75, -127, 34, 57, -63, 0, 37, -3, -14, 20, 49, -22, -22, 4, 67, 29, -41, -87, -27, 64, 35, -29, -30, 70, 86, -28, -53, 29, 56, 23, 39, 2, -65, 7, -127, -27, 49, 2, -13, 18, -45, -17, -9, 19, -17, -95, 36, -32, 1, 67, -62, 21, -37, -71, -100, 100, 21, -93, 20, 39, -80, 63, -14, -76, 11, 59, 46, 29, -47, 2, -127, 55, -71, 43, 124, 13, -28, -83, -28, -63, 8, -14, 25, -112, -34, 80, 16, -3, 3, 83, -18, -109, 3, -73, -32, 18, -55, 78, 64, -41, 21, 21, 17, -25, -2, 64, 52, -9, 115, 20, 21, 13, 56, -57, 36, -75, 47, -57, 74, 63, 48, 71, -26, 21, 40, -25, -34, -15, -80, 37, -59, -27, 127, -79, 52, 37, -103, 106, 17, 116, -47, -29, 120, -7, 76, -37, 9, 107, 66, -74, -53, -40, -2, -67, -3, -10, -92, 0, 10, 47, 25, 72, -67, -20, -53, -64, -32, 33, -17, -127, 64, 50, -16, -47, -42, -28, 8, -69, -24, -10, 12, 127, 24, 5, -21, 17, -125, -88, 35, 4, -43, -8, 42, -55, 122, 38, -10, 18, -22, 20, -27, -29, 61, 98, 72, 6, -105, 17];
    let bias: [i32; 6] = [1252, -466, -3664, -1743, 1431, -3431];
    let v = vector("CONV_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("dil_w", 1), ("dil_h", 1)], vec![t("int8", &[1, 12, 10, 4], &[0x3d00f6d8], &[2], &x), t("int8", &[6, 3, 3, 4], &[0x3bd3516f, 0x3ba77c4b, 0x3ba9682d, 0x3bbc6383, 0x3baddde0, 0x3b9c2da3], &[0, 0, 0, 0, 0, 0], &filter), t("int32", &[6], &[0x3954e8f4, 0x3928bf49, 0x392aaedf, 0x393dced0, 0x392f2d2c, 0x391d5ad2], &[0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 5, 4, 6], &[0x3d4ee723], &[5], &[]));
    let want: [i8; 120] = [21, -78, -128, -51, 121, 43, 127, 17, 44, -22, 127, -109, -128, -41, -128, -85, -128, -36, 36, 127, 127, -3, 52, 95, 127, 103, 18, -128, -114, -13, -89, -7, 105, 17, 93, 46, -70, -27, -62, 32, 127, 85, 33, 127, 15, 16, -111, -90, -128, -128, -36, 105, 49, 19, -25, -84, -77, 109, 127, 46, 127, 16, -50, -69, 84, -36, 127, -64, 63, -128, -99, 13, -59, 127, -11, -45, 8, 58, -11, 123, 74, 15, -7, 5, -106, -3, -74, -128, -90, -32, -30, 66, 116, 24, -128, -35, -45, -17, -89, -27, 127, 33, 8, -47, 127, -24, 37, -12, 98, -115, 35, -4, -30, 49, -121, -67, -16, 126, 104, -69];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_conv_3x3_s2_valid` (../shared), op 0.
#[test]
fn conv_2d_op_conv_3x3_s2_valid_op0_run1() {
    let x: [i8; 480] = [-45, 77, -114, 84, 73, 31, 3, 87, -18, -20, 48, -11, -102, 110, -84, -83, 57, 61, 42, -26, -46, 26, 126, 37, -59, -96, 22, 51, -118, -57, -76, -85, 55, 100, -8, -67, 43, -9, 76, 35, 119, -66, 56, 92, 60, 122, -10, -81, 92, -100, -23, 124, -38, 7, 77, -37, -125, 63, 79, 6, 9, -9, 112, 29, -57, 11, 62, -62, -95, -24, -69, 113, -115, -87, -41, -7, 100, 91, 56, 52, 126, -113, -60, 65, -49, -58, -111, -37, -77, 123, 61, -103, 122, 28, -77, -28, 67, -96, -10, 37, -92, 77, -15, -74, 4, -43, 69, -81, -24, -79, 106, 73, -58, 8, 125, -106, 91, 97, 71, -95, -5, -110, 98, 104, -31, -77, -71, 62, -28, 69, -54, -102, -66, 118, -30, -111, -38, 121, 93, -121, 0, -11, -38, -3, 96, -1, -87, -127, -122, -17, -86, 4, -76, -11, -84, 112, 61, 88, -121, 75, 78, 96, -28, 76, 117, 77, 51, 47, 111, -42, 107, 71, 88, -48, 39, 36, -59, 72, -6, 117, -97, 56, 13, 90, -48, -42, 34, -90, -116, 96, -21, -62, 87, 104, -24, -111, -121, 60, 1, -30, 75, -17, -63, -1, 113, -118, 9, -48, -10, -117, 8, -67, -41, 60, -13, -107, -95, 76, 121, 13, -10, -21, -7, -119, -26, -73, 7, 13, 102, -3, 118, 93, -119, -4, -44, -110, 96, 87, 117, -110, -124, 117, -88, -10, 85, -73, 55, 12, 43, -6, -98, -88, -15, 120, 77, 122, -1, 122, -6, -85, 3, -39, 18, -33, 91, -52, 98, -44, 18, 22, -56, -53, -110, -49, -100, 47, 107, -76, 1, -34, -82, -86, 0, -116, 5, 6, 65, 11, 99, 47, 110, -111, 1, 111, 24, 89, -45, -44, -21, -38, 10, -99, 62, 57, -85, -51, -15, -26, -54, -12, -116, 85, -75, 99, -102, -52, 45, -64, 25, 17, 70, -116, -68, -104, -120, 18, 26, -11, 39, 17, 125, 16, -52, -74, 60, 116, -5, -94, -93, -20, 77, -59, 39, -55, -14, -61, 86, -37, -88, 125, 52, -54, -93, 59, 79, 102, -127, -68, -30, 47, 117, -41, 65, 15, 111, 32, 65, -93, 106, 92, 61, 94, -55, 6, 51, -14, -126, -29, -47, 78, -99, -126, -9, 90, 13, 20, -110, -119, 84, -91, -76, -104, -73, 62, -59, 60, 49, -9, -32, 101, 38, -21, 50, 64, 50, 37, -50, -69, 64, -102, -26, -92, 42, 71, 121, 46, -23, -48, 59, 17, -44, 60, -83, 111, 123, -100, -61, 74, -34, 92, 81, 97, 96, -77, 65, -126, 84, -27, 27, -105, -11, -74, -25, -11, 74, 54, 49, -113, 118, -80, -125, 39, -100, -53, 89, -62, 53, -2, -35, 100, 76, -34, -104, -97, -45, 20, 14, 104, -127, 65, 64, 86, -4, -94, 91, 59, -84, 78, 69, 7];
    let filter: [i8; 216] = [12, 89, -38, 48, 8, -39, -37, 4, -75, -127, 34, 57, -63, 0, 37, -3, -14, 20, 49, -22, -22, 4, 67, 29, -41, -87, -27, 64, 35, -29, -30, 70, 86, -28, -53, 29, 56, 23, 39, 2, -65, 7, -127, -27, 49, 2, -13, 18, -45, -17, -9, 19, -17, -95, 36, -32, 1, 67, -62, 21, -37, -71, -100, 100, 21, -93, 20, 39, -80, 63, -14, -76, 11, 59, 46, 29, -47, 2, -127, 55, -71, 43, 124, 13, -28, -83, -28, -63, 8, -14, 25, -112, -34, 80, 16, -3, 3, 83, -18, -109, 3, -73, -32, 18, -55, 78, 64, -41, 21, 21, 17, -25, -2, 64, 52, -9, 115, 20, 21, 13, 56, -57, 36, -75, 47, -57, 74, 63, 48, 71, -26, 21, 40, -25, -34, -15, -80, 37, -59, -27, 127, -79, 52, 37, -103, 106, 17, 116, -47, -29, 120, -7, 76, -37, 9, 107, 66, -74, -53, -40, -2, -67, -3, -10, -92, 0, 10, 47, 25, 72, -67, -20, -53, -64, -32, 33, -17, -127, 64, 50, -16, -47, -42, -28, 8, -69, -24, -10, 12, 127, 24, 5, -21, 17, -125, -88, 35, 4, -43, -8, 42, -55, 122, 38, -10, 18, -22, 20, -27, -29, 61, 98, 72, 6, -105, 17];
    let bias: [i32; 6] = [1252, -466, -3664, -1743, 1431, -3431];
    let v = vector("CONV_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("dil_w", 1), ("dil_h", 1)], vec![t("int8", &[1, 12, 10, 4], &[0x3d00f6d8], &[2], &x), t("int8", &[6, 3, 3, 4], &[0x3bd3516f, 0x3ba77c4b, 0x3ba9682d, 0x3bbc6383, 0x3baddde0, 0x3b9c2da3], &[0, 0, 0, 0, 0, 0], &filter), t("int32", &[6], &[0x3954e8f4, 0x3928bf49, 0x392aaedf, 0x393dced0, 0x392f2d2c, 0x391d5ad2], &[0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 5, 4, 6], &[0x3d4ee723], &[5], &[]));
    let want: [i8; 120] = [54, 30, 36, -39, 14, -92, -46, -36, 113, 58, 88, -57, 127, -19, -63, 84, 21, -128, -128, 78, 37, -101, 15, 18, -47, 27, 33, 8, -109, -29, 114, 14, 54, -109, -37, 3, -55, 76, -39, 13, -106, -29, -115, -93, 49, 33, -27, 38, 56, 49, 39, 14, 127, 59, 41, 15, 127, -64, 19, 81, 59, -68, 124, -41, 100, -94, -128, 6, -40, 82, -45, -65, 34, -83, -4, 127, 83, 25, -80, -128, -105, 54, -62, 67, 66, 103, 19, 86, 125, -61, -89, 17, -8, -52, -113, -128, -2, -10, -17, 127, -70, 11, 27, -15, -93, -44, 77, -128, 117, -52, -128, 66, -30, 10, -14, 76, 47, 121, 105, 81];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_dw_3x3_s1_same_relu` (../shared), op 0.
#[test]
fn depthwise_conv_2d_op_dw_3x3_s1_same_relu_op0() {
    let x: [i8; 486] = [87, 45, -52, 65, 37, 13, 76, -99, 73, 3, -42, -102, 17, 114, 121, -60, 84, 28, 127, 99, 74, -38, -63, -79, 5, 52, 92, -52, -28, -51, -104, -37, -74, 127, -91, -15, -48, 11, 114, -119, 30, -5, -1, -31, -7, 76, 31, -72, -23, -33, -55, 31, -68, -23, -51, 122, 54, -6, 61, 60, 70, 99, 101, 114, -8, 87, 100, -107, 62, 61, 44, 62, 127, -84, 90, -49, 64, -127, 19, -59, -78, -35, -22, -12, -117, -31, -36, -3, -95, -56, 123, -96, -90, 12, -62, -126, -122, -79, -99, 10, -120, 21, -19, 51, 42, 112, 21, -119, -104, 72, -15, -53, -46, 14, 115, -61, 37, -2, -67, 84, 40, 0, -120, -84, 98, -57, 63, 66, -125, 59, 60, 60, 116, -114, 102, -25, -23, 49, 107, -71, -52, -55, -77, -76, -34, 115, 47, 109, 39, 12, -54, 85, 100, 46, -5, 72, 53, 29, 125, 54, 79, 117, 123, -96, -31, -125, -96, 112, -66, 0, 29, -9, 8, -58, 44, 9, -90, 119, 11, 114, 67, 64, 43, 3, -52, 45, 39, -106, 39, -44, 69, -22, 53, 56, -8, 26, -4, 24, 120, 54, 27, 5, 56, -59, 69, -46, -77, 6, -61, -106, 92, 64, 75, 22, -51, 12, 88, -127, -97, -13, 123, 89, -37, 38, 110, -110, -112, -3, -101, 118, 70, 42, 109, 73, 38, -62, -111, 55, -121, 126, -45, -49, 123, -29, -4, -123, -81, -47, -114, 37, 31, -117, -29, 63, 43, 87, 93, 30, 90, -60, 63, 41, 124, 110, 72, -69, 114, -64, 48, 73, 83, 98, 64, -61, -58, 5, -1, 105, 73, 105, 99, 108, -109, 94, 41, -88, 90, 112, 103, -94, 65, 74, -78, -119, -33, 36, 123, 27, 87, 58, -17, 42, 57, -114, 79, 93, 22, 80, -51, 59, -82, 114, -75, 110, -20, 10, 62, -21, -126, 115, 9, -48, -88, -113, -2, 80, -63, -128, 31, 34, 74, -49, 44, -18, -122, -62, 106, 23, 91, 53, 16, -84, 109, -71, -115, 63, 107, 2, -41, -24, 51, -25, 31, -74, 83, -1, 46, 25, -117, -114, 14, -56, -114, 29, 83, -89, 41, -92, -44, -42, 65, 21, -1, 30, 38, -15, -119, -51, -14, -27, 68, -42, -69, 119, 48, -41, 76, 97, -96, 98, 91, 100, 114, -119, -26, -63, 107, 10, 111, -15, -31, -16, 0, -14, -72, -34, 71, -29, -119, -116, 122, -117, 98, 27, -127, 97, 25, 29, 118, -61, 48, -114, 8, -2, 33, 52, 112, 11, 107, 8, -73, -33, -87, 8, 20, -26, -83, 14, -2, 44, -62, 74, 13, -74, -99, 98, -40, 93, 62, -111, 49, 79, 112, 7, -120, -125, 43, 47, 1, 98, -126, 51, -24, -45, 113, -122, -111, 104, 80, -54, 17, 104, -87, -13, -1, 52, 37, 82, -91, 42, 92, 45, 112, 82, 107, 106];
    let filter: [i8; 54] = [67, 127, -5, 25, 18, -90, -15, 2, 127, -127, -78, -120, -28, -26, 1, 84, -29, -25, -127, -65, -3, 50, -127, 127, 40, -9, -4, 53, -33, -91, -75, -86, 8, -16, 46, -39, 83, 7, -15, -32, -80, -20, 22, -101, -11, -56, -73, 22, 13, 49, 7, -18, -28, 118];
    let bias: [i32; 6] = [26, -754, -148, -849, -1893, 10860];
    let v = vector("DEPTHWISE_CONV_2D", &[("padding", 0), ("stride_w", 1), ("stride_h", 1), ("act", 1), ("dil_w", 1), ("dil_h", 1), ("mult", 1)], vec![t("int8", &[1, 9, 9, 6], &[0x3cfbf2dd], &[0], &x), t("int8", &[1, 3, 3, 6], &[0x3b80e223, 0x3b89f66d, 0x3c1e0723, 0x3b8fb713, 0x3b505129, 0x3bb3c08c], &[0, 0, 0, 0, 0, 0], &filter), t("int32", &[6], &[0x38fdaffb, 0x3907c77f, 0x399b86ea, 0x390d70d7, 0x38cd0534, 0x3930e850], &[0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 9, 9, 6], &[0x3cd7e307], &[-128], &[]));
    let want: [i8; 486] = [-128, -128, -119, -124, -128, 34, -128, -128, -128, -128, -128, 56, -128, -111, -128, -128, -128, -128, -64, -128, -128, -128, -128, -12, -122, -128, -128, -128, -121, -117, -128, -128, -109, -96, -67, -128, -115, -80, -124, -128, -33, -44, -59, -72, -107, -128, -116, -86, -128, -128, -115, -128, -111, -123, -128, -128, -128, -128, -128, -43, -126, -85, -33, -110, -128, -42, -128, -128, 41, -41, -128, 84, -128, -64, 1, -128, -128, 127, -64, 20, -2, -68, -128, -112, -128, 19, -128, -128, -79, 30, 10, -128, 45, -31, -108, 54, -128, -128, -128, -128, -106, 15, -74, -128, -128, -128, -79, 94, -128, -73, -41, -57, -128, -128, -50, -62, -5, -128, -62, -128, -128, -58, -43, -128, -125, 8, -128, -128, 26, -127, -128, -113, -95, -98, -128, -95, -128, 81, -128, -128, -128, -128, -101, 54, -128, -128, -128, -128, -88, -111, -29, -128, -128, -58, -106, -43, -87, -128, -69, -128, -125, 26, -84, -47, -126, -118, -123, -123, -128, -55, -77, -128, -101, 18, -102, -128, -128, -22, -128, -92, -128, -54, -128, -128, -128, -92, -128, -111, 13, -128, -67, -128, -128, -128, -128, -71, -128, -25, -128, -128, -47, -128, -128, 127, -128, -90, 15, -128, -128, -62, -128, -34, 18, -128, -128, -128, -91, -128, -128, -42, -128, -104, -89, -128, -99, -128, -128, 58, -128, -128, -128, -128, -128, -128, -76, -68, -54, -119, -128, -126, -84, -69, -110, -98, -104, 127, -127, -128, -128, -128, -128, -2, -127, -65, -89, -99, -128, -128, -106, -119, -128, -96, -128, -106, -128, -128, -23, -128, -128, 27, -109, -128, -128, -128, -128, -128, -83, -128, 44, -3, -53, -128, -128, -127, -63, -128, -128, -83, -13, -63, -128, -128, -128, -77, -121, -128, 65, -60, -128, -128, -128, -128, -128, -128, -128, -12, -87, -128, -60, -128, -128, 1, -126, -112, -10, -128, -128, -63, -69, -128, 33, -85, -128, -128, -128, -123, -33, -78, -125, 7, -105, -71, -32, -128, -125, -127, -128, -57, -109, -6, -34, -128, -128, -78, -70, -120, -122, -108, -128, -128, 49, -128, -128, 42, -125, -7, -71, 5, -128, -128, -128, -128, -128, -128, -121, -128, -128, -24, -128, -128, -128, -128, -128, -43, -128, -117, -111, 76, -128, -100, -128, -76, -118, -128, -128, -115, -56, -114, -45, -58, -128, -128, 23, -128, -124, 61, -128, -128, -128, -128, -113, 1, -102, -128, -49, -119, -20, 114, -107, -128, -82, -128, -57, 60, -80, -2, -128, -128, -128, 127, -46, -128, -128, -128, -128, 1, -114, -128, -98, -128, -105, 40, -128, -128, -38, -76, -92, -128, -63, -128, -25, -128, -61, -110, -128, -128, 44, -5, -128, -28, -55, -122, 18, -128, -128, -35, -92, -119, -128, -124, -115, -128, -128, -128, 45, -65, -113, -69, -128, -128, -102, -128, -119, 46, -128, -78, -111, -82, -58, -119, -103, -128, 17, -95, -82, -91];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_dw_3x3_s1_same_relu` (../shared), op 0.
#[test]
fn depthwise_conv_2d_op_dw_3x3_s1_same_relu_op0_run1() {
    let x: [i8; 486] = [-100, -20, -80, -97, 53, 75, 21, 41, -85, 105, 85, 86, 61, 87, -75, -108, -4, -122, -55, 109, 50, 21, -107, 84, 31, -38, 100, -121, 24, -85, -87, 73, -61, -67, 52, 30, 109, 13, -53, 95, 41, -86, -13, -34, 89, -34, -122, 76, 113, -109, 103, 87, 3, 8, -92, 105, 118, -78, -74, -103, -19, -86, 16, 30, -104, 45, -52, -57, 5, 13, 92, 52, 54, -69, -106, -93, -91, -33, 124, 90, -77, -98, 12, -90, -43, 8, 66, 11, -43, -1, -74, -101, 60, -88, -59, -109, 126, 35, 112, -23, 93, -40, -77, -120, -44, -78, -74, 112, 110, 72, 40, -110, 56, 110, 92, 48, 39, -119, -124, 48, 4, 97, 32, 67, -92, 71, 56, -123, -89, 18, 77, 42, -78, -26, 25, 123, -54, -90, 5, 21, 25, -62, 80, -16, 79, -19, -97, 63, 29, 35, 104, 18, 5, -38, 110, 59, 33, 82, 115, -111, -58, 25, -3, -107, -65, -70, -109, -35, 64, 2, -2, 43, -25, 80, -52, 114, -93, 25, 126, 59, -69, -4, 44, 79, 76, 61, 33, 80, 116, 48, 83, -74, 2, -95, 65, 107, -56, -76, -15, 70, -51, -31, 8, 97, 112, -111, -55, 41, -11, 42, -48, 110, -36, -99, 99, -58, -79, -15, -102, -34, 20, 53, -87, 103, -53, 47, 117, 36, 2, -48, -27, -29, -92, 113, 84, 108, -28, -63, -12, -11, -37, -63, -90, -100, 119, 16, -117, 14, 95, -32, 124, -66, -67, -59, -70, -87, 71, 59, 96, 122, -10, -84, -34, -75, 3, 54, 58, -56, -10, 36, 66, -101, 127, 91, -35, 107, -100, -115, 95, 121, -88, -83, -67, 95, -106, 127, 2, -66, -61, -56, 89, -116, 23, 116, -119, 18, -1, 51, 92, -23, -48, 126, -122, -94, -7, 58, -36, 107, -24, -86, -15, 106, -16, -106, 45, 70, 15, 4, 42, -79, -66, 101, -123, -29, 7, 65, -34, 43, -50, -125, 39, 75, 10, 64, 32, -5, 115, -118, 8, 35, 74, 16, -81, -104, 96, -15, 75, -64, 68, 72, -27, 89, -98, -112, -67, 55, 32, -32, -18, 100, -66, -112, -95, 19, -105, 117, -25, 48, 109, 29, -54, 93, -65, -69, 127, 9, -77, -111, 12, -45, 41, -112, -120, 92, 67, -63, -87, 96, -55, -84, -114, 11, 41, 114, -5, -47, 82, 127, -43, 17, 86, 107, -3, -64, 113, -24, -102, -57, 66, 28, -45, -54, -94, 124, -76, -72, 44, 23, -75, 121, -105, 82, 11, 39, -109, 51, 32, 59, 66, -29, 106, -42, 57, 123, 79, 80, -37, 68, -98, 117, 61, -39, -78, 7, 77, 9, 63, -97, -63, -105, 75, 53, 105, -50, 59, 19, 100, -110, 110, 81, 110, -37, 102, -52, 8, -111, 50, 85, -38, 40, 57, -81, -106, 37, -103, -110, 82, 37, 48, -13, -114, 26, 103, 34, -34, 120];
    let filter: [i8; 54] = [67, 127, -5, 25, 18, -90, -15, 2, 127, -127, -78, -120, -28, -26, 1, 84, -29, -25, -127, -65, -3, 50, -127, 127, 40, -9, -4, 53, -33, -91, -75, -86, 8, -16, 46, -39, 83, 7, -15, -32, -80, -20, 22, -101, -11, -56, -73, 22, 13, 49, 7, -18, -28, 118];
    let bias: [i32; 6] = [26, -754, -148, -849, -1893, 10860];
    let v = vector("DEPTHWISE_CONV_2D", &[("padding", 0), ("stride_w", 1), ("stride_h", 1), ("act", 1), ("dil_w", 1), ("dil_h", 1), ("mult", 1)], vec![t("int8", &[1, 9, 9, 6], &[0x3cfbf2dd], &[0], &x), t("int8", &[1, 3, 3, 6], &[0x3b80e223, 0x3b89f66d, 0x3c1e0723, 0x3b8fb713, 0x3b505129, 0x3bb3c08c], &[0, 0, 0, 0, 0, 0], &filter), t("int32", &[6], &[0x38fdaffb, 0x3907c77f, 0x399b86ea, 0x390d70d7, 0x38cd0534, 0x3930e850], &[0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 9, 9, 6], &[0x3cd7e307], &[-128], &[]));
    let want: [i8; 486] = [-128, -128, -128, -128, -96, -104, -127, -128, -128, -117, -128, 42, -119, -128, -128, -128, -128, 38, -128, -94, -114, -111, -120, -128, -30, -128, -109, -112, -50, 43, -128, -128, -126, -128, -128, -128, -69, -82, -127, -95, -128, -48, -128, -128, -128, -96, -128, -82, -59, -55, -128, -91, -85, 20, -117, -128, -128, -5, -128, -29, -48, -128, -128, -128, -66, -128, -97, -128, -128, -22, -41, 22, -109, -30, -48, -128, -125, -26, -116, -45, 37, -128, -128, -51, -128, -128, -128, -86, -128, -28, -128, -80, -128, -128, -128, 102, 27, -18, 16, -72, -126, -128, -128, -128, -4, -128, -128, -128, -127, -90, 49, -73, -98, -7, -128, -103, -110, -128, -121, 62, -128, -128, -120, -128, -111, -88, -128, -128, -128, -128, -128, -48, -128, -128, -128, -69, -128, 45, -46, 20, -73, -128, -105, 11, -128, -128, -51, -92, -128, 39, -128, -124, 53, -128, -128, -45, -101, -128, -128, -103, -128, -102, -128, -101, -61, -128, -128, -116, -108, -128, -60, -54, -38, -128, -128, -36, -69, -128, -124, -128, -107, -128, -128, -27, -128, -90, -39, -128, -66, -128, -128, 55, -128, -128, -110, 28, -128, -7, -128, 12, -128, -128, -128, -128, -85, -128, -97, -93, -128, -50, -128, -112, 32, -52, -105, -29, -120, -128, -128, -119, -65, -128, -86, -116, -128, -128, -128, -128, -122, -128, -128, -128, -128, -105, -128, 2, -59, -128, -109, -26, -128, -128, 23, -128, -128, -1, -128, -83, -38, -128, -128, 127, -128, -128, -128, -72, -128, -128, -91, -75, -128, -128, -128, -90, -128, -128, -128, -128, -118, -125, -62, -106, -128, -93, -128, -128, -128, -128, -128, -128, -128, 44, -77, 11, -128, -79, -91, -128, -20, -123, -128, -128, -128, -128, -82, -128, -128, -117, -128, 107, -34, -128, 7, -128, -128, 11, -128, -70, -128, -128, -97, 5, -128, -128, -128, -128, -81, -35, -98, 18, -79, -69, -90, -50, -126, -128, 43, -110, -66, -104, -124, -128, 6, -128, -29, -128, -101, -128, -128, -128, -128, 109, -128, -128, 4, -42, -128, -50, -15, -128, -128, -128, -128, -57, -128, -128, -128, -72, -31, -128, -91, -15, -128, -65, -61, -128, -125, -22, -59, -128, -43, -89, -128, -128, -128, -128, -60, 89, -128, -128, -128, -128, -101, 21, -82, -114, -123, -128, -55, 63, -128, -94, -128, -60, -87, -127, 30, -128, 3, -21, -128, -99, -128, -128, -128, -128, -128, 127, -8, 9, -96, -89, -113, -128, -128, -128, -128, -109, -56, -128, -128, -128, 25, -127, -29, -16, -115, -128, 16, -128, -83, 58, -93, -128, -70, 7, -103, -128, -128, -128, -128, -128, -110, 38, -65, -128, -62, -128, -92, 71, -128, -74, -128, -128, -108, -128, -128, -47, 26, -120, -122, -80, -128, -128, -128, -93, -128, -128, -120, -64, -60, -128, -110, -128, -106, -128, -112, -128, -82, -128, -123, -46, -43, -90, -128, -128];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_dw_3x3_s2_valid_mult2` (../shared), op 0.
#[test]
fn depthwise_conv_2d_op_dw_3x3_s2_valid_mult2_op0() {
    let x: [i8; 330] = [-73, 56, -72, -26, -32, 24, -94, 7, -55, -102, 64, -101, -28, 9, -112, -59, 116, -22, 78, 28, -53, -53, -99, 111, -42, -80, -118, -83, 61, 102, 117, -21, 18, -1, 30, -38, -9, -102, 89, -56, 94, 14, -29, -125, 112, -94, -119, 122, 83, -118, 64, -59, -11, -15, 2, -96, 61, -79, -72, 31, 101, 53, 1, 69, -13, -85, -71, -75, -70, 50, -79, -81, 63, -121, 32, -69, -74, 26, -111, -42, -116, -66, 105, -44, -83, -92, -14, 15, -8, -78, 122, 31, 73, -110, 61, 125, 105, -48, -93, 122, 48, 25, -79, -4, 3, 70, -35, -95, -6, -70, -19, -119, 81, -94, 118, -115, -19, 84, -80, -31, -65, -52, -39, 62, -115, 6, 56, -54, -5, 117, 79, -68, 16, 49, 114, -81, 90, 100, 99, -122, 8, 20, -6, -91, 15, -118, -45, 86, 31, 37, -120, 23, 62, 68, -126, -33, 82, 7, -71, -57, -91, 28, 77, 97, 10, -78, 72, -98, 38, -73, -81, 63, 124, 109, 28, 112, 39, -101, -53, -126, 18, 86, -10, -57, 62, -78, -35, -79, -2, 65, -61, -60, 81, 20, -111, 68, -92, 104, 73, 22, 55, -53, -70, 6, 119, 80, -77, 0, -8, 50, -50, 113, 122, 28, 34, -51, -101, -104, -103, -51, -87, -58, 41, 111, -61, 1, 55, 91, -13, 81, 58, -63, -37, 117, 47, 62, -56, -41, 74, -56, 115, -114, -103, -96, -57, 2, -58, 66, 45, 90, -74, -20, -56, -106, 58, -67, 84, 57, -102, 102, 8, -88, 72, 112, -28, 29, 54, 67, -110, -34, 82, -116, -67, 95, -35, 54, 49, 49, -59, 111, -76, -66, 89, -77, 88, -6, 94, 16, -117, -69, -19, -5, 102, 22, -20, -53, 50, 44, -118, 31, -65, -4, -5, 69, 8, -34, 11, 118, -64, 117, -59, -28, -21, 58, -74, -45, -69, -71, -4, -117, -49, 43, -11, -82, -96, 19, -98, -103, -11, 0];
    let filter: [i8; 54] = [127, 121, -49, -32, 39, 40, 20, -125, -36, 36, -127, 127, 20, 17, -29, 73, -36, -34, 115, 34, 7, -49, 80, 29, 86, -127, 47, -90, 111, 4, -34, 20, -121, 35, 95, -57, -18, 39, 59, -127, -108, 66, -106, 29, -127, 24, -113, -15, 106, 42, 88, -14, 53, -54];
    let bias: [i32; 6] = [5414, 2021, -966, 7765, -2348, -3336];
    let v = vector("DEPTHWISE_CONV_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("dil_w", 1), ("dil_h", 1), ("mult", 2)], vec![t("int8", &[1, 11, 10, 3], &[0x3d031367], &[4], &x), t("int8", &[1, 3, 3, 6], &[0x3b5d7b9c, 0x3b35c9a3, 0x3b76669e, 0x3b6eda25, 0x3b48fdc6, 0x3bb93d96], &[0, 0, 0, 0, 0, 0], &filter), t("int32", &[6], &[0x38e2ce14, 0x38ba27eb, 0x38fc525f, 0x38f49776, 0x38cdd230, 0x393db11c], &[0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 5, 4, 6], &[0x3ce2b739], &[10], &[]));
    let want: [i8; 120] = [-31, 15, 52, -12, 29, 1, -39, 43, 56, 63, 127, -128, -64, 60, 13, 127, 60, 2, 75, 67, -31, 55, 52, 38, 82, 94, 77, -4, 99, -33, 53, -52, 24, 31, 60, -128, 106, 32, -3, 31, -116, 83, -108, 66, 15, 77, -17, -49, -31, -74, -27, 27, 10, 23, 81, 41, -47, 127, 15, -70, 35, 127, 120, -65, -80, 48, 127, 48, 90, -15, 45, -55, 36, 18, 83, 18, 63, -82, -104, -13, -30, 87, -28, -38, 87, 0, -47, 63, -73, 16, 66, 74, -35, 14, 22, 30, 114, 69, 37, 113, -33, -15, -10, -71, 127, -73, 18, -77, 57, 13, 67, 43, 56, 63, -128, -11, 2, 79, -1, 68];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_dw_3x3_s2_valid_mult2` (../shared), op 0.
#[test]
fn depthwise_conv_2d_op_dw_3x3_s2_valid_mult2_op0_run1() {
    let x: [i8; 330] = [-96, -23, -53, 21, 22, -117, 36, -52, -101, 72, 46, -116, -8, 23, -2, -39, -61, 85, 66, -121, -38, -84, -45, -68, 15, 96, -54, -60, -73, 44, -14, -97, 91, 81, -125, -64, -32, -19, -10, 73, 99, -79, 97, 117, 23, -88, -37, -69, 62, -119, 54, -97, -101, -23, 37, 113, -4, 96, -125, -13, 17, -91, -4, 100, 28, -116, 59, -22, -78, 98, -57, -115, -107, -72, -115, 116, 91, -74, -102, -105, 105, 12, -65, 18, 94, 42, -84, 19, 84, 113, -127, -79, 118, 108, -117, -35, 41, -31, 109, -119, 6, -64, -94, 57, 86, -86, -50, -101, 71, 43, 49, 97, -20, -1, 7, 63, -59, 10, -128, -126, -99, -66, -107, -35, -120, 20, -62, 98, 99, -49, -17, 124, 97, 108, 22, -103, -13, -61, -65, -50, -34, 32, 63, -67, -1, 47, 62, -89, 75, 66, -21, 16, 38, 100, 48, -12, -100, -2, 101, -111, -57, -35, 31, 80, -16, -103, -100, 95, -5, -117, 88, -107, -44, 4, -93, 50, 40, -123, -94, 40, -19, -56, -65, -110, -39, -99, -101, 21, 13, 45, -79, 69, -8, 49, 25, 4, -92, 21, -20, 118, 41, -84, -124, 6, 41, 27, -56, -57, 108, -64, -71, 15, 115, -91, 113, -12, -95, -91, 63, 56, -10, -76, 127, 94, -17, 48, 5, -60, 104, -44, 43, -64, -95, -112, -101, -95, 126, -59, 40, -83, 19, 120, -71, -122, -91, 80, -6, 127, -118, -35, -122, 33, -64, 54, 23, 110, -19, 102, 70, -115, 80, 103, -48, -24, -82, 37, 39, -59, -87, -65, -41, -10, -116, 94, -66, 57, -78, 50, -58, -127, 9, 34, 123, 113, -33, 89, -9, -84, 47, 22, -8, 125, -105, 28, -14, -10, -47, 86, 114, -11, -11, 62, -40, 100, -86, 7, 100, -36, 67, 82, -62, -35, -103, -31, -5, 78, 82, 3, -121, 49, -4, -60, 105, 16, -36, -128, -85, 40, -65, 46];
    let filter: [i8; 54] = [127, 121, -49, -32, 39, 40, 20, -125, -36, 36, -127, 127, 20, 17, -29, 73, -36, -34, 115, 34, 7, -49, 80, 29, 86, -127, 47, -90, 111, 4, -34, 20, -121, 35, 95, -57, -18, 39, 59, -127, -108, 66, -106, 29, -127, 24, -113, -15, 106, 42, 88, -14, 53, -54];
    let bias: [i32; 6] = [5414, 2021, -966, 7765, -2348, -3336];
    let v = vector("DEPTHWISE_CONV_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("dil_w", 1), ("dil_h", 1), ("mult", 2)], vec![t("int8", &[1, 11, 10, 3], &[0x3d031367], &[4], &x), t("int8", &[1, 3, 3, 6], &[0x3b5d7b9c, 0x3b35c9a3, 0x3b76669e, 0x3b6eda25, 0x3b48fdc6, 0x3bb93d96], &[0, 0, 0, 0, 0, 0], &filter), t("int32", &[6], &[0x38e2ce14, 0x38ba27eb, 0x38fc525f, 0x38f49776, 0x38cdd230, 0x393db11c], &[0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 5, 4, 6], &[0x3ce2b739], &[10], &[]));
    let want: [i8; 120] = [-10, -45, -49, 127, 91, -47, -43, -24, -34, 60, 68, -128, -53, 66, -22, 22, 59, -33, 85, 126, -29, 127, -24, 15, 17, -94, 103, 127, 127, -128, 111, 41, 77, -31, 9, -95, -97, -55, 8, -6, 17, -107, 38, -60, -30, 101, 64, 48, 12, -88, 56, 69, 72, -102, -102, 43, -9, 74, -62, 124, 32, 127, 127, -25, 89, -91, 24, 10, 74, 47, 31, -54, -3, 61, 127, -87, 58, -115, -73, -79, 77, -2, -12, -5, 68, 23, 5, 9, -58, -49, -30, 82, 40, 104, 9, -5, 50, 45, -9, 49, -34, 19, -128, 81, -49, 44, -59, 13, 12, -91, -30, 5, -96, 52, 127, -75, -74, 91, -9, 21];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_fc_37_19_relu` (../shared), op 0.
#[test]
fn fully_connected_op_fc_37_19_relu_op0() {
    let x: [i8; 37] = [107, -55, 106, -8, 6, -95, -4, -120, 17, 126, 125, 76, 80, -69, -43, -67, 71, 116, 98, -57, -101, -72, -4, 101, 101, 108, 106, 28, -30, 44, -47, 10, 27, 111, -76, -34, -47];
    let filter: [i8; 703] = [56, -8, -20, 33, 62, -20, -4, 16, 53, -15, -52, 44, 61, -63, 26, 23, 59, -35, -63, -32, 22, 18, -70, -15, -30, -40, 34, 74, -11, 36, 44, -4, -4, 127, 1, 2, -75, 36, 12, 92, 16, -9, 17, 21, 65, -6, 19, 62, 30, 52, -59, 11, 5, -1, 53, -31, -18, -73, -93, -6, 10, -24, 73, -127, -20, 20, 42, 33, -7, 42, -11, 0, 13, 65, -4, 25, -54, 14, -4, 127, -80, -67, 9, 28, -57, 3, -66, 15, 66, 17, 19, 6, 7, 78, -19, 5, 37, -5, 23, 26, 93, -52, 29, -82, 5, 42, -9, 1, -50, 20, 65, 39, 37, -48, 104, 16, -27, 127, -11, 29, -25, -32, 52, 19, 29, -4, -52, 2, -40, -5, 52, -14, -29, 6, -40, 15, 57, 9, -41, -36, -35, -42, 61, 26, -15, -43, 5, 44, -3, 20, 27, -44, 2, -11, 1, -32, 33, 7, 19, 127, -51, -26, 87, 91, 23, -26, 49, 36, 36, 36, -62, 110, -55, 111, -85, -29, 52, 90, -32, -59, 29, 39, 3, -6, -7, -19, 66, -42, -75, 27, 30, -11, -22, 90, -57, -29, -51, -23, -89, -21, 44, -87, -49, 55, -36, 1, -43, 39, -62, 42, -51, -6, -127, -2, -46, 29, 27, 19, -44, 47, -6, -21, -23, 78, 20, -25, -47, -36, -7, -74, 34, 12, 78, 65, 3, 6, -23, 39, -27, -9, 118, 67, -4, -2, -3, -25, 20, -35, 21, 43, -127, 20, 10, 6, -4, -43, 12, -80, -25, -85, -99, 2, -3, -38, 11, -34, 21, 47, 7, -18, -18, -38, 110, -4, 119, 21, -117, -88, -41, 19, 3, 127, 96, 23, -4, -25, -58, -49, -17, -80, -72, 52, 33, -50, 43, 65, 35, -25, -42, 30, 127, -4, 26, -21, -99, 63, -9, -119, -14, 52, 120, -35, -30, -27, -80, -33, 97, -52, -64, -125, -78, 33, -71, -16, 94, -18, 72, -49, -70, 70, -45, 60, -46, -44, 101, 1, -2, -3, -66, 1, 6, 62, 78, -38, -18, 11, -64, -72, 17, -4, -45, -13, -44, -37, 57, -53, 65, -33, 70, 42, -105, -25, -25, -27, -15, -11, 2, 40, 127, 9, -21, -9, 81, 53, -20, 39, -81, 113, 84, 127, -37, -36, -46, -85, 54, 1, 69, -62, 10, 26, 84, 10, 42, 73, 51, -46, -19, 16, -53, -43, -57, -107, -12, -17, -17, -58, 17, -18, -127, -40, 26, 29, 36, -60, -97, -43, -5, 54, -99, -119, 1, -76, -94, -48, -62, -4, 55, -64, 55, -45, 119, -50, -42, -6, 5, 2, 64, -34, 28, 19, 64, 113, -82, 19, 36, -5, -45, 109, -15, -70, 22, 87, 70, -44, 74, -71, 0, 50, 28, 107, 10, 65, -30, -16, -49, -21, 19, -29, -82, 19, 71, -127, 5, 20, -71, -2, 3, -69, -23, 6, 45, -117, 7, -10, 17, -10, -18, -18, -57, -81, 92, 11, -20, -89, -105, 60, -8, 71, -127, 85, -8, 26, 97, -9, -16, -86, -75, -123, -84, -93, -70, -35, -97, 1, 34, -54, -38, 2, 59, 42, 94, -21, -21, 82, 44, 0, -20, 87, 44, -5, -16, -111, 1, 57, 29, -86, -49, 127, -33, 23, 45, -107, -25, 40, -1, 77, -39, -49, 67, -1, 30, -91, -43, 101, -34, 2, -120, 16, 41, 30, -35, -6, -32, 2, 16, -25, -81, 58, -46, -125, 27, 48, 24, 63, 81, 44, -23, -66, -42, -54, 127, 8, 18, 43, -118, -66, -46, 57, 44, -76, -111, 5, -70, 36, 1, -22, 5, -2, -8, -43, -12, -2, -9, 75, -49, 51, 37, -35, 13, 17, 32, 83, 67, -18, -45, 9, 38, 127, -26, -47, 79, 0, 34, 59, -98, 13, 90, -24, -63, 119, -42, -3, 84, -13, 20, -85, -5, 56, 16, 67, 5, 7, -25, -95, -70, -127, -2, -74, 20, 22, -61, 7, -5, 12, -29, 102, -16, -5, 3, -32, -1, -35, -46, 121, 10, 37, 3, 28, 47, 76, 85, 8, 13, -24, 45, 46, -34, -70, -11, -73, 6, -77, -19, -42, -68, -77, -123, 127, -45, -67, 9, -72, 47, -36, 60, 1, 32, 23, -4, -11, -44, 17, -34];
    let bias: [i32; 19] = [7022, 5385, -1939, 1970, 873, -3797, 1000, -176, 5294, -4603, 5273, 8688, 6259, -6024, 1205, -4583, -2442, -1412, 6895];
    let v = vector("FULLY_CONNECTED", &[("act", 1), ("keep", 0), ("wfmt", 0)], vec![t("int8", &[1, 37], &[0x3cc43d8e], &[3], &x), t("int8", &[19, 37], &[0x3b57674e, 0x3b81a2cd, 0x3b57788e, 0x3b909af7, 0x3b54c52c, 0x3b72efcb, 0x3b92d9f3, 0x3b465b6d, 0x3b42e131, 0x3b804ab9, 0x3b66d525, 0x3b89f270, 0x3b736f41, 0x3b31dfa2, 0x3b6a0f26, 0x3b6743cd, 0x3b770b9e, 0x3b7a0d56, 0x3b8d0908], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &filter), t("int32", &[19], &[0x38a51ee3, 0x38c6bfa1, 0x38a52c1c, 0x38ddb2d4, 0x38a31a1f, 0x38ba3a01, 0x38e1245b, 0x38980db1, 0x38956345, 0x38c4b01d, 0x38b0f2b1, 0x38d37d92, 0x38ba9bb6, 0x388859fd, 0x38b36be1, 0x38b14784, 0x38bd604c, 0x38bfae56, 0x38d839a7], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 19], &[0x3cb3fbad], &[-128], &[]));
    let want: [i8; 19] = [-57, 19, -128, -115, -60, -128, 20, -128, -128, -112, -128, -66, -128, -128, -128, 20, -128, -80, -106];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_fc_37_19_relu` (../shared), op 0.
#[test]
fn fully_connected_op_fc_37_19_relu_op0_run1() {
    let x: [i8; 37] = [-62, 19, 117, -37, -66, 13, 50, 84, -81, -127, -45, 81, 103, 99, 55, 97, 52, -89, -97, 45, 127, 121, -95, -36, -4, 0, 76, -35, 120, -89, 88, -37, 17, 37, -104, 12, -6];
    let filter: [i8; 703] = [56, -8, -20, 33, 62, -20, -4, 16, 53, -15, -52, 44, 61, -63, 26, 23, 59, -35, -63, -32, 22, 18, -70, -15, -30, -40, 34, 74, -11, 36, 44, -4, -4, 127, 1, 2, -75, 36, 12, 92, 16, -9, 17, 21, 65, -6, 19, 62, 30, 52, -59, 11, 5, -1, 53, -31, -18, -73, -93, -6, 10, -24, 73, -127, -20, 20, 42, 33, -7, 42, -11, 0, 13, 65, -4, 25, -54, 14, -4, 127, -80, -67, 9, 28, -57, 3, -66, 15, 66, 17, 19, 6, 7, 78, -19, 5, 37, -5, 23, 26, 93, -52, 29, -82, 5, 42, -9, 1, -50, 20, 65, 39, 37, -48, 104, 16, -27, 127, -11, 29, -25, -32, 52, 19, 29, -4, -52, 2, -40, -5, 52, -14, -29, 6, -40, 15, 57, 9, -41, -36, -35, -42, 61, 26, -15, -43, 5, 44, -3, 20, 27, -44, 2, -11, 1, -32, 33, 7, 19, 127, -51, -26, 87, 91, 23, -26, 49, 36, 36, 36, -62, 110, -55, 111, -85, -29, 52, 90, -32, -59, 29, 39, 3, -6, -7, -19, 66, -42, -75, 27, 30, -11, -22, 90, -57, -29, -51, -23, -89, -21, 44, -87, -49, 55, -36, 1, -43, 39, -62, 42, -51, -6, -127, -2, -46, 29, 27, 19, -44, 47, -6, -21, -23, 78, 20, -25, -47, -36, -7, -74, 34, 12, 78, 65, 3, 6, -23, 39, -27, -9, 118, 67, -4, -2, -3, -25, 20, -35, 21, 43, -127, 20, 10, 6, -4, -43, 12, -80, -25, -85, -99, 2, -3, -38, 11, -34, 21, 47, 7, -18, -18, -38, 110, -4, 119, 21, -117, -88, -41, 19, 3, 127, 96, 23, -4, -25, -58, -49, -17, -80, -72, 52, 33, -50, 43, 65, 35, -25, -42, 30, 127, -4, 26, -21, -99, 63, -9, -119, -14, 52, 120, -35, -30, -27, -80, -33, 97, -52, -64, -125, -78, 33, -71, -16, 94, -18, 72, -49, -70, 70, -45, 60, -46, -44, 101, 1, -2, -3, -66, 1, 6, 62, 78, -38, -18, 11, -64, -72, 17, -4, -45, -13, -44, -37, 57, -53, 65, -33, 70, 42, -105, -25, -25, -27, -15, -11, 2, 40, 127, 9, -21, -9, 81, 53, -20, 39, -81, 113, 84, 127, -37, -36, -46, -85, 54, 1, 69, -62, 10, 26, 84, 10, 42, 73, 51, -46, -19, 16, -53, -43, -57, -107, -12, -17, -17, -58, 17, -18, -127, -40, 26, 29, 36, -60, -97, -43, -5, 54, -99, -119, 1, -76, -94, -48, -62, -4, 55, -64, 55, -45, 119, -50, -42, -6, 5, 2, 64, -34, 28, 19, 64, 113, -82, 19, 36, -5, -45, 109, -15, -70, 22, 87, 70, -44, 74, -71, 0, 50, 28, 107, 10, 65, -30, -16, -49, -21, 19, -29, -82, 19, 71, -127, 5, 20, -71, -2, 3, -69, -23, 6, 45, -117, 7, -10, 17, -10, -18, -18, -57, -81, 92, 11, -20, -89, -105, 60, -8, 71, -127, 85, -8, 26, 97, -9, -16, -86, -75, -123, -84, -93, -70, -35, -97, 1, 34, -54, -38, 2, 59, 42, 94, -21, -21, 82, 44, 0, -20, 87, 44, -5, -16, -111, 1, 57, 29, -86, -49, 127, -33, 23, 45, -107, -25, 40, -1, 77, -39, -49, 67, -1, 30, -91, -43, 101, -34, 2, -120, 16, 41, 30, -35, -6, -32, 2, 16, -25, -81, 58, -46, -125, 27, 48, 24, 63, 81, 44, -23, -66, -42, -54, 127, 8, 18, 43, -118, -66, -46, 57, 44, -76, -111, 5, -70, 36, 1, -22, 5, -2, -8, -43, -12, -2, -9, 75, -49, 51, 37, -35, 13, 17, 32, 83, 67, -18, -45, 9, 38, 127, -26, -47, 79, 0, 34, 59, -98, 13, 90, -24, -63, 119, -42, -3, 84, -13, 20, -85, -5, 56, 16, 67, 5, 7, -25, -95, -70, -127, -2, -74, 20, 22, -61, 7, -5, 12, -29, 102, -16, -5, 3, -32, -1, -35, -46, 121, 10, 37, 3, 28, 47, 76, 85, 8, 13, -24, 45, 46, -34, -70, -11, -73, 6, -77, -19, -42, -68, -77, -123, 127, -45, -67, 9, -72, 47, -36, 60, 1, 32, 23, -4, -11, -44, 17, -34];
    let bias: [i32; 19] = [7022, 5385, -1939, 1970, 873, -3797, 1000, -176, 5294, -4603, 5273, 8688, 6259, -6024, 1205, -4583, -2442, -1412, 6895];
    let v = vector("FULLY_CONNECTED", &[("act", 1), ("keep", 0), ("wfmt", 0)], vec![t("int8", &[1, 37], &[0x3cc43d8e], &[3], &x), t("int8", &[19, 37], &[0x3b57674e, 0x3b81a2cd, 0x3b57788e, 0x3b909af7, 0x3b54c52c, 0x3b72efcb, 0x3b92d9f3, 0x3b465b6d, 0x3b42e131, 0x3b804ab9, 0x3b66d525, 0x3b89f270, 0x3b736f41, 0x3b31dfa2, 0x3b6a0f26, 0x3b6743cd, 0x3b770b9e, 0x3b7a0d56, 0x3b8d0908], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &filter), t("int32", &[19], &[0x38a51ee3, 0x38c6bfa1, 0x38a52c1c, 0x38ddb2d4, 0x38a31a1f, 0x38ba3a01, 0x38e1245b, 0x38980db1, 0x38956345, 0x38c4b01d, 0x38b0f2b1, 0x38d37d92, 0x38ba9bb6, 0x388859fd, 0x38b36be1, 0x38b14784, 0x38bd604c, 0x38bfae56, 0x38d839a7], &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[1, 19], &[0x3cb3fbad], &[-128], &[]));
    let want: [i8; 19] = [-18, -128, -115, -121, -62, -128, -128, -49, -19, -128, -128, -128, -126, -128, -55, -98, -70, -128, -103];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_fc_batch3` (../shared), op 0.
#[test]
fn fully_connected_op_fc_batch3_op0() {
    let x: [i8; 24] = [-10, -31, 113, -118, -86, 77, 32, 30, -79, 29, -127, -44, -82, -37, -118, 80, 10, 16, 53, -32, 118, 90, -64, 22];
    let filter: [i8; 40] = [-127, -4, 9, 12, -18, -90, 114, -45, -115, -67, -123, 16, -59, -119, -59, 127, 9, 127, 55, -61, 27, 25, -11, -80, -81, -84, -1, 64, 23, 127, -8, -66, -84, 42, -39, 31, -13, 108, -84, 127];
    let bias: [i32; 5] = [-1167, -8718, 7190, 58, 1577];
    let v = vector("FULLY_CONNECTED", &[("act", 0), ("keep", 0), ("wfmt", 0)], vec![t("int8", &[3, 8], &[0x3ce04bf1], &[9], &x), t("int8", &[5, 8], &[0x3b9b3916, 0x3b6c6aa7, 0x3b6156fb, 0x3bd24f6f, 0x3b878f47], &[0, 0, 0, 0, 0], &filter), t("int32", &[5], &[0x3907ffff, 0x38cf2374, 0x38c56ef4, 0x393843e4, 0x38ed8b29], &[0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[3, 5], &[0x3d00c901], &[4], &[]));
    let want: [i8; 15] = [-4, -58, 42, 13, 14, -12, 127, -6, -48, 110, -77, -76, 57, 56, 54];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_fc_batch3` (../shared), op 0.
#[test]
fn fully_connected_op_fc_batch3_op0_run1() {
    let x: [i8; 24] = [80, -112, 103, 119, -9, -9, -100, 82, -16, -88, 46, -11, -107, -30, 81, -48, -108, -18, -49, 110, 58, 110, -117, 44];
    let filter: [i8; 40] = [-127, -4, 9, 12, -18, -90, 114, -45, -115, -67, -123, 16, -59, -119, -59, 127, 9, 127, 55, -61, 27, 25, -11, -80, -81, -84, -1, 64, 23, 127, -8, -66, -84, 42, -39, 31, -13, 108, -84, 127];
    let bias: [i32; 5] = [-1167, -8718, 7190, 58, 1577];
    let v = vector("FULLY_CONNECTED", &[("act", 0), ("keep", 0), ("wfmt", 0)], vec![t("int8", &[3, 8], &[0x3ce04bf1], &[9], &x), t("int8", &[5, 8], &[0x3b9b3916, 0x3b6c6aa7, 0x3b6156fb, 0x3bd24f6f, 0x3b878f47], &[0, 0, 0, 0, 0], &filter), t("int32", &[5], &[0x3907ffff, 0x38cf2374, 0x38c56ef4, 0x393843e4, 0x38ed8b29], &[0, 0, 0, 0, 0], &bias)], t::<i8>("int8", &[3, 5], &[0x3d00c901], &[4], &[]));
    let want: [i8; 15] = [-84, 5, -40, 31, 29, 82, -9, -3, 29, -62, -43, 43, -9, 127, 127];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_maxpool_2x2_s2_valid` (../shared), op 0.
#[test]
fn max_pool_2d_op_maxpool_2x2_s2_valid_op0() {
    let x: [i8; 384] = [-33, 97, -96, -116, -54, -57, -101, -64, -107, 109, 102, 121, -90, -6, -47, 41, 117, 56, -94, -86, 40, -67, 107, -70, -13, -63, 13, -95, 126, -54, -91, -78, -62, -54, -39, 58, -35, -76, 47, -110, 107, 110, 38, 53, -38, 111, 99, 113, 46, -83, -91, 6, 70, -48, -98, -30, 87, -39, 95, -50, 42, 11, 119, 7, 58, -120, 18, 8, 91, -43, -86, 36, -45, -12, -114, -28, -47, -49, 78, 106, 21, -60, 72, -81, 80, -108, -2, -124, 35, -110, 79, 87, 101, 101, -80, -30, -83, -22, 127, -57, 79, 107, -58, -105, 90, -115, -13, -27, 9, -6, 107, 53, -12, -104, 15, 53, 66, 11, 27, 15, -121, -35, -4, -107, -54, 117, -79, -123, -107, -8, -71, -112, -22, 81, 85, -7, 10, 62, 48, 76, -96, -106, -107, -13, 108, -62, -4, 74, 22, 55, -107, -109, -10, -124, 62, 109, 99, 6, 110, 27, -17, 61, -85, 7, -51, 63, 42, 16, -3, 56, -29, 78, 61, 29, -28, 112, -69, 74, 32, -31, -1, -96, 110, -122, 91, -67, -112, -51, -27, -8, -88, 22, -12, 28, -80, -59, -61, 87, 10, 16, 11, 124, 21, -67, 116, -32, 100, -113, 70, -102, -30, 56, -50, 99, -27, 65, 94, 73, 82, -120, -31, -99, -126, -120, 92, -60, 89, -77, 54, -110, 65, -12, 122, 79, 70, 26, -19, 49, 7, 54, 44, -29, 96, 51, -113, 82, -21, 88, 21, -29, -11, 43, 66, -58, -32, -84, 70, 51, -57, -85, 57, -70, -38, -123, -5, 13, -39, -55, 127, -30, -30, 14, 125, -80, 127, 72, -70, -116, 114, -20, -81, -80, 3, 42, 59, -87, 75, 106, 31, 3, 14, 30, 45, -53, 122, 17, -81, -113, 28, -124, -102, 97, 45, 117, 73, 32, -68, -45, 127, -51, 62, 16, 119, 11, 113, 118, -17, 80, 120, -69, -26, 3, 6, 100, -43, -73, 26, 82, 16, -118, 67, 0, 23, -103, -82, 45, -16, 53, -24, 51, 72, -46, -49, -128, 36, 21, 55, 23, 83, -31, -49, -124, 82, 10, 18, 105, -13, 43, -105, -118, 24, -94, 47, -109, -34, 108, -31, -114, 102, -116, 55, 39, -68, 37, 47, 59, 9, -8, 43, 36, -99, 65, 86, -88];
    let v = vector("MAX_POOL_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("filter_w", 2), ("filter_h", 2)], vec![t("int8", &[1, 8, 8, 6], &[0x3cf8ae4e], &[1], &x)], t::<i8>("int8", &[1, 4, 4, 6], &[0x3cf8ae4e], &[1], &[]));
    let want: [i8; 96] = [46, 97, 87, 109, 102, 121, 42, 11, 119, 41, 117, 56, 78, 106, 21, -28, 126, 58, 80, 87, 101, 111, 107, 113, 108, -22, 127, 74, 79, 109, 99, 53, 110, 63, 42, 61, -3, 112, -4, 78, 61, 117, 48, 81, 110, -7, 91, 62, 44, 88, 96, 124, 21, 87, 116, 56, 100, 99, 70, 65, 94, 73, 125, -55, 127, 72, 70, 42, 114, 49, 122, 106, 122, 53, 36, 51, 72, 23, 83, 105, 127, 117, 82, 32, 120, 11, 113, 118, 55, 108, 67, 37, 47, 82, 86, 45];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_maxpool_2x2_s2_valid` (../shared), op 0.
#[test]
fn max_pool_2d_op_maxpool_2x2_s2_valid_op0_run1() {
    let x: [i8; 384] = [-119, -61, 73, -97, 24, -1, -15, 14, 27, 1, 79, -82, -86, 93, -123, -21, -86, -19, 2, -88, 102, -117, 119, 119, 44, 125, -58, -103, -110, 120, 69, 29, -32, 36, 85, 8, -38, 118, 60, 17, -34, 75, -127, -9, 127, 94, -33, -121, 45, -81, -75, 97, 79, 88, -51, 25, 92, 13, 112, 93, -8, 5, -101, -54, 115, 92, 34, -59, 30, -76, 98, 9, 95, 0, -125, -100, -13, 99, 81, -5, 5, -45, 18, 25, -111, -29, -74, 28, -97, -99, -59, 69, 69, 82, -76, 101, 111, -96, -97, 30, 1, 45, 0, -46, 123, 10, 78, -45, 85, -64, 117, -47, -91, 4, -10, 70, 20, -39, -81, -36, 122, 21, -50, -122, 86, -90, -19, 27, -98, -110, -48, -1, 114, -61, -24, -55, 25, -100, 75, -11, -86, -63, -88, 87, -53, 76, -82, 126, 78, -14, 16, -30, -20, -89, -79, 72, 44, 100, -110, 112, 119, -85, -85, 72, -98, 92, -105, -28, 16, 97, -40, 86, 39, -45, -86, 11, -112, 54, -31, -63, -67, -71, -7, -103, 11, 28, -88, -82, 56, 88, 53, -68, -72, 47, -99, -61, 24, -119, -121, -110, -100, -42, -123, -127, -92, -24, 93, -85, -54, 103, -87, -107, -69, 15, 85, 88, 22, -25, 36, -56, 83, -29, 55, -98, 9, -66, -124, -70, 13, 30, 105, 71, -37, -83, 110, -22, -40, -21, 74, 28, -1, 87, 0, 124, 86, -75, -45, -61, -55, -23, -67, -57, -49, -119, -99, 66, -122, -56, -91, -19, -61, 45, 90, -23, -99, 68, 20, 47, 108, 68, 117, -84, 62, 5, -80, -77, -68, -28, -17, -91, 81, 21, 115, -49, -6, 50, 37, 117, 6, 99, -32, -17, 20, -11, -103, -82, 60, 84, 94, -72, -23, -77, 118, 90, 9, -51, 23, 108, 99, -27, -67, -20, 121, 109, 4, -117, 0, -110, -50, 36, -40, 79, 13, 51, -63, 113, 27, 79, -105, -32, 105, -34, -90, -64, 48, -65, -113, 32, 104, -2, 65, -90, -102, -102, -53, -86, 118, 16, 81, -54, -123, 45, 73, 81, 78, -105, -28, -62, 67, 104, 81, -16, 54, 68, 5, 16, -125, -27, 92, -49, 104, -99, 101, 17, -4, 72, -73, -23, 70, -62, 69, -102, 103, 5];
    let v = vector("MAX_POOL_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("filter_w", 2), ("filter_h", 2)], vec![t("int8", &[1, 8, 8, 6], &[0x3cf8ae4e], &[1], &x)], t::<i8>("int8", &[1, 4, 4, 6], &[0x3cf8ae4e], &[1], &[]));
    let want: [i8; 96] = [45, 25, 92, 97, 112, 93, 34, 93, 102, -21, 119, 119, 95, 125, 5, 36, 85, 120, -38, 118, 127, 94, -33, 101, 111, 76, 123, 126, 78, 72, 85, 100, 117, 112, 119, 4, 122, 97, -40, 86, 86, -1, 114, -11, 56, 88, 53, 87, -1, 87, 0, 124, 86, -57, -49, -19, 93, 66, 90, 103, 117, 68, 62, 47, 108, 68, 115, 30, 105, 71, 81, 117, 6, 99, 104, 84, 118, 16, 81, 108, 118, 90, 73, 104, 121, 109, 92, 79, 104, 51, 105, 113, 69, 79, 103, 5];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `op_maxpool_3x3_s2_same` (../shared), op 0.
#[test]
fn max_pool_2d_op_maxpool_3x3_s2_same_op0() {
    let x: [i8; 216] = [108, 106, 81, -65, -87, 69, -36, 89, -21, -99, -30, -50, 86, -20, -48, -47, 107, -17, -82, -10, -24, -116, -116, -115, 88, 104, -2, -42, -9, 64, 97, 108, 95, 101, -127, -103, 18, 118, -75, -67, -19, -33, 48, 71, -42, 103, -91, 87, 97, 122, -36, -94, -103, 22, -41, 15, -65, -90, -8, 103, -60, 91, 112, -67, 94, -111, 28, -13, -10, 111, -8, -5, 109, 58, 64, -114, -37, -21, 99, 14, -41, 85, 119, -32, -79, 70, -36, -26, -44, 31, -80, 22, 92, -108, -116, 4, -14, 28, -26, 112, 57, 25, -116, -98, -116, -41, -83, 53, 89, -109, -76, 68, 84, 52, -73, -62, -64, -119, 73, 118, -95, 62, 50, 93, 7, -108, 52, 68, -24, 66, 14, -74, -3, -56, 27, 69, -123, 77, 48, 63, 112, 13, -96, -72, 31, -67, 60, -99, 28, -6, -15, 65, 21, -92, -58, -48, 109, -105, -24, 74, -71, 61, 45, 97, 81, 50, -14, -53, 57, 12, 105, 69, 9, 5, 67, -42, 93, 122, -15, -7, 93, -124, 29, -109, 0, -50, -1, 46, 127, 56, 123, 117, 118, 31, 41, -39, -89, 49, 55, 69, -45, -78, -110, -19, -70, -26, -126, -41, 108, -33, 63, -114, -11, 18, -14, 117];
    let v = vector("MAX_POOL_2D", &[("padding", 0), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("filter_w", 3), ("filter_h", 3)], vec![t("int8", &[1, 9, 8, 3], &[0x3cea53a6], &[-7], &x)], t::<i8>("int8", &[1, 5, 4, 3], &[0x3cea53a6], &[-7], &[]));
    let want: [i8; 60] = [108, 108, 95, 101, 118, 95, 86, 118, -17, 103, 71, 87, 109, 122, 95, 101, 119, 112, 48, 118, 112, 111, 71, 92, 112, 68, 64, 99, 119, 53, 89, 84, 112, 48, 73, 118, 93, 68, 105, 122, 68, 93, 109, 97, 127, 56, 123, 127, 118, 69, 105, 122, 69, 93, 93, 108, 127, 63, 123, 127];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 1 of `op_maxpool_3x3_s2_same` (../shared), op 0.
#[test]
fn max_pool_2d_op_maxpool_3x3_s2_same_op0_run1() {
    let x: [i8; 216] = [-48, -31, 77, -55, 96, 37, 41, 107, -64, -58, -29, 65, -56, 80, -121, 56, 11, 90, -35, -79, -79, 112, -41, -9, -42, -45, 6, 27, 85, 103, 39, 57, -9, -3, -5, -111, -64, 96, -76, 55, -29, -94, -57, -83, -33, 125, 4, -63, 1, -43, -38, -29, -95, 74, 27, -33, 9, 38, 15, 44, 38, -100, 56, -23, -24, -94, 66, 34, -77, 71, 54, -71, 23, 14, 60, -30, -64, -14, -43, 77, 10, 69, -93, 32, 12, -80, 70, 83, 125, -40, 33, 4, -16, -32, -39, 91, -2, -128, 6, 5, -38, 104, 21, -124, 25, -42, 57, 15, 10, 123, 120, 23, -2, 48, 108, -73, 51, 105, 119, -76, -72, -98, -87, 22, -31, 20, 122, -73, 84, 61, -2, 4, 86, 53, 23, 30, -77, -29, -14, -30, -48, 1, 69, -25, 95, 109, 42, 85, -109, -90, 27, 86, -43, 11, 3, -58, -110, 106, -28, -27, -15, 69, -90, 52, -89, -122, -26, -9, 28, -94, -96, -96, -62, -116, 108, 7, -1, -20, -52, 21, 69, -90, -97, -36, -71, -38, -49, 95, 74, -53, 111, 64, 33, 13, 107, 54, 90, 5, -122, 0, 21, 68, -24, -73, 6, -124, 120, -98, 24, 99, -1, 82, 45, 67, -93, -3];
    let v = vector("MAX_POOL_2D", &[("padding", 0), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("filter_w", 3), ("filter_h", 3)], vec![t("int8", &[1, 9, 8, 3], &[0x3cea53a6], &[-7], &x)], t::<i8>("int8", &[1, 5, 4, 3], &[0x3cea53a6], &[-7], &[]));
    let want: [i8; 60] = [41, 107, 103, 41, 107, 65, 56, 96, 90, 125, 4, -9, 39, 85, 103, 69, 96, 70, 83, 125, 70, 125, 54, 91, 122, 77, 104, 122, 123, 120, 108, 125, 120, 108, 119, 91, 122, 109, 84, 122, 106, 84, 86, 106, 74, 1, 111, 74, 108, 90, 107, 108, 7, 120, 69, 95, 120, 67, 111, 74];
    assert_eq!(run(&v), want);
}

/// Expected output: TFLite Micro, golden run 0 of `tflm_person_detect_int8` (../shared), op 27.
#[test]
fn average_pool_2d_tflm_person_detect_int8_op27() {
    let x: [i8; 2304] = [-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -104, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -128, -128, -128, -128, -128, -128, -101, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -112, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -113, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -105, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -94, -128, -128, -83, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -67, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -109, -128, -128, -92, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -57, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -64, -128, -128, -128, -128, -128, -126, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -104, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -115, -127, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -120, -128, -128, -128, -128, -128, -128, -128, -128, -122, -128, -128, -95, -128, -128, -128, -128, -128, -128, -109, -128, -119, -128, -128, -101, -128, -128, -122, -128, -128, -120, -71, -128, -128, -128, -128, -128, -125, -128, -122, -128, -126, -126, -128, -122, -128, -128, -119, -128, -128, -128, -117, -128, -128, -128, -128, -128, -128, -128, -128, -101, -103, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -118, -128, -128, -128, -122, -127, -128, -128, -128, -128, -128, -124, -128, -128, -128, -128, -128, -128, -125, -128, -128, -127, -128, -128, -128, -128, -128, -128, -128, -93, -128, -128, -128, -128, -128, -128, -128, -128, -121, -106, -121, -128, -128, -128, -128, -128, -128, -117, -128, -128, -128, -128, -128, -128, -115, -128, -128, -128, -128, -128, -128, -128, -113, -128, -128, -128, -128, -128, -128, -128, -128, -128, -125, -128, -123, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -110, -128, -128, -128, -128, -127, -128, -110, -128, -122, -128, -128, -128, -128, -111, -128, -105, -128, -128, -128, -123, -128, -128, -117, -128, -128, -116, -115, -128, -128, -128, -123, -128, -128, -128, -127, -118, -125, -122, -105, -125, -128, -128, -128, -122, -120, -128, -128, -120, -128, -128, -123, -128, -107, -128, -128, -128, -121, -128, -128, -128, -128, -124, -128, -128, -116, -128, -128, -128, -112, -128, -128, -106, -127, -115, -128, -128, -119, -128, -128, -128, -128, -108, -118, -128, -128, -128, -112, -128, -123, -121, -103, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -112, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -106, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -124, -128, -115, -128, -128, -128, -128, -128, -128, -128, -128, -128, -118, -128, -128, -128, 7, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -118, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -105, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -54, -128, -128, -128, -128, -128, -125, -128, -37, -128, -87, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -88, -128, -128, -128, -122, -128, -128, -128, -98, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -116, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -102, -128, -128, -128, -128, -128, -128, -123, -128, -118, -106, -128, -113, -83, -128, -128, -111, -128, -128, -128, -128, -128, -128, -120, -128, -119, -128, -128, -128, -128, -128, -128, -110, -128, -128, -128, -128, -117, -128, -128, -128, -128, -128, -128, -127, -128, -128, -128, -128, -107, -128, -128, -128, -128, -128, -122, -128, -128, -128, -128, -59, -128, -128, -128, -128, -121, -128, -127, -114, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -111, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -92, -117, -127, -128, -128, -117, -122, -128, -128, -128, -128, -128, -128, -128, -128, -107, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -112, -128, -109, -118, -128, -119, -88, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -118, -128, -128, -128, -125, -128, -128, -128, -128, -88, -128, -128, -128, -128, -128, -128, -128, -122, -128, -128, -128, -128, -123, -128, -128, -128, -128, -128, -128, -128, -128, -111, -128, -128, -128, -120, -128, -128, -128, -118, -128, -128, -128, -128, -128, -128, -128, -122, -100, -126, -128, -128, -128, -128, -106, -94, -121, -98, -128, -128, -110, -128, -128, -100, -122, -116, -128, -112, -128, -128, -127, -128, -118, -96, -125, -111, -128, -92, -110, -128, -126, -106, -122, -96, -128, -124, -117, -93, -128, -118, -128, -123, -128, -128, -128, -128, -84, -112, -119, -124, -128, -128, -128, -128, -128, -128, -128, -128, -121, -128, -108, -127, -128, -128, -128, -109, -128, -128, -128, -128, -128, -128, -127, -128, -126, -119, -128, -128, -128, -128, -128, -105, -122, -121, -128, -128, -128, -122, -128, -97, -128, -122, -128, -100, -128, -125, -128, -128, -128, -121, -120, -128, -128, -128, -114, -128, -128, -128, -128, -128, -127, -125, -128, -128, -92, -128, -125, -128, -123, -126, -128, -120, -81, -128, -114, -128, -128, -128, -121, -128, -122, -128, -123, -128, -116, -108, -128, -126, -128, -128, -128, -127, -126, -128, -128, -128, -126, -128, -125, -121, -121, -128, -101, -117, -128, -128, -128, -128, -120, -128, -128, -128, -122, -128, -128, -87, -128, -128, -128, -109, -128, -128, -128, -128, -127, -128, -128, -120, -126, -108, -123, -128, -128, -128, -121, -127, -128, -122, -128, -125, -128, -128, -128, -103, -89, -128, -128, -128, -128, -128, -115, -128, -128, -128, -128, -128, -127, -128, -128, -128, -114, -128, -128, -128, -116, -110, -128, -128, -97, -106, -126, -127, -128, -100, -128, -128, -128, -128, -128, -123, -128, -116, -128, -126, -128, -128, -128, -128, -128, -115, -128, -128, -128, -128, -128, -128, -128, -128, -128, -113, -128, -128, -128, -128, -128, -128, -128, -128, -128, -54, -128, -128, -128, -128, -109, -128, -128, -128, -128, -128, -123, -128, -128, -34, -81, -128, -128, -128, -128, -128, -96, -128, -128, -124, -121, -128, -128, -128, -117, -128, -40, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -128, -31, -99, -128, -128, -128, -128, -111, -128, -128, -128, -128, -117, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -122, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -116, -128, -107, -91, -56, -125, -128, -128, -128, -113, -128, -128, -128, -128, -128, -128, -128, -120, -128, -128, -128, -128, -117, -128, -128, -128, -128, -128, -70, -124, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -116, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -104, -128, -128, -128, -128, -128, -128, -71, -128, -128, -118, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -109, -128, -115, -128, -128, -128, -128, -128, -128, -39, -119, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -61, -82, -128, -118, -128, -128, -128, -128, -128, -106, -128, -128, -40, -124, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -111, -128, -128, -128, -128, -128, -18, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -102, -99, -128, -52, -128, -128, -128, -124, -128, -74, -128, -55, -128, -92, -89, -128, -128, -125, -128, -112, -125, -102, -121, -75, -121, -128, -108, -112, -114, -111, -49, -128, -118, -88, -128, -128, -128, -116, -128, -128, -128, -128, -128, -128, -125, -128, -122, -128, -128, -128, -128, -128, -128, -128, -116, -128, -128, -123, -128, -128, -128, -76, -128, -61, -128, -128, -128, -128, -128, -128, -128, -128, -127, -128, -128, -128, -128, -90, -128, -101, -128, -128, -128, -128, -128, -128, -128, -125, -128, -58, -128, -128, -128, -128, -128, -104, -122, -128, -124, -128, -128, -128, -128, -128, -128, -128, -120, -94, -128, -128, -114, -120, -125, -128, -128, -128, -115, -73, -106, -128, -105, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -74, -123, -118, -128, -128, -128, -128, -128, -127, -128, -128, -128, -128, -127, -103, -128, -128, -86, -128, -128, -128, -123, -128, -128, -128, -128, -128, -128, -128, -128, -123, -128, -128, -128, -128, -60, -128, -128, -128, -128, -128, -123, -128, -128, -69, -128, -128, -128, -128, -119, -128, -128, -122, -128, -128, -128, -124, -125, -70, -128, -128, -128, -128, -128, -128, -67, -128, -128, -128, -127, -128, -128, -128, -128, -128, -119, -128, -98, -128, -128, -57, -128, -113, -91, -112, -128, -128, -128, -76, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -128, -121, -128, -128, -111, -128, -128, -128, -128, -125, -90, -128, -128, -128, -128, -120, -127, -128, -128, -128, -128, -128, -128, -128, -89, -96, -127, -68, -128, -128, -128, -128, -128, -62, -127, -103, -128, -114, -113, -128, -127, -128, -128, -97, -117, -98, -116, -65, -122, -128, -124, -123, -112, -74, -94, -126, -115, -66, -128, -128, -128, -117, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -120, -128, -128, -128, -125, -128, -117, -128, -128, -128, -128, -81, -128, -100, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -96, -128, -103, -128, -128, -128, -128, -128, -128, -128, -117, -128, -62, -128, -128, -128, -128, -128, -117, -121, -128, -116, -128, -128, -128, -128, -128, -128, -128, -126, -113, -128, -128, -86, -128, -128, -128, -128, -128, -128, -102, -87, -128, -115, -128, -128, -128, -128, -128, -128, -128, -124, -123, -128, -77, -123, -115, -128, -128, -128, -125, -128, -128, -128, -112, -128, -128, -123, -115, -128, -128, -74, -128, -128, -128, -119, -125, -128, -128, -128, -124, -128, -128, -128, -87, -128, -128, -128, -128, -105, -128, -117, -128, -128, -127, -128, -128, -128, -83, -128, -128, -128, -128, -122, -128, -124, -114, -128, -128, -128, -128, -128, -71, -89, -128, -128, -128, -128, -128, -74, -128, -128, -128, -128, -128, -128, -128, -123, -128, -119, -128, -110, -128, -128, -92, -128, -113, -73, -114, -128, -128, -123, -81, -128, -127, -128, -128, -128, -118, -128, -112, -128, -124, -128, -128, -128, -128, -128, -128, -122, -128, -126, -128, -128, -121, -121];
    let v = vector("AVERAGE_POOL_2D", &[("padding", 1), ("stride_w", 2), ("stride_h", 2), ("act", 0), ("filter_w", 3), ("filter_h", 3)], vec![t("int8", &[1, 3, 3, 256], &[0x3c987298], &[-128], &x)], t::<i8>("int8", &[1, 1, 1, 256], &[0x3c987298], &[-128], &[]));
    let want: [i8; 256] = [-128, -128, -126, -128, -126, -128, -127, -121, -128, -128, -128, -128, -120, -118, -115, -127, -97, -126, -128, -118, -128, -128, -111, -127, -106, -127, -99, -117, -128, -128, -126, -127, -112, -123, -119, -126, -110, -124, -125, -124, -119, -123, -116, -103, -127, -124, -112, -128, -124, -128, -125, -128, -128, -128, -128, -120, -123, -127, -128, -126, -128, -128, -128, -127, -128, -128, -128, -126, -128, -123, -124, -128, -128, -127, -115, -128, -107, -124, -128, -127, -123, -128, -124, -119, -127, -128, -126, -126, -128, -128, -118, -127, -121, -127, -128, -119, -127, -128, -121, -128, -126, -128, -107, -128, -127, -128, -127, -126, -121, -125, -128, -126, -128, -126, -128, -128, -124, -128, -126, -120, -99, -128, -128, -116, -127, -125, -128, -124, -128, -127, -110, -114, -128, -122, -128, -127, -128, -127, -125, -127, -128, -127, -127, -126, -108, -126, -125, -128, -128, -126, -128, -128, -128, -128, -126, -128, -128, -127, -121, -127, -128, -114, -125, -128, -124, -123, -128, -126, -128, -127, -127, -127, -126, -128, -116, -128, -128, -128, -125, -106, -128, -126, -128, -128, -127, -126, -121, -128, -114, -126, -128, -128, -128, -124, -127, -127, -123, -125, -125, -127, -125, -127, -103, -118, -128, -128, -127, -127, -128, -103, -127, -126, -128, -126, -127, -126, -128, -127, -128, -124, -128, -123, -128, -115, -105, -128, -124, -113, -122, -128, -125, -127, -109, -128, -128, -117, -128, -127, -126, -128, -123, -127, -127, -128, -128, -126, -125, -127, -126, -121, -127, -127, -125, -128, -126, -111];
    assert_eq!(run(&v), want);
}
