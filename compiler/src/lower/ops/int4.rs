//! int4 filters kept packed in flash (issue 30): an int4 constant `passes::fold` unpacked
//! whose every reader is the filter of an int8 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED
//! ([`crate::ir::Subgraph::int4_kept`]) is emitted as nibbles for the microcontroller builds
//! (Arm and 32-bit RISC-V: [`TargetClass::ArmDsp`]), whose calls then go to the `_int4`
//! kernels (`tflc_runtime::kernels::int4`: one output channel, or four, unpacked into a
//! stack buffer as the kernel reads them; never the whole filter in RAM). Hosts keep the
//! int8 variants on the filter unpacked at compile time: their SIMD variants want packed
//! int8 layouts, and flash is not what a host is short of.
//!
//! The nibbles are packed at compile time in the order the kernel reads them
//! ([`LutLayout`], as for LUT-compressed filters): CONV_2D and FULLY_CONNECTED rows as the
//! file stores them (the file's bytes), DEPTHWISE_CONV_2D transposed to channel-major rows
//! of taps. The interpreter runs the `_int4` kernel beside the int8 variant on every such op
//! and fails on any difference ([`Int4Filter::check`]).

use super::decode::LutLayout;
use super::{ExecError, OpCx};
use crate::emit::EmitCx;
use crate::ir::{DType, Tensor};
use proc_macro2::TokenStream;
use quote::quote;
use tflc_runtime::isa::TargetClass;

/// The target classes whose calls read a kept int4 filter packed.
pub(crate) fn kept_on(class: TargetClass) -> bool {
    class == TargetClass::ArmDsp
}

/// An int4 filter packed for the `_int4` kernels (`tflc_runtime::kernels::int4::Int4Weights`).
#[derive(Debug, Clone, PartialEq)]
pub struct Int4Filter {
    /// The weights, two a byte, low nibble first, one run of `row` per output channel.
    pub nibbles: Vec<u8>,
}

impl Int4Filter {
    /// The runtime's view of it.
    pub fn view(&self) -> tflc_runtime::kernels::int4::Int4Weights<'_> {
        tflc_runtime::kernels::int4::Int4Weights { nibbles: &self.nibbles }
    }

    /// `reference` (the op's output on the unpacked filter) against `kept` (the `_int4`
    /// kernel's on the nibbles): the interpreter runs both, so every run of an int4 model
    /// checks the kernel the microcontroller builds call.
    pub fn check(op: &str, reference: &[i8], kept: &[i8]) -> Result<(), ExecError> {
        match reference.iter().zip(kept).position(|(a, b)| a != b) {
            None if reference.len() == kept.len() => Ok(()),
            at => Err(ExecError(format!("{op}: the kernel on the packed int4 filter differs from the unpacked filter's (element {at:?}); this is a bug in tflc, please report it"))),
        }
    }
}

/// The packed form of `filter` (`channels` output channels) when the compile keeps it packed
/// ([`crate::ir::Subgraph::int4_kept`]): its unpacked int8 weights (every one in `-8..=7`,
/// as unpacking made them) re-packed two a byte in the kernel's order, and checked by
/// unpacking them back the way the kernel does. `None` otherwise: the filter is then read
/// unpacked on every target, as before, which is always exact.
pub(crate) fn kept_int4(cx: &OpCx<'_, '_>, filter: &Tensor<'_>, channels: usize, layout: LutLayout) -> Option<Int4Filter> {
    if !cx.sg.int4_kept.contains(&filter.id) || !cx.sg.int4_packed.contains_key(&filter.id) || filter.dtype != DType::I8 || channels == 0 {
        return None;
    }
    let data = filter.data?;
    let count = filter.num_elements();
    if data.len() != count || !count.is_multiple_of(channels) {
        return None;
    }
    let row = count / channels;
    let source = |c: usize, j: usize| match layout {
        LutLayout::Rows => c * row + j,
        LutLayout::Depthwise => j * channels + c,
    };
    let values: Vec<i8> = (0..channels).flat_map(|c| (0..row).map(move |j| (c, j))).map(|(c, j)| data[source(c, j)] as i8).collect();
    if values.iter().any(|v| !(-8..=7).contains(v)) {
        return None;
    }
    let mut nibbles = vec![0u8; count.div_ceil(2)];
    tflc_runtime::kernels::int4::pack(&values, &mut nibbles);
    let mut back = vec![0i8; count];
    tflc_runtime::kernels::int4::decode(&nibbles, 0, &mut back);
    (back == values).then_some(Int4Filter { nibbles })
}

/// The `&Int4Weights { … }` argument of an `_int4` kernel call: the nibbles as one table of
/// the weight blob.
pub(crate) fn emit_int4(cx: &mut EmitCx<'_, '_, '_>, int4: &Int4Filter) -> TokenStream {
    let rt = cx.rt().clone();
    let nibbles = cx.table_u8("int4_filter", &int4.nibbles);
    quote! { &#rt::kernels::int4::Int4Weights { nibbles: #nibbles } }
}
