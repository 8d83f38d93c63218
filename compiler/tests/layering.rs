//! The phases import only downwards (issue 27, point 4; ARCHITECTURE.md, "Invariants").
//!
//! Every file of the library is parsed with `syn`; every path that starts with `crate::` (in
//! `use` items and in expressions, types and patterns) names the top-level module it reaches.
//! A module may reach only the modules [`ALLOWED`] lists for it, or itself.
//! Items under `#[cfg(test)]` are skipped: unit tests may build models with the builder and
//! run the whole pipeline. Doc links are attributes, not paths, and are not imports.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The phase order as ARCHITECTURE.md states it: each module and the modules it may import.
/// Nothing imports a module that lists it (directly or not), so the phases have no cycles.
const ALLOWED: &[(&str, &[&str])] = &[
    // Typed indices, the IR and its vocabulary (`ir::memory`: what lowering declares and
    // the planner realises, as plain data).
    ("index", &[]),
    ("ir", &["index"]),
    ("text", &["index", "ir"]),
    // Reading the file: flatbuffers in, IR out.
    ("tflite", &["index", "ir", "text"]),
    // The memory planner and the scheduler: plain data in, plan out.
    ("schedule", &["index", "ir", "text"]),
    ("plan", &["index", "ir", "text", "schedule"]),
    // Token emission helpers; lowering (kernels, capabilities, each call's tokens; custom
    // options through the reader's flexbuffers decoder, `tflite::flexbuffers`).
    ("emit", &["index", "ir", "text"]),
    ("lower", &["index", "ir", "text", "emit", "tflite"]),
    // Graph passes read the model, evaluate kernels to fold constants and size state tensors.
    ("passes", &["index", "ir", "text", "emit", "tflite", "lower"]),
    // Consumers of the lowered graph and its plan.
    ("codegen", &["index", "ir", "text", "emit", "lower", "passes", "plan", "schedule"]),
    ("inspect", &["index", "ir", "text", "emit", "lower", "passes", "plan", "schedule", "tflite"]),
    ("interp", &["index", "ir", "text", "emit", "lower", "passes"]),
    // The phases in order.
    ("pipeline", &["index", "ir", "text", "emit", "lower", "passes", "plan", "schedule", "tflite", "codegen", "inspect", "interp"]),
    ("config", &["index", "ir", "text", "plan", "emit", "pipeline"]),
    ("macro_support", &["index", "ir", "text", "plan", "emit", "pipeline", "config"]),
    // Support for tests and fuzzers may use anything.
    ("testing", &["*"]),
    ("fuzzing", &["*"]),
];

/// `error` is the crate's error union: it names each phase's error type (`PlanError`,
/// `OverBudget`, ...) and every phase returns it, so it is outside the order. `lib.rs`
/// declares the modules and re-exports the API.
const OUTSIDE: &[&str] = &["error", "lib"];

fn allowed(module: &str) -> Option<&'static [&'static str]> {
    ALLOWED.iter().find(|(m, _)| *m == module).map(|(_, a)| *a)
}

/// The top-level module a file of `src/` belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let first = rel.components().next().map(|c| c.as_os_str().to_string_lossy().into_owned()).unwrap_or_default();
    first.trim_end_matches(".rs").to_owned()
}

fn is_test_cfg(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let tokens = a.meta.require_list().map(|l| l.tokens.to_string()).unwrap_or_default();
            tokens.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "test")
        }
    })
}

/// Every `crate::<module>` the file reaches, with a line for the report.
#[derive(Default)]
struct Imports {
    found: BTreeSet<(String, usize)>,
}

impl Imports {
    fn add(&mut self, first: &syn::Ident, second: Option<&syn::Ident>) {
        if first == "crate" {
            if let Some(m) = second {
                self.found.insert((m.to_string(), m.span().start().line));
            }
        }
    }

    fn use_tree(&mut self, tree: &syn::UseTree) {
        if let syn::UseTree::Path(p) = tree {
            if p.ident == "crate" {
                self.crate_tree(&p.tree);
            }
        }
    }

