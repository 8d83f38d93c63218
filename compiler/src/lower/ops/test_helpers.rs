//! Shared helpers for the per-op tests: lower the single op of a model built with
//! [`ModelBuilder`](crate::tflite::builder::ModelBuilder), run it on given inputs, emit it.
//!
//! With `TFLC_DUMP_OP_MODELS=<dir>` set, [`run_op0`] also writes each model and its inputs
//! (`<name>.tflite`, `<name>.in<i>.bin`, inputs in subgraph-input order) to `<dir>`, so
//! that expected outputs can be produced once with the pip reference interpreters
//! (`tflite-micro`, `ai-edge-litert`) and committed as literals.

use super::{lower, Kernel, TensorData, TensorStore};
use crate::emit::{EmitCx, Items};
use crate::error::LowerError;
use crate::ir::TensorId;

/// Lowers op 0 of `bytes`.
pub(crate) fn lower_op0(bytes: &[u8]) -> Result<Box<dyn Kernel>, LowerError> {
    let model = crate::passes::read_model(bytes).expect("the test model parses");
    let sg = model.main();
    lower(sg, &sg.ops[crate::ir::OpId::new(0)])
}

/// Lowers op 0 of `bytes` and runs it with `inputs` (constants come from the model);
/// returns the store after execution.
pub(crate) fn run_op0(name: &str, bytes: &[u8], inputs: &[(TensorId, TensorData)]) -> TensorStore {
    if let Some(dir) = std::env::var_os("TFLC_DUMP_OP_MODELS") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("dump dir");
        std::fs::write(dir.join(format!("{name}.tflite")), bytes).expect("dump model");
        for (i, (_, d)) in inputs.iter().enumerate() {
            std::fs::write(dir.join(format!("{name}.in{i}.bin")), d.to_le_bytes()).expect("dump input");
        }
    }
    let model = crate::passes::read_model(bytes).expect("the test model parses");
    let sg = model.main();
    let kernel = lower(sg, &sg.ops[crate::ir::OpId::new(0)]).unwrap_or_else(|e| panic!("{name}: lowering failed: {e}"));
    let mut store = TensorStore::with_constants(sg);
    for (t, d) in inputs {
        store.insert(*t, d.clone());
    }
    kernel.execute(&mut store).unwrap_or_else(|e| panic!("{name}: execution failed: {e}"));
    store
}

/// The int8 contents of `t` in `store`.
pub(crate) fn out_i8(store: &TensorStore, t: TensorId) -> Vec<i8> {
    store.i8(t).expect("an int8 output").to_vec()
}

/// The emitted items (weights, params) and the kernel call of op 0, formatted as a file
/// with the call in `fn run()` (runtime path `::tflc_runtime`).
#[cfg(feature = "format")]
pub(crate) fn emit_op0(bytes: &[u8]) -> String {
    use quote::quote;
    let model = crate::passes::read_model(bytes).expect("the test model parses");
    let sg = model.main();
    let kernel = lower(sg, &sg.ops[crate::ir::OpId::new(0)]).expect("lowers");
    let rt = quote! { ::tflc_runtime };
    let mut items = Items::default();
    let call = {
        let mut cx = EmitCx::new(&rt, sg, 0, &mut items);
        kernel.emit(&mut cx)
    };
    let weights = items.weights.values().map(|(_, t)| t);
    let consts = &items.consts;
    let scoped = items.scoped_items(&rt, &crate::codegen::WeightsSource::Inline);
    // The calls that differ between targets, in each class's `target` module.
    let targets = crate::emit::target_classes().into_iter().zip(&items.target).filter(|(_, fns)| !fns.is_empty()).map(|((_, cfg, _), fns)| {
        quote! { #[cfg(#cfg)] mod target { #(#fns)* } }
    });
    let targets: Vec<_> = targets.collect();
    let file = quote! { #(#weights)* #(#consts)* #scoped fn run() { #call } #(#targets)* };
    let file: syn::File = syn::parse2(file).expect("emitted code parses");
    prettyplease::unparse(&file)
}

/// Asserts that op 0 of `bytes` does not lower because the model is invalid.
pub(crate) fn expect_invalid(bytes: &[u8]) {
    let e = lower_op0(bytes).expect_err("must not lower");
    assert!(matches!(e, LowerError::Invalid { .. }), "{e}");
}

/// Asserts that op 0 of `bytes` does not lower because tflc does not support it.
pub(crate) fn expect_unsupported(bytes: &[u8]) {
    let e = lower_op0(bytes).expect_err("must not lower");
    assert!(matches!(e, LowerError::Unsupported { .. }), "{e}");
}

/// Deterministic pseudo-random int8 values (xorshift64*), full range.
pub(crate) fn i8s(seed: u64, n: usize) -> Vec<i8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8 as i8
        })
        .collect()
}

/// A per-tensor quantization `(scale, zero_point)`, or none.
pub(crate) type Q = Option<(f32, i64)>;

/// A model with one two-input op of `kind` on activations of `dtype`.
pub(crate) fn binary_model(
    kind: crate::ir::OpKind,
    dtype: crate::ir::DType,
    a: (&[usize], Q),
    b: (&[usize], Q),
    out: (&[usize], Q),
) -> (Vec<u8>, [TensorId; 3]) {
    let mut m = crate::tflite::builder::ModelBuilder::new();
    let x = m.activation("x", dtype, a.0, a.1);
    let y = m.activation("y", dtype, b.0, b.1);
    let z = m.activation("z", dtype, out.0, out.1);
    m.op(kind, &[Some(x), Some(y)], &[z]);
    m.inputs(&[x, y]);
    m.outputs(&[z]);
    (m.finish(), [x, y, z])
}

