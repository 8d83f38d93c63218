//! The expansion behind `include_model!` (`tflc-macros` is a thin shim over this).
//!
//! The path is resolved against `CARGO_MANIFEST_DIR`; errors carry the absolute path tried
//! and the compiler's message, and point at the string literal. The expansion includes
//! `const _: &[u8] = include_bytes!(<abs path>);` so that cargo rebuilds the crate when the
//! model changes. Nothing is written to disk.

use crate::pipeline::{compile, CompileOptions};
use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use std::path::{Path, PathBuf};

/// The optional arguments of `include_model!` after the path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MacroOptions {
    /// `max_arena = "48K"`: [`CompileOptions::max_arena`].
    pub max_arena: Option<u64>,
    /// `keep_f16_weights = true`: [`CompileOptions::keep_f16_weights`].
    pub keep_f16_weights: bool,
    /// `decode_weights = true`: [`CompileOptions::decode_weights`].
    pub decode_weights: bool,
    /// `pools = "dtcm=16K, sram"`: [`CompileOptions::pools`], fastest first; with
    /// `pool_sections = "dtcm=.dtcm"`, their linker sections.
    pub pools: Vec<crate::plan::pools::PoolSpec>,
    /// `custom_scratch = "MyOp=256, Other=1K"`: [`CompileOptions::custom_scratch`].
    pub custom_scratch: std::collections::BTreeMap<String, usize>,
    /// `custom_kernels = "Convolution2DTransposeBias, ..."`: [`CompileOptions::custom_kernels`].
    pub custom_kernels: std::collections::BTreeSet<String>,
}

impl MacroOptions {
    /// Parses `pools = "dtcm=16K, sram"` (as `--pool`, comma-separated).
    pub fn parse_pools(&mut self, list: &str) -> Result<(), String> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            self.pools.push(crate::plan::pools::PoolSpec::parse(item)?);
        }
        crate::plan::pools::check_specs(&self.pools)
    }

    /// Parses `custom_scratch = "MyOp=256, Other=1K"` (as `--custom-scratch`,
    /// comma-separated).
    pub fn parse_custom_scratch(&mut self, list: &str) -> Result<(), String> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, bytes) = CompileOptions::parse_custom_scratch(item)?;
            self.custom_scratch.insert(name, bytes);
        }
        Ok(())
    }

    /// Parses `custom_kernels = "A, B"` (as `--custom-kernel`, comma-separated).
    pub fn parse_custom_kernels(&mut self, list: &str) -> Result<(), String> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            self.custom_kernels.insert(item.to_owned());
        }
        Ok(())
    }

    /// Parses `pool_sections = "dtcm=.dtcm"` (as `--pool-section`, comma-separated), after
    /// `pools`.
    pub fn parse_pool_sections(&mut self, list: &str) -> Result<(), String> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((name, section)) = item.split_once('=') else {
                return Err(format!("pool_sections: `{item}`: expected NAME=SECTION, e.g. dtcm=.dtcm"));
            };
            let Some(p) = self.pools.iter_mut().find(|p| p.name == name.trim()) else {
                return Err(format!("pool_sections: no pool `{}` (list it in `pools` first)", name.trim()));
            };
            p.section = Some(section.trim().to_owned());
        }
        Ok(())
    }
}

/// Expands `include_model!(path, options…)`; `Err` holds the message for `compile_error!`.
pub fn expand(path: &str, span: Span, options: &MacroOptions) -> Result<TokenStream, String> {
    let rel = Path::new(path);
    if rel.is_absolute() {
        return Err(format!("include_model!: the path must be relative to the crate root (CARGO_MANIFEST_DIR), not absolute: {path}"));
    }
    let root = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
    let abs = root.join(rel);
    let bytes = std::fs::read(&abs).map_err(|e| format!("include_model!: cannot read {}: {e}", abs.display()))?;
    let opts = CompileOptions {
        model_name: rel.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        max_arena: options.max_arena,
        keep_f16_weights: options.keep_f16_weights,
        decode_weights: options.decode_weights,
        pools: options.pools.clone(),
        custom_scratch: options.custom_scratch.clone(),
        custom_kernels: options.custom_kernels.clone(),
        ..CompileOptions::default()
    };
    let compiled = compile(&bytes, &opts).map_err(|e| format!("include_model!: {}: {e}", abs.display()))?;
    let code: TokenStream = compiled
        .code
        .parse()
        .map_err(|e| format!("include_model!: generated code does not tokenize: {e}"))?;
    let abs_str = abs.display().to_string();
    let track = quote_spanned! {span=> const _: &[u8] = include_bytes!(#abs_str); };
    Ok(quote::quote! { #track #code })
}
