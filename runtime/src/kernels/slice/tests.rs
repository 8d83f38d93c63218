use super::*;
use proptest::prelude::*;
use std::vec::Vec;

fn naive(shape: &[usize], begin: &[usize], size: &[usize], input: &[u32]) -> Vec<u32> {
    let rank = shape.len();
    let total: usize = size.iter().product();
    let mut out = Vec::with_capacity(total);
    for flat in 0..total {
        let mut rem = flat;
        let mut idx = std::vec![0; rank];
        for d in (0..rank).rev() {
            idx[d] = rem % size[d] + begin[d];
            rem /= size[d];
        }
        let mut off = 0;
        for d in 0..rank {
            off = off * shape[d] + idx[d];
        }
        out.push(input[off]);
    }
    out
}

#[test]
fn minus_one_means_to_end_and_bounds_are_checked() {
    let plan = prepare_slice(&[2, 3], &[1, 1], &[-1, -1]).unwrap();
    let input: Vec<u32> = (0..6).collect();
    let mut out = [0u32; 2];
    slice(&plan.as_params(), &input, &mut out);
    assert_eq!(out, [4, 5]);
    assert!(prepare_slice(&[2, 3], &[1, 1], &[2, 1]).is_none());
    assert!(prepare_slice(&[2, 3], &[-1, 0], &[1, 1]).is_none());
}

proptest! {
    #[test]
    fn matches_naive(dims in proptest::collection::vec((1usize..6, 0usize..6, 0usize..6), 1..6), minus1 in any::<u8>()) {
        let shape: Vec<usize> = dims.iter().map(|d| d.0).collect();
        let begin: Vec<usize> = dims.iter().map(|d| d.1 % d.0).collect();
        let size: Vec<usize> = dims.iter().zip(&begin).map(|(d, &b)| d.2 % (d.0 - b + 1)).collect();
        let size_t: Vec<i64> = size.iter().enumerate().map(|(i, &s)| if minus1 >> i & 1 == 1 && b_end(&shape, &begin, &size, i) { -1 } else { s as i64 }).collect();
        let begin_t: Vec<i64> = begin.iter().map(|&b| b as i64).collect();
        let total: usize = shape.iter().product();
        let input: Vec<u32> = (0..total as u32).collect();
        let plan = prepare_slice(&shape, &begin_t, &size_t).unwrap();
        let mut out = std::vec![0; size.iter().product()];
        slice(&plan.as_params(), &input, &mut out);
        prop_assert_eq!(out, naive(&shape, &begin, &size, &input));
    }
}

/// Whether `size[i]` reaches the end of dim `i` (so -1 is equivalent).
fn b_end(shape: &[usize], begin: &[usize], size: &[usize], i: usize) -> bool {
    begin[i] + size[i] == shape[i]
}
