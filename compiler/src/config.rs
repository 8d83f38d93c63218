//! `Config`: compiling models from a build script into `OUT_DIR`.
//!
//! ```no_run
//! // build.rs
//! # fn build() -> Result<(), tflc::Error> {
//! let out_dir = std::env::var("OUT_DIR").unwrap_or_default();
//! tflc::Config::new().model("models/kws.tflite").compile_to(out_dir)?;
//! # Ok(()) }
//! // src/lib.rs: mod kws { include!(concat!(env!("OUT_DIR"), "/kws.rs")); }
//! ```

use crate::error::Error;
use crate::pipeline::{compile, CompileOptions};
use std::path::{Path, PathBuf};

/// Which models to compile, and how.
#[derive(Debug, Clone, Default)]
pub struct Config {
    models: Vec<PathBuf>,
    options: CompileOptions,
    quiet: bool,
    /// `Some(name)`: every model in one module `<name>.rs`, sharing one arena.
    shared: Option<String>,
    /// `(pool, section)` from [`Config::pool_section`].
    pool_sections: Vec<(String, String)>,
}

impl Config {
    /// A configuration with no models and the defaults of [`CompileOptions`](crate::CompileOptions).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a model; its module is written as `<file stem>.rs`.
    pub fn model(mut self, path: impl AsRef<Path>) -> Self {
        self.models.push(path.as_ref().to_owned());
        self
    }

    /// The runtime crate's path in the generated code (default `::tflc_runtime`).
    pub fn runtime_path(mut self, path: &str) -> Self {
        self.options.runtime_path = path.to_owned();
        self
    }

    /// Alignment of the arena and every buffer in it, and of the weight blob and every
    /// weight in it (default 16; a power of two up to 4096).
    pub fn align(mut self, align: usize) -> Self {
        self.options.align = align;
        self
    }

    /// Fail when a model's arena needs more than `bytes` ([`Error::OverBudget`] names the peak
    /// step and the tensors live there; see [`CompileOptions::max_arena`]).
    pub fn max_arena(mut self, bytes: u64) -> Self {
        self.options.max_arena = Some(bytes);
        self
    }

    /// Add a memory pool, fastest first (`.pool("dtcm", Some(16 << 10)).pool("sram", None)`;
    /// only the last may be unbounded): the planner puts every tensor in one pool, the hottest
    /// bytes in the fastest pool they fit, and the generated `Model` holds one arena per pool
    /// (see [`CompileOptions::pools`] and `docs/PLANNER.md`).
    pub fn pool(mut self, name: &str, bytes: Option<u64>) -> Self {
        self.options.pools.push(crate::plan::pools::PoolSpec { name: name.to_owned(), bytes, section: None });
        self
    }

    /// Put the arena of pool `name` (added with [`Config::pool`]) in linker section
    /// `section` (`.dtcm`): the generated `Model` then borrows that arena, which the caller
    /// declares as a `#[link_section]` static (the generated docs show how). A name that no
    /// pool has is an error when compiling.
    pub fn pool_section(mut self, name: &str, section: &str) -> Self {
        self.pool_sections.push((name.to_owned(), section.to_owned()));
        self
    }

    /// Keep float16 weights in flash as float16 and widen them in the kernel (see
    /// [`CompileOptions::keep_f16_weights`]): for flash-bound targets.
    pub fn keep_f16_weights(mut self, keep: bool) -> Self {
        self.options.keep_f16_weights = keep;
        self
    }

    /// Decode TFLite Micro's compressed weights at compile time into plain int8 in flash (see
    /// [`CompileOptions::decode_weights`]): faster kernels, larger firmware. Off by default
    /// (LUT-compressed filters stay compressed and the kernels decode them; int4 filters stay
    /// packed in Arm and RV32 builds and the kernels unpack them).
    pub fn decode_weights(mut self, decode: bool) -> Self {
        self.options.decode_weights = decode;
        self
    }

    /// Give the kernel of custom operator `name` (its custom code) `bytes` of arena scratch,
    /// live during each of its calls only, as its method's `scratch: &mut [u8]`
    /// ([`CompileOptions::custom_scratch`], `docs/CUSTOM_OPS.md`; `--custom-scratch NAME=BYTES`).
    pub fn custom_scratch(mut self, name: &str, bytes: usize) -> Self {
        self.options.custom_scratch.insert(name.to_owned(), bytes);
        self
    }

    /// Supplies your own kernel for custom operator `name`, which tflc has a built-in kernel
    /// for (MediaPipe's): its operators go to the generated `CustomOps` trait
    /// ([`CompileOptions::custom_kernels`], `docs/CUSTOM_OPS.md`; `--custom-kernel NAME`).
    pub fn custom_kernel(mut self, name: &str) -> Self {
        self.options.custom_kernels.insert(name.to_owned());
        self
    }

    /// Do not print `cargo:rerun-if-changed` lines (when not run from a build script).
    pub fn quiet(mut self, quiet: bool) -> Self {
        self.quiet = quiet;
        self
    }

    /// Compile every model into one module, `<name>.rs`, whose models share one arena
    /// ([`crate::compile_models`]): they never run at the same time; each keeps its inputs,
    /// outputs and state between its runs; `Models::run_<model>()` runs one.
    pub fn shared_arena(mut self, name: &str) -> Self {
        self.shared = Some(name.to_owned());
        self
    }

    /// Compiles every model into `out_dir`, writing only files whose content changed, and
    /// returns the written paths.
    pub fn compile_to(&self, out_dir: impl AsRef<Path>) -> Result<Vec<PathBuf>, Error> {
        let out_dir = out_dir.as_ref();
        let mut written = Vec::new();
        let mut options = self.options.clone();
        for (name, section) in &self.pool_sections {
            let Some(p) = options.pools.iter_mut().find(|p| &p.name == name) else {
                return Err(crate::error::OptionsError::PoolSection { name: name.clone() }.into());
            };
            p.section = Some(section.clone());
        }
        if let Some(name) = &self.shared {
            let mut models = Vec::new();
            for model in &self.models {
                if !self.quiet {
                    println!("cargo:rerun-if-changed={}", model.display());
                }
                let bytes = std::fs::read(model).map_err(|e| Error::Io { path: model.display().to_string(), source: e })?;
                models.push((file_name(model), bytes));
            }
            let compiled = crate::pipeline::compile_models(&models, &options)?;
            let out = out_dir.join(format!("{name}.rs"));
            write_if_changed(&out, compiled.code.as_bytes())?;
            written.push(out);
            return Ok(written);
        }
        for model in &self.models {
            if !self.quiet {
                println!("cargo:rerun-if-changed={}", model.display());
            }
            let bytes = std::fs::read(model).map_err(|e| Error::Io { path: model.display().to_string(), source: e })?;
            let mut opts = options.clone();
            opts.model_name = file_name(model);
            let compiled = compile(&bytes, &opts)?;
            let stem = model.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "model".into());
            let out = out_dir.join(format!("{stem}.rs"));
            write_if_changed(&out, compiled.code.as_bytes())?;
            written.push(out);
        }
        Ok(written)
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Writes `bytes` unless the file already holds them (keeps mtimes stable for cargo).
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|e| Error::Io { path: path.display().to_string(), source: e })
}
