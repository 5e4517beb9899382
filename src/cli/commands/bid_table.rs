//! `napsim bid-table`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Failure, FileSet, Finished, LongRun, Outputs, emit, run_and_render, shell_word, thread_count,
};
use crate::analysis::bid_table::{self, BidTableConfig, BidTableTally, Scheme};
use crate::analysis::hand;
use crate::cli::args::BidTableArgs;
use crate::cli::execute::Execution;
use crate::policy::{BidPolicy, PlayPolicy, bid_policy, play_policy};
use crate::report;
use crate::rules::{Profile, load_profile};

/// The arguments that decide a bid table's outputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Job {
    players: usize,
    deals: u64,
    play: String,
    by: String,
    dd_deals: u64,
    min_hands: u64,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    input_files: BTreeMap<String, String>,
}

/// The subcommand's name, as partial files record it.
pub(super) const COMMAND: &str = "bid-table";

/// The policies a table plays with: every seat's play, and the threshold bidder that decides
/// whether the earlier seats pass.
struct Policies {
    play: Box<dyn PlayPolicy>,
    opener: Box<dyn BidPolicy>,
}

impl Policies {
    fn new(profile: &Profile, play: &str) -> Result<Policies, Failure> {
        Ok(Policies {
            play: play_policy(play, profile)?,
            opener: bid_policy("threshold", profile)?,
        })
    }

    fn config<'a>(&'a self, profile: &'a Profile, job: &Job, seed: u64) -> BidTableConfig<'a> {
        BidTableConfig {
            profile,
            players: job.players,
            deals: job.deals,
            seed,
            play: self.play.as_ref(),
            play_dd: hand::is_dd_spec(&job.play),
            dd_deals: job.dd_deals,
            scheme: match job.by.as_str() {
                "exact" => Scheme::Exact,
                "coarse" => Scheme::Coarse,
                _ => Scheme::Classes,
            },
            opener: self.opener.as_ref(),
        }
    }
}

pub(super) fn command(rules_arg: &str, args: BidTableArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.run.players)?;
    let policies = Policies::new(&profile, &args.run.play)?;
    let outputs = Outputs {
        out: args.out.clone(),
        markdown: args.markdown.clone(),
        plot: args.plot.clone(),
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
        by: args.by.clone(),
        dd_deals: args.dd_deals.unwrap_or(args.run.deals).min(args.run.deals),
        min_hands: args.min_hands,
        input_files: super::input_files(&[&args.run.play])?,
    };
    let config = policies.config(&profile, &job, seed);
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

/// Writes the CSV (with its manifest), the Markdown and the chart where asked; with none of
/// them, prints the Markdown.
pub(super) fn render(
    profile: &Profile,
    job: &Job,
    tally: &BidTableTally,
    finished: &Finished,
) -> Result<(), Failure> {
    profile.check_players(job.players)?;
    bid_table::check_seats(tally, job.players).map_err(Failure::input)?;
    let seed = finished.identity.seed;
    let policies = Policies::new(profile, &job.play)?;
    let config = policies.config(profile, job, seed);
    let rows = bid_table::rows(tally, &config, job.min_hands);
    // The command that reproduces the tables: resolved arguments, no paths or thread count.
    let command = format!(
        "napsim --rules {} bid-table --players {} --deals {} --play {} --seed {seed} --by {} \
         --dd-deals {} --min-hands {}",
        profile.name(),
        job.players,
        job.deals,
        shell_word(&job.play),
        job.by,
        job.dd_deals,
        job.min_hands
    );
    let doc = report::BidTableDoc {
        command: &command,
        profile: profile.name(),
        play: &job.play,
        deals: job.deals,
        dd_deals: job.dd_deals,
        min_hands: job.min_hands,
        coverage: [(
            job.players,
            bid_table::coverage(tally, job.players, job.min_hands),
        )]
        .into(),
        bids: profile
            .bids()
            .iter()
            .map(|b| (b.name().to_string(), b.label().to_string()))
            .collect(),
    };
    let markdown = report::bid_table_markdown(&doc, &rows);
    let outputs = &finished.outputs;
    let svg = match &outputs.plot {
        Some(_) => {
            let chart = bid_table::chart::chart(tally, &config, 0, &job.play, job.min_hands);
            Some(report::bid_chart_svg(&chart).map_err(Failure::runtime)?)
        }
        None => None,
    };
    let mut files = FileSet::default();
    if let Some(path) = &outputs.out {
        let csv = report::csv_bytes_with_header(&rows)
            .map_err(|e| Failure::runtime(format!("cannot format CSV: {e}")))?;
        files.add_with_meta(path, csv, &finished.meta(Some(command)));
    }
    if let Some(path) = &outputs.markdown {
        files.add(path, markdown.clone().into_bytes());
    }
    if let (Some(path), Some(svg)) = (&outputs.plot, svg) {
        files.add(path, svg.into_bytes());
    }
    files.write()?;
    if outputs.out.is_none() && outputs.markdown.is_none() && outputs.plot.is_none() {
        return emit(&markdown);
    }
    let shown = rows.len() / profile.bids().len().max(1);
    crate::stderr::line(&format!(
        "{} deals in {:.2} s; {shown} (seat, class) rows shown",
        job.deals, finished.run.elapsed_seconds
    ));
    Ok(())
}
