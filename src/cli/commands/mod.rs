//! Dispatch: each subcommand resolves its arguments, calls the library and writes the output.
//!
//! The long-running commands (`simulate`, `hand`, `bid-table`, `thresholds`, `tournament`)
//! share one shape: a *job* (the resolved arguments that decide the result, recorded in every
//! partial file and manifest), blocks run under [`super::execute::Execution`] (shards,
//! checkpoints, interruption), and a `render` step that turns the tally into outputs. `napsim
//! merge` calls the same `render` with the merged tally, so a merged run writes the same bytes.

mod bid_table;
mod hand;
mod info;
mod merge;
mod simulate;
mod thresholds;
mod tournament;

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Failure;
use super::args::{Cli, Command};
use super::execute::Execution;
use crate::report::{self, Meta, RunInfo};
use crate::rules::Profile;
use crate::sim::partial::Identity;
use crate::sim::{Block, Shard, Tally};

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Rules { action } => info::rules_command(action, &cli.rules),
        Command::Deal(args) => info::deal_command(&cli.rules, *args),
        Command::Solve(args) => info::solve_command(&cli.rules, args),
        Command::Simulate(args) => simulate::command(&cli.rules, args),
        Command::Hand(args) => hand::command(&cli.rules, args),
        Command::BidTable(args) => bid_table::command(&cli.rules, args),
        Command::Thresholds(args) => thresholds::command(&cli.rules, args),
        Command::Tournament(args) => tournament::command(&cli.rules, args),
        Command::Merge(args) => merge::command(&cli.rules, args),
    }
}

/// Where a finished run's outputs go (a command's own flags, or `napsim merge`'s).
#[derive(Clone, Debug, Default)]
struct Outputs {
    /// The main output (`--out`).
    out: Option<PathBuf>,
    /// Tournaments: the pairs CSV.
    pairs: Option<PathBuf>,
    /// Bid tables and tournaments: Markdown.
    markdown: Option<PathBuf>,
    /// Bid tables: the SVG chart.
    plot: Option<PathBuf>,
}

impl Outputs {
    /// Fails before any work if a file could not be written (its directory is missing), or if
    /// a shard is asked for more than its partial result.
    fn check(&self, shard: Option<Shard>) -> Result<(), Failure> {
        if let Some(shard) = shard {
            let extra = [
                ("--pairs", &self.pairs),
                ("--markdown", &self.markdown),
                ("--plot", &self.plot),
            ];
            if let Some((flag, _)) = extra.iter().find(|(_, path)| path.is_some()) {
                return Err(Failure::input(format!(
                    "{flag} with --shard {shard}: a shard writes only its partial result (--out); \
                     give {flag} to `napsim merge`"
                )));
            }
        }
        for path in [&self.out, &self.pairs, &self.markdown, &self.plot]
            .into_iter()
            .flatten()
            .filter(|p| *p != Path::new("-"))
        {
            check_writable_dir(path)?;
        }
        self.check_distinct(&[])
    }

    /// Refuses two outputs (the manifest beside `--out` included), or an output and one of
    /// `inputs`, that name the same file.
    fn check_distinct(&self, inputs: &[&Path]) -> Result<(), Failure> {
        let mut named: Vec<PathBuf> = [&self.out, &self.pairs, &self.markdown, &self.plot]
            .into_iter()
            .flatten()
            .filter(|p| *p != Path::new("-"))
            .cloned()
            .collect();
        if let Some(out) = self.out.as_deref().filter(|p| *p != Path::new("-")) {
            named.push(report::meta_path(out));
        }
        for (i, path) in named.iter().enumerate() {
            if named[..i]
                .iter()
                .any(|other| report::same_file(other, path))
            {
                return Err(Failure::input(format!(
                    "{} is named for two outputs: give each its own file",
                    path.display()
                )));
            }
            if let Some(input) = inputs.iter().find(|input| report::same_file(input, path)) {
                return Err(Failure::input(format!(
                    "{} is both an input and an output: write the output elsewhere",
                    input.display()
                )));
            }
        }
        Ok(())
    }
}

/// A finished run, ready to be written: which run, how it was computed, where it goes.
struct Finished {
    identity: Identity,
    run: RunInfo,
    outputs: Outputs,
}

impl Finished {
    /// The manifest of the output, with the command that reproduces it if there is one.
    fn meta(&self, reproduce: Option<String>) -> Meta {
        Meta {
            identity: self.identity.clone(),
            reproduce,
            run: self.run.clone(),
        }
    }
}

/// A command's `render`: its outputs from the job and the whole tally.
type Render<J, T> = fn(&Profile, &J, &T, &Finished) -> Result<(), Failure>;

/// What a long command hands to [`run_and_render`].
struct LongRun<'a, J> {
    /// The subcommand, as partial files record it.
    command: &'static str,
    profile: &'a Profile,
    job: &'a J,
    seed: u64,
    /// Units in the whole run, and per block.
    units: u64,
    block_size: u64,
    /// What a unit is called in progress and messages (`deals`).
    unit: &'static str,
    outputs: Outputs,
}

