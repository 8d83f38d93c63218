//! `tflc plan MODEL [--json] [--verify] [--svg FILE] [--align N] [--no-in-place]`.

use crate::{print_stdout, InputArgs};
use anyhow::Context;
use std::process::ExitCode;
use tflc::internal::plan::{plan_subgraph, verify, PlanOptions};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Print JSON instead of the readable report.
    #[arg(long)]
    json: bool,
    /// Check the plan with the independent verifier; a violation exits with status 1.
    #[arg(long)]
    verify: bool,
    /// Also draw the plan as an SVG picture into FILE: every planned subgraph, one below the
    /// other, the entry subgraph first.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// Offset alignment in bytes (a power of two).
    #[arg(long, value_name = "N", default_value_t = 16)]
    align: u64,
    /// Print only the deterministic dump (no timing), for snapshots.
    #[arg(long, conflicts_with = "json")]
    dump: bool,
    /// Plan without the kernels' in-place and overlap pairs (every output apart from its
    /// inputs), as tensor-level planning does; by default the plan is the one `tflc compile` uses.
    #[arg(long)]
    no_in_place: bool,
    /// Check the arena against SIZE bytes (`49152`, `48K`, `1M`; K = 1024): over it, report
    /// the peak step and the tensors live there and exit with status 1.
    #[arg(long, value_name = "SIZE", value_parser = crate::compile::parse_size)]
    max_arena: Option<u64>,
    #[command(flatten)]
    pools: crate::compile::PoolArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = args.input.read_bytes()?;
    let path = args.input.model.display();
    let read = tflc::read_model(&bytes).with_context(|| format!("cannot read {path}"))?;
    let resolved = tflc::internal::passes::resources::resolve(&read).with_context(|| format!("cannot plan {path}"))?;
    let read = resolved.as_ref().map_or(&read, |r| &r.0);
    let folded = tflc::internal::passes::fold::FoldedModel::of(read);
    let model = folded.apply(read);
    let sg = model.main();
    // What lowering allows (ops that do not lower contribute nothing: such models plan too).
    let lowered = tflc::internal::lower::lower_subgraph(sg);
    let mut options = tflc::internal::pipeline::plan_options(&lowered, PlanOptions { align: args.align, ..PlanOptions::default() });
    if args.no_in_place {
        options.in_place.clear();
        options.overlap.clear();
    }
    // A model that calls subgraphs (IF, WHILE, CALL_ONCE): every reached subgraph planned,
    // the entry one with its calls' frames (`plan::model`).
    let lm = tflc::internal::lower::lower_model(&model);
    let model_plan = if lm.has_calls() && lm.check().is_ok() {
        let base = PlanOptions { align: args.align, verify: args.verify, ..PlanOptions::default() };
        Some(tflc::internal::pipeline::plan_model(&lm, &base).with_context(|| format!("cannot plan {path}"))?)
    } else {
        None
    };
    let mut sp = match model_plan.as_ref().and_then(|mp| mp.main()) {
        Some(p) => p.clone(),
        None => plan_subgraph(sg, &options).with_context(|| format!("cannot plan {path}"))?,
    };
    // Memory pools: the same split `tflc compile --pool` makes (`plan::pools`).
    let pools = args.pools.specs()?;
    if !pools.is_empty() {
        if model_plan.is_some() {
            anyhow::bail!("--pool: models that call subgraphs (IF, WHILE, CALL_ONCE) keep one arena");
        }
        match tflc::internal::plan::pools::apply(&sp, sg, &pools, &options) {
            Ok(split) => sp = split,
            Err(e @ tflc::Error::OverBudget(_)) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::from(1));
            }
            Err(e) => return Err(anyhow::Error::new(e).context(format!("cannot plan {path}"))),
        }
    }
    let mut violations: Vec<String> = match (args.verify, sp.pools.is_empty()) {
        (false, _) => Vec::new(),
        (true, true) => verify::verify(&sp.problem, &sp.plan).iter().map(|v| v.to_string()).collect(),
        // Every pool, and every tensor in exactly one.
        (true, false) => tflc::internal::plan::pools::check(&sp.problem, &sp.plan, &sp.pools),
    };
    if let (true, Some(mp)) = (args.verify, &model_plan) {
        violations.extend(verify::verify_model(mp));
    }
    // Every called subgraph: (instance description, subgraph, plan).
    let callees: Vec<(String, &tflc::ir::Subgraph<'_>, &tflc::internal::plan::SubgraphPlan)> = match &model_plan {
        None => Vec::new(),
        Some(mp) => mp
            .instances()
            .into_iter()
            .skip(1)
            .filter_map(|i| {
                let (p, (caller, op)) = (mp.get(i.subgraph)?, i.parent?);
                let caller = mp.instances().get(caller).map_or(0, |c| c.subgraph.index());
                let sub = &model.subgraphs[i.subgraph];
                Some((format!("subgraph {} \"{}\" at arena offset {}, in the frame of op {} of subgraph {caller}", i.subgraph.index(), sub.name, i.base, op.index()), sub, p))
            })
            .collect(),
    };
    if let Some(file) = &args.svg {
        // Every planned subgraph, the entry one first (as the text report).
        let views = tflc::internal::plan::pools::pool_views(&sp);
        let mut parts = if views.is_empty() {
            vec![(format!("subgraph 0 \"{}\"", sg.name), &sp.problem, &sp.plan)]
        } else {
            // One picture per pool, fastest first.
            views
                .iter()
                .map(|(pool, problem, plan)| {
                    let cap = pool.capacity.map_or("unbounded".to_string(), |c| format!("capacity {c} B"));
                    (format!("subgraph 0 \"{}\", pool {} ({cap})", sg.name, pool.name), problem, plan)
                })
                .collect()
        };
        parts.extend(callees.iter().map(|(what, _, p)| (what.clone(), &p.problem, &p.plan)));
        let svg = tflc::internal::plan::svg::render_all(&parts);
        std::fs::write(file, svg).with_context(|| format!("cannot write {}", file.display()))?;
    }
    if args.json {
        let mut json = sp.to_json(sg);
        if args.verify {
            json["verified"] = serde_json::Value::Bool(violations.is_empty());
            json["violations"] = violations.iter().map(|v| v.to_string()).collect();
        }
        if !callees.is_empty() {
            json["subgraphs"] = callees
                .iter()
                .map(|(what, sub, p)| serde_json::json!({ "instance": what, "plan": p.to_json(sub) }))
                .collect();
        }
        print_stdout(&format!("{json:#}\n"))?;
    } else {
        if !args.dump {
            print_stdout(&format!(
                "{path}: {} operators, planned in {:.1} ms\n",
                sg.ops.len(),
                sp.plan.stats.planning_time.as_secs_f64() * 1e3
            ))?;
        }
        print_stdout(&sp.dump(sg))?;
        for (what, sub, p) in &callees {
            print_stdout(&format!("\n{what}:\n"))?;
            print_stdout(&p.dump(sub))?;
        }
        if args.verify {
            if violations.is_empty() {
                print_stdout("verify: ok\n")?;
            } else {
                let mut s = format!("verify: {} violation(s)\n", violations.len());
                for v in &violations {
                    s.push_str(&format!("  {v}\n"));
                }
                print_stdout(&s)?;
            }
        }
    }
    let mut over_budget = false;
    if let Some(max) = args.max_arena {
        match tflc::internal::plan::budget::check_max_arena(&sp, sg, max) {
            Err(e) => {
                eprintln!("error: {e}");
                over_budget = true;
            }
            Ok(()) if !args.json => print_stdout(&format!("max-arena: ok ({} of {max} bytes)\n", sp.plan.arena_bytes))?,
            Ok(()) => {}
        }
    }
    Ok(if violations.is_empty() && !over_budget { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
