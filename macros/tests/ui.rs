//! `include_model!` UI tests (trybuild): each error points at the string literal and
//! carries the compiler's message; a good model compiles and runs.
//!
//! trybuild builds the cases in `target/tests/trybuild/tflc-macros`, which is the
//! `CARGO_MANIFEST_DIR` the macro resolves against; the model paths climb back to the
//! repository from there.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/missing_file.rs");
    t.compile_fail("tests/ui/custom_op.rs");
    t.compile_fail("tests/ui/int16_conv.rs");
    t.compile_fail("tests/ui/not_a_literal.rs");
    t.compile_fail("tests/ui/absolute_path.rs");
    t.compile_fail("tests/ui/max_arena.rs");
    t.compile_fail("tests/ui/bad_option.rs");
    t.pass("tests/ui/conv_runs.rs");
    t.pass("tests/ui/custom_ops_run.rs");
}
