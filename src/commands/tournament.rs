//! `napsim tournament`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Failure, FileSet, Finished, LongRun, Outputs, csv_of, emit, run_and_render, shell_word,
    thread_count,
};
use crate::analysis::tournament::{self, Entrant, TournamentConfig, TournamentTally};
use crate::cli::args::TournamentArgs;
use crate::cli::execute::Execution;
use crate::report;
use crate::rules::{Profile, load_profile};

/// The arguments that decide a tournament's outputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Job {
    players: usize,
    /// `NAME=BID/PLAY`, as given.
    entrants: Vec<String>,
    sessions: u64,
    duplicate: bool,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    input_files: BTreeMap<String, String>,
}

/// The subcommand's name, as partial files record it.
pub(super) const COMMAND: &str = "tournament";

/// Parses and checks the entrants: two to one per seat, distinct names.
fn entrants(profile: &Profile, job: &Job) -> Result<Vec<Entrant>, Failure> {
    profile.check_players(job.players)?;
    let entrants = job
        .entrants
        .iter()
        .map(|text| tournament::parse_entrant(text, profile))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::input)?;
    if entrants.len() < 2 || entrants.len() > job.players {
        return Err(Failure::input(format!(
            "a tournament needs 2 to {} entrants at {} players; {} given",
            job.players,
            job.players,
            entrants.len()
        )));
    }
    for (i, e) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|o| o.name == e.name) {
            return Err(Failure::input(format!(
                "two entrants are named '{}'",
                e.name
            )));
        }
    }
    Ok(entrants)
}

fn config<'a>(
    profile: &'a Profile,
    job: &Job,
    entrants: &'a [Entrant],
    seed: u64,
) -> TournamentConfig<'a> {
    TournamentConfig {
        profile,
        players: job.players,
        entrants,
        sets: job.sessions,
        seed,
        duplicate: job.duplicate,
    }
}

pub(super) fn command(rules_arg: &str, args: TournamentArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.players)?;
    let mut job = Job {
        players: args.players,
        entrants: args.entrants.clone(),
        sessions: args.sessions,
        duplicate: !args.no_duplicate,
        input_files: BTreeMap::new(),
    };
    let entrants = entrants(&profile, &job)?;
    let specs: Vec<&str> = entrants
        .iter()
        .flat_map(|e| [e.bid_spec.as_str(), e.play_spec.as_str()])
        .collect();
    job.input_files = super::input_files(&specs)?;
    let outputs = Outputs {
        out: args.out.clone(),
        pairs: args.pairs.clone(),
        markdown: args.markdown.clone(),
        ..Outputs::default()
    };
    outputs.check(args.control.shard)?;
    let threads = thread_count(args.threads);
    let execution = Execution::new(&args.control, args.out.as_deref(), threads, args.quiet)?;
    let seed = execution.seed(args.seed)?;
    let config = config(&profile, &job, &entrants, seed);
    let run = LongRun {
        command: COMMAND,
        profile: &profile,
        job: &job,
        seed,
        units: job.sessions,
        block_size: tournament::BLOCK_SIZE,
        unit: "card sets",
        outputs,
    };
    run_and_render(
        &execution,
        run,
        |block| tournament::tournament_block(&config, block),
        render,
    )
}

/// Writes the entrant CSV (with its manifest), the pairs CSV and the Markdown where asked,
/// and prints the tables.
pub(super) fn render(
    profile: &Profile,
    job: &Job,
    tally: &TournamentTally,
    finished: &Finished,
) -> Result<(), Failure> {
    let seed = finished.identity.seed;
    let entrants = entrants(profile, job)?;
    let n = entrants.len();
    if tally.sets > 0 && (tally.entrants.len() != n || tally.pairs.len() != n * n) {
        return Err(Failure::input(format!(
            "the tallies count {} entrants, the tournament has {n}",
            tally.entrants.len()
        )));
    }
    let config = config(profile, job, &entrants, seed);
    let (rows, pairs) = tournament::rows(tally, &config);
    let mut text = format!(
        "{} | {} players | {} card sets{} | seed {seed} | {:.1} s\n\n",
        profile.name(),
        job.players,
        job.sessions,
        if config.duplicate { ", duplicate" } else { "" },
        finished.run.elapsed_seconds
    );
    text += &format!(
        "{:<14} {:>10} {:>17} {:>10} {:>23}\n",
        "entrant", "sessions", "balance ± se", "units/deal", "win share (95%)"
    );
    for r in &rows {
        text += &format!(
            "{:<14} {:>10} {:>9.3} ± {:<5.3} {:>+10.4} {:>7.3} ({:.3}-{:.3})\n",
            r.entrant,
            r.sessions,
            r.mean_balance,
            r.mean_balance_se,
            r.units_per_deal,
            r.win_share,
            r.win_share_ci95_low,
            r.win_share_ci95_high
        );
    }
    text += "\npaired differences per session (row minus column, ± se; * significant at 95%):\n";
    text += &format!("{:<14}", "");
    for e in &entrants {
        text += &format!(" {:>18}", e.name);
    }
    text += "\n";
    for a in &entrants {
        text += &format!("{:<14}", a.name);
        for b in &entrants {
            let cell = pairs
                .iter()
                .find(|p| p.entrant_a == a.name && p.entrant_b == b.name)
                .map_or("-".to_string(), |p| {
                    format!(
                        "{:+.3}±{:.3}{}",
                        p.mean_diff,
                        p.mean_diff_se,
                        if p.significant { "*" } else { " " }
                    )
                });
            text += &format!(" {cell:>18}");
        }
        text += "\n";
    }
    let command = format!(
        "napsim --rules {} tournament --players {} {} --sessions {} --seed {seed}{}",
        profile.name(),
        job.players,
        job.entrants
            .iter()
            .map(|e| format!("--entrant {}", shell_word(e)))
            .collect::<Vec<_>>()
            .join(" "),
        job.sessions,
        if job.duplicate { "" } else { " --no-duplicate" }
    );
    let outputs = &finished.outputs;
    let mut files = FileSet::default();
    if let Some(path) = &outputs.out {
        files.add_with_meta(path, csv_of(&rows)?, &finished.meta(Some(command.clone())));
    }
    if let Some(path) = &outputs.pairs {
        files.add(path, csv_of(&pairs)?);
    }
    if let Some(path) = &outputs.markdown {
        files.add(
            path,
            report::tournament_markdown(&command, &rows, &pairs).into_bytes(),
        );
    }
    files.write()?;
    emit(&text)
}
