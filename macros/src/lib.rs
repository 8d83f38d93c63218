//! `include_model!`: a thin shim over `tflc::macro_support`.
