//! Sparse constants: TFLite's `SparsityParameters` and their densification.
//!
//! A sparse tensor's buffer holds only its stored values. The metadata describes the tensor
//! as `rank + block rank` *expanded* dimensions: the original dimensions (each divided by
//! its block size where `block_map` splits it), then one dimension per block dimension, whose
//! size is the block size. `traversal_order` is the storage order: entry `l` of
//! `dim_metadata` (a *level*) describes expanded dimension `traversal_order[l]`. A DENSE level
//! visits every coordinate (`dense_size` of them); a SPARSE_CSR level visits, for the
//! position `p` the levels above reached, the coordinates
//! `array_indices[array_segments[p]..array_segments[p + 1]]`, and the next level continues
//! from each index's position in `array_indices`. The leaves, in this depth-first order, are
//! the stored values.
//!
//! [`Sparsity::check`] validates the metadata against the tensor's shape, element size and
//! buffer length, completely: TFLite's converter trusts it (an out-of-range index writes
//! outside its buffer), tflc refuses it with a message naming the field. [`Sparsity::densify`]
//! then fills the dense tensor exactly as TFLite's `FormatConverter<T>::SparseToDense`
//! (`tensorflow/lite/kernels/internal/utils/sparsity_format_converter.cc`, `Populate`), which
//! the DENSIFY kernel runs: zeros (all-zero bytes: `T(0)` of every type TFLite densifies)
//! where nothing is stored, the stored values in storage order, a coordinate stored twice
//! keeping the later value. It works on bytes, so every fixed-size element type densifies.
//!
//! What `check` requires beyond TFLite's own checks, each because TFLite's converter would
//! read or write out of bounds or silently misplace values otherwise:
//! - `dim_metadata` and `traversal_order` have `rank + block_map.len()` entries, and
//!   `traversal_order` is a permutation that lists the original dimensions first (the
//!   converter indexes the original dimensions by the first `rank` entries);
//! - `block_map` names distinct original dimensions in increasing order (the converter only
//!   assigns block sizes in that order), each block dimension is DENSE (TFLite reads no
//!   `dense_size` for a SPARSE_CSR one) with a size that divides its dimension, and the level
//!   TFLite reads the block size from (`dense_size[traversal_order[rank + k]]`) agrees with
//!   the block dimension's own level;
//! - a DENSE level's `dense_size` is its expanded dimension's size;
//! - a SPARSE_CSR level has both vectors, one segment boundary more than the level above has
//!   positions, boundaries starting at 0, never decreasing and ending at the number of
//!   indices, and every index is a coordinate of its dimension;
//! - the buffer holds exactly the stored values (their count times the element size).

use super::DType;

/// TFLite's `SparsityParameters` as the file states them (validated by [`Sparsity::check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sparsity {
    /// The storage order of the expanded dimensions (entry `l` is the dimension of level `l`).
    pub traversal_order: Vec<i32>,
    /// For each block dimension, the original dimension it splits.
    pub block_map: Vec<i32>,
    /// One entry per level, in storage order.
    pub dim_metadata: Vec<DimMetadata>,
}

/// TFLite's `DimensionMetadata`: one level of the storage order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DimMetadata {
    /// DENSE or SPARSE_CSR.
    pub format: DimFormat,
    /// The number of coordinates of a DENSE level.
    pub dense_size: i32,
    /// A SPARSE_CSR level's segment boundaries, one more than the positions above it.
    pub array_segments: Option<IndexVector>,
    /// A SPARSE_CSR level's coordinates.
    pub array_indices: Option<IndexVector>,
}

/// TFLite's `DimensionType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DimFormat {
    /// Every coordinate is stored.
    Dense,
    /// Compressed sparse row: segments and indices.
    SparseCsr,
    /// A code the schema does not define (TFLite refuses it too).
    Unknown(i8),
}

/// TFLite's `SparseIndexVector` union: the element type the file stores indices in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexVector {
    /// `Int32Vector`.
    I32(Vec<i32>),
    /// `Uint16Vector`.
    U16(Vec<u16>),
    /// `Uint8Vector`.
    U8(Vec<u8>),
}

