//! A reference interpreter over the lowered kernels: runs subgraph 0 op by op on a
//! `TensorStore`. Slow and allocation-heavy, it exists to check generated code against the
//! same kernels and parameters (tests, and models without golden data). It lowers once
//! ([`lower_model`]) and runs every step on that result. An operator that ends the run early
//! ([`Kernel::stops`](crate::lower::ops::Kernel::stops), CIRCULAR_BUFFER's `kTfLiteAbort`)
//! ends it here too, in file order as TFLite Micro runs the operators: the operators after it
//! do not run ([`run_steps_with_status`] says where a run stopped).

use crate::error::Error;
use crate::ir::{Model, OpId, SubgraphId, TensorId};
use crate::lower::ops::control_flow::Call;
use std::collections::BTreeSet;
use crate::lower::ops::{TensorData, TensorStore};
use crate::lower::{lower_model, LoweredModel, LoweredSubgraph};

/// Runs `model` once on `inputs` (one per subgraph input, little-endian bytes) and returns
/// the outputs' bytes.
pub fn run(model: &Model<'_>, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>, Error> {
    Ok(run_steps(model, &[inputs])?.pop().unwrap_or_default())
}

/// Runs `model` once per entry of `steps` on one store, so that variable tensors (state)
/// carry over from run to run as in one TFLite Micro interpreter; returns each run's
/// outputs. Subgraphs called by IF, WHILE and CALL_ONCE run as TFLite Micro runs them
/// (`lower::ops::control_flow`), each call on a fresh store of the callee.
pub fn run_steps(model: &Model<'_>, steps: &[&[&[u8]]]) -> Result<Vec<Vec<Vec<u8>>>, Error> {
    Ok(run_steps_with_status(model, steps)?.into_iter().map(|s| s.outputs).collect())
}

/// One run of [`run_steps_with_status`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Every output's bytes after the run (for a stopped run, what the outputs held: the
    /// operators that write them may not have run).
    pub outputs: Vec<Vec<u8>>,
    /// The operator that ended the run early, if one did (TFLite Micro's `kTfLiteAbort`; the
    /// generated `run()` returns `RunStatus::Stopped { op }`).
    pub stopped: Option<u32>,
}

/// [`run_steps`], also saying for each run whether an operator ended it early.
pub fn run_steps_with_status(model: &Model<'_>, steps: &[&[&[u8]]]) -> Result<Vec<Step>, Error> {
    let resolved = crate::passes::resources::resolve(model)?;
    let model = resolved.as_ref().map_or(model, |r| &r.0);
    let folded = crate::passes::fold::FoldedModel::of(model);
    // LUT-compressed filters kept as a compile keeps them by default: their ops then run the
    // `_lut` kernel beside the reference and check the two agree (`LutFilter::check`); int4
    // filters kept packed likewise run the `_int4` kernel beside the int8 variant.
    let model = folded.apply_with(model, crate::passes::fold::KeptWeights { f16: false, lut: true, int4: true });
    let lm = lower_model(&model);
    lm.check()?;
    for &id in &lm.order {
        if let Some(l) = lm.get(id) {
            refuse_callers_kernels(l)?;
        }
    }
    let Some(main) = lm.main() else { return Err(Error::Internal("the model has no subgraph".into())) };
    let mut store = TensorStore::with_constants(main.sg);
    let mut once = BTreeSet::new();
    steps.iter().map(|inputs| run_on(&lm, main, &mut store, inputs, &mut once)).collect()
}

/// [`run_steps`] on an already lowered subgraph (every op must have lowered; no calls).
pub fn run_lowered(lowered: &LoweredSubgraph<'_, '_>, steps: &[&[&[u8]]]) -> Result<Vec<Vec<Vec<u8>>>, Error> {
    lowered.check()?;
    refuse_callers_kernels(lowered)?;
    let mut store = TensorStore::with_constants(lowered.sg);
    let mut once = BTreeSet::new();
    let lm = LoweredModel { subgraphs: crate::index::IndexVec::new(), order: Vec::new(), call_errors: Vec::new() };
    steps.iter().map(|inputs| run_on(&lm, lowered, &mut store, inputs, &mut once).map(|s| s.outputs)).collect()
}

/// The interpreter cannot run the caller's custom-operator kernels (Rust code it was not
/// compiled with): every such operator, named, and where to go instead.
fn refuse_callers_kernels(lowered: &LoweredSubgraph<'_, '_>) -> Result<(), Error> {
    let refused: Vec<&crate::lower::ops::user_custom::UserCustom> = lowered.ops.iter().filter_map(|o| o.kernel.as_ref().ok()?.user_custom()).collect();
    match refused.as_slice() {
        [] => Ok(()),
        [u] => Err(Error::Run(crate::lower::ops::user_custom::no_kernel_here(u.op_index, &u.code))),
        all => {
            let ops: Vec<String> = all.iter().map(|u| format!("op {} (CUSTOM:{})", u.op_index, u.code)).collect();
            Err(Error::Run(format!(
                "{}: the interpreter has no kernel for these custom operators: their kernels are yours; compile the model (tflc MODEL -o OUT.rs, include_model!) and pass your implementation of the generated `CustomOps` trait to `Model::run` (see docs/CUSTOM_OPS.md)",
                ops.join(", ")
            )))
        }
    }
}