/// The shared tail of every long command: runs the blocks under the execution's controls (a
/// shard writes its part and stops there) and renders the whole tally.
fn run_and_render<J, T, F>(
    execution: &Execution,
    run: LongRun<J>,
    work: F,
    render: Render<J, T>,
) -> Result<(), Failure>
where
    J: Serialize,
    T: Tally + Default + Serialize + DeserializeOwned,
    F: Fn(Block) -> T + Sync,
{
    let identity = identity(
        run.command,
        run.profile,
        run.job,
        run.seed,
        run.units,
        run.block_size,
    );
    let out = run.outputs.out.as_deref();
    let bids = run.profile.bids().len();
    let Some((tally, elapsed)) = execution.run(&identity, bids, run.unit, out, work)? else {
        return Ok(());
    };
    let finished = Finished {
        identity,
        run: RunInfo::here(Some(execution.threads()), elapsed),
        outputs: run.outputs,
    };
    render(run.profile, run.job, &tally, &finished)
}

/// The files the policies of `specs` read, with their digests (part of a job).
fn input_files(specs: &[&str]) -> Result<std::collections::BTreeMap<String, String>, Failure> {
    crate::policy::table::input_files(specs).map_err(Failure::input)
}

/// The identity of a run of `command` on `profile` with `job`'s arguments.
fn identity<J: Serialize>(
    command: &str,
    profile: &Profile,
    job: &J,
    seed: u64,
    units: u64,
    block_size: u64,
) -> Identity {
    Identity {
        napsim_version: crate::napsim_version().to_string(),
        command: command.to_string(),
        profile: profile.name().to_string(),
        profile_toml: profile.toml().to_string(),
        arguments: serde_json::to_value(job).expect("a job serialises"),
        seed,
        units,
        block_size,
    }
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

/// The thread count asked for, or every core.
fn thread_count(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Rows as CSV bytes (a header and one line per row).
fn csv_of<T: serde::Serialize>(rows: &[T]) -> Result<Vec<u8>, Failure> {
    report::csv_bytes(rows).map_err(|e| Failure::runtime(format!("cannot format CSV: {e}")))
}

/// The files a finished run writes, written together: all of them or none.
#[derive(Default)]
struct FileSet {
    files: Vec<(PathBuf, Vec<u8>)>,
    /// Said on stderr once the files are written.
    notes: Vec<String>,
}

impl FileSet {
    /// Adds `bytes` for `path`.
    fn add(&mut self, path: &Path, bytes: Vec<u8>) {
        self.files.push((path.to_path_buf(), bytes));
    }

    /// Adds `bytes` for `path` and the run's manifest beside it (`FILE.meta.json`), except
    /// beside a device or pipe.
    fn add_with_meta(&mut self, path: &Path, bytes: Vec<u8>, meta: &Meta) {
        self.add(path, bytes);
        if report::is_special_file(path) {
            self.notes.push(format!(
                "note: {} is not a regular file; no manifest written beside it",
                path.display()
            ));
        } else {
            self.add(&report::meta_path(path), meta.to_json().into_bytes());
        }
    }

    /// Writes every file (to temporary names, then renamed once all are written).
    fn write(self) -> Result<(), Failure> {
        let files: Vec<(&Path, &[u8])> = self
            .files
            .iter()
            .map(|(p, b)| (p.as_path(), b.as_slice()))
            .collect();
        report::write_all_atomic(&files).map_err(|(path, e)| {
            Failure::runtime(format!("cannot write {}: {e}", path.display()))
        })?;
        for note in &self.notes {
            crate::stderr::line(note);
        }
        Ok(())
    }
}

/// The seed given, or a fresh one printed to stderr so the run can be repeated.
fn resolve_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(fresh_seed)
}

/// A fresh seed, printed to stderr so the run can be repeated.
pub(super) fn fresh_seed() -> u64 {
    let seed = rand::random::<u64>();
    crate::stderr::line(&format!(
        "seed: {seed} (pass --seed {seed} to repeat this run)"
    ));
    seed
}

pub(super) fn check_writable_dir(path: &Path) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let problem = if path.is_dir() {
        "it is a directory".to_string()
    } else if dir.is_dir() {
        return Ok(());
    } else if dir.exists() {
        format!("{} is not a directory", dir.display())
    } else {
        format!("directory {} does not exist", dir.display())
    };
    Err(Failure::runtime(format!(
        "cannot write {}: {problem}",
        path.display()
    )))
}

fn emit(text: &str) -> Result<(), Failure> {
    emit_bytes(text.as_bytes())
}

fn emit_bytes(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(stdout_failure)
}

/// A closed pipe (`napsim ... | head`) is a clean exit; other write errors are failures.
fn stdout_failure(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure {
            code: 0,
            message: String::new(),
        }
    } else {
        Failure::runtime(format!("cannot write to stdout: {e}"))
    }
}
