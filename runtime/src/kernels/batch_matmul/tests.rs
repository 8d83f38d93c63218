//! BATCH_MATMUL tests: one [`KernelCase`] over the three numerics (random batch shapes with
//! broadcasting, `adj_x` / `adj_y`, zero points, multipliers), whose oracle is the
//! definition written against logical indices `L[b][i][k]`, `R[b][k][j]` (int8: i64 sums
//! wrapped to int32; int16: i64; float32: f32 sums in ascending `k`).

use super::{BatchMatmulParams, MatmulQuantS16, MatmulQuantS8, S16x16};
use crate::kernels::numerics::{QuantS8, F32, S8};
use crate::kernels::test_util::{kernel_tests, KernelCase, Rng};
use crate::quant::{multiply_by_quantized_multiplier, multiply_by_quantized_multiplier_i64};
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

type Kernels = (
    fn(&BatchMatmulParams<S8>, &[i8], &[i8], &mut [i8]),
    fn(&BatchMatmulParams<S16x16>, &[i16], &[i16], &mut [i16]),
    fn(&BatchMatmulParams<F32>, &[f32], &[f32], &mut [f32]),
);

#[derive(Clone, Debug)]
struct Shape {
    lb: [usize; 3],
    rb: [usize; 3],
    m: usize,
    k: usize,
    n: usize,
    adj_x: bool,
    adj_y: bool,
}

#[derive(Clone, Debug)]
enum Data {
    S8 { l: Vec<i8>, r: Vec<i8>, zl: i32, zr: i32, zo: i32, mult: i32, shift: i32 },
    S16 { l: Vec<i16>, r: Vec<i16>, mult: i32, shift: i32 },
    F32 { l: Vec<f32>, r: Vec<f32> },
}

#[derive(Clone, Debug)]
struct Case {
    s: Shape,
    d: Data,
}

#[derive(Clone, Debug, PartialEq)]
enum Out {
    S8(Vec<i8>),
    S16(Vec<i16>),
    F32(Vec<u32>),
}

fn make(rng: &mut Rng, s: Shape, scheme: u8) -> Case {
    let nl = s.lb.iter().product::<usize>() * s.m * s.k;
    let nr = s.rb.iter().product::<usize>() * s.k * s.n;
    let i16s = |rng: &mut Rng, n: usize| -> Vec<i16> { (0..n).map(|_| if rng.below(6) == 0 { i16::MIN } else { rng.next_u64() as i16 }).collect() };
    let d = match scheme {
        0 => {
            let (mult, shift) = rng.multiplier(-14, 0);
            Data::S8 { l: rng.i8s(nl), r: rng.i8s(nr), zl: rng.range(-128, 127) as i32, zr: rng.range(-128, 127) as i32, zo: rng.range(-128, 127) as i32, mult, shift }
        }
        1 => {
            let (mult, shift) = rng.multiplier(-28, 0);
            Data::S16 { l: i16s(rng, nl), r: i16s(rng, nr), mult, shift }
        }
        _ => Data::F32 { l: (0..nl).map(|_| rng.range(-999, 999) as f32 / 37.0).collect(), r: (0..nr).map(|_| rng.range(-999, 999) as f32 / 41.0).collect() },
    };
    Case { s, d }
}

fn out_batch(s: &Shape) -> [usize; 3] {
    core::array::from_fn(|d| s.lb[d].max(s.rb[d]))
}

/// The definition: logical element accessors, output `[b0][b1][b2][i][j]`.
fn oracle(c: &Case) -> Out {
    let s = &c.s;
    let ob = out_batch(s);
    let mat = |dims: [usize; 3], b: [usize; 3]| {
        let p = |d: usize| if dims[d] == 1 { 0 } else { b[d] };
        (p(0) * dims[1] + p(1)) * dims[2] + p(2)
    };
    let li = |b: [usize; 3], i: usize, k: usize| mat(s.lb, b) * s.m * s.k + if s.adj_x { k * s.m + i } else { i * s.k + k };
    let ri = |b: [usize; 3], k: usize, j: usize| mat(s.rb, b) * s.k * s.n + if s.adj_y { j * s.k + k } else { k * s.n + j };
    let mut idx = Vec::new();
    for b0 in 0..ob[0] {
        for b1 in 0..ob[1] {
            for b2 in 0..ob[2] {
                for i in 0..s.m {
                    for j in 0..s.n {
                        idx.push(([b0, b1, b2], i, j));
                    }
                }
            }
        }
    }
    match &c.d {
        Data::S8 { l, r, zl, zr, zo, mult, shift } => Out::S8(
            idx.iter()
                .map(|&(b, i, j)| {
                    let sum: i64 = (0..s.k).map(|k| (l[li(b, i, k)] as i64 - *zl as i64) * (r[ri(b, k, j)] as i64 - *zr as i64)).sum();
                    (multiply_by_quantized_multiplier(sum as i32, *mult, *shift) + zo).clamp(-128, 127) as i8
                })
                .collect(),
        ),
        Data::S16 { l, r, mult, shift } => Out::S16(
            idx.iter()
                .map(|&(b, i, j)| {
                    let sum: i64 = (0..s.k).map(|k| l[li(b, i, k)] as i64 * r[ri(b, k, j)] as i64).sum();
                    multiply_by_quantized_multiplier_i64(sum, *mult, *shift).clamp(-32768, 32767) as i16
                })
                .collect(),
        ),
        Data::F32 { l, r } => Out::F32(
            idx.iter()
                .map(|&(b, i, j)| {
                    let mut acc = 0.0f32;
                    for k in 0..s.k {
                        acc += l[li(b, i, k)] * r[ri(b, k, j)];
                    }
                    acc.to_bits()
                })
                .collect(),
        ),
    }
}

