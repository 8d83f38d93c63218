//! Emitting calls between subgraphs: every reached subgraph instance becomes a function
//! `fn subgraph_<k>(arena: &mut [u8], observer: &mut impl rt::Observer)` whose range consts
//! are absolute (its base plus its plan's offsets, `plan::model`); an IF, WHILE or CALL_ONCE
//! becomes `copy_within` of its inputs into the callee's input tensors, the call, and
//! `copy_within` of the callee's outputs back, as TFLite Micro's `if.cc`, `while.cc` and
//! `call_once.cc` copy them. The copies are between the caller's tensors and the callee's
//! frame, which the plan keeps apart (`plan::verify::verify_model`).

use super::Arena;
use crate::emit::{comment, describe_tensor, int};
use crate::error::Error;
use crate::ir::{OpId, SubgraphId, TensorId};
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

/// `arena.copy_within(caller tensor, callee tensor start)` for each pair (into the callee), or
/// the other way (`out`).
fn copies(c: &Calls<'_, '_, '_>, ar: &Arena<'_, '_, '_>, inst: usize, mine: &[TensorId], theirs: &[TensorId], out: bool, used: &mut BTreeSet<TensorId>) -> Result<Vec<TokenStream>, Error> {
    let csg = c.lm.get(c.instances[inst].subgraph).map(|l| l.sg);
    let mut v = Vec::new();
    for (&m, &t) in mine.iter().zip(theirs) {
        ar.range(m)?;
        used.insert(m);
        let r = callee_range(c, inst, t)?;
        let name = format_ident!("T{}", m.index());
        let what = csg.map_or(String::new(), |g| format!("subgraph {} {}", g.id.index(), describe_tensor(g.tensor(t))));
        if out {
            let src = range_lit(r);
            v.push(comment(&format!("{what} -> t{}", m.index())));
            v.push(quote! { arena.copy_within(#src, #name.start); });
        } else {
            let dst = int(r.0 as i64);
            v.push(comment(&format!("t{} -> {what}", m.index())));
            v.push(quote! { arena.copy_within(#name, #dst); });
        }
    }
    Ok(v)
}

/// The statements of one calling operator `op` (`arena` names the arena's bytes).
pub(super) fn emit_call(
    _rt: &TokenStream,
    arena: &TokenStream,
    ar: &Arena<'_, '_, '_>,
    cf: &ControlFlow,
    op: OpId,
    c: &Calls<'_, '_, '_>,
    used: &mut BTreeSet<TensorId>,
) -> Result<TokenStream, Error> {
    let sub = |sg: SubgraphId| c.lm.get(sg).map(|l| l.sg);
    let io = |sg: SubgraphId| sub(sg).map(|s| (s.inputs.clone(), s.outputs.clone())).unwrap_or_default();
    let call_of = |i: usize| {
        let f = &c.names[i];
        quote! { #f(arena, observer); }
    };
    let stmts = match cf.call {
        Call::If { then_subgraph, else_subgraph } => {
            let cond = cf.cond.ok_or_else(|| Error::Internal(format!("op {}: IF without a condition", op.index())))?;
            ar.range(cond)?;
            used.insert(cond);
            let tc = format_ident!("T{}", cond.index());
            let mut branch = |sg: SubgraphId| -> Result<TokenStream, Error> {
                let i = child(c, op, sg)?;
                let (ins, outs) = io(sg);
                let a = copies(c, ar, i, &cf.inputs, &ins, false, used)?;
                let call = call_of(i);
                let b = copies(c, ar, i, &cf.outputs, &outs, true, used)?;
                Ok(quote! { #(#a)* #call #(#b)* })
            };
            let (t, e) = (branch(then_subgraph)?, branch(else_subgraph)?);
            quote! {
                if arena[#tc.start] != 0 { #t } else { #e }
            }
        }
        Call::While { cond_subgraph, body_subgraph } => {
            let (ci, bi) = (child(c, op, cond_subgraph)?, child(c, op, body_subgraph)?);
            let (cin, cout) = io(cond_subgraph);
            let (bin, bout) = io(body_subgraph);
            let first = copies(c, ar, ci, &cf.inputs, &cin, false, used)?;
            let mut keep = Vec::new();
            for (&x, &y) in cf.inputs.iter().zip(&cf.outputs) {
                ar.range(x)?;
                ar.range(y)?;
                used.insert(x);
                used.insert(y);
                // A variable passed through the loop is its own loop value
                // (`passes::resources`): nothing to copy.
                if x == y {
                    continue;
                }
                let (tx, ty) = (format_ident!("T{}", x.index()), format_ident!("T{}", y.index()));
                keep.push(quote! { arena.copy_within(#tx, #ty.start); });
            }
            let flag = cout.first().ok_or_else(|| Error::Internal(format!("op {}: the WHILE condition has no output", op.index())))?;
            let flag = int(callee_range(c, ci, *flag)?.0 as i64);
            let into_body = copies(c, ar, bi, &cf.outputs, &bin, false, used)?;
            let back = copies(c, ar, bi, &cf.outputs, &bout, true, used)?;
            let into_cond = copies(c, ar, ci, &cf.outputs, &cin, false, used)?;
            let (cc, bc) = (call_of(ci), call_of(bi));
            quote! {
                #(#first)*
                #(#keep)*
                #cc
                while arena[#flag] != 0 {
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
            let into = copies(c, ar, i, &cf.inputs, &ins, false, used)?;
            let back = copies(c, ar, i, &cf.outputs, &outs, true, used)?;
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
