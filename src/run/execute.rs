//! Running a long command's blocks under the user's controls: a shard of the run, checkpoints
//! (saving, resuming) and a clean stop when the caller's stop flag is set.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::LongCommand;
use super::partial::{self, Identity, Partial, RawPartial, Spent, process_cpu_seconds};
use crate::bots::ext::BotPool;
use crate::error::Error;
use crate::files::{self, WriteGate};
use crate::sim::{self, Plan, Progress, RunError, RunState, Shard};

/// How the user controls a long run: which share of it this process computes, where its
/// progress is saved, and when it stops.
#[derive(Clone, Debug)]
pub struct Controls {
    /// Run only this shard of the run's blocks, and write its partial result to the output.
    pub shard: Option<Shard>,
    /// Save progress to this file at block boundaries, at least every `checkpoint_every`
    /// seconds, and when stopped.
    pub checkpoint: Option<PathBuf>,
    /// Continue the run saved in this file.
    pub resume: Option<PathBuf>,
    /// Seconds between checkpoints.
    pub checkpoint_every: f64,
    /// Worker threads.
    pub threads: usize,
    /// Once set (by a signal handler, a user interface), no further block starts: the blocks
    /// under way finish, their progress is saved and the run ends with
    /// [`Error::Interrupted`].
    pub stop: Arc<AtomicBool>,
    /// Where the run's external bots run (the command line's pool, which its signal handlers
    /// can end; by default one of the run's own, ended with it).
    pub bot_pool: BotPool,
    /// The program's writes, which an exit asked for by a signal waits for (the command line's;
    /// by default one of the run's own, which no one asks to exit).
    pub writes: WriteGate,
    /// Whether a run stopped before its end saves its progress to resume it (to `checkpoint`,
    /// else to a file beside its output): true, as the command line's runs do; false, it saves
    /// nothing and writes no file (a web request whose client went away).
    pub save_interrupted: bool,
}

impl Default for Controls {
    /// The whole run on every core, no checkpoint, never stopped.
    fn default() -> Controls {
        Controls {
            shard: None,
            checkpoint: None,
            resume: None,
            checkpoint_every: 10.0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            stop: Arc::new(AtomicBool::new(false)),
            bot_pool: BotPool::default(),
            writes: WriteGate::default(),
            save_interrupted: true,
        }
    }
}

/// A finished run (or shard) of a long command: its identity, its tally and its computing
/// time (summed over resumptions).
pub struct Done<T> {
    /// Which run.
    pub identity: Identity,
    /// The merged tally of every block.
    pub tally: T,
    /// Seconds of computing.
    pub elapsed_seconds: f64,
    /// CPU seconds of computing.
    pub cpu_seconds: f64,
}

/// The run controls, checked, with the checkpoint to resume from already read.
pub struct Execution<'p> {
    shard: Option<Shard>,
    checkpoint: Option<PathBuf>,
    resume: Option<(PathBuf, RawPartial)>,
    every: Duration,
    threads: usize,
    stop: Arc<AtomicBool>,
    writes: WriteGate,
    bots: BotPool,
    save_interrupted: bool,
    progress: &'p dyn Progress,
}

