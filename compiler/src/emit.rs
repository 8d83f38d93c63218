//! Emitting Rust: the per-op context (`EmitCx`) and the one place that formats tokens
//! (`format_module`: `syn::parse2` + `prettyplease`, the `@generated` header, and the
//! statement comments that prettyplease would drop).

use crate::ir::{DType, Subgraph, Tensor, TensorId};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// Module-level items that ops add while being emitted: the weight blob, params.
pub struct Items {
    /// Every constant the code reads (model weights and compile-time tables), each at an
    /// offset that is a multiple of [`Items::align`]: one `WEIGHTS` static in flash, itself
    /// aligned to it.
    pub blob: Vec<u8>,
    /// Model constants already in the blob, by tensor: (range const name, its item).
    pub weights: BTreeMap<(crate::ir::SubgraphId, TensorId), (Ident, TokenStream)>,
    /// Table ranges and params, in emission order.
    pub consts: Vec<TokenStream>,
    /// Parameter consts already declared, by their type and value: an op whose parameters
    /// equal an earlier op's uses that const (long chains of identical ops emit one).
    params_by_value: BTreeMap<String, Ident>,
    /// Constants that only some targets read ([`EmitCx::per_target`]): one blob per `cfg`,
    /// in first-use order.
    pub scoped: Vec<Scoped>,
    /// The calls that differ between target classes ([`EmitCx::per_target`]): per class (in
    /// `lower::ops::target::classes` order), one function per such op, emitted in that
    /// class's `target` module.
    pub target: [Vec<TokenStream>; 3],
    align: usize,
}

/// The items of one `#[cfg(...)]` scope: a weight blob of its own (`WEIGHTS_<SUFFIX>`) with
/// the model constants and tables that only code under that `cfg` reads, and its params, so
/// that a build for one target keeps only its own tables in flash.
pub struct Scoped {
    /// The predicate inside `#[cfg(...)]`.
    pub cfg: TokenStream,
    /// The blob's name suffix and file-name part (`"arm"`, `"host"`).
    pub suffix: &'static str,
    /// The blob's bytes.
    pub blob: Vec<u8>,
    /// Model constants in this blob, by (subgraph, tensor): (range const name, its item).
    pub weights: BTreeMap<(crate::ir::SubgraphId, TensorId), (Ident, TokenStream)>,
    /// Table ranges and params, in emission order, each under the `cfg`.
    pub consts: Vec<TokenStream>,
    params_by_value: BTreeMap<String, Ident>,
}

impl Scoped {
    fn blob_name(&self) -> Ident {
        format_ident!("WEIGHTS_{}", self.suffix.to_uppercase())
    }

