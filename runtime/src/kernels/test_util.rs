//! Test-only helpers: naive (unfused, index-arithmetic) references for N-d walks.

use std::vec::Vec;

/// For every output element of broadcasting `s1` with `s2` (row-major), the flat
/// indices into operand 1 and 2. Straight from the definition, no stride tricks.
pub fn naive_broadcast_pairs(s1: &[usize], s2: &[usize]) -> (Vec<usize>, Vec<(usize, usize)>) {
    let r = s1.len().max(s2.len());
    let ext = |s: &[usize]| -> Vec<usize> {
        let mut v = std::vec![1; r - s.len()];
        v.extend_from_slice(s);
        v
    };
    let (e1, e2) = (ext(s1), ext(s2));
    let out: Vec<usize> = e1.iter().zip(&e2).map(|(&a, &b)| if a == 1 { b } else { a }).collect();
    let total: usize = out.iter().product();
    let mut pairs = Vec::with_capacity(total);
    for flat in 0..total {
        let mut rem = flat;
        let mut idx = std::vec![0; r];
        for d in (0..r).rev() {
            idx[d] = rem % out[d];
            rem /= out[d];
        }
        let off = |e: &[usize]| {
            let mut o = 0;
            for d in 0..r {
                o = o * e[d] + if e[d] == 1 { 0 } else { idx[d] };
            }
            o
        };
        pairs.push((off(&e1), off(&e2)));
    }
    (out, pairs)
}

/// Strategy for pairs of broadcast-compatible shapes (rank 0..=6, dims 1..=4, with
/// size-1 dims on either side and different ranks).
pub fn broadcast_shapes() -> impl proptest::strategy::Strategy<Value = (Vec<usize>, Vec<usize>)> {
    use proptest::prelude::*;
    proptest::collection::vec((1usize..5, 0u8..4), 0..7).prop_flat_map(|dims| {
        let s1: Vec<usize> = dims.iter().map(|&(n, m)| if m == 1 { 1 } else { n }).collect();
        let s2: Vec<usize> = dims.iter().map(|&(n, m)| if m == 2 { 1 } else { n }).collect();
        (0..=s1.len(), 0..=s2.len()).prop_map(move |(c1, c2)| (s1[c1..].to_vec(), s2[c2..].to_vec()))
    })
}
