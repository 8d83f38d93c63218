//! The overlap declarations ([`Rows::max_delta`] forward, [`Rows::min_delta`] reversed)
//! proven on every kernel family and variant that runs overlapped: each runs over one buffer
//! at every delta from the disjoint placement below the input up to the forward bound, and
//! from the reversed bound up to the disjoint placement above the input, and must equal its
//! non-overlapping result; one element beyond either bound must be rejected by [`run_rows`].

use super::*;
use crate::isa::TargetClass;
use crate::kernels::average_pool_2d::{average_pool_2d_s8, AveragePool2dParams};
use crate::kernels::conv_2d::{Conv2dParams, Conv2dVariant};
use crate::kernels::depthwise_conv_2d::{self, DepthwiseConv2dParams, DepthwiseConv2dVariant};
use crate::kernels::max_pool_2d::{max_pool_2d_s8, MaxPool2dParams};
use crate::kernels::numerics::{Clamp, QuantS8};
use crate::kernels::test_util::{multipliers, out_size, Rng};
use std::vec;
use std::vec::Vec;

/// A window geometry: (in_h, in_w, k_h, k_w, stride, dilation, pad_top, pad_bottom).
type Shape = (usize, usize, usize, usize, usize, usize, usize, usize);

const SHAPES: [Shape; 9] = [
    (6, 5, 3, 3, 1, 1, 1, 1),
    (7, 4, 3, 3, 2, 1, 1, 1),
    (8, 6, 3, 3, 2, 1, 0, 1),
    (5, 5, 1, 1, 1, 1, 0, 0),
    (6, 3, 1, 1, 2, 1, 0, 0),
    (9, 4, 5, 3, 1, 1, 2, 2),
    (9, 5, 3, 3, 1, 2, 2, 2),
    (10, 7, 4, 2, 3, 1, 1, 2),
    (4, 9, 2, 2, 2, 1, 0, 0),
];

fn conv_geometry(s: Shape, in_d: usize, out_d: usize, depthwise: bool) -> ConvGeometry {
    let (in_h, in_w, k_h, k_w, stride, dil, pt, pb) = s;
    let pl = k_w / 2;
    let oh = out_size(in_h, pt, pb, k_h, stride, dil);
    let ow = out_size(in_w, pl, pl, k_w, 1, 1);
    ConvGeometry {
        input_shape: [1, in_h, in_w, in_d],
        filter_shape: if depthwise { [1, k_h, k_w, out_d] } else { [out_d, k_h, k_w, in_d] },
        output_shape: [1, oh, ow, out_d],
        stride_height: stride,
        stride_width: 1,
        dilation_height: dil,
        dilation_width: 1,
        pad_top: pt,
        pad_left: pl,
    }
}

/// Runs `kernel` through [`conv_rows`]/[`pool_rows`] (`run`) at every delta up to the
/// forward bound and from the reversed bound on, comparing with `want`; one beyond either
/// bound must panic. Returns the deltas checked.
fn check_deltas<T: Copy + PartialEq + core::fmt::Debug + Default>(
    rows: &Rows,
    input: &[T],
    want: &[T],
    mut run: impl FnMut(&mut [T], usize, usize),
    what: &str,
) -> usize {
    let (Some(bound), Some(min)) = (rows.max_delta(), rows.min_delta()) else { return 0 };
    assert!(bound < 0 && min > 0, "{what}: the bounds must name the direction ({bound}, {min})");
    let (n_in, n_out) = (input.len() as i64, want.len() as i64);
    let mut at = |delta: i64| placed_at(input, want.len(), delta, &mut run);
    let mut checked = 0;
    // Forward: from the disjoint placement right below the input to the bound; reversed:
    // from the bound to the disjoint placement right above the input.
    for delta in (-n_out..=bound).chain(min..=n_in) {
        assert_eq!(at(delta), want, "{what}: delta {delta} (bounds {bound}, {min})");
        checked += 1;
    }
    // One beyond either bound (where it still overlaps) is rejected.
    for delta in [bound + 1, min - 1] {
        if -n_out < delta && delta < n_in {
            let rejected = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| at(delta))).is_err();
            assert!(rejected, "{what}: delta {delta} beyond the bounds {bound}, {min} was not rejected");
        }
    }
    checked
}

