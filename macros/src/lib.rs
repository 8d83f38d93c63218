//! `include_model!("path/to/model.tflite")`: compiles a TensorFlow Lite model into Rust
//! items at build time. The path is relative to the crate root (`CARGO_MANIFEST_DIR`); the
//! crate rebuilds when the model changes; errors point at the string literal.
//!
//! ```
//! mod conv {
//!     // A CONV_2D model shipped with this crate's tests.
//!     tflc_macros::include_model!("tests/ui/models/conv.tflite");
//! }
//!
//! let mut m = conv::Model::new();
//! m.input_0().fill(3);
//! m.run();
//! let out: &[i8; 140] = m.output_0();
//! assert_eq!(out.len(), conv::OUTPUT_0_SHAPE.iter().product::<usize>());
//! ```
//!
//! Optional arguments after the path:
//! - `max_arena = "48K"` (or a byte count, `max_arena = 49152`): the build fails when the
//!   model's arena needs more, naming the peak step and the tensors live there.
//! - `pools = "dtcm=16K, sram"`: several memory pools, fastest first (as `tflc --pool`): every
//!   tensor in one pool, the hottest bytes in the fastest pool they fit, one arena per pool in
//!   the `Model`; `pool_sections = "dtcm=.dtcm"` puts a pool's arena in a linker section.
//! - `custom_scratch = "MyOp=256"`: arena scratch bytes for the kernel of custom operator
//!   `MyOp`, which the generated `CustomOps` trait passes it as `scratch: &mut [u8]` (a model
//!   with custom operators tflc has no kernel for asks the caller for them: its
//!   `run(&mut ops)` takes an implementation of that trait; see `docs/CUSTOM_OPS.md`).
//! - `custom_kernels = "Convolution2DTransposeBias"`: your own kernel for a custom operator
//!   tflc has a built-in kernel for (MediaPipe's): its operators go to the `CustomOps` trait
//!   instead (as `tflc --custom-kernel`).
//! - `keep_f16_weights = true`: a float16-weight model keeps its convolution and
//!   fully-connected weights in flash as float16, widened exactly in the kernel (Arm builds;
//!   half the weight bytes, the same outputs).
//! - `decode_weights = true`: TFLite Micro's compressed weights (TFLM_DECODE) are decoded
//!   at compile time into plain int8 in flash (faster kernels, larger firmware); by default
//!   LUT-compressed filters stay compressed and the kernels decode them (the same outputs);
//!   it also unpacks int4 filters, which Arm and RV32 builds otherwise keep packed.
//!
//! The generated code calls `::tflc_runtime`, so the crate depends on `tflc-runtime`.

#![warn(missing_docs)]

use proc_macro::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::{parse_macro_input, Ident, Lit, LitStr, Token};

/// `"path" (, name = value)*`.
struct Args {
    path: LitStr,
    options: tflc::internal::macro_support::MacroOptions,
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let path: LitStr = input.parse()?;
        let mut options = tflc::internal::macro_support::MacroOptions::default();
        while input.parse::<Option<Token![,]>>()?.is_some() {
            if input.is_empty() {
                break;
            }
            let name: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let value: Lit = input.parse()?;
            match name.to_string().as_str() {
                "max_arena" => {
                    let bytes = match &value {
                        Lit::Int(i) => i.base10_parse::<u64>()?,
                        Lit::Str(s) => tflc::internal::plan::budget::parse_size(&s.value()).map_err(|e| syn::Error::new(s.span(), e))?,
                        _ => return Err(syn::Error::new(value.span(), "max_arena: expected a byte count or a string such as \"48K\"")),
                    };
                    options.max_arena = Some(bytes);
                }
                "keep_f16_weights" => match &value {
                    Lit::Bool(b) => options.keep_f16_weights = b.value,
                    _ => return Err(syn::Error::new(value.span(), "keep_f16_weights: expected true or false")),
                },
                "decode_weights" => match &value {
                    Lit::Bool(b) => options.decode_weights = b.value,
                    _ => return Err(syn::Error::new(value.span(), "decode_weights: expected true or false")),
                },
                "pools" | "pool_sections" => {
                    let Lit::Str(text) = &value else {
                        return Err(syn::Error::new(value.span(), format!("{name}: expected a string such as \"dtcm=16K, sram\"")));
                    };
                    let parsed = if name == "pools" { options.parse_pools(&text.value()) } else { options.parse_pool_sections(&text.value()) };
                    parsed.map_err(|e| syn::Error::new(text.span(), e))?;
                }
                "custom_scratch" => {
                    let Lit::Str(text) = &value else {
                        return Err(syn::Error::new(value.span(), "custom_scratch: expected a string such as \"MyOp=256, Other=1K\""));
                    };
                    options.parse_custom_scratch(&text.value()).map_err(|e| syn::Error::new(text.span(), e))?;
                }
                "custom_kernels" => {
                    let Lit::Str(text) = &value else {
                        return Err(syn::Error::new(value.span(), "custom_kernels: expected a string such as \"Convolution2DTransposeBias, MaxUnpooling2D\""));
                    };
                    options.parse_custom_kernels(&text.value()).map_err(|e| syn::Error::new(text.span(), e))?;
                }
                other => {
                    return Err(syn::Error::new(
                        name.span(),
                        format!("include_model!: unknown option `{other}` (known: max_arena, keep_f16_weights, decode_weights, pools, pool_sections, custom_scratch, custom_kernels)"),
                    ))
                }
            }
        }
        Ok(Args { path, options })
    }
}

/// Expands to the items of the compiled model: `ARENA_BYTES`, the input and output shape
/// constants and a `Model` with `new()`, `run()`, `run_with(&mut observer)` and one accessor
/// per input and output (`input_0()`, `output_0()`, ...). The first argument is a string
/// literal path relative to `CARGO_MANIFEST_DIR`; the options are described on the
/// [crate page](crate). A model that cannot be compiled is a compile error at the path,
/// naming the operator, opcode and tensor at fault.
#[proc_macro]
pub fn include_model(input: TokenStream) -> TokenStream {
    let args = parse_macro_input!(input as Args);
    match tflc::internal::macro_support::expand(&args.path.value(), args.path.span(), &args.options) {
        Ok(tokens) => tokens.into(),
        Err(msg) => syn::Error::new(args.path.span(), msg).to_compile_error().into(),
    }
}