impl<'p> Execution<'p> {
    /// Checks the controls of a command that writes `out` (its `--out`, if any); `progress`
    /// hears of the run's progress and notes.
    pub fn new(
        control: &Controls,
        out: Option<&Path>,
        progress: &'p dyn Progress,
    ) -> Result<Execution<'p>, Error> {
        if control.shard.is_some() && out.is_none_or(|p| p == Path::new("-")) {
            return Err(Error::input(
                "`shard` needs `out` FILE: a shard writes its partial result there, for \
                 `napsim merge`",
            ));
        }
        let resume = match &control.resume {
            Some(path) => {
                let part = partial::read_partial(path)
                    .map_err(|e| Error::input(format!("`resume`: {e}")))?;
                let asked = control.shard.unwrap_or(Shard::WHOLE);
                if part.shard != asked {
                    return Err(Error::input(format!(
                        "`resume` {} holds {}, but this command runs {}",
                        path.display(),
                        describe_shard(part.shard),
                        describe_shard(asked)
                    )));
                }
                Some((path.clone(), part))
            }
            None => None,
        };
        if let Some(path) = &control.checkpoint {
            files::check_writable(path)?;
            if out.is_some_and(|out| files::same_file(out, path)) {
                return Err(Error::input(format!(
                    "`checkpoint` and `out` both name {}: give the checkpoint its own file",
                    path.display()
                )));
            }
            let resumed = resume
                .as_ref()
                .is_some_and(|(r, _)| files::same_file(r, path));
            if path.exists() && !resumed {
                return Err(Error::input(match partial::read_partial(path) {
                    Ok(part) => format!(
                        "`checkpoint` {} already holds a saved run ({} of {} units done): add \
                         `resume` {} to continue it, or remove the file to start again",
                        path.display(),
                        part.units_done(),
                        part.identity.units_in(&part.range()),
                        path.display()
                    ),
                    Err(_) => format!(
                        "`checkpoint` {} already exists and is not a napsim checkpoint: choose \
                         another file",
                        path.display()
                    ),
                }));
            }
        }
        Ok(Execution {
            shard: control.shard,
            checkpoint: control.checkpoint.clone(),
            resume,
            every: Duration::from_secs_f64(control.checkpoint_every),
            threads: control.threads,
            stop: control.stop.clone(),
            writes: control.writes.clone(),
            bots: control.bot_pool.clone(),
            save_interrupted: control.save_interrupted,
            progress,
        })
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The seed: the one given; else the checkpoint's when resuming; else (not for a shard,
    /// whose siblings must share it) `None`: the caller chooses a fresh one and says which.
    pub fn seed(&self, given: Option<u64>) -> Result<Option<u64>, Error> {
        if let Some(seed) = given {
            return Ok(Some(seed));
        }
        if let Some((_, part)) = &self.resume {
            return Ok(Some(part.identity.seed));
        }
        if self.shard.is_some() {
            return Err(Error::input(
                "`shard` needs `seed`: every shard of a run must use the same seed",
            ));
        }
        Ok(None)
    }