impl IndexVector {
    /// Number of entries.
    pub fn len(&self) -> usize {
        match self {
            IndexVector::I32(v) => v.len(),
            IndexVector::U16(v) => v.len(),
            IndexVector::U8(v) => v.len(),
        }
    }

    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `i` (`None` past the end).
    pub fn get(&self, i: usize) -> Option<i64> {
        match self {
            IndexVector::I32(v) => v.get(i).map(|&x| x.into()),
            IndexVector::U16(v) => v.get(i).map(|&x| x.into()),
            IndexVector::U8(v) => v.get(i).map(|&x| x.into()),
        }
    }

    /// Bytes the file spends on the entries.
    pub fn byte_size(&self) -> usize {
        match self {
            IndexVector::I32(v) => 4 * v.len(),
            IndexVector::U16(v) => 2 * v.len(),
            IndexVector::U8(v) => v.len(),
        }
    }

    /// The schema's name of the vector type.
    pub fn type_name(&self) -> &'static str {
        match self {
            IndexVector::I32(_) => "Int32Vector",
            IndexVector::U16(_) => "Uint16Vector",
            IndexVector::U8(_) => "Uint8Vector",
        }
    }

    fn iter(&self) -> impl Iterator<Item = i64> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// What [`Sparsity::check`] proved: the walk [`Sparsity::densify`] makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseLayout {
    /// Per level: the dense (row-major) stride of one step along its dimension.
    strides: Vec<usize>,
    /// Values the buffer stores.
    pub stored: usize,
    /// Elements of the dense tensor.
    pub dense_elements: usize,
    /// Bytes of one element.
    pub elem_size: usize,
    /// Block size of each block dimension, in `block_map` order.
    pub block_sizes: Vec<usize>,
}

impl SparseLayout {
    /// Bytes of the dense tensor.
    pub fn dense_bytes(&self) -> usize {
        self.dense_elements * self.elem_size
    }
    /// Bytes of the stored values.
    pub fn stored_bytes(&self) -> usize {
        self.stored * self.elem_size
    }
}

fn dim_name(rank: usize, block_map: &[i32], e: usize) -> String {
    if e < rank {
        format!("dimension {e}")
    } else {
        let k = e - rank;
        format!("block dimension {k} (of dimension {})", block_map.get(k).copied().unwrap_or(-1))
    }
}

impl Sparsity {
    /// Number of bytes the file spends on segment and index vectors.
    pub fn index_bytes(&self) -> usize {
        self.dim_metadata
            .iter()
            .map(|d| d.array_segments.as_ref().map_or(0, IndexVector::byte_size) + d.array_indices.as_ref().map_or(0, IndexVector::byte_size))
            .sum()
    }

    /// A short description of the format: `CSR(1) block 1x4 order [0, 1, 2, 3]`.
    pub fn describe(&self) -> String {
        let rank = self.dim_metadata.len().saturating_sub(self.block_map.len());
        let csr: Vec<String> = self
            .dim_metadata
            .iter()
            .zip(&self.traversal_order)
            .filter(|(d, _)| d.format == DimFormat::SparseCsr)
            .map(|(_, &e)| if (e as usize) < rank { format!("d{e}") } else { format!("b{}", e as usize - rank) })
            .collect();
        let mut s = if csr.is_empty() { "dense levels only".to_owned() } else { format!("CSR in {}", csr.join(", ")) };
        if !self.block_map.is_empty() {
            let sizes: Vec<String> = (0..self.block_map.len())
                .map(|k| {
                    let level = self.traversal_order.iter().position(|&e| e as usize == rank + k);
                    level.and_then(|l| self.dim_metadata.get(l)).map_or("?".to_owned(), |d| d.dense_size.to_string())
                })
                .collect();
            s += &format!(", blocks {} over dims {:?}", sizes.join("x"), self.block_map);
        }
        let identity = self.traversal_order.iter().enumerate().all(|(i, &e)| e as usize == i);
        if !identity {
            s += &format!(", order {:?}", self.traversal_order);
        }
        let mut widths: Vec<&str> = self
            .dim_metadata
            .iter()
            .flat_map(|d| [&d.array_segments, &d.array_indices])
            .flatten()
            .map(|v| match v {
                IndexVector::I32(_) => "int32",
                IndexVector::U16(_) => "uint16",
                IndexVector::U8(_) => "uint8",
            })
            .collect();
        widths.dedup();
        if !widths.is_empty() {
            s += &format!(", {} indices", widths.join("/"));
        }
        s
    }