fn quant<'a>(input_offset: i32, output_offset: i32, mult: &'a [i32], shift: &'a [i32]) -> QuantS8<'a> {
    QuantS8 { input_offset, output_offset, output_multiplier: mult, output_shift: shift }
}

fn conv_variant(p: &Conv2dParams<S8Alias>, v: Conv2dVariant, input: &[i8], filter: &[i8], bias: Option<&[i32]>, packed: &[i32], output: &mut [i8]) {
    v.run(p, crate::variants::Operands { input, filter, bias, packed }, output);
}

type S8Alias = crate::kernels::numerics::S8;

/// Every CONV_2D variant this machine runs (the one selected for each target class, and the
/// reference), over one buffer at every allowed delta.
#[test]
fn conv_2d_overlapped_rows_equal_apart() {
    let mut rng = Rng(0x5eed_c0de);
    let mut checked = 0;
    let mut seen = Vec::new();
    for (k, &s) in SHAPES.iter().enumerate() {
        for &(in_d, out_d) in &[(3usize, 4usize), (4, 2), (2, 8)] {
            let mut g = conv_geometry(s, in_d, out_d, false);
            if g.filter_shape[1] == 1 && g.filter_shape[2] == 1 {
                g.pad_left = 0;
                g.output_shape[2] = g.input_shape[2];
            }
            let (mult, shift) = multipliers(&mut rng, out_d, -14, 1);
            let p = Conv2dParams::<S8Alias> { geometry: g, quant: quant(rng.range(-20, 20) as i32, rng.range(-20, 20) as i32, &mult, &shift), clamp: Clamp { min: -128, max: 127 } };
            let input = rng.i8s(g.input_shape.iter().product());
            let filter = rng.i8s(g.filter_shape.iter().product());
            let bias = rng.i32s(out_d, -(1 << 14), 1 << 14);
            let rows = Rows::conv_2d(&g).unwrap();
            for target in [TargetClass::Host, TargetClass::X86, TargetClass::ArmDsp, TargetClass::BUILD] {
                let mut variants = vec![Conv2dVariant::Reference, Conv2dVariant::select(&p, &filter, Some(&bias), target)];
                variants.dedup();
                for v in variants {
                    if v == Conv2dVariant::Gemm && target.is_host() {
                        continue;
                    }
                    let mut packed = vec![0; v.packed_len(&g)];
                    v.pack(&p, &filter, Some(&bias), &mut packed);
                    let mut want = vec![0i8; g.output_shape.iter().product()];
                    conv_variant(&p, v, &input, &filter, Some(&bias), &packed, &mut want);
                    let run = |span: &mut [i8], i: usize, o: usize| {
                        conv_rows(&g, span, i, o, |sub, x, y| {
                            let q = Conv2dParams { geometry: *sub, quant: p.quant, clamp: p.clamp };
                            conv_variant(&q, v, x, &filter, Some(&bias), &packed, y)
                        })
                    };
                    checked += check_deltas(&rows, &input, &want, run, &std::format!("conv shape {k} {v:?}"));
                    seen.push(v);
                }
            }
        }
    }
    for v in [Conv2dVariant::Reference, Conv2dVariant::Gemm, Conv2dVariant::GemmPw, Conv2dVariant::Pointwise, Conv2dVariant::Window] {
        assert!(seen.contains(&v), "{v:?} not reached");
    }
    assert!(checked > 1000, "{checked}");
}

