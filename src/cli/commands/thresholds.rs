//! `napsim thresholds`.

use std::path::Path;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Failure, FileSet, Finished, LongRun, Outputs, csv_of, emit, emit_bytes, run_and_render,
    thread_count,
};
use crate::analysis::bid_table::{self, BidTableConfig, BidTableTally, Scheme};
use crate::analysis::{hand, thresholds};
use crate::cli::args::ThresholdsArgs;
use crate::cli::execute::Execution;
use crate::policy::{BidPolicy, PlayPolicy, bid_policy, play_policy};
use crate::rules::{Profile, load_profile};

/// The arguments that decide a threshold sweep's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Job {
    players: usize,
    deals: u64,
    play: String,
    seat: usize,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    input_files: BTreeMap<String, String>,
}

/// The subcommand's name, as partial files record it.
pub(super) const COMMAND: &str = "thresholds";

/// The sweep's table: strength classes, no double-dummy column.
fn config<'a>(
    profile: &'a Profile,
    job: &Job,
    seed: u64,
    play: &'a dyn PlayPolicy,
    opener: &'a dyn BidPolicy,
) -> BidTableConfig<'a> {
    BidTableConfig {
        profile,
        players: job.players,
        deals: job.deals,
        seed,
        play,
        play_dd: hand::is_dd_spec(&job.play),
        dd_deals: 0,
        scheme: Scheme::Strength,
        opener,
    }
}

pub(super) fn command(rules_arg: &str, args: ThresholdsArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.run.players)?;
    if args.seat >= args.run.players {
        return Err(Failure::input(format!(
            "--seat {} is not a position in the auction: 0 (eldest) to {}",
            args.seat,
            args.run.players - 1
        )));
    }
    let play = play_policy(&args.run.play, &profile)?;
    let opener = bid_policy("threshold", &profile)?;
    let outputs = Outputs {
        out: args.out.clone(),
        ..Outputs::default()
    };
    outputs.check(args.run.control.shard)?;
    let threads = thread_count(args.run.threads);
    let execution = Execution::new(&args.run.control, args.out.as_deref(), threads, args.quiet)?;
    let seed = execution.seed(args.run.seed)?;
    let job = Job {
        players: args.run.players,
        deals: args.run.deals,
        play: args.run.play.clone(),
        seat: args.seat,
        input_files: super::input_files(&[&args.run.play])?,
    };
    let config = config(&profile, &job, seed, play.as_ref(), opener.as_ref());
    let run = LongRun {
        command: COMMAND,
        profile: &profile,
        job: &job,
        seed,
        units: job.deals,
        block_size: bid_table::BLOCK_SIZE,
        unit: "deals",
        outputs,
    };
    run_and_render(
        &execution,
        run,
        |block| bid_table::bid_table_block(&config, block),
        render,
    )
}

/// Writes the CSV (to `--out` with its manifest, or to stdout for `-`) and prints the table of
/// best thresholds.
pub(super) fn render(
    profile: &Profile,
    job: &Job,
    tally: &BidTableTally,
    finished: &Finished,
) -> Result<(), Failure> {
    profile.check_players(job.players)?;
    if job.seat >= job.players {
        return Err(Failure::input(format!(
            "seat {} is not at the table",
            job.seat
        )));
    }
    bid_table::check_seats(tally, job.players).map_err(Failure::input)?;
    let seed = finished.identity.seed;
    let (rows, bests) = thresholds::sweep(tally, profile, job.players, job.seat);
    let mut text = format!(
        "{} | {} players | seat {} | play {} | seed {seed} | {} deals\n\n",
        profile.name(),
        job.players,
        job.seat,
        job.play,
        job.deals
    );
    text += &format!(
        "{:<28} {:>9} {:>13} {:>20}\n",
        "bid", "bid from", "95% range", "EV/deal ± se"
    );
    for best in &bests {
        let label = profile
            .bid_by_name(&best.bid)
            .map_or(best.bid.as_str(), |b| b.label());
        let from = if best.never {
            "never".to_string()
        } else {
            format!(
                "{} {}",
                best.score.replace("strength", "").trim(),
                best.threshold
            )
            .trim()
            .to_string()
        };
        text += &format!(
            "{:<28} {:>9} {:>13} {:>+12.4} ± {:.4}\n",
            label,
            from,
            format!("{}-{}", best.interval.0, best.interval.1),
            best.ev.0,
            best.ev.1
        );
    }
    text += "\nScores: the threshold policy's trick strength (2 per trump, trump A 4, K 3, Q 2, \
             J 1, side A 3, side K 1;\nbest suit as trump), its misère strength for misère bids. \
             Each bid is swept alone: bid it when the\nscore reaches the threshold, else pass. \
             'bid from' maximises expected units per deal reaching the\nseat; the range holds \
             every threshold not significantly worse (paired on the same deals, 95%).\n";
    let csv = csv_of(&rows)?;
    match finished.outputs.out.as_deref() {
        Some(path) if path == Path::new("-") => {
            crate::stderr::write(&text);
            emit_bytes(&csv)
        }
        Some(path) => {
            let mut files = FileSet::default();
            files.add_with_meta(path, csv, &finished.meta(None));
            files.write()?;
            emit(&text)
        }
        None => emit(&text),
    }
}
