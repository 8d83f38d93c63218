//! The per-target choice of a kernel variant: the int8 convolution family asks the
//! runtime's `select` once per target class and keeps one arm per distinct answer, each
//! with its packed table. Codegen emits one call per arm under `#[cfg(...)]`
//! ([`EmitCx::per_target`](crate::emit::EmitCx::per_target)), or the one plain call when every
//! class agrees, so the same generated module is right for the CLI's output built for any
//! target, for `Config::compile_to` in a build script and for `include_model!` (a proc
//! macro cannot see the target it expands for).
//!
//! Generated code tells the classes apart by `target_arch` only (`"arm"` or `"riscv32"`,
//! `"x86_64"`, any other: [`TargetClass::ArmDsp`], [`TargetClass::X86`],
//! [`TargetClass::Host`], blobs `WEIGHTS_ARM`, `WEIGHTS_X86`, `WEIGHTS_OTHER_HOST`); an arm
//! for both host classes is `not(any(target_arch = "arm", target_arch = "riscv32"))` with
//! blob `WEIGHTS_HOST`. 32-bit RISC-V (issue 33) is a microcontroller like the Cortex-M
//! cores: it takes the microcontroller variants and layouts ([`TargetClass::ArmDsp`]'s
//! answer) with the portable micro-kernels, as Armv6-M does. With the host classes' variants
//! instead, RV32IMC measured 1.0-1.34x the instructions, up to 1.8x the flash (int16-packed
//! weights) and a 19 KB stack (window gathers on the stack) against about 1 KB
//! (`examples/firmware/run.sh --rv32`, docs/FIRMWARE.md). Every distinct
//! `cfg` has its own suffix, so no two blobs share a name. Stable Rust has
//! no `cfg` for the Arm DSP extension (the `dsp` target feature is unstable; the runtime's
//! build script reads the target name). Every Arm build therefore takes the
//! [`TargetClass::ArmDsp`] answer; an Armv6-M or Armv7-M build runs those variants with the
//! portable micro-kernels, as it did before target classes existed. Every variant is
//! bit-exact on every target: a class changes speed and flash, never results.

use crate::emit::TargetArm;
use quote::quote;
use tflc_runtime::isa::TargetClass;

use crate::emit::target_classes as classes;


/// One variant and its packed table for some target classes (`P`: the table's element,
/// `i32` for the integer variants, `f32` for the packed float ones).
#[derive(Debug, Clone, PartialEq)]
pub struct Arm<V, P = i32> {
    /// The classes this arm is for (one entry per class [`PerTarget::select`] asked).
    pub classes: Vec<TargetClass>,
    pub variant: V,
    /// The variant's compile-time table (`<Op>Variant::pack`; empty for the reference).
    pub packed: Vec<P>,
}

/// The arms of one op: one when every class picks the same variant.
#[derive(Debug, Clone, PartialEq)]
pub struct PerTarget<V, P = i32> {
    pub arms: Vec<Arm<V, P>>,
}

impl<V: Copy + PartialEq, P> PerTarget<V, P> {
    /// Asks `select` for every class and packs each distinct answer once with `pack`.
    pub fn select(mut select: impl FnMut(TargetClass) -> V, mut pack: impl FnMut(V) -> Vec<P>) -> Self {
        let mut arms: Vec<Arm<V, P>> = Vec::new();
        for (class, ..) in classes() {
            let variant = select(class);
            match arms.iter_mut().find(|a| a.variant == variant) {
                Some(a) => a.classes.push(class),
                None => arms.push(Arm { classes: vec![class], variant, packed: pack(variant) }),
            }
        }
        Self { arms }
    }

    /// The arm for `class` (the interpreter runs [`TargetClass::BUILD`]'s: the class of the
    /// machine it runs on).
    pub fn of(&self, class: TargetClass) -> &Arm<V, P> {
        self.arms.iter().find(|a| a.classes.contains(&class)).unwrap_or(&self.arms[0])
    }

    /// These arms with the classes `kept` picks moved into one arm of their own (variant
    /// `None`: the caller's call on weights kept in a compact form, e.g. int4 filters packed
    /// for the microcontroller builds); every other class's arm is `Some(k)`, its arm of
    /// `self`. With no class picked, the arms, their order and their `cfg`s are `self`'s.
    pub fn split_kept(&self, kept: impl Fn(TargetClass) -> bool) -> PerTarget<Option<usize>> {
        PerTarget::<Option<usize>>::select(|class| if kept(class) { None } else { Some(self.arms.iter().position(|a| a.classes.contains(&class)).unwrap_or(0)) }, |_| Vec::new())
    }

