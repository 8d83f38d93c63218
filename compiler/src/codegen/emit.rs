//! Emitting Rust: the per-op context (`EmitCx`) and the one place that formats tokens
//! (`format_module`: `syn::parse2` + `prettyplease`, the `@generated` header, and the
//! statement comments that prettyplease would drop).

use crate::ir::{DType, Subgraph, TensorId};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// Module-level items that ops add while being emitted: weight statics, tables, params.
#[derive(Default)]
pub struct Items {
    /// Weight statics by tensor, emitted once however many ops read them.
    pub weights: BTreeMap<TensorId, (Ident, TokenStream)>,
    /// Tables and params, in emission order.
    pub consts: Vec<TokenStream>,
}

/// What one operator's emission may use: its arena views, the model's constants, and
/// module-level items for its compile-time parameters.
pub struct EmitCx<'e, 'm, 'a> {
    pub(crate) rt: &'e TokenStream,
    pub(crate) sg: &'m Subgraph<'a>,
    pub(crate) op_index: usize,
    pub(crate) items: &'e mut Items,
    /// Activation inputs and outputs requested, in order: `x0, x1, …` and `y0, y1, …`.
    pub(crate) ins: Vec<TensorId>,
    pub(crate) outs: Vec<TensorId>,
    tables: usize,
}

fn view_fn(dtype: DType, mutable: bool) -> Option<Ident> {
    let base = match dtype {
        DType::I8 => "i8",
        DType::U8 => "u8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::F32 => "f32",
        _ => return None,
    };
    Some(format_ident!("as_{}{}", base, if mutable { "_mut" } else { "" }))
}

/// An aligned byte-string static: `static NAME: Align16<[u8; N]> = Align16(*b"…");`.
pub(crate) fn byte_static(rt: &TokenStream, name: &Ident, doc: &str, bytes: &[u8]) -> TokenStream {
    let n = int(bytes.len() as i64);
    let lit = Literal::byte_string(bytes);
    quote! {
        #[doc = #doc]
        static #name: #rt::__private::Align16<[u8; #n]> = #rt::__private::Align16(*#lit);
    }
}

impl<'e, 'm, 'a> EmitCx<'e, 'm, 'a> {
    pub(crate) fn new(rt: &'e TokenStream, sg: &'m Subgraph<'a>, op_index: usize, items: &'e mut Items) -> Self {
        Self { rt, sg, op_index, items, ins: Vec::new(), outs: Vec::new(), tables: 0 }
    }

    /// The runtime crate's path (`::tflc_runtime` unless configured).
    pub fn rt(&self) -> &TokenStream {
        self.rt
    }

