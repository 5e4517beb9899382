//! Every napsim command as a library function: a job in, its outputs out ([`Rendered`]), so that
//! a program can do all that the command line does. The command line only turns arguments into
//! these calls and writes what they return.
//!
//! The long commands (`simulate`, `hand`, `bid-table`, `thresholds`, `tournament`, and each
//! phase of `optimize`, which [`optimize`] runs one after another) share one shape: a
//! [`LongCommand`] (the job, its blocks) that [`run_long`] runs under the run's
//! [`Controls`] (shards, checkpoints, the stop flag), and a [`Render`] step that turns the whole
//! tally into outputs. [`merge`] adds a run's shards and calls the same `render`, which is why a
//! merge writes the single run's bytes.

mod bid_table;
mod equity;
mod hand;
mod info;
mod optimize;
mod play;
mod replay_text;
mod review;
mod simulate;
mod thresholds;
mod tournament;

pub use hand::hand_json;
pub use info::{DealJob, SolveJob, deal, rules_list, rules_show, solve};
pub use optimize::{optimize, saved_seed, start_file};
pub use play::{DEFAULT_BOTS, HINT_PLAY, PlayJob, SessionFile, play_session};
pub use replay_text::ReplayText;
pub use review::{
    REVIEW_CHOICE_PLAY, REVIEW_DEFAULT_SEED, REVIEW_DEFAULT_WORLDS, ReviewJob, StoppableOutput,
    review_deals,
};

use std::path::{Path, PathBuf};

use crate::analysis::bid_table::BidTable;
use crate::analysis::equity::Equity;
use crate::analysis::hand::Hand;
use crate::analysis::optimize::OptimizePhase;
use crate::analysis::simulate::Simulate;
use crate::analysis::thresholds::Thresholds;
use crate::analysis::tournament::Tournament;
use crate::error::Error;
use crate::files;
use crate::report::{self, Meta, Rendered, RunInfo};
use crate::rules::{self, Profile};
use crate::run::partial::Identity;
use crate::run::{self, Controls, Execution, LongCommand, Merged};
use crate::sim::{Progress, Shard};

/// Where a finished run's outputs go (a command's own flags, or `napsim merge`'s).
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// The main output (`--out`; `-` for stdout).
    pub out: Option<PathBuf>,
    /// Tournaments: the pairs CSV.
    pub pairs: Option<PathBuf>,
    /// Bid tables and tournaments: Markdown.
    pub markdown: Option<PathBuf>,
    /// Bid tables and equity tables: the SVG chart.
    pub plot: Option<PathBuf>,
    /// Equity tables: the measured payments of one deal (CSV), which bidders read.
    pub outcomes: Option<PathBuf>,
    /// Equity tables: the break-even make rates (CSV).
    pub breakeven: Option<PathBuf>,
}

impl Outputs {
    /// The extra outputs with their flags.
    fn extras(&self) -> [(&'static str, &Option<PathBuf>); 5] {
        [
            ("`pairs`", &self.pairs),
            ("`markdown`", &self.markdown),
            ("`plot`", &self.plot),
            ("`outcomes`", &self.outcomes),
            ("`breakeven`", &self.breakeven),
        ]
    }

    /// Every output file named (not stdout).
    fn named(&self) -> impl Iterator<Item = &PathBuf> {
        [
            &self.out,
            &self.pairs,
            &self.markdown,
            &self.plot,
            &self.outcomes,
            &self.breakeven,
        ]
        .into_iter()
        .flatten()
        .filter(|p| *p != Path::new("-"))
    }

    /// Fails before any work if a file could not be written (it is a directory, or lies below a
    /// file), or if a shard is asked for more than its partial result.
    pub fn check(&self, shard: Option<Shard>) -> Result<(), Error> {
        if let Some(shard) = shard
            && let Some((flag, _)) = self.extras().iter().find(|(_, path)| path.is_some())
        {
            return Err(Error::input(format!(
                "{flag} with `shard` {shard}: a shard writes only its partial result (`out`); \
                 give {flag} to `napsim merge`"
            )));
        }
        for path in self.named() {
            files::check_writable(path)?;
        }
        self.check_distinct(&[])
    }

    /// Refuses two outputs (the manifest beside `--out` included), or an output and one of
    /// `inputs`, that name the same file.
    fn check_distinct(&self, inputs: &[&Path]) -> Result<(), Error> {
        let mut named: Vec<PathBuf> = self.named().cloned().collect();
        if let Some(out) = self.out.as_deref().filter(|p| *p != Path::new("-")) {
            named.push(files::meta_path(out));
        }
        for (i, path) in named.iter().enumerate() {
            if named[..i].iter().any(|other| files::same_file(other, path)) {
                return Err(Error::input(format!(
                    "{} is named for two outputs: give each its own file",
                    path.display()
                )));
            }
            if let Some(input) = inputs.iter().find(|input| files::same_file(input, path)) {
                return Err(Error::input(format!(
                    "{} is both an input and an output: write the output elsewhere",
                    input.display()
                )));
            }
        }
        Ok(())
    }
}

/// A finished run, ready to be rendered: which run, how it was computed, where it goes.
pub struct Finished {
    /// Which run.
    pub identity: Identity,
    /// How this copy was computed.
    pub run: RunInfo,
    /// Where the outputs go.
    pub outputs: Outputs,
}

impl Finished {
    /// The manifest of the output, with the command that reproduces it if there is one.
    pub fn meta(&self, reproduce: Option<String>) -> Meta {
        Meta {
            identity: self.identity.clone(),
            reproduce,
            outcome: None,
            run: self.run.clone(),
        }
    }
}

/// A long command's last step: its outputs from the whole run's tally.
pub trait Render: LongCommand {
    /// The outputs besides `--out` that this command writes (`--markdown`...).
    const EXTRA_OUTPUTS: &'static [&'static str] = &[];

