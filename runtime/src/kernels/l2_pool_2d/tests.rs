//! L2_POOL_2D tests (the square root is `math::sqrtf`, tested there): the pool as one [`KernelCase`]
//! against the naive window definition (padding cells skipped, f32 sums in TFLite's order,
//! `std`'s sqrt, NaN-preserving clamp).

use super::{L2Pool2dParams, PoolGeometry};
use crate::kernels::numerics::Clamp;
use crate::kernels::test_util::{kernel_tests, KernelCase, Rng};
use crate::prepare::{compute_padding, Padding};
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

#[derive(Clone, Debug)]
struct Case {
    p: L2Pool2dParams,
    input: Vec<f32>,
}

fn naive(c: &Case) -> Vec<u32> {
    let g = &c.p.geometry;
    let [n, h, w, d] = g.input_shape;
    let mut out = Vec::new();
    for b in 0..n {
        for oy in 0..g.output_height {
            for ox in 0..g.output_width {
                for ch in 0..d {
                    let (mut sum, mut count) = (0.0f32, 0);
                    for fy in 0..g.filter_height {
                        for fx in 0..g.filter_width {
                            let y = (oy * g.stride_height + fy) as isize - g.pad_top as isize;
                            let x = (ox * g.stride_width + fx) as isize - g.pad_left as isize;
                            if y >= 0 && x >= 0 && (y as usize) < h && (x as usize) < w {
                                let v = c.input[((b * h + y as usize) * w + x as usize) * d + ch];
                                sum += v * v;
                                count += 1;
                            }
                        }
                    }
                    let r = (sum / count as f32).sqrt();
                    let r = if r < c.p.clamp.min { c.p.clamp.min } else { r };
                    let r = if c.p.clamp.max < r { c.p.clamp.max } else { r };
                    out.push(r.to_bits());
                }
            }
        }
    }
    out
}

fn case(rng: &mut Rng, shape: [usize; 4], f: [usize; 2], s: [usize; 2], same: bool, relu6: bool) -> Option<Case> {
    let pad = if same { Padding::Same } else { Padding::Valid };
    let (oh, pt) = compute_padding(pad, shape[1], f[0], s[0], 1)?;
    let (ow, pl) = compute_padding(pad, shape[2], f[1], s[1], 1)?;
    if oh == 0 || ow == 0 {
        return None;
    }
    let geometry = PoolGeometry { input_shape: shape, output_height: oh, output_width: ow, filter_height: f[0], filter_width: f[1], stride_height: s[0], stride_width: s[1], pad_top: pt, pad_left: pl };
    let clamp = if relu6 { Clamp { min: 0.0, max: 6.0 } } else { Clamp { min: f32::MIN, max: f32::MAX } };
    let n: usize = shape.iter().product();
    let input = (0..n)
        .map(|_| match rng.below(40) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => 3.0e19, // squares overflow to inf
            _ => rng.range(-5000, 5000) as f32 / 613.0,
        })
        .collect();
    Some(Case { p: L2Pool2dParams { geometry, clamp }, input })
}

impl KernelCase for Case {
    type Kernel = fn(&L2Pool2dParams, &[f32], &mut [f32]);
    type Output = Vec<u32>;
    const REFERENCE: Self::Kernel = super::scalar::l2_pool_2d_f32;

    fn strategy() -> BoxedStrategy<Self> {
        ((1usize..=2, 1usize..=6, 1usize..=6, 1usize..=5), (1usize..=3, 1usize..=3, 1usize..=3, 1usize..=3), any::<bool>(), any::<bool>(), any::<u64>())
            .prop_filter_map("window does not fit", |((n, h, w, d), (fh, fw, sh, sw), same, relu6, seed)| case(&mut Rng(seed), [n, h, w, d], [fh, fw], [sh, sw], same, relu6))
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut rng = Rng(1);
        let mut v: Vec<Case> = [([1, 5, 5, 17], [3, 3], [2, 2], true), ([1, 4, 4, 1], [4, 4], [1, 1], false), ([2, 3, 7, 3], [2, 3], [1, 3], true)]
            .into_iter()
            .filter_map(|(s, f, st, same)| case(&mut rng, s, f, st, same, false))
            .collect();
        if let Some(mut c) = case(&mut rng, [1, 2, 2, 2], [2, 2], [2, 2], false, true) {
            c.input = vec![-0.0, 3.0, 0.0, 4.0, -0.0, -5.0, 0.0, f32::NAN];
            v.push(c);
        }
        v
    }

    fn run(&self, kernel: Self::Kernel) -> Result<Vec<u32>, String> {
        let mut out = vec![0.0; self.p.geometry.output_len()];
        kernel(&self.p, &self.input, &mut out);
        Ok(out.iter().map(|v| v.to_bits()).collect())
    }

    fn check(&self, out: &Vec<u32>) -> Result<(), String> {
        let want = naive(self);
        if *out != want {
            return Err(std::format!("differs from the definition:\n  got  {out:x?}\n  want {want:x?}"));
        }
        Ok(())
    }
}

kernel_tests!(reference, Case, <Case as KernelCase>::REFERENCE);
kernel_tests!(public_api, if true, Case, crate::kernels::l2_pool_2d::l2_pool_2d_f32);
