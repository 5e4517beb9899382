//! Running a long command's blocks under the user's controls: a shard of the run (`--shard`),
//! checkpoints (`--checkpoint`, `--resume`) and a clean stop on SIGINT or SIGTERM.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Failure;
use super::args::RunControl;
use crate::report;
use crate::sim::partial::{self, Identity, Partial, RawPartial};
use crate::sim::{self, Block, Controls, Plan, Progress, RunError, RunState, Shard, Tally};

/// Exit status after an interruption by SIGINT, SIGTERM or SIGHUP alike (128 + SIGINT, as
/// shells report a Ctrl-C): one status for "stopped, progress saved, resumable".
pub const INTERRUPTED: i32 = 130;

/// Set by SIGINT, SIGTERM or SIGHUP; the run stops starting blocks once it is set.
static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the handlers once: the first SIGINT, SIGTERM or SIGHUP (a closed terminal) sets
/// [`STOP`]; a second one, while the run is still stopping, exits at once. SIGHUP is left alone
/// when it was ignored at the start: `nohup napsim ...` asks to outlive the terminal.
fn install_signal_handlers() -> Result<(), Failure> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let hangup = (!ignored(SIGHUP)).then_some(SIGHUP);
            for signal in [SIGINT, SIGTERM].into_iter().chain(hangup) {
                // The shutdown must be registered first: it acts only once STOP is set.
                signal_hook::flag::register_conditional_shutdown(signal, INTERRUPTED, &STOP)
                    .and_then(|_| signal_hook::flag::register(signal, &STOP))
                    .map_err(|e| e.to_string())?;
            }
            Ok(())
        })
        .clone()
        .map_err(|e| Failure::runtime(format!("cannot install the signal handlers: {e}")))
}

