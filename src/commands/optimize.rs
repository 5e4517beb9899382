//! `napsim optimize`: the rounds and the exploitability run one after another, each an ordinary
//! long run ([`OptimizePhase`]); the outputs are the strategy file, its manifest and its
//! Markdown.
//!
//! A whole run keeps its state (the strategy file so far) in its checkpoint (`--checkpoint`, or
//! `FILE.checkpoint` beside `--out`), and the phase under way in the same name with `.phase`
//! added: `--resume` continues both. A shard (`--shard`) computes only the next phase of the
//! `--start` file; `napsim merge` of the shards writes the file after that phase.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Finished, LongRun, Render, shell_word};
use crate::analysis::optimize::{
    OptimizePhase, OptimizeSettings, OptimizeTally, Phase, PhaseJob, StrategyFile, phase_seed,
};
use crate::bots::tuned::{Strategy, StrategyBody};
use crate::error::Error;
use crate::files;
use crate::report::{self, Meta, Rendered, RunInfo};
use crate::rules::Profile;
use crate::run::{Controls, Execution, LongCommand};

/// The `format` of an optimiser checkpoint.
const CHECKPOINT_FORMAT: &str = "napsim-optimize-checkpoint/1";

/// An optimiser checkpoint: the strategy file after the phases done, and their time.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    format: String,
    strategy: StrategyFile,
    elapsed_seconds: f64,
    cpu_seconds: f64,
}

impl Render for OptimizePhase {
    const EXTRA_OUTPUTS: &'static [&'static str] = &["`markdown`"];

    /// The strategy file after this phase, its manifest and its Markdown.
    fn render(&self, tally: &OptimizeTally, finished: &Finished) -> Result<Rendered, Error> {
        render_file(self.profile(), &self.next_file(tally), finished)
    }
}

/// The command that reproduces `file`'s run, writing to `out`'s file name (not its folder: the
/// same run writes the same bytes wherever it writes them).
fn reproduce(profile: &Profile, settings: &OptimizeSettings, out: &Path) -> String {
    // The default history is left out, as strategy files leave it out.
    let history = if crate::bots::tuned::is_calls_history(&settings.history) {
        String::new()
    } else {
        format!(" --history {}", settings.history)
    };
    let rating = match settings.rating_deals {
        0 => String::new(),
        deals => format!(" --rating-deals {deals}"),
    };
    format!(
        "napsim --rules {} optimize --players {} --play {} --by {}{history}{rating} --deals {} --rounds {} \
         --level {} --min-hands {} --held-out {} --deviation-level {} --start {} --seed {} \
         --out {}",
        profile.name(),
        settings.players,
        shell_word(&settings.play),
        settings.by,
        settings.deals,
        settings.rounds,
        settings.level,
        settings.min_hands,
        settings.held_out,
        settings.deviation_level,
        shell_word(&settings.start),
        settings.seed,
        shell_word(&out.file_name().unwrap_or(out.as_os_str()).to_string_lossy())
    )
}

/// Writes `file` to `--out` with its manifest, and its Markdown to `--markdown` (by default
/// beside `--out`, with the extension `.md`).
fn render_file(
    profile: &Profile,
    file: &StrategyFile,
    finished: &Finished,
) -> Result<Rendered, Error> {
    let out =
        finished.outputs.out.as_deref().ok_or_else(|| {
            Error::input("the strategy needs a file to go to: give `out` FILE.json")
        })?;
    let settings = &file.found.settings;
    let command = reproduce(profile, settings, out);
    let deals = settings.deals * file.found.rounds.len() as u64
        + file
            .found
            .exploitability
            .as_ref()
            .map_or(0, |_| settings.held_out);
    let identity = crate::run::partial::Identity {
        arguments: serde_json::to_value(settings).expect("settings serialise"),
        seed: settings.seed,
        units: deals,
        ..finished.identity.clone()
    };
    let meta = Meta {
        identity,
        reproduce: Some(command.clone()),
        outcome: Some(serde_json::json!({
            "rounds": file.found.rounds.len(),
            "converged": file.found.converged,
            "cells": file.body.cells.len(),
            "round_reports": file.found.rounds,
            "exploitability": file.found.exploitability,
        })),
        run: finished.run.clone(),
    };
    let markdown_path = finished
        .outputs
        .markdown
        .clone()
        .unwrap_or_else(|| out.with_extension("md"));
    let mut rendered = Rendered::default();
    rendered.add_with_meta(out, file.to_bytes(), &meta);
    rendered.add(
        &markdown_path,
        report::strategy_markdown(profile, file, &command).into_bytes(),
    );
    rendered.stderr += &summary_line(file, out);
    Ok(rendered)
}

/// What the run ended with, in a line.
fn summary_line(file: &StrategyFile, out: &Path) -> String {
    let found = &file.found;
    let exploit = match &found.exploitability {
        Some(e) => format!(
            "; exploitability {:+.3} ± {:.3} units a session",
            e.per_session, e.per_session_se
        ),
        None => String::new(),
    };
    format!(
        "strategy: {} cells after {} round{}{}{exploit}; written to {}\n",
        file.body.cells.len(),
        found.rounds.len(),
        if found.rounds.len() == 1 { "" } else { "s" },
        if found.converged { " (settled)" } else { "" },
        out.display()
    )
}

