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
//! The generated code calls `::tflc_runtime`, so the crate depends on `tflc-runtime`.

use proc_macro::TokenStream;
use syn::{parse_macro_input, LitStr};

#[proc_macro]
pub fn include_model(input: TokenStream) -> TokenStream {
    let lit = parse_macro_input!(input as LitStr);
    match tflc::macro_support::expand(&lit.value(), lit.span()) {
        Ok(tokens) => tokens.into(),
        Err(msg) => syn::Error::new(lit.span(), msg).to_compile_error().into(),
    }
}
