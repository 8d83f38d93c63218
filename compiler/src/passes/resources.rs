//! Resource variables resolved at compile time: every VAR_HANDLE names its variable by
//! `(container, shared_name)` (one variable per name across all subgraphs, as TFLite Micro's
//! `MicroResourceVariables::CreateIdIfNoneFound`), so each READ_VARIABLE and ASSIGN_VARIABLE
//! is known at compile time to touch one variable, and no handle exists at run time.
//!
//! Each variable becomes a variable tensor of the entry subgraph: state in the arena, kept
//! across runs and reset like every variable tensor. Its element type, shape and size are
//! those of the value of the first ASSIGN_VARIABLE TFLite Micro prepares (subgraphs in index
//! order, operators in file order: `MicroResourceVariables::Allocate`), and it starts as
//! TFLite Micro fills it: with that value's first zero point as a byte, or 0.
//!
//! The rewrite (tensor and operator indices of the file kept; new tensors appended):
//! - READ_VARIABLE `(handle) -> value` of the entry subgraph becomes `(handle, variable) ->
//!   value`; ASSIGN_VARIABLE `(handle, value) -> ()` becomes `(handle, value) -> variable`.
//!   Operators touching one variable keep their file order (the planner's rule for variables).
//! - In a CALL_ONCE init subgraph (called by the entry subgraph), ASSIGN_VARIABLE writes a
//!   new tensor that becomes an output of the init subgraph, and the CALL_ONCE gets the
//!   variable as its output: the call copies the assigned value into the variable, as TFLite
//!   Micro's assignment inside the init would.
//!
//! Refused, naming the operator: a handle not made by a VAR_HANDLE of the same subgraph (a
//! handle passed between subgraphs), resource variables in any other called subgraph, a
//! READ_VARIABLE in an init subgraph, two assignments of one variable in one init subgraph,
//! a variable that is never assigned (TFLite Micro has no buffer to read), a value whose
//! type or size is not the variable's, and an initial fill that tflc's variable reset cannot
//! express.

use crate::error::{Error, Location, LowerError};
use crate::ir::{Model, OpId, OpKind, Subgraph, SubgraphId, Tensor, TensorId};
use std::collections::BTreeMap;

/// One resource variable.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceVar {
    /// The variable's name (VAR_HANDLE's `shared_name`).
    pub shared_name: String,
    /// Its variable tensor in the entry subgraph (after [`resolve`]).
    pub tensor: TensorId,
}

fn at(sg: &Subgraph<'_>, op: OpId, t: Option<&Tensor<'_>>) -> Location {
    Location {
        subgraph: Some(sg.id.index()),
        op_index: Some(op.index()),
        opcode: Some(sg.ops[op].opcode.to_string()),
        tensor_index: t.map(|t| t.id.index()),
        tensor_name: t.map(|t| t.name.clone()),
    }
}

fn unsupported(sg: &Subgraph<'_>, op: OpId, t: Option<&Tensor<'_>>, reason: impl Into<String>) -> Error {
    LowerError::Unsupported { at: at(sg, op, t), reason: reason.into() }.into()
}

fn invalid(sg: &Subgraph<'_>, op: OpId, t: Option<&Tensor<'_>>, what: impl Into<String>) -> Error {
    LowerError::Invalid { at: at(sg, op, t), what: what.into() }.into()
}

/// What the first prepared assignment says about a variable.
struct Def<'a> {
    value: Tensor<'a>,
}

