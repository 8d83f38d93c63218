use super::*;
use crate::kernels::test_util::Rng;
use proptest::prelude::*;
use std::vec::Vec;

/// Float oracle: TF bilinear with the same coordinate convention, rounded; the 10-bit
/// fixed point may differ from it by at most 1.
#[allow(clippy::too_many_arguments)]
fn oracle(input: &[i8], ih: usize, iw: usize, d: usize, oh: usize, ow: usize, half: bool, align: bool) -> Vec<f64> {
    let sy = if align && oh > 1 { (ih - 1) as f64 / (oh - 1) as f64 } else { ih as f64 / oh as f64 };
    let sx = if align && ow > 1 { (iw - 1) as f64 / (ow - 1) as f64 } else { iw as f64 / ow as f64 };
    let mut out = Vec::new();
    for y in 0..oh {
        let fy = if half { (y as f64 + 0.5) * sy - 0.5 } else { y as f64 * sy };
        let y0 = (fy.floor().max(0.0)) as usize;
        let y1 = (fy.ceil() as usize).min(ih - 1);
        for x in 0..ow {
            let fx = if half { (x as f64 + 0.5) * sx - 0.5 } else { x as f64 * sx };
            let x0 = (fx.floor().max(0.0)) as usize;
            let x1 = (fx.ceil() as usize).min(iw - 1);
            let (dy, dx) = (fy - y0 as f64, fx - x0 as f64);
            for c in 0..d {
                let v = |yy: usize, xx: usize| input[(yy * iw + xx) * d + c] as f64;
                out.push(v(y0, x0) * (1.0 - dy) * (1.0 - dx) + v(y1, x0) * dy * (1.0 - dx) + v(y0, x1) * (1.0 - dy) * dx + v(y1, x1) * dy * dx);
            }
        }
    }
    out
}

#[test]
fn identity_and_2x() {
    let input: Vec<i8> = (0..12).map(|v| (v * 10 - 60) as i8).collect();
    let p = prepare_resize_bilinear(1, 2, 3, 2, 2, 3, false, false).unwrap();
    let mut out = std::vec![0i8; 12];
    resize_bilinear_s8(&p, &input, &mut out);
    assert_eq!(out, input);
    // 1x1x2x1 [0, 100] -> 1x1x4x1: x * 0.5 -> [0, 50, 100, 100]
    let p = prepare_resize_bilinear(1, 1, 2, 1, 1, 4, false, false).unwrap();
    let mut out = [0i8; 4];
    resize_bilinear_s8(&p, &[0, 100], &mut out);
    assert_eq!(out, [0, 50, 100, 100]);
    // half pixel: coordinates (x + .5) * .5 - .5 = -.25, .25, .75, 1.25
    let p = prepare_resize_bilinear(1, 1, 2, 1, 1, 4, false, true).unwrap();
    resize_bilinear_s8(&p, &[0, 100], &mut out);
    assert_eq!(out, [0, 25, 75, 100]);
    assert!(prepare_resize_bilinear(1, 1, 2, 1, 1, 4, true, true).is_none());
}

proptest! {
    #[test]
    fn close_to_float(ih in 1usize..6, iw in 1usize..6, d in 1usize..3, oh in 1usize..12, ow in 1usize..12, mode in 0u8..3, seed in any::<u64>()) {
        let (align, half) = [(false, false), (true, false), (false, true)][mode as usize];
        let input = Rng(seed).i8s(ih * iw * d);
        let p = prepare_resize_bilinear(1, ih, iw, d, oh, ow, align, half).unwrap();
        let mut out = std::vec![0i8; oh * ow * d];
        resize_bilinear_s8(&p, &input, &mut out);
        let want = oracle(&input, ih, iw, d, oh, ow, half, align);
        for (g, w) in out.iter().zip(&want) {
            // 10-bit coordinates: error up to ~ 255 * 2^-10 * 2 plus rounding.
            prop_assert!((*g as f64 - w).abs() <= 1.6, "{} vs {}", g, w);
        }
    }
}
