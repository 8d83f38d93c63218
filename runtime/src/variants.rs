//! Variant tables: one per operator family, the one place that says which functions an
//! operator's variants are (issue 27, point 1).
//!
//! A family's table ([`variant_table!`]) lists, per variant, its public function, the
//! operands it takes between its params (first) and its output (last), the host SIMD
//! implementations it dispatches to (with the instruction set each needs) and the portable
//! form it falls back to. From that one list the macro writes:
//!
//! - the public variant functions themselves (`conv_2d_s8_quad`, ...): each tries its SIMD
//!   forms in the order given (the selected instruction set's token proves the CPU has it,
//!   [`crate::isa`]) and otherwise runs its portable form, so the table cannot claim a form
//!   the function does not have, nor the function call one the table does not list;
//! - `<Variant>::row()` and the table const ([`VariantRow`]s): what the compiler emits
//!   (function name, operands in order, packed requantization, the row-range function),
//!   what the observer and the benchmarks print (the kernel's name) and what
//!   [`crate::isa::implementation_of`] reports;
//! - `<Variant>::run(params, operands, output)`: one call of the variant's function, for the
//!   compiler's reference execution and every test adapter (no hand-written `match` over
//!   variants outside this table).

use crate::isa::HostSimd;

/// One operand of a variant's call, in the order the function takes them (after its params,
/// before its output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// The activation input (an arena range).
    Input,
    /// The model's filter (weights in flash), as the file stores it.
    Filter,
    /// The model's bias (`Option`: a layer may have none).
    Bias,
    /// The variant's compile-time table (`<Variant>::pack`: weights in its layout, folded
    /// bias, packed requantization).
    Packed,
}

/// One row of a variant table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantRow {
    /// The variant (`"Quad"`).
    pub variant: &'static str,
    /// Its public function (`"conv_2d_s8_quad"`), in its family's module.
    pub function: &'static str,
    /// What the function takes between its params and its output.
    pub operands: &'static [Operand],
    /// The host SIMD implementations it has, in the order it tries them (the instruction set
    /// each needs); none: the portable form everywhere.
    pub simd: &'static [HostSimd],
    /// Its portable form (what runs without those instruction sets), as written in the table.
    pub portable: &'static str,
    /// The packed table holds the requantization: the params' multiplier and shift tables
    /// are not read (the compiler emits them empty).
    pub packed_requant: bool,
    /// The function that runs a range of output rows (the overlapped row driver), if any.
    pub rows_function: Option<&'static str>,
}

/// The operands of one variant call ([`VariantRow::operands`] says which it reads): `A`
/// activations, `W` the model's weights, `B` its bias, `P` the packed table's element.
#[derive(Clone, Copy, Debug)]
pub struct Operands<'a, A, W, B, P> {
    /// The input.
    pub input: &'a [A],
    /// The model's filter.
    pub filter: &'a [W],
    /// The model's bias.
    pub bias: Option<&'a [B]>,
    /// The variant's packed table (empty for a variant without one).
    pub packed: &'a [P],
}

/// Every variant table of the runtime: `(family, rows)`.
pub const TABLES: &[(&str, &[VariantRow])] = &[
    ("conv_2d int8", crate::kernels::conv_2d::CONV_2D_S8),
    ("depthwise_conv_2d int8", crate::kernels::depthwise_conv_2d::DEPTHWISE_CONV_2D_S8),
    ("fully_connected int8", crate::kernels::fully_connected::FULLY_CONNECTED_S8),
    ("conv_2d float32", crate::kernels::conv_2d::CONV_2D_F32),
    ("depthwise_conv_2d float32", crate::kernels::depthwise_conv_2d::DEPTHWISE_CONV_2D_F32),
    ("fully_connected float32", crate::kernels::fully_connected::FULLY_CONNECTED_F32),
    ("conv_2d uint8", crate::kernels::conv_2d::CONV_2D_U8),
    ("depthwise_conv_2d uint8", crate::kernels::depthwise_conv_2d::DEPTHWISE_CONV_2D_U8),
];

/// The row whose function is `function`, in any table.
pub fn row_of_function(function: &str) -> Option<&'static VariantRow> {
    TABLES.iter().flat_map(|(_, rows)| rows.iter()).find(|r| r.function == function)
}