/// Every DEPTHWISE_CONV_2D variant this machine runs, as for CONV_2D.
#[test]
fn depthwise_overlapped_rows_equal_apart() {
    let mut rng = Rng(0xd3_97);
    let mut checked = 0;
    let mut seen = Vec::new();
    let mut seen_ranged = Vec::new();
    for (k, &s) in SHAPES.iter().enumerate() {
        for &(in_d, mult_d) in &[(4usize, 1usize), (8, 1), (1, 8), (3, 2)] {
            let out_d = in_d * mult_d;
            let g = conv_geometry((s.0, s.1.max(4), s.2, s.3, s.4, s.5, s.6, s.7), in_d, out_d, true);
            let (mult, shift) = multipliers(&mut rng, out_d, -14, 1);
            let p = DepthwiseConv2dParams::<S8Alias> { geometry: g, quant: quant(rng.range(-20, 20) as i32, rng.range(-20, 20) as i32, &mult, &shift), clamp: Clamp { min: -128, max: 127 } };
            let input = rng.i8s(g.input_shape.iter().product());
            let filter = rng.i8s(g.filter_shape.iter().product());
            let bias = rng.i32s(out_d, -(1 << 14), 1 << 14);
            let rows = Rows::conv(&g).unwrap();
            for target in [TargetClass::Host, TargetClass::X86, TargetClass::ArmDsp, TargetClass::BUILD] {
                let mut variants = vec![DepthwiseConv2dVariant::Reference, DepthwiseConv2dVariant::select(&p, &filter, Some(&bias), target)];
                variants.dedup();
                for v in variants {
                    let mut packed = vec![0; v.packed_len(&g)];
                    v.pack(&p, &filter, Some(&bias), &mut packed);
                    let call = |q: &DepthwiseConv2dParams<S8Alias>, x: &[i8], y: &mut [i8]| {
                        v.run(q, crate::variants::Operands { input: x, filter: &filter, bias: Some(&bias), packed: &packed }, y)
                    };
                    let mut want = vec![0i8; g.output_shape.iter().product()];
                    call(&p, &input, &mut want);
                    let run = |span: &mut [i8], i: usize, o: usize| {
                        depthwise_rows(&g, span, i, o, |sub, x, y| call(&DepthwiseConv2dParams { geometry: *sub, quant: p.quant, clamp: p.clamp }, x, y))
                    };
                    checked += check_deltas(&rows, &input, &want, run, &std::format!("depthwise shape {k} {v:?}"));
                    // The kernels with a row-range entry, through the driver that gives it.
                    let ranged = |r: RowRange, x: &[i8], y: &mut [i8]| match v {
                        DepthwiseConv2dVariant::Mult1 => depthwise_conv_2d::depthwise_conv_2d_s8_mult1_rows(&p, r, x, &packed, y),
                        DepthwiseConv2dVariant::OneChannel => depthwise_conv_2d::depthwise_conv_2d_s8_one_channel_rows(&p, r, x, &packed, y),
                        _ => unreachable!(),
                    };
                    if matches!(v, DepthwiseConv2dVariant::Mult1 | DepthwiseConv2dVariant::OneChannel) {
                        let run = |span: &mut [i8], i: usize, o: usize| depthwise_row_ranges(&g, span, i, o, ranged);
                        checked += check_deltas(&rows, &input, &want, run, &std::format!("depthwise shape {k} {v:?} row ranges"));
                        seen_ranged.push(v);
                    }
                    seen.push(v);
                }
            }
        }
    }
    for v in [DepthwiseConv2dVariant::Reference, DepthwiseConv2dVariant::Window, DepthwiseConv2dVariant::Mult1, DepthwiseConv2dVariant::OneChannel] {
        assert!(seen.contains(&v), "{v:?} not reached");
    }
    for v in [DepthwiseConv2dVariant::Mult1, DepthwiseConv2dVariant::OneChannel] {
        assert!(seen_ranged.contains(&v), "{v:?} not reached through row ranges");
    }
    assert!(checked > 1000, "{checked}");
}