/// The strategy file a run of `settings` starts from: `start` is `threshold` (no cells) or a
/// strategy file. A file of the same run (the same settings but for where it started)
/// continues that run; any other file's cells start a new one.
pub fn start_file(
    profile: &Profile,
    settings: &OptimizeSettings,
    start: &str,
) -> Result<StrategyFile, Error> {
    let mut settings = settings.clone();
    if start == "threshold" {
        settings.start = start.to_string();
        return Ok(StrategyFile::start(profile, &settings));
    }
    let text = std::fs::read_to_string(start)
        .map_err(|e| Error::input(format!("`start` {start}: cannot read it: {e}")))?;
    let body: StrategyBody = serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("`start` {start}: not a napsim strategy file: {e}")))?;
    let strategy = Strategy::from_body(&body, profile)
        .map_err(|e| Error::input(format!("`start` {start}: {e}")))?;
    if strategy.players != settings.players
        || body.by != settings.by
        || body.history != settings.history
    {
        // The history is named only where it differs: most runs never set it.
        let history = |h: &str| {
            if body.history == settings.history {
                String::new()
            } else {
                format!(" and {h} history")
            }
        };
        return Err(Error::input(format!(
            "`start` {start}: the strategy is for {} players by {} classes{}, this run is for {} \
             players by {} classes{}",
            strategy.players,
            body.by,
            history(&body.history),
            settings.players,
            settings.by,
            history(&settings.history)
        )));
    }
    if let Ok(file) = serde_json::from_str::<StrategyFile>(&text)
        && same_run(&file.found.settings, &settings)
    {
        return Ok(file);
    }
    settings.start = start.to_string();
    let mut file = StrategyFile::start(profile, &settings);
    // The cells' classes are bands of the file's rating: they travel together.
    file.body.rating = body.rating;
    file.body.cells = body.cells;
    Ok(file)
}

/// Whether two settings are of one run (where it started aside).
fn same_run(a: &OptimizeSettings, b: &OptimizeSettings) -> bool {
    let mut a = a.clone();
    a.start = b.start.clone();
    a.input_files = b.input_files.clone();
    a == *b
}

/// `napsim optimize`: runs the phases of `settings` from `start` under `run`'s controls and
/// renders the strategy file, or (with a shard) computes the next phase's share.
pub fn optimize(
    profile: &Profile,
    mut settings: OptimizeSettings,
    start: &str,
    run: LongRun,
) -> Result<Rendered, Error> {
    settings.check(profile)?;
    settings.input_files = crate::bots::input_files(&[&settings.play])?;
    crate::bots::play_policy(&settings.play, profile)?;
    let controls = run.controls;
    run.outputs.check(controls.shard)?;
    let out = run
        .outputs
        .out
        .clone()
        .filter(|p| p != Path::new("-"))
        .ok_or_else(|| Error::input("napsim optimize needs `out` FILE.json for the strategy"))?;
    if controls.shard.is_some() {
        let file = start_file(profile, &settings, start)?;
        let Some(phase) = file.next_phase(&settings) else {
            return Err(Error::input(format!(
                "`start` {start}: the run is finished (its exploitability is measured): \
                 nothing is left to compute"
            )));
        };
        let command = OptimizePhase::prepare(
            profile,
            PhaseJob {
                phase,
                strategy: file,
            },
            &controls.bot_pool,
        )?;
        let execution = Execution::new(controls, Some(&out), run.progress)?;
        execution.run(&command, phase_seed(settings.seed, phase), Some(&out))?;
        return Ok(Rendered::default());
    }
    let state_path = controls
        .checkpoint
        .clone()
        .or_else(|| controls.resume.clone())
        .unwrap_or_else(|| default_state(&out));
    let kept = controls.checkpoint.is_some() || controls.resume.is_some();
    let (mut file, mut spent) = match &controls.resume {
        Some(path) => resume(path, &settings)?,
        None => {
            if state_path.exists() {
                return Err(Error::input(format!(
                    "{} holds the progress of an earlier run: add `resume` {} to continue it, \
                     or remove it (and {}) to start again",
                    state_path.display(),
                    state_path.display(),
                    phase_path(&state_path).display()
                )));
            }
            files::check_writable(&state_path)?;
            (start_file(profile, &settings, start)?, (0.0, 0.0))
        }
    };
    let mut last_identity = None;
    while let Some(phase) = file.next_phase(&settings) {
        save_state(&controls.writes, &state_path, &file, spent)?;
        let command = OptimizePhase::prepare(
            profile,
            PhaseJob {
                phase,
                strategy: file.clone(),
            },
            &controls.bot_pool,
        )?;
        run.progress.info(&format!(
            "{phase}: {} deals{}",
            command.units(),
            match phase {
                Phase::Round(_) => format!(", {} cells held", command.strategy().cells.len()),
                Phase::Rating => ", a Misère declared from each seat".to_string(),
                Phase::Exploitability => " held out, by exact class".to_string(),
            }
        ));
        let phase_file = phase_path(&state_path);
        let phase_controls = Controls {
            shard: None,
            checkpoint: Some(phase_file.clone()),
            resume: phase_file.exists().then(|| phase_file.clone()),
            ..controls.clone()
        };
        let execution = Execution::new(&phase_controls, None, run.progress)?;
        let done = match execution.run(&command, phase_seed(settings.seed, phase), None) {
            Ok(done) => done.expect("a whole run"),
            Err(Error::Interrupted(_)) => {
                save_state(&controls.writes, &state_path, &file, spent)?;
                return Err(Error::Interrupted(format!(
                    "{phase} interrupted; progress saved to {}; run the same command with \
                     `resume` {} to continue",
                    state_path.display(),
                    state_path.display()
                )));
            }
            Err(e) => return Err(e),
        };
        spent.0 += done.elapsed_seconds;
        spent.1 += done.cpu_seconds;
        file = command.next_file(&done.tally);
        if let (Phase::Round(_), Some(report)) = (phase, file.found.rounds.last()) {
            run.progress.info(&format!(
                "{phase}: {} of {} cells reached changed, mean lead {:+.3} per hand, {:+.4} \
                 per deal",
                report.changed, report.cells_reached, report.mean_gain, report.gain_per_deal
            ));
        }
        save_state(&controls.writes, &state_path, &file, spent)?;
        let _ = std::fs::remove_file(&phase_file);
        last_identity = Some(done.identity);
    }
    let identity = match last_identity {
        Some(identity) => identity,
        None => OptimizePhase::prepare(
            profile,
            PhaseJob {
                phase: Phase::Exploitability,
                strategy: file.clone(),
            },
            &controls.bot_pool,
        )?
        .identity(settings.seed),
    };
    let finished = Finished {
        identity,
        run: RunInfo::here(Some(controls.threads), spent.0, spent.1),
        outputs: run.outputs,
    };
    let rendered = render_file(profile, &file, &finished)?;
    if !kept {
        let _ = std::fs::remove_file(&state_path);
    }
    Ok(rendered)
}