    /// The outputs of the finished run.
    fn render(&self, tally: &Self::Tally, finished: &Finished) -> Result<Rendered, Error>;
}

/// A long command whose results are rows: what its CSV holds, as data, before any rendering
/// (the CLI renders them; the Python package and other callers take them as they are).
pub trait Rows: Render {
    /// One row: the CSV row's fields, in the CSV's order.
    type Row: serde::Serialize;

    /// The rows of the finished run's `tally` with `seed`.
    fn rows(&self, tally: &Self::Tally, seed: u64) -> Result<Vec<Self::Row>, Error>;
}

/// A long command's run, as asked.
pub struct LongRun<'a> {
    /// The seed given, if any.
    pub seed: Option<u64>,
    /// Shards, checkpoints, threads, the stop flag.
    pub controls: &'a Controls,
    /// Where the outputs go.
    pub outputs: Outputs,
    /// Hears of the run's progress and notes.
    pub progress: &'a dyn Progress,
}

/// Runs the long command `C` with `job` on `profile` and renders its outputs; a shard writes
/// its partial result to `--out` and renders nothing. Without a seed (and no checkpoint to
/// take one from), `fresh_seed` chooses one (and should say which, so the run can be repeated).
pub fn run_long<C: Render>(
    profile: &Profile,
    job: C::Job,
    run: LongRun,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<Rendered, Error> {
    match finish_long::<C>(profile, job, run, fresh_seed)? {
        Some((command, tally, finished)) => command.render(&tally, &finished),
        None => Ok(Rendered::default()),
    }
}

/// Runs the long command `C` with `job` on `profile` as [`run_long`] does and returns its
/// results as rows instead of rendering them (a shard's run has none: an empty list).
pub fn run_long_rows<C: Rows>(
    profile: &Profile,
    job: C::Job,
    run: LongRun,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<Vec<C::Row>, Error> {
    match finish_long::<C>(profile, job, run, fresh_seed)? {
        Some((command, tally, finished)) => command.rows(&tally, finished.identity.seed),
        None => Ok(Vec::new()),
    }
}

/// Runs `command`, prepared by the caller (its bots in `run`'s pool), as [`run_long`] runs the
/// command it prepares: for a caller that sets the command up beyond its job first (a hand
/// evaluation watched as it goes, [`crate::analysis::hand::Hand::watch`]).
pub fn run_prepared<C: Render>(
    command: C,
    run: LongRun,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<Rendered, Error> {
    match finish_prepared(command, run, fresh_seed)? {
        Some((command, tally, finished)) => command.render(&tally, &finished),
        None => Ok(Rendered::default()),
    }
}

/// Prepares and runs the long command `C`: the command, its tally and what the outputs need
/// to know of the run; None for a shard, whose partial result is written instead.
fn finish_long<C: Render>(
    profile: &Profile,
    job: C::Job,
    run: LongRun,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<Option<(C, C::Tally, Finished)>, Error> {
    let command = C::prepare(profile, job, &run.controls.bot_pool)?;
    finish_prepared(command, run, fresh_seed)
}

/// Runs the prepared `command` ([`finish_long`]).
fn finish_prepared<C: Render>(
    command: C,
    run: LongRun,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<Option<(C, C::Tally, Finished)>, Error> {
    run.outputs.check(run.controls.shard)?;
    let out = run.outputs.out.as_deref();
    let execution = Execution::new(run.controls, out, run.progress)?;
    let seed = execution.seed(run.seed)?.unwrap_or_else(fresh_seed);
    command.check_seed(seed)?;
    let Some(done) = execution.run(&command, seed, out)? else {
        return Ok(None);
    };
    let finished = Finished {
        identity: done.identity,
        run: RunInfo::here(
            Some(run.controls.threads),
            done.elapsed_seconds,
            done.cpu_seconds,
        ),
        outputs: run.outputs,
    };
    Ok(Some((command, done.tally, finished)))
}

/// How one long command's parts are merged and rendered.
type MergeAs = fn(Merged, &Finished) -> Result<Rendered, Error>;

fn merge_as<C: Render>(merged: Merged, finished: &Finished) -> Result<Rendered, Error> {
    let (command, done) = run::merge_parts::<C>(merged)?;
    command.render(&done.tally, finished)
}

/// The long commands: name, extra outputs, merge.
const LONG_COMMANDS: [(&str, &[&str], MergeAs); 7] = [
    (
        Simulate::NAME,
        Simulate::EXTRA_OUTPUTS,
        merge_as::<Simulate>,
    ),
    (Hand::NAME, Hand::EXTRA_OUTPUTS, merge_as::<Hand>),
    (
        BidTable::NAME,
        BidTable::EXTRA_OUTPUTS,
        merge_as::<BidTable>,
    ),
    (
        Thresholds::NAME,
        Thresholds::EXTRA_OUTPUTS,
        merge_as::<Thresholds>,
    ),
    (
        Tournament::NAME,
        Tournament::EXTRA_OUTPUTS,
        merge_as::<Tournament>,
    ),
    (
        OptimizePhase::NAME,
        OptimizePhase::EXTRA_OUTPUTS,
        merge_as::<OptimizePhase>,
    ),
    (Equity::NAME, Equity::EXTRA_OUTPUTS, merge_as::<Equity>),
];

/// `napsim merge`: adds the partial results `parts` of a run's shards and renders what the
/// single run would have rendered. `rules`, when given, must name the parts' own profile.
pub fn merge(parts: &[PathBuf], rules: Option<&str>, outputs: Outputs) -> Result<Rendered, Error> {
    let merged = run::read_parts(parts)?;
    let profile = &merged.profile;
    // The profile comes from the parts; a --rules that names another is a mistake to report.
    if let Some(rules) = rules
        && rules::load_profile(rules)?.toml() != profile.toml()
    {
        return Err(Error::input(format!(
            "`rules` {rules}: the parts were made with profile {} (merge takes the profile \
             from the parts; leave out `rules`)",
            profile.name()
        )));
    }
    let command = merged.identity.command.clone();
    let Some(&(_, accepted, merge)) = LONG_COMMANDS.iter().find(|(name, ..)| *name == command)
    else {
        return Err(Error::input(format!(
            "the parts are from `napsim {command}`, which this napsim cannot merge"
        )));
    };
    for (flag, path) in outputs.extras() {
        if path.is_some() && !accepted.contains(&flag) {
            return Err(Error::input(format!(
                "{flag} does not apply to {command} results"
            )));
        }
    }
    outputs.check(None)?;
    let inputs: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
    outputs.check_distinct(&inputs)?;
    let finished = Finished {
        identity: merged.identity.clone(),
        run: RunInfo {
            merged_parts: parts.iter().map(|p| p.display().to_string()).collect(),
            ..RunInfo::here(None, merged.elapsed_seconds, merged.cpu_seconds)
        },
        outputs,
    };
    merge(merged, &finished)
}

/// `text` as one shell word (single-quoted when it holds anything but plain characters).
fn shell_word(text: &str) -> String {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_=:.,/".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// Rows as CSV bytes (a header and one line per row).
fn csv_of<T: serde::Serialize>(rows: &[T]) -> Result<Vec<u8>, Error> {
    report::csv_bytes(rows).map_err(|e| Error::runtime(format!("cannot format CSV: {e}")))
}
