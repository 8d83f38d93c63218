use super::*;
use proptest::prelude::*;
use std::vec::Vec;

/// Naive: output k holds, for each outer index, the `len` slices of `inner` elements.
fn naive(shape: &[usize], axis: usize, start: usize, len: usize, input: &[u32]) -> Vec<u32> {
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let mut out = Vec::new();
    for o in 0..outer {
        for a in start..start + len {
            for i in 0..inner {
                out.push(input[(o * shape[axis] + a) * inner + i]);
            }
        }
    }
    out
}

#[test]
fn split_two_on_last_axis() {
    let shape = [1, 2, 2, 4];
    let input: Vec<u32> = (0..16).collect();
    let size = split_size(4, 2).unwrap();
    let p0 = prepare_split_output(&shape, 3, 0, size).unwrap();
    let p1 = prepare_split_output(&shape, 3, size, size).unwrap();
    let (mut a, mut b) = ([0u32; 8], [0u32; 8]);
    split_all(&[p0.as_params(), p1.as_params()], &input, &mut [&mut a[..], &mut b[..]]);
    assert_eq!(a, [0, 1, 4, 5, 8, 9, 12, 13]);
    assert_eq!(b, [2, 3, 6, 7, 10, 11, 14, 15]);
    assert_eq!(split_size(5, 2), None);
    assert_eq!(resolve_axis(-1, 4), Some(3));
    assert_eq!(resolve_axis(4, 4), None);
}

proptest! {
    #[test]
    fn matches_naive(shape in proptest::collection::vec(1usize..5, 1..6), ax in any::<usize>(), s in any::<usize>(), l in any::<usize>()) {
        let axis = ax % shape.len();
        let start = s % shape[axis];
        let len = l % (shape[axis] - start + 1);
        let total: usize = shape.iter().product();
        let input: Vec<u32> = (0..total as u32).collect();
        let plan = prepare_split_output(&shape, axis, start, len).unwrap();
        let want = naive(&shape, axis, start, len, &input);
        let mut out = std::vec![0; want.len()];
        split(&plan.as_params(), &input, &mut out);
        prop_assert_eq!(out, want);
    }
}