/// The `_int4` CONV_2D and DEPTHWISE_CONV_2D kernels (int4 filters kept packed: the
/// microcontroller builds' call, which runs overlapped like the variants it replaces), over
/// one buffer at every allowed delta, against the int8 reference on the unpacked filter.
#[test]
fn int4_overlapped_rows_equal_apart() {
    use crate::kernels::int4::{conv_2d_s8_int4, depthwise_conv_2d_s8_int4, pack, Int4Weights};
    let mut rng = Rng(0x1a74);
    let mut checked = 0;
    for (k, &s) in SHAPES.iter().enumerate() {
        for &(in_d, out_d) in &[(3usize, 5usize), (2, 2)] {
            let g = conv_geometry(s, in_d, out_d, false);
            let (mult, shift) = multipliers(&mut rng, out_d, -14, 1);
            let p = Conv2dParams::<S8Alias> { geometry: g, quant: quant(rng.range(-20, 20) as i32, rng.range(-20, 20) as i32, &mult, &shift), clamp: Clamp { min: -128, max: 127 } };
            let input = rng.i8s(g.input_shape.iter().product());
            let filter: Vec<i8> = rng.i8s(g.filter_shape.iter().product()).into_iter().map(|w| w >> 4).collect();
            let bias = rng.i32s(out_d, -(1 << 14), 1 << 14);
            let mut nibbles = vec![0u8; filter.len().div_ceil(2)];
            pack(&filter, &mut nibbles);
            let w = Int4Weights { nibbles: &nibbles };
            let mut want = vec![0i8; g.output_shape.iter().product()];
            crate::kernels::conv_2d::conv_2d_s8(&p, &input, &filter, Some(&bias), &mut want);
            let run = |span: &mut [i8], i: usize, o: usize| conv_rows(&g, span, i, o, |sub, x, y| conv_2d_s8_int4(&Conv2dParams { geometry: *sub, quant: p.quant, clamp: p.clamp }, x, &w, Some(&bias), y));
            checked += check_deltas(&Rows::conv_2d(&g).unwrap(), &input, &want, run, &std::format!("int4 conv shape {k}"));

            let dw_out = in_d * 2;
            let g = conv_geometry((s.0, s.1.max(4), s.2, s.3, s.4, s.5, s.6, s.7), in_d, dw_out, true);
            let (mult, shift) = multipliers(&mut rng, dw_out, -14, 1);
            let p = DepthwiseConv2dParams::<S8Alias> { geometry: g, quant: quant(rng.range(-20, 20) as i32, rng.range(-20, 20) as i32, &mult, &shift), clamp: Clamp { min: -128, max: 127 } };
            let input = rng.i8s(g.input_shape.iter().product());
            let filter: Vec<i8> = rng.i8s(g.filter_shape.iter().product()).into_iter().map(|w| w >> 4).collect();
            let taps = g.filter_shape[1] * g.filter_shape[2];
            let rows: Vec<i8> = (0..dw_out).flat_map(|c| (0..taps).map(move |t| (t, c))).map(|(t, c)| filter[t * dw_out + c]).collect();
            let mut nibbles = vec![0u8; rows.len().div_ceil(2)];
            pack(&rows, &mut nibbles);
            let w = Int4Weights { nibbles: &nibbles };
            let bias_dw = rng.i32s(dw_out, -(1 << 14), 1 << 14);
            let mut want = vec![0i8; g.output_shape.iter().product()];
            depthwise_conv_2d::depthwise_conv_2d_s8(&p, &input, &filter, Some(&bias_dw), &mut want);
            let run = |span: &mut [i8], i: usize, o: usize| {
                depthwise_rows(&g, span, i, o, |sub, x, y| depthwise_conv_2d_s8_int4(&DepthwiseConv2dParams { geometry: *sub, quant: p.quant, clamp: p.clamp }, x, &w, Some(&bias_dw), y))
            };
            checked += check_deltas(&Rows::conv(&g).unwrap(), &input, &want, run, &std::format!("int4 depthwise shape {k}"));
        }
    }
    assert!(checked > 500, "{checked}");
}

