//! What CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED share beyond their quantization
//! ([`super::conv_common`]): the reference execution of one scheme ([`run_scheme`]), the
//! per-channel requantization multipliers ([`channel_multipliers`]), and the int8 filter
//! kept compact in flash ([`Kept`]: LUT-compressed, [`LutFilter`], or int4 nibbles,
//! [`Int4Filter`]) with its interpreter check and its emitted calls ([`per_target_int4`],
//! [`kept_window_call`], [`packed_window_call`]).
//!
//! Each op keeps its own differences explicit at the call: its geometry and element
//! counts, its params, the kernels it names, its row driver.

use super::conv_common::params_type;
use super::decode::LutFilter;
use super::int4::Int4Filter;
use super::movement::Elem;
use super::target::{Arm, PerTarget};
use super::{ExecError, OpCx, TensorStore};
use crate::emit::{EmitCx, Lit};
use crate::error::LowerError;
use crate::ir::{Tensor, TensorId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use tflc_runtime::isa::TargetClass;
use tflc_runtime::kernels::conv_2d::Conv2dParams;
use tflc_runtime::kernels::depthwise_conv_2d::DepthwiseConv2dParams;
use tflc_runtime::kernels::int4::Int4Weights;
use tflc_runtime::kernels::lut::LutWeights;
use tflc_runtime::kernels::numerics::S8;
use tflc_runtime::prepare::conv_channel_multiplier;
use tflc_runtime::quant::QuantParams;
use tflc_runtime::variants::Operands;

/// The tensors of a convolution-family op: input, filter, optional bias, output.
pub(crate) type ConvTensors = (TensorId, TensorId, Option<TensorId>, TensorId);

/// Runs one scheme of a convolution-family op on the store: takes the output (`out_len`
/// elements of `A`), reads the input as `A`, the filter as `W` and the bias as `B`, checks
/// that the input and the filter hold `expect` elements (the lowered shapes'), runs `run` on
/// them and stores the output. Errors start with `op`, the opcode.
pub(crate) fn run_scheme<A: Elem, W: Elem, B: Elem>(
    s: &mut TensorStore,
    op: &str,
    (input, filter, bias, output): ConvTensors,
    (out_len, expect): (usize, [usize; 2]),
    run: impl FnOnce(&[A], &[W], Option<&[B]>, &mut [A]) -> Result<(), ExecError>,
) -> Result<(), ExecError> {
    let mut out = s.take_as::<A>(output, out_len);
    let (x, w) = (s.get_as::<A>(input)?, s.get_as::<W>(filter)?);
    let b = bias.map(|b| s.get_as::<B>(b)).transpose()?;
    let [ni, nf] = expect;
    if x.len() != ni || w.len() != nf {
        return Err(ExecError(format!("{op}: input has {} and weights {} elements, expected {ni} and {nf}", x.len(), w.len())));
    }
    run(x, w, b, &mut out)?;
    s.insert(output, A::wrap(out));
    Ok(())
}

/// [`run_scheme`] for a scheme with a variant per target class: `run` gets the variant of
/// the class the interpreter runs on ([`TargetClass::BUILD`]) and its operands, its packed
/// table with the store's input, filter and bias.
pub(crate) fn run_variant<A: Elem, W: Elem, B: Elem, V: Copy + PartialEq, P>(
    s: &mut TensorStore,
    op: &str,
    tensors: ConvTensors,
    counts: (usize, [usize; 2]),
    arms: &PerTarget<V, P>,
    run: impl FnOnce(V, Operands<'_, A, W, B, P>, &mut [A]) -> Result<(), ExecError>,
) -> Result<(), ExecError> {
    let Arm { variant, packed, .. } = arms.of(TargetClass::BUILD);
    run_scheme(s, op, tensors, counts, |input, filter, bias, out| run(*variant, Operands { input, filter, bias, packed }, out))
}

/// A variant's (or an int4 form's) packed table of `len` elements, filled by its `pack`.
pub(crate) fn packed_table<P: Clone + Default>(len: usize, pack: impl FnOnce(&mut [P])) -> Vec<P> {
    let mut packed = vec![P::default(); len];
    pack(&mut packed);
    packed
}

/// One multiplier and shift per output channel from `input_scale * filter_scale[c] /
/// output_scale` in double (TFLite `PopulateConvolutionQuantizationParams`; a single filter
/// scale is broadcast to every channel). `scales` are the filter's, already checked to be
/// one or `n`; `what` names a channel in the errors ("channel", "unit").
pub(crate) fn channel_multipliers(
    cx: &OpCx<'_, '_>,
    filter: &Tensor<'_>,
    scales: &[f32],
    n: usize,
    [in_q, out_q]: [QuantParams; 2],
    what: &str,
) -> Result<(Vec<i32>, Vec<i32>), LowerError> {
    let mut output_multiplier = Vec::with_capacity(n);
    let mut output_shift = Vec::with_capacity(n);
    for c in 0..n {
        let fs = scales.get(c).or(scales.first()).copied().unwrap_or(0.0);
        if !(fs.is_finite() && fs > 0.0) {
            return Err(cx.invalid_tensor(filter, format!("{what} {c}: weights scale {fs} is not positive")));
        }
        let (m, s) = conv_channel_multiplier(in_q.scale, fs, out_q.scale)
            .ok_or_else(|| cx.invalid_tensor(filter, format!("{what} {c}: the effective scale cannot be quantized")))?;
        output_multiplier.push(m);
        output_shift.push(s);
    }
    Ok((output_multiplier, output_shift))
}

/// The filters an int8 scheme keeps compact in flash (none for the other schemes): every
/// target's call reads a LUT-compressed one, the microcontroller builds' an int4 one.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Kept<'a> {
    pub lut: Option<&'a LutFilter>,
    pub int4: Option<&'a Int4Filter>,
}

impl Kept<'_> {
    /// [`super::Kernel::kept_compressed`]: `filter` and the weight-blob bytes of its LUT
    /// tables and indices.
    pub fn compressed(self, filter: TensorId) -> Option<(TensorId, usize)> {
        self.lut.map(|lut| (filter, lut.table.len() + lut.indices.len()))
    }

    /// [`super::Kernel::kept_int4`]: `filter` and the weight-blob bytes of its nibbles.
    pub fn int4(self, filter: TensorId) -> Option<(TensorId, usize)> {
        self.int4.map(|int4| (filter, int4.nibbles.len()))
    }

    /// The interpreter's check of the kept filters: runs `lut_kernel` on the LUT form and
    /// `int4_kernel` on the nibbles, each beside `out` (the variant's output on the filter
    /// as TFLite reads it), and fails on any difference ([`LutFilter::check`],
    /// [`Int4Filter::check`]). `op` is the opcode.
    pub fn check(
        self,
        op: &str,
        out: &[i8],
        lut_kernel: impl FnOnce(&LutWeights<'_>, &mut [i8]),
        int4_kernel: impl FnOnce(&Int4Weights<'_>, &mut [i8]),
    ) -> Result<(), ExecError> {
        if let Some(lut) = self.lut {
            let mut kept = vec![0; out.len()];
            lut_kernel(&lut.view(), &mut kept);
            LutFilter::check(op, out, &kept)?;
        }
        if let Some(int4) = self.int4 {
            let mut kept = vec![0; out.len()];
            int4_kernel(&int4.view(), &mut kept);
            Int4Filter::check(op, out, &kept)?;
        }
        Ok(())
    }
}

/// The int8 calls of an op whose filter may be kept int4, one per target class: for the
/// microcontroller builds reading the kept filter ([`super::int4::kept_on`]) `int4_call`,
/// for every other class `variant_call` on its arm of `arms`.
pub(crate) fn per_target_int4<V: Copy + PartialEq>(
    cx: &mut EmitCx<'_, '_, '_>,
    arms: &PerTarget<V>,
    int4: Option<&Int4Filter>,
    mut int4_call: impl FnMut(&mut EmitCx<'_, '_, '_>, &Int4Filter) -> TokenStream,
    mut variant_call: impl FnMut(&mut EmitCx<'_, '_, '_>, &Arm<V>) -> TokenStream,
) -> TokenStream {
    let split = arms.split_kept(|class| int4.is_some() && super::int4::kept_on(class));
    cx.per_target(&split.cfgs(), |cx, i| match (split.arms[i].variant, int4) {
        (Some(k), _) => variant_call(cx, &arms.arms[k]),
        (None, Some(int4)) => int4_call(cx, int4),
        (None, None) => unreachable!("split_kept splits off no class without a kept int4 filter"),
    })
}

/// An int8 window op's (CONV_2D, DEPTHWISE_CONV_2D) row driver and params type, and the
/// tensors its kept-filter calls name.
pub(crate) struct Window {
    /// The `__private` row driver (`conv_rows`, `depthwise_rows`).
    pub driver: &'static str,
    /// The params type under the runtime path.
    pub path: TokenStream,
    pub input: TensorId,
    pub bias: Option<TensorId>,
    pub output: TensorId,
}

impl Window {
    /// The call of `kernel` (under `kernels::`, e.g. `lut::conv_2d_s8_lut`) on a filter
    /// kept compact: the params, the input, the kept weights (`weights`: [`super::decode::emit_lut`]
    /// or [`super::int4::emit_int4`]), the model's bias, the output.
    pub fn kept_call(
        &self,
        cx: &mut EmitCx<'_, '_, '_>,
        params: &impl Lit,
        kernel: TokenStream,
        weights: impl FnOnce(&mut EmitCx<'_, '_, '_>) -> TokenStream,
    ) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(params_type::<S8>(&rt, self.path.clone(), true), params);
        cx.window_call(self.driver, &p, self.path.clone(), self.input, self.output, |cx, p, input, output| {
            let w = weights(cx);
            let bias = cx.optional_input(self.bias);
            quote! { #rt::kernels::#kernel(#p, #input, #w, #bias, #output); }
        })
    }

    /// The call of the int4 kernel `function` on its packed table, which replaces the
    /// filter, the bias and the multiplier tables (`params` come without the latter,
    /// [`WithoutMultipliers`]).
    pub fn packed_int4_call(&self, cx: &mut EmitCx<'_, '_, '_>, params: &impl Lit, function: &str, packed: &[i32]) -> TokenStream {
        let rt = cx.rt().clone();
        let p = cx.params_lit(params_type::<S8>(&rt, self.path.clone(), true), params);
        let f = format_ident!("{}", function);
        cx.window_call(self.driver, &p, self.path.clone(), self.input, self.output, |cx, p, input, output| {
            let packed = cx.table_i32("packed", packed);
            quote! { #rt::kernels::int4::#f(#p, #input, #packed, #output); }
        })
    }
}

/// The int8 params of a window op without their multiplier tables, for a call whose packed
/// table holds the requantization (the tables are then not emitted).
pub(crate) trait WithoutMultipliers {
    fn without_multipliers(self) -> Self;
}

impl WithoutMultipliers for Conv2dParams<'_, S8> {
    fn without_multipliers(mut self) -> Self {
        self.quant.output_multiplier = &[];
        self.quant.output_shift = &[];
        self
    }
}

impl WithoutMultipliers for DepthwiseConv2dParams<'_, S8> {
    fn without_multipliers(mut self) -> Self {
        self.quant.output_multiplier = &[];
        self.quant.output_shift = &[];
        self
    }
}
