//! Lowering, the phase: every operator of a subgraph checked and turned into its kernel
//! with compile-time parameters, once per compile.
//!
//! [`lower_subgraph`] runs the registry ([`ops::lower`], one file per TFLite builtin under
//! `ops/`) on every operator and keeps, per operator, the kernel or its error (every error,
//! not just the first) together with the kernel's [`Capabilities`]: what the planner needs
//! (in-place pairs, views, scratch) and what reports need (MACs). The planner (through
//! `pipeline`), `codegen`, `inspect` and `interp` all consume this one [`LoweredSubgraph`];
//! none of them calls the registry again.
//!
//! **Architecture Invariant:** lowering runs once per compile; a capability is decided here
//! and nowhere else (the planner never asks the IR whether an op is a view).

pub mod ops;

use crate::error::{Error, LowerError};
use crate::index::IndexVec;
use crate::error::Location;
use crate::ir::{Model, OpId, OpKind, Operator, Subgraph, SubgraphId, TensorId};
use ops::control_flow::ControlFlow;
use ops::Kernel;

/// What a lowered operator allows and costs, in IR terms.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// (input, output) tensors whose output the kernel can write over the input
    /// ([`Kernel::in_place`]), restricted to pairs of arena tensors (a constant has no arena
    /// bytes to share).
    pub in_place: Vec<(TensorId, TensorId)>,
    /// (input, output, bound in bytes): the kernel can write the output over the consumed
    /// part of the input ([`Kernel::overlap`]), arena tensors only.
    pub overlap: Vec<(TensorId, TensorId, crate::ir::DeltaBound)>,
    /// A pure view ([`Kernel::is_view`]): output 0 may alias input 0's bytes.
    pub is_view: bool,
    /// Folded at compile time ([`Kernel::is_folded`]): outputs are constants, no code.
    pub folded: bool,
    /// Can end the run early ([`Kernel::stops`]): the planner keeps it a barrier of the file
    /// order, codegen returns from `run()` when it says so.
    pub stops: bool,
    /// Arena workspace the kernel needs at its step ([`Kernel::scratch_bytes`]).
    pub scratch_bytes: usize,
    /// Multiply-accumulates of one run (convolutions and fully connected layers; 0 for the
    /// rest).
    pub macs: u64,
}

/// One operator after lowering.
#[derive(Debug)]
pub struct LoweredOp {
    /// The operator's index in its subgraph.
    pub id: OpId,
    /// The kernel, or why the operator does not lower.
    pub kernel: Result<Box<dyn Kernel>, LowerError>,
    /// The kernel's capabilities. An operator that does not lower has none, but keeps its
    /// MAC count (a fact of its shapes, which `tflc inspect` reports for every operator).
    pub caps: Capabilities,
}

/// Every operator of one subgraph after lowering, in file order.
#[derive(Debug)]
pub struct LoweredSubgraph<'m, 'a> {
    /// The subgraph lowered.
    pub sg: &'m Subgraph<'a>,
    /// Every operator, in file order.
    pub ops: IndexVec<OpId, LoweredOp>,
}

/// Lowers every operator of `sg` (the only caller of [`ops::lower`] outside tests).
pub fn lower_subgraph<'m, 'a>(sg: &'m Subgraph<'a>) -> LoweredSubgraph<'m, 'a> {
    let ops = sg
        .ops
        .iter()
        .map(|op| {
            let macs = macs(sg, op);
            let kernel = ops::lower(sg, op);
            let caps = match &kernel {
                Ok(k) => Capabilities {
                    in_place: in_place_pairs(sg, op, k.as_ref()),
                    overlap: k
                        .overlap()
                        .into_iter()
                        .filter_map(|(i, o, d)| Some((op.input(i)?, *op.outputs.get(o)?, d)))
                        .filter(|&(x, y, _)| !sg.tensor(x).is_constant() && !sg.tensor(y).is_constant())
                        .collect(),
                    is_view: k.is_view(),
                    folded: k.is_folded(),
                    stops: k.stops(),
                    scratch_bytes: k.scratch_bytes(),
                    macs,
                },
                Err(_) => Capabilities { macs, ..Capabilities::default() },
            };
            LoweredOp { id: op.id, kernel, caps }
        })
        .collect();
    LoweredSubgraph { sg, ops }
}