    /// A shared typed view of tensor `t`: an arena input, or a weight static when `t` is
    /// constant.
    pub fn input(&mut self, t: TensorId) -> TokenStream {
        let rt = self.rt.clone();
        let tensor = self.sg.tensor(t);
        let dtype = tensor.dtype;
        let Some(view) = view_fn(dtype, false) else {
            // Lowering only accepts element types the runtime has views for.
            return quote! { compile_error!("tflc: no view for this element type") };
        };
        if let Some(data) = tensor.data {
            let name = format_ident!("W{}", t.index());
            if !self.items.weights.contains_key(&t) {
                let doc = format!(" {}", crate::codegen::describe_tensor(tensor));
                let item = byte_static(&rt, &name, &doc, data);
                self.items.weights.insert(t, (name.clone(), item));
            }
            return quote! { #rt::__private::#view(&#name.0) };
        }
        let i = match self.ins.iter().position(|&x| x == t) {
            Some(i) => i,
            None => {
                self.ins.push(t);
                self.ins.len() - 1
            }
        };
        let x = format_ident!("x{}", i);
        quote! { #rt::__private::#view(#x) }
    }

    /// An exclusive typed view of output tensor `t`.
    pub fn output(&mut self, t: TensorId) -> TokenStream {
        let rt = self.rt.clone();
        let dtype = self.sg.tensor(t).dtype;
        let Some(view) = view_fn(dtype, true) else {
            return quote! { compile_error!("tflc: no view for this element type") };
        };
        self.outs.push(t);
        let y = format_ident!("y{}", self.outs.len() - 1);
        quote! { #rt::__private::#view(#y) }
    }

    /// A table computed at compile time (for example a bias with folded zero points), as an
    /// aligned static; returns the expression of its `&[i32]` view.
    pub fn table_i32(&mut self, what: &str, v: &[i32]) -> TokenStream {
        let rt = self.rt.clone();
        let name = format_ident!("OP{}_{}", self.op_index, what.to_uppercase());
        self.tables += 1;
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let doc = format!(" op {}: {what} ({} x i32), computed at compile time", self.op_index, v.len());
        self.items.consts.push(byte_static(&rt, &name, &doc, &bytes));
        quote! { #rt::__private::as_i32(&#name.0) }
    }

    /// Declares the op's parameter constant `P<op>: ty = value` and returns its name.
    pub fn params(&mut self, ty: TokenStream, value: TokenStream) -> Ident {
        let name = format_ident!("P{}", self.op_index);
        let doc = format!(" op {}: parameters computed at compile time", self.op_index);
        self.items.consts.push(quote! {
            #[doc = #doc]
            const #name: #ty = #value;
        });
        name
    }
}

/// `[a, b, c]` as tokens for arrays of integers.
pub fn array<T: Copy + Into<Literalize>>(v: &[T]) -> TokenStream {
    let items = v.iter().map(|&x| x.into().0);
    quote! { [#(#items),*] }
}

/// A literal in its natural suffix-free form (`3`, `-7`), for readable params.
pub struct Literalize(pub TokenStream);

impl From<i32> for Literalize {
    fn from(v: i32) -> Self {
        Literalize(if v < 0 {
            let a = Literal::i64_unsuffixed(-(v as i64));
            quote! { -#a }
        } else {
            let a = Literal::i64_unsuffixed(v as i64);
            quote! { #a }
        })
    }
}

impl From<usize> for Literalize {
    fn from(v: usize) -> Self {
        let a = Literal::u64_unsuffixed(v as u64);
        Literalize(quote! { #a })
    }
}

/// An unsuffixed integer literal, negative numbers included.
pub fn int(v: i64) -> TokenStream {
    if v < 0 {
        let a = Literal::u64_unsuffixed(v.unsigned_abs());
        quote! { -#a }
    } else {
        let a = Literal::u64_unsuffixed(v as u64);
        quote! { #a }
    }
}

/// An `f32` literal that round-trips exactly.
pub fn float(v: f32) -> TokenStream {
    let a = Literal::f32_suffixed(v);
    quote! { #a }
}

/// The marker statement that becomes a `//` comment after formatting.
pub fn comment(text: &str) -> TokenStream {
    let s = text.replace('\n', " ");
    quote! { __tflc_comment!(#s); }
}

pub fn ident(s: &str) -> Ident {
    Ident::new(s, Span::call_site())
}

/// Formats the module: header, then the items pretty-printed, with comment markers turned
/// into `//` comments and a blank line before each.
#[cfg(feature = "format")]
pub fn format_module(header: &str, tokens: TokenStream) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    let text = prettyplease::unparse(&file);
    Ok(format!("{header}\n{}", restore_comments(&text)))
}

/// Without the `format` feature (the lean set of `include_model!`): the token stream as
/// is, comment markers defined as a macro that expands to nothing.
#[cfg(not(feature = "format"))]
pub fn format_module(header: &str, tokens: TokenStream) -> Result<String, String> {
    Ok(format!("{header}\nmacro_rules! __tflc_comment {{ ($s:literal) => {{}}; }}\n{tokens}"))
}

fn restore_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("__tflc_comment!(") {
            let indent = &line[..line.len() - trimmed.len()];
            let body = rest.trim_end_matches(';').trim_end_matches(')');
            // The body is a string literal: unescape the common escapes.
            let body = body.trim_matches('"').replace("\\\"", "\"").replace("\\\\", "\\");
            if !out.ends_with("{\n") {
                out.push('\n');
            }
            out.push_str(indent);
            out.push_str("// ");
            out.push_str(&body);
            out.push('\n');
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
