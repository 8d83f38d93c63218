//! DENSIFY: a sparse constant in dense form. TFLite runs it once, at its first invoke
//! (`tensorflow/lite/kernels/densify.cc`: the input must be a constant with sparsity
//! metadata, the output takes its type and shape); tflc runs it at compile time:
//! `passes::fold` densifies every sparse constant (`ir::Sparsity::densify`, TFLite's
//! `FormatConverter<T>::SparseToDense`) and makes DENSIFY's output that constant, so the op
//! lowers to no code. This lowering is reached only when the fold could not happen, and says
//! why.

use super::{FoldedOp, OpCx};
use crate::error::LowerError;

pub(crate) fn lower(cx: &OpCx<'_, '_>) -> Result<FoldedOp, LowerError> {
    cx.expect_arity(1..=1, 1)?;
    let (input, output) = (cx.input(0)?, cx.output(0)?);
    if cx.sg.outputs.contains(&output.id) || output.is_variable {
        return Err(cx.unsupported_tensor(
            output,
            "DENSIFY runs at compile time in tflc, so its output cannot be a subgraph output or a variable",
        ));
    }
    if !input.is_constant() {
        return Err(cx.invalid_tensor(input, "DENSIFY's input must be a constant sparse tensor (TFLite requires it too)"));
    }
    if input.dtype != output.dtype || input.shape != output.shape {
        return Err(cx.invalid_tensor(
            output,
            format!(
                "DENSIFY's output is {}{}, but its input is {}{} (the output takes the input's type and shape)",
                output.dtype,
                crate::text::shape(&output.shape),
                input.dtype,
                crate::text::shape(&input.shape)
            ),
        ));
    }
    Err(cx.invalid_tensor(input, "DENSIFY's input has no sparsity metadata (TFLite requires a sparse constant)"))
}

#[cfg(test)]
mod tests {
    use crate::ir::{Activation, DType, DimFormat, DimMetadata, IndexVector, OpKind, Quantization, Sparsity, TensorId};
    use crate::passes::fold::FoldedModel;
    use crate::testing::sparse::{encode, Format, Width};
    use crate::testing::Rng;
    use crate::tflite::builder::ModelBuilder;

    /// A dense tensor of `dtype` and `count` elements, about 60% zeros, the rest finite
    /// non-zero values (little-endian bytes).
    fn random_dense(rng: &mut Rng, dtype: DType, count: usize) -> Vec<u8> {
        const HALVES: [u16; 8] = [0x3c00, 0xbc00, 0x3800, 0x4000, 0xc200, 0x3555, 0x0001, 0x7bff];
        let mut out = Vec::new();
        for _ in 0..count {
            let zero = rng.range(0, 9) < 6;
            match dtype {
                DType::F32 => out.extend(if zero { 0.0f32 } else { rng.range(1, 32) as f32 * 0.25 * if rng.range(0, 1) == 0 { -1.0 } else { 1.0 } }.to_le_bytes()),
                DType::F16 => out.extend(if zero { 0u16 } else { HALVES[rng.range(0, 7) as usize] }.to_le_bytes()),
                _ => out.push(if zero { 0 } else { rng.range(1, 255) as u8 }),
            }
        }
        out
    }

    /// A builder model: the sparse constant `w` (tensor 0), DENSIFY -> `dense` (tensor 1),
    /// for float16 a DEQUANTIZE to float32, and an ADD of the input and the dense weights.
    /// Returns the model, DENSIFY's output and the dense bytes the constant encodes.
    fn case_model(dtype: DType, shape: &[usize], f: &Format, seed: u64) -> (Vec<u8>, TensorId, Vec<u8>) {
        let mut rng = Rng(seed);
        let count = shape.iter().product();
        let dense = random_dense(&mut rng, dtype, count);
        let es = dtype.size().unwrap_or(1);
        let (sparsity, stored) = encode(&dense, shape, es, f);
        let q = (dtype == DType::I8).then(|| Quantization { scale: vec![0.5], zero_point: vec![0], axis: None });
        let q2 = (dtype == DType::I8).then_some((0.5, 0));
        let mut m = ModelBuilder::new();
        let w = m.constant_sparse("w", dtype, shape, stored, sparsity, q);
        let d = m.activation("dense", dtype, shape, q2);
        m.op(OpKind::Densify, &[Some(w)], &[d]);
        let value = if dtype == DType::F16 {
            let f = m.activation("dense_f32", DType::F32, shape, None);
            m.op(OpKind::Dequantize, &[Some(d)], &[f]);
            f
        } else {
            d
        };
        let vt = if dtype == DType::F16 { DType::F32 } else { dtype };
        let x = m.activation("x", vt, shape, q2);
        let y = m.activation("y", vt, shape, q2);
        m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(value)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        (m.finish(), d, dense)
    }