impl LoweredSubgraph<'_, '_> {
    /// Every lowering error, in file order.
    pub fn errors(&self) -> impl Iterator<Item = &LowerError> + '_ {
        self.ops.iter().filter_map(|o| o.kernel.as_ref().err())
    }

    /// `Ok` when every operator lowered; otherwise all the errors as one: the error itself
    /// when there is one, [`Error::Unsupported`] listing each when there are several.
    pub fn check(&self) -> Result<(), Error> {
        let errors: Vec<&LowerError> = self.errors().collect();
        match errors.as_slice() {
            [] => Ok(()),
            [one] => Err((*one).clone().into()),
            all => Err(Error::Unsupported {
                count: all.len(),
                details: all.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"),
            }),
        }
    }

    /// The kernel of `id`, or its lowering error.
    pub fn kernel(&self, id: OpId) -> Result<&dyn Kernel, Error> {
        match self.ops.get(id).map(|o| &o.kernel) {
            Some(Ok(k)) => Ok(k.as_ref()),
            Some(Err(e)) => Err(e.clone().into()),
            None => Err(Error::Internal(format!("op {} is not in subgraph {}", id.index(), self.sg.id.index()))),
        }
    }

    /// The capabilities of `id` (none for an operator outside the subgraph).
    pub fn caps(&self, id: OpId) -> Option<&Capabilities> {
        self.ops.get(id).map(|o| &o.caps)
    }

    /// `(op, input, output)` for every in-place pair of every lowered operator.
    pub fn in_place(&self) -> Vec<(OpId, TensorId, TensorId)> {
        self.ops.iter().flat_map(|o| o.caps.in_place.iter().map(move |&(x, y)| (o.id, x, y))).collect()
    }

    /// `(op, input, output, bound)` for every overlap pair of every lowered operator.
    pub fn overlap(&self) -> Vec<(OpId, TensorId, TensorId, crate::ir::DeltaBound)> {
        self.ops.iter().flat_map(|o| o.caps.overlap.iter().map(move |&(x, y, d)| (o.id, x, y, d))).collect()
    }

    /// The view operators.
    pub fn views(&self) -> Vec<OpId> {
        self.ops.iter().filter(|o| o.caps.is_view).map(|o| o.id).collect()
    }

    /// The operators that can end the run early ([`Capabilities::stops`]).
    pub fn barriers(&self) -> Vec<OpId> {
        self.ops.iter().filter(|o| o.caps.stops).map(|o| o.id).collect()
    }

    /// The operators folded at compile time.
    pub fn folded(&self) -> Vec<OpId> {
        self.ops.iter().filter(|o| o.caps.folded).map(|o| o.id).collect()
    }

    /// `(op, bytes)` for every operator that needs scratch.
    pub fn scratch(&self) -> Vec<(OpId, usize)> {
        self.ops.iter().filter(|o| o.caps.scratch_bytes > 0).map(|o| (o.id, o.caps.scratch_bytes)).collect()
    }

    /// Everything the memory planner needs from lowering, as plain data
    /// (`plan::PlanOptions::with_caps` takes it).
    pub fn memory_caps(&self) -> crate::ir::MemoryCaps {
        crate::ir::MemoryCaps {
            in_place: self.in_place(),
            overlap: self.overlap(),
            views: self.views(),
            barriers: self.barriers(),
            folded: self.folded(),
            scratch: self.scratch().into_iter().map(|(op, bytes)| (op, bytes as u64)).collect(),
        }
    }

    /// Multiply-accumulates of one run of the whole subgraph.
    pub fn total_macs(&self) -> u64 {
        self.ops.iter().fold(0u64, |a, o| a.saturating_add(o.caps.macs))
    }
}

