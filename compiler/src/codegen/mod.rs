//! Code generation: a lowered subgraph and its memory plan become one Rust module.
//!
//! Two levels, so that a further subgraph can become a function of its own:
//! - [`generate`] emits the module: the header, `ARENA_BYTES`, I/O consts, arena ranges
//!   `T<i>`, the `WEIGHTS` blob with ranges `W<i>`, parameter consts `P<op>`, and
//!   `Model { arena }` with `new`, `run` and typed accessors;
//! - [`emit_subgraph`] emits one subgraph's body: one kernel call per operator in schedule
//!   order, nothing else.
//!
//! Codegen consumes the lowering phase's result ([`LoweredSubgraph`]: kernels and
//! capabilities) and the planner's ([`SubgraphPlan`]: schedule, offsets, the in-place pairs it
//! realised, the views it aliased, the alignment) exactly as they are; it lowers nothing and
//! re-derives nothing. Arena and weight blob take the plan's alignment (`--align`).
//!
//! **Architecture Invariant:** the output is deterministic: the same model and options give
//! the same bytes (no hash-map iteration, identifiers from indices, names only in comments).

use crate::emit::{self, align_wrapper, comment, describe_tensor, format_module, int, short_name, weights_static, EmitCx, Items, Module, Stmts};
pub use crate::emit::WeightsSource;
use crate::error::Error;
use crate::ir::{OpId, Subgraph, TensorId};
use crate::lower::{LoweredModel, LoweredSubgraph};
use crate::plan::{ModelPlan, SubgraphPlan};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeSet;

pub mod control_flow;
pub mod custom;

/// Options for the generated module.
#[derive(Debug, Clone)]
pub struct CodegenOptions {
    /// Path of the runtime crate in the generated code (`::tflc_runtime`).
    pub runtime_path: String,
    /// File name shown in the header.
    pub model_name: String,
    /// sha256 of the model file, hex.
    pub model_sha256: String,
    /// Where the weight blob lives.
    pub weights: WeightsSource,
}

/// The generated module and its weight blob (the blob is also inside the module when the
/// weights are inline).
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The module's source text.
    pub code: String,
    /// The weight blob the module's constants index into.
    pub weights: Vec<u8>,
    /// The blobs that only some targets read (`WEIGHTS_HOST`, ...), by file-name suffix
    /// ([`emit::scoped_file_name`] names their files beside the main one).
    pub scoped_weights: Vec<(&'static str, Vec<u8>)>,
}

/// The arena bytes of one subgraph's tensors, from its plan.
struct Arena<'p, 'm, 'a> {
    sg: &'m Subgraph<'a>,
    plan: &'p SubgraphPlan,
    /// Where the subgraph's arena starts in the model's (0 for the entry subgraph; a callee's
    /// frame offset for a callee, `plan::model`).
    base: u64,
}

impl Arena<'_, '_, '_> {
    /// `(start, end)` of tensor `t` in its arena (its pool's, with pools).
    fn range(&self, t: TensorId) -> Result<(usize, usize), Error> {
        Ok(self.placed(t)?.1)
    }

    /// The pool of tensor `t` (0 without pools).
    fn pool(&self, t: TensorId) -> Result<usize, Error> {
        Ok(self.placed(t)?.0)
    }

    /// The pool and the range in it of tensor `t`.
    fn placed(&self, t: TensorId) -> Result<(usize, (usize, usize)), Error> {
        let r = self.plan.tensor_region(t).ok_or_else(|| {
            Error::Internal(format!("the memory plan has no offset for {}", describe_tensor(self.sg.tensor(t))))
        })?;
        self.local(self.base + r.start..self.base + r.end)
            .ok_or_else(|| Error::Internal(format!("{} lies in no memory pool", describe_tensor(self.sg.tensor(t)))))
    }

    /// A range of the plan's (virtual) arena as its pool and the range in that pool.
    fn local(&self, r: std::ops::Range<u64>) -> Option<(usize, (usize, usize))> {
        if self.plan.pools.is_empty() {
            return Some((0, (r.start as usize, r.end as usize)));
        }
        let k = crate::plan::pools::pool_of(&self.plan.pools, r.start, r.end)?;
        let s = self.plan.pools[k].start;
        Some((k, ((r.start - s) as usize, (r.end - s) as usize)))
    }

    /// The range const of `t`.
    fn range_const(&self, t: TensorId) -> Result<TokenStream, Error> {
        let (k, (a, b)) = self.placed(t)?;
        let name = format_ident!("T{}", t.index());
        let mut doc = format!(" {}", describe_tensor(self.sg.tensor(t)));
        if let Some(p) = self.plan.pools.get(k) {
            doc.push_str(&format!(", in pool `{}`", p.name));
        }
        let (a, b) = (int(a as i64), int(b as i64));
        Ok(quote! {
            #[doc = #doc]
            const #name: ::core::ops::Range<usize> = #a..#b;
        })
    }
}

/// One subgraph's body: its statements and the items they need.
pub struct SubgraphBody {
    /// One block per operator in schedule order (a comment only for an aliased view).
    pub stmts: Stmts,
    /// Every tensor the statements touch (the module declares their range consts `T<i>`).
    pub used: BTreeSet<TensorId>,
    /// The range consts `S<op>` of the scratch areas the statements use.
    pub scratch_ranges: Vec<TokenStream>,
    /// One `rt::OpInfo` literal per operator that runs code, in schedule order: the entries
    /// of `OPS`, which the statements pass to `observer.before` / `observer.after` by index.
    pub ops: Vec<TokenStream>,
    /// Some operator can end the run early ([`Kernel::stops`](crate::lower::ops::Kernel::stops)):
    /// its statement returns `rt::RunStatus::Stopped { op }`, so the function returns
    /// `rt::RunStatus` (the caller appends `rt::RunStatus::Complete`).
    pub stops: bool,
    /// The `CUSTOM_<op>` consts of the caller's custom operators ([`custom`]): the function
    /// returns `Result<_, rt::custom::CustomOpFailed>` when there is one (the caller appends
    /// the `Ok`).
    pub custom: Vec<TokenStream>,
}

fn op_comment(sg: &Subgraph<'_>, id: OpId) -> String {
    let op = &sg.ops[id];
    let ins: Vec<String> = op.inputs.iter().map(|t| t.map_or("-".to_owned(), |t| t.to_string())).collect();
    let outs: Vec<String> = op.outputs.iter().map(|t| t.to_string()).collect();
    let name = op.outputs.first().map(|&t| short_name(&sg.tensor(t).name)).unwrap_or_default();
    format!("op {}: {} \"{name}\" ({}) -> {}", id.index(), op.opcode, ins.join(", "), outs.join(", "))
}

