use super::*;
use crate::kernels::test_util::{extremes, kernel_tests, KernelCase, Rng, LANE_TAILS};
use proptest::prelude::*;
use std::string::String;
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

type Kernel = fn(&ResizeBilinearParams, &[i8], &mut [i8]);

/// One NHWC image `ih x iw x d` resized to `oh x ow`; input from `seed`.
#[derive(Clone, Debug)]
struct Resize {
    ih: usize,
    iw: usize,
    d: usize,
    oh: usize,
    ow: usize,
    align: bool,
    half: bool,
    input: Vec<i8>,
}

impl KernelCase for Resize {
    type Kernel = Kernel;
    type Output = Vec<i8>;
    const REFERENCE: Kernel = scalar::resize_bilinear_s8;

    fn strategy() -> BoxedStrategy<Self> {
        (1usize..6, 1usize..6, 1usize..3, 1usize..12, 1usize..12, 0u8..3, any::<u64>())
            .prop_map(|(ih, iw, d, oh, ow, mode, seed)| {
                let (align, half) = [(false, false), (true, false), (false, true)][mode as usize];
                Resize { ih, iw, d, oh, ow, align, half, input: Rng(seed).i8s(ih * iw * d) }
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let r = |ih, iw, d, oh, ow, align, half| Resize { ih, iw, d, oh, ow, align, half, input: extremes(ih * iw * d) };
        let mut v = std::vec![r(2, 2, 0, 3, 3, false, false), r(1, 1, 3, 5, 7, true, false), r(8, 8, 1, 1, 1, false, true)];
        // Lane tails of the channel loop and of the output width.
        for n in LANE_TAILS {
            v.push(r(1, 2, n, 1, 4, false, false));
            v.push(r(3, n, 2, 2, n + 1, false, true));
        }
        v
    }

    fn prepares(&self) -> bool {
        prepare_resize_bilinear(1, self.ih, self.iw, self.d, self.oh, self.ow, self.align, self.half).is_some()
    }

    fn run(&self, kernel: Kernel) -> Result<Vec<i8>, String> {
        let Some(p) = prepare_resize_bilinear(1, self.ih, self.iw, self.d, self.oh, self.ow, self.align, self.half) else {
            return Ok(Vec::new());
        };
        let mut out = std::vec![0x55; self.oh * self.ow * self.d];
        kernel(&p, &self.input, &mut out);
        Ok(out)
    }

    /// TFLite's coordinates are 10-bit fixed point: the scale is rounded to 1/1024 (an
    /// error of at most 0.5/1024 per output step, so growing with the output size) and
    /// each coordinate and weight to 1/1024. An int8 value moves at most 255 per pixel, so
    /// the result may differ from the real interpolation by 255 times the coordinate errors
    /// of both axes, plus the final rounding. (A fixed 1.6 is not a bound: 5x3 -> 11x3,
    /// half-pixel centers, lands 1.7 away.)
    fn check(&self, out: &Vec<i8>) -> Result<(), String> {
        if !self.prepares() {
            return Ok(());
        }
        let coordinate_error = |o: usize| (0.5 * o as f64 + 1.0) / 1024.0;
        let tolerance = 0.6 + 255.0 * (coordinate_error(self.oh) + coordinate_error(self.ow));
        let want = oracle(&self.input, self.ih, self.iw, self.d, self.oh, self.ow, self.half, self.align);
        for (k, (g, w)) in out.iter().zip(&want).enumerate() {
            if (*g as f64 - w).abs() > tolerance {
                return Err(std::format!("out[{k}] = {g}, real {w}"));
            }
        }
        if out.len() == want.len() { Ok(()) } else { Err(std::format!("{} outputs, {} expected", out.len(), want.len())) }
    }
}

kernel_tests!(impl_scalar, Resize, scalar::resize_bilinear_s8);
kernel_tests!(impl_dispatch, if true, Resize, resize_bilinear_s8);