/// Every subgraph the entry subgraph reaches (through IF, WHILE and CALL_ONCE, nested) after
/// lowering, and the errors of the calls between them.
#[derive(Debug)]
pub struct LoweredModel<'m, 'a> {
    /// One entry per subgraph of the model; `None` for a subgraph nothing calls.
    pub subgraphs: IndexVec<SubgraphId, Option<LoweredSubgraph<'m, 'a>>>,
    /// The reached subgraphs, every callee before its callers (the entry subgraph last).
    pub order: Vec<SubgraphId>,
    /// What is wrong with the calls: a callee whose inputs or outputs do not match the
    /// calling op's, a dynamic shape inside a callee, recursion.
    pub call_errors: Vec<LowerError>,
}

/// Lowers subgraph 0 and every subgraph it reaches, once each.
pub fn lower_model<'m, 'a>(model: &'m Model<'a>) -> LoweredModel<'m, 'a> {
    let n = model.subgraphs.len();
    let mut lm = LoweredModel { subgraphs: (0..n).map(|_| None).collect(), order: Vec::new(), call_errors: Vec::new() };
    // Depth-first from subgraph 0; `on_stack` finds recursion (TFLite Micro would loop).
    let mut state = vec![0u8; n]; // 0 new, 1 on the stack, 2 done
    visit(model, SubgraphId::new(0), &mut state, &mut lm);
    lm
}

fn visit<'m, 'a>(model: &'m Model<'a>, id: SubgraphId, state: &mut [u8], lm: &mut LoweredModel<'m, 'a>) {
    let Some(sg) = model.subgraphs.get(id) else { return };
    state[id.index()] = 1;
    let lowered = lower_subgraph(sg);
    for op in lowered.ops.iter() {
        let Ok(k) = &op.kernel else { continue };
        let Some(cf) = k.control_flow() else { continue };
        let at = |t: Option<(&Subgraph<'_>, TensorId)>| Location {
            subgraph: Some(id.index()),
            op_index: Some(op.id.index()),
            opcode: Some(sg.ops[op.id].opcode.to_string()),
            tensor_index: t.map(|(_, t)| t.index()),
            tensor_name: t.map(|(g, t)| format!("{} (subgraph {})", g.tensor(t).name, g.id.index())),
        };
        let mut callees = cf.call.callees();
        callees.dedup();
        for callee in callees {
            let Some(csg) = model.subgraphs.get(callee) else {
                lm.call_errors.push(LowerError::Invalid { at: at(None), what: format!("calls subgraph {}, which does not exist", callee.index()) });
                continue;
            };
            match state[callee.index()] {
                1 => lm.call_errors.push(LowerError::Unsupported {
                    at: at(None),
                    reason: format!("calls subgraph {} \"{}\", which is running already (recursion)", callee.index(), csg.name),
                }),
                0 => visit(model, callee, state, lm),
                _ => {}
            }
            check_callee(sg, csg, cf, &at, &mut lm.call_errors);
        }
    }
    state[id.index()] = 2;
    lm.order.push(id);
    lm.subgraphs[id] = Some(lowered);
}

/// Where a call's error is: the calling op, and optionally a callee tensor.
type AtFn<'f> = dyn Fn(Option<(&Subgraph<'_>, TensorId)>) -> Location + 'f;

