//! Emitting calls between subgraphs: every reached subgraph instance becomes a function
//! `fn subgraph_<k>(arena: &mut [u8], observer: &mut impl rt::Observer)` whose range consts
//! are absolute (its base plus its plan's offsets, `plan::model`); an IF, WHILE or CALL_ONCE
//! becomes `copy_within` of its inputs into the callee's input tensors, the call, and
//! `copy_within` of the callee's outputs back, as TFLite Micro's `if.cc`, `while.cc` and
//! `call_once.cc` copy them. The copies are between the caller's tensors and the callee's
//! frame, which the plan keeps apart (`plan::verify::verify_model`). A constant on either
//! side (an entry constant passed as a WHILE loop value or an IF input, a callee returning a
//! constant of its own, as converters write recurrent loops) has no arena bytes: it is copied
//! from its weight static (`copy_from_slice`), as TFLite Micro copies it from the flatbuffer.

use super::Arena;
use crate::emit::{comment, describe_tensor, int, EmitCx, Items};
use crate::error::Error;
use crate::ir::{OpId, Subgraph, SubgraphId, TensorId};
use crate::lower::ops::control_flow::{Call, ControlFlow};
use crate::lower::LoweredModel;
use crate::plan::{Instance, ModelPlan};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::BTreeSet;

/// What a subgraph's body needs to emit its calls.
pub struct Calls<'c, 'm, 'a> {
    /// The lowered model.
    pub lm: &'c LoweredModel<'m, 'a>,
    /// Its memory plan.
    pub mp: &'c ModelPlan,
    /// Every subgraph instance and its base offset.
    pub instances: &'c [Instance],
    /// The function of each instance (index 0, the entry subgraph, is `run_with`'s body).
    pub names: &'c [Ident],
    /// The instance being emitted.
    pub current: usize,
    /// Its base in the arena.
    pub base: u64,
    /// The CALL_ONCE operators of the entry subgraph, in file order: flag `k` of
    /// `Model::called_once` is the `k`-th.
    pub once: &'c [OpId],
}

/// The function name of every instance: `subgraph_<k>`, or `subgraph_<k>_<n>` when subgraph
/// `k` runs at several bases.
pub fn names(instances: &[Instance]) -> Vec<Ident> {
    instances
        .iter()
        .enumerate()
        .map(|(i, inst)| {
            let k = inst.subgraph.index();
            let same: Vec<usize> = (0..instances.len()).filter(|&j| instances[j].subgraph == inst.subgraph).collect();
            if i == 0 {
                format_ident!("run_with")
            } else if same.len() == 1 {
                format_ident!("subgraph_{}", k)
            } else {
                let n = same.iter().position(|&j| j == i).unwrap_or(0);
                format_ident!("subgraph_{}_{}", k, n)
            }
        })
        .collect()
}

/// The callee instance of `op` of the current instance that runs `callee`.
fn child(c: &Calls<'_, '_, '_>, op: OpId, callee: SubgraphId) -> Result<usize, Error> {
    (0..c.instances.len())
        .find(|&i| c.instances[i].parent == Some((c.current, op)) && c.instances[i].subgraph == callee)
        .ok_or_else(|| Error::Internal(format!("op {}: subgraph {} has no planned instance", op.index(), callee.index())))
}

/// The absolute range of callee tensor `t` in instance `i`.
fn callee_range(c: &Calls<'_, '_, '_>, i: usize, t: TensorId) -> Result<(usize, usize), Error> {
    let inst = c.instances[i];
    let sg = c.lm.get(inst.subgraph).map(|l| l.sg);
    let r = c.mp.get(inst.subgraph).and_then(|p| p.tensor_region(t)).ok_or_else(|| {
        Error::Internal(format!(
            "subgraph {}: the memory plan has no offset for {}",
            inst.subgraph.index(),
            sg.map_or(t.to_string(), |sg| describe_tensor(sg.tensor(t)))
        ))
    })?;
    Ok(((inst.base + r.start) as usize, (inst.base + r.end) as usize))
}