    /// The blob static, its range consts and its params, each under the scope's `cfg`.
    pub fn items(&self, rt: &TokenStream, source: &WeightsSource, align: usize) -> TokenStream {
        let cfg = &self.cfg;
        let name = self.blob_name();
        let source = match source {
            WeightsSource::Inline => WeightsSource::Inline,
            WeightsSource::File(f) => WeightsSource::File(scoped_file_name(f, self.suffix)),
        };
        let doc = format!(" The weights and compile-time tables that only the builds of this `cfg` read, {align}-byte aligned, in flash.");
        let blob = blob_static(rt, &name, &doc, &self.blob, &source, align);
        // A scope that holds only params has no blob (and no cfg for it).
        let blob = (!blob.is_empty()).then(|| quote! { #[cfg(#cfg)] #blob });
        let ranges = self.weights.values().map(|(_, item)| item).chain(&self.consts);
        quote! {
            #blob
            #(#[cfg(#cfg)] #ranges)*
        }
    }
}

/// The file of a scope's blob beside the main weights file: `m.weights.bin` becomes
/// `m.weights.host.bin`.
pub fn scoped_file_name(main: &str, suffix: &str) -> String {
    match main.strip_suffix(".bin") {
        Some(stem) => format!("{stem}.{suffix}.bin"),
        None => format!("{main}.{suffix}"),
    }
}

impl Default for Items {
    /// Items with the default alignment, 16 bytes.
    fn default() -> Self {
        Self::new(16)
    }
}

impl Items {
    /// Empty items whose blob entries start at multiples of `align` (a power of two).
    pub fn new(align: usize) -> Self {
        Self {
            blob: Vec::new(),
            weights: BTreeMap::new(),
            consts: Vec::new(),
            params_by_value: BTreeMap::new(),
            scoped: Vec::new(),
            target: Default::default(),
            align: align.max(1),
        }
    }

    /// The alignment of every blob entry and of the blob.
    pub fn align(&self) -> usize {
        self.align
    }

    /// Appends `bytes` to the blob at the next aligned offset; returns the range.
    fn push_blob(&mut self, bytes: &[u8]) -> (usize, usize) {
        push_aligned(&mut self.blob, self.align, bytes)
    }

    /// The items of every scope ([`Scoped::items`]).
    pub fn scoped_items(&self, rt: &TokenStream, source: &WeightsSource) -> TokenStream {
        let items = self.scoped.iter().map(|s| s.items(rt, source, self.align));
        quote! { #(#items)* }
    }

    /// The index of the scope of `cfg`, created on first use.
    fn scope(&mut self, cfg: &TokenStream, suffix: &'static str) -> usize {
        let key = cfg.to_string();
        if let Some(i) = self.scoped.iter().position(|s| s.cfg.to_string() == key) {
            return i;
        }
        self.scoped.push(Scoped { cfg: cfg.clone(), suffix, blob: Vec::new(), weights: BTreeMap::new(), consts: Vec::new(), params_by_value: BTreeMap::new() });
        self.scoped.len() - 1
    }

}

fn push_aligned(blob: &mut Vec<u8>, align: usize, bytes: &[u8]) -> (usize, usize) {
    let start = blob.len().next_multiple_of(align);
    blob.resize(start, 0);
    blob.extend_from_slice(bytes);
    (start, blob.len())
}

fn range_const(name: &Ident, doc: &str, (a, b): (usize, usize)) -> TokenStream {
    let (a, b) = (int(a as i64), int(b as i64));
    quote! {
        #[doc = #doc]
        const #name: ::core::ops::Range<usize> = #a..#b;
    }
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
    /// The (input, output) pairs the plan placed at one offset for this op (declared by
    /// [`Kernel::in_place`](crate::lower::ops::Kernel::in_place)).
    pub(crate) in_place: Vec<(TensorId, TensorId)>,
    /// The (input, output) pair the plan overlapped for this op (declared by
    /// [`Kernel::overlap`](crate::lower::ops::Kernel::overlap)), with the arena range holding
    /// both and their byte offsets in it.
    pub(crate) overlap: Option<Overlapped>,
    /// Whether `emit` asked for the overlap view ([`EmitCx::overlapped`]).
    pub(crate) overlap_used: bool,
    /// The op's scratch range in the arena, when its kernel declared
    /// [`Kernel::scratch_bytes`](crate::lower::ops::Kernel::scratch_bytes) and the plan placed
    /// it.
    pub(crate) scratch: Option<(usize, usize)>,
    /// Whether `emit` asked for the scratch view ([`EmitCx::scratch`]).
    pub(crate) scratch_used: bool,
    tables: usize,
    /// Set by [`EmitCx::per_target`]: the expression naming the kernel the op calls on the
    /// build's target (`target::K3`), for its `OpInfo`.
    pub(crate) kernel_name: Option<TokenStream>,
    /// The [`Items::scoped`] entry that constants, tables and params go to while
    /// [`EmitCx::per_target`] emits one of its arms.
    scope: Option<usize>,
}

/// One arm of [`EmitCx::per_target`]: the code for the targets that `cfg` selects.
pub struct TargetArm {
    /// The predicate inside `#[cfg(...)]`.
    pub cfg: TokenStream,
    /// Names the arm's weight blob (`WEIGHTS_ARM`) and range consts (`W5_ARM`).
    pub suffix: &'static str,
    /// The target classes the arm is for: its call goes into each one's `target` module.
    pub classes: Vec<tflc_runtime::isa::TargetClass>,
}

/// An overlapped (input, output) pair of one op: the arena range `span` holding both, and
/// the byte offsets of the input and the output inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Overlapped {
    pub x: TensorId,
    pub y: TensorId,
    pub span: (usize, usize),
    pub input_at: usize,
    pub output_at: usize,
}

/// The arena views of an elementwise (input, output) pair, from [`EmitCx::in_out`].
pub enum InOut {
    /// The plan put the output over the input: one exclusive view of the shared bytes, for
    /// the kernel's `_in_place` call. The input is not requested at all (the generated
    /// `io` call gets the range once, as an output).
    InPlace(TokenStream),
    /// Separate bytes: a shared view of the input and an exclusive one of the output.
    Apart(TokenStream, TokenStream),
}

fn view_fn(dtype: DType, mutable: bool) -> Option<Ident> {
    let base = dtype.arena_elem()?;
    Some(format_ident!("as_{}{}", base, if mutable { "_mut" } else { "" }))
}

/// Every element type the dtype table ([`DType::info`]) marks `arena_view` has its four
/// runtime views: a type added to the table without them, or views removed from the
/// runtime, does not compile. `arena_views_are_checked` keeps this list equal to the table.
const VIEWS_EXIST: [(DType, usize); 8] = {
    use tflc_runtime::__private as p;
    macro_rules! views {
        ($($d:ident: $t:ty => $a:ident, $b:ident, $c:ident, $e:ident;)*) => {
            [$({
                let _: (fn(&[u8]) -> &[$t], fn(&mut [u8]) -> &mut [$t], fn(&[u8]) -> &[$t; 1], fn(&mut [u8]) -> &mut [$t; 1]) =
                    (p::$a, p::$b, p::$c::<1>, p::$e::<1>);
                (DType::$d, core::mem::size_of::<$t>())
            }),*]
        };
    }
    views! {
        I8: i8 => as_i8, as_i8_mut, array_i8, array_i8_mut;
        U8: u8 => as_u8, as_u8_mut, array_u8, array_u8_mut;
        I16: i16 => as_i16, as_i16_mut, array_i16, array_i16_mut;
        I32: i32 => as_i32, as_i32_mut, array_i32, array_i32_mut;
        I64: i64 => as_i64, as_i64_mut, array_i64, array_i64_mut;
        U32: u32 => as_u32, as_u32_mut, array_u32, array_u32_mut;
        U64: u64 => as_u64, as_u64_mut, array_u64, array_u64_mut;
        F32: f32 => as_f32, as_f32_mut, array_f32, array_f32_mut;
    }
};
// Evaluated in every build, not only in tests.
const _: [(DType, usize); 8] = VIEWS_EXIST;

/// Where the weight blob's bytes come from in the generated code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsSource {
    /// A byte-string literal inside the module.
    Inline,
    /// `include_bytes!(path)` of a file written beside the module.
    File(String),
}

/// The runtime's wrapper type that aligns a value to `align` bytes (`Align16`, `Align64`, …;
/// `__private` has one for every power of two from 16 to [`MAX_ALIGN`]).
pub fn align_wrapper(rt: &TokenStream, align: usize) -> TokenStream {
    let name = format_ident!("Align{}", align);
    quote! { #rt::__private::#name }
}

/// The largest alignment the runtime has a wrapper for (`tflc_runtime::__private::Align4096`).
pub const MAX_ALIGN: usize = 4096;

/// The weight blob static: `static WEIGHTS: Align16<[u8; N]> = Align16(*b"…");`, aligned to
/// `align`.
pub(crate) fn weights_static(rt: &TokenStream, bytes: &[u8], source: &WeightsSource, align: usize) -> TokenStream {
    let doc = format!(" Every weight and compile-time table, {align}-byte aligned, in flash.");
    blob_static(rt, &format_ident!("WEIGHTS"), &doc, bytes, source, align)
}

fn blob_static(rt: &TokenStream, name: &Ident, doc: &str, bytes: &[u8], source: &WeightsSource, align: usize) -> TokenStream {
    if bytes.is_empty() {
        // A model without constants has no blob (an empty static would be dead code).
        return TokenStream::new();
    }
    let n = int(bytes.len() as i64);
    let init = match source {
        WeightsSource::Inline => {
            let lit = Literal::byte_string(bytes);
            quote! { *#lit }
        }
        WeightsSource::File(path) => quote! { *include_bytes!(#path) },
    };
    let wrapper = align_wrapper(rt, align);
    quote! {
        #[doc = #doc]
        static #name: #wrapper<[u8; #n]> = #wrapper(#init);
    }
}

impl<'e, 'm, 'a> EmitCx<'e, 'm, 'a> {
    pub(crate) fn new(rt: &'e TokenStream, sg: &'m Subgraph<'a>, op_index: usize, items: &'e mut Items) -> Self {
        Self { rt, sg, op_index, items, ins: Vec::new(), outs: Vec::new(), in_place: Vec::new(), overlap: None, overlap_used: false, scratch: None, scratch_used: false, tables: 0, kernel_name: None, scope: None }
    }

    /// One statement per arm, each under its `#[cfg(...)]` (the arms' predicates must be
    /// mutually exclusive and cover every target): `arm(self, i)` emits arm `i`'s call.
    /// The model constants, tables and params an arm requests go to its scope's blob and
    /// consts ([`Items::scoped`]), unless a constant is already in the main blob; so a
    /// build keeps one call and one set of tables. Every arm sees the same activation
    /// views (`x0`, `y0`, ...): request them in the same order in each arm. One arm is the
    /// plain call, with no `cfg`.
    pub fn per_target(&mut self, arms: &[TargetArm], mut arm: impl FnMut(&mut Self, usize) -> TokenStream) -> TokenStream {
        if arms.len() == 1 {
            return arm(self, 0);
        }
        let outs = self.outs.len();
        let mut calls = Vec::new();
        let mut first_outs = None;
        for (i, a) in arms.iter().enumerate() {
            self.outs.truncate(outs);
            self.scope = Some(self.items.scope(&a.cfg, a.suffix));
            let call = arm(self, i);
            self.scope = None;
            debug_assert!(first_outs.get_or_insert_with(|| self.outs.clone()) == &self.outs, "arms request the same outputs");
            calls.push(call);
        }
        // One function per op in each class's `target` module, taking the op's views as
        // `emit_subgraph` binds them (`x0…`, `y0…`, then `v0` when overlapped, `s0` for
        // scratch); `run()` makes the one call `target::op<N>(…)`.
        let name = format_ident!("{}op{}", self.prefix().to_lowercase(), self.op_index);
        let kname = format_ident!("{}K{}", self.prefix(), self.op_index);
        let mut params = Vec::new();
        let mut args = Vec::new();
        for i in 0..self.ins.len() {
            let x = format_ident!("x{}", i);
            params.push(quote! { #x: &[u8] });
            args.push(x);
        }
        let mut ys: Vec<Ident> = (0..self.outs.len()).map(|i| format_ident!("y{}", i)).collect();
        if self.overlap.is_some() && self.overlap_used {
            ys.push(format_ident!("v0"));
        }
        if self.scratch_used {
            ys.push(format_ident!("s0"));
        }
        for y in ys {
            params.push(quote! { #y: &mut [u8] });
            args.push(y);
        }
        let doc = format!(" Op {}'s kernel call on this target.", self.op_index);
        let kdoc = format!(" The kernel op {} calls on this target.", self.op_index);
        for (a, call) in arms.iter().zip(&calls) {
            let kernel = kernel_label(call);
            for (k, (class, ..)) in target_classes().iter().enumerate() {
                if a.classes.contains(class) {
                    self.items.target[k].push(quote! {
                        #[doc = #kdoc]
                        pub(super) const #kname: &str = #kernel;
                        #[doc = #doc]
                        pub(super) fn #name(#(#params),*) {
                            #call
                        }
                    });
                }
            }
        }
        self.kernel_name = Some(quote! { target::#kname });
        quote! { target::#name(#(#args),*); }
    }

    /// The blob expression and range const for `bytes` in the current scope (or the main
    /// blob), pushing a const item made by `item` from (name, range).
    fn blob_entry(&mut self, name: Ident, doc: &str, bytes: &[u8], tensor: Option<(crate::ir::SubgraphId, TensorId)>) -> (Ident, Ident) {
        let align = self.items.align;
        match self.scope {
            None => {
                let range = self.items.push_blob(bytes);
                let item = range_const(&name, doc, range);
                match tensor {
                    Some(t) => {
                        self.items.weights.insert(t, (name.clone(), item));
                    }
                    None => self.items.consts.push(item),
                }
                (format_ident!("WEIGHTS"), name)
            }
            Some(i) => {
                let sc = &mut self.items.scoped[i];
                let range = push_aligned(&mut sc.blob, align, bytes);
                let item = range_const(&name, doc, range);
                match tensor {
                    Some(t) => {
                        sc.weights.insert(t, (name.clone(), item));
                    }
                    None => sc.consts.push(item),
                }
                (sc.blob_name(), name)
            }
        }
    }

    /// An exclusive byte view of the op's scratch workspace (the planner placed
    /// [`Kernel::scratch_bytes`](crate::lower::ops::Kernel::scratch_bytes) bytes for it, live at
    /// this op only). A kernel that declared no scratch gets a `compile_error!`, which the
    /// generated module does not build with (codegen reports it first).
    pub fn scratch(&mut self) -> TokenStream {
        let rt = self.rt.clone();
        self.scratch_used = true;
        if self.scratch.is_none() {
            return quote! { compile_error!("tflc: scratch requested by a kernel that declared none") };
        }
        quote! { #rt::__private::as_u8_mut(s0) }
    }

    /// Whether the plan put output `y` over input `x` (a pair the kernel declared in place,
    /// both at one offset). Then the kernel must emit its `_in_place` call on `output(y)`
    /// and must not request `input(x)`.
    pub fn is_in_place(&self, x: TensorId, y: TensorId) -> bool {
        self.in_place.contains(&(x, y))
    }

    /// When the plan wrote output `y` over the consumed part of input `x` (a pair the kernel
    /// declared in [`Kernel::overlap`](crate::lower::ops::Kernel::overlap)): one exclusive
    /// typed view of the arena span holding both (`v0`, given to `__private::io` as the op's
    /// only arena output) and the element offsets of `x` and `y` in it, for the runtime's row
    /// driver (`kernels::overlap`). The kernel must then request neither `input(x)` nor
    /// `output(y)`. `None` when the two are apart.
    pub fn overlapped(&mut self, x: TensorId, y: TensorId) -> Option<(TokenStream, TokenStream, TokenStream)> {
        let o = self.overlap.filter(|o| o.x == x && o.y == y)?;
        let dtype = self.sg.tensor(y).dtype;
        let view = view_fn(dtype, true)?;
        let elem = dtype.size().filter(|&s| s > 0)?;
        self.overlap_used = true;
        let rt = self.rt.clone();
        let (i, o) = (int((o.input_at / elem) as i64), int((o.output_at / elem) as i64));
        Some((quote! { #rt::__private::#view(v0) }, i, o))
    }

    /// The call of a window kernel (CONV_2D, DEPTHWISE_CONV_2D, pools) reading input `x` and
    /// writing output `y` with params const `params` (a runtime struct at `ty` below `rt`
    /// with a `geometry` field): `body(cx, params, input, output)` gives the call from the
    /// params, input and output expressions. Apart, that call on the tensors' own views;
    /// overlapped ([`EmitCx::overlapped`]), the runtime's row driver `driver`
    /// (`kernels::overlap::conv_rows` / `pool_rows`) over one view of both, calling it per
    /// output row with the row's geometry.
    pub fn window_call(
        &mut self,
        driver: &str,
        params: &Ident,
        ty: TokenStream,
        x: TensorId,
        y: TensorId,
        body: impl FnOnce(&mut Self, TokenStream, TokenStream, TokenStream) -> TokenStream,
    ) -> TokenStream {
        self.window_call_ranged(driver, None, params, ty, x, y, |cx, p, input, output, _| body(cx, p, input, output))
    }

    /// [`EmitCx::window_call`] for kernels of which some take a row range
    /// (`kernels::window::RowRange`) with the operator's own params instead of a geometry
    /// per call, so that the compiler specialises them on the constant geometry:
    /// `body(cx, params, input, output, rows)` gets `rows = Some(r)` (the range expression)
    /// when overlapped and `ranged` names the driver giving ranges (e.g.
    /// `depthwise_row_ranges`), and must then call the range entry with `params`; `None`
    /// otherwise (apart, or overlapped through `driver` with a geometry per call).
    #[allow(clippy::too_many_arguments)]
    pub fn window_call_ranged(
        &mut self,
        driver: &str,
        ranged: Option<&str>,
        params: &Ident,
        ty: TokenStream,
        x: TensorId,
        y: TensorId,
        body: impl FnOnce(&mut Self, TokenStream, TokenStream, TokenStream, Option<TokenStream>) -> TokenStream,
    ) -> TokenStream {
        let rt = self.rt.clone();
        if let Some(ranged) = ranged {
            if let Some((span, input_at, output_at)) = self.overlapped(x, y) {
                let call = body(self, quote! { &#params }, quote! { x }, quote! { y }, Some(quote! { rows }));
                let driver = format_ident!("{}", ranged);
                return quote! {
                    #rt::kernels::overlap::#driver(&#params.geometry, #span, #input_at, #output_at, |rows, x, y| {
                        #call
                    });
                };
            }
        }
        match self.overlapped(x, y) {
            Some((span, input_at, output_at)) => {
                let call = body(self, quote! { &q }, quote! { x }, quote! { y }, None);
                let driver = format_ident!("{}", driver);
                quote! {
                    #rt::kernels::overlap::#driver(&#params.geometry, #span, #input_at, #output_at, |g, x, y| {
                        let q = #rt::#ty { geometry: *g, ..#params };
                        #call
                    });
                }
            }
            None => {
                let input = self.input(x);
                let output = self.output(y);
                body(self, quote! { &#params }, input, output, None)
            }
        }
    }

    /// The views of input `x` and output `y` of an elementwise kernel: one shared view
    /// when the plan placed them in place, two otherwise.
    pub fn in_out(&mut self, x: TensorId, y: TensorId) -> InOut {
        if self.is_in_place(x, y) {
            InOut::InPlace(self.output(y))
        } else {
            let a = self.input(x);
            InOut::Apart(a, self.output(y))
        }
    }

    /// The runtime crate's path (`::tflc_runtime` unless configured).
    pub fn rt(&self) -> &TokenStream {
        self.rt
    }

    /// A shared typed view of tensor `t`: an arena input, or a weight static when `t` is
    /// constant.
    pub fn input(&mut self, t: TensorId) -> TokenStream {
        let rt = self.rt.clone();
        let Some(view) = view_fn(self.sg.tensor(t).dtype, false) else {
            // Lowering only accepts element types the runtime has views for.
            return quote! { compile_error!("tflc: no view for this element type") };
        };
        let bytes = self.input_bytes(t);
        quote! { #rt::__private::#view(#bytes) }
    }

    /// A shared byte view (`&[u8]`) of tensor `t`, for element types without a typed view:
    /// a bool tensor holds one byte per element, 0 or 1, as TFLite stores it. An arena
    /// input, or a weight static when `t` is constant.
    pub fn input_bytes(&mut self, t: TensorId) -> TokenStream {
        let tensor = self.sg.tensor(t);
        if let Some(data) = tensor.data {
            // In the main blob when an unconditional op put it there, else in the scope's.
            let key = (self.sg.id, t);
            let existing = match self.scope {
                Some(i) if !self.items.weights.contains_key(&key) => {
                    let sc = &self.items.scoped[i];
                    sc.weights.get(&key).map(|(name, _)| (sc.blob_name(), name.clone()))
                }
                _ => self.items.weights.get(&key).map(|(name, _)| (format_ident!("WEIGHTS"), name.clone())),
            };
            let (blob, name) = match existing {
                Some(e) => e,
                None => {
                    let name = match self.scope {
                        Some(i) => format_ident!("{}W{}_{}", self.prefix(), t.index(), self.items.scoped[i].suffix.to_uppercase()),
                        None => format_ident!("{}W{}", self.prefix(), t.index()),
                    };
                    let doc = format!(" {}", describe_tensor(tensor));
                    self.blob_entry(name, &doc, data, Some(key))
                }
            };
            return quote! { &#blob.0[#name] };
        }
        let i = match self.ins.iter().position(|&x| x == t) {
            Some(i) => i,
            None => {
                self.ins.push(t);
                self.ins.len() - 1
            }
        };
        let x = format_ident!("x{}", i);
        quote! { #x }
    }

    /// `Some(view)` of an optional input (a bias), or `None`.
    pub fn optional_input(&mut self, t: Option<TensorId>) -> TokenStream {
        match t {
            Some(t) => {
                let v = self.input(t);
                quote! { Some(#v) }
            }
            None => quote! { None },
        }
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

    /// The prefix of module-level names of this subgraph's items: none for the entry
    /// subgraph, `SG<k>_` for subgraph `k` (each subgraph numbers its tensors and ops from 0).
    fn prefix(&self) -> String {
        match self.sg.id.index() {
            0 => String::new(),
            k => format!("SG{k}_"),
        }
    }

    /// An exclusive byte view of output tensor `t` (`&mut [u8]`), for element types without
    /// a typed view: a bool tensor holds one byte per element, 0 or 1, as TFLite stores it.
    pub fn output_bytes(&mut self, t: TensorId) -> TokenStream {
        self.outs.push(t);
        let y = format_ident!("y{}", self.outs.len() - 1);
        quote! { #y }
    }

    /// A table computed at compile time (for example a bias with folded zero points), placed
    /// in the weight blob; returns the expression of its `&[i32]` view.
    pub fn table_i32(&mut self, what: &str, v: &[i32]) -> TokenStream {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.table(what, "i32", v.len(), &bytes, format_ident!("as_i32"))
    }

    /// A float32 table computed at compile time (a packed float filter), in the weight blob.
    pub fn table_f32(&mut self, what: &str, v: &[f32]) -> TokenStream {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.table(what, "f32", v.len(), &bytes, format_ident!("as_f32"))
    }

    /// An int8 table computed at compile time (a lookup table), in the weight blob.
    pub fn table_i8(&mut self, what: &str, v: &[i8]) -> TokenStream {
        let bytes: Vec<u8> = v.iter().map(|&x| x as u8).collect();
        self.table(what, "i8", v.len(), &bytes, format_ident!("as_i8"))
    }

    /// A byte table computed at compile time (packed indices), in the weight blob.
    pub fn table_u8(&mut self, what: &str, v: &[u8]) -> TokenStream {
        self.table(what, "u8", v.len(), v, format_ident!("as_u8"))
    }

    /// An int16 table computed at compile time, in the weight blob.
    pub fn table_i16(&mut self, what: &str, v: &[i16]) -> TokenStream {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.table(what, "i16", v.len(), &bytes, format_ident!("as_i16"))
    }

    /// A table of 16-bit words computed at compile time (float16 weights as binary16 bits),
    /// in the weight blob.
    pub fn table_u16(&mut self, what: &str, v: &[u16]) -> TokenStream {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.table(what, "u16", v.len(), &bytes, format_ident!("as_u16"))
    }

    /// An int64 table computed at compile time (a widened bias), in the weight blob.
    pub fn table_i64(&mut self, what: &str, v: &[i64]) -> TokenStream {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.table(what, "i64", v.len(), &bytes, format_ident!("as_i64"))
    }

    fn table(&mut self, what: &str, ty: &str, n: usize, bytes: &[u8], view: Ident) -> TokenStream {
        let rt = self.rt.clone();
        let name = format_ident!("{}OP{}_{}", self.prefix(), self.op_index, what.to_uppercase());
        self.tables += 1;
        let doc = format!(" op {}: {what} ({n} x {ty}), computed at compile time", self.op_index);
        let (blob, name) = self.blob_entry(name, &doc, bytes, None);
        quote! { #rt::__private::#view(&#blob.0[#name]) }
    }

    /// Declares the op's parameter constant `P<op>` holding `value`, of type `ty` (the
    /// runtime struct's path below `rt`, for example `quote!(kernels::conv_2d::Conv2dParams)`;
    /// a borrowing struct gets `<'static>` from the caller), and returns its name.
    pub fn params_lit(&mut self, ty: TokenStream, value: &impl Lit) -> Ident {
        let rt = self.rt.clone();
        let v = value.lit(&rt);
        self.params(quote! { #rt::#ty }, v)
    }

    /// Declares the op's parameter constant `P<op>: ty = value` and returns its name, or
    /// returns the name of an earlier op's const of the same type and value.
    pub fn params(&mut self, ty: TokenStream, value: TokenStream) -> Ident {
        let key = format!("{ty}={value}");
        if let Some(name) = self.items.params_by_value.get(&key) {
            return name.clone();
        }
        let name = format_ident!("{}P{}", self.prefix(), self.op_index);
        let doc = format!(" op {}: parameters computed at compile time", self.op_index);
        let item = quote! {
            #[doc = #doc]
            const #name: #ty = #value;
        };
        match self.scope {
            None => {
                self.items.params_by_value.insert(key, name.clone());
                self.items.consts.push(item);
            }
            Some(i) => {
                // Only code under this scope's cfg sees it (arms of one op are exclusive,
                // so their `P<op>` do not collide).
                let sc = &mut self.items.scoped[i];
                if let Some(name) = sc.params_by_value.get(&key) {
                    return name.clone();
                }
                sc.params_by_value.insert(key, name.clone());
                sc.consts.push(item);
            }
        }
        name
    }
}

/// `t7 "conv1/Relu" i8[1,16,16,8] scale=0.0235 zp=-128`, for comments.
pub fn describe_tensor(t: &Tensor<'_>) -> String {
    let name = short_name(&t.name);
    let ty = t.dtype.rust_name().unwrap_or("?");
    let dims: Vec<String> = t.shape.iter().map(|d| d.to_string()).collect();
    let mut s = format!("{} \"{name}\" {ty}[{}]", t.id, dims.join(","));
    if let Some((sc, zp)) = t.quant.as_ref().and_then(|q| q.per_tensor()) {
        s.push_str(&format!(" scale={sc} zp={zp}"));
    } else if let Some(q) = &t.quant {
        s.push_str(&format!(" per-axis({} scales)", q.scale.len()));
    }
    s
}

/// Converter names are often `a/b/c;a/b/d;…`: keep the first, at most 60 characters.
pub fn short_name(name: &str) -> String {
    let first = name.split(';').next().unwrap_or("");
    let mut s: String = first.chars().filter(|c| !c.is_control()).take(60).collect();
    if first.chars().count() > 60 {
        s.push('…');
    }
    s
}

/// A value that generated code spells as a Rust expression: the runtime's parameter
/// structs and everything inside them. `rt` is the runtime crate's path in the generated
/// module.
///
/// Parameter structs implement it through `runtime_struct_lit!`, which destructures every
/// field: a field added to a runtime struct is a compile error here until it is emitted,
/// never a silent omission. A lowered op holds the runtime struct it will emit and calls
/// [`EmitCx::params_lit`]; nothing spells a parameter a second time.
pub trait Lit {
    /// The value as a Rust expression, with runtime paths under `rt` (`::tflc_runtime`).
    fn lit(&self, rt: &TokenStream) -> TokenStream;
}

macro_rules! int_lit {
    ($($t:ty),*) => {$(
        impl Lit for $t {
            fn lit(&self, _: &TokenStream) -> TokenStream {
                int(*self as i64)
            }
        }
    )*};
}
int_lit!(i8, i16, i64, u8, u16, u32, usize, isize);

/// `i32::MIN` by name (the unbounded int32 clamp), other values as [`int`].
impl Lit for i32 {
    fn lit(&self, _: &TokenStream) -> TokenStream {
        if *self == i32::MIN {
            quote! { i32::MIN }
        } else {
            int(i64::from(*self))
        }
    }
}

impl Lit for u64 {
    fn lit(&self, _: &TokenStream) -> TokenStream {
        let a = Literal::u64_unsuffixed(*self);
        quote! { #a }
    }
}

impl Lit for bool {
    fn lit(&self, _: &TokenStream) -> TokenStream {
        if *self {
            quote! { true }
        } else {
            quote! { false }
        }
    }
}

/// `f32::MAX` / `f32::MIN` by name (the unbounded float32 clamp), a negative value (`-0.0`
/// included, so that the sign survives) as a negated literal, the rest as [`float`].
impl Lit for f32 {
    fn lit(&self, _: &TokenStream) -> TokenStream {
        let v = *self;
        if v == f32::MAX {
            quote! { f32::MAX }
        } else if v == f32::MIN {
            quote! { f32::MIN }
        } else if v.is_sign_negative() && v.is_finite() {
            let a = float(-v);
            quote! { -#a }
        } else {
            float(v)
        }
    }
}

/// The unit quantization of float32 kernels (`Quant = ()`).
impl Lit for () {
    fn lit(&self, _: &TokenStream) -> TokenStream {
        quote! { () }
    }
}

impl<T: Lit, const N: usize> Lit for [T; N] {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let items = self.iter().map(|x| x.lit(rt));
        quote! { [#(#items),*] }
    }
}

/// A borrowed slice becomes a reference to an array literal (`&[1, 2]`), which is
/// `'static` in a `const`.
impl<T: Lit> Lit for &[T] {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        let items = self.iter().map(|x| x.lit(rt));
        quote! { &[#(#items),*] }
    }
}

impl<T: Lit> Lit for Option<T> {
    fn lit(&self, rt: &TokenStream) -> TokenStream {
        match self {
            Some(v) => {
                let v = v.lit(rt);
                quote! { Some(#v) }
            }
            None => quote! { None },
        }
    }
}

/// Implements [`Lit`] for a struct of the runtime crate by destructuring all its fields
/// (no `..`, so a new field does not compile until it is listed):
///
/// ```text
/// runtime_struct_lit!(kernels::conv_2d::Conv2dParams { input_shape, stride, … });
/// runtime_struct_lit!(kernels::quantize::QuantizeParams<'a> { multiplier, … });
/// runtime_struct_lit!(kernels::pad::PadParams<'a, T> { …, pad_value }); // T: Lit
/// ```
///
/// The generated expression names the struct through the configured runtime path
/// (`rt::kernels::conv_2d::Conv2dParams { input_shape: [1, 8, 8, 3], … }`).
#[macro_export]
#[doc(hidden)]
macro_rules! runtime_struct_lit {
    ($($seg:ident)::+ $(<$lt:lifetime $(, $tp:ident)*>)? { $($field:ident),* $(,)? }) => {
        impl$(<$lt $(, $tp: $crate::emit::Lit)*>)? $crate::emit::Lit for ::tflc_runtime::$($seg)::+ $(<$lt $(, $tp)*>)? {
            fn lit(&self, rt: &::proc_macro2::TokenStream) -> ::proc_macro2::TokenStream {
                let ::tflc_runtime::$($seg)::+ { $($field),* } = self;
                $(let $field = $crate::emit::Lit::lit($field, rt);)*
                ::quote::quote! { #rt::$($seg)::+ { $($field: #$field),* } }
            }
        }
    };
}

/// Implements [`Lit`] for a field-less enum of the runtime crate; every variant is listed
/// (a match without a wildcard), so a new variant does not compile until it is.
#[macro_export]
#[doc(hidden)]
macro_rules! runtime_enum_lit {
    ($($seg:ident)::+ { $($variant:ident),* $(,)? }) => {
        impl $crate::emit::Lit for ::tflc_runtime::$($seg)::+ {
            fn lit(&self, rt: &::proc_macro2::TokenStream) -> ::proc_macro2::TokenStream {
                match self {
                    $(::tflc_runtime::$($seg)::+::$variant => ::quote::quote! { #rt::$($seg)::+::$variant },)*
                }
            }
        }
    };
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

/// An `f32` literal that round-trips exactly (`f32::NAN` and the infinities by name).
pub fn float(v: f32) -> TokenStream {
    if v.is_nan() {
        quote! { f32::NAN }
    } else if v.is_infinite() {
        if v > 0.0 {
            quote! { f32::INFINITY }
        } else {
            quote! { f32::NEG_INFINITY }
        }
    } else {
        let a = Literal::f32_suffixed(v);
        quote! { #a }
    }
}

/// The marker statement that becomes a `//` comment after formatting.
pub fn comment(text: &str) -> TokenStream {
    let s = text.replace('\n', " ");
    quote! { __tflc_comment!(#s); }
}

/// An identifier with the call-site span.
pub fn ident(s: &str) -> Ident {
    Ident::new(s, Span::call_site())
}

/// A module to format: its items in order, and the statement lists ([`Stmts`]) of the
/// function bodies that hold one statement per operator, spliced in where
/// [`Module::stmts`]'s marker stands.
///
/// [`format_module`] formats each run of items on its own, and [`Stmts`] each statement as
/// it is emitted, so that no step holds the whole module as one token tree or one `syn`
/// tree: a 20,000-operator model costs per operator what a small one does. The text is the
/// same as formatting the whole module at once: prettyplease ends every item and every
/// statement with a hard break, so each one's layout depends only on its indentation.
#[derive(Default)]
pub struct Module {
    items: Vec<TokenStream>,
    bodies: Vec<Option<Stmts>>,
}

/// The marker statement of statement list `k` ([`Module::stmts`]).
#[cfg(feature = "format")]
const STMTS_MARKER: &str = "__tflc_stmts!(";

/// Items formatted together: few enough that a run's tokens and `syn` tree stay small.
#[cfg(feature = "format")]
const ITEMS_PER_RUN: usize = 64;

impl Module {
    /// Appends one or more whole items.
    pub fn item(&mut self, tokens: TokenStream) {
        self.items.push(tokens);
    }

    /// Registers `stmts` and returns the marker statement that stands for them: put it,
    /// alone, as the body of a block as deep as [`Stmts::new`] was told. An empty list gives
    /// no marker (the block formats as `{}`, as without one).
    pub fn stmts(&mut self, stmts: Stmts) -> TokenStream {
        if stmts.is_empty() {
            return TokenStream::new();
        }
        let k = Literal::usize_unsuffixed(self.bodies.len());
        self.bodies.push(Some(stmts));
        quote! { __tflc_stmts!(#k); }
    }

    /// The module as one token stream, every marker replaced by its statements.
    #[cfg(not(feature = "format"))]
    fn into_tokens(mut self) -> TokenStream {
        let mut out = TokenStream::new();
        for item in std::mem::take(&mut self.items) {
            out.extend(splice(item, &mut self.bodies));
        }
        out
    }
}

/// Statements of one block, `depth` blocks deep in the module (2 in `Model::run_with`):
/// formatted as they are pushed (with the `format` feature), so that only the text of each
/// stays.
pub struct Stmts {
    #[cfg_attr(not(feature = "format"), allow(dead_code))]
    depth: usize,
    len: usize,
    #[cfg(feature = "format")]
    text: String,
    #[cfg(not(feature = "format"))]
    tokens: Vec<TokenStream>,
}

impl Stmts {
    /// No statements yet, for a block `depth` (≥ 1) blocks deep.
    pub fn new(depth: usize) -> Self {
        Stmts {
            depth,
            len: 0,
            #[cfg(feature = "format")]
            text: String::new(),
            #[cfg(not(feature = "format"))]
            tokens: Vec::new(),
        }
    }

    /// Whether no statement was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends one or more whole statements: printed inside as many nested `fn`s as the
    /// block is deep, the lines between the braces kept.
    #[cfg(feature = "format")]
    pub fn push(&mut self, stmt: TokenStream) -> Result<(), String> {
        let mut run = stmt;
        for _ in 0..self.depth {
            run = quote! { fn __tflc_block() { #run } };
        }
        let formatted = unparse(run)?;
        let lines: Vec<&str> = formatted.lines().collect();
        let Some(inner) = lines.get(self.depth..lines.len().saturating_sub(self.depth)) else {
            return Err(format!("statements formatted as {formatted:?}"));
        };
        for line in inner {
            self.text.push_str(line);
            self.text.push('\n');
        }
        self.len += 1;
        Ok(())
    }

    /// Appends one or more whole statements.
    #[cfg(not(feature = "format"))]
    pub fn push(&mut self, stmt: TokenStream) -> Result<(), String> {
        self.tokens.push(stmt);
        self.len += 1;
        Ok(())
    }
}

/// `tokens` with every `__tflc_stmts!(k);` replaced by the statements of list `k`.
#[cfg(not(feature = "format"))]
fn splice(tokens: TokenStream, bodies: &mut [Option<Stmts>]) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < trees.len() {
        if let [TokenTree::Ident(name), TokenTree::Punct(bang), TokenTree::Group(arg), TokenTree::Punct(semi), ..] = &trees[i..] {
            if name == "__tflc_stmts" && bang.as_char() == '!' && semi.as_char() == ';' {
                let k: Option<usize> = arg.stream().to_string().parse().ok();
                if let Some(stmts) = k.and_then(|k| bodies.get_mut(k)).and_then(Option::take) {
                    out.extend(stmts.tokens);
                    i += 4;
                    continue;
                }
            }
        }
        match &trees[i] {
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), splice(g.stream(), bodies));
                inner.set_span(g.span());
                out.extend([TokenTree::Group(inner)]);
            }
            t => out.extend([t.clone()]),
        }
        i += 1;
    }
    out
}

/// Formats the module: header, then the items pretty-printed, with comment markers turned
/// into `//` comments and a blank line before each.
#[cfg(feature = "format")]
pub fn format_module(header: &str, module: Module) -> Result<String, String> {
    let Module { items, mut bodies } = module;
    let mut text = String::new();
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        let formatted = unparse(items.by_ref().take(ITEMS_PER_RUN).collect())?;
        for line in formatted.lines() {
            let trimmed = line.trim_start();
            match trimmed.strip_prefix(STMTS_MARKER) {
                Some(rest) => {
                    let k: usize = rest.trim_end_matches(");").parse().map_err(|_| format!("bad statement marker {trimmed}"))?;
                    let stmts = bodies.get_mut(k).and_then(Option::take).ok_or_else(|| format!("statement list {k} is not registered or used twice"))?;
                    let depth = (line.len() - trimmed.len()) / 4;
                    if depth != stmts.depth {
                        return Err(format!("statement list {k} was formatted {} blocks deep but stands {depth} deep", stmts.depth));
                    }
                    text.push_str(&stmts.text);
                }
                None => {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
    }
    Ok(format!("{header}\n{}", restore_comments(&text)))
}

/// Pretty-prints one or more whole items.
#[cfg(feature = "format")]
fn unparse(tokens: TokenStream) -> Result<String, String> {
    #[cfg(test)]
    tests::note_parse(&tokens);
    let file: syn::File = syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    Ok(prettyplease::unparse(&file))
}

/// Without the `format` feature (the lean set of `include_model!`): the token stream as
/// is, comment markers defined as a macro that expands to nothing.
#[cfg(not(feature = "format"))]
pub fn format_module(header: &str, module: Module) -> Result<String, String> {
    Ok(format!("{header}\nmacro_rules! __tflc_comment {{ ($s:literal) => {{}}; }}\n{}", module.into_tokens()))
}

#[cfg(feature = "format")]
fn restore_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("__tflc_comment!(") {
            let indent = &line[..line.len() - trimmed.len()];
            // prettyplease breaks a long marker over lines: `__tflc_comment!(`, the
            // literal, `);`. Join them back.
            let mut joined = rest.to_owned();
            while !joined.trim_end().ends_with(");") {
                match lines.next() {
                    Some(l) => joined.push_str(l.trim()),
                    None => break,
                }
            }
            let body = joined.trim().trim_end_matches(';').trim_end_matches(')').trim();
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

#[cfg(test)]
mod tests {
    use super::{comment, format_module, restore_comments, Module, Stmts};
    use proc_macro2::{TokenStream, TokenTree};
    use quote::quote;
    use std::cell::Cell;

    thread_local! {
        /// Tokens handed to `syn` by this thread: (calls, total, largest).
        static PARSED: Cell<(usize, usize, usize)> = const { Cell::new((0, 0, 0)) };
    }

    fn count(tokens: &TokenStream) -> usize {
        tokens.clone().into_iter().map(|t| if let TokenTree::Group(g) = t { 2 + count(&g.stream()) } else { 1 }).sum()
    }

    #[cfg(feature = "format")]
    pub(super) fn note_parse(tokens: &TokenStream) {
        let n = count(tokens);
        PARSED.with(|p| {
            let (calls, total, max) = p.get();
            p.set((calls + 1, total + n, max.max(n)));
        });
    }

    /// A module formatted item by item and statement by statement is the text of the whole
    /// module formatted at once (and, without `format`, the same tokens).
    #[test]
    fn statement_lists_format_as_in_the_whole_module() {
        let mut m = Module::default();
        let mut s = Stmts::new(2);
        s.push(comment("op 0: A")).unwrap();
        s.push(quote! { a(0); { let ([x0], [y0]) = io(&mut self.arena.0, [T1], [T2]); b(x0, y0, &P0, &[1, 2, 3]); } }).unwrap();
        s.push(comment("op 1: B \"a name that is long enough to make prettyplease break the marker over lines\" (t1) -> t2")).unwrap();
        s.push(quote! { c(); }).unwrap();
        let marker = m.stmts(s);
        assert!(m.stmts(Stmts::new(1)).is_empty());
        m.item(quote! { const C: u8 = 1; });
        m.item(quote! { impl M { fn new() -> Self { M } fn run(&mut self) { #marker } } });
        m.item(quote! { fn empty() {} });
        let whole = quote! {
            const C: u8 = 1;
            impl M {
                fn new() -> Self { M }
                fn run(&mut self) {
                    __tflc_comment!("op 0: A");
                    a(0);
                    { let ([x0], [y0]) = io(&mut self.arena.0, [T1], [T2]); b(x0, y0, &P0, &[1, 2, 3]); }
                    __tflc_comment!("op 1: B \"a name that is long enough to make prettyplease break the marker over lines\" (t1) -> t2");
                    c();
                }
            }
            fn empty() {}
        };
        let got = format_module("// h", m).unwrap();
        #[cfg(feature = "format")]
        let expected = format!("// h\n{}", restore_comments(&prettyplease::unparse(&syn::parse2(whole).unwrap())));
        #[cfg(not(feature = "format"))]
        let expected = format!("// h\nmacro_rules! __tflc_comment {{ ($s:literal) => {{}}; }}\n{whole}");
        assert_eq!(got, expected);
    }

    /// A statement list formatted for one depth but placed at another is an error, not a
    /// misindented module.
    #[cfg(feature = "format")]
    #[test]
    fn statement_lists_stand_where_they_were_formatted() {
        let mut m = Module::default();
        let mut s = Stmts::new(1);
        s.push(quote! { a(); }).unwrap();
        let marker = m.stmts(s);
        m.item(quote! { impl M { fn run(&mut self) { #marker } } });
        let e = format_module("// h", m).unwrap_err();
        assert!(e.contains("formatted 1 blocks deep but stands 2 deep"), "{e}");
    }

    /// Bounded work: compiling a long chain never hands `syn` the whole module. The largest
    /// piece parsed at once (the `OPS` table, one entry per operator) stays a small part of
    /// every token formatted, and the pieces grow with the model only through that table:
    /// ten times the operators, at most ten times the largest piece (it was the whole module,
    /// about 150 tokens per operator, parsed and kept as one `syn` tree with its tokens).
    #[cfg(feature = "format")]
    #[test]
    fn long_chains_are_formatted_in_small_pieces() {
        let mut pieces = Vec::new();
        for n in [200, 2_000] {
            PARSED.with(|p| p.set((0, 0, 0)));
            let bytes = crate::testing::models::stress::relu_chain(n);
            let c = crate::compile(&bytes, &crate::CompileOptions::default()).unwrap();
            let (calls, total, max) = PARSED.with(|p| p.get());
            assert!(c.code.matches("observer.before(&OPS[").count() == n, "{n}");
            assert!(calls > n, "{n} operators in {calls} pieces");
            assert!(max * 5 < total, "{n} operators: largest piece {max} of {total} tokens");
            // About 26 tokens per `OPS` entry (index, opcode, output, kernel).
            assert!(max < 30 * n, "{n} operators: largest piece {max} tokens");
            pieces.push(max);
        }
        assert!(pieces[1] <= 10 * pieces[0] + 100, "{pieces:?}");
    }


    #[test]
    fn comments_on_one_line_and_broken_over_lines() {
        let text = "fn run() {\n    __tflc_comment!(\"op 0: A\");\n    a();\n    __tflc_comment!(\n        \"op 1: B \\\"x\\\" (t1) -> t2\"\n    );\n    b();\n}\n";
        let got = restore_comments(text);
        assert_eq!(got, "fn run() {\n    // op 0: A\n    a();\n\n    // op 1: B \"x\" (t1) -> t2\n    b();\n}\n");
    }
}

#[cfg(test)]
mod blob_tests {
    use super::{EmitCx, Items};
    use quote::quote;

    /// Weights and compile-time tables start at multiples of the items' alignment.
    #[test]
    fn blob_entries_follow_the_alignment() {
        let bytes = crate::testing::models::tiny_cnn();
        let model = crate::passes::read_model(&bytes).unwrap();
        let sg = model.main();
        let rt = quote! { rt };
        for align in [16, 64, 256] {
            let mut items = Items::new(align);
            let mut cx = EmitCx::new(&rt, sg, 3, &mut items);
            let _ = cx.table_i8("a", &[1, 2, 3]);
            for t in sg.tensors.iter().filter(|t| t.is_constant()) {
                let _ = cx.input(t.id);
            }
            let _ = cx.table_i32("b", &[7; 5]);
            assert_eq!(items.align(), align);
            let starts: Vec<usize> = items
                .consts
                .iter()
                .chain(items.weights.values().map(|(_, item)| item))
                .filter_map(|c| c.to_string().split("> = ").nth(1)?.split(" ..").next()?.trim().parse().ok())
                .collect();
            assert_eq!(starts.len(), 2 + sg.tensors.iter().filter(|t| t.is_constant()).count());
            assert!(starts.iter().all(|s| s % align == 0), "{align}: {starts:?}");
            assert!(starts.contains(&0) && starts.iter().any(|&s| s > 0));
        }
        assert_eq!(Items::default().align(), 16);
    }
}

#[cfg(test)]
mod view_tests {
    use super::{view_fn, VIEWS_EXIST};
    use crate::ir::DType;

    #[test]
    fn arena_views_are_checked() {
        let table: std::collections::BTreeSet<String> = DType::NAMED.into_iter().filter(|d| d.info().arena_view).map(DType::name).collect();
        let checked: std::collections::BTreeSet<String> = VIEWS_EXIST.iter().map(|v| v.0.name()).collect();
        assert_eq!(table, checked);
        for (d, size) in VIEWS_EXIST {
            assert_eq!(d.size(), Some(size), "{d:?}");
            assert!(view_fn(d, false).is_some() && view_fn(d, true).is_some());
        }
        assert!(view_fn(DType::Bool, false).is_none() && view_fn(DType::F16, true).is_none());
    }
}

#[cfg(test)]
mod lit_tests {
    use super::Lit;
    use quote::quote;

    #[derive(Debug)]
    struct Local<'a> {
        a: i32,
        b: [usize; 2],
        c: &'a [i32],
        d: Option<u8>,
    }

    #[test]
    fn literals_of_fields() {
        let rt = quote! { rt };
        let v = Local { a: -3, b: [1, 2], c: &[4, -5], d: Some(7) };
        let Local { a, b, c, d } = &v;
        let s = format!("{} {} {} {} {}", a.lit(&rt), b.lit(&rt), c.lit(&rt), d.lit(&rt), None::<u8>.lit(&rt));
        assert_eq!(s, "- 3 [1 , 2] & [4 , - 5] Some (7) None");
        assert_eq!(f32::NAN.lit(&rt).to_string(), "f32 :: NAN");
        assert_eq!(0.5f32.lit(&rt).to_string(), "0.5f32");
        assert_eq!((-0.0f32).lit(&rt).to_string(), "- 0f32");
        assert_eq!(f32::MIN.lit(&rt).to_string(), "f32 :: MIN");
        assert_eq!(f32::NEG_INFINITY.lit(&rt).to_string(), "f32 :: NEG_INFINITY");
        assert_eq!(i32::MIN.lit(&rt).to_string(), "i32 :: MIN");
        assert_eq!((-7i32).lit(&rt).to_string(), "- 7");
    }
}

/// The runtime function a kernel call's tokens end in (the last `kernels::<op>::<f>(…)`:
/// inside an overlapped row driver's closure, the kernel itself, labelled `by rows`), for
/// `OpInfo::kernel`; empty when the call reaches no kernel module.
pub(crate) fn kernel_label(call: &TokenStream) -> String {
    let text = call.to_string();
    let mut found = None;
    let mut rest = text.as_str();
    while let Some(i) = rest.find("kernels :: ") {
        rest = &rest[i + "kernels :: ".len()..];
        let mut parts = rest.splitn(3, " :: ");
        let (Some(_module), Some(tail)) = (parts.next(), parts.next()) else { break };
        let f: String = tail.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if tail[f.len()..].trim_start().starts_with('(') && !f.is_empty() {
            found = Some(f);
        }
    }
    let rows = text.contains("kernels :: overlap :: ");
    match found {
        Some(f) if rows => format!("{}, by rows", f.strip_suffix("_rows").unwrap_or(&f)),
        Some(f) => f,
        None => String::new(),
    }
}

/// The classes generated code distinguishes: (class asked, `cfg` predicate, blob suffix).
pub(crate) fn target_classes() -> [(tflc_runtime::isa::TargetClass, proc_macro2::TokenStream, &'static str); 3] {
    [
        (tflc_runtime::isa::TargetClass::ArmDsp, quote! { any(target_arch = "arm", target_arch = "riscv32") }, "arm"),
        (tflc_runtime::isa::TargetClass::X86, quote! { target_arch = "x86_64" }, "x86"),
        (tflc_runtime::isa::TargetClass::Host, quote! { not(any(target_arch = "arm", target_arch = "riscv32", target_arch = "x86_64")) }, "other_host"),
    ]
}
