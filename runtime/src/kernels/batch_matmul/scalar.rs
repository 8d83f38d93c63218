//! The reference loop nest of BATCH_MATMUL: per output batch (broadcast), per row and
//! column, the dot product over the depth in ascending order.

use super::{BatchMatmulParams, MatmulNumerics};

/// See [`super::batch_matmul`].
pub fn batch_matmul<M: MatmulNumerics>(p: &BatchMatmulParams<M>, lhs: &[M::T], rhs: &[M::T], output: &mut [M::T]) {
    let (m, k, n) = (p.rows, p.depth, p.cols);
    let ob = p.out_batch();
    // Flat matrix index of batch `b` in an operand with batch dims `dims` (1s broadcast).
    let index = |dims: [usize; 3], b: [usize; 3]| {
        let pick = |d: usize| if dims[d] == 1 { 0 } else { b[d] };
        (pick(0) * dims[1] + pick(1)) * dims[2] + pick(2)
    };
    let mut o = 0;
    for b0 in 0..ob[0] {
        for b1 in 0..ob[1] {
            for b2 in 0..ob[2] {
                let b = [b0, b1, b2];
                let l = &lhs[index(p.lhs_batch, b) * m * k..][..m * k];
                let r = &rhs[index(p.rhs_batch, b) * k * n..][..k * n];
                for i in 0..m {
                    for j in 0..n {
                        let mut acc = M::ZERO;
                        for d in 0..k {
                            let lv = if p.adj_x { l[d * m + i] } else { l[i * k + d] };
                            let rv = if p.adj_y { r[j * k + d] } else { r[d * n + j] };
                            acc = M::mac(acc, lv, rv, &p.quant);
                        }
                        output[o] = M::finish(acc, &p.quant);
                        o += 1;
                    }
                }
            }
        }
    }
}
