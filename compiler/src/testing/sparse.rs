//! A sparse encoder for tests: the dense-to-sparse direction, written on its own (coordinate
//! tuples, brute-force subtree search), so that `ir::Sparsity::densify` is checked against
//! code that shares nothing with it. Builder models use it to write sparse constants.

use crate::ir::{DimFormat, DimMetadata, IndexVector, Sparsity};

/// The element type of the segment and index vectors to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// `Int32Vector`.
    I32,
    /// `Uint16Vector`.
    U16,
    /// `Uint8Vector`.
    U8,
}

/// How to store a dense tensor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// The storage order of the expanded dimensions (original ones first).
    pub traversal_order: Vec<usize>,
    /// The original dimension each block dimension splits (increasing).
    pub block_map: Vec<usize>,
    /// The size of each block dimension.
    pub block_sizes: Vec<usize>,
    /// Per level (storage order): compressed (SPARSE_CSR) or DENSE.
    pub csr: Vec<bool>,
    /// The vectors' element type.
    pub width: Width,
}

impl Format {
    /// Identity order, no blocks, CSR at the levels listed.
    pub fn csr_levels(rank: usize, csr_levels: &[usize], width: Width) -> Format {
        Format {
            traversal_order: (0..rank).collect(),
            block_map: Vec::new(),
            block_sizes: Vec::new(),
            csr: (0..rank).map(|l| csr_levels.contains(&l)).collect(),
            width,
        }
    }
}

fn vector(v: &[usize], w: Width) -> IndexVector {
    match w {
        Width::I32 => IndexVector::I32(v.iter().map(|&x| x as i32).collect()),
        Width::U16 => IndexVector::U16(v.iter().map(|&x| x as u16).collect()),
        Width::U8 => IndexVector::U8(v.iter().map(|&x| x as u8).collect()),
    }
}

/// Stores `dense` (little-endian elements of `elem_size` bytes, row-major `shape`) in `f`:
/// the metadata and the stored values. A CSR level keeps a coordinate when some element
/// under it is non-zero (TFLite's `DenseToSparse` policy); a DENSE level keeps every one.
pub fn encode(dense: &[u8], shape: &[usize], elem_size: usize, f: &Format) -> (Sparsity, Vec<u8>) {
    let rank = shape.len();
    let n = f.traversal_order.len();
    // The size of each expanded dimension.
    let ext: Vec<usize> = (0..n)
        .map(|e| {
            if e < rank {
                match f.block_map.iter().position(|&d| d == e) {
                    Some(k) => shape[e] / f.block_sizes[k],
                    None => shape[e],
                }
            } else {
                f.block_sizes[e - rank]
            }
        })
        .collect();
    // The dense element at a full coordinate tuple given in storage order.
    let element = |coords: &[usize]| -> &[u8] {
        let mut expanded = vec![0usize; n];
        for (l, &c) in coords.iter().enumerate() {
            expanded[f.traversal_order[l]] = c;
        }
        let mut orig: Vec<usize> = expanded[..rank].to_vec();
        for (k, &d) in f.block_map.iter().enumerate() {
            orig[d] = orig[d] * f.block_sizes[k] + expanded[rank + k];
        }
        let mut flat = 0;
        for d in 0..rank {
            flat = flat * shape[d] + orig[d];
        }
        &dense[flat * elem_size..(flat + 1) * elem_size]
    };
    // Whether any element whose storage-order coordinates start with `prefix` is non-zero.
    let any_nonzero = |prefix: &[usize]| -> bool {
        let mut c = prefix.to_vec();
        let depth = prefix.len();
        c.resize(n, 0);
        loop {
            if element(&c).iter().any(|&b| b != 0) {
                return true;
            }
            // Odometer over the levels below the prefix.
            let mut l = n;
            loop {
                if l == depth {
                    return false;
                }
                l -= 1;
                c[l] += 1;
                if c[l] < ext[f.traversal_order[l]] {
                    break;
                }
                c[l] = 0;
            }
        }
    };
    let mut parents: Vec<Vec<usize>> = vec![Vec::new()];
    let mut dim_metadata = Vec::new();
    for l in 0..n {
        let size = ext[f.traversal_order[l]];
        let mut next = Vec::new();
        if f.csr[l] {
            let mut segments = vec![0usize];
            let mut indices = Vec::new();
            for p in &parents {
                for c in 0..size {
                    let mut q = p.clone();
                    q.push(c);
                    if any_nonzero(&q) {
                        indices.push(c);
                        next.push(q);
                    }
                }
                segments.push(indices.len());
            }
            dim_metadata.push(DimMetadata {
                format: DimFormat::SparseCsr,
                dense_size: 0,
                array_segments: Some(vector(&segments, f.width)),
                array_indices: Some(vector(&indices, f.width)),
            });
        } else {
            for p in &parents {
                for c in 0..size {
                    let mut q = p.clone();
                    q.push(c);
                    next.push(q);
                }
            }
            dim_metadata.push(DimMetadata { format: DimFormat::Dense, dense_size: size as i32, array_segments: None, array_indices: None });
        }
        parents = next;
    }
    let values: Vec<u8> = parents.iter().flat_map(|c| element(c).to_vec()).collect();
    let sparsity = Sparsity {
        traversal_order: f.traversal_order.iter().map(|&e| e as i32).collect(),
        block_map: f.block_map.iter().map(|&d| d as i32).collect(),
        dim_metadata,
    };
    (sparsity, values)
}