    fn blocks(order: &[usize], block_map: &[usize], block_sizes: &[usize], csr: &[bool], width: Width) -> Format {
        Format { traversal_order: order.to_vec(), block_map: block_map.to_vec(), block_sizes: block_sizes.to_vec(), csr: csr.to_vec(), width }
    }

    /// The builder models: each dimension type, traversal orders, block maps, each index
    /// vector type, and float32, float16 and int8 values.
    fn cases() -> Vec<(&'static str, Vec<u8>, TensorId, Vec<u8>)> {
        let specs: Vec<(&'static str, DType, Vec<usize>, Format)> = vec![
            ("dense_only_f32", DType::F32, vec![3, 4], Format::csr_levels(2, &[], Width::I32)),
            ("csr_rows_i8_u8", DType::I8, vec![6, 5], Format::csr_levels(2, &[0], Width::U8)),
            ("csr_cols_f32_i32", DType::F32, vec![4, 7], Format::csr_levels(2, &[1], Width::I32)),
            ("csr_rows_cols_f16_u16", DType::F16, vec![5, 6], Format::csr_levels(2, &[0, 1], Width::U16)),
            ("order_10_csr_f32_u16", DType::F32, vec![3, 5], blocks(&[1, 0], &[], &[], &[false, true], Width::U16)),
            ("rank3_order_201_f16_i32", DType::F16, vec![2, 3, 4], blocks(&[2, 0, 1], &[], &[], &[true, false, true], Width::I32)),
            ("block_2x2_f32_u8", DType::F32, vec![4, 4], blocks(&[0, 1, 2, 3], &[0, 1], &[2, 2], &[false, true, false, false], Width::U8)),
            ("block_1x4_i8_u16", DType::I8, vec![4, 8], blocks(&[0, 1, 2], &[1], &[4], &[false, true, false], Width::U16)),
            ("block_2x2_order_1032_f16_i32", DType::F16, vec![4, 6], blocks(&[1, 0, 3, 2], &[0, 1], &[2, 2], &[true, true, false, false], Width::I32)),
            ("conv_4d_csr_i8_u8", DType::I8, vec![4, 3, 3, 2], Format::csr_levels(4, &[3], Width::U8)),
        ];
        specs
            .into_iter()
            .enumerate()
            .map(|(i, (name, dtype, shape, f))| {
                let (bytes, d, dense) = case_model(dtype, &shape, &f, 0x28_0000 + i as u64);
                (name, bytes, d, dense)
            })
            .collect()
    }