    /// Runs `command`'s blocks with `seed` (the shard's, the ones the checkpoint lacks),
    /// saving checkpoints as asked. A shard's result is written to `out` as a partial file and
    /// `None` is returned; otherwise the whole run. A stop saves a checkpoint and fails with
    /// [`Error::Interrupted`].
    pub fn run<C: LongCommand>(
        &self,
        command: &C,
        seed: u64,
        out: Option<&Path>,
    ) -> Result<Option<Done<C::Tally>>, Error> {
        let identity = &command.identity(seed);
        let unit = C::UNIT;
        let bids = command.profile().bids().len();
        let work = |block| {
            let tally = command.block(seed, block);
            // A bot that failed in this block, or in another while this one ran, left its
            // failure with the pool: what this block decided since may rest on stand-ins.
            match self.bots.failure() {
                Some(why) => Err(sim::Abort(why)),
                None => Ok(tally),
            }
        };
        let shard = self.shard.unwrap_or(Shard::WHOLE);
        let adaptive = command.check_every().is_some();
        if adaptive && let Some(shard) = self.shard {
            return Err(Error::input(format!(
                "`shard` {shard}: this run stops as soon as its answer is known (napsim hand's \
                 `precision` or default, napsim tournament's `sprt`), so it cannot be split into \
                 shards: give hand a fixed `worlds` K, or run the tournament without `sprt`"
            )));
        }
        let (state, spent_before) = match &self.resume {
            Some((path, part)) => resumed_state(path, part, identity, bids)?,
            None => (RunState::default(), Spent::default()),
        };
        if adaptive && !sim::is_prefix(&state.done) {
            return Err(Error::input(
                "`resume`: the checkpoint holds blocks that are not the first of the run, which \
                 a run that stops early never saves",
            ));
        }
        command.resuming(&state.tally);
        let blocks = shard.blocks(identity.blocks());
        let plan = Plan {
            total: identity.units,
            block_size: identity.block_size,
            seed: identity.seed,
        };
        let shard_units = identity.units_in(&blocks);
        let progress = self.progress;
        let start = Instant::now();
        let cpu_start = process_cpu_seconds();
        let elapsed = || {
            spent_before.plus(Spent {
                elapsed_seconds: start.elapsed().as_secs_f64(),
                cpu_seconds: process_cpu_seconds() - cpu_start,
            })
        };
        let save_to = self
            .checkpoint
            .clone()
            .or_else(|| self.resume.as_ref().map(|(p, _)| p.clone()));
        let fallback = default_checkpoint(identity, shard, out);
        if save_to.is_none() && self.save_interrupted && fallback.exists() {
            return Err(Error::input(format!(
                "{} holds the progress of an interrupted run: add `resume` {} to continue it, \
                 or remove the file to start again",
                fallback.display(),
                fallback.display()
            )));
        }
        if blocks.is_empty() {
            progress.info(&format!(
                "note: shard {shard} has no blocks to run (the run has {} blocks of {} {unit})",
                identity.blocks(),
                identity.block_size
            ));
        }
        progress.start(shard_units, identity.units_done(&state.done), unit);
        let mut last_save = Instant::now();
        let controls = sim::Controls {
            blocks: blocks.clone(),
            threads: self.threads,
            stop: &self.stop,
        };
        let finished = AtomicBool::new(false);
        let result = std::thread::scope(|scope| {
            // Blocks can be long (PIMC play): say at once that the stop was heard.
            let watcher = scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    if self.stop.load(Ordering::Relaxed) {
                        progress.note(
                            "stopping after the blocks under way (a second Ctrl-C or SIGTERM \
                             quits without saving)",
                        );
                        return;
                    }
                    std::thread::park_timeout(Duration::from_millis(50));
                }
            });
            // Set however the run ends (a panic in a block too): the watcher must stop for
            // the scope to end, and is woken so that a short run does not wait for it.
            struct SetOnDrop<'a>(&'a AtomicBool, std::thread::Thread);
            impl Drop for SetOnDrop<'_> {
                fn drop(&mut self) {
                    self.0.store(true, Ordering::Relaxed);
                    self.1.unpark();
                }
            }
            let _finished = SetOnDrop(&finished, watcher.thread().clone());
            let observe = |state: &RunState<C::Tally>| match &save_to {
                Some(path) if last_save.elapsed() >= self.every => {
                    last_save = Instant::now();
                    save(&self.writes, path, identity, shard, state, elapsed())
                }
                _ => Ok(()),
            };
            match command.check_every() {
                None => sim::run_controlled(plan, &controls, state, progress, work, observe)
                    .map(|state| (state, false)),
                Some(every) => {
                    let stop = |tally: &mut C::Tally| command.may_stop(tally);
                    let checks = sim::Checks { every, stop: &stop };
                    sim::run_adaptive(plan, &controls, state, progress, work, checks, observe)
                        .map(|run| (run.state, run.stopped))
                }
            }
        });
        let (state, stopped) = match result {
            Ok(ended) => ended,
            Err(RunError::Pool(e)) => return Err(Error::runtime(e)),
            Err(RunError::Observer(error)) => return Err(error),
            Err(RunError::Aborted {
                block,
                abort,
                state,
            }) => {
                let at = format!(
                    "{} (block {block} of the run with seed {})",
                    abort.0, identity.seed
                );
                // Only where the user asked for a checkpoint: a failed bot is no interruption
                // to resume by default.
                let Some(path) = save_to else {
                    return Err(Error::runtime(at));
                };
                let done = identity.units_done(&state.done);
                return Err(
                    match save(&self.writes, &path, identity, shard, &state, elapsed()) {
                        Ok(()) => Error::runtime(format!(
                            "{at}; the {done} {unit} finished before it are saved in {}",
                            path.display()
                        )),
                        Err(e) => {
                            Error::runtime(format!("{at}; could not save the checkpoint: {e}"))
                        }
                    },
                );
            }
        };
        let elapsed = elapsed();
        if !stopped && !state.done.is_exactly(&blocks) {
            let done = identity.units_done(&state.done);
            let interrupted = format!("interrupted after {done} of {shard_units} {unit}");
            if !self.save_interrupted && save_to.is_none() {
                return Err(Error::Interrupted(format!("{interrupted}; nothing saved")));
            }
            let path = match save_to {
                Some(path) => path,
                None => fallback,
            };
            // The default place may be unwritable (a read-only directory): then the temporary
            // directory, rather than losing the run.
            let saved = save(&self.writes, &path, identity, shard, &state, elapsed)
                .map(|()| path.clone())
                .or_else(|first| {
                    let name = path.file_name().unwrap_or_default();
                    let elsewhere = std::env::temp_dir().join(name);
                    save(&self.writes, &elsewhere, identity, shard, &state, elapsed)
                        .map(|()| elsewhere)
                        .map_err(|_| first)
                })
                .map_err(|e| Error::runtime(format!("{interrupted}; could not save: {e}")))?;
            let how = match &self.resume {
                Some((old, _)) if !files::same_file(old, &saved) => format!(
                    "run the same command with `resume` {} in place of `resume` {} to continue",
                    saved.display(),
                    old.display()
                ),
                Some(_) => "run the same command again to continue".to_string(),
                None => format!(
                    "run the same command with `resume` {} to continue",
                    saved.display()
                ),
            };
            return Err(Error::Interrupted(format!(
                "{interrupted}; progress saved to {}; {how}",
                saved.display()
            )));
        }
        if let Some(path) = &self.checkpoint {
            save(&self.writes, path, identity, shard, &state, elapsed)?;
        }
        if self.shard.is_some() {
            let out = out.expect("checked in Execution::new: a shard has `out`");
            save(&self.writes, out, identity, shard, &state, elapsed)?;
            progress.info(&format!(
                "shard {shard}: {shard_units} {unit} (blocks {} to {} of {}) in {:.2} s, \
                 written to {}",
                blocks.start,
                blocks.end,
                identity.blocks(),
                elapsed.elapsed_seconds,
                out.display()
            ));
            return Ok(None);
        }
        Ok(Some(Done {
            identity: identity.clone(),
            tally: state.tally,
            elapsed_seconds: elapsed.elapsed_seconds,
            cpu_seconds: elapsed.cpu_seconds,
        }))
    }
}