/// The int4 depthwise `Mult1` form (3x3, multiplier 1, groups of four channels, the filter
/// packed in its own table) band by band as the overlapped driver calls it, against the
/// reference on the unpacked filter.
#[test]
fn int4_mult1_overlapped_rows_equal_apart() {
    use crate::kernels::int4::{depthwise_conv_2d_s8_int4_mult1, DepthwiseInt4};
    let mut rng = Rng(0x3a11);
    let (mut checked, mut shapes) = (0, 0);
    for (k, &s) in SHAPES.iter().enumerate().filter(|(_, s)| s.2 == 3 && s.3 == 3) {
        for d in [4usize, 8] {
            let g = conv_geometry(s, d, d, true);
            // Right shifts only: the packed requantization `Mult1` needs.
            let (mult, shift) = multipliers(&mut rng, d, -14, -1);
            let p = DepthwiseConv2dParams::<S8Alias> { geometry: g, quant: quant(rng.range(-20, 20) as i32, rng.range(-20, 20) as i32, &mult, &shift), clamp: Clamp { min: -128, max: 127 } };
            let input = rng.i8s(g.input_shape.iter().product());
            let filter: Vec<i8> = rng.i8s(g.filter_shape.iter().product()).into_iter().map(|w| w >> 4).collect();
            let bias = rng.i32s(d, -(1 << 14), 1 << 14);
            let form = DepthwiseInt4::select(&p, &filter, Some(&bias));
            assert_eq!(form, DepthwiseInt4::Mult1, "shape {k}, depth {d}");
            let mut packed = vec![0i32; form.packed_len(&g)];
            form.pack(&p, &filter, Some(&bias), &mut packed);
            let mut want = vec![0i8; g.output_shape.iter().product()];
            depthwise_conv_2d::depthwise_conv_2d_s8(&p, &input, &filter, Some(&bias), &mut want);
            let run = |span: &mut [i8], i: usize, o: usize| depthwise_rows(&g, span, i, o, |sub, x, y| depthwise_conv_2d_s8_int4_mult1(&DepthwiseConv2dParams { geometry: *sub, quant: p.quant, clamp: p.clamp }, x, &packed, y));
            checked += check_deltas(&Rows::conv(&g).unwrap(), &input, &want, run, &std::format!("int4 Mult1 shape {k} depth {d}"));
            shapes += 1;
        }
    }
    assert!(shapes == 8 && checked > 50, "{shapes} {checked}");
}

/// AVERAGE_POOL_2D and MAX_POOL_2D (one implementation each).
#[test]
fn pools_overlapped_rows_equal_apart() {
    let mut rng = Rng(0x9001);
    let mut checked = 0;
    for (k, &(in_h, in_w, k_h, k_w, stride, _, pt, pb)) in SHAPES.iter().enumerate() {
        let d = 3;
        let oh = out_size(in_h, pt, pb, k_h, stride, 1);
        let ow = out_size(in_w, 0, 0, k_w, 1, 1);
        let g = PoolGeometry {
            input_shape: [1, in_h, in_w, d],
            output_height: oh,
            output_width: ow,
            filter_height: k_h,
            filter_width: k_w,
            stride_height: stride,
            stride_width: 1,
            pad_top: pt,
            pad_left: 0,
        };
        let input = rng.i8s(in_h * in_w * d);
        let rows = Rows::pool(&g).unwrap();
        let avg = AveragePool2dParams { geometry: g, clamp: Clamp { min: -100, max: 127 } };
        let mut want = vec![0i8; g.output_len()];
        average_pool_2d_s8(&avg, &input, &mut want);
        let run = |span: &mut [i8], i: usize, o: usize| pool_rows(&g, span, i, o, |sub, x, y| average_pool_2d_s8(&AveragePool2dParams { geometry: *sub, clamp: avg.clamp }, x, y));
        checked += check_deltas(&rows, &input, &want, run, &std::format!("average pool shape {k}"));
        let max = MaxPool2dParams { geometry: g, clamp: Clamp { min: -128, max: 100 } };
        max_pool_2d_s8(&max, &input, &mut want);
        let run = |span: &mut [i8], i: usize, o: usize| pool_rows(&g, span, i, o, |sub, x, y| max_pool_2d_s8(&MaxPool2dParams { geometry: *sub, clamp: max.clamp }, x, y));
        checked += check_deltas(&rows, &input, &want, run, &std::format!("max pool shape {k}"));
    }
    assert!(checked > 200, "{checked}");
}