    /// TFLite's DENSIFY outputs of the builder models (ai-edge-litert 2.3.0, reference
    /// kernels): `TFLC_DUMP_SPARSE_MODELS=dir cargo test -p tflc --lib densify::tests`, then
    /// `python3 tools/sparse_vectors.py dir`. float32 as u32 bits, float16 as u16 bits.
    #[rustfmt::skip]
    const TFLITE_DENSE: &[(&str, usize, &[i64])] = &[
    ("block_1x4_i8_u16", 1, &[0, 0, 0, -102, 0, 49, -7, 0, 14, 0, -128, 26, 115, 0, 0, 0, -11, -51, 0, 0, 125, -20, 0, 0, 0, -95, 0, 0, 105, 0, 0, 0]),
    ("block_2x2_f32_u8", 1, &[3196059648, 1073741824, 0, 3224371200, 1087897600, 0, 0, 0, 0, 1086324736, 0, 3217031168, 0, 1089994752, 3234332672, 1056964608]),
    ("block_2x2_order_1032_f16_i32", 1, &[13653, 0, 0, 13653, 48128, 0, 0, 16384, 1, 0, 0, 13653, 0, 0, 0, 48128, 0, 0, 0, 0, 14336, 0, 48128, 0]),
    ("conv_4d_csr_i8_u8", 1, &[0, 0, 0, 126, 0, 0, 0, 122, 0, 106, 93, 0, 102, -51, 0, 0, 0, -111, 0, 0, 0, 0, 0, 0, -104, 0, 0, 0, 0, 0, 0, 0, 103, 0, 27, 51, 0, 2, 0, 0, 0, 0, 0, 102, 0, 72, 0, -80, 0, 66, 0, 0, -91, 0, 0, -70, 0, 98, 0, 0, 0, 0, -29, 0, 0, -11, -116, 0, 10, 0, 0, 0]),
    ("csr_cols_f32_i32", 1, &[3212836864, 0, 0, 0, 0, 0, 0, 0, 0, 1074790400, 1077936128, 0, 3214934016, 0, 1083179008, 0, 3221225472, 3230138368, 3235905536, 0, 0, 3235905536, 0, 0, 0, 1087373312, 0, 0]),
    ("csr_rows_cols_f16_u16", 1, &[15360, 14336, 0, 0, 13653, 0, 0, 48128, 0, 49664, 0, 15360, 15360, 0, 0, 0, 0, 0, 0, 48128, 13653, 0, 0, 0, 0, 16384, 0, 48128, 16384, 0]),
    ("csr_rows_i8_u8", 1, &[25, 94, 0, -3, 0, 0, 0, 0, 63, -115, 0, 0, -27, 0, 0, -70, 0, 0, -17, 0, 0, 2, 0, 0, 97, 0, 0, 0, 0, 0]),
    ("dense_only_f32", 1, &[1088946176, 1074790400, 0, 0, 0, 3232759808, 1086324736, 1048576000, 1084227584, 0, 0, 0]),
    ("order_10_csr_f32_u16", 1, &[3233284096, 0, 0, 0, 3235905536, 0, 1048576000, 0, 3217031168, 0, 1089470464, 1075838976, 3225419776, 0, 3231186944]),
    ("rank3_order_201_f16_i32", 1, &[0, 15360, 0, 48128, 0, 31743, 0, 31743, 0, 1, 1, 48128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 48128, 0]),
    ];

