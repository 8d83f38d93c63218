//! Planning a whole model: every subgraph the entry subgraph reaches, in one arena.
//!
//! Subgraphs are planned callees first ([`LoweredModel::order`]). A callee's plan is
//! relative: its arena starts at 0. In its caller, an operator that calls subgraphs (IF,
//! WHILE, CALL_ONCE) gets one scratch buffer, its *frame*, as large as the largest arena of
//! its callees: the callees' tensors live in the frame while the op runs, and like any
//! scratch buffer it lives at that step only, so it shares bytes with every caller tensor
//! that is dead by then and with none that is live (the op's own inputs and outputs, WHILE's
//! loop-carried values, anything read later). The callees of one op share the frame: IF's
//! branches never run together; WHILE's condition and body run one after the other, the loop
//! values staying in the op's outputs, in the caller. Nesting is the same one level down.
//!
//! A callee runs at an absolute base: its caller's base plus the frame's offset. An
//! [`Instance`] is one subgraph at one base; [`ModelPlan::instances`] lists them from the
//! entry subgraph down, and [`super::verify::verify_model`] checks the combined layout.

use super::{from_ir::SubgraphPlan, BufferKind, PlanError, PlanOptions};
use crate::ir::{Call, MemoryCaps, OpId, Subgraph, SubgraphId};

/// What the planner needs of a whole model, as plain data (`pipeline::call_graph` builds it
/// from the lowered model): each reached subgraph with what its operators allow, and the
/// calls between them.
#[derive(Clone, Debug)]
pub struct CallGraph<'m, 'a> {
    /// Per subgraph of the model (`None`: not reached from the entry subgraph, or not lowered).
    pub subgraphs: crate::index::IndexVec<SubgraphId, Option<CallGraphNode<'m, 'a>>>,
    /// The reached subgraphs, callees before their callers.
    pub order: Vec<SubgraphId>,
}

/// One subgraph of a [`CallGraph`].
#[derive(Clone, Debug)]
pub struct CallGraphNode<'m, 'a> {
    /// The subgraph.
    pub sg: &'m Subgraph<'a>,
    /// What its operators allow the planner.
    pub caps: MemoryCaps,
    /// Its operators that call subgraphs, in file order.
    pub calls: Vec<(OpId, Call)>,
}

/// One plan per reached subgraph, and where each runs.
#[derive(Clone, Debug)]
pub struct ModelPlan {
    /// The plan of each reached subgraph (offsets relative to its own arena).
    pub subgraphs: crate::index::IndexVec<SubgraphId, Option<SubgraphPlan>>,
    /// Every operator that calls subgraphs: `(caller, op, call)`.
    pub calls: Vec<(SubgraphId, OpId, Call)>,
}

/// One subgraph placed at one base in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The subgraph.
    pub subgraph: SubgraphId,
    /// Its byte offset in the arena.
    pub base: u64,
    /// The instance that calls it and the calling op (`None` for the entry subgraph).
    pub parent: Option<(usize, OpId)>,
}

impl ModelPlan {
    /// The entry subgraph's plan.
    pub fn main(&self) -> Option<&SubgraphPlan> {
        self.subgraphs.as_slice().first().and_then(|p| p.as_ref())
    }

    /// Subgraph `id`'s plan (`None` when it has no instance).
    pub fn get(&self, id: SubgraphId) -> Option<&SubgraphPlan> {
        self.subgraphs.get(id).and_then(|p| p.as_ref())
    }

    /// The callees of `op` of `sg`.
    pub fn call(&self, sg: SubgraphId, op: OpId) -> Option<Call> {
        self.calls.iter().find(|c| c.0 == sg && c.1 == op).map(|c| c.2)
    }

    /// The frame of `op` of `sg` (relative to `sg`'s arena): its only scratch region.
    pub fn frame(&self, sg: SubgraphId, op: OpId) -> Option<std::ops::Range<u64>> {
        self.get(sg)?.scratch_regions(op).into_iter().next()
    }

