//! State shared across subgraphs, resolved at compile time: resource variables and the
//! variable tensors of called subgraphs.
//!
//! **Resource variables.** Every VAR_HANDLE names its variable by `(container, shared_name)`
//! (one variable per name across all subgraphs, as TFLite Micro's
//! `MicroResourceVariables::CreateIdIfNoneFound`), so each READ_VARIABLE and ASSIGN_VARIABLE
//! is known at compile time to touch one variable, and no handle exists at run time. Its
//! element type, shape and size are those of the value of the first ASSIGN_VARIABLE TFLite
//! Micro prepares (every subgraph in index order, operators in file order:
//! `MicroInterpreterGraph::PrepareSubgraphs` and `MicroResourceVariables::Allocate`), and it
//! starts as TFLite Micro fills it: with that value's first zero point as a byte, or 0.
//!
//! **Variable tensors of called subgraphs.** TFLite Micro allocates the variable tensors of
//! every subgraph as persistent buffers (`MicroAllocator::AllocateVariables`), so the state of
//! a variable tensor in an IF branch or a WHILE body outlives the call, across WHILE
//! iterations and across runs.
//!
//! Both kinds of state ("globals") get one variable tensor in the entry subgraph: state in the
//! arena, kept across runs and reset like every variable tensor. A called subgraph that
//! touches a global, or calls one that does, has it as an extra input *and* output, its
//! *home*: a variable tensor of that subgraph (for a callee's own variable tensor, the tensor
//! itself), so it lives for the whole call and the operators read and update it in place as
//! in the entry subgraph. Every operator calling such a subgraph passes the caller's home in
//! and gets it back (IF, WHILE and CALL_ONCE copy their values in and out, as TFLite Micro's
//! `if.cc`, `while.cc` and `call_once.cc` do), so each call sees the value the previous one
//! left: a WHILE body sees the value its last iteration assigned. The callees of one operator
//! get the union of their globals (IF's branches, WHILE's condition and body have one
//! signature). A WHILE condition gets the globals as inputs only.
//!
//! The rewrite (tensor and operator indices of the file kept; new tensors, inputs and
//! outputs appended):
//! - READ_VARIABLE `(handle) -> value` becomes `(handle, home) -> value`; ASSIGN_VARIABLE
//!   `(handle, value) -> ()` becomes `(handle, value) -> home`. Operators touching one
//!   variable keep their file order (the planner's rule for variables).
//! - An IF, WHILE or CALL_ONCE whose callees use globals gets `home` appended to its inputs
//!   and to its outputs for each of them (in global order).
//! - A called subgraph gets its homes appended to its inputs and (unless it is a WHILE
//!   condition) to its outputs.
//!
//! Refused, naming the operator: a handle not made by a VAR_HANDLE of the same subgraph (a
//! handle passed between subgraphs), a variable that is never assigned (TFLite Micro has no
//! buffer to read), a value whose type or size is not the variable's, an initial fill that
//! tflc's variable reset cannot express, and a global updated inside a WHILE condition
//! subgraph (tflc copies globals into the condition, not back), a subgraph that is a WHILE
//! condition and also called otherwise while it needs globals, and a callee's variable tensor
//! that is also one of its inputs or outputs.

use crate::error::{Error, Location, LowerError};
use crate::ir::{Model, OpId, OpKind, Subgraph, SubgraphId, Tensor, TensorId};
use std::collections::{BTreeMap, BTreeSet};

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

/// The subgraphs an operator calls (none for other operators).
fn callees(kind: &OpKind) -> Vec<SubgraphId> {
    match *kind {
        OpKind::If { then_subgraph: a, else_subgraph: b } | OpKind::While { cond_subgraph: a, body_subgraph: b } => vec![a, b],
        OpKind::CallOnce { init_subgraph } => vec![init_subgraph],
        _ => Vec::new(),
    }
}