    /// Validates the metadata for a tensor of `shape` and `dtype` whose buffer holds
    /// `data_len` bytes; the message names the field at fault.
    pub fn check(&self, shape: &[usize], dtype: DType, data_len: usize) -> Result<SparseLayout, String> {
        let elem_size = match dtype.size() {
            Some(s) if s > 0 => s,
            _ => return Err(format!("a sparse {} tensor cannot be densified (its elements are not whole bytes)", dtype.name())),
        };
        let rank = shape.len();
        let nb = self.block_map.len();
        let n = self.dim_metadata.len();
        let total = rank + nb;
        if n != total {
            return Err(format!(
                "dim_metadata has {n} entries, but a rank-{rank} tensor with {nb} block dimension(s) (block_map) needs {total}"
            ));
        }
        if self.traversal_order.len() != total {
            return Err(format!("traversal_order has {} entries, but dim_metadata has {total}", self.traversal_order.len()));
        }
        // traversal_order: a permutation, original dimensions first.
        let mut level_of = vec![usize::MAX; total];
        for (l, &e) in self.traversal_order.iter().enumerate() {
            let Some(slot) = usize::try_from(e).ok().and_then(|e| level_of.get_mut(e)) else {
                return Err(format!("traversal_order[{l}] = {e} is not a dimension (there are {total})"));
            };
            if *slot != usize::MAX {
                return Err(format!("traversal_order lists dimension {e} twice (entries {} and {l})", *slot));
            }
            *slot = l;
            if (l < rank) != ((e as usize) < rank) {
                return Err(format!(
                    "traversal_order[{l}] = {e}: the {rank} original dimensions must come before the block dimensions (TFLite's format converter requires it)"
                ));
            }
        }
        // block_map: distinct original dimensions in increasing order.
        let mut block_of = vec![None; rank];
        for (k, &d) in self.block_map.iter().enumerate() {
            let Some(slot) = usize::try_from(d).ok().and_then(|d| block_of.get_mut(d)) else {
                return Err(format!("block_map[{k}] = {d} is not a dimension of the rank-{rank} tensor"));
            };
            if k > 0 && self.block_map[k - 1] >= d {
                return Err(format!("block_map {:?} must name distinct dimensions in increasing order (TFLite's format converter requires it)", self.block_map));
            }
            *slot = Some(k);
        }
        // Block sizes: from each block dimension's own (DENSE) level.
        let mut block_sizes = Vec::with_capacity(nb);
        for (k, &d) in self.block_map.iter().enumerate() {
            let l = level_of[rank + k];
            let meta = &self.dim_metadata[l];
            if meta.format != DimFormat::Dense {
                return Err(format!("dim_metadata[{l}] (block dimension {k}) must be DENSE: TFLite stores blocks dense and reads no size for a compressed one"));
            }
            let size = usize::try_from(meta.dense_size).ok().filter(|&s| s > 0);
            let Some(size) = size else {
                return Err(format!("dim_metadata[{l}].dense_size = {} is not a block size", meta.dense_size));
            };
            // TFLite reads the size of block dimension k at level traversal_order[rank + k].
            let tl = self.traversal_order[rank + k] as usize;
            let theirs = self.dim_metadata[tl].dense_size;
            if theirs != meta.dense_size {
                return Err(format!(
                    "block dimension {k} has size {size} (dim_metadata[{l}]), but TFLite's format converter reads its size from dim_metadata[{tl}] ({theirs})"
                ));
            }
            let dim = shape[d as usize];
            if !dim.is_multiple_of(size) {
                return Err(format!("block size {size} does not divide dimension {d} of size {dim}"));
            }
            block_sizes.push(size);
        }
        // Expanded dimensions: their sizes and dense strides.
        let mut row_stride = vec![1usize; rank];
        for d in (0..rank.saturating_sub(1)).rev() {
            row_stride[d] = row_stride[d + 1].checked_mul(shape[d + 1]).ok_or("the shape is too large")?;
        }
        let dense_elements = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).ok_or("the shape is too large")?;
        let mut extent = vec![0usize; total];
        let mut stride = vec![0usize; total];
        for e in 0..total {
            if e < rank {
                let bs = block_of[e].map_or(1, |k| block_sizes[k]);
                extent[e] = shape[e] / bs;
                stride[e] = row_stride[e].saturating_mul(bs);
            } else {
                let k = e - rank;
                extent[e] = block_sizes[k];
                stride[e] = row_stride[self.block_map[k] as usize];
            }
        }
        // Levels: positions reached, level by level.
        let mut positions = 1usize;
        let mut strides = Vec::with_capacity(total);
        for (l, meta) in self.dim_metadata.iter().enumerate() {
            let e = self.traversal_order[l] as usize;
            let what = || format!("dim_metadata[{l}] ({})", dim_name(rank, &self.block_map, e));
            match meta.format {
                DimFormat::Dense => {
                    if usize::try_from(meta.dense_size).ok() != Some(extent[e]) {
                        return Err(format!("{} is DENSE with dense_size {}, but the dimension has {} coordinates", what(), meta.dense_size, extent[e]));
                    }
                    positions = positions.checked_mul(extent[e]).ok_or("the metadata describes too many values")?;
                }
                DimFormat::SparseCsr => {
                    let (Some(seg), Some(idx)) = (&meta.array_segments, &meta.array_indices) else {
                        let missing = if meta.array_segments.is_none() { "array_segments" } else { "array_indices" };
                        return Err(format!("{} is SPARSE_CSR without {missing}", what()));
                    };
                    let want = positions.checked_add(1).ok_or("the metadata describes too many values")?;
                    if seg.len() != want {
                        return Err(format!(
                            "{}: array_segments has {} entries, but the levels above reach {positions} positions, so it needs {want}",
                            what(),
                            seg.len()
                        ));
                    }
                    let mut prev = 0i64;
                    for (i, s) in seg.iter().enumerate() {
                        if i == 0 && s != 0 {
                            return Err(format!("{}: array_segments[0] = {s}, but segments start at 0", what()));
                        }
                        if s < prev {
                            return Err(format!("{}: array_segments[{i}] = {s} is below array_segments[{}] = {prev} (segments must not decrease)", what(), i - 1));
                        }
                        prev = s;
                    }
                    if usize::try_from(prev).ok() != Some(idx.len()) {
                        return Err(format!(
                            "{}: the last segment boundary is {prev}, but array_indices has {} entries",
                            what(),
                            idx.len()
                        ));
                    }
                    for (i, x) in idx.iter().enumerate() {
                        if usize::try_from(x).map_or(true, |x| x >= extent[e]) {
                            return Err(format!(
                                "{}: array_indices[{i}] = {x} is outside the dimension's {} coordinates",
                                what(),
                                extent[e]
                            ));
                        }
                    }
                    positions = idx.len();
                }
                DimFormat::Unknown(code) => {
                    return Err(format!("{}: dimension type {code} is neither DENSE nor SPARSE_CSR", what()));
                }
            }
            strides.push(stride[e]);
        }
        let stored_bytes = positions.checked_mul(elem_size).ok_or("the metadata describes too many values")?;
        if stored_bytes != data_len {
            return Err(format!(
                "the buffer holds {data_len} bytes, but the sparsity metadata stores {positions} {} values ({stored_bytes} bytes)",
                dtype.name()
            ));
        }
        Ok(SparseLayout { strides, stored: positions, dense_elements, elem_size, block_sizes })
    }

    /// The dense little-endian bytes of a tensor of `shape` and `dtype` whose buffer holds
    /// `data` (the stored values), as TFLite's `SparseToDense`; the metadata is checked
    /// first ([`Sparsity::check`]).
    pub fn densify(&self, shape: &[usize], dtype: DType, data: &[u8]) -> Result<Vec<u8>, String> {
        let layout = self.check(shape, dtype, data.len())?;
        let es = layout.elem_size;
        let mut out = vec![0u8; layout.dense_bytes()];
        if layout.dense_elements == 0 {
            return Ok(out);
        }
        let broken = || "sparsity metadata changed after its check".to_owned();
        // The walk, level by level: (position in this level, dense offset so far), in
        // depth-first order (each level expands its entries in order), so entry k of the
        // last level is stored value k.
        let mut frontier: Vec<(usize, usize)> = vec![(0, 0)];
        for (meta, &stride) in self.dim_metadata.iter().zip(&layout.strides) {
            let mut next = Vec::new();
            match (&meta.array_segments, &meta.array_indices) {
                (Some(seg), Some(idx)) if meta.format == DimFormat::SparseCsr => {
                    next.reserve(idx.len());
                    for &(pos, off) in &frontier {
                        let (Some(a), Some(b)) = (seg.get(pos), seg.get(pos + 1)) else { return Err(broken()) };
                        for j in a as usize..b as usize {
                            let x = idx.get(j).ok_or_else(broken)? as usize;
                            next.push((j, off + x * stride));
                        }
                    }
                }
                _ => {
                    let size = meta.dense_size as usize;
                    next.reserve(frontier.len() * size);
                    for &(pos, off) in &frontier {
                        for i in 0..size {
                            next.push((pos * size + i, off + i * stride));
                        }
                    }
                }
            }
            frontier = next;
        }
        if frontier.len() != layout.stored {
            return Err(broken());
        }
        for (k, &(_, off)) in frontier.iter().enumerate() {
            let (Some(dst), Some(src)) = (out.get_mut(off * es..(off + 1) * es), data.get(k * es..(k + 1) * es)) else { return Err(broken()) };
            dst.copy_from_slice(src);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::sparse::{encode, Format, Width};
    use crate::testing::Rng;

    fn dense(size: i32) -> DimMetadata {
        DimMetadata { format: DimFormat::Dense, dense_size: size, array_segments: None, array_indices: None }
    }
    fn csr(segments: &[i32], indices: &[i32]) -> DimMetadata {
        DimMetadata {
            format: DimFormat::SparseCsr,
            dense_size: 0,
            array_segments: Some(IndexVector::I32(segments.to_vec())),
            array_indices: Some(IndexVector::I32(indices.to_vec())),
        }
    }
    fn bytes(v: &[i8]) -> Vec<u8> {
        v.iter().map(|&x| x as u8).collect()
    }

    /// TFLite's format converter tests' 3x4 matrix with the rows compressed: rows 0 and 2
    /// are stored, each in full.
    #[test]
    fn compressed_rows_dense_columns() {
        let s = Sparsity { traversal_order: vec![0, 1], block_map: vec![], dim_metadata: vec![csr(&[0, 2], &[0, 2]), dense(4)] };
        let got = s.densify(&[3, 4], DType::I8, &bytes(&[6, 0, 9, 8, 5, 0, 0, 7])).unwrap();
        assert_eq!(got, bytes(&[6, 0, 9, 8, 0, 0, 0, 0, 5, 0, 0, 7]));
        let layout = s.check(&[3, 4], DType::I8, 8).unwrap();
        assert_eq!((layout.stored, layout.dense_elements), (8, 12));
    }

    /// The same matrix stored column-major (traversal order [1, 0]) with both levels
    /// compressed, and as 1x2 blocks.
    #[test]
    fn traversal_order_and_blocks() {
        let want = bytes(&[6, 0, 9, 8, 0, 0, 0, 0, 5, 0, 0, 7]);
        // Columns 0, 2, 3; rows of each: col 0 -> {0, 2}, col 2 -> {0}, col 3 -> {0, 2}.
        let s = Sparsity { traversal_order: vec![1, 0], block_map: vec![], dim_metadata: vec![csr(&[0, 3], &[0, 2, 3]), csr(&[0, 2, 3, 5], &[0, 2, 0, 0, 2])] };
        assert_eq!(s.densify(&[3, 4], DType::I8, &bytes(&[6, 5, 9, 8, 7])).unwrap(), want);
        // 1x2 blocks: the blocked matrix is 3x2; blocks (0,0) = [6,0], (0,1) = [9,8], (2,0) = [5,0], (2,1) = [0,7].
        let s = Sparsity {
            traversal_order: vec![0, 1, 2],
            block_map: vec![1],
            dim_metadata: vec![dense(3), csr(&[0, 2, 2, 4], &[0, 1, 0, 1]), dense(2)],
        };
        assert_eq!(s.densify(&[3, 4], DType::I8, &bytes(&[6, 0, 9, 8, 5, 0, 0, 7])).unwrap(), want);
        assert_eq!(s.describe(), "CSR in d1, blocks 2 over dims [1], int32 indices");
    }

    /// A coordinate stored twice keeps the later value, as TFLite's `Populate` writes it.
    #[test]
    fn repeated_coordinate_keeps_the_later_value() {
        let s = Sparsity { traversal_order: vec![0], block_map: vec![], dim_metadata: vec![csr(&[0, 2], &[1, 1])] };
        assert_eq!(s.densify(&[3], DType::I8, &bytes(&[4, 9])).unwrap(), bytes(&[0, 9, 0]));
    }

    /// A scalar has no levels and one stored value; an empty tensor stores none.
    #[test]
    fn scalar_and_empty() {
        let s = Sparsity { traversal_order: vec![], block_map: vec![], dim_metadata: vec![] };
        assert_eq!(s.densify(&[], DType::F32, &1.5f32.to_le_bytes()).unwrap(), 1.5f32.to_le_bytes());
        let s = Sparsity { traversal_order: vec![0, 1], block_map: vec![], dim_metadata: vec![dense(3), csr(&[0, 0, 0, 0], &[])] };
        assert_eq!(s.densify(&[3, 0], DType::F32, &[]).unwrap(), Vec::<u8>::new());
    }

    /// Random dense tensors, stored in random formats by the independent encoder
    /// (`testing::sparse::encode`), densify back to themselves: ranks 0 to 4, every level
    /// DENSE or SPARSE_CSR, random traversal orders, up to two block dimensions, each
    /// index vector type, element sizes 1, 2, 4 and 8.
    #[test]
    fn random_formats_round_trip() {
        let mut rng = Rng(0x5ba75e);
        let mut nonzero_stored = 0;
        for case in 0..3000 {
            let rank = rng.range(0, 4) as usize;
            let mut shape: Vec<usize> = (0..rank).map(|_| rng.range(1, 6) as usize).collect();
            // Blocks: up to two dimensions, in increasing order, each a divisor > 1 when one exists.
            let mut block_map = Vec::new();
            let mut block_sizes = Vec::new();
            for (d, dim) in shape.iter_mut().enumerate() {
                if block_map.len() < 2 && rng.range(0, 2) == 0 {
                    let b = rng.range(1, 3) as usize;
                    *dim *= b;
                    block_map.push(d);
                    block_sizes.push(b);
                }
            }
            let mut orig: Vec<usize> = (0..rank).collect();
            let mut blocks: Vec<usize> = (rank..rank + block_map.len()).collect();
            for v in [&mut orig, &mut blocks] {
                for i in (1..v.len()).rev() {
                    let j = rng.range(0, i as i64) as usize;
                    v.swap(i, j);
                }
            }
            let n = orig.len() + blocks.len();
            let mut csr: Vec<bool> = (0..n).map(|_| rng.range(0, 1) == 0).collect();
            // Block dimensions are DENSE (TFLite stores blocks dense).
            for c in csr.iter_mut().skip(rank) {
                *c = false;
            }
            let count: usize = shape.iter().product();
            // Segment boundaries and indices stay below the element count.
            let width = match [Width::I32, Width::U16, Width::U8][rng.range(0, 2) as usize] {
                Width::U8 if count > 255 => Width::U16,
                w => w,
            };
            let elem = [(DType::I8, 1), (DType::F16, 2), (DType::F32, 4), (DType::I64, 8)][rng.range(0, 3) as usize];
            let dense: Vec<u8> = (0..count)
                .flat_map(|_| {
                    let zero = rng.range(0, 9) < 6;
                    (0..elem.1).map(|_| if zero { 0 } else { rng.next_u64() as u8 }).collect::<Vec<_>>()
                })
                .collect();
            let traversal_order: Vec<usize> = orig.iter().chain(&blocks).copied().collect();
            let f = Format { traversal_order, block_map, block_sizes, csr, width };
            let (sparsity, stored) = encode(&dense, &shape, elem.1, &f);
            let got = sparsity.densify(&shape, elem.0, &stored);
            assert!(got.as_deref() == Ok(dense.as_slice()), "case {case}: shape {shape:?} {f:?}: {:?}", got.err());
            if stored.len() < dense.len() {
                nonzero_stored += 1;
            }
        }
        // The cases compress: most store fewer bytes than the dense tensor.
        assert!(nonzero_stored > 1000, "{nonzero_stored}");
    }
}