/// Whether `signal` is ignored (as `nohup` leaves SIGHUP).
fn ignored(signal: i32) -> bool {
    // SAFETY: with a null new action, sigaction only reads the current one into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// The run controls, checked, with the checkpoint to resume from already read.
pub struct Execution {
    shard: Option<Shard>,
    checkpoint: Option<PathBuf>,
    resume: Option<(PathBuf, RawPartial)>,
    every: Duration,
    threads: usize,
    quiet: bool,
}

impl Execution {
    /// Checks the controls of a command that writes `out` (its `--out`, if any).
    pub fn new(
        control: &RunControl,
        out: Option<&Path>,
        threads: usize,
        quiet: bool,
    ) -> Result<Execution, Failure> {
        if control.shard.is_some() && out.is_none_or(|p| p == Path::new("-")) {
            return Err(Failure::input(
                "--shard needs --out FILE: a shard writes its partial result there, for \
                 `napsim merge`",
            ));
        }
        let resume = match &control.resume {
            Some(path) => {
                let part = partial::read_partial(path)
                    .map_err(|e| Failure::input(format!("--resume: {e}")))?;
                let asked = control.shard.unwrap_or(Shard::WHOLE);
                if part.shard != asked {
                    return Err(Failure::input(format!(
                        "--resume {} holds {}, but this command runs {}",
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
            super::commands::check_writable_dir(path)?;
            if out.is_some_and(|out| report::same_file(out, path)) {
                return Err(Failure::input(format!(
                    "--checkpoint and --out both name {}: give the checkpoint its own file",
                    path.display()
                )));
            }
            let resumed = resume
                .as_ref()
                .is_some_and(|(r, _)| report::same_file(r, path));
            if path.exists() && !resumed {
                return Err(Failure::input(match partial::read_partial(path) {
                    Ok(part) => format!(
                        "--checkpoint {} already holds a saved run ({} of {} units done): add \
                         --resume {} to continue it, or remove the file to start again",
                        path.display(),
                        part.units_done(),
                        part.identity.units_in(&part.range()),
                        path.display()
                    ),
                    Err(_) => format!(
                        "--checkpoint {} already exists and is not a napsim checkpoint: choose \
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
            threads,
            quiet,
        })
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The seed: the one given; else the checkpoint's when resuming; else (not for a shard,
    /// whose siblings must share it) a fresh one, printed so the run can be repeated.
    pub fn seed(&self, given: Option<u64>) -> Result<u64, Failure> {
        if let Some(seed) = given {
            return Ok(seed);
        }
        if let Some((_, part)) = &self.resume {
            return Ok(part.identity.seed);
        }
        if self.shard.is_some() {
            return Err(Failure::input(
                "--shard needs --seed: every shard of a run must use the same seed",
            ));
        }
        Ok(super::commands::fresh_seed())
    }

    /// Runs `identity`'s blocks (of a profile with `bids` bids) (the shard's, the ones the checkpoint lacks), saving
    /// checkpoints as asked. A shard's result is written to `out` as a partial file and `None`
    /// is returned; otherwise the whole tally and the seconds of computing it took. An
    /// interruption (SIGINT, SIGTERM, SIGHUP) saves a checkpoint and fails with [`INTERRUPTED`].
    pub fn run<T, F>(
        &self,
        identity: &Identity,
        bids: usize,
        unit: &str,
        out: Option<&Path>,
        work: F,
    ) -> Result<Option<(T, f64)>, Failure>
    where
        T: Tally + Default + Serialize + DeserializeOwned,
        F: Fn(Block) -> T + Sync,
    {
        let shard = self.shard.unwrap_or(Shard::WHOLE);
        let (state, elapsed_before) = match &self.resume {
            Some((path, part)) => resumed_state(path, part, identity, bids)?,
            None => (RunState::default(), 0.0),
        };
        let blocks = shard.blocks(identity.blocks());
        let plan = Plan {
            total: identity.units,
            block_size: identity.block_size,
            seed: identity.seed,
        };
        let shard_units = identity.units_in(&blocks);
        let progress = Progress::new(shard_units, unit, self.quiet);
        progress.advance(identity.units_done(&state.done));
        install_signal_handlers()?;
        let start = Instant::now();
        let elapsed = || elapsed_before + start.elapsed().as_secs_f64();
        let save_to = self
            .checkpoint
            .clone()
            .or_else(|| self.resume.as_ref().map(|(p, _)| p.clone()));
        let fallback = default_checkpoint(identity, shard, out);
        if save_to.is_none() && fallback.exists() {
            return Err(Failure::input(format!(
                "{} holds the progress of an interrupted run: add --resume {} to continue it, \
                 or remove the file to start again",
                fallback.display(),
                fallback.display()
            )));
        }
        if blocks.is_empty() && !self.quiet {
            crate::stderr::line(&format!(
                "note: shard {shard} has no blocks to run (the run has {} blocks of {} {unit})",
                identity.blocks(),
                identity.block_size
            ));
        }
        let mut last_save = Instant::now();
        let controls = Controls {
            blocks: blocks.clone(),
            threads: self.threads,
            stop: &STOP,
        };
        let finished = AtomicBool::new(false);
        let result = std::thread::scope(|scope| {
            // Blocks can be long (PIMC play): say at once that the stop was heard.
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    if STOP.load(Ordering::Relaxed) {
                        progress.note(
                            "stopping after the blocks under way (a second Ctrl-C or SIGTERM \
                             quits without saving)",
                        );
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
            // Set however the run ends (a panic in a block too): the watcher must stop for
            // the scope to end.
            struct SetOnDrop<'a>(&'a AtomicBool);
            impl Drop for SetOnDrop<'_> {
                fn drop(&mut self) {
                    self.0.store(true, Ordering::Relaxed);
                }
            }
            let _finished = SetOnDrop(&finished);
            sim::run_controlled(
                plan,
                &controls,
                state,
                &progress,
                work,
                |state| match &save_to {
                    Some(path) if last_save.elapsed() >= self.every => {
                        last_save = Instant::now();
                        save(path, identity, shard, state, elapsed())
                    }
                    _ => Ok(()),
                },
            )
        });
        let state = match result {
            Ok(state) => state,
            Err(RunError::Pool(e)) => return Err(Failure::runtime(e)),
            Err(RunError::Observer(failure)) => return Err(failure),
        };
        let elapsed = elapsed();
        if !state.done.is_exactly(&blocks) {
            let done = identity.units_done(&state.done);
            let interrupted = format!("interrupted after {done} of {shard_units} {unit}");
            let path = match save_to {
                Some(path) => path,
                None => fallback,
            };
            // The default place may be unwritable (a read-only directory): then the temporary
            // directory, rather than losing the run.
            let saved = save(&path, identity, shard, &state, elapsed)
                .map(|()| path.clone())
                .or_else(|first| {
                    let name = path.file_name().unwrap_or_default();
                    let elsewhere = std::env::temp_dir().join(name);
                    save(&elsewhere, identity, shard, &state, elapsed)
                        .map(|()| elsewhere)
                        .map_err(|_| first)
                })
                .map_err(|e| {
                    Failure::runtime(format!("{interrupted}; could not save: {}", e.message))
                })?;
            let how = match &self.resume {
                Some((old, _)) if !report::same_file(old, &saved) => format!(
                    "run the same command with --resume {} in place of --resume {} to continue",
                    saved.display(),
                    old.display()
                ),
                Some(_) => "run the same command again to continue".to_string(),
                None => format!(
                    "run the same command with --resume {} to continue",
                    saved.display()
                ),
            };
            return Err(Failure {
                code: INTERRUPTED,
                message: format!(
                    "{interrupted}; progress saved to {}; {how}",
                    saved.display()
                ),
            });
        }
        if let Some(path) = &self.checkpoint {
            save(path, identity, shard, &state, elapsed)?;
        }
        if self.shard.is_some() {
            let out = out.expect("checked in Execution::new: a shard has --out");
            save(out, identity, shard, &state, elapsed)?;
            if !self.quiet {
                crate::stderr::line(&format!(
                    "shard {shard}: {shard_units} {unit} (blocks {} to {} of {}) in {elapsed:.2} \
                     s, written to {}",
                    blocks.start,
                    blocks.end,
                    identity.blocks(),
                    out.display()
                ));
            }
            return Ok(None);
        }
        Ok(Some((state.tally, elapsed)))
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
fn resumed_state<T: DeserializeOwned + Tally>(
    path: &Path,
    part: &RawPartial,
    identity: &Identity,
    bids: usize,
) -> Result<(RunState<T>, f64), Failure> {
    if let Some((field, ours, theirs)) = identity.difference(&part.identity) {
        return Err(Failure::input(format!(
            "--resume {} was saved by a different run: {field} is {theirs} there, {ours} here",
            path.display()
        )));
    }
    let tally = partial::decode_tally::<T>(part, bids)
        .map_err(|e| Failure::input(format!("--resume {}: {e}", path.display())))?;
    let state = RunState {
        done: part.done.clone(),
        tally,
    };
    Ok((state, part.elapsed_seconds))
}

/// Writes a partial file atomically.
fn save<T: Serialize>(
    path: &Path,
    identity: &Identity,
    shard: Shard,
    state: &RunState<T>,
    elapsed: f64,
) -> Result<(), Failure> {
    // The tally by reference: a checkpoint does not copy it.
    let view = RunState {
        done: state.done.clone(),
        tally: &state.tally,
    };
    let bytes = Partial::new(identity.clone(), shard, view, elapsed)
        .to_bytes()
        .map_err(|e| Failure::runtime(format!("cannot encode {}: {e}", path.display())))?;
    report::write_atomic(path, &bytes)
        .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))
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
    match out.filter(|p| *p != Path::new("-") && !report::is_special_file(p)) {
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
