use super::*;
use proptest::prelude::*;
use std::vec::Vec;

fn naive(in_shape: &[usize], out_shape: &[usize], before: &[usize], input: &[i32], v: i32) -> Vec<i32> {
    let rank = in_shape.len();
    let total: usize = out_shape.iter().product();
    (0..total)
        .map(|flat| {
            let mut rem = flat;
            let mut off = 0usize;
            let mut mult = 1usize;
            let mut inside = true;
            for d in (0..rank).rev() {
                let i = rem % out_shape[d];
                rem /= out_shape[d];
                if i < before[d] || i >= before[d] + in_shape[d] {
                    inside = false;
                } else {
                    off += (i - before[d]) * mult;
                }
                mult *= in_shape[d];
            }
            if inside { input[off] } else { v }
        })
        .collect()
}

#[test]
fn pads_every_edge_2d() {
    let p = PadParams { input_shape: &[2, 2], output_shape: &[4, 5], before: &[1, 2], pad_value: -1 };
    let mut out = [0i8; 20];
    pad_s8(&p, &[1, 2, 3, 4], &mut out);
    #[rustfmt::skip]
    assert_eq!(out, [
        -1, -1, -1, -1, -1,
        -1, -1,  1,  2, -1,
        -1, -1,  3,  4, -1,
        -1, -1, -1, -1, -1,
    ]);
}

proptest! {
    #[test]
    fn matches_naive(dims in proptest::collection::vec((0usize..4, 0usize..3, 0usize..3), 1..6), v in any::<i32>()) {
        let in_shape: Vec<usize> = dims.iter().map(|d| d.0).collect();
        let pads: Vec<(i64, i64)> = dims.iter().map(|d| (d.1 as i64, d.2 as i64)).collect();
        let before: Vec<usize> = dims.iter().map(|d| d.1).collect();
        let mut out_shape = std::vec![0; in_shape.len()];
        pad_output_shape(&in_shape, &pads, &mut out_shape).unwrap();
        let input: Vec<i32> = (0..in_shape.iter().product::<usize>() as i32).collect();
        let p = PadParams { input_shape: &in_shape, output_shape: &out_shape, before: &before, pad_value: v };
        let mut out = std::vec![0; out_shape.iter().product()];
        pad(&p, &input, &mut out);
        prop_assert_eq!(out, naive(&in_shape, &out_shape, &before, &input, v));
    }
}
