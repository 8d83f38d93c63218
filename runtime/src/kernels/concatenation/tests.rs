use super::*;
use proptest::prelude::*;
use std::vec::Vec;

proptest! {
    #[test]
    fn matches_naive(shape in proptest::collection::vec(1usize..4, 1..5), ax in any::<usize>(), axis_dims in proptest::collection::vec(0usize..4, 1..4)) {
        let axis = ax % shape.len();
        let shapes: Vec<Vec<usize>> = axis_dims.iter().map(|&a| { let mut s = shape.clone(); s[axis] = a; s }).collect();
        let refs: Vec<&[usize]> = shapes.iter().map(|s| &s[..]).collect();
        let mut offsets = std::vec![0; shapes.len()];
        let mut lens = std::vec![0; shapes.len()];
        let (outer, row) = prepare_concatenation(&refs, axis, &mut offsets, &mut lens).unwrap();
        let p = ConcatenationParams { outer, output_row: row, offsets: &offsets, lens: &lens };
        // Inputs tagged by (input, flat index).
        let inputs: Vec<Vec<(usize, usize)>> = shapes.iter().enumerate().map(|(k, s)| (0..s.iter().product()).map(|i| (k, i)).collect()).collect();
        let in_refs: Vec<&[(usize, usize)]> = inputs.iter().map(|v| &v[..]).collect();
        let mut out_shape = shape.clone();
        out_shape[axis] = axis_dims.iter().sum();
        let total: usize = out_shape.iter().product();
        let mut out = std::vec![(99, 99); total];
        concatenation(&p, &in_refs, &mut out);
        // Naive: walk the output by multi-index and find the source.
        let inner: usize = shape[axis + 1..].iter().product();
        for (flat, &got) in out.iter().enumerate() {
            let i = flat % inner;
            let a = (flat / inner) % out_shape[axis];
            let o = flat / inner / out_shape[axis];
            let (mut k, mut a_in) = (0, a);
            while a_in >= axis_dims[k] { a_in -= axis_dims[k]; k += 1; }
            prop_assert_eq!(got, (k, (o * axis_dims[k] + a_in) * inner + i));
        }
    }
}

#[test]
fn rejects_mismatch() {
    let mut o = [0; 2];
    let mut l = [0; 2];
    assert!(prepare_concatenation(&[&[1, 2, 3], &[1, 3, 3]], 2, &mut o, &mut l).is_none());
    assert!(prepare_concatenation(&[&[1, 2, 3], &[1, 2]], 1, &mut o, &mut l).is_none());
    assert!(prepare_concatenation(&[&[1, 2, 3], &[1, 2, 5]], 2, &mut o, &mut l).is_some());
}