/// The bound is the formula: a 3x3 stride-1 pad-1 convolution of equal row sizes needs its
/// output two rows below its input (rows 0 and 1 of the input are read by output row 1).
#[test]
fn max_delta_of_a_same_size_convolution_is_two_rows() {
    let g = conv_geometry((6, 5, 3, 3, 1, 1, 1, 1), 4, 4, false);
    let rows = Rows::conv(&g).unwrap();
    assert_eq!(rows.max_delta(), Some(-2 * 20));
    // Stride 2 halves the output rows: output row oy ends by row 2*oy - 1 of the input.
    let g = conv_geometry((8, 5, 3, 3, 2, 1, 1, 1), 4, 4, false);
    assert_eq!(Rows::conv(&g).unwrap().max_delta(), Some(-20));
    // A pointwise convolution streams pixels in calls of POINTWISE_BLOCK: its output starts
    // that many output pixels below its input (fewer when it narrows the channels).
    let mut g = conv_geometry((5, 5, 1, 1, 1, 1, 0, 0), 4, 4, false);
    g.pad_left = 0;
    g.output_shape[2] = 5;
    let rows = Rows::conv_2d(&g).unwrap();
    assert!(rows.pixels && rows.in_h == 25 && rows.block == POINTWISE_BLOCK);
    assert_eq!(rows.max_delta(), Some(-4 * POINTWISE_BLOCK as i64));
    g.filter_shape[0] = 2;
    g.output_shape[3] = 2;
    // Calls from pixel s write 2 * (s + 4) elements before input element 4 * s: the
    // first call binds.
    assert_eq!(Rows::conv_2d(&g).unwrap().max_delta(), Some(-8));
    // Depthwise (and the row drivers) keep image rows.
    assert!(!Rows::conv(&g).unwrap().pixels);
}

/// Apart, the driver makes one call; at the bound, calls of one row (or one block).
#[test]
fn calls_are_as_long_as_the_placement_allows() {
    let g = conv_geometry((6, 5, 3, 3, 1, 1, 1, 1), 4, 4, false);
    let rows = Rows::conv(&g).unwrap();
    let n = rows.out_h * rows.out_row;
    let calls = |delta: i64| {
        let base = (-delta).max(0) as usize;
        let mut span = vec![0i8; base + 2 * n];
        let mut calls = Vec::new();
        run_rows(&mut span, base, (base as i64 + delta) as usize, &rows, |oy0, oy1, _, _, _, _| calls.push((oy0, oy1)));
        calls
    };
    assert_eq!(calls(-(n as i64)), [(0, 6)]);
    // Output row 0 reads from input row 0 on, so the first call may take two rows.
    assert_eq!(calls(rows.max_delta().unwrap()), [(0, 2), (2, 3), (3, 4), (4, 5), (5, 6)]);
    // Two rows more room than the bound: the first call takes four rows (two more).
    assert_eq!(calls(rows.max_delta().unwrap() - 2 * rows.out_row as i64)[0], (0, 4));
}

/// An expanding pointwise convolution (4 to 16 channels, 25 pixels) walked from its end:
/// its output may start 4 elements above its input (the call of the last block ending at
/// pixel 5 writes from output pixel 1 while input pixels up to 5 are unread; the final call,
/// pixel 0, while input pixel 0 is), so the two share all but 4 elements of the input. The
/// forward bound would need the whole output below the input. Calls are as long as the
/// placement allows: at the bound, 16 pixels first (the output outruns the input there),
/// then one block where it binds; one call when apart.
#[test]
fn min_delta_of_an_expanding_pointwise_convolution() {
    let mut g = conv_geometry((5, 5, 1, 1, 1, 1, 0, 0), 4, 16, false);
    g.pad_left = 0;
    g.output_shape[2] = 5;
    let rows = Rows::conv_2d(&g).unwrap();
    assert_eq!(rows.min_delta(), Some(4));
    // Forward, the output grows past its input: the last block (pixels 24..25, from input
    // element 96) ends 25 * 16 elements after the output's start.
    assert_eq!(rows.max_delta(), Some(96 - 25 * 16));
    let calls = |delta: usize| {
        let mut span = vec![0i8; delta + 25 * 16];
        let mut calls = Vec::new();
        run_rows(&mut span, 0, delta, &rows, |oy0, oy1, _, _, _, _| calls.push((oy0, oy1)));
        calls
    };
    assert_eq!(calls(4), [(9, 25), (5, 9), (1, 5), (0, 1)]);
    assert_eq!(calls(100), [(0, 25)]);
    // 16 more elements of room: two calls.
    assert_eq!(calls(20), [(5, 25), (0, 5)]);
}

// ---- PAD and CONCATENATION (`copies`): reversed walks only. ----