    /// The `cfg`s of the arms, in order, for [`EmitCx::per_target`](crate::emit::EmitCx::per_target)
    /// (one arm: no `cfg`).
    pub fn cfgs(&self) -> Vec<TargetArm> {
        let all = classes();
        self.arms
            .iter()
            .map(|a| {
                if !a.classes.contains(&TargetClass::ArmDsp) && a.classes.contains(&TargetClass::X86) && a.classes.contains(&TargetClass::Host) {
                    // Both hosts: the predicate and blob of the time before `X86`.
                    return TargetArm { cfg: quote! { not(any(target_arch = "arm", target_arch = "riscv32")) }, suffix: "host", classes: a.classes.clone() };
                }
                if a.classes.contains(&TargetClass::ArmDsp) && !a.classes.contains(&TargetClass::X86) && a.classes.contains(&TargetClass::Host) {
                    // Everything but x86-64 (an int8 FULLY_CONNECTED that only x86-64 takes
                    // as `Quad`): said the short way.
                    return TargetArm { cfg: quote! { not(target_arch = "x86_64") }, suffix: "not_x86", classes: a.classes.clone() };
                }
                let mine: Vec<_> = all.iter().filter(|(c, ..)| a.classes.contains(c)).collect();
                let preds = mine.iter().map(|(_, p, _)| p);
                let cfg = if mine.len() == 1 { quote! { #(#preds)* } } else { quote! { any(#(#preds),*) } };
                // A distinct suffix per distinct `cfg`: two scopes of one suffix would define
                // the same blob twice for a target both `cfg`s hold on.
                let suffix = match mine.as_slice() {
                    [(.., one)] => *one,
                    [(TargetClass::ArmDsp, ..), (TargetClass::X86, ..)] => "arm_x86",
                    _ => "all",
                };
                TargetArm { cfg, suffix, classes: a.classes.clone() }
            })
            .collect()
    }
}

/// The arguments of a variant's call between its params and its output, in the order its
/// runtime table row lists its operands ([`tflc_runtime::variants`]): the input range, the
/// model's filter and bias, the variant's packed table.
pub fn variant_args<P: PackedElem>(
    cx: &mut crate::emit::EmitCx<'_, '_, '_>,
    row: &tflc_runtime::variants::VariantRow,
    input: proc_macro2::TokenStream,
    filter: crate::ir::TensorId,
    bias: Option<crate::ir::TensorId>,
    packed: &[P],
) -> Vec<proc_macro2::TokenStream> {
    use tflc_runtime::variants::Operand;
    row.operands
        .iter()
        .map(|o| match o {
            Operand::Input => input.clone(),
            Operand::Filter => cx.input(filter),
            Operand::Bias => cx.optional_input(bias),
            Operand::Packed => P::table(cx, "packed", packed),
        })
        .collect()
}

/// The call of a variant's function as its row says: `call::function(p, operands..., output);`
/// (the operands from [`variant_args`]), `p` the params expression as the function takes it.
#[allow(clippy::too_many_arguments)]
pub fn variant_call<P: PackedElem>(
    cx: &mut crate::emit::EmitCx<'_, '_, '_>,
    row: &tflc_runtime::variants::VariantRow,
    call: &proc_macro2::TokenStream,
    p: impl quote::ToTokens,
    input: proc_macro2::TokenStream,
    (filter, bias): (crate::ir::TensorId, Option<crate::ir::TensorId>),
    packed: &[P],
    output: impl quote::ToTokens,
) -> proc_macro2::TokenStream {
    let args = variant_args(cx, row, input, filter, bias, packed);
    let f = quote::format_ident!("{}", row.function);
    quote::quote! { #call::#f(#p, #(#args,)* #output); }
}

/// An element of a variant's packed table (int32 for the int8 variants, float32 for the
/// float ones), emitted as a static of that type.
pub trait PackedElem: Sized {
    /// The static holding `data`, named after `name`.
    fn table(cx: &mut crate::emit::EmitCx<'_, '_, '_>, name: &str, data: &[Self]) -> proc_macro2::TokenStream;
}

impl PackedElem for i32 {
    fn table(cx: &mut crate::emit::EmitCx<'_, '_, '_>, name: &str, data: &[i32]) -> proc_macro2::TokenStream {
        cx.table_i32(name, data)
    }
}

impl PackedElem for f32 {
    fn table(cx: &mut crate::emit::EmitCx<'_, '_, '_>, name: &str, data: &[f32]) -> proc_macro2::TokenStream {
        cx.table_f32(name, data)
    }
}

#[cfg(test)]
mod tests {
    use super::PerTarget;
    use tflc_runtime::isa::TargetClass;
    use tflc_runtime::kernels::conv_2d::{Conv2dParams, Conv2dVariant, ConvGeometry};
    use tflc_runtime::kernels::numerics::{Clamp, QuantS8};

    fn cfgs<V: Copy + PartialEq>(arms: &PerTarget<V>) -> Vec<(String, &'static str)> {
        arms.cfgs().into_iter().map(|a| (a.cfg.to_string(), a.suffix)).collect()
    }

    /// x86-64 takes `Quad` for an int8 convolution, the other hosts keep `Wide`, Arm
    /// `Gemm`: three arms, each under its own `cfg` and blob.
    #[test]
    fn x86_gets_quad_other_hosts_wide() {
        let g = ConvGeometry { input_shape: [1, 8, 8, 4], filter_shape: [16, 3, 3, 4], output_shape: [1, 8, 8, 16], stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1, pad_top: 1, pad_left: 1 };
        let (mult, shift) = (vec![1 << 30; 16], vec![-8; 16]);
        let p = Conv2dParams { geometry: g, quant: QuantS8 { input_offset: 3, output_offset: -1, output_multiplier: &mult, output_shift: &shift }, clamp: Clamp { min: -128, max: 127 } };
        let filter = vec![1i8; 16 * 9 * 4];
        let arms = PerTarget::select(|t| Conv2dVariant::select(&p, &filter, None, t), |v| vec![v.packed_len(&g) as i32]);
        assert_eq!(arms.of(TargetClass::X86).variant, Conv2dVariant::Quad);
        assert_eq!(arms.of(TargetClass::Host).variant, Conv2dVariant::Wide);
        assert_eq!(arms.of(TargetClass::ArmDsp).variant, Conv2dVariant::Gemm);
        assert_eq!(
            cfgs(&arms),
            [
                ("any (target_arch = \"arm\" , target_arch = \"riscv32\")".into(), "arm"),
                ("target_arch = \"x86_64\"".into(), "x86"),
                ("not (any (target_arch = \"arm\" , target_arch = \"riscv32\" , target_arch = \"x86_64\"))".into(), "other_host"),
            ]
        );
        // uint8 keeps `Wide` on every host.
        assert_eq!(tflc_runtime::kernels::conv_2d::Conv2dU8Variant::select(&Conv2dParams { geometry: g, quant: tflc_runtime::kernels::numerics::QuantU8 { input_offset: -3, weights_offset: -5, output_offset: 1, output_multiplier: 1 << 30, output_shift: -8 }, clamp: Clamp { min: 0, max: 255 } }, TargetClass::X86), tflc_runtime::kernels::conv_2d::Conv2dU8Variant::Wide);
    }

    /// Both host classes agreeing print the predicate and blob of the time before `X86`.
    #[test]
    fn hosts_agreeing_keep_the_old_arm() {
        let arms = PerTarget::<u8>::select(|t| u8::from(t.is_host()), |v| vec![v as i32]);
        assert_eq!(cfgs(&arms), [("any (target_arch = \"arm\" , target_arch = \"riscv32\")".into(), "arm"), ("not (any (target_arch = \"arm\" , target_arch = \"riscv32\"))".into(), "host")]);
        // Arm and x86-64 agreeing (no select does so today): a suffix of their own.
        let odd = PerTarget::<u8>::select(|t| u8::from(t == TargetClass::Host), |v| vec![v as i32]);
        assert_eq!(cfgs(&odd), [("any (any (target_arch = \"arm\" , target_arch = \"riscv32\") , target_arch = \"x86_64\")".into(), "arm_x86"), ("not (any (target_arch = \"arm\" , target_arch = \"riscv32\" , target_arch = \"x86_64\"))".into(), "other_host")]);
        let one = PerTarget::<u8>::select(|_| 0, |v| vec![v as i32]);
        assert_eq!(one.arms.len(), 1);
        assert_eq!(one.of(TargetClass::X86).classes, [TargetClass::ArmDsp, TargetClass::X86, TargetClass::Host]);
    }
}
