//! A reference interpreter over the lowered kernels: runs subgraph 0 op by op on a
//! `TensorStore`. Slow and allocation-heavy, it exists to check generated code against the
//! same kernels and parameters (tests, and models without golden data). It lowers once
//! ([`lower_subgraph`]) and runs every step on that result.

use crate::error::Error;
use crate::ir::Model;
use crate::lower::ops::{TensorData, TensorStore};
use crate::lower::{lower_subgraph, LoweredSubgraph};

/// Runs `model` once on `inputs` (one per subgraph input, little-endian bytes) and returns
/// the outputs' bytes.
pub fn run(model: &Model<'_>, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>, Error> {
    Ok(run_steps(model, &[inputs])?.pop().unwrap_or_default())
}

/// Runs `model` once per entry of `steps` on one store, so that variable tensors (state)
/// carry over from run to run as in one TFLite Micro interpreter; returns each run's
/// outputs.
pub fn run_steps(model: &Model<'_>, steps: &[&[&[u8]]]) -> Result<Vec<Vec<Vec<u8>>>, Error> {
    let folded = crate::passes::fold::FoldedModel::of(model);
    let model = folded.apply(model);
    let lowered = lower_subgraph(model.main());
    run_lowered(&lowered, steps)
}

/// [`run_steps`] on an already lowered subgraph (every op must have lowered).
pub fn run_lowered(lowered: &LoweredSubgraph<'_, '_>, steps: &[&[&[u8]]]) -> Result<Vec<Vec<Vec<u8>>>, Error> {
    lowered.check()?;
    let mut store = TensorStore::with_constants(lowered.sg);
    steps.iter().map(|inputs| run_on(lowered, &mut store, inputs)).collect()
}

fn run_on(lowered: &LoweredSubgraph<'_, '_>, store: &mut TensorStore, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>, Error> {
    let sg = lowered.sg;
    if inputs.len() != sg.inputs.len() {
        return Err(Error::Codegen(format!("{} inputs given, the model has {}", inputs.len(), sg.inputs.len())));
    }
    for (&t, bytes) in sg.inputs.iter().zip(inputs) {
        let tensor = sg.tensor(t);
        let d = TensorData::from_le_bytes(tensor.dtype, bytes)
            .filter(|_| Some(bytes.len()) == tensor.byte_size())
            .ok_or_else(|| Error::Codegen(format!("input {t} needs {:?} bytes of {}", tensor.byte_size(), tensor.dtype)))?;
        store.insert(t, d);
    }
    for op in sg.ops.iter() {
        let k = lowered.kernel(op.id)?;
        k.execute(store).map_err(|e| Error::Codegen(format!("op {} ({}): {e}", op.id.index(), op.opcode)))?;
    }
    Ok(sg.outputs.iter().map(|&t| store.get(t).map(|d| d.to_le_bytes()).unwrap_or_default()).collect())
}