/// Runs `run` (an overlapped copy kernel) at every delta from the declared `min` up to the
/// disjoint placement right above the input, and at the disjoint placement right below it,
/// comparing with `want`; one element below `min` (where the two still overlap) must be
/// rejected. Returns the deltas checked.
fn check_reversed<T: Copy + PartialEq + core::fmt::Debug + Default>(
    min: Option<i64>,
    input: &[T],
    want: &[T],
    mut run: impl FnMut(&mut [T], usize, usize),
    what: &str,
) -> usize {
    let Some(min) = min else {
        assert!(input.is_empty() || want.is_empty(), "{what}: no declaration for a non-empty copy");
        return 0;
    };
    let (n_in, n_out) = (input.len() as i64, want.len() as i64);
    let mut at = |delta: i64| placed_at(input, want.len(), delta, &mut run);
    let mut checked = 0;
    for delta in core::iter::once(-n_out).chain(min..=n_in) {
        assert_eq!(at(delta), want, "{what}: delta {delta} (bound {min})");
        checked += 1;
    }
    let beyond = min - 1;
    if -n_out < beyond && beyond < n_in {
        let rejected = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| at(beyond))).is_err();
        assert!(rejected, "{what}: delta {beyond} below the bound {min} was not rejected");
    }
    checked
}

/// The same walk without its checks, to show that the bound is tight: one element below it
/// the result differs (the binding step overwrote input still to be read).
fn pad_unchecked<T: Copy>(p: &crate::kernels::pad::PadParams<T>, span: &mut [T], input_at: usize, output_at: usize) {
    copies::pad_walk(p, |s| match s {
        copies::Step::Fill { at, len, .. } => span[output_at + at..output_at + at + len].fill(p.pad_value),
        copies::Step::Move { at, from, len, .. } => span.copy_within(input_at + from..input_at + from + len, output_at + at),
        copies::Step::Other { .. } => {}
    });
}

#[test]
fn pad_overlapped_equals_apart_at_every_allowed_delta() {
    use crate::kernels::pad::{pad, PadParams};
    let mut rng = Rng(0x9ad_0ff5e7);
    let mut checked = 0;
    let mut tight = 0;
    let mut negative = 0;
    for case in 0..120 {
        let rank = 1 + case % 4;
        let in_shape: Vec<usize> = (0..rank).map(|_| rng.range(if case % 11 == 0 { 0 } else { 1 }, 4) as usize).collect();
        let before: Vec<usize> = (0..rank).map(|_| rng.range(0, 2) as usize).collect();
        let after: Vec<usize> = (0..rank).map(|_| rng.range(0, 2) as usize).collect();
        let out_shape: Vec<usize> = (0..rank).map(|d| before[d] + in_shape[d] + after[d]).collect();
        let p = PadParams { input_shape: &in_shape, output_shape: &out_shape, before: &before, pad_value: -7i16 };
        let input: Vec<i16> = (0..in_shape.iter().product::<usize>()).map(|i| i as i16 + 1).collect();
        let mut want = vec![0i16; out_shape.iter().product()];
        pad(&p, &input, &mut want);
        let min = pad_min_delta(&p);
        let what = std::format!("pad {in_shape:?} before {before:?} after {after:?}");
        checked += check_reversed(min, &input, &want, |span, i, o| pad_overlapped(&p, span, i, o), &what);
        if let Some(m) = min {
            negative += usize::from(m < 0);
            // Input element 0 lands at output offset o(0); the walk never needs more room.
            let o0: usize = (0..rank).map(|d| before[d] * out_shape[d + 1..].iter().product::<usize>()).sum();
            assert!(m <= -(o0 as i64) || m == -(want.len() as i64), "{what}: bound {m} above -o(0) = -{o0}");
            if -(want.len() as i64) < m - 1 && m - 1 < input.len() as i64 {
                let base = (1 - m).max(0) as usize;
                let (ia, oa) = (base, (base as i64 + m - 1) as usize);
                let mut span = vec![0i16; (ia + input.len()).max(oa + want.len())];
                span[ia..ia + input.len()].copy_from_slice(&input);
                pad_unchecked(&p, &mut span, ia, oa);
                assert_ne!(&span[oa..oa + want.len()], &want[..], "{what}: one below the bound {m} still correct");
                tight += 1;
            }
        }
    }
    assert!(checked > 1000 && tight > 60 && negative > 60, "{checked} deltas, {tight} tight bounds, {negative} negative");
}