fn range_lit((a, b): (usize, usize)) -> TokenStream {
    let (a, b) = (int(a as i64), int(b as i64));
    quote! { #a..#b }
}

/// The weight static's bytes (`&WEIGHTS.0[W5]`) of tensor `t` of `sg` when it is a constant.
fn constant_bytes(rt: &TokenStream, items: &mut Items, sg: &Subgraph<'_>, op: OpId, t: TensorId) -> Option<TokenStream> {
    sg.tensor(t).data?;
    Some(EmitCx::new(rt, sg, op.index(), items).input_bytes(t))
}

/// Where one side of a copy between subgraphs lives: arena bytes (their range and start, as
/// the caller's range const `T5` / `T5.start` or the callee's literal range), or a
/// constant's weights.
enum Side {
    Arena(TokenStream, TokenStream),
    Weights(TokenStream),
}

/// The statement copying `src` to `dst` (a constant destination is refused: nothing can
/// write one, and lowering gives no constant a writer).
fn copy_stmt(src: Side, dst: (TokenStream, TokenStream)) -> TokenStream {
    let (range, start) = dst;
    match src {
        Side::Arena(src, _) => quote! { arena.copy_within(#src, #start); },
        Side::Weights(bytes) => quote! { arena[#range].copy_from_slice(#bytes); },
    }
}

/// Copies between the caller's tensors `mine` and the callee's `theirs` (into the callee, or
/// back with `out`); either side may be a constant (read from its weights, never written).
fn copies(
    c: &Calls<'_, '_, '_>,
    ar: &Arena<'_, '_, '_>,
    x: &mut Ctx<'_>,
    inst: usize,
    mine: &[TensorId],
    theirs: &[TensorId],
    out: bool,
) -> Result<Vec<TokenStream>, Error> {
    let csg = c.lm.get(c.instances[inst].subgraph).map(|l| l.sg);
    let mut v = Vec::new();
    for (&m, &t) in mine.iter().zip(theirs) {
        let what = csg.map_or(String::new(), |g| format!("subgraph {} {}", g.id.index(), describe_tensor(g.tensor(t))));
        let caller_const = constant_bytes(x.rt, x.items, ar.sg, x.op, m);
        let callee_const = match csg {
            Some(g) => constant_bytes(x.rt, x.items, g, x.op, t),
            None => None,
        };
        let mine_side = match caller_const {
            Some(b) => Side::Weights(b),
            None => {
                ar.range(m)?;
                x.used.insert(m);
                let name = format_ident!("T{}", m.index());
                Side::Arena(quote! { #name }, quote! { #name.start })
            }
        };
        let theirs_side = match callee_const {
            Some(b) => Side::Weights(b),
            None => {
                let r = callee_range(c, inst, t)?;
                let start = int(r.0 as i64);
                Side::Arena(range_lit(r), quote! { #start })
            }
        };
        let (src, dst, text) = if out { (theirs_side, mine_side, format!("{what} -> t{}", m.index())) } else { (mine_side, theirs_side, format!("t{} -> {what}", m.index())) };
        let Side::Arena(range, start) = dst else {
            return Err(Error::Internal(format!("op {}: {text}: the destination is a constant", x.op.index())));
        };
        v.push(comment(&text));
        v.push(copy_stmt(src, (range, start)));
    }
    Ok(v)
}

/// What emitting one calling operator threads through: the runtime path, the module items
/// (constants' weights), the op, the caller tensors used.
struct Ctx<'e> {
    rt: &'e TokenStream,
    items: &'e mut Items,
    op: OpId,
    used: &'e mut BTreeSet<TensorId>,
}

/// The statements of one calling operator `op` (`arena` names the arena's bytes).
#[allow(clippy::too_many_arguments)]
pub(super) fn emit_call(
    rt: &TokenStream,
    arena: &TokenStream,
    ar: &Arena<'_, '_, '_>,
    cf: &ControlFlow,
    op: OpId,
    c: &Calls<'_, '_, '_>,
    items: &mut Items,
    used: &mut BTreeSet<TensorId>,
) -> Result<TokenStream, Error> {
    let x = &mut Ctx { rt, items, op, used };
    let sub = |sg: SubgraphId| c.lm.get(sg).map(|l| l.sg);
    let io = |sg: SubgraphId| sub(sg).map(|s| (s.inputs.clone(), s.outputs.clone())).unwrap_or_default();
    let call_of = |i: usize| {
        let f = &c.names[i];
        quote! { #f(arena, observer); }
    };
    let stmts = match cf.call {
        Call::If { then_subgraph, else_subgraph } => {
            let cond = cf.cond.ok_or_else(|| Error::Internal(format!("op {}: IF without a condition", op.index())))?;
            // A constant condition (the converter may leave one) is read from its weights.
            let truth = match constant_bytes(rt, x.items, ar.sg, op, cond) {
                Some(bytes) => quote! { (#bytes)[0] != 0 },
                None => {
                    ar.range(cond)?;
                    x.used.insert(cond);
                    let tc = format_ident!("T{}", cond.index());
                    quote! { arena[#tc.start] != 0 }
                }
            };
            let mut branch = |sg: SubgraphId| -> Result<TokenStream, Error> {
                let i = child(c, op, sg)?;
                let (ins, outs) = io(sg);
                let a = copies(c, ar, x, i, &cf.inputs, &ins, false)?;
                let call = call_of(i);
                let b = copies(c, ar, x, i, &cf.outputs, &outs, true)?;
                Ok(quote! { #(#a)* #call #(#b)* })
            };
            let (t, e) = (branch(then_subgraph)?, branch(else_subgraph)?);
            quote! {
                if #truth { #t } else { #e }
            }
        }
        Call::While { cond_subgraph, body_subgraph } => {
            let (ci, bi) = (child(c, op, cond_subgraph)?, child(c, op, body_subgraph)?);
            let (cin, cout) = io(cond_subgraph);
            let (bin, bout) = io(body_subgraph);
            let first = copies(c, ar, x, ci, &cf.inputs, &cin, false)?;
            let mut keep = Vec::new();
            for (&a, &y) in cf.inputs.iter().zip(&cf.outputs) {
                ar.range(y)?;
                x.used.insert(y);
                // A variable passed through the loop is its own loop value
                // (`passes::resources`): nothing to copy.
                if a == y {
                    continue;
                }
                let ty = format_ident!("T{}", y.index());
                // A constant's first loop value comes from its weights.
                match constant_bytes(rt, x.items, ar.sg, op, a) {
                    Some(bytes) => keep.push(quote! { arena[#ty].copy_from_slice(#bytes); }),
                    None => {
                        ar.range(a)?;
                        x.used.insert(a);
                        let ta = format_ident!("T{}", a.index());
                        keep.push(quote! { arena.copy_within(#ta, #ty.start); });
                    }
                }
            }
            let flag = cout.first().ok_or_else(|| Error::Internal(format!("op {}: the WHILE condition has no output", op.index())))?;
            let csg = sub(cond_subgraph).ok_or_else(|| Error::Internal(format!("op {}: subgraph {} was not lowered", op.index(), cond_subgraph.index())))?;
            let more = match constant_bytes(rt, x.items, csg, op, *flag) {
                Some(bytes) => quote! { (#bytes)[0] != 0 },
                None => {
                    let flag = int(callee_range(c, ci, *flag)?.0 as i64);
                    quote! { arena[#flag] != 0 }
                }
            };
            let into_body = copies(c, ar, x, bi, &cf.outputs, &bin, false)?;
            let back = copies(c, ar, x, bi, &cf.outputs, &bout, true)?;
            let into_cond = copies(c, ar, x, ci, &cf.outputs, &cin, false)?;
            let (cc, bc) = (call_of(ci), call_of(bi));
            quote! {
                #(#first)*
                #(#keep)*
                #cc
                while #more {
                    #(#into_body)*
                    #bc
                    #(#back)*
                    #(#into_cond)*
                    #cc
                }
            }
        }
        Call::CallOnce { init_subgraph } => {
            let i = child(c, op, init_subgraph)?;
            let Some(k) = c.once.iter().position(|&o| o == op).filter(|_| c.current == 0) else {
                return Err(Error::Unsupported { count: 1, details: format!("op {} (CALL_ONCE): unsupported: CALL_ONCE inside a called subgraph", op.index()) });
            };
            let k = int(k as i64);
            let call = call_of(i);
            // The variables the init uses, into it and back (`passes::resources`).
            let (ins, outs) = io(init_subgraph);
            let into = copies(c, ar, x, i, &cf.inputs, &ins, false)?;
            let back = copies(c, ar, x, i, &cf.outputs, &outs, true)?;
            quote! {
                if !self.called_once[#k] {
                    #(#into)*
                    #call
                    #(#back)*
                    self.called_once[#k] = true;
                }
            }
        }
    };
    Ok(quote! {
        {
            let arena: &mut [u8] = #arena;
            #stmts
        }
    })
}
