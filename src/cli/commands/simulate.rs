//! `napsim simulate`.

use std::path::Path;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Failure, FileSet, Finished, LongRun, Outputs, csv_of, emit, emit_bytes, run_and_render,
    thread_count,
};
use crate::analysis::simulate::{self, SimulateConfig, SimulateTally};
use crate::cli::args::SimulateArgs;
use crate::cli::execute::Execution;
use crate::policy::{bid_policy, play_policy};
use crate::report;
use crate::rules::{Profile, load_profile};

/// The arguments that decide a simulation's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Job {
    players: usize,
    deals: u64,
    bid: String,
    play: String,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    input_files: BTreeMap<String, String>,
}

/// The subcommand's name, as partial files record it.
pub(super) const COMMAND: &str = "simulate";

pub(super) fn command(rules_arg: &str, args: SimulateArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.players)?;
    let bid = bid_policy(&args.policies.bid, &profile)?;
    let play = play_policy(&args.policies.play, &profile)?;
    let outputs = Outputs {
        out: args.out.clone(),
        ..Outputs::default()
    };
    outputs.check(args.control.shard)?;
    let threads = thread_count(args.threads);
    let execution = Execution::new(&args.control, args.out.as_deref(), threads, args.quiet)?;
    let seed = execution.seed(args.seed)?;
    let job = Job {
        players: args.players,
        deals: args.deals,
        bid: args.policies.bid.clone(),
        play: args.policies.play.clone(),
        input_files: super::input_files(&[&args.policies.bid, &args.policies.play])?,
    };
    let config = SimulateConfig {
        profile: &profile,
        players: args.players,
        deals: args.deals,
        seed,
        bid: bid.as_ref(),
        play: play.as_ref(),
    };
    let run = LongRun {
        command: COMMAND,
        profile: &profile,
        job: &job,
        seed,
        units: args.deals,
        block_size: simulate::BLOCK_SIZE,
        unit: "deals",
        outputs,
    };
    run_and_render(
        &execution,
        run,
        |block| simulate::simulate_block(&config, block),
        render,
    )
}

/// Writes the CSV (to `--out`, with its manifest, or to stdout for `-`) and prints the summary.
pub(super) fn render(
    profile: &Profile,
    job: &Job,
    tally: &SimulateTally,
    finished: &Finished,
) -> Result<(), Failure> {
    profile.check_players(job.players)?;
    let seed = finished.identity.seed;
    let rows = simulate::rows(tally, profile, job.players, &job.bid, &job.play, seed);
    let csv = csv_of(&rows)?;
    let summary = report::simulate_summary(&rows, tally, finished.run.elapsed_seconds);
    match finished.outputs.out.as_deref() {
        Some(path) if path == Path::new("-") => {
            crate::stderr::write(&summary);
            emit_bytes(&csv)
        }
        Some(path) => {
            let mut files = FileSet::default();
            files.add_with_meta(path, csv, &finished.meta(None));
            files.write()?;
            emit(&summary)
        }
        None => emit(&summary),
    }
}
