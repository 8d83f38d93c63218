//! Plans every corpus model, checks each plan with the verifier, and holds the planner to its
//! targets against TFLite Micro (`../shared/baselines/tflm_memory.json`): arena at most
//! TFLite Micro's activation area (+ variable bytes) and at most the file order's tensor-level
//! lower bound (+ variable bytes, which that bound counts only while the file order uses them),
//! unless the plan is proven optimal; `mlperf_vww_mobilenet_int8` in at most 55,296 bytes.
//! Models are planned as `tflc` plans them, with the kernels' in-place pairs
//! and views (`pipeline::plan_options` of the lowered subgraph); the in-place pairs must never
//! give a larger arena than without.

use tflc::internal::plan::{plan_subgraph, verify, PlanOptions};

#[test]
fn corpus_plans_verify_and_meet_targets() {
    let Some(shared) = tflc::internal::testing::shared_dir_or_skip("plan_corpus") else { return };
    let baseline: serde_json::Value = std::fs::read_to_string(shared.join("baselines/tflm_memory.json"))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(serde_json::Value::Null);
    let mut failures = Vec::new();
    let models = tflc::internal::testing::corpus_models(&shared);
    assert!(!models.is_empty());
    for path in models {
        let name = tflc::internal::testing::model_name(&path);
        let bytes = std::fs::read(&path).unwrap();
        let Ok(model) = tflc::read_model(&bytes) else {
            eprintln!("note: {name} does not parse; not planned");
            continue;
        };
        let lowered = tflc::internal::lower::lower_subgraph(model.main());
        let options = tflc::internal::pipeline::plan_options(&lowered, PlanOptions::default());
        let sp = match plan_subgraph(model.main(), &options) {
            Ok(sp) => sp,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let violations = verify::verify(&sp.problem, &sp.plan);
        if !violations.is_empty() {
            failures.push(format!("{name}: {violations:?}"));
        }
        let p = &sp.plan;
        if let Ok(apart) = plan_subgraph(model.main(), &PlanOptions { in_place: Vec::new(), ..options.clone() }) {
            if p.arena_bytes > apart.plan.arena_bytes {
                failures.push(format!("{name}: arena {} with in-place pairs > {} without", p.arena_bytes, apart.plan.arena_bytes));
            }
        }
        let b = &baseline["models"][&name];
        let var = tflc::internal::testing::state_allowance(b["variable_bytes"].as_u64().unwrap_or(0), &sp.problem);
        if let Some(head) = b["tflm_head"].as_u64() {
            if p.arena_bytes > head + var {
                failures.push(format!("{name}: arena {} > tflm_head {head} + {var}", p.arena_bytes));
            }
        }
        if let Some(lb) = b["lower_bound_file_order"].as_u64() {
            if p.arena_bytes > lb + var && !(p.order_optimal && p.offsets_optimal) {
                failures.push(format!("{name}: arena {} > lower bound {lb} + {var}", p.arena_bytes));
            }
        }
        if name == "mlperf_vww_mobilenet_int8" && p.arena_bytes > 55_296 {
            failures.push(format!("{name}: arena {} > 55296", p.arena_bytes));
        }
        // The dump is deterministic: planning twice gives the same text.
        let again = plan_subgraph(model.main(), &options).map(|s| s.dump(model.main()));
        if again.as_ref().ok() != Some(&sp.dump(model.main())) {
            failures.push(format!("{name}: plan is not deterministic"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn single_op_models_plan_and_verify() {
    let Some(shared) = tflc::internal::testing::shared_dir_or_skip("plan_corpus (ops)") else { return };
    let models = tflc::internal::testing::tflite_files(&shared.join("ops/models"));
    assert!(!models.is_empty(), "no single-op models found");
    let mut failures = Vec::new();
    for path in &models {
        let name = tflc::internal::testing::model_name(path);
        let bytes = std::fs::read(path).unwrap();
        let Ok(model) = tflc::read_model(&bytes) else { continue };
        match plan_subgraph(model.main(), &PlanOptions::default()) {
            Ok(sp) => {
                let v = verify::verify(&sp.problem, &sp.plan);
                if !v.is_empty() {
                    failures.push(format!("{name}: {v:?}"));
                }
                if !(sp.plan.order_optimal && sp.plan.offsets_optimal) {
                    failures.push(format!("{name}: a single-op plan should be proven optimal"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
