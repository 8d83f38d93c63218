//! Code generation: a model, its memory layout and the lowered ops become one Rust module.
//!
//! `ops/` lowers each operator (one file per TFLite builtin) and emits its kernel call;
//! `emit.rs` holds the per-op emission context and the formatter. The module's shape:
//! `ARENA_BYTES`, I/O consts, arena ranges `T<i>`, weight statics `W<i>`, parameter consts
//! `P<op>`, and `Model { arena }` with `new`, `run` and typed accessors. `run()` is one
//! kernel call per operator in schedule order, nothing else.
//!
//! **Architecture Invariant:** the output is deterministic: the same model and options give
//! the same bytes (no hash-map iteration, identifiers from indices, names only in comments).


use crate::error::{Error, LowerError};
use crate::ir::{Model, OpId, Subgraph, TensorId};
use crate::emit::{self, comment, describe_tensor, format_module, int, short_name, weights_static, EmitCx, Items};
pub use crate::emit::WeightsSource;
use crate::lower::ops;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};

/// Where every arena tensor lives and in which order the ops run.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub arena_bytes: usize,
    /// Byte offset of every non-constant tensor in the arena (aliases share their source's).
    pub offsets: BTreeMap<TensorId, usize>,
    /// Operator order.
    pub schedule: Vec<OpId>,
    /// View operators whose output shares its input's bytes: they emit no code.
    pub aliased: BTreeSet<OpId>,
    /// (op, input, output) pairs placed at one offset: the op's output overwrites that
    /// input, and the op emits its `_in_place` kernel call.
    pub in_place: BTreeSet<(OpId, TensorId, TensorId)>,
}

impl Layout {
    /// No reuse at all: each non-constant tensor gets its own aligned range, ops in file
    /// order. A baseline for tests; the planner's layout replaces it.
    pub fn naive(sg: &Subgraph<'_>, align: usize) -> Layout {
        let mut offsets = BTreeMap::new();
        let mut pos = 0usize;
        for t in sg.tensors.iter().filter(|t| !t.is_constant()) {
            offsets.insert(t.id, pos);
            pos = (pos + t.byte_size().unwrap_or(0)).next_multiple_of(align.max(1));
        }
        Layout { arena_bytes: pos.max(align), offsets, schedule: sg.ops.indices().collect(), aliased: BTreeSet::new(), in_place: BTreeSet::new() }
    }
}

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
    /// `rt::__private::op_marker(N);` before each operator that emits code.
    pub op_markers: bool,
}

/// The generated module and its weight blob (the blob is also inside the module when the
/// weights are inline).
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    pub code: String,
    pub weights: Vec<u8>,
}

fn op_comment(sg: &Subgraph<'_>, id: OpId) -> String {
    let op = &sg.ops[id];
    let ins: Vec<String> = op.inputs.iter().map(|t| t.map_or("-".to_owned(), |t| t.to_string())).collect();
    let outs: Vec<String> = op.outputs.iter().map(|t| t.to_string()).collect();
    let name = op.outputs.first().map(|&t| short_name(&sg.tensor(t).name)).unwrap_or_default();
    format!("op {}: {} \"{name}\" ({}) -> {}", id.index(), op.opcode, ins.join(", "), outs.join(", "))
}