/// A model with one single-input op of `kind`.
pub(crate) fn unary_model(kind: crate::ir::OpKind, a: (crate::ir::DType, &[usize], Q), out: (crate::ir::DType, &[usize], Q)) -> (Vec<u8>, [TensorId; 2]) {
    let mut m = crate::tflite::builder::ModelBuilder::new();
    let x = m.activation("x", a.0, a.1, a.2);
    let z = m.activation("z", out.0, out.1, out.2);
    m.op(kind, &[Some(x)], &[z]);
    m.inputs(&[x]);
    m.outputs(&[z]);
    (m.finish(), [x, z])
}

/// Numpy broadcasting done the slow, obvious way: for every output coordinate, the
/// operands' elements at that coordinate (size-1 dims repeat, missing leading dims too).
pub(crate) fn broadcast_reference<A: Copy, B: Copy, R>(
    a_shape: &[usize],
    av: &[A],
    b_shape: &[usize],
    bv: &[B],
    f: impl Fn(A, B) -> R,
) -> (Vec<usize>, Vec<R>) {
    let rank = a_shape.len().max(b_shape.len());
    let pad = |s: &[usize]| -> Vec<usize> { std::iter::repeat_n(1, rank - s.len()).chain(s.iter().copied()).collect() };
    let (a_shape, b_shape) = (pad(a_shape), pad(b_shape));
    let out_shape: Vec<usize> = a_shape.iter().zip(&b_shape).map(|(&x, &y)| x.max(y)).collect();
    let n: usize = out_shape.iter().product();
    let index = |shape: &[usize], c: &[usize]| shape.iter().zip(c).fold(0, |acc, (&d, &i)| acc * d + if d == 1 { 0 } else { i });
    let mut out = Vec::with_capacity(n);
    for mut i in 0..n {
        let mut c = vec![0; rank];
        for d in (0..rank).rev() {
            c[d] = i % out_shape[d];
            i /= out_shape[d];
        }
        out.push(f(av[index(&a_shape, &c)], bv[index(&b_shape, &c)]));
    }
    (out_shape, out)
}

/// Shape pairs covering every broadcasting pattern: equal, trailing vector, both sides
/// stretching, rank mismatch, scalars, rank 5.
pub(crate) const BROADCAST_CASES: &[(&[usize], &[usize])] = &[
    (&[1, 3, 5, 7], &[1, 3, 5, 7]),
    (&[2, 3, 4], &[4]),
    (&[2, 1, 4], &[1, 3, 1]),
    (&[1, 1, 1, 3], &[1, 4, 6, 3]),
    (&[5, 1], &[1, 7]),
    (&[2, 3, 1, 2, 1], &[3, 2, 2, 5]),
    (&[], &[2, 3]),
    (&[3, 1, 2], &[]),
];

/// The malformed variants every int8 binary op must reject with an error: wrong output
/// shape, non-broadcastable shapes, unquantized or out-of-range quantization, float32,
/// unquantized int16, uint32, a missing input, a missing output.
pub(crate) fn check_malformed_binary(kind: crate::ir::OpKind) {
    use crate::ir::DType;
    let q = Some((0.5, 0));
    let k = || kind.clone();
    expect_invalid(&binary_model(k(), DType::I8, (&[2, 3], q), (&[3], q), (&[3, 3], q)).0);
    expect_invalid(&binary_model(k(), DType::I8, (&[2, 3], q), (&[2], q), (&[2, 3], q)).0);
    expect_unsupported(&binary_model(k(), DType::I8, (&[2, 3], None), (&[3], q), (&[2, 3], q)).0);
    expect_invalid(&binary_model(k(), DType::I8, (&[3], Some((0.5, 300))), (&[3], q), (&[3], q)).0);
    expect_invalid(&binary_model(k(), DType::I8, (&[3], Some((0.0, 0))), (&[3], q), (&[3], q)).0);
    // int16 (the 16x8 form) must be quantized; other integer types are not lowered.
    expect_unsupported(&binary_model(k(), DType::I16, (&[3], None), (&[3], q), (&[3], q)).0);
    expect_unsupported(&binary_model(k(), DType::U32, (&[3], q), (&[3], q), (&[3], q)).0);
    let mut m = crate::tflite::builder::ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[3], q);
    let z = m.activation("z", DType::I8, &[3], q);
    m.op(k(), &[Some(x), None], &[z]);
    expect_invalid(&m.finish());
    let mut m = crate::tflite::builder::ModelBuilder::new();
    let x = m.activation("x", DType::I8, &[3], q);
    m.op(k(), &[Some(x), Some(x)], &[]);
    expect_invalid(&m.finish());
}

/// Runs op 0 on `inputs` (in subgraph-input order) and compares int8 output `out` with
/// `want`, a vector produced by `tools/op_test_vectors.py` from the reference
/// interpreters (the model and inputs are what `run_op0` dumps under `name`).
pub(crate) fn check_vector(name: &str, bytes: &[u8], inputs: &[(TensorId, TensorData)], out: TensorId, want: &[i8]) {
    let store = run_op0(name, bytes, inputs);
    if want.is_empty() && std::env::var_os("TFLC_DUMP_OP_MODELS").is_some() {
        // Generating: the vector is not there yet.
        return;
    }
    assert_eq!(out_i8(&store, out), want, "{name}: differs from the reference interpreter's output");
}
