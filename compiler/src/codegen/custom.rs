//! The caller's custom-operator kernels in the generated module (`docs/CUSTOM_OPS.md`).
//!
//! A model whose entry subgraph has custom operators tflc has no kernel for
//! ([`UserCustom`]) gets:
//! - `pub trait CustomOps`, one method per distinct (custom code, element types of the
//!   inputs and outputs), named from the code in snake case (`MyOp` → `my_op`; a name taken
//!   by an earlier method, or a keyword, gets a suffix), taking `op: &'static
//!   rt::custom::CustomOpInfo`, one typed view per input (`&[f32]`) and per output
//!   (`&mut [f32]`), and `scratch: &mut [u8]` when the code was given scratch, returning
//!   `Result<(), rt::custom::CustomOpError>`;
//! - one `pub const CUSTOM_<op>: rt::custom::CustomOpInfo` per operator: index, code, options
//!   bytes, each input's and output's element type, shape and quantization;
//! - `run(&mut self, ops: &mut impl CustomOps)` and `run_with(&mut self, ops, observer)`
//!   returning `Result<_, rt::custom::CustomOpFailed>`.
//!
//! Every other model's module is unchanged. Methods are numbered in file order of their first
//! operator, so the trait is deterministic.

use crate::emit::{float, int, short_name, EmitCx};
use crate::error::Error;
use crate::ir::{Subgraph, TensorId};
use crate::lower::ops::user_custom::{view_elem, UserCustom};
use crate::lower::LoweredSubgraph;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// One method of the trait.
struct Method {
    name: Ident,
    code: String,
    /// Element type of each input's and output's view.
    ins: Vec<&'static str>,
    outs: Vec<&'static str>,
    /// Scratch bytes (all operators of one code get the same).
    scratch: usize,
    /// The operators it runs, in file order.
    ops: Vec<usize>,
}

/// The custom operators of one subgraph and the trait methods that run them.
pub struct CustomOps {
    methods: Vec<Method>,
    /// Operator index → its method.
    by_op: BTreeMap<usize, usize>,
}

/// The Rust keywords a method may not be named.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try", "typeof", "unsized", "virtual",
    "yield",
];

/// `MyOp` → `my_op`, `TFLite_Foo2D` → `tf_lite_foo2_d`, `my-op.v2` → `my_op_v2`: ASCII letters
/// and digits kept, a word break before an upper-case letter that follows a lower-case letter
/// or digit, or that starts a word after an acronym; anything else a separator. Empty, or
/// starting with a digit: `op_` first.
pub fn snake_case(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut s = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && i > 0 {
                let prev = chars[i - 1];
                let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                if prev.is_ascii_lowercase() || prev.is_ascii_digit() || (prev.is_ascii_uppercase() && next_lower) {
                    s.push('_');
                }
            }
            s.push(c.to_ascii_lowercase());
        } else {
            s.push('_');
        }
    }
    let mut out = String::new();
    for part in s.split('_').filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push('_');
        }
        out.push_str(part);
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "op_");
    }
    out
}

impl CustomOps {
    /// The custom operators of `lowered` (none: an empty set, and the module is unchanged).
    pub fn of(lowered: &LoweredSubgraph<'_, '_>) -> Self {
        let sg = lowered.sg;
        let mut methods: Vec<Method> = Vec::new();
        let mut by_op = BTreeMap::new();
        for op in lowered.ops.iter() {
            let Some(u) = op.kernel.as_ref().ok().and_then(|k| k.user_custom()) else { continue };
            let elem = |t: &TensorId| view_elem(sg.tensor(*t).dtype).unwrap_or("u8");
            let ins: Vec<&'static str> = u.inputs.iter().map(elem).collect();
            let outs: Vec<&'static str> = u.outputs.iter().map(elem).collect();
            let k = match methods.iter().position(|m| m.code == u.code && m.ins == ins && m.outs == outs) {
                Some(k) => k,
                None => {
                    let base = snake_case(&u.code);
                    let taken = |n: &str| KEYWORDS.contains(&n) || methods.iter().any(|m| m.name == n);
                    let mut name = base.clone();
                    let mut n = 2;
                    while taken(&name) {
                        name = format!("{base}_{n}");
                        n += 1;
                    }
                    methods.push(Method { name: format_ident!("{}", name), code: u.code.clone(), ins, outs, scratch: u.scratch, ops: Vec::new() });
                    methods.len() - 1
                }
            };
            methods[k].ops.push(u.op_index);
            by_op.insert(u.op_index, k);
        }
        CustomOps { methods, by_op }
    }

    /// Whether the subgraph has no custom operator of the caller's.
    pub fn is_empty(&self) -> bool {
        self.methods.is_empty()
    }

    /// The first operator of the caller's (for errors).
    pub fn first_op(&self) -> Option<usize> {
        self.by_op.keys().next().copied()
    }

