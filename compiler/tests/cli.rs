//! CLI golden tests: every `tests/cli/*.test` file lists commands (`RUN: tflc …`) and, after
//! `=== transcript`, what they print and the exit status. `BLESS=1 cargo test -p tflc --test
//! cli` rewrites the transcripts; review the diff.
//!
//! Directives (one per line, before the transcript):
//! - `RUN: tflc ARGS…`: run the `tflc` binary (arguments split at spaces);
//! - `FILE: NAME = zeros(N)`: create a file of N zero bytes in the case's scratch directory;
//! - `FILE: NAME = npy(DESCR SHAPE ELEM_BYTES)`, e.g. `npy(|i1 (1, 12, 12, 1) 1)`: a `.npy`
//!   file of zeros as NumPy 1.x writes it;
//! - `GREP: NAME TEXT`: print the lines of file NAME (in the scratch directory) that contain
//!   TEXT (the rest of the line), as `$ grep TEXT NAME`;
//! - lines starting with `#` are comments.
//!
//! In arguments, `{model:NAME}` is the builder model `tflc::internal::testing::models::NAME()` written
//! to a file, and `{tmp}` the case's scratch directory; both are printed as `$MODELS` and
//! `$TMP` in the transcript. Timings (`in 0.1 ms`) print as `in <t> ms`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn model_bytes(name: &str) -> Option<Vec<u8>> {
    use tflc::internal::testing::models as m;
    Some(match name {
        "tiny_cnn" => m::tiny_cnn(),
        "conv_same_relu" => m::conv_same_relu(),
        "data_movement" => m::data_movement(),
        "elementwise" => m::elementwise(),
        "in_place" => m::in_place(),
        "svdf_state" => m::svdf_state(),
        "int16_ds" => m::int16_ds(),
        "unsupported_custom_op" => m::unsupported_custom_op(),
        "custom_ops" => m::custom_ops(),
        "dynamic_custom_op" => m::dynamic_custom_op(),
        "short_custom_options" => m::short_custom_options(),
        "control_call_once" => m::control_call_once(),
        "control_while_if" => m::control_while_if(),
        "control_while_var" => m::control_while_var(),
        "control_while_svdf" => m::control_while_svdf(),
        _ => return None,
    })
}

/// Replaces `{model:NAME}` and `{tmp}` in `arg`.
fn expand(arg: &str, models: &Path, tmp: &Path) -> String {
    let mut out = arg.replace("{tmp}", &tmp.display().to_string());
    while let Some(start) = out.find("{model:") {
        let end = out[start..].find('}').map(|e| start + e).unwrap_or(out.len() - 1);
        let name = &out[start + 7..end];
        let bytes = model_bytes(name).unwrap_or_else(|| panic!("unknown builder model {name}"));
        let path = models.join(format!("{name}.tflite"));
        std::fs::write(&path, bytes).unwrap();
        out.replace_range(start..=end, &path.display().to_string());
    }
    out
}

/// Output with the scratch paths and timings made stable.
fn normalize(s: &str, models: &Path, tmp: &Path) -> String {
    let mut s = s.replace(&tmp.display().to_string(), "$TMP").replace(&models.display().to_string(), "$MODELS");
    // `in 12.3 ms` -> `in <t> ms`.
    let mut out = String::new();
    while let Some(i) = s.find(" in ") {
        let rest = &s[i + 4..];
        let num = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        if num > 0 && rest[num..].starts_with(" ms") {
            out.push_str(&s[..i]);
            out.push_str(" in <t>");
            s = rest[num..].to_string();
        } else {
            out.push_str(&s[..i + 4]);
            s = rest.to_string();
        }
    }
    out.push_str(&s);
    out
}

/// The bytes of a `FILE:` directive's value.
fn file_contents(what: &str) -> Vec<u8> {
    if let Some(n) = what.strip_prefix("zeros(").and_then(|s| s.strip_suffix(')')) {
        return vec![0; n.parse().expect("zeros(N)")];
    }
    let spec = what.strip_prefix("npy(").and_then(|s| s.strip_suffix(')')).expect("zeros(N) or npy(DESCR SHAPE ELEM_BYTES)");
    let (descr, rest) = spec.split_once(' ').expect("npy(DESCR SHAPE ELEM_BYTES)");
    let (shape, elem) = rest.rsplit_once(' ').expect("npy(DESCR SHAPE ELEM_BYTES)");
    let elems: usize = shape.trim_matches(|c| c == '(' || c == ')').split(',').filter_map(|d| d.trim().parse::<usize>().ok()).product();
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.resize(out.len() + elems * elem.parse::<usize>().expect("ELEM_BYTES"), 0);
    out
}

fn run_case(path: &Path, models: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).unwrap();
    let (header, _) = text.split_once("=== transcript\n").unwrap_or((&text, ""));
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli").join(path.file_stem().unwrap());
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let mut transcript = String::new();
    for line in header.lines() {
        if let Some(spec) = line.strip_prefix("FILE: ") {
            let (name, what) = spec.split_once(" = ").expect("FILE: NAME = zeros(N) | npy(…)");
            std::fs::write(tmp.join(name.trim()), file_contents(what.trim())).unwrap();
        } else if let Some(spec) = line.strip_prefix("GREP: ") {
            let (name, text) = spec.split_once(' ').expect("GREP: NAME TEXT");
            let contents = std::fs::read_to_string(tmp.join(name)).unwrap_or_default();
            transcript.push_str(&format!("$ grep {text} {name}\n"));
            for l in contents.lines().filter(|l| l.contains(text)) {
                transcript.push_str(&normalize(l, models, &tmp));
                transcript.push('\n');
            }
        } else if let Some(cmd) = line.strip_prefix("RUN: ") {
            let args: Vec<String> = cmd.split_whitespace().skip(1).map(|a| expand(a, models, &tmp)).collect();
            let out = Command::new(env!("CARGO_BIN_EXE_tflc")).args(&args).output().unwrap();
            transcript.push_str(&format!("$ {cmd}\n"));
            transcript.push_str(&normalize(&String::from_utf8_lossy(&out.stdout), models, &tmp));
            let stderr = String::from_utf8_lossy(&out.stderr);
            if !stderr.is_empty() {
                transcript.push_str("--- stderr\n");
                transcript.push_str(&normalize(&stderr, models, &tmp));
            }
            transcript.push_str(&format!("--- status {}\n", out.status.code().unwrap_or(-1)));
        }
    }
    (header.to_string(), transcript)
}

#[test]
fn cli_golden() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let models = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-models");
    std::fs::create_dir_all(&models).unwrap();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "test")).collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in {}", dir.display());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failed = Vec::new();
    for case in &cases {
        let (header, transcript) = run_case(case, &models);
        let expected = std::fs::read_to_string(case).unwrap();
        let actual = format!("{header}=== transcript\n{transcript}");
        if actual != expected {
            if bless {
                std::fs::write(case, &actual).unwrap();
            } else {
                eprintln!("--- {} differs; got:\n{actual}", case.display());
                failed.push(case.display().to_string());
            }
        }
    }
    assert!(failed.is_empty(), "CLI transcripts differ (BLESS=1 to accept): {failed:?}");
}