/// `None` when the model has no VAR_HANDLE (nothing to do); otherwise the rewritten model
/// and its variables in the order TFLite Micro numbers them.
pub fn resolve<'a>(model: &Model<'a>) -> Result<Option<(Model<'a>, Vec<ResourceVar>)>, Error> {
    let uses_resources = model.subgraphs.iter().any(|sg| sg.ops.iter().any(|o| matches!(o.kind, OpKind::VarHandle { .. } | OpKind::ReadVariable | OpKind::AssignVariable)));
    if !uses_resources {
        return Ok(None);
    }
    // Handles: per (subgraph, tensor), the variable's number.
    let mut names: Vec<(String, String)> = Vec::new();
    let mut handle: BTreeMap<(SubgraphId, TensorId), usize> = BTreeMap::new();
    let mut defs: Vec<Option<Def<'a>>> = Vec::new();
    // The CALL_ONCE ops of the entry subgraph and who calls every other subgraph.
    let mut init_of: BTreeMap<SubgraphId, Vec<OpId>> = BTreeMap::new();
    let mut other_callers: BTreeMap<SubgraphId, (SubgraphId, OpId)> = BTreeMap::new();
    for sg in model.subgraphs.iter() {
        for op in sg.ops.iter() {
            match &op.kind {
                OpKind::CallOnce { init_subgraph } if sg.id.index() == 0 => init_of.entry(*init_subgraph).or_default().push(op.id),
                OpKind::CallOnce { init_subgraph } => {
                    other_callers.entry(*init_subgraph).or_insert((sg.id, op.id));
                }
                OpKind::If { then_subgraph: a, else_subgraph: b } | OpKind::While { cond_subgraph: a, body_subgraph: b } => {
                    other_callers.entry(*a).or_insert((sg.id, op.id));
                    other_callers.entry(*b).or_insert((sg.id, op.id));
                }
                _ => {}
            }
        }
    }
    for sg in model.subgraphs.iter() {
        let mut assigned_here: Vec<usize> = Vec::new();
        for op in sg.ops.iter() {
            let resource_of = |i: usize| -> Result<usize, Error> {
                let t = op.input(i).ok_or_else(|| invalid(sg, op.id, None, format!("input {i} (the resource handle) is missing")))?;
                handle.get(&(sg.id, t)).copied().ok_or_else(|| {
                    unsupported(sg, op.id, Some(sg.tensor(t)), "the resource handle must be made by a VAR_HANDLE of the same subgraph (tflc resolves handles at compile time)")
                })
            };
            let touches = matches!(op.kind, OpKind::ReadVariable | OpKind::AssignVariable);
            if touches && sg.id.index() != 0 {
                if let Some(&(caller, by)) = other_callers.get(&sg.id) {
                    return Err(unsupported(sg, op.id, None, format!("resource variables are supported in the entry subgraph and assigned in a CALL_ONCE init subgraph it calls; this subgraph is called by subgraph {} op {}", caller.index(), by.index())));
                }
                if !init_of.contains_key(&sg.id) {
                    return Err(unsupported(sg, op.id, None, "resource variables are supported in the entry subgraph and assigned in a CALL_ONCE init subgraph it calls"));
                }
            }
            match &op.kind {
                OpKind::VarHandle { container, shared_name } => {
                    let &[out] = op.outputs.as_slice() else {
                        return Err(invalid(sg, op.id, None, format!("VAR_HANDLE has one output, found {}", op.outputs.len())));
                    };
                    let id = match names.iter().position(|(_, n)| n == shared_name) {
                        Some(id) => {
                            let c = &names[id].0;
                            if !container.is_empty() && !c.is_empty() && c != container {
                                return Err(unsupported(sg, op.id, None, format!("resource \"{shared_name}\" appears in containers \"{c}\" and \"{container}\"")));
                            }
                            id
                        }
                        None => {
                            names.push((container.clone(), shared_name.clone()));
                            defs.push(None);
                            names.len() - 1
                        }
                    };
                    handle.insert((sg.id, out), id);
                }
                OpKind::ReadVariable => {
                    resource_of(0)?;
                    if sg.id.index() != 0 {
                        return Err(unsupported(sg, op.id, None, "READ_VARIABLE in a CALL_ONCE init subgraph (tflc supports assignments there)"));
                    }
                    if op.inputs.len() != 1 || op.outputs.len() != 1 {
                        return Err(invalid(sg, op.id, None, format!("READ_VARIABLE has 1 input and 1 output, found {} and {}", op.inputs.len(), op.outputs.len())));
                    }
                }
                OpKind::AssignVariable => {
                    let id = resource_of(0)?;
                    if op.inputs.len() != 2 || !op.outputs.is_empty() {
                        return Err(invalid(sg, op.id, None, format!("ASSIGN_VARIABLE has 2 inputs and no outputs, found {} and {}", op.inputs.len(), op.outputs.len())));
                    }
                    let v = op.input(1).ok_or_else(|| invalid(sg, op.id, None, "input 1 (the value) is missing"))?;
                    if sg.id.index() != 0 {
                        if assigned_here.contains(&id) {
                            return Err(unsupported(sg, op.id, None, format!("resource \"{}\" is assigned twice in one CALL_ONCE init subgraph", names[id].1)));
                        }
                        assigned_here.push(id);
                    }
                    if defs[id].is_none() {
                        defs[id] = Some(Def { value: sg.tensor(v).clone() });
                    }
                }
                _ => {}
            }
        }
    }

    // Every read and assignment matches its variable.
    for sg in model.subgraphs.iter() {
        for op in sg.ops.iter() {
            let t = match op.kind {
                OpKind::ReadVariable => op.outputs.first().copied(),
                OpKind::AssignVariable => op.input(1),
                _ => continue,
            };
            let (Some(t), Some(h)) = (t, op.input(0)) else { continue };
            let Some(&id) = handle.get(&(sg.id, h)) else { continue };
            let x = sg.tensor(t);
            let Some(def) = &defs[id] else {
                return Err(unsupported(sg, op.id, Some(x), format!("resource \"{}\" is read but never assigned (TFLite Micro allocates a resource variable at its first ASSIGN_VARIABLE)", names[id].1)));
            };
            let d = &def.value;
            if x.dtype != d.dtype || x.byte_size() != d.byte_size() {
                return Err(invalid(sg, op.id, Some(x), format!("{}{:?} does not match resource \"{}\", {}{:?}", x.dtype, x.shape, names[id].1, d.dtype, d.shape)));
            }
        }
    }

    let mut out = model.clone();
    let mut vars = Vec::new();
    // The variable tensors, in the entry subgraph.
    for (id, def) in defs.iter().enumerate() {
        let Some(def) = def else { continue };
        let main = &mut out.subgraphs[SubgraphId::new(0)];
        let t = TensorId::new(main.tensors.len());
        let var = Tensor {
            id: t,
            name: format!("resource {}", names[id].1),
            dtype: def.value.dtype,
            shape: def.value.shape.clone(),
            shape_signature: None,
            quant: def.value.quant.clone(),
            data: None,
            is_variable: true,
        };
        // TFLite Micro fills the buffer with the value's first zero point as a byte (any
        // quantized type); tflc resets a variable with `Tensor::reset_byte`.
        let fill = def.value.quant.as_ref().and_then(|q| q.zero_point.first()).map_or(0, |&z| z as u8);
        if fill != var.reset_byte() {
            let (s, op) = first_use(model, &handle, id);
            let sg = &model.subgraphs[s];
            return Err(unsupported(sg, op, None, format!("resource \"{}\" ({}) starts filled with byte {fill:#04x}, which tflc's variable reset does not express", names[id].1, var.dtype)));
        }
        main.tensors.push(var);
        vars.push(ResourceVar { shared_name: names[id].1.clone(), tensor: t });
    }

    // Rewire the operators.
    let main_vars: Vec<Tensor<'a>> = vars.iter().map(|v| out.main().tensor(v.tensor).clone()).collect();
    let mut init_outputs: BTreeMap<SubgraphId, Vec<TensorId>> = BTreeMap::new();
    for s in 0..out.subgraphs.len() {
        let sid = SubgraphId::new(s);
        let sg = &mut out.subgraphs[sid];
        for o in 0..sg.ops.len() {
            let op = &sg.ops[OpId::new(o)];
            let Some(id) = op.input(0).and_then(|h| handle.get(&(sid, h)).copied()) else { continue };
            let Some(k) = vars.iter().position(|v| v.shared_name == names[id].1) else { continue };
            let var = vars[k].tensor;
            match (&op.kind, s) {
                (OpKind::ReadVariable, 0) => sg.ops[OpId::new(o)].inputs.push(Some(var)),
                (OpKind::AssignVariable, 0) => sg.ops[OpId::new(o)].outputs.push(var),
                (OpKind::AssignVariable, _) => {
                    let t = TensorId::new(sg.tensors.len());
                    let mut copy = main_vars[k].clone();
                    copy.id = t;
                    copy.name = format!("resource {} (assigned)", names[id].1);
                    copy.is_variable = false;
                    sg.tensors.push(copy);
                    sg.ops[OpId::new(o)].outputs.push(t);
                    sg.outputs.push(t);
                    init_outputs.entry(sid).or_default().push(var);
                }
                _ => {}
            }
        }
    }
    // Each CALL_ONCE of an init that assigns variables writes them.
    for (init, targets) in &init_outputs {
        let main = &mut out.subgraphs[SubgraphId::new(0)];
        for op in main.ops.iter_mut() {
            if op.kind == (OpKind::CallOnce { init_subgraph: *init }) {
                op.outputs.extend(targets.iter().copied());
            }
        }
    }
    Ok(Some((out, vars)))
}

/// The first READ_VARIABLE or ASSIGN_VARIABLE of variable `id` (for messages).
fn first_use(model: &Model<'_>, handle: &BTreeMap<(SubgraphId, TensorId), usize>, id: usize) -> (SubgraphId, OpId) {
    for sg in model.subgraphs.iter() {
        for op in sg.ops.iter() {
            if matches!(op.kind, OpKind::ReadVariable | OpKind::AssignVariable) && op.input(0).and_then(|h| handle.get(&(sg.id, h))) == Some(&id) {
                return (sg.id, op.id);
            }
        }
    }
    (SubgraphId::new(0), OpId::new(0))
}
