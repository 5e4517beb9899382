//! `napsim hand`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Failure, FileSet, Finished, LongRun, Outputs, emit_bytes, run_and_render, thread_count,
};
use crate::eval::hand::{self, HandQuery, HandTally};
use crate::cli::args::HandArgs;
use crate::cli::execute::Execution;
use crate::game::Call;
use crate::policy::{BidPolicy, PlayPolicy};
use crate::bots::{bid_policy, play_policy};
use crate::report;
use crate::rules::{Profile, load_profile};

/// The arguments that decide a hand evaluation's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Job {
    hand: String,
    players: usize,
    seat: usize,
    play: String,
    worlds: u64,
    /// The earlier seats' calls, by name, in speaking order.
    after: Vec<String>,
    others_bid: String,
    dd: bool,
    /// `text`, `json` or `csv`.
    format: String,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    input_files: BTreeMap<String, String>,
}

/// The subcommand's name, as partial files record it.
pub(super) const COMMAND: &str = "hand";

/// A job's inputs, parsed and checked against the profile.
struct Inputs {
    hand: crate::cards::CardSet,
    after: Vec<Call>,
    others: Box<dyn BidPolicy>,
    play: Box<dyn PlayPolicy>,
}

impl Inputs {
    fn query<'a>(&'a self, profile: &'a Profile, job: &Job) -> HandQuery<'a> {
        HandQuery {
            profile,
            players: job.players,
            seat: job.seat,
            hand: self.hand,
            after: &self.after,
            others: self.others.as_ref(),
            play: self.play.as_ref(),
            play_dd: hand::is_dd_spec(&job.play),
            dd_column: job.dd,
        }
    }
}

/// Checks `HAND`, `--seat`, `--after` and the policies, in the order a user reads them.
fn inputs(
    profile: &Profile,
    hand_text: &str,
    players: usize,
    seat: usize,
    after: Option<&str>,
    others_bid: &str,
    play: &str,
) -> Result<Inputs, Failure> {
    profile.check_players(players)?;
    let hand = hand::parse_hand_for(hand_text, profile, players).map_err(Failure::input)?;
    if seat >= players {
        return Err(Failure::input(format!(
            "--seat {seat} is not a position in the auction: 0 (eldest) to {}",
            players - 1
        )));
    }
    let after = match after {
        Some(text) => hand::parse_after(text, profile, players, seat).map_err(Failure::input)?,
        None => Vec::new(),
    };
    Ok(Inputs {
        hand,
        after,
        others: bid_policy(others_bid, profile)?,
        play: play_policy(play, profile)?,
    })
}

pub(super) fn command(rules_arg: &str, args: HandArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    let inputs = inputs(
        &profile,
        &args.hand,
        args.players,
        args.seat,
        args.after.as_deref(),
        &args.others_bid,
        &args.play,
    )?;
    let outputs = Outputs {
        out: args.out.clone(),
        ..Outputs::default()
    };
    outputs.check(args.control.shard)?;
    let threads = thread_count(args.threads);
    let execution = Execution::new(&args.control, args.out.as_deref(), threads, args.quiet)?;
    let seed = execution.seed(args.seed)?;
    let job = Job {
        hand: inputs.hand.to_string(),
        players: args.players,
        seat: args.seat,
        play: args.play.clone(),
        worlds: args.worlds,
        after: inputs
            .after
            .iter()
            .map(|c| c.name(&profile).to_string())
            .collect(),
        others_bid: args.others_bid.clone(),
        dd: !args.no_dd,
        format: if args.json {
            "json"
        } else if args.csv {
            "csv"
        } else {
            "text"
        }
        .to_string(),
        input_files: super::input_files(&[&args.play, &args.others_bid])?,
    };
    let query = inputs.query(&profile, &job);
    if !inputs.after.is_empty() {
        let kept = query.pilot(hand::PILOT_DRAWS, seed);
        if kept < hand::PILOT_MIN_KEPT {
            return Err(Failure::input(format!(
                "the calls --after {} are impossible or too rare to sample: {kept} of {} \
                 random deals had the earlier seats (bidding {}) make them",
                args.after.as_deref().unwrap_or(""),
                hand::PILOT_DRAWS,
                args.others_bid
            )));
        }
    }
    let run = LongRun {
        command: COMMAND,
        profile: &profile,
        job: &job,
        seed,
        units: args.worlds,
        block_size: hand::BLOCK_SIZE,
        unit: "worlds",
        outputs,
    };
    run_and_render(&execution, run, |block| query.evaluate_block(block), render)
}

/// Writes the report (text, JSON or CSV as the job asked) to `--out` with its manifest, or to
/// stdout.
pub(super) fn render(
    profile: &Profile,
    job: &Job,
    tally: &HandTally,
    finished: &Finished,
) -> Result<(), Failure> {
    let after = job.after.join(",");
    let inputs = inputs(
        profile,
        &job.hand,
        job.players,
        job.seat,
        (!after.is_empty()).then_some(after.as_str()),
        &job.others_bid,
        &job.play,
    )?;
    if tally.too_rare {
        return Err(Failure::input(format!(
            "the calls --after {after} are too rare to sample: a world needed over {} deals",
            hand::MAX_DRAWS_PER_WORLD
        )));
    }
    let summary = inputs.query(profile, job).summarise(tally);
    let report = report::HandReport {
        profile,
        hand: inputs.hand,
        players: job.players,
        seat: job.seat,
        play: &job.play,
        after: &job.after,
        others_bid: &job.others_bid,
        seed: finished.identity.seed,
        summary: &summary,
    };
    let bytes = match job.format.as_str() {
        "json" => (report.json() + "\n").into_bytes(),
        "csv" => report
            .csv()
            .map_err(|e| Failure::runtime(format!("cannot format CSV: {e}")))?,
        _ => report.text().into_bytes(),
    };
    match &finished.outputs.out {
        Some(path) => {
            let mut files = FileSet::default();
            files.add_with_meta(path, bytes, &finished.meta(None));
            files.write()
        }
        None => emit_bytes(&bytes),
    }
}