    /// The elements of little-endian `bytes` of `dtype` as the literals spell them.
    fn elements(dtype: DType, bytes: &[u8]) -> Vec<i64> {
        match dtype {
            DType::F32 => bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64).collect(),
            DType::F16 => bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]) as i64).collect(),
            _ => bytes.iter().map(|&b| b as i8 as i64).collect(),
        }
    }

    #[test]
    fn builder_models_densify_as_tflite() {
        let dump = std::env::var_os("TFLC_DUMP_SPARSE_MODELS").map(std::path::PathBuf::from);
        for (name, bytes, d, dense) in cases() {
            if let Some(dir) = &dump {
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(dir.join(format!("{name}.tflite")), &bytes).unwrap();
            }
            let model = crate::passes::read_model(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let folding = FoldedModel::of(&model);
            assert_eq!(folding.subgraphs[0].ops.first().map(|(op, ts)| (op.index(), ts.clone())), Some((0, vec![d])), "{name}: DENSIFY folds");
            let folded = folding.apply(&model);
            let t = folded.main().tensor(d);
            let got = t.data.unwrap_or_default();
            assert_eq!(got, dense.as_slice(), "{name}: differs from the dense tensor the encoder stored");
            match TFLITE_DENSE.iter().find(|(n, _, _)| *n == name) {
                Some((_, ti, want)) => {
                    assert_eq!(*ti, d.index(), "{name}");
                    assert_eq!(elements(t.dtype, got), *want, "{name}: differs from TFLite's DENSIFY");
                }
                None => assert!(dump.is_some(), "{name}: no TFLite vector (run tools/sparse_vectors.py)"),
            }
            // The whole model compiles: DENSIFY (and DEQUANTIZE) emit no code, the ADD reads
            // the dense constant.
            let code = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}")).code;
            assert!(code.contains("op 0: DENSIFY") && code.matches("folded at compile time, no code").count() == 1 + usize::from(t.dtype == DType::F16), "{name}: {code}");
        }
    }

    /// The whole model computes `x + dense` in the reference interpreter (float32).
    #[test]
    fn densified_weights_reach_the_kernel() {
        let f = Format::csr_levels(2, &[1], Width::U8);
        let (bytes, _, dense) = case_model(DType::F32, &[3, 5], &f, 7);
        let model = crate::passes::read_model(&bytes).unwrap();
        let x: Vec<f32> = (0..15).map(|i| i as f32).collect();
        let xb: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
        let out = crate::interp::run(&model, &[&xb]).unwrap();
        let want: Vec<u8> = dense.chunks_exact(4).zip(&x).flat_map(|(c, a)| (f32::from_le_bytes([c[0], c[1], c[2], c[3]]) + a).to_le_bytes()).collect();
        assert_eq!(out, vec![want]);
    }

    fn dense(size: i32) -> DimMetadata {
        DimMetadata { format: DimFormat::Dense, dense_size: size, array_segments: None, array_indices: None }
    }
    fn csr(segments: IndexVector, indices: IndexVector) -> DimMetadata {
        DimMetadata { format: DimFormat::SparseCsr, dense_size: 0, array_segments: Some(segments), array_indices: Some(indices) }
    }
    fn i32s(v: &[i32]) -> IndexVector {
        IndexVector::I32(v.to_vec())
    }

    /// `w`: an int8 [4, 4] constant stored with `sp` and `stored` values, read by DENSIFY
    /// (op 0), whose output an ADD reads.
    fn model_with(dtype: DType, shape: &[usize], sp: Sparsity, stored: usize) -> Vec<u8> {
        let es = dtype.size().unwrap_or(1);
        let mut m = ModelBuilder::new();
        let w = m.constant_sparse("w", dtype, shape, vec![1; stored * es], sp, None);
        let d = m.activation("dense", dtype, shape, None);
        let x = m.activation("x", dtype, shape, None);
        let y = m.activation("y", dtype, shape, None);
        m.op(OpKind::Densify, &[Some(w)], &[d]);
        m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(d)], &[y]);
        m.inputs(&[x]).outputs(&[y]);
        m.finish()
    }

    /// Rows 0 and 2 of a 4x4 matrix, CSR in the columns: (0, 2), (2, 0), (2, 3).
    fn csr_4x4() -> Sparsity {
        Sparsity { traversal_order: vec![0, 1], block_map: vec![], dim_metadata: vec![dense(4), csr(i32s(&[0, 1, 1, 3, 3]), i32s(&[2, 0, 3]))] }
    }

    /// A 4x4 matrix in 2x2 blocks, blocks (0, 1) and (1, 0) stored.
    fn blocks_4x4() -> Sparsity {
        Sparsity {
            traversal_order: vec![0, 1, 2, 3],
            block_map: vec![0, 1],
            dim_metadata: vec![dense(2), csr(i32s(&[0, 1, 2]), i32s(&[1, 0])), dense(2), dense(2)],
        }
    }

    /// Every way the metadata can disagree with itself, the shape or the buffer is an error
    /// of the reader that names the field, the tensor and the operator reading it (the CLI
    /// exits with status 2 for it), never a panic.
    #[test]
    fn malformed_sparsity_is_refused_by_name() {
        let edit = |base: fn() -> Sparsity, f: &dyn Fn(&mut Sparsity)| {
            let mut s = base();
            f(&mut s);
            s
        };
        let u8s = |v: &[u8]| IndexVector::U8(v.to_vec());
        // (what, element type, shape, metadata, stored values, what the error must say).
        type Case = (&'static str, DType, Vec<usize>, Sparsity, usize, &'static str);
        let cases: Vec<Case> = vec![
            ("valid (control)", DType::I8, vec![4, 4], csr_4x4(), 3, ""),
            ("valid blocks (control)", DType::I8, vec![4, 4], blocks_4x4(), 8, ""),
            ("level missing", DType::I8, vec![4, 4], edit(csr_4x4, &|s| { s.dim_metadata.pop(); }), 3, "dim_metadata has 1 entries, but a rank-2 tensor with 0 block dimension(s) (block_map) needs 2"),
            ("traversal_order short", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.traversal_order = vec![0]), 3, "traversal_order has 1 entries, but dim_metadata has 2"),
            ("traversal_order repeats", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.traversal_order = vec![1, 1]), 3, "traversal_order lists dimension 1 twice"),
            ("traversal_order out of range", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.traversal_order = vec![0, 7]), 3, "traversal_order[1] = 7 is not a dimension"),
            ("traversal_order negative", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.traversal_order = vec![-1, 0]), 3, "traversal_order[0] = -1 is not a dimension"),
            ("block before original", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| s.traversal_order = vec![0, 2, 1, 3]), 8, "original dimensions must come before the block dimensions"),
            ("block_map out of range", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| s.block_map = vec![0, 5]), 8, "block_map[1] = 5 is not a dimension"),
            ("block_map not increasing", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| s.block_map = vec![1, 0]), 8, "block_map [1, 0] must name distinct dimensions in increasing order"),
            ("block dimension compressed", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| s.dim_metadata[3] = csr(i32s(&[0, 1]), i32s(&[0]))), 8, "dim_metadata[3] (block dimension 1) must be DENSE"),
            ("block size zero", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| s.dim_metadata[2] = dense(0)), 8, "dim_metadata[2].dense_size = 0 is not a block size"),
            ("block size does not divide", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| { s.dim_metadata[2] = dense(3); s.dim_metadata[3] = dense(3) }), 8, "block size 3 does not divide dimension 0 of size 4"),
            ("dense_size differs", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[0] = dense(5)), 3, "dim_metadata[0] (dimension 0) is DENSE with dense_size 5, but the dimension has 4 coordinates"),
            ("dense_size negative", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[0] = dense(-4)), 3, "is DENSE with dense_size -4"),
            ("blocked dense_size differs", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| s.dim_metadata[0] = dense(4)), 8, "dim_metadata[0] (dimension 0) is DENSE with dense_size 4, but the dimension has 2 coordinates"),
            ("segments missing", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_segments = None), 3, "dim_metadata[1] (dimension 1) is SPARSE_CSR without array_segments"),
            ("indices missing", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_indices = None), 3, "is SPARSE_CSR without array_indices"),
            ("segments too short", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_segments = Some(i32s(&[0, 1, 3]))), 3, "array_segments has 3 entries, but the levels above reach 4 positions, so it needs 5"),
            ("segments start above 0", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_segments = Some(i32s(&[1, 1, 1, 3, 3]))), 3, "array_segments[0] = 1, but segments start at 0"),
            ("segments decrease", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_segments = Some(i32s(&[0, 2, 1, 3, 3]))), 3, "array_segments[2] = 1 is below array_segments[1] = 2"),
            ("negative segment", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_segments = Some(i32s(&[0, -1, 1, 3, 3]))), 3, "array_segments[1] = -1 is below array_segments[0] = 0"),
            ("last segment short", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_segments = Some(i32s(&[0, 1, 1, 2, 2]))), 3, "the last segment boundary is 2, but array_indices has 3 entries"),
            ("last segment past the indices", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_segments = Some(u8s(&[0, 1, 1, 3, 200]))), 3, "the last segment boundary is 200, but array_indices has 3 entries"),
            ("index out of range", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_indices = Some(IndexVector::U16(vec![2, 0, 4]))), 3, "array_indices[2] = 4 is outside the dimension's 4 coordinates"),
            ("negative index", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[1].array_indices = Some(i32s(&[2, -3, 3]))), 3, "array_indices[1] = -3 is outside the dimension's 4 coordinates"),
            ("block index out of range", DType::I8, vec![4, 4], edit(blocks_4x4, &|s| s.dim_metadata[1].array_indices = Some(u8s(&[1, 2]))), 8, "dim_metadata[1] (dimension 1): array_indices[1] = 2 is outside the dimension's 2 coordinates"),
            ("unknown dimension type", DType::I8, vec![4, 4], edit(csr_4x4, &|s| s.dim_metadata[0].format = DimFormat::Unknown(5)), 3, "dimension type 5 is neither DENSE nor SPARSE_CSR"),
            ("buffer too short", DType::I8, vec![4, 4], csr_4x4(), 2, "the buffer holds 2 bytes, but the sparsity metadata stores 3 int8 values (3 bytes)"),
            ("buffer too long", DType::F32, vec![4, 4], csr_4x4(), 4, "the buffer holds 16 bytes, but the sparsity metadata stores 3 float32 values (12 bytes)"),
            // Three block dimensions whose traversal order is a cycle: TFLite's converter
            // reads block 0's size from the level of block 2.
            (
                "block size where TFLite reads another level",
                DType::I8,
                vec![2, 4, 2],
                Sparsity { traversal_order: vec![0, 1, 2, 4, 5, 3], block_map: vec![0, 1, 2], dim_metadata: vec![dense(2), dense(2), dense(1), dense(2), dense(2), dense(1)] },
                16,
                "block dimension 0 has size 1 (dim_metadata[5]), but TFLite's format converter reads its size from dim_metadata[4] (2)",
            ),
        ];
        let dump = std::env::var_os("TFLC_DUMP_SPARSE_MODELS").map(|d| std::path::PathBuf::from(d).join("malformed"));
        for (label, dtype, shape, sp, stored, needle) in cases {
            let bytes = model_with(dtype, &shape, sp, stored);
            if let Some(dir) = &dump {
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(dir.join(format!("{}.tflite", label.replace(' ', "_"))), &bytes).unwrap();
            }
            match (crate::passes::read_model(&bytes), needle) {
                (Ok(m), "") => assert!(crate::passes::fold::FoldedModel::of(&m).count() == 1, "{label}: folds"),
                (Ok(_), _) => panic!("{label}: read without error"),
                (Err(e), "") => panic!("{label}: {e}"),
                (Err(e), needle) => {
                    let msg = e.to_string();
                    assert!(matches!(e, crate::ParseError::Sparsity { .. }), "{label}: {msg}");
                    assert!(msg.starts_with("op 0 (DENSIFY), tensor 0 \"w\": invalid sparsity metadata: sparse "), "{label}: {msg}");
                    assert!(msg.contains(needle), "{label}: {msg:?} does not say {needle:?}");
                }
            }
        }
        // A small file cannot ask for a huge allocation: [32768, 16384] int8 from one row.
        let sp = Sparsity { traversal_order: vec![0, 1], block_map: vec![], dim_metadata: vec![csr(i32s(&[0, 1]), i32s(&[5])), dense(16384)] };
        let mut big = vec![32768, 16384];
        let msg = crate::passes::read_model(&model_with(DType::I8, &big, sp.clone(), 16384)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("it densifies to 536870912 bytes, over tflc's limit of 268435456 for one constant"), "{msg}");
        big[0] = 16384;
        assert!(crate::passes::read_model(&model_with(DType::I8, &big, sp, 16384)).is_ok());
        // Element types without whole-byte elements cannot be densified.
        let bytes = model_with(DType::I4, &[4, 4], csr_4x4(), 3);
        let msg = crate::passes::read_model(&bytes).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("a sparse int4 tensor cannot be densified"), "{msg}");
    }

    /// DENSIFY that cannot fold says why at lowering: an activation input, a dense
    /// constant input, an output of another type, a subgraph output.
    #[test]
    fn unfoldable_densify_is_refused_by_name() {
        let lower_err = |bytes: &[u8]| -> String {
            let model = crate::passes::read_model(bytes).unwrap();
            let folding = FoldedModel::of(&model);
            let model = folding.apply(&model);
            let sg = model.main();
            match crate::lower::ops::lower(sg, &sg.ops[crate::ir::OpId::new(0)]) {
                Ok(_) => "lowered".into(),
                Err(e) => e.to_string(),
            }
        };
        let build = |sparse: bool, constant: bool, out_dtype: DType, as_output: bool| {
            let mut m = ModelBuilder::new();
            let w = if !constant {
                m.activation("w", DType::F32, &[4, 4], None)
            } else if sparse {
                m.constant_sparse("w", DType::F32, &[4, 4], vec![0; 12], csr_4x4(), None)
            } else {
                m.constant_f32("w", &[4, 4], &[0.0; 16])
            };
            let d = m.activation("dense", out_dtype, &[4, 4], None);
            m.op(OpKind::Densify, &[Some(w)], &[d]);
            let x = m.activation("x", out_dtype, &[4, 4], None);
            let y = m.activation("y", out_dtype, &[4, 4], None);
            m.op(OpKind::Add { activation: Activation::None }, &[Some(x), Some(d)], &[y]);
            if as_output {
                m.inputs(&[x]).outputs(&[y, d]);
            } else {
                m.inputs(&[x]).outputs(&[y]);
            }
            m.finish()
        };
        assert_eq!(lower_err(&build(true, true, DType::F32, false)), "lowered");
        let e = lower_err(&build(true, true, DType::F32, true));
        assert!(e.contains("op 0 (DENSIFY)") && e.contains("cannot be a subgraph output"), "{e}");
        let e = lower_err(&build(false, false, DType::F32, false));
        assert!(e.contains("tensor 0 \"w\"") && e.contains("must be a constant sparse tensor"), "{e}");
        let e = lower_err(&build(false, true, DType::F32, false));
        assert!(e.contains("has no sparsity metadata"), "{e}");
        let e = lower_err(&build(true, true, DType::I32, false));
        assert!(e.contains("DENSIFY's output is int32[4,4], but its input is float32[4,4]"), "{e}");
    }

    /// Models TensorFlow's converter made (`tools/sparse_converter_models.py`, tensorflow-cpu
    /// 2.21.0, `Optimize.EXPERIMENTAL_SPARSITY`, float32 and float16 weights): two pruned
    /// FULLY_CONNECTED layers, and a CONV_2D and a FULLY_CONNECTED.
    const CONVERTER_MODELS: &[(&str, &[u8])] = &[
        ("sparse_conv_f16", include_bytes!("../../../tests/data/sparse/sparse_conv_f16.tflite")),
        ("sparse_conv_f32", include_bytes!("../../../tests/data/sparse/sparse_conv_f32.tflite")),
        ("sparse_fc_f16", include_bytes!("../../../tests/data/sparse/sparse_fc_f16.tflite")),
        ("sparse_fc_f32", include_bytes!("../../../tests/data/sparse/sparse_fc_f32.tflite")),
    ];

    /// TFLite's DENSIFY and DEQUANTIZE outputs on them (ai-edge-litert 2.3.0, reference
    /// kernels; `python3 tools/sparse_vectors.py --converter compiler/tests/data/sparse`):
    /// tensor, bytes, FNV-1a 64 of the bytes.
    const TFLITE_CONVERTER_DENSE: &[(&str, usize, usize, u64)] = &[
    ("sparse_conv_f16", 2, 40, 0x6c5f68d4a4fba6f6),
    ("sparse_conv_f16", 4, 5760, 0x0d376054146423c1),
    ("sparse_conv_f16", 5, 11520, 0x5d68eb848a5863a2),
    ("sparse_conv_f16", 7, 576, 0x2c1a49932d8be46d),
    ("sparse_conv_f16", 8, 1152, 0x277cbcb3fc8d6360),
    ("sparse_conv_f16", 10, 32, 0xaefa3ee44a740dec),
    ("sparse_conv_f32", 3, 1152, 0x3425712a6049b4e3),
    ("sparse_conv_f32", 9, 11520, 0xa2fe39ad66d00261),
    ("sparse_fc_f16", 2, 64, 0x56ecad56ebee0798),
    ("sparse_fc_f16", 4, 1024, 0x181e5fc411da7f06),
    ("sparse_fc_f16", 5, 2048, 0x1a77b5da5a49d4e1),
    ("sparse_fc_f16", 7, 1536, 0xfe6533519c3f120b),
    ("sparse_fc_f16", 8, 3072, 0x334556be8a450cad),
    ("sparse_fc_f16", 10, 128, 0x5d319ad872c37280),
    ("sparse_fc_f32", 3, 3072, 0x6c8268538dbc7eaf),
    ("sparse_fc_f32", 7, 2048, 0xb3d34504ef853909),
    ];

    /// And their outputs (float32 bits) for the input `x[i] = ((i * 37) % 17 - 8) / 8`.
    #[rustfmt::skip]
    const TFLITE_CONVERTER_OUT: &[(&str, usize, &[u32])] = &[
    ("sparse_conv_f16", 14, &[3217159326, 1052730166, 3216886890, 1079453213, 1059179400, 3218934291, 1065522684, 1035450256, 1063029853, 1074733064]),
    ("sparse_conv_f32", 10, &[3217154095, 1052723604, 3216886764, 1079451917, 1059177383, 3218939286, 1065526684, 1035473069, 1063030194, 1074733267]),
    ("sparse_fc_f16", 12, &[3202147470, 3173528264, 3207230381, 3185323812, 1054218982, 3208528540, 3184863788, 1045588116, 1060879614, 3190257448, 3187512648, 1053692350, 1033504418, 3203739517, 1052516296, 3179859287]),
    ("sparse_fc_f32", 8, &[3202151937, 3173516266, 3207228806, 3185334545, 1054215148, 3208527937, 3184865872, 1045585903, 1060881931, 3190253245, 3187512886, 1053686510, 1033493233, 3203737270, 1052511807, 3179851717]),
    ];

    fn fnv1a64(b: &[u8]) -> u64 {
        b.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3))
    }

    /// The converter's sparse weights densify to TFLite's bytes (and float16 ones widen to
    /// its float32), and the compiled models compute TFLite's outputs.
    #[test]
    fn converter_models_match_tflite() {
        for (name, bytes) in CONVERTER_MODELS {
            let model = crate::passes::read_model(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(model.main().tensors.iter().filter(|t| t.sparsity.is_some()).count() == 2, "{name}: two sparse constants");
            let folding = FoldedModel::of(&model);
            let folded = folding.apply(&model);
            let sg = folded.main();
            let mut checked = 0;
            for (_, t, len, hash) in TFLITE_CONVERTER_DENSE.iter().filter(|(n, ..)| n == name) {
                let data = sg.tensor(TensorId::new(*t)).data.unwrap_or_else(|| panic!("{name}: t{t} is not constant"));
                assert_eq!((data.len(), fnv1a64(data)), (*len, *hash), "{name}: t{t} differs from TFLite's");
                checked += 1;
            }
            assert!(checked >= 2, "{name}");
            let input = &sg.tensor(sg.inputs[0]);
            let x: Vec<u8> = (0..input.num_elements()).flat_map(|i| (((i * 37) % 17) as f32 / 8.0 - 1.0).to_le_bytes()).collect();
            let out = crate::interp::run(&model, &[&x]).unwrap_or_else(|e| panic!("{name}: {e}"));
            let (_, _, want) = TFLITE_CONVERTER_OUT.iter().find(|(n, ..)| n == name).unwrap();
            let got: Vec<f32> = out[0].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            for (i, (g, w)) in got.iter().zip(want.iter().map(|&b| f32::from_bits(b))).enumerate() {
                assert!((g - w).abs() <= 1e-5 * w.abs().max(1.0), "{name}: output {i} is {g}, TFLite's {w}");
            }
            assert_eq!(got.len(), want.len(), "{name}");
            let code = crate::compile(bytes, &crate::CompileOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}")).code;
            assert_eq!(code.matches(": DENSIFY").count(), 2, "{name}");
        }
    }
}