#[test]
fn pad_bound_puts_the_input_at_its_place_in_the_output() {
    use crate::kernels::pad::PadParams;
    // 2x3 padded by one everywhere: 4x5, input row 0 at output offset 6.
    let p = PadParams { input_shape: &[2, 3], output_shape: &[4, 5], before: &[1, 1], pad_value: 0i8 };
    assert_eq!(pad_min_delta(&p), Some(-6));
    // Only trailing padding: the output starts where the input does.
    let p = PadParams { input_shape: &[2, 3], output_shape: &[3, 4], before: &[0, 0], pad_value: 0i8 };
    assert_eq!(pad_min_delta(&p), Some(0));
}

#[test]
fn concatenation_overlapped_equals_apart_at_every_allowed_delta() {
    use crate::kernels::concatenation::{concatenation, prepare_concatenation, ConcatenationParams};
    let mut rng = Rng(0xc0_ca7);
    let mut checked = 0;
    let mut negative = 0;
    for case in 0..80 {
        let rank = 1 + case % 4;
        let shape: Vec<usize> = (0..rank).map(|_| rng.range(1, 3) as usize).collect();
        let axis = rng.range(0, rank as i64 - 1) as usize;
        let n = rng.range(1, 4) as usize;
        let shapes: Vec<Vec<usize>> = (0..n)
            .map(|_| {
                let mut s = shape.clone();
                s[axis] = rng.range(if case % 7 == 0 { 0 } else { 1 }, 3) as usize;
                s
            })
            .collect();
        let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
        let (mut offsets, mut lens) = (vec![0; n], vec![0; n]);
        let Some((outer, output_row)) = prepare_concatenation(&refs, axis, &mut offsets, &mut lens) else { panic!("{shapes:?}") };
        let p = ConcatenationParams { outer, output_row, offsets: &offsets, lens: &lens };
        let inputs: Vec<Vec<i32>> =
            shapes.iter().enumerate().map(|(k, s)| (0..s.iter().product::<usize>()).map(|i| (k * 1000 + i + 1) as i32).collect()).collect();
        let all: Vec<&[i32]> = inputs.iter().map(|v| v.as_slice()).collect();
        let mut want = vec![0i32; outer * output_row];
        concatenation(&p, &all, &mut want);
        for index in 0..n {
            let others: Vec<&[i32]> = all.iter().enumerate().filter(|&(k, _)| k != index).map(|(_, v)| *v).collect();
            let min = concatenation_min_delta(&p, index);
            if let Some(m) = min {
                // The input at its own place in the output (the copy of its first run is a
                // no-op) is always allowed.
                assert!(m <= -(offsets[index] as i64), "{shapes:?} axis {axis} input {index}: bound {m}");
                negative += usize::from(m < 0);
            }
            let what = std::format!("concatenation {shapes:?} axis {axis} input {index}");
            checked +=
                check_reversed(min, &inputs[index], &want, |span, i, o| concatenation_overlapped(&p, index, &others, span, i, o), &what);
        }
    }
    assert!(checked > 1000 && negative > 40, "{checked} deltas, {negative} negative bounds");
}

#[test]
fn concatenation_bound_of_each_input_is_its_offset_in_the_row() {
    use crate::kernels::concatenation::ConcatenationParams;
    // Two outer rows of [2 | 3 | 1].
    let p = ConcatenationParams { outer: 2, output_row: 6, offsets: &[0, 2, 5], lens: &[2, 3, 1] };
    assert_eq!(concatenation_min_delta(&p, 0), Some(0));
    assert_eq!(concatenation_min_delta(&p, 1), Some(-2));
    assert_eq!(concatenation_min_delta(&p, 2), Some(-5));
}

/// Runs `run` with `input` placed in a fresh span and the output `delta` elements from it
/// (`output_at - input_at`), and returns the `out_len` output elements.
fn placed_at<T: Copy + Default>(input: &[T], out_len: usize, delta: i64, run: &mut impl FnMut(&mut [T], usize, usize)) -> Vec<T> {
    let base = (-delta).max(0);
    let (input_at, output_at) = (base as usize, (base + delta) as usize);
    let len = (input_at + input.len()).max(output_at + out_len);
    let mut span = vec![T::default(); len];
    span[input_at..input_at + input.len()].copy_from_slice(input);
    run(&mut span, input_at, output_at);
    span[output_at..output_at + out_len].to_vec()
}