/// The checks of one call that need the callee: static shapes in it, and inputs and outputs
/// of matching count, element type and shape (the op copies bytes between them).
fn check_callee(
    sg: &Subgraph<'_>,
    callee: &Subgraph<'_>,
    cf: &ControlFlow,
    at: &AtFn<'_>,
    errors: &mut Vec<LowerError>,
) {
    for t in callee.tensors.iter() {
        if t.has_dynamic_signature() {
            errors.push(LowerError::Unsupported {
                at: at(Some((callee, t.id))),
                reason: format!("dynamic shape {:?} inside a called subgraph (shapes in callees must be static)", t.shape_signature.as_deref().unwrap_or_default()),
            });
        }
    }
    for (sid, ins, outs) in cf.bindings() {
        if sid != callee.id {
            continue;
        }
        let mut pairs: Vec<(&str, &[TensorId], &[TensorId])> = vec![("input", ins, &callee.inputs)];
        if let Some(outs) = outs {
            pairs.push(("output", outs, &callee.outputs));
        }
        for (what, mine, theirs) in pairs {
            if mine.len() != theirs.len() {
                errors.push(LowerError::Invalid {
                    at: at(None),
                    what: format!("passes {} {what}s to subgraph {} \"{}\", which has {}", mine.len(), callee.id.index(), callee.name, theirs.len()),
                });
                continue;
            }
            for (&a, &b) in mine.iter().zip(theirs) {
                let (x, y) = (sg.tensor(a), callee.tensor(b));
                if x.dtype != y.dtype || x.shape != y.shape {
                    errors.push(LowerError::Invalid {
                        at: at(Some((callee, b))),
                        what: format!("{what} is {}{:?} in the callee but {}{:?} (tensor {}) in the caller", y.dtype, y.shape, x.dtype, x.shape, a.index()),
                    });
                }
            }
        }
        if let crate::lower::ops::control_flow::Call::While { cond_subgraph, .. } = cf.call {
            if cond_subgraph == callee.id {
                match callee.outputs.first().map(|&t| callee.tensor(t)) {
                    Some(c) if c.dtype == crate::ir::DType::Bool && c.num_elements() == 1 => {}
                    Some(c) => errors.push(LowerError::Invalid { at: at(Some((callee, c.id))), what: format!("the condition's output 0 must be one bool, found {}{:?}", c.dtype, c.shape) }),
                    None => errors.push(LowerError::Invalid { at: at(None), what: format!("the condition subgraph {} has no output", callee.id.index()) }),
                }
            }
        }
    }
}

impl<'m, 'a> LoweredModel<'m, 'a> {
    /// The entry subgraph.
    pub fn main(&self) -> Option<&LoweredSubgraph<'m, 'a>> {
        self.subgraphs.as_slice().first().and_then(|s| s.as_ref())
    }

    /// Subgraph `id`, if reached.
    pub fn get(&self, id: SubgraphId) -> Option<&LoweredSubgraph<'m, 'a>> {
        self.subgraphs.get(id).and_then(|s| s.as_ref())
    }

    /// Every lowering error of every reached subgraph (callees first), then the call errors.
    pub fn errors(&self) -> Vec<&LowerError> {
        let mut all: Vec<&LowerError> = Vec::new();
        for &id in self.order.iter().rev() {
            if let Some(l) = self.get(id) {
                all.extend(l.errors());
            }
        }
        all.extend(self.call_errors.iter());
        all
    }

    /// `Ok` when every reached operator lowered and every call checks; otherwise all the
    /// errors as one (as [`LoweredSubgraph::check`]).
    pub fn check(&self) -> Result<(), Error> {
        match self.errors().as_slice() {
            [] => Ok(()),
            [one] => Err((*one).clone().into()),
            all => Err(Error::Unsupported {
                count: all.len(),
                details: all.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"),
            }),
        }
    }

    /// Whether the model calls any subgraph.
    pub fn has_calls(&self) -> bool {
        self.order.len() > 1
    }
}

/// The kernel's `(input index, output index)` pairs as tensors, keeping arena tensors only.
fn in_place_pairs(sg: &Subgraph<'_>, op: &Operator<'_>, k: &dyn Kernel) -> Vec<(TensorId, TensorId)> {
    k.in_place()
        .into_iter()
        .filter_map(|(i, o)| Some((op.input(i)?, *op.outputs.get(o)?)))
        .filter(|&(x, y)| !sg.tensor(x).is_constant() && !sg.tensor(y).is_constant())
        .collect()
}