type Once = BTreeSet<(SubgraphId, OpId)>;

fn run_on(lm: &LoweredModel<'_, '_>, lowered: &LoweredSubgraph<'_, '_>, store: &mut TensorStore, inputs: &[&[u8]], once: &mut Once) -> Result<Step, Error> {
    let sg = lowered.sg;
    if inputs.len() != sg.inputs.len() {
        return Err(Error::Run(format!("{} inputs given, the model has {}", inputs.len(), sg.inputs.len())));
    }
    for (&t, bytes) in sg.inputs.iter().zip(inputs) {
        let tensor = sg.tensor(t);
        let d = TensorData::from_le_bytes(tensor.dtype, bytes)
            .filter(|_| Some(bytes.len()) == tensor.byte_size())
            .ok_or_else(|| Error::Run(format!("input {t} needs {:?} bytes of {}", tensor.byte_size(), tensor.dtype)))?;
        store.insert(t, d);
    }
    let stopped = run_subgraph(lm, lowered, store, once)?.map(|op| op.index() as u32);
    let outputs = sg.outputs.iter().map(|&t| store.get(t).map(|d| d.to_le_bytes()).unwrap_or_default()).collect();
    Ok(Step { outputs, stopped })
}

/// Runs every operator of `lowered` on `store`, calls included, in file order; returns the
/// operator that ended the run early, if one did.
fn run_subgraph(lm: &LoweredModel<'_, '_>, lowered: &LoweredSubgraph<'_, '_>, store: &mut TensorStore, once: &mut Once) -> Result<Option<OpId>, Error> {
    let sg = lowered.sg;
    for op in sg.ops.iter() {
        let k = lowered.kernel(op.id)?;
        let err = |e: String| Error::Run(format!("subgraph {} op {} ({}): {e}", sg.id.index(), op.id.index(), op.opcode));
        let Some(cf) = k.control_flow() else {
            k.execute(store).map_err(|e| err(e.to_string()))?;
            if store.take_stop() {
                return Ok(Some(op.id));
            }
            continue;
        };
        let get = |store: &TensorStore, t: TensorId| store.get(t).cloned().ok_or_else(|| err(format!("tensor {t} has no value")));
        // Runs `callee` on `values` (its inputs) and returns its outputs.
        let call = |callee: SubgraphId, values: Vec<TensorData>, once: &mut Once| -> Result<Vec<TensorData>, Error> {
            let l = lm.get(callee).ok_or_else(|| err(format!("subgraph {} was not lowered", callee.index())))?;
            let mut s = TensorStore::with_constants(l.sg);
            for (&t, v) in l.sg.inputs.iter().zip(values) {
                s.insert(t, v);
            }
            if let Some(op) = run_subgraph(lm, l, &mut s, once)? {
                // Lowering refuses an operator that stops inside a called subgraph.
                return Err(err(format!("op {} of subgraph {} ended the run inside a call", op.index(), callee.index())));
            }
            l.sg.outputs.iter().map(|&t| s.get(t).cloned().ok_or_else(|| err(format!("subgraph {} output {t} has no value", callee.index())))).collect()
        };
        let truth = |v: &TensorData| matches!(v, TensorData::Bool(b) if b.first() == Some(&true));
        match cf.call {
            Call::If { then_subgraph, else_subgraph } => {
                let c = cf.cond.map(|t| get(store, t)).transpose()?.ok_or_else(|| err("no condition".into()))?;
                let ins = cf.inputs.iter().map(|&t| get(store, t)).collect::<Result<Vec<_>, _>>()?;
                let outs = call(if truth(&c) { then_subgraph } else { else_subgraph }, ins, once)?;
                for (&t, v) in cf.outputs.iter().zip(outs) {
                    store.insert(t, v);
                }
            }
            Call::While { cond_subgraph, body_subgraph } => {
                let mut values = cf.inputs.iter().map(|&t| get(store, t)).collect::<Result<Vec<_>, _>>()?;
                loop {
                    let c = call(cond_subgraph, values.clone(), once)?;
                    if !c.first().is_some_and(truth) {
                        break;
                    }
                    values = call(body_subgraph, values, once)?;
                }
                for (&t, v) in cf.outputs.iter().zip(values) {
                    store.insert(t, v);
                }
            }
            Call::CallOnce { init_subgraph } => {
                if once.insert((sg.id, op.id)) {
                    let ins = cf.inputs.iter().map(|&t| get(store, t)).collect::<Result<Vec<_>, _>>()?;
                    let outs = call(init_subgraph, ins, once)?;
                    for (&t, v) in cf.outputs.iter().zip(outs) {
                        store.insert(t, v);
                    }
                }
            }
        }
    }
    Ok(None)
}