/// Emits the body of `lowered`'s subgraph with `plan`: for each operator in schedule order,
/// the `__private::io` split of the arena (`arena` names the arena's bytes) and the kernel's
/// call, between `observer.before(&OPS[k])` and `observer.after(&OPS[k])` (`observer` is a
/// `&mut impl rt::Observer` in scope; `OPS` holds [`SubgraphBody::ops`]). Module-level items
/// (weights, tables, params) go to `items`. The statements are for a block `depth` blocks deep
/// ([`Stmts`]). `custom`: the entry subgraph's custom operators of the caller's
/// ([`custom::CustomOps`]), whose calls it emits (`None` for a called subgraph, where lowering
/// refuses them).
#[allow(clippy::too_many_arguments)]
pub fn emit_subgraph(
    rt: &TokenStream,
    arena: &TokenStream,
    lowered: &LoweredSubgraph<'_, '_>,
    plan: &SubgraphPlan,
    items: &mut Items,
    calls: Option<&control_flow::Calls<'_, '_, '_>>,
    custom: Option<&custom::CustomOps>,
    depth: usize,
) -> Result<SubgraphBody, Error> {
    let sg = lowered.sg;
    let ar = Arena { sg, plan, base: calls.map_or(0, |c| c.base) };
    let aliased = plan.aliased_ops();
    let in_place = plan.in_place_pairs();
    let overlaps = plan.overlap_pairs();
    let mut body = SubgraphBody { stmts: Stmts::new(depth), used: BTreeSet::new(), scratch_ranges: Vec::new(), ops: Vec::new(), stops: false, custom: Vec::new() };
    // With the caller's custom operators, the function returns a `Result`.
    let fallible = custom.is_some_and(|c| !c.is_empty());
    for &id in &plan.plan.schedule {
        let kernel = lowered.kernel(id)?;
        let mut text = op_comment(sg, id);
        if aliased.contains(&id) {
            body.stmts.push(comment(&format!("{text}: a view, no code"))).map_err(Error::Internal)?;
            continue;
        }
        if let Some(cf) = kernel.control_flow() {
            let calls = calls.ok_or_else(|| Error::Internal(format!("{text}: calls subgraphs, but only the entry subgraph was given")))?;
            body.stmts.push(comment(&text)).map_err(Error::Internal)?;
            body.stmts.push(control_flow::emit_call(rt, arena, &ar, cf, id, calls, items, &mut body.used)?).map_err(Error::Internal)?;
            continue;
        }
        if lowered.ops[id].caps.folded {
            // A constant folded at compile time (`passes::fold`): its data is in WEIGHTS.
            body.stmts.push(comment(&format!("{text}: folded at compile time, no code"))).map_err(Error::Internal)?;
            continue;
        }
        let mut cx = EmitCx::new(rt, sg, id.index(), items);
        cx.in_place = in_place.iter().filter(|p| p.0 == id).map(|&(_, x, y)| (x, y)).collect();
        if let Some(&(_, x, y, _)) = overlaps.iter().find(|p| p.0 == id) {
            let ((x0, x1), (y0, y1)) = (ar.range(x)?, ar.range(y)?);
            let span = (x0.min(y0), x1.max(y1));
            cx.overlap = Some(crate::emit::Overlapped { x, y, span, input_at: x0 - span.0, output_at: y0 - span.0 });
        }
        let scratch: Vec<(usize, (usize, usize))> = plan
            .scratch_regions(id)
            .into_iter()
            .map(|r| ar.local(ar.base + r.start..ar.base + r.end).ok_or_else(|| Error::Internal(format!("{text}: its scratch lies in no memory pool"))))
            .collect::<Result<_, _>>()?;
        cx.scratch = scratch.first().map(|r| r.1);
        let user = kernel.user_custom();
        let call = match (user, custom) {
            (Some(u), Some(c)) => {
                body.custom.push(custom::CustomOps::info_const(rt, sg, u));
                let call = c.call(&mut cx, u)?;
                // The caller's kernel: `OpInfo` names it by its custom code.
                let label = format!("CustomOps: {}", u.code);
                cx.kernel_name = Some(quote! { #label });
                call
            }
            (Some(u), None) => return Err(Error::Internal(format!("{text}: custom operator {:?} outside the entry subgraph", u.code))),
            (None, _) => kernel.emit(&mut cx),
        };
        // The kernel `OpInfo` names: per target from the `target` module, else the call's own.
        let kernel_name = cx.kernel_name.take().unwrap_or_else(|| {
            let label = crate::emit::kernel_label(&call);
            quote! { #label }
        });
        let (ins, outs, pairs, scratch_used) = (cx.ins, cx.outs, cx.in_place, cx.scratch_used);
        let overlap = cx.overlap.filter(|_| cx.overlap_used);
        for (x, y) in &pairs {
            text.push_str(&format!(", in place: {y} over {x}"));
        }
        if let Some(o) = &overlap {
            let delta = o.output_at as i64 - o.input_at as i64;
            text.push_str(&format!(", overlapped: {} over {} at {delta:+} bytes", o.y, o.x));
        }
        if let (Some(&(_, x, y, _)), None) = (overlaps.iter().find(|p| p.0 == id), &overlap) {
            return Err(Error::Internal(format!("{text}: the plan overlaps {y} with {x} but the kernel did not run overlapped")));
        }
        if scratch_used && scratch.is_empty() {
            return Err(Error::Internal(format!("{text}: the kernel uses scratch but declared none")));
        }
        for &t in ins.iter().chain(&outs) {
            ar.range(t)?;
            body.used.insert(t);
        }
        // `__private::io` rejects an input overlapping an output at run time; catch it here
        // (an in-place pair whose kernel still requested the input, or a plan bug).
        let span_range = match overlap {
            Some(o) => Some((ar.pool(o.x)?, o.span)),
            None => None,
        };
        for &x in &ins {
            if let Some((k, (b0, b1))) = span_range {
                let (a0, a1) = ar.range(x)?;
                if a0 < b1 && b0 < a1 && ar.pool(x)? == k {
                    return Err(Error::Internal(format!("{text}: input {} overlaps the overlapped span", describe_tensor(sg.tensor(x)))));
                }
            }
            for &y in &outs {
                let ((a0, a1), (b0, b1)) = (ar.range(x)?, ar.range(y)?);
                if a0 < b1 && b0 < a1 && ar.pool(x)? == ar.pool(y)? {
                    return Err(Error::Internal(format!(
                        "{text}: input {} overlaps output {} in the arena",
                        describe_tensor(sg.tensor(x)),
                        describe_tensor(sg.tensor(y))
                    )));
                }
            }
        }
        let xs: Vec<_> = (0..ins.len()).map(|i| format_ident!("x{}", i)).collect();
        let mut ys: Vec<_> = (0..outs.len()).map(|i| format_ident!("y{}", i)).collect();
        let tin: Vec<_> = ins.iter().map(|t| format_ident!("T{}", t.index())).collect();
        let mut tout: Vec<_> = outs.iter().map(|t| format_ident!("T{}", t.index())).collect();
        // The pool of every input and output view, in the order of `tin` and `tout`.
        let pin: Vec<usize> = ins.iter().map(|&t| ar.pool(t)).collect::<Result<_, _>>()?;
        let mut pout: Vec<usize> = outs.iter().map(|&t| ar.pool(t)).collect::<Result<_, _>>()?;
        if let Some((k, _)) = span_range {
            pout.push(k);
        }
        if let (true, Some(r)) = (scratch_used, scratch.first()) {
            pout.push(r.0);
        }
        if let Some(o) = &overlap {
            let name = format_ident!("V{}", id.index());
            let doc = format!(" op {}: {} written over the consumed part of {}", id.index(), o.y, o.x);
            let (a, b) = (int(o.span.0 as i64), int(o.span.1 as i64));
            body.scratch_ranges.push(quote! {
                #[doc = #doc]
                const #name: ::core::ops::Range<usize> = #a..#b;
            });
            ys.push(format_ident!("v0"));
            tout.push(name);
        }
        if let (true, Some(&(_, r))) = (scratch_used, scratch.first()) {
            let r = r.0..r.1;
            let name = format_ident!("S{}", id.index());
            let doc = format!(" op {}: scratch, {} bytes", id.index(), r.end - r.start);
            let (a, b) = (int(r.start as i64), int(r.end as i64));
            body.scratch_ranges.push(quote! {
                #[doc = #doc]
                const #name: ::core::ops::Range<usize> = #a..#b;
            });
            ys.push(format_ident!("s0"));
            tout.push(name);
        }
        // One pool (or one arena): `io` on it; several: `io_pools` on all of them, each view
        // tagged with its pool.
        let split = match pin.iter().chain(&pout).copied().collect::<BTreeSet<usize>>().into_iter().collect::<Vec<_>>().as_slice() {
            [] => quote! { #rt::__private::io(#arena, [#(#tin),*], [#(#tout),*]) },
            [k] if plan.pools.is_empty() => {
                let _ = k;
                quote! { #rt::__private::io(#arena, [#(#tin),*], [#(#tout),*]) }
            }
            [k] => {
                let a = pool_arena(&plan.pools[*k].name);
                quote! { #rt::__private::io(#a, [#(#tin),*], [#(#tout),*]) }
            }
            _ => {
                // The pools that hold bytes (an empty pool has no arena).
                let arenas: Vec<TokenStream> = plan.pools.iter().filter(|p| p.bytes > 0).map(|p| pool_arena(&p.name)).collect();
                let idx = |k: &usize| format_ident!("POOL_{}", plan.pools[*k].name.to_uppercase());
                let (ki, ko): (Vec<_>, Vec<_>) = (pin.iter().map(idx).collect(), pout.iter().map(idx).collect());
                quote! { #rt::__private::io_pools([#(#arenas),*], [#((#ki, #tin)),*], [#((#ko, #tout)),*]) }
            }
        };
        body.stmts.push(comment(&text)).map_err(Error::Internal)?;
        let k = int(body.ops.len() as i64);
        let (index, opcode) = (int(id.index() as i64), sg.ops[id].opcode.to_string());
        let output = sg.ops[id].outputs.first().map(|&t| short_name(&sg.tensor(t).name)).unwrap_or_default();
        body.ops.push(quote! { #rt::OpInfo { index: #index, opcode: #opcode, output: #output, kernel: #kernel_name } });
        let stmt = if kernel.stops() {
            // TFLite Micro's kTfLiteAbort: the call is `false` when the run ends here.
            if calls.is_some_and(|c| c.current != 0) {
                return Err(Error::Internal(format!("{text}: can end the run, but is inside a called subgraph")));
            }
            body.stops = true;
            let stopped = if fallible { quote! { Ok(#rt::RunStatus::Stopped { op: #index }) } } else { quote! { #rt::RunStatus::Stopped { op: #index } } };
            quote! {
                observer.before(&OPS[#k]);
                let complete = {
                    let ([#(#xs),*], [#(#ys),*]) = #split;
                    #call
                };
                observer.after(&OPS[#k]);
                if !complete {
                    return #stopped;
                }
            }
        } else if user.is_some() {
            // The caller's kernel: its error ends the run, after the observer saw the op.
            let info = format_ident!("CUSTOM_{}", id.index());
            quote! {
                observer.before(&OPS[#k]);
                let status = {
                    let ([#(#xs),*], [#(#ys),*]) = #split;
                    #call
                };
                observer.after(&OPS[#k]);
                status.map_err(|error| #rt::custom::CustomOpFailed { op: &#info, error })?;
            }
        } else {
            quote! {
                observer.before(&OPS[#k]);
                {
                    let ([#(#xs),*], [#(#ys),*]) = #split;
                    #call
                }
                observer.after(&OPS[#k]);
            }
        };
        body.stmts.push(stmt).map_err(Error::Internal)?;
    }
    Ok(body)
}

/// The `target` modules: for each target class, the calls of the ops whose kernel differs
/// between classes ([`EmitCx::per_target`](crate::emit::EmitCx::per_target)), one function
/// each, the module for the build's class selected once by `cfg`; `run()` calls
/// `target::op<N>(…)`. None when every op makes the same call on every target.
/// Each module's functions are formatted one at a time ([`Stmts`]), so a long model never
/// formats a whole module at once.
fn target_modules(module: &mut Module, items: &Items) -> Result<Vec<TokenStream>, Error> {
    if items.target.iter().all(|fns| fns.is_empty()) {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for ((class, cfg, _), fns) in crate::emit::target_classes().iter().zip(&items.target) {
        let doc = format!(
            " The kernel calls that differ between targets, as this build's target class ({}) makes them: `run()` calls each op's function here.",
            class.name()
        );
        let mut body = Stmts::new(1);
        for f in fns {
            body.push(f.clone()).map_err(Error::Internal)?;
        }
        let body = module.stmts(body);
        out.push(quote! {
            #[doc = #doc]
            #[cfg(#cfg)]
            mod target {
                use super::*;
                #body
            }
        });
    }
    Ok(out)
}

/// `dtcm_fast` -> `DtcmFast`.
fn camel(name: &str) -> String {
    name.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// `&mut self.<pool>.0`: the bytes of a pool's arena in `run_with`.
fn pool_arena(name: &str) -> TokenStream {
    let f = format_ident!("{}", name);
    quote! { &mut self.#f.0 }
}

/// The model's inputs and outputs: consts, accessors and the arms of the byte accessors.
#[derive(Default)]
struct Io {
    items: Vec<TokenStream>,
    accessors: Vec<TokenStream>,
    in_arms: Vec<TokenStream>,
    out_arms: Vec<TokenStream>,
}

fn emit_io(rt: &TokenStream, ar: &Arena<'_, '_, '_>) -> Result<Io, Error> {
    let sg = ar.sg;
    let mut io = Io::default();
    for (kind, list) in [("input", &sg.inputs), ("output", &sg.outputs)] {
        for (i, &t) in list.iter().enumerate() {
            ar.range(t)?;
            let tensor = sg.tensor(t);
            let upper = kind.to_uppercase();
            // A bool tensor is exposed as its bytes, one per element, 0 or 1 (TFLite's storage).
            let elem = tensor.dtype.arena_elem().or((tensor.dtype == crate::ir::DType::Bool).then_some("u8")).ok_or_else(|| {
                Error::Unsupported { count: 1, details: format!("model {kind} {i} ({}): unsupported: generated code cannot expose its element type", describe_tensor(tensor)) }
            })?;
            let elem_ty = emit::ident(elem);
            let n = int(tensor.num_elements() as i64);
            let rank = int(tensor.shape.len() as i64);
            let dims = tensor.shape.iter().map(|&d| int(d as i64));
            let shape_c = format_ident!("{}_{}_SHAPE", upper, i);
            let dtype_c = format_ident!("{}_{}_DTYPE", upper, i);
            let scale_c = format_ident!("{}_{}_SCALE", upper, i);
            let zp_c = format_ident!("{}_{}_ZERO_POINT", upper, i);
            let elem_alias = format_ident!("{}{}Elem", if kind == "input" { "Input" } else { "Output" }, i);
            let dtype_name = tensor.dtype.name();
            let (scale, zp) = tensor.quant.as_ref().and_then(|q| q.per_tensor()).unwrap_or((0.0, 0));
            let scale_lit = emit::float(scale);
            let zp_lit = int(zp);
            let doc = format!(" {kind} {i}: {}", describe_tensor(tensor));
            io.items.push(quote! {
                #[doc = #doc]
                pub const #shape_c: [usize; #rank] = [#(#dims),*];
                pub const #dtype_c: &str = #dtype_name;
                /// Element type.
                pub type #elem_alias = #elem_ty;
                /// Quantization scale (0.0 when not quantized): `real = scale * (q - zero_point)`.
                pub const #scale_c: f32 = #scale_lit;
                pub const #zp_c: i64 = #zp_lit;
            });
            let tr = format_ident!("T{}", t.index());
            let field = match ar.plan.pools.get(ar.pool(t)?) {
                Some(p) => format_ident!("{}", p.name),
                None => format_ident!("arena"),
            };
            let idx = int(i as i64);
            if kind == "input" {
                let f = format_ident!("input_{}", i);
                let arr = format_ident!("array_{}_mut", elem);
                io.accessors.push(quote! {
                    #[doc = #doc]
                    pub fn #f(&mut self) -> &mut [#elem_ty; #n] {
                        #rt::__private::#arr(&mut self.#field.0[#tr])
                    }
                });
                io.in_arms.push(quote! { #idx => &mut self.#field.0[#tr], });
            } else {
                let f = format_ident!("output_{}", i);
                let arr = format_ident!("array_{}", elem);
                io.accessors.push(quote! {
                    #[doc = #doc]
                    pub fn #f(&self) -> &[#elem_ty; #n] {
                        #rt::__private::#arr(&self.#field.0[#tr])
                    }
                });
                io.out_arms.push(quote! { #idx => &self.#field.0[#tr], });
            }
        }
    }
    Ok(io)
}

/// `Model::new()`'s doc and body: a zeroed arena whose variable tensors hold their reset
/// value, as after TFLite Micro's `ResetVariableTensors`; `fields` initialises the `Model`
/// fields besides the arena (`name: value,` each). Returns the tensors it fills.
fn emit_new(rt: &TokenStream, ar: &Arena<'_, '_, '_>, fields: &TokenStream) -> Result<(&'static str, TokenStream, Vec<TensorId>), Error> {
    let wrapper = align_wrapper(rt, ar.plan.plan.align as usize);
    if !ar.plan.pools.is_empty() {
        return emit_new_pools(rt, ar, fields);
    }
    let (fills, filled) = emit_fills(rt, ar)?;
    Ok(if fills.is_empty() {
        (" A model with a zeroed arena.", quote! { Self { arena: #wrapper([0; ARENA_BYTES]), #fields } }, filled)
    } else {
        (
            " A model with a zeroed arena whose variable tensors hold their reset value (the zero point of an int8 tensor).",
            quote! {
                let mut arena = [0; ARENA_BYTES];
                #(#fills)*
                Self { arena: #wrapper(arena), #fields }
            },
            filled,
        )
    })
}

/// [`emit_new`] with memory pools: one zeroed arena per pool (a local array of the pool's
/// name), variable tensors at their reset value in theirs.
fn emit_new_pools(rt: &TokenStream, ar: &Arena<'_, '_, '_>, fields: &TokenStream) -> Result<(&'static str, TokenStream, Vec<TensorId>), Error> {
    let wrapper = align_wrapper(rt, ar.plan.plan.align as usize);
    let mut fills = Vec::new();
    let mut filled = Vec::new();
    for t in ar.sg.tensors.iter().filter(|t| t.is_variable && !t.is_constant()) {
        let (k, (a, b)) = ar.placed(t.id)?;
        let byte = t.reset_byte();
        if a < b && byte != 0 {
            filled.push(t.id);
            let (pool, name) = (format_ident!("{}", ar.plan.pools[k].name), format_ident!("T{}", t.id.index()));
            let zp = proc_macro2::Literal::i8_suffixed(byte as i8);
            if ar.plan.pools[k].section.is_some() {
                fills.push(quote! { #rt::__private::fill(&mut #pool.0, #name, #zp as u8); });
            } else {
                fills.push(quote! { #rt::__private::fill(&mut #pool, #name, #zp as u8); });
            }
        }
    }
    let mut lets = Vec::new();
    let mut inits = Vec::new();
    for p in ar.plan.pools.iter().filter(|p| p.bytes > 0) {
        let (name, bytes) = (format_ident!("{}", p.name), format_ident!("{}_BYTES", p.name.to_uppercase()));
        if p.section.is_some() {
            // Borrowed: zeroed here, its variables' reset values written into it below.
            let zeroed = format_ident!("{}_ZEROED", p.name.to_uppercase());
            lets.push(quote! { *#name = #zeroed; });
            inits.push(quote! { #name, });
            continue;
        }
        if filled.iter().any(|&t| ar.pool(t).ok() == ar.plan.pools.iter().position(|q| q.name == p.name)) {
            lets.push(quote! { let mut #name = [0; #bytes]; });
            inits.push(quote! { #name: #wrapper(#name), });
        } else {
            inits.push(quote! { #name: #wrapper([0; #bytes]), });
        }
    }
    let doc = match (filled.is_empty(), ar.plan.pools.iter().any(|p| p.section.is_some() && p.bytes > 0)) {
        (true, false) => " A model with zeroed arenas.",
        (false, false) => " A model with zeroed arenas whose variable tensors hold their reset value (the zero point of an int8 tensor).",
        (true, true) => " A model with zeroed arenas, the arenas of the pools in linker sections borrowed (and zeroed).",
        (false, true) => {
            " A model with zeroed arenas (those of the pools in linker sections borrowed and zeroed) whose variable tensors hold their reset value (the zero point of an int8 tensor)."
        }
    };
    Ok((doc, quote! { #(#lets)* #(#fills)* Self { #(#inits)* #fields } }, filled))
}

/// The statements writing the reset value of every variable tensor whose reset byte is not
/// zero into a local `arena` array (TFLite Micro's `ResetVariableTensors`), and those tensors.
fn emit_fills(rt: &TokenStream, ar: &Arena<'_, '_, '_>) -> Result<(Vec<TokenStream>, Vec<TensorId>), Error> {
    let mut fills = Vec::new();
    let mut filled = Vec::new();
    for t in ar.sg.tensors.iter().filter(|t| t.is_variable && !t.is_constant()) {
        let (a, b) = ar.range(t.id)?;
        let byte = t.reset_byte();
        if a < b && byte != 0 {
            filled.push(t.id);
            let name = format_ident!("T{}", t.id.index());
            // Only int8 tensors have a non-zero reset byte: write it as the zero point.
            let zp = proc_macro2::Literal::i8_suffixed(byte as i8);
            fills.push(quote! { #rt::__private::fill(&mut arena, #name, #zp as u8); });
        }
    }
    Ok((fills, filled))
}

/// The generated `ARENA_BYTES`: the plan's arena, at least one alignment unit.
pub fn arena_bytes(plan: &SubgraphPlan) -> usize {
    plan.plan.arena_bytes.max(plan.plan.align) as usize
}

/// What one module holds and how its memory is laid out, as `pipeline` decided it after
/// planning.
pub enum ModuleLayout<'l, 'm, 'a> {
    /// One model with its own arena, or its own memory pools (the entry plan's
    /// [`SubgraphPlan::pools`]); every subgraph instance its entry subgraph reaches becomes a
    /// function of its own ([`control_flow`]).
    Single {
        /// The model, lowered.
        model: &'l LoweredModel<'m, 'a>,
        /// Its plans.
        plan: &'l ModelPlan,
        /// Header and weights.
        opts: &'l CodegenOptions,
    },
    /// Several models sharing one arena of `arena_bytes`: one `pub mod <name>` per model
    /// (its consts, weights and a `Model<'a>` view), and `Models`, which owns the arena.
    Shared {
        /// The models in order, each planned inside the joint arena (`plan::joint`).
        models: Vec<SharedModel<'l, 'm, 'a>>,
        /// The joint arena's bytes.
        arena_bytes: u64,
        /// Its alignment.
        align: usize,
        /// Path of the runtime crate.
        runtime_path: &'l str,
        /// The `@generated` line.
        header: String,
        /// The doc of `ARENA_BYTES`.
        arena_doc: String,
    },
}

/// One model of [`ModuleLayout::Shared`].
pub struct SharedModel<'l, 'm, 'a> {
    /// The model, lowered.
    pub model: &'l LoweredModel<'m, 'a>,
    /// Its plans, moved into the joint arena.
    pub plan: &'l ModelPlan,
    /// Its module name (a Rust identifier).
    pub name: String,
    /// The doc comment of its module.
    pub doc: String,
    /// Header and weights (`model_name` is its file).
    pub opts: &'l CodegenOptions,
}

/// Generates the module: codegen's one entry point.
pub fn generate(layout: ModuleLayout<'_, '_, '_>) -> Result<Generated, Error> {
    match layout {
        ModuleLayout::Single { model, plan, opts } => {
            model.check()?;
            let (Some(lowered), Some(main)) = (model.main(), plan.main()) else {
                return Err(Error::Internal("the model has no entry subgraph".into()));
            };
            let calls = if model.has_calls() { Some((model, plan)) } else { None };
            generate_with(lowered, main, calls, opts)
        }
        ModuleLayout::Shared { models, arena_bytes, align, runtime_path, header, arena_doc } => {
            let mut parts = Vec::new();
            for m in models {
                let file = m.opts.model_name.clone();
                parts.push(shared_part(m).map_err(|e| match e {
                    e @ Error::Options(_) => e,
                    e => Error::InModel { file, error: Box::new(e) },
                })?);
            }
            generate_shared(parts, arena_bytes, align, runtime_path, &header, &arena_doc)
        }
    }
}

/// One model of a module whose models share one arena, formatted ([`generate_shared`]).
struct SharedPart {
    /// The model's module name (a Rust identifier).
    name: String,
    /// The doc comment of its module.
    doc: String,
    /// Its module's items, formatted.
    text: String,
    /// Whether the module has a `reset` fn.
    has_reset: bool,
    /// Whether its `run()` returns `rt::RunStatus`.
    stops: bool,
}

/// The module items of one model of a shared arena, its plans already moved into the joint
/// arena (`plan::joint`).
fn shared_part(m: SharedModel<'_, '_, '_>) -> Result<SharedPart, Error> {
    m.model.check()?;
    let (Some(lowered), Some(plan)) = (m.model.main(), m.plan.main()) else {
        return Err(Error::Internal("the model has no entry subgraph".into()));
    };
    let calls = if m.model.has_calls() { Some((m.model, m.plan)) } else { None };
    let t = model_tokens(lowered, plan, calls, m.opts, true)?;
    let text = format_module("", t.module).map_err(Error::Internal)?;
    Ok(SharedPart { name: m.name, doc: m.doc, text, has_reset: t.has_reset, stops: t.stops })
}

/// A module of several models sharing one arena of `arena_bytes`: one `pub mod <name>` per
/// part (its consts, weights and a `Model<'a>` view), and `Models`, which owns the arena and
/// hands out each model (`Models::<name>()`) and runs it (`Models::run_<name>()`). Each part
/// is formatted on its own and indented into its `mod`.
fn generate_shared(parts: Vec<SharedPart>, arena_bytes: u64, align: usize, runtime_path: &str, header: &str, arena_doc: &str) -> Result<Generated, Error> {
    let rt_path: TokenStream =
        runtime_path.parse().map_err(|_| crate::error::OptionsError::RuntimePath { path: runtime_path.to_owned() })?;
    let rt = quote! { rt };
    let wrapper = align_wrapper(&rt, align);
    let n = int(arena_bytes.max(align as u64) as i64);
    let mut methods = Vec::new();
    let mut resets = Vec::new();
    let mut mods = String::new();
    for part in &parts {
        let name = format_ident!("{}", part.name);
        let run = format_ident!("run_{}", part.name);
        for line in part.doc.lines() {
            mods.push_str(&format!("///{line}\n"));
        }
        mods.push_str(&format!("pub mod {} {{\n", part.name));
        for line in part.text.trim_start_matches('\n').lines() {
            if !line.is_empty() {
                mods.push_str("    ");
                mods.push_str(line);
            }
            mods.push('\n');
        }
        mods.push_str("}\n");
        let get_doc = format!(" Model `{}` in the shared arena: its inputs, outputs and `run`.", part.name);
        let run_doc = format!(" Runs model `{}` once: reads its inputs, writes its outputs.", part.name);
        let ret = if part.stops { quote! { -> rt::RunStatus } } else { quote! {} };
        methods.push(quote! {
            #[doc = #get_doc]
            pub fn #name(&mut self) -> #name::Model<'_> {
                #name::Model { arena: &mut self.arena }
            }

            #[doc = #run_doc]
            pub fn #run(&mut self) #ret {
                self.#name().run()
            }
        });
        if part.has_reset {
            resets.push(quote! { let arena = #name::reset(arena); });
        }
    }
    let mut head = Module::default();
    head.item(quote! {
        use #rt_path as rt;

        #[doc = #arena_doc]
        pub const ARENA_BYTES: usize = #n;
    });
    let mut tail = Module::default();
    tail.item(quote! {
        /// The models of this module and the one arena they share. Run one model at a time;
        /// each model's inputs, outputs and state stay in place while the others run. Put it
        /// in a `static` or on the stack; nothing is allocated and nothing runs at start-up.
        pub struct Models {
            arena: #wrapper<[u8; ARENA_BYTES]>,
        }

        impl Models {
            /// A zeroed arena, each model's variable tensors at their reset value.
            pub const fn new() -> Self {
                let arena = [0; ARENA_BYTES];
                #(#resets)*
                Self { arena: #wrapper(arena) }
            }

            #(#methods)*
        }

        impl Default for Models {
            fn default() -> Self {
                Self::new()
            }
        }
    });
    let head = format_module(header, head).map_err(Error::Internal)?;
    let tail = format_module("", tail).map_err(Error::Internal)?;
    let code = format!("{head}{mods}{tail}");
    Ok(Generated { code, weights: Vec::new(), scoped_weights: Vec::new() })
}

fn generate_with(
    lowered: &LoweredSubgraph<'_, '_>,
    plan: &SubgraphPlan,
    model: Option<(&LoweredModel<'_, '_>, &ModelPlan)>,
    opts: &CodegenOptions,
) -> Result<Generated, Error> {
    let m = model_tokens(lowered, plan, model, opts, false)?;
    let header = format!(
        "// @generated by tflc {} from {} (sha256:{}). Do not edit.",
        env!("CARGO_PKG_VERSION"),
        opts.model_name,
        opts.model_sha256
    );
    let code = format_module(&header, m.module).map_err(Error::Internal)?;
    Ok(Generated { code, weights: m.weights, scoped_weights: m.scoped_weights })
}

/// One model's items, before formatting.
struct ModelTokens {
    module: Module,
    weights: Vec<u8>,
    scoped_weights: Vec<(&'static str, Vec<u8>)>,
    /// Whether the module has a `reset` fn (variable tensors with a non-zero reset value):
    /// only in a shared arena.
    has_reset: bool,
    /// Whether `run()` returns `rt::RunStatus` ([`SubgraphBody::stops`]).
    stops: bool,
}

/// The items of one model's module. `shared`: the model is one of several in one arena
/// ([`generate_shared`]): its `Model<'a>` borrows the arena of the enclosing `Models`, which
/// resets its variable tensors through the module's `reset`.
fn model_tokens(
    lowered: &LoweredSubgraph<'_, '_>,
    plan: &SubgraphPlan,
    model: Option<(&LoweredModel<'_, '_>, &ModelPlan)>,
    opts: &CodegenOptions,
    shared: bool,
) -> Result<ModelTokens, Error> {
    lowered.check()?;
    let sg = lowered.sg;
    let rt_path: TokenStream = opts
        .runtime_path
        .parse()
        .map_err(|_| crate::error::OptionsError::RuntimePath { path: opts.runtime_path.clone() })?;
    // Everything below refers to the runtime as `rt`.
    let rt = quote! { rt };
    let align = plan.plan.align as usize;
    let ar = Arena { sg, plan, base: 0 };

    let mut items = Items::new(align);
    let mut module = Module::default();
    if !plan.pools.is_empty() && (shared || model.is_some_and(|(lm, _)| lm.has_calls())) {
        return Err(crate::error::OptionsError::PoolsWithCalls.into());
    }
    // Calls: every instance below the entry one becomes a function.
    let instances = model.map(|(_, mp)| mp.instances()).unwrap_or_default();
    let names = control_flow::names(&instances);
    let once: Vec<OpId> = sg.ops.iter().filter(|o| matches!(o.kind, crate::ir::OpKind::CallOnce { .. })).map(|o| o.id).collect();
    if shared {
        if let Some(op) = once.first() {
            return Err(crate::error::OptionsError::SharedCallOnce { model: opts.model_name.clone(), op: op.index() }.into());
        }
    }
    // The caller's custom operators (entry subgraph only: lowering refuses them elsewhere).
    let custom = custom::CustomOps::of(lowered);
    if let (true, Some(op)) = (shared, custom.first_op()) {
        return Err(crate::error::OptionsError::SharedCustomOps { model: opts.model_name.clone(), op }.into());
    }
    let mut functions = Vec::new();
    let mut body = match model {
        None => emit_subgraph(&rt, &quote! { &mut self.arena.0 }, lowered, plan, &mut items, None, Some(&custom), 2)?,
        Some((lm, mp)) => {
            for (i, inst) in instances.iter().enumerate().skip(1) {
                let (Some(l), Some(p)) = (lm.get(inst.subgraph), mp.get(inst.subgraph)) else {
                    return Err(Error::Internal(format!("subgraph {} is called but was not lowered and planned", inst.subgraph.index())));
                };
                let calls = control_flow::Calls { lm, mp, instances: &instances, names: &names, current: i, base: inst.base, once: &[] };
                let b = emit_subgraph(&rt, &quote! { &mut *arena }, l, p, &mut items, Some(&calls), None, 1)?;
                let car = Arena { sg: l.sg, plan: p, base: inst.base };
                let mut consts = Vec::new();
                for &t in &b.used {
                    consts.push(car.range_const(t)?);
                }
                let (scratch, ops, n_ops) = (&b.scratch_ranges, &b.ops, int(b.ops.len() as i64));
                let name = &names[i];
                let doc = match inst.parent {
                    Some((p, op)) => format!(
                        " Subgraph {} \"{}\" at arena offset {}, called by op {} of {}.",
                        inst.subgraph.index(),
                        l.sg.name,
                        inst.base,
                        op.index(),
                        if p == 0 { "the entry subgraph".to_string() } else { format!("subgraph {}", instances[p].subgraph.index()) }
                    ),
                    None => String::new(),
                };
                functions.push(if b.stmts.is_empty() {
                    // A subgraph with nothing to run (an empty CALL_ONCE init, say): no
                    // unused parameters or `OPS` to warn about.
                    quote! {
                        #[doc = #doc]
                        fn #name(_arena: &mut [u8], _observer: &mut impl rt::Observer) {}
                    }
                } else {
                    // The consts are items inside the function: formatted with it (each is
                    // small), the statements apart ([`Module::stmts`]).
                    let stmts = module.stmts(b.stmts);
                    quote! {
                        #[doc = #doc]
                        fn #name(arena: &mut [u8], observer: &mut impl rt::Observer) {
                            #(#consts)*
                            #(#scratch)*
                            /// The operators of this subgraph that run code, in execution order.
                            const OPS: [rt::OpInfo; #n_ops] = [#(#ops),*];
                            #stmts
                        }
                    }
                });
            }
            let calls = control_flow::Calls { lm, mp, instances: &instances, names: &names, current: 0, base: 0, once: &once };
            emit_subgraph(&rt, &quote! { &mut self.arena.0 }, lowered, plan, &mut items, Some(&calls), Some(&custom), 2)?
        }
    };
    // A model whose run can end early returns how it ended (`rt::RunStatus`); every other
    // model's `run()` returns nothing, as before.
    let stops = body.stops;
    let fallible = !custom.is_empty();
    let (ret, run_doc) = if fallible {
        let (ok, tail) = if stops { (quote! { rt::RunStatus }, quote! { Ok(rt::RunStatus::Complete) }) } else { (quote! { () }, quote! { Ok(()) }) };
        body.stmts.push(tail).map_err(Error::Internal)?;
        (
            quote! { -> ::core::result::Result<#ok, rt::custom::CustomOpFailed> },
            if stops {
                " Runs one inference with `ops` running the custom operators ([`CustomOps`]): reads the inputs, writes the outputs, and says whether every operator ran ([`rt::RunStatus`]; CIRCULAR_BUFFER can end a run early). `Err`: a custom operator's kernel failed; the operators after it did not run."
            } else {
                " Runs one inference with `ops` running the custom operators ([`CustomOps`]): reads the inputs, writes the outputs. `Err`: a custom operator's kernel failed; the operators after it did not run."
            },
        )
    } else if stops {
        body.stmts.push(quote! { rt::RunStatus::Complete }).map_err(Error::Internal)?;
        (
            quote! { -> rt::RunStatus },
            " Runs one inference: reads the inputs, writes the outputs, and says whether every operator ran. [`rt::RunStatus::Stopped`]: an operator ended the run early, as TFLite Micro's CIRCULAR_BUFFER does until its period has passed (`kTfLiteAbort`, \"no output yet\"); the operators after it did not run, so the outputs they write hold nothing new.",
        )
    } else {
        (quote! {}, " Runs one inference: reads the inputs, writes the outputs.")
    };
    let io = emit_io(&rt, &ar)?;
    let n_once = int(once.len() as i64);
    // CALL_ONCE flags: none has run yet.
    let once_init = if once.is_empty() { quote! {} } else { quote! { called_once: [false; #n_once], } };
    let (new_doc, new_body, filled) = emit_new(&rt, &ar, &once_init)?;

    // Arena ranges of every tensor the code touches, by tensor index.
    let mut used = body.used.clone();
    used.extend(sg.inputs.iter().chain(&sg.outputs).chain(&filled).copied());
    let mut ranges = Vec::new();
    for &t in &used {
        ranges.push(ar.range_const(t)?);
    }

    let arena_bytes = int(arena_bytes(plan) as i64);
    let n_in = int(sg.inputs.len() as i64);
    let n_out = int(sg.outputs.len() as i64);
    let blob = weights_static(&rt, &items.blob, &opts.weights, align);
    let scoped = items.scoped_items(&rt, &opts.weights);
    let wrapper = align_wrapper(&rt, align);
    let (accessors, in_arms, out_arms) = (&io.accessors, &io.in_arms, &io.out_arms);
    let (ops, n_ops) = (&body.ops, int(body.ops.len() as i64));
    let once_field = if once.is_empty() {
        quote! {}
    } else {
        quote! {
            /// Whether each CALL_ONCE operator has run its init subgraph (TFLite Micro's
            /// `has_run`).
            called_once: [bool; #n_once],
        }
    };
    // One item (or a few) at a time, so that formatting never holds the whole module.
    let arena_item = if shared {
        quote! {
            /// Bytes of the arena this model shares with the other models of the module
            /// ([`super::ARENA_BYTES`]).
            pub const ARENA_BYTES: usize = super::ARENA_BYTES;
        }
    } else {
        quote! {
            /// Bytes of RAM the model needs besides the stack: the arena inside [`Model`].
            pub const ARENA_BYTES: usize = #arena_bytes;
        }
    };
    // With pools: each pool's bytes, and its index in `__private::io_pools`' arrays.
    let mut pool_items = Vec::new();
    let mut pool_fields = Vec::new();
    // `Model::new`'s parameters: the arenas of the pools in linker sections.
    let mut borrowed: Vec<TokenStream> = Vec::new();
    let mut active = 0;
    for (k, p) in plan.pools.iter().enumerate() {
        let (bytes, index, field) = (format_ident!("{}_BYTES", p.name.to_uppercase()), format_ident!("POOL_{}", p.name.to_uppercase()), format_ident!("{}", p.name));
        let n = int(p.bytes as i64);
        let cap = p.capacity.map_or("unbounded".to_string(), |c| format!("capacity {c} bytes"));
        let fastest = if k == 0 { ", the fastest" } else { "" };
        if p.bytes == 0 {
            let doc = format!(" Bytes of memory pool `{}` (pool {k}, {cap}{fastest}): none of this model's tensors is there, so [`Model`] has no arena for it.", p.name);
            pool_items.push(quote! {
                #[doc = #doc]
                pub const #bytes: usize = 0;
            });
            continue;
        }
        let doc = format!(" Bytes of memory pool `{}` (pool {k}, {cap}{fastest}): its arena inside [`Model`].", p.name);
        let idx_doc = format!(" Index of pool `{}` in the arena arrays of `__private::io_pools`.", p.name);
        let k = int(active as i64);
        active += 1;
        pool_items.push(quote! {
            #[doc = #doc]
            pub const #bytes: usize = #n;
            #[doc = #idx_doc]
            pub const #index: usize = #k;
        });
        if let Some(section) = &p.section {
            // A pool in a linker section: `Model` borrows its arena, and the module declares
            // one in that section for the caller to lend it.
            let ty = format_ident!("{}Arena", camel(&p.name));
            let zeroed = format_ident!("{}_ZEROED", p.name.to_uppercase());
            let stat = format_ident!("{}_ARENA", p.name.to_uppercase());
            let ty_doc = format!(" The arena of pool `{}`, which [`Model`] borrows ([`Model::new`]).", p.name);
            let z_doc = format!(" A zeroed arena of pool `{}`.", p.name);
            let s_doc = format!(
                " Pool `{}`'s arena in linker section `{section}` (`--pool-section`). Lend it to [`Model::new`] once: `Model::new(unsafe {{ &mut *core::ptr::addr_of_mut!({stat}) }})` where nothing else takes it, or declare your own `#[link_section = \"{section}\"]` static behind a safe wrapper (`cortex_m::singleton!`).",
                p.name
            );
            pool_items.push(quote! {
                #[doc = #ty_doc]
                pub type #ty = #wrapper<[u8; #bytes]>;
                #[doc = #z_doc]
                pub const #zeroed: #ty = #wrapper([0; #bytes]);
                #[doc = #s_doc]
                #[link_section = #section]
                pub static mut #stat: #ty = #zeroed;
            });
            let fdoc = format!(" The arena of pool `{}`, borrowed.", p.name);
            pool_fields.push(quote! {
                #[doc = #fdoc]
                #field: &'p mut #ty,
            });
            borrowed.push(quote! { #field: &'p mut #ty });
            continue;
        }
        let fdoc = format!(" The arena of pool `{}`.", p.name);
        pool_fields.push(quote! {
            #[doc = #fdoc]
            #field: #wrapper<[u8; #bytes]>,
        });
    }
    let arena_item = if plan.pools.is_empty() {
        arena_item
    } else {
        let sum: Vec<_> = plan.pools.iter().map(|p| format_ident!("{}_BYTES", p.name.to_uppercase())).collect();
        quote! {
            /// Bytes of RAM the model needs besides the stack: its memory pools together.
            pub const ARENA_BYTES: usize = #(#sum)+*;
            #(#pool_items)*
        }
    };
    let arena_field = if plan.pools.is_empty() {
        quote! { arena: #wrapper<[u8; ARENA_BYTES]>, }
    } else {
        quote! { #(#pool_fields)* }
    };
    module.item(quote! {
        use #rt_path as rt;

        #arena_item
        /// Number of inputs.
        pub const INPUTS: usize = #n_in;
        /// Number of outputs.
        pub const OUTPUTS: usize = #n_out;
    });
    io.items.into_iter().for_each(|i| module.item(i));
    ranges.into_iter().for_each(|i| module.item(i));
    body.scratch_ranges.into_iter().for_each(|i| module.item(i));
    module.item(blob);
    items.weights.values().for_each(|(_, i)| module.item(i.clone()));
    items.consts.iter().for_each(|i| module.item(i.clone()));
    module.item(scoped);
    module.item(quote! {
        /// Every operator that runs code, in execution order: what [`Model::run_with`] passes
        /// its observer (index in the model, opcode, output name).
        pub const OPS: [rt::OpInfo; #n_ops] = [#(#ops),*];
    });
    if fallible {
        module.item(custom.trait_item(&rt));
        body.custom.iter().for_each(|i| module.item(i.clone()));
    }
    let (ops_param, ops_arg) = if fallible { (quote! { ops: &mut impl CustomOps, }, quote! { ops, }) } else { (quote! {}, quote! {}) };
    let stmts = module.stmts(body.stmts);
    let io_fns = quote! {
        #(#accessors)*

        /// Input `i` as bytes (empty for an index out of range).
        pub fn input_bytes_mut(&mut self, i: usize) -> &mut [u8] {
            match i {
                #(#in_arms)*
                _ => &mut [],
            }
        }

        /// Output `i` as bytes (empty for an index out of range).
        pub fn output_bytes(&self, i: usize) -> &[u8] {
            match i {
                #(#out_arms)*
                _ => &[],
            }
        }

        #[doc = #run_doc]
        pub fn run(&mut self, #ops_param) #ret {
            self.run_with(#ops_arg &mut rt::NoObserver)
        }

        /// [`Model::run`], calling `observer.before(op)` and `observer.after(op)` around
        /// each operator ([`OPS`]): per-operator timing or tracing.
        pub fn run_with(&mut self, #ops_param observer: &mut impl rt::Observer) #ret {
            #stmts
        }
    };
    let mut has_reset = false;
    if shared {
        let fills = emit_fills(&rt, &ar)?.0;
        has_reset = !fills.is_empty();
        let reset = if fills.is_empty() {
            quote! {}
        } else {
            quote! {
                /// Writes the reset value of this model's variable tensors (the zero point of
                /// an int8 tensor) into the shared arena; `Models::new` calls it.
                pub(super) const fn reset(mut arena: [u8; ARENA_BYTES]) -> [u8; ARENA_BYTES] {
                    #(#fills)*
                    arena
                }
            }
        };
        module.item(quote! {
            /// This model in the shared arena of the enclosing `Models` (from its accessor of
            /// this model's name): its inputs, outputs and state keep their bytes while the
            /// other models run; its other tensors share bytes with theirs.
            pub struct Model<'a> {
                pub(super) arena: &'a mut #wrapper<[u8; ARENA_BYTES]>,
            }

            impl Model<'_> {
                #io_fns
            }

            #reset
        });
    } else {
        // A pool in a linker section is borrowed (`'p`), so there is no `Default`.
        let (lt, default) = if borrowed.is_empty() {
            (quote! {}, quote! {
                impl Default for Model {
                    fn default() -> Self {
                        Self::new()
                    }
                }
            })
        } else {
            (quote! { <'p> }, quote! {})
        };
        module.item(quote! {
            /// The compiled model: its arena and the code that runs it. Put it in a `static` or
            /// on the stack; `run()` does no allocation and no start-up work.
            pub struct Model #lt {
                #arena_field
                #once_field
            }

            impl #lt Model #lt {
                #[doc = #new_doc]
                pub const fn new(#(#borrowed),*) -> Self {
                    #new_body
                }

                #io_fns
            }

            #default
        });
    }
    functions.into_iter().for_each(|f| module.item(f));
    for m in target_modules(&mut module, &items)? {
        module.item(m);
    }
    let scoped_weights = items.scoped.into_iter().map(|s| (s.suffix, s.blob)).collect();
    Ok(ModelTokens { module, weights: items.blob, scoped_weights, has_reset, stops })
}

#[cfg(all(test, feature = "format"))]
mod tests {
    use super::*;
    use crate::lower::ops::{ExecError, Kernel, TensorStore};
    use crate::lower::{lower_subgraph, LoweredOp};
    use crate::plan::PlanOptions;

    /// A kernel that wraps a lowered one and asks for `bytes` of scratch (0: asks without
    /// declaring any).
    #[derive(Debug)]
    struct WithScratch(Box<dyn Kernel>, usize);

    impl Kernel for WithScratch {
        fn execute(&self, store: &mut TensorStore) -> Result<(), ExecError> {
            self.0.execute(store)
        }
        fn emit(&self, cx: &mut EmitCx<'_, '_, '_>) -> TokenStream {
            let s = cx.scratch();
            let call = self.0.emit(cx);
            quote! { let _ = #s; #call }
        }
        fn scratch_bytes(&self) -> usize {
            self.1
        }
    }

    fn opts() -> CodegenOptions {
        CodegenOptions {
            runtime_path: "::tflc_runtime".into(),
            model_name: "m.tflite".into(),
            model_sha256: String::new(),
            weights: WeightsSource::Inline,
        }
    }

    /// A kernel's scratch goes from its capability to the planner to a range const `S<op>`
    /// and an exclusive view in its `io` call; using scratch without declaring it is an error.
    #[test]
    fn scratch_is_planned_and_reached() {
        let bytes = crate::testing::models::tiny_cnn();
        let model = crate::passes::read_model(&bytes).unwrap();
        let mut lowered = lower_subgraph(model.main());
        let op = OpId::new(0);
        let wrap = |l: &mut LoweredOp, n: usize| {
            let inner = std::mem::replace(&mut l.kernel, Err(crate::error::LowerError::Invalid { at: Default::default(), what: String::new() }));
            let k = WithScratch(inner.unwrap(), n);
            l.caps.scratch_bytes = k.scratch_bytes();
            l.kernel = Ok(Box::new(k));
        };
        wrap(&mut lowered.ops[op], 100);
        assert_eq!(lowered.scratch(), vec![(op, 100)]);
        let plan = crate::pipeline::plan(&lowered, &PlanOptions::default()).unwrap();
        let r = plan.scratch_regions(op);
        assert_eq!(r.len(), 1);
        let code = generate_with(&lowered, &plan, None, &opts()).unwrap().code;
        let decl = format!("const S0: ::core::ops::Range<usize> = {}..{};", r[0].start, r[0].end);
        assert!(code.contains(&decl), "{decl}\n{code}");
        assert!(code.contains("let _ = rt::__private::as_u8_mut(s0);"), "{code}");
        let io = code.lines().find(|l| l.contains("__private::io(") && l.contains("S0")).unwrap_or_default();
        assert!(io.contains(", s0]"), "{io}");

        let mut lowered = lower_subgraph(model.main());
        wrap(&mut lowered.ops[op], 0);
        let plan = crate::pipeline::plan(&lowered, &PlanOptions::default()).unwrap();
        let e = generate_with(&lowered, &plan, None, &opts()).unwrap_err().to_string();
        assert!(e.contains("op 0: CONV_2D") && e.contains("uses scratch but declared none"), "{e}");
    }

    /// PAD and CONCATENATION declare reversed overlaps of negative bounds (the pad's input
    /// 36 bytes into the output, its place there; the concatenation along its outermost axis
    /// reads its overlapped input, the last, before it writes anything, so any overlap does),
    /// the plan realises both where each saves bytes, and the code runs them through the
    /// runtime's overlapped copies.
    #[test]
    fn pad_and_concatenation_run_over_their_inputs() {
        use crate::plan::DeltaBound;
        let bytes = crate::testing::models::overlap_copies();
        let model = crate::passes::read_model(&bytes).unwrap();
        let lowered = lower_subgraph(model.main());
        let declared: Vec<_> = lowered.overlap().into_iter().map(|(op, _, _, d)| (op.index(), d)).collect();
        assert_eq!(declared, vec![(0, DeltaBound::AtLeast(-36)), (1, DeltaBound::AtLeast(-320))]);
        let plan = crate::pipeline::plan(&lowered, &PlanOptions::default()).unwrap();
        assert_eq!(plan.plan.overlaps.len(), 2, "{:?}", plan.plan);
        assert_eq!(plan.plan.arena_bytes, 384);
        let code = generate_with(&lowered, &plan, None, &opts()).unwrap().code;
        let flat: String = code.split_whitespace().collect();
        assert!(flat.contains("rt::kernels::overlap::pad_overlapped(&P0,rt::__private::as_i8_mut(v0),"), "{code}");
        assert!(
            flat.contains("rt::kernels::overlap::concatenation_overlapped(&P1,1,&[rt::__private::as_i8(x0)],rt::__private::as_i8_mut(v0),"),
            "{code}"
        );
    }
}