    /// `pub trait CustomOps { ... }`.
    pub fn trait_item(&self, rt: &TokenStream) -> TokenStream {
        let methods = self.methods.iter().map(|m| {
            let ops: Vec<String> = m.ops.iter().map(|o| format!("op {o} ([`CUSTOM_{o}`])")).collect();
            let doc = format!(
                " `CUSTOM:{}`: runs {}. Inputs {}; outputs {}{}.",
                m.code,
                ops.join(", "),
                list(&m.ins),
                list(&m.outs),
                if m.scratch > 0 { format!("; {} bytes of scratch, live during the call only", m.scratch) } else { String::new() }
            );
            let name = &m.name;
            let ins = m.ins.iter().enumerate().map(|(i, e)| {
                let (p, e) = (format_ident!("input_{}", i), format_ident!("{}", e));
                quote! { #p: &[#e] }
            });
            let outs = m.outs.iter().enumerate().map(|(i, e)| {
                let (p, e) = (format_ident!("output_{}", i), format_ident!("{}", e));
                quote! { #p: &mut [#e] }
            });
            let scratch = (m.scratch > 0).then(|| quote! { scratch: &mut [u8] });
            let args = 2 + m.ins.len() + m.outs.len() + usize::from(m.scratch > 0);
            let allow = (args > 7).then(|| quote! { #[allow(clippy::too_many_arguments)] });
            quote! {
                #[doc = #doc]
                #allow
                fn #name(&mut self, op: &'static #rt::custom::CustomOpInfo, #(#ins,)* #(#outs,)* #scratch) -> ::core::result::Result<(), #rt::custom::CustomOpError>;
            }
        });
        quote! {
            /// The kernels of this model's custom operators, which tflc does not have: implement
            /// it and pass it to [`Model::run`]. Each method receives the operator
            /// (`op`: index, code, options, and each tensor's element type, shape and
            /// quantization), one view per input (constants read the weights in flash) and
            /// per output, which never overlap, and returns `Err` to stop the run
            /// ([`rt::custom::CustomOpFailed`]). See `docs/CUSTOM_OPS.md`.
            pub trait CustomOps {
                #(#methods)*
            }
        }
    }

    /// The call of operator `u` in `run_with` (an expression of type
    /// `Result<(), rt::custom::CustomOpError>`), its views requested from `cx`.
    pub fn call(&self, cx: &mut EmitCx<'_, '_, '_>, u: &UserCustom) -> Result<TokenStream, Error> {
        let m = self
            .by_op
            .get(&u.op_index)
            .and_then(|&k| self.methods.get(k))
            .ok_or_else(|| Error::Internal(format!("op {} (CUSTOM:{}) has no method in the custom-operator trait", u.op_index, u.code)))?;
        let sg = cx.sg;
        let mut args = Vec::new();
        for &t in &u.inputs {
            args.push(if sg.tensor(t).dtype == crate::ir::DType::Bool { cx.input_bytes(t) } else { cx.input(t) });
        }
        for &t in &u.outputs {
            args.push(if sg.tensor(t).dtype == crate::ir::DType::Bool { cx.output_bytes(t) } else { cx.output(t) });
        }
        if u.scratch > 0 {
            args.push(cx.scratch());
        }
        let (name, info) = (&m.name, format_ident!("CUSTOM_{}", u.op_index));
        Ok(quote! { ops.#name(&#info, #(#args),*) })
    }

    /// `pub const CUSTOM_<op>: rt::custom::CustomOpInfo = …;` for operator `u`.
    pub fn info_const(rt: &TokenStream, sg: &Subgraph<'_>, u: &UserCustom) -> TokenStream {
        let tensor = |t: &TensorId| {
            let x = sg.tensor(*t);
            let index = int(t.index() as i64);
            let name = short_name(&x.name);
            let dtype = x.dtype.name();
            let shape = x.shape.iter().map(|&d| int(d as i64));
            let (scale, zp, axis) = match &x.quant {
                Some(q) => (q.scale.iter().map(|&s| float(s)).collect::<Vec<_>>(), q.zero_point.iter().map(|&z| int(z)).collect::<Vec<_>>(), q.axis.unwrap_or(0)),
                None => (Vec::new(), Vec::new(), 0),
            };
            let axis = int(axis as i64);
            let constant = x.is_constant();
            quote! {
                #rt::custom::TensorInfo {
                    index: #index,
                    name: #name,
                    dtype: #dtype,
                    shape: &[#(#shape),*],
                    scale: &[#(#scale),*],
                    zero_point: &[#(#zp),*],
                    quantized_dimension: #axis,
                    constant: #constant,
                }
            }
        };
        let name = format_ident!("CUSTOM_{}", u.op_index);
        let (index, code) = (int(u.op_index as i64), &u.code);
        let ins = u.inputs.iter().map(tensor);
        let outs = u.outputs.iter().map(tensor);
        let options = Literal::byte_string(sg.ops.get(crate::ir::OpId::new(u.op_index)).and_then(|o| o.custom_options).unwrap_or_default());
        let doc = format!(" op {}: `CUSTOM:{code}`, as its kernel ([`CustomOps`]) receives it.", u.op_index);
        quote! {
            #[doc = #doc]
            pub const #name: #rt::custom::CustomOpInfo = #rt::custom::CustomOpInfo {
                index: #index,
                code: #code,
                inputs: &[#(#ins),*],
                outputs: &[#(#outs),*],
                options: #options,
            };
        }
    }
}

fn list(elems: &[&str]) -> String {
    if elems.is_empty() {
        return "none".into();
    }
    elems.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn method_names_are_snake_case() {
        for (code, want) in [
            ("MyOp", "my_op"),
            ("ScaleShift", "scale_shift"),
            ("TFLite_Foo2D", "tf_lite_foo2_d"),
            ("my-op.v2", "my_op_v2"),
            ("already_snake", "already_snake"),
            ("2x", "op_2x"),
            ("", "op_"),
            ("__", "op_"),
            ("ÜberOp", "ber_op"),
        ] {
            assert_eq!(snake_case(code), want, "{code}");
        }
    }
}