impl KernelCase for Case {
    type Kernel = Kernels;
    type Output = Out;
    const REFERENCE: Kernels = (super::scalar::batch_matmul::<S8>, super::scalar::batch_matmul::<S16x16>, super::scalar::batch_matmul::<F32>);

    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec((1usize..=3, 0u8..3), 3), 1usize..=4, 0usize..=6, 1usize..=4, any::<bool>(), any::<bool>(), 0u8..3, any::<u64>())
            .prop_map(|(dims, m, k, n, adj_x, adj_y, scheme, seed)| {
                // Per batch dim: both the same, or one side 1 (broadcast).
                let lb = core::array::from_fn(|d| if dims[d].1 == 1 { 1 } else { dims[d].0 });
                let rb = core::array::from_fn(|d| if dims[d].1 == 2 { 1 } else { dims[d].0 });
                make(&mut Rng(seed), Shape { lb, rb, m, k, n, adj_x, adj_y }, scheme)
            })
            .boxed()
    }

    fn edge_cases() -> Vec<Self> {
        let mut rng = Rng(3);
        let mut v = Vec::new();
        for scheme in 0..3 {
            for (adj_x, adj_y) in [(false, false), (true, false), (false, true), (true, true)] {
                // Lane tails of the depth, a broadcast batch on each side.
                for k in [1, 7, 16, 33] {
                    v.push(make(&mut rng, Shape { lb: [1, 2, 3], rb: [2, 1, 3], m: 3, k, n: 5, adj_x, adj_y }, scheme));
                }
            }
            // Empty depth: every output is the requantized 0.
            v.push(make(&mut rng, Shape { lb: [1, 1, 2], rb: [1, 1, 1], m: 2, k: 0, n: 2, adj_x: false, adj_y: false }, scheme));
        }
        // int8 extremes: -128 * -128 with offsets 127 / -128, the widest multiplier.
        let s = Shape { lb: [1, 1, 1], rb: [1, 1, 1], m: 2, k: 40, n: 3, adj_x: false, adj_y: false };
        v.push(Case { s: s.clone(), d: Data::S8 { l: vec![-128; 80], r: vec![127; 120], zl: 127, zr: -128, zo: 127, mult: i32::MAX, shift: -1 } });
        v.push(Case { s, d: Data::S16 { l: vec![i16::MIN; 80], r: vec![i16::MIN; 120], mult: i32::MAX, shift: -31 } });
        v
    }

    fn run(&self, (s8, s16, f32k): Kernels) -> Result<Out, String> {
        let s = &self.s;
        let no = out_batch(s).iter().product::<usize>() * s.m * s.n;
        Ok(match &self.d {
            Data::S8 { l, r, zl, zr, zo, mult, shift } => {
                let (mult, shift) = ([*mult], [*shift]);
                let q = MatmulQuantS8 { quant: QuantS8 { input_offset: -zl, output_offset: *zo, output_multiplier: &mult, output_shift: &shift }, rhs_offset: -zr };
                let p = BatchMatmulParams::<S8> { lhs_batch: s.lb, rhs_batch: s.rb, rows: s.m, depth: s.k, cols: s.n, adj_x: s.adj_x, adj_y: s.adj_y, quant: q };
                let mut out = vec![0; no];
                s8(&p, l, r, &mut out);
                Out::S8(out)
            }
            Data::S16 { l, r, mult, shift } => {
                let q = MatmulQuantS16 { output_multiplier: *mult, output_shift: *shift };
                let p = BatchMatmulParams::<S16x16> { lhs_batch: s.lb, rhs_batch: s.rb, rows: s.m, depth: s.k, cols: s.n, adj_x: s.adj_x, adj_y: s.adj_y, quant: q };
                let mut out = vec![0; no];
                s16(&p, l, r, &mut out);
                Out::S16(out)
            }
            Data::F32 { l, r } => {
                let p = BatchMatmulParams::<F32> { lhs_batch: s.lb, rhs_batch: s.rb, rows: s.m, depth: s.k, cols: s.n, adj_x: s.adj_x, adj_y: s.adj_y, quant: () };
                let mut out = vec![0.0; no];
                f32k(&p, l, r, &mut out);
                Out::F32(out.iter().map(|v| v.to_bits()).collect())
            }
        })
    }

    fn check(&self, out: &Out) -> Result<(), String> {
        let want = oracle(self);
        if *out != want {
            return Err(std::format!("differs from the definition:\n  got  {out:?}\n  want {want:?}"));
        }
        Ok(())
    }
}

kernel_tests!(reference, Case, <Case as KernelCase>::REFERENCE);
kernel_tests!(
    public_api,
    if true,
    Case,
    (crate::kernels::batch_matmul::batch_matmul_s8, crate::kernels::batch_matmul::batch_matmul_s16, crate::kernels::batch_matmul::batch_matmul_f32)
);