/// Where a run without `--checkpoint` keeps its state: beside its output.
fn default_state(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".checkpoint");
    name.into()
}

/// Where the phase under way keeps its progress.
fn phase_path(state: &Path) -> PathBuf {
    let mut name = state.as_os_str().to_owned();
    name.push(".phase");
    name.into()
}

/// Writes the optimiser's state.
fn save_state(
    gate: &files::WriteGate,
    path: &Path,
    file: &StrategyFile,
    spent: (f64, f64),
) -> Result<(), Error> {
    let checkpoint = Checkpoint {
        format: CHECKPOINT_FORMAT.to_string(),
        strategy: file.clone(),
        elapsed_seconds: spent.0,
        cpu_seconds: spent.1,
    };
    let bytes = files::seal(serde_json::to_vec(&checkpoint).expect("a checkpoint serialises"));
    files::write_atomic(path, &bytes, gate)
        .map_err(|e| Error::runtime(format!("cannot write {}: {e}", path.display())))
}

/// The seed of the run saved in the optimiser checkpoint `path`, if it is one.
pub fn saved_seed(path: &Path) -> Option<u64> {
    let text = std::fs::read(path).ok()?;
    let checkpoint: Checkpoint = serde_json::from_slice(&text).ok()?;
    Some(checkpoint.strategy.found.settings.seed)
}

/// The state saved in `path`, which must be of the run `settings` describes.
fn resume(path: &Path, settings: &OptimizeSettings) -> Result<(StrategyFile, (f64, f64)), Error> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| Error::input(format!("`resume` {shown}: {e}")))?;
    let checkpoint: Checkpoint = serde_json::from_slice(&text).map_err(|e| {
        Error::input(format!(
            "`resume` {shown}: not a napsim optimize checkpoint: {e}"
        ))
    })?;
    if checkpoint.format != CHECKPOINT_FORMAT {
        return Err(Error::input(format!(
            "`resume` {shown}: not a napsim optimize checkpoint"
        )));
    }
    let theirs = &checkpoint.strategy.found.settings;
    if !same_run(theirs, settings) {
        return Err(Error::input(format!(
            "`resume` {shown} was saved by a different run (players, play, classes, \
             history, deals, rounds, level, min-hands, held-out or seed differ): give the same arguments"
        )));
    }
    if !files::seal_matches(&text) {
        return Err(Error::input(format!(
            "`resume` {shown}: a damaged or edited checkpoint (its digest does not match its \
             content: napsim resumes only the checkpoints it wrote, unchanged)"
        )));
    }
    Ok((
        checkpoint.strategy,
        (checkpoint.elapsed_seconds, checkpoint.cpu_seconds),
    ))
}