/// Writes a family's variant table: the public functions, `row()`, `run()` and the table
/// const. See the module documentation; `kernels/conv_2d/mod.rs` has an example.
///
/// ```text
/// variant_table! {
///     /// int8 CONV_2D's variants.
///     pub const CONV_2D_S8: Conv2dVariant(Conv2dParams<S8>; i8, i8, i32, i32) {
///         /// doc of the function
///         Quad => conv_2d_s8_quad(input, packed) simd [vnni avx2] conv_2d_s8_quad, portable quad::conv_quad;
///     }
/// }
/// ```
///
/// `simd [...]` lists the host forms, tried in order: `neon` (aarch64
/// `crate::arch::aarch64::<f>`), `neon_dotprod` (the same function, which takes `sdot` where
/// the CPU has it: listed, not dispatched), `vnni` (`crate::arch::x86_64::vnni::<f>`),
/// `avxvnni` (`crate::arch::x86_64::avxvnni::<f>`), `avx2` (`crate::arch::x86_64::<f>`);
/// for the float variants `f32_avx512` (`crate::arch::x86_64::f32::avx512::<f>`), `f32_avx2`
/// (`crate::arch::x86_64::f32::<f>`, AVX2+FMA) and `f32_neon` (`crate::arch::aarch64::f32::<f>`). `packed_requant` and `rows <f>` fill the row's fields.
macro_rules! variant_table {
    (
        $(#[$table_doc:meta])*
        pub const $table:ident: $enum:ident($params:ty; $act:ty, $w:ty, $b:ty, $p:ty) {
            $(
                $(#[$doc:meta])*
                $variant:ident => $func:ident($($operand:ident),*)
                    $(simd [$($simd:ident)*] $arch:ident,)?
                    portable $portable:expr
                    $(, packed_requant $pr:literal)?
                    $(, rows $rows:ident)?;
            )*
        }
    ) => {
        $(
            $(#[$doc])*
            pub fn $func(params: &$params, $($operand: $crate::variants::variant_table!(@ty $operand; $act, $w, $b, $p),)* output: &mut [$act]) {
                $crate::variants::variant_table!(@dispatch ($($($simd)*)?) ($($arch)?) (params, $($operand,)* output));
                ($portable)(params, $($operand,)* output)
            }
        )*

        $(#[$table_doc])*
        pub const $table: &[$crate::variants::VariantRow] = &[$(*$enum::$variant.row()),*];

        impl $enum {
            /// This variant's row of its family's table ([`crate::variants`]).
            pub const fn row(self) -> &'static $crate::variants::VariantRow {
                match self {
                    $(
                        $enum::$variant => &$crate::variants::VariantRow {
                            variant: stringify!($variant),
                            function: stringify!($func),
                            operands: &[$($crate::variants::variant_table!(@operand $operand)),*],
                            simd: &[$($($crate::variants::variant_table!(@isa $simd)),*)?],
                            portable: stringify!($portable),
                            packed_requant: $crate::variants::variant_table!(@or_false $($pr)?),
                            rows_function: $crate::variants::variant_table!(@rows $($rows)?),
                        },
                    )*
                }
            }

            /// Runs this variant's function: `params`, the operands its row lists, `output`.
            pub fn run(self, params: &$params, operands: $crate::variants::Operands<'_, $act, $w, $b, $p>, output: &mut [$act]) {
                match self {
                    $($enum::$variant => $func(params, $($crate::variants::variant_table!(@field operands $operand),)* output),)*
                }
            }
        }
    };
    (@ty input; $act:ty, $w:ty, $b:ty, $p:ty) => { &[$act] };
    (@ty filter; $act:ty, $w:ty, $b:ty, $p:ty) => { &[$w] };
    (@ty bias; $act:ty, $w:ty, $b:ty, $p:ty) => { Option<&[$b]> };
    (@ty packed; $act:ty, $w:ty, $b:ty, $p:ty) => { &[$p] };
    (@field $o:ident input) => { $o.input };
    (@field $o:ident filter) => { $o.filter };
    (@field $o:ident bias) => { $o.bias };
    (@field $o:ident packed) => { $o.packed };
    (@operand input) => { $crate::variants::Operand::Input };
    (@operand filter) => { $crate::variants::Operand::Filter };
    (@operand bias) => { $crate::variants::Operand::Bias };
    (@operand packed) => { $crate::variants::Operand::Packed };
    (@isa neon) => { $crate::isa::HostSimd::Neon };
    (@isa neon_dotprod) => { $crate::isa::HostSimd::NeonDotprod };
    (@isa vnni) => { $crate::isa::HostSimd::Avx512Vnni };
    (@isa avxvnni) => { $crate::isa::HostSimd::AvxVnni };
    (@isa avx2) => { $crate::isa::HostSimd::Avx2 };
    (@isa f32_avx512) => { $crate::isa::HostSimd::Avx512 };
    (@isa f32_avx2) => { $crate::isa::HostSimd::Avx2 };
    (@isa f32_neon) => { $crate::isa::HostSimd::Neon };
    (@or_false) => { false };
    (@or_false $v:literal) => { $v };
    (@rows) => { None };
    (@rows $f:ident) => { Some(stringify!($f)) };
    (@dispatch () () $args:tt) => {};
    (@dispatch ($($simd:ident)*) ($arch:ident) $args:tt) => {
        $( $crate::variants::variant_table!(@simd $simd $arch $args); )*
    };
    (@simd neon $f:ident $args:tt) => { $crate::isa::host_simd!(@neon $f $args); };
    // The NEON form itself takes `sdot` where the CPU has it.
    (@simd neon_dotprod $f:ident $args:tt) => {};
    (@simd vnni $f:ident $args:tt) => { $crate::isa::host_simd!(@vnni $f $args); };
    (@simd avxvnni $f:ident $args:tt) => { $crate::isa::host_simd!(@avxvnni $f $args); };
    (@simd avx2 $f:ident $args:tt) => { $crate::isa::host_simd!(@avx2 $f $args); };
    (@simd f32_avx512 $f:ident $args:tt) => { $crate::isa::host_simd!(@f32_avx512 $f $args); };
    (@simd f32_avx2 $f:ident $args:tt) => { $crate::isa::host_simd!(@f32_avx2 $f $args); };
    (@simd f32_neon $f:ident $args:tt) => { $crate::isa::host_simd!(@f32_neon $f $args); };
}
pub(crate) use variant_table;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row names its own variant and function once across all tables, and no function
    /// of a table is also in `isa::OTHER_SIMD_KERNELS` (one source per function).
    #[test]
    fn every_function_has_one_row() {
        let mut seen = std::vec::Vec::new();
        for (family, rows) in TABLES {
            assert!(!rows.is_empty(), "{family}");
            for row in rows.iter() {
                assert!(!seen.contains(&row.function), "{} is in two rows", row.function);
                seen.push(row.function);
                assert_eq!(row_of_function(row.function), Some(row));
                assert!(!crate::isa::OTHER_SIMD_KERNELS.iter().any(|(f, _)| *f == row.function), "{}", row.function);
                // A row-range function is the whole function's name with `_rows`.
                if let Some(r) = row.rows_function {
                    assert_eq!(r, std::format!("{}_rows", row.function));
                }
            }
        }
    }

    /// The tables say what the dispatch does: the x86-64 int8 forms the issue-15 kernels
    /// have, the float forms of the packed float variants.
    #[test]
    fn rows_list_their_host_forms() {
        use crate::isa::HostSimd::*;
        let forms = |f: &str| row_of_function(f).map(|r| r.simd).unwrap_or(&[]);
        assert_eq!(forms("conv_2d_s8_quad"), &[Avx512Vnni, AvxVnni, Avx2]);
        assert_eq!(forms("fully_connected_s8_quad"), &[Avx512Vnni, AvxVnni, Avx2]);
        assert_eq!(forms("conv_2d_s8_pointwise"), &[Neon, NeonDotprod, Avx512Vnni, Avx2]);
        assert_eq!(forms("conv_2d_s8_gemm"), &[]);
        assert_eq!(forms("fully_connected_s8_dot4"), &[Neon, NeonDotprod, Avx512Vnni, Avx2]);
        assert_eq!(forms("conv_2d_f32_packed"), &[Avx512, Avx2, Neon]);
        assert_eq!(forms("fully_connected_f32_blocked"), &[]);
        let blocked = row_of_function("conv_2d_f32_blocked").map(|r| r.operands);
        assert_eq!(blocked, Some(&[Operand::Input, Operand::Packed, Operand::Bias][..]));
        let quad = row_of_function("conv_2d_s8_quad").map(|r| r.operands);
        assert_eq!(quad, Some(&[Operand::Input, Operand::Packed][..]));
    }
}