/// One piece of state shared across subgraphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Global {
    /// Resource variable number `k` (TFLite Micro's numbering).
    Resource(usize),
    /// A variable tensor of a called subgraph.
    Tensor(SubgraphId, TensorId),
}

/// `None` when the model has no resource variable and no called subgraph holds a variable
/// tensor (nothing to do); otherwise the rewritten model and its resource variables in the
/// order TFLite Micro numbers them.
pub fn resolve<'a>(model: &Model<'a>) -> Result<Option<(Model<'a>, Vec<ResourceVar>)>, Error> {
    // The subgraphs the entry subgraph reaches (a subgraph outside the model is lowering's
    // error to report).
    let n = model.subgraphs.len();
    let mut reached = BTreeSet::from([SubgraphId::new(0)]);
    let mut stack = vec![SubgraphId::new(0)];
    while let Some(s) = stack.pop() {
        for op in model.subgraphs[s].ops.iter() {
            for c in callees(&op.kind) {
                if c.index() < n && reached.insert(c) {
                    stack.push(c);
                }
            }
        }
    }
    // The variable tensors of the called subgraphs that an operator uses.
    let mut callee_vars: Vec<Global> = Vec::new();
    for &s in reached.iter().filter(|s| s.index() != 0) {
        let sg = &model.subgraphs[s];
        let used: BTreeSet<TensorId> = sg.ops.iter().flat_map(|o| o.present_inputs().chain(o.outputs.iter().copied())).collect();
        for t in used {
            if sg.tensor(t).is_variable && !sg.tensor(t).is_constant() {
                if sg.inputs.contains(&t) || sg.outputs.contains(&t) {
                    let op = sg.ops.iter().find(|o| o.present_inputs().chain(o.outputs.iter().copied()).any(|x| x == t)).map_or(OpId::new(0), |o| o.id);
                    return Err(unsupported(sg, op, Some(sg.tensor(t)), "a variable tensor that is also an input or output of its called subgraph (the call would overwrite its state)"));
                }
                callee_vars.push(Global::Tensor(s, t));
            }
        }
    }
    let uses_resources = model.subgraphs.iter().any(|sg| sg.ops.iter().any(|o| matches!(o.kind, OpKind::VarHandle { .. } | OpKind::ReadVariable | OpKind::AssignVariable)));
    if !uses_resources && callee_vars.is_empty() {
        return Ok(None);
    }

    // Handles: per (subgraph, tensor), the variable's number.
    let mut names: Vec<(String, String)> = Vec::new();
    let mut handle: BTreeMap<(SubgraphId, TensorId), usize> = BTreeMap::new();
    let mut defs: Vec<Option<Tensor<'a>>> = Vec::new();
    for sg in model.subgraphs.iter() {
        for op in sg.ops.iter() {
            let resource_of = |i: usize| -> Result<usize, Error> {
                let t = op.input(i).ok_or_else(|| invalid(sg, op.id, None, format!("input {i} (the resource handle) is missing")))?;
                handle.get(&(sg.id, t)).copied().ok_or_else(|| {
                    unsupported(sg, op.id, Some(sg.tensor(t)), "the resource handle must be made by a VAR_HANDLE of the same subgraph (tflc resolves handles at compile time)")
                })
            };
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
                    if defs[id].is_none() {
                        defs[id] = Some(sg.tensor(v).clone());
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
            let Some(d) = &defs[id] else {
                return Err(unsupported(sg, op.id, Some(x), format!("resource \"{}\" is read but never assigned (TFLite Micro allocates a resource variable at its first ASSIGN_VARIABLE)", names[id].1)));
            };
            if x.dtype != d.dtype || x.byte_size() != d.byte_size() {
                return Err(invalid(sg, op.id, Some(x), format!("{}{:?} does not match resource \"{}\", {}{:?}", x.dtype, x.shape, names[id].1, d.dtype, d.shape)));
            }
        }
    }

    let mut out = model.clone();
    let mut vars = Vec::new();
    // The globals' variable tensors in the entry subgraph: the resource variables, then the
    // callees' variable tensors.
    let mut main_of: BTreeMap<Global, TensorId> = BTreeMap::new();
    for (id, def) in defs.iter().enumerate() {
        let Some(def) = def else { continue };
        let main = &mut out.subgraphs[SubgraphId::new(0)];
        let t = TensorId::new(main.tensors.len());
        let var = Tensor {
            id: t,
            name: format!("resource {}", names[id].1),
            dtype: def.dtype,
            shape: def.shape.clone(),
            shape_signature: None,
            quant: def.quant.clone(),
            data: None,
            is_variable: true,
            sparsity: None,
        };
        // TFLite Micro fills the buffer with the value's first zero point as a byte (any
        // quantized type); tflc resets a variable with `Tensor::reset_byte`.
        let fill = def.quant.as_ref().and_then(|q| q.zero_point.first()).map_or(0, |&z| z as u8);
        if fill != var.reset_byte() {
            let (s, op) = first_use(model, &handle, id);
            let sg = &model.subgraphs[s];
            return Err(unsupported(sg, op, None, format!("resource \"{}\" ({}) starts filled with byte {fill:#04x}, which tflc's variable reset does not express", names[id].1, var.dtype)));
        }
        main.tensors.push(var);
        vars.push(ResourceVar { shared_name: names[id].1.clone(), tensor: t });
        main_of.insert(Global::Resource(id), t);
    }
    for &g in &callee_vars {
        let Global::Tensor(s, v) = g else { continue };
        let main = &mut out.subgraphs[SubgraphId::new(0)];
        let t = TensorId::new(main.tensors.len());
        let mut var = model.subgraphs[s].tensor(v).clone();
        var.id = t;
        var.name = format!("{} (subgraph {})", var.name, s.index());
        main.tensors.push(var);
        main_of.insert(g, t);
    }

    // The globals each called subgraph needs: those it touches, those its callees need, and
    // the same set for all the callees of one operator.
    let resource_at = |sg: &Subgraph<'_>, op: &crate::ir::Operator<'_>| -> Option<Global> {
        if !matches!(op.kind, OpKind::ReadVariable | OpKind::AssignVariable) {
            return None;
        }
        op.input(0).and_then(|h| handle.get(&(sg.id, h))).map(|&id| Global::Resource(id))
    };
    let mut need: BTreeMap<SubgraphId, BTreeSet<Global>> = BTreeMap::new();
    for &s in reached.iter().filter(|s| s.index() != 0) {
        let sg = &model.subgraphs[s];
        let set = need.entry(s).or_default();
        set.extend(sg.ops.iter().filter_map(|op| resource_at(sg, op)));
        set.extend(callee_vars.iter().filter(|g| matches!(g, Global::Tensor(x, _) if *x == s)));
    }
    loop {
        let mut changed = false;
        for &s in &reached {
            for op in model.subgraphs[s].ops.iter() {
                let cs: Vec<SubgraphId> = callees(&op.kind).into_iter().filter(|c| reached.contains(c)).collect();
                let union: BTreeSet<Global> = cs.iter().flat_map(|c| need.get(c).into_iter().flatten().copied()).collect();
                // The entry subgraph holds every global already (a call of it is recursion,
                // which lowering refuses).
                let targets = cs.iter().copied().chain(Some(s)).filter(|c| c.index() != 0);
                for c in targets {
                    let set = need.entry(c).or_default();
                    let before = set.len();
                    set.extend(union.iter().copied());
                    changed |= set.len() != before;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let global_name = |g: Global| match g {
        Global::Resource(id) => format!("resource \"{}\"", names[id].1),
        Global::Tensor(s, t) => format!("variable tensor {t} \"{}\" of subgraph {}", model.subgraphs[s].tensor(t).name, s.index()),
    };
    // WHILE conditions: inputs only (the op does not copy a condition's outputs back).
    let mut conds: BTreeMap<SubgraphId, (SubgraphId, OpId)> = BTreeMap::new();
    let mut others: BTreeSet<SubgraphId> = BTreeSet::new();
    for &s in &reached {
        for op in model.subgraphs[s].ops.iter() {
            match op.kind {
                OpKind::While { cond_subgraph, body_subgraph } => {
                    conds.entry(cond_subgraph).or_insert((s, op.id));
                    others.insert(body_subgraph);
                }
                _ => others.extend(callees(&op.kind)),
            }
        }
    }
    for (&c, &(s, op)) in &conds {
        if others.contains(&c) && need.get(&c).is_some_and(|g| !g.is_empty()) {
            return Err(unsupported(&model.subgraphs[s], op, None, format!("subgraph {} is a WHILE condition and also called otherwise, and it needs shared state (a condition gets it as inputs only)", c.index())));
        }
    }

    // The homes, and the rewrite.
    for (&s, set) in &need {
        let mut home: BTreeMap<Global, TensorId> = BTreeMap::new();
        for &g in set {
            let t = match g {
                Global::Tensor(x, t) if x == s => t,
                _ => {
                    let Some(&m) = main_of.get(&g) else { continue };
                    let mut h = out.subgraphs[SubgraphId::new(0)].tensor(m).clone();
                    let sg = &mut out.subgraphs[s];
                    let t = TensorId::new(sg.tensors.len());
                    h.id = t;
                    sg.tensors.push(h);
                    t
                }
            };
            home.insert(g, t);
        }
        rewrite_ops(model, &mut out.subgraphs[s], &handle, &need, &home)?;
        let is_cond = conds.contains_key(&s);
        let sg = &mut out.subgraphs[s];
        for (&g, &t) in &home {
            sg.inputs.push(t);
            if !is_cond {
                sg.outputs.push(t);
            } else if let Some(op) = sg.ops.iter().find(|o| o.outputs.contains(&t)) {
                return Err(unsupported(&model.subgraphs[s], op.id, None, format!("{} is updated inside a WHILE condition subgraph (tflc passes state into a condition, not back)", global_name(g))));
            }
        }
    }
    rewrite_ops(model, &mut out.subgraphs[SubgraphId::new(0)], &handle, &need, &main_of)?;
    Ok(Some((out, vars)))
}

/// Rewires the operators of `sg` (rewritten in place; `model` is the file's, for messages)
/// to the homes `home` of its globals: reads and assignments to the variable's home, calls
/// passing the homes of their callees' globals in and out.
fn rewrite_ops(
    model: &Model<'_>,
    sg: &mut Subgraph<'_>,
    handle: &BTreeMap<(SubgraphId, TensorId), usize>,
    need: &BTreeMap<SubgraphId, BTreeSet<Global>>,
    home: &BTreeMap<Global, TensorId>,
) -> Result<(), Error> {
    let file = &model.subgraphs[sg.id];
    for o in 0..sg.ops.len() {
        let op = &mut sg.ops[OpId::new(o)];
        let at_op = op.id;
        let missing = |g: Global| invalid(file, at_op, None, format!("no home for {g:?} in subgraph {} (passes::resources)", file.id.index()));
        match op.kind {
            OpKind::ReadVariable | OpKind::AssignVariable => {
                let Some(&id) = op.input(0).and_then(|h| handle.get(&(file.id, h))) else { continue };
                let g = Global::Resource(id);
                let &t = home.get(&g).ok_or_else(|| missing(g))?;
                if op.kind == OpKind::ReadVariable {
                    op.inputs.push(Some(t));
                } else {
                    op.outputs.push(t);
                }
            }
            _ => {
                let globals: BTreeSet<Global> = callees(&op.kind).iter().flat_map(|c| need.get(c).into_iter().flatten().copied()).collect();
                for g in globals {
                    let &t = home.get(&g).ok_or_else(|| missing(g))?;
                    op.inputs.push(Some(t));
                    op.outputs.push(t);
                }
            }
        }
    }
    Ok(())
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
