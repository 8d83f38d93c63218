//! Shared support for the integration and conformance suites: the golden data format of
//! `../shared/golden/<model>/` and `../shared/ops/golden/<model>/` (see `../shared/README.md`).

use serde_json::Value;
use std::path::{Path, PathBuf};

pub use tflc::internal::testing::{corpus_models, missing_shared, model_name, shared_dir, shared_dir_or_skip, tflite_files};

/// A model with its golden folder.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub model: PathBuf,
    pub golden: Golden,
}

/// One golden folder: `index.json` and the `.bin` files it names.
#[derive(Debug, Clone)]
pub struct Golden {
    pub dir: PathBuf,
    pub index: Value,
}

/// A tensor's golden bytes with the metadata `index.json` gives.
#[derive(Debug, Clone)]
pub struct GoldenTensor {
    pub tensor: usize,
    pub dtype: String,
    pub shape: Vec<usize>,
    pub bytes: Vec<u8>,
}

impl Golden {
    pub fn load(dir: &Path) -> Option<Golden> {
        let text = std::fs::read_to_string(dir.join("index.json")).ok()?;
        let index = serde_json::from_str(&text).ok()?;
        Some(Golden { dir: dir.to_owned(), index })
    }

    /// True when every non-constant tensor's run-0 value is written (`t<i>.bin`).
    pub fn has_intermediates(&self) -> bool {
        self.index["intermediates_written"].as_bool().unwrap_or(false)
    }

    /// Who produced the data (TFLite Micro, or TFLite's reference kernels where the op
    /// README says TFLite Micro is wrong).
    pub fn oracle(&self) -> String {
        self.index["oracle"].as_str().unwrap_or("").to_owned()
    }

    fn read(&self, entry: &Value) -> Option<GoldenTensor> {
        let file = entry["file"].as_str()?;
        let bytes = std::fs::read(self.dir.join(file)).ok()?;
        Some(GoldenTensor {
            tensor: entry["tensor"].as_u64().or_else(|| entry["index"].as_u64())? as usize,
            dtype: entry["dtype"].as_str().unwrap_or("").to_owned(),
            shape: entry["shape"].as_array()?.iter().filter_map(|d| d.as_u64().map(|d| d as usize)).collect(),
            bytes,
        })
    }

    /// Run 0 value of tensor `index` of subgraph 0, when written.
    pub fn tensor(&self, index: usize) -> Option<GoldenTensor> {
        let entry = self.index["tensors"].as_array()?.iter().find(|t| t["index"].as_u64() == Some(index as u64))?;
        self.read(entry)
    }

    pub fn runs(&self) -> usize {
        self.index["runs"].as_array().map_or(0, |r| r.len())
    }

    /// Inputs of run `r`, in subgraph input order.
    pub fn run_inputs(&self, r: usize) -> Vec<GoldenTensor> {
        self.index["runs"][r]["inputs"].as_array().into_iter().flatten().filter_map(|e| self.read(e)).collect()
    }

    /// Outputs of run `r`, in subgraph output order.
    pub fn run_outputs(&self, r: usize) -> Vec<GoldenTensor> {
        self.index["runs"][r]["outputs"].as_array().into_iter().flatten().filter_map(|e| self.read(e)).collect()
    }
}

/// Corpus models that have golden data, then every single-op model of `shared/ops`.
pub fn golden_cases(shared: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    for model in corpus_models(shared) {
        let name = model_name(&model);
        if let Some(golden) = Golden::load(&shared.join("golden").join(&name)) {
            cases.push(Case { name, model, golden });
        }
    }
    for model in tflite_files(&shared.join("ops/models")) {
        let name = model_name(&model);
        if let Some(golden) = Golden::load(&shared.join("ops/golden").join(&name)) {
            cases.push(Case { name, model, golden });
        }
    }
    cases
}