    /// Every instance, breadth first from the entry subgraph at base 0 (a parent before its
    /// children, the callees of one op in call order).
    pub fn instances(&self) -> Vec<Instance> {
        let mut out = vec![Instance { subgraph: SubgraphId::new(0), base: 0, parent: None }];
        let mut i = 0;
        while i < out.len() {
            let inst = out[i];
            if let Some(p) = self.get(inst.subgraph) {
                let mut children = Vec::new();
                for &op in &p.plan.schedule {
                    let (Some(call), Some(frame)) = (self.call(inst.subgraph, op), self.frame(inst.subgraph, op)) else { continue };
                    for callee in call.callees() {
                        children.push(Instance { subgraph: callee, base: inst.base + frame.start, parent: Some((i, op)) });
                    }
                }
                out.extend(children);
            }
            i += 1;
        }
        out
    }

    /// Bytes of the whole arena: the entry subgraph's (frames included).
    pub fn arena_bytes(&self) -> u64 {
        self.main().map_or(0, |p| p.plan.arena_bytes)
    }
}

/// Plans every subgraph of `graph` with `base` and what each subgraph's operators allow.
pub fn plan_model(graph: &CallGraph<'_, '_>, base: &PlanOptions) -> Result<ModelPlan, PlanError> {
    let n = graph.subgraphs.len();
    let mut mp = ModelPlan { subgraphs: (0..n).map(|_| None).collect(), calls: Vec::new() };
    for &id in &graph.order {
        let Some(l) = graph.subgraphs.get(id).and_then(|g| g.as_ref()) else { continue };
        let mut opts = base.clone().with_caps(l.caps.clone());
        // Only the entry subgraph's inputs and outputs are the caller's (a callee's live only
        // while it is called).
        opts.persistent_io &= id.index() == 0;
        for &(op, call) in &l.calls {
            let mut frame = 0u64;
            for callee in call.callees() {
                let p = mp.get(callee).ok_or_else(|| PlanError::InModel {
                    detail: format!("subgraph {} op {} calls subgraph {}, which was not planned before it", id.index(), op.index(), callee.index()),
                })?;
                frame = frame.max(p.plan.arena_bytes);
            }
            // Even an empty frame is a scratch buffer, so that every call has one.
            opts.scratch.push((op, frame.max(1)));
            mp.calls.push((id, op, call));
        }
        let p = super::plan_subgraph(l.sg, &opts).map_err(|e| match e {
            PlanError::InModel { detail } if id.index() != 0 => PlanError::InModel { detail: format!("subgraph {}: {detail}", id.index()) },
            e => e,
        })?;
        if id.index() != 0 {
            // State lives across runs; a callee's bytes live only while it is called, so a
            // callee's variable tensor must be one `passes::resources` passes in and out (an
            // input and an output of the callee, its state kept in the entry subgraph).
            for (b, buf) in p.problem.buffers.iter_enumerated() {
                let threaded = p.tensor_of.get(b).copied().flatten().is_some_and(|t| l.sg.inputs.contains(&t));
                if buf.kind == BufferKind::Variable && !threaded {
                    return Err(PlanError::InModel {
                        detail: format!("subgraph {}: variable tensor {} inside a called subgraph is not an input of it (its state would not outlive the call; passes::resources passes such state in)", id.index(), buf.label),
                    });
                }
            }
        }
        mp.subgraphs[id] = Some(p);
    }
    if cfg!(debug_assertions) || base.verify {
        let violations = super::verify::verify_model(&mp);
        if !violations.is_empty() {
            return Err(PlanError::InModel { detail: format!("the combined layout of the subgraphs is wrong: {}", violations.join("; ")) });
        }
    }
    Ok(mp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::lower_model;

    fn planned(bytes: &[u8]) -> (ModelPlan, u64) {
        let model = crate::passes::read_model(bytes).unwrap();
        let lm = lower_model(&model);
        lm.check().unwrap();
        let mp = crate::pipeline::plan_model(&lm, &PlanOptions { verify: true, ..PlanOptions::default() }).unwrap();
        let n = mp.arena_bytes();
        (mp, n)
    }

    /// The nested model: four callee instances (cond, body, and the body's two branches)
    /// inside the WHILE's frame, the branches at one base inside the body's IF frame; the
    /// combined layout verifies, and moving a callee tensor over a live caller tensor (the
    /// loop-carried `acc`) or out of its frame is caught.
    #[test]
    fn nested_frames_verify_and_violations_are_caught() {
        let (mut mp, arena) = planned(&crate::testing::models::control_while_if());
        let inst = mp.instances();
        let sgs: Vec<usize> = inst.iter().map(|i| i.subgraph.index()).collect();
        assert_eq!(sgs, [0, 1, 2, 3, 4]);
        assert_eq!(inst[3].base, inst[4].base);
        let frame = mp.frame(SubgraphId::new(0), OpId::new(2)).unwrap();
        for i in &inst[1..] {
            let p = mp.get(i.subgraph).unwrap();
            assert!(i.base >= frame.start && i.base + p.plan.arena_bytes <= frame.end, "{i:?} {frame:?}");
        }
        assert!(arena >= frame.end);
        assert!(super::super::verify::verify_model(&mp).is_empty());

        // Move the body's input `i` past the frame, inside a body arena made as large: the
        // body's own plan still verifies, the combined layout does not (the bytes past the
        // frame belong to the caller: `acc`, the WHILE's loop value, lives there or beyond).
        let body = SubgraphId::new(2);
        let base = inst[2].base;
        let p = mp.subgraphs[body].as_mut().unwrap();
        let b = p.buffer_of[crate::ir::TensorId::new(0)].unwrap();
        let saved = (p.plan.offsets[b], p.plan.arena_bytes);
        p.plan.offsets[b] = (frame.end - base).next_multiple_of(16) + 1024;
        p.plan.arena_bytes = p.plan.offsets[b] + 16;
        let v = super::super::verify::verify_model(&mp);
        assert!(v.iter().any(|e| e.contains("outside the frame")), "{v:?}");
        let p = mp.subgraphs[body].as_mut().unwrap();
        p.plan.arena_bytes = saved.1;
        p.plan.offsets[b] = saved.0;
        assert!(super::super::verify::verify_model(&mp).is_empty());
    }

    /// A dynamic shape inside a callee is refused, naming the op, the subgraph and the tensor.
    #[test]
    fn dynamic_shapes_in_callees_are_refused() {
        use crate::ir::{DType, OpKind};
        use crate::tflite::builder::{ModelBuilder, TensorSpec};
        let mut b = ModelBuilder::new();
        let c = b.activation("c", DType::Bool, &[], None);
        let x = b.activation("x", DType::I8, &[1, 4], Some((0.1, 0)));
        let y = b.activation("y", DType::I8, &[1, 4], Some((0.1, 0)));
        b.op(OpKind::If { then_subgraph: SubgraphId::new(1), else_subgraph: SubgraphId::new(1) }, &[Some(c), Some(x)], &[y]);
        b.inputs(&[c, x]).outputs(&[y]);
        b.new_subgraph("branch");
        let a = b.tensor(TensorSpec {
            name: "a".into(),
            dtype: DType::I8,
            shape: vec![1, 4],
            shape_signature: Some(vec![-1, 4]),
            quant: Some(crate::ir::Quantization { scale: vec![0.1], zero_point: vec![0], axis: None }),
            data: None,
            variable: false,
        });
        let r = b.activation("r", DType::I8, &[1, 4], Some((0.1, 0)));
        b.op(OpKind::Relu, &[Some(a)], &[r]);
        b.inputs(&[a]).outputs(&[r]);
        let bytes = b.finish();
        let model = crate::passes::read_model(&bytes).unwrap();
        let e = lower_model(&model).check().unwrap_err().to_string();
        assert!(e.contains("op 0 (IF)") && e.contains("\"a (subgraph 1)\"") && e.contains("dynamic shape [-1, 4]"), "{e}");
    }
}