    fn crate_tree(&mut self, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                self.found.insert((p.ident.to_string(), p.ident.span().start().line));
            }
            syn::UseTree::Name(n) => {
                self.found.insert((n.ident.to_string(), n.ident.span().start().line));
            }
            syn::UseTree::Rename(r) => {
                self.found.insert((r.ident.to_string(), r.ident.span().start().line));
            }
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.crate_tree(t)),
            syn::UseTree::Glob(_) => {}
        }
    }
}

impl<'ast> Visit<'ast> for Imports {
    fn visit_item(&mut self, i: &'ast syn::Item) {
        let attrs = match i {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(x) => &x.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Macro(m) => &m.attrs,
            syn::Item::Trait(t) => &t.attrs,
            syn::Item::Type(t) => &t.attrs,
            _ => return syn::visit::visit_item(self, i),
        };
        if !is_test_cfg(attrs) {
            syn::visit::visit_item(self, i);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_cfg(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let mut segs = p.segments.iter();
        if let Some(first) = segs.next() {
            self.add(&first.ident, segs.next().map(|s| &s.ident));
        }
        syn::visit::visit_path(self, p);
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bin") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of modules declared `#[cfg(test)] mod name;` (unit-test helpers and suites).
fn test_only_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for file in files {
        let Ok(ast) = syn::parse_file(&std::fs::read_to_string(file).unwrap_or_default()) else { continue };
        let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(dir) = file.parent() else { continue };
        // `foo.rs` declares its children in `foo/`; `mod.rs` and `lib.rs` in their own folder.
        let base = if stem == "mod" || stem == "lib" { dir.to_path_buf() } else { dir.join(&stem) };
        for item in &ast.items {
            if let syn::Item::Mod(m) = item {
                if m.content.is_none() && is_test_cfg(&m.attrs) {
                    out.insert(base.join(format!("{}.rs", m.ident)));
                    out.insert(base.join(m.ident.to_string()).join("mod.rs"));
                }
            }
        }
    }
    out
}

/// Every import of one top-level module from another, as `(from, to, file:line)`.
fn imports() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let tests_only = test_only_files(&files);
    let mut out = Vec::new();
    for file in files {
        if tests_only.contains(&file) {
            continue;
        }
        let from = module_of(&src, &file);
        // The flatbuffers bindings are generated (flatc) and import nothing of ours.
        if file.ends_with("schema_generated.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read file");
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut v = Imports::default();
        v.visit_file(&ast);
        for (to, line) in v.found {
            if to != from {
                out.push((from.clone(), to, format!("{}:{line}", file.strip_prefix(&src).unwrap_or(&file).display())));
            }
        }
    }
    out
}

#[test]
fn every_module_is_in_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let unknown: BTreeSet<String> =
        files.iter().map(|f| module_of(&src, f)).filter(|m| allowed(m).is_none() && !OUTSIDE.contains(&m.as_str())).collect();
    assert!(unknown.is_empty(), "modules missing from ALLOWED (add each where it belongs in the phase order): {unknown:?}");
}

#[test]
fn no_import_points_back_up_the_phases() {
    let mut back = Vec::new();
    for (from, to, at) in imports() {
        // Items re-exported by lib.rs (`crate::Error`, `crate::compile`) are named by what
        // they re-export: `Error`/`Result`/`*Error` are the error union, the rest the pipeline.
        let to = match to.as_str() {
            "Error" | "Result" | "LowerError" | "ParseError" | "OptionsError" => "error".to_owned(),
            "compile" | "compile_models" | "CompileOptions" | "Compiled" | "CompiledModels" => "pipeline".to_owned(),
            "Config" | "write_if_changed" => "config".to_owned(),
            "runtime_struct_lit" => "emit".to_owned(),
            "define_index" => "index".to_owned(),
            _ => to,
        };
        if OUTSIDE.contains(&from.as_str()) || OUTSIDE.contains(&to.as_str()) {
            continue;
        }
        let Some(ok) = allowed(&from) else {
            back.push(format!("{at}: {from} -> {to} ({from} is missing from ALLOWED)"));
            continue;
        };
        if !ok.contains(&"*") && !ok.contains(&to.as_str()) {
            back.push(format!("{at}: {from} imports {to}, which the phase order does not allow it"));
        }
    }
    assert!(back.is_empty(), "imports that point back up the phase order (ARCHITECTURE.md):\n{}", back.join("\n"));
}