/// Generates the module for `model`'s subgraph 0 with `layout`.
pub fn generate(model: &Model<'_>, layout: &Layout, opts: &CodegenOptions) -> Result<Generated, Error> {
    let sg = model.main();
    let rt_path: TokenStream = opts
        .runtime_path
        .parse()
        .map_err(|_| Error::Codegen(format!("runtime path {:?} is not a Rust path", opts.runtime_path)))?;
    // Everything below refers to the runtime as `rt`.
    let rt = quote! { rt };

    // Lower every op first so that all problems are found before emitting anything.
    let mut lowered = Vec::with_capacity(layout.schedule.len());
    let mut errors: Vec<LowerError> = Vec::new();
    for &id in &layout.schedule {
        match ops::lower(sg, &sg.ops[id]) {
            Ok(k) => lowered.push((id, k)),
            Err(e) => errors.push(e),
        }
    }
    if let Some(first) = errors.first() {
        if errors.len() == 1 {
            return Err(first.clone().into());
        }
        let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        return Err(Error::Unsupported { count: errors.len(), details: all.join("\n") });
    }

    let arena_range = |t: TensorId| -> Result<(usize, usize), Error> {
        let tensor = sg.tensor(t);
        let off = *layout
            .offsets
            .get(&t)
            .ok_or_else(|| Error::Codegen(format!("the memory plan has no offset for {}", describe_tensor(tensor))))?;
        Ok((off, off + tensor.byte_size().unwrap_or(0)))
    };

    let mut items = Items::default();
    let mut used_ranges: BTreeSet<TensorId> = BTreeSet::new();
    let mut body = Vec::new();
    for (id, kernel) in &lowered {
        let text = op_comment(sg, *id);
        if layout.aliased.contains(id) && kernel.is_view() {
            body.push(comment(&format!("{text}: a view, no code")));
            continue;
        }
        let mut cx = EmitCx::new(&rt, sg, id.index(), &mut items);
        cx.in_place = layout.in_place.range((*id, TensorId::new(0), TensorId::new(0))..).take_while(|p| p.0 == *id).map(|&(_, x, y)| (x, y)).collect();
        let call = kernel.emit(&mut cx);
        let (ins, outs) = (cx.ins.clone(), cx.outs.clone());
        let mut text = text;
        for (x, y) in &cx.in_place {
            text.push_str(&format!(", in place: {y} over {x}"));
        }
        for &t in ins.iter().chain(&outs) {
            arena_range(t)?;
            used_ranges.insert(t);
        }
        // `__private::io` rejects an input overlapping an output at run time; catch it here
        // (an in-place pair whose kernel still requested the input, or a plan bug).
        for &x in &ins {
            for &y in &outs {
                let ((a0, a1), (b0, b1)) = (arena_range(x)?, arena_range(y)?);
                if a0 < b1 && b0 < a1 {
                    return Err(Error::Codegen(format!(
                        "{text}: input {} overlaps output {} in the arena",
                        describe_tensor(sg.tensor(x)),
                        describe_tensor(sg.tensor(y))
                    )));
                }
            }
        }
        let xs: Vec<_> = (0..ins.len()).map(|i| format_ident!("x{}", i)).collect();
        let ys: Vec<_> = (0..outs.len()).map(|i| format_ident!("y{}", i)).collect();
        let tin: Vec<_> = ins.iter().map(|t| format_ident!("T{}", t.index())).collect();
        let tout: Vec<_> = outs.iter().map(|t| format_ident!("T{}", t.index())).collect();
        body.push(comment(&text));
        if opts.op_markers {
            let n = int(id.index() as i64);
            body.push(quote! { #rt::__private::op_marker(#n); });
        }
        body.push(quote! {
            {
                let ([#(#xs),*], [#(#ys),*]) = #rt::__private::io(&mut self.arena.0, [#(#tin),*], [#(#tout),*]);
                #call
            }
        });
    }

    // Inputs and outputs.
    let mut io_items = Vec::new();
    let mut accessors = Vec::new();
    let mut in_arms = Vec::new();
    let mut out_arms = Vec::new();
    for (kind, list) in [("input", &sg.inputs), ("output", &sg.outputs)] {
        for (i, &t) in list.iter().enumerate() {
            used_ranges.insert(t);
            arena_range(t)?;
            let tensor = sg.tensor(t);
            let upper = kind.to_uppercase();
            let elem = tensor.dtype.rust_name().ok_or_else(|| {
                Error::Codegen(format!("{kind} {i} ({}) has an element type generated code cannot expose", describe_tensor(tensor)))
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
            io_items.push(quote! {
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
            let idx = int(i as i64);
            if kind == "input" {
                let f = format_ident!("input_{}", i);
                let arr = format_ident!("array_{}_mut", elem);
                accessors.push(quote! {
                    #[doc = #doc]
                    pub fn #f(&mut self) -> &mut [#elem_ty; #n] {
                        #rt::__private::#arr(&mut self.arena.0[#tr])
                    }
                });
                in_arms.push(quote! { #idx => &mut self.arena.0[#tr], });
            } else {
                let f = format_ident!("output_{}", i);
                let arr = format_ident!("array_{}", elem);
                accessors.push(quote! {
                    #[doc = #doc]
                    pub fn #f(&self) -> &[#elem_ty; #n] {
                        #rt::__private::#arr(&self.arena.0[#tr])
                    }
                });
                out_arms.push(quote! { #idx => &self.arena.0[#tr], });
            }
        }
    }

    // Variable tensors start at their reset value, as after TFLite Micro's
    // `ResetVariableTensors`; the arena is otherwise zero.
    let mut var_fills = Vec::new();
    for t in sg.tensors.iter().filter(|t| t.is_variable && !t.is_constant()) {
        let (a, b) = arena_range(t.id)?;
        let byte = t.reset_byte();
        if a < b && byte != 0 {
            used_ranges.insert(t.id);
            let name = format_ident!("T{}", t.id.index());
            // Only int8 tensors have a non-zero reset byte: write it as the zero point.
            let zp = proc_macro2::Literal::i8_suffixed(byte as i8);
            var_fills.push(quote! { #rt::__private::fill(&mut arena, #name, #zp as u8); });
        }
    }
    let (new_doc, new_body) = if var_fills.is_empty() {
        (" A model with a zeroed arena.", quote! { Self { arena: #rt::__private::Align16([0; ARENA_BYTES]) } })
    } else {
        (
            " A model with a zeroed arena whose variable tensors hold their reset value (the zero point of an int8 tensor).",
            quote! {
                let mut arena = [0; ARENA_BYTES];
                #(#var_fills)*
                Self { arena: #rt::__private::Align16(arena) }
            },
        )
    };

    // Arena ranges of every tensor the code touches.
    let mut ranges = Vec::new();
    for &t in &used_ranges {
        let (a, b) = arena_range(t)?;
        let name = format_ident!("T{}", t.index());
        let doc = format!(" {}", describe_tensor(sg.tensor(t)));
        let (a, b) = (int(a as i64), int(b as i64));
        ranges.push(quote! {
            #[doc = #doc]
            const #name: ::core::ops::Range<usize> = #a..#b;
        });
    }

    let arena_bytes = int(layout.arena_bytes as i64);
    let n_in = int(sg.inputs.len() as i64);
    let n_out = int(sg.outputs.len() as i64);
    let weight_ranges = items.weights.values().map(|(_, item)| item);
    let consts = &items.consts;
    let blob = weights_static(&rt, &items.blob, &opts.weights);
    let tokens = quote! {
        use #rt_path as rt;

        /// Bytes of RAM the model needs besides the stack: the arena inside [`Model`].
        pub const ARENA_BYTES: usize = #arena_bytes;
        /// Number of inputs.
        pub const INPUTS: usize = #n_in;
        /// Number of outputs.
        pub const OUTPUTS: usize = #n_out;
        #(#io_items)*
        #(#ranges)*
        #blob
        #(#weight_ranges)*
        #(#consts)*

        /// The compiled model: its arena and the code that runs it. Put it in a `static` or
        /// on the stack; `run()` does no allocation and no start-up work.
        pub struct Model {
            arena: #rt::__private::Align16<[u8; ARENA_BYTES]>,
        }

        impl Model {
            #[doc = #new_doc]
            pub const fn new() -> Self {
                #new_body
            }

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

            /// Runs one inference: reads the inputs, writes the outputs.
            pub fn run(&mut self) {
                #(#body)*
            }
        }

        impl Default for Model {
            fn default() -> Self {
                Self::new()
            }
        }
    };
    let header = format!(
        "// @generated by tflc {} from {} (sha256:{}). Do not edit.",
        env!("CARGO_PKG_VERSION"),
        opts.model_name,
        opts.model_sha256
    );
    let code = format_module(&header, tokens).map_err(Error::Codegen)?;
    Ok(Generated { code, weights: items.blob })
}
