//! Shared helpers for the per-op tests: lower the single op of a model built with
//! [`ModelBuilder`](crate::tflite::builder::ModelBuilder), run it on given inputs, emit it.
//!
//! With `TFLC_DUMP_OP_MODELS=<dir>` set, [`run_op0`] also writes each model and its inputs
//! (`<name>.tflite`, `<name>.in<i>.bin`, inputs in subgraph-input order) to `<dir>`, so
//! that expected outputs can be produced once with the pip reference interpreters
//! (`tflite-micro`, `ai-edge-litert`) and committed as literals.

use super::{lower, Kernel, TensorData, TensorStore};
use crate::codegen::emit::{EmitCx, Items};
use crate::error::LowerError;
use crate::ir::TensorId;

/// Lowers op 0 of `bytes`.
pub(crate) fn lower_op0(bytes: &[u8]) -> Result<Box<dyn Kernel>, LowerError> {
    let model = crate::tflite::read_model(bytes).expect("the test model parses");
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
    let model = crate::tflite::read_model(bytes).expect("the test model parses");
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
    let model = crate::tflite::read_model(bytes).expect("the test model parses");
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
    let file = quote! { #(#weights)* #(#consts)* fn run() { #call } };
    let file: syn::File = syn::parse2(file).expect("emitted code parses");
    prettyplease::unparse(&file)
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