/// Multiply-accumulates of one operator: each output element of a convolution takes
/// (filter window x input channels) MACs, of a depthwise convolution the filter window, of a
/// fully connected layer the input depth.
fn macs(sg: &Subgraph<'_>, op: &Operator<'_>) -> u64 {
    let filter = || op.input(1).map(|t| sg.tensor(t).shape.as_slice()).unwrap_or_default();
    let out_elems: u64 = op.outputs.first().map(|&t| sg.tensor(t).num_elements() as u64).unwrap_or(0);
    let per_output = match (&op.kind, filter()) {
        // filter [O, H, W, I]
        (OpKind::Conv2d(_), &[_, h, w, i]) => h.saturating_mul(w).saturating_mul(i),
        // filter [1, H, W, O]
        (OpKind::DepthwiseConv2d(_), &[_, h, w, _]) => h.saturating_mul(w),
        // weights [O, I]
        (OpKind::FullyConnected(_), &[_, i]) => i,
        _ => 0,
    };
    out_elems.saturating_mul(per_output as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Activation, DType};
    use crate::tflite::builder::{ModelBuilder, OpSpecCode};

    /// x -> RELU -> a -> RESHAPE -> r -> CUSTOM -> s -> ADD -> y -> DIV -> z (tflc has no DIV):
    /// capabilities of the ops that lower, every error of those that do not.
    #[test]
    fn capabilities_and_every_error() {
        let q = Some((0.05, -3));
        let mut m = ModelBuilder::new();
        let x = m.activation("x", DType::I8, &[1, 8], q);
        let a = m.activation("a", DType::I8, &[1, 8], q);
        let r = m.activation("r", DType::I8, &[8], q);
        let s = m.activation("s", DType::I8, &[8], q);
        let y = m.activation("y", DType::I8, &[8], q);
        m.op(OpKind::Relu, &[Some(x)], &[a]);
        m.op(OpKind::Reshape { new_shape: Some(vec![8]) }, &[Some(a)], &[r]);
        // An output scale that makes int8 DIV's multiplier 2^27: refused (a negative shift).
        let z = m.activation("z", DType::I8, &[8], Some((1e-8, 0)));
        // A custom operator with an omitted input: the caller's kernel cannot take it.
        m.op_spec(OpSpecCode::Custom("MyOp".into()), &[Some(r), None], &[s]);
        m.op(OpKind::Add { activation: Activation::None }, &[Some(s), Some(s)], &[y]);
        m.op(OpKind::Div { activation: Activation::None }, &[Some(y), Some(y)], &[z]);
        m.inputs(&[x]).outputs(&[z]);
        let bytes = m.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let l = lower_subgraph(model.main());
        let caps = |i: usize| l.caps(OpId::new(i)).unwrap().clone();
        assert_eq!(caps(0).in_place, vec![(x, a)]);
        assert!(!caps(0).is_view && caps(1).is_view);
        assert_eq!(l.views(), vec![OpId::new(1)]);
        let errors: Vec<String> = l.errors().map(|e| e.to_string()).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].contains("op 2 (CUSTOM:MyOp): unsupported: input 1 is omitted"), "{}", errors[0]);
        assert!(errors[1].contains("op 4 (DIV)"), "{}", errors[1]);
        match l.check() {
            Err(Error::Unsupported { count: 2, details }) => assert!(details.contains("op 4"), "{details}"),
            other => panic!("{other:?}"),
        }
        assert!(l.kernel(OpId::new(2)).is_err() && l.kernel(OpId::new(3)).is_ok());
    }

    #[test]
    fn macs_of_convolutions_and_fully_connected() {
        let l = crate::testing::models::tiny_cnn();
        let model = crate::passes::read_model(&l).unwrap();
        let sg = model.main();
        let lowered = lower_subgraph(sg);
        lowered.check().unwrap();
        for op in sg.ops.iter() {
            let out = sg.tensor(op.outputs[0]).num_elements() as u64;
            let f = op.input(1).map(|t| sg.tensor(t).shape.clone()).unwrap_or_default();
            let want = match op.kind {
                OpKind::Conv2d(_) => out * (f[1] * f[2] * f[3]) as u64,
                OpKind::DepthwiseConv2d(_) => out * (f[1] * f[2]) as u64,
                OpKind::FullyConnected(_) => out * f[1] as u64,
                _ => 0,
            };
            assert_eq!(lowered.caps(op.id).unwrap().macs, want, "op {}", op.id);
        }
        assert!(lowered.total_macs() > 0);
    }
}