/// "shard I/N", or "the whole run".
fn describe_shard(shard: Shard) -> String {
    if shard == Shard::WHOLE {
        "the whole run".into()
    } else {
        format!("shard {shard}")
    }
}

/// The state a checkpoint holds, once it is known to be of this run.
fn resumed_state<T: serde::de::DeserializeOwned + sim::Tally>(
    path: &Path,
    part: &RawPartial,
    identity: &Identity,
    bids: usize,
) -> Result<(RunState<T>, Spent), Error> {
    if let Some((field, ours, theirs)) = identity.difference(&part.identity) {
        return Err(Error::input(format!(
            "`resume` {} was saved by a different run: {field} is {theirs} there, {ours} here",
            path.display()
        )));
    }
    let tally = partial::decode_tally::<T>(part, bids)
        .map_err(|e| Error::input(format!("`resume` {}: {e}", path.display())))?;
    let state = RunState {
        done: part.done.clone(),
        tally,
    };
    let spent = Spent {
        elapsed_seconds: part.elapsed_seconds,
        cpu_seconds: part.cpu_seconds,
    };
    Ok((state, spent))
}

/// Writes a partial file atomically.
fn save<T: Serialize>(
    gate: &WriteGate,
    path: &Path,
    identity: &Identity,
    shard: Shard,
    state: &RunState<T>,
    elapsed: Spent,
) -> Result<(), Error> {
    // The tally by reference: a checkpoint does not copy it.
    let view = RunState {
        done: state.done.clone(),
        tally: &state.tally,
    };
    let bytes = Partial::new(identity.clone(), shard, view, elapsed)
        .to_bytes()
        .map_err(|e| Error::runtime(format!("cannot encode {}: {e}", path.display())))?;
    files::write_atomic(path, &bytes, gate)
        .map_err(|e| Error::runtime(format!("cannot write {}: {e}", path.display())))
}

/// Where an interrupted run without `--checkpoint` saves its progress: beside its output, or
/// in the current directory; the name holds a digest of the run, so that different runs do not
/// share one.
fn default_checkpoint(identity: &Identity, shard: Shard, out: Option<&Path>) -> PathBuf {
    let digest = identity.digest();
    let shard_part = if shard == Shard::WHOLE {
        String::new()
    } else {
        format!("-shard-{}-of-{}", shard.index, shard.count)
    };
    match out.filter(|p| *p != Path::new("-") && !files::is_special_file(p)) {
        Some(out) => {
            let mut name = out.as_os_str().to_owned();
            name.push(format!("{shard_part}.{digest}.checkpoint"));
            name.into()
        }
        None => PathBuf::from(format!(
            "napsim-{}-{}{shard_part}.{digest}.checkpoint",
            identity.command, identity.seed
        )),
    }
}
