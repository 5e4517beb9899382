//! `napsim._napsim`: the library's jobs for Python. Each function takes the job's arguments,
//! runs it with the GIL released, and returns what the command line would print (the Python
//! package's `napsim/__init__.py` turns it into Python values).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use napsim::analysis::hand::{Hand, HandJob, HandWorlds};
use napsim::analysis::simulate::{Simulate, SimulateJob};
use napsim::commands::{LongRun, Outputs, Render, run_long};
use napsim::run::Controls;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// An error of the library as Python sees it: bad input raises `ValueError`, anything else
/// `RuntimeError`, with the text the command line prints after `error:`.
fn python_error((input, message): (bool, String)) -> PyErr {
    if input {
        PyValueError::new_err(message)
    } else {
        PyRuntimeError::new_err(message)
    }
}

/// The library's error as (is it bad input, its text): sendable out of the released GIL.
fn described(error: napsim::error::Error) -> (bool, String) {
    (error.is_input(), error.to_string())
}

/// Runs the long command `C` on its own thread, with the GIL released, and returns what it
/// prints to stdout. Python's signals are checked every tenth of a second: on Ctrl-C the run is
/// told to stop (the blocks under way finish, nothing is left running) and the
/// `KeyboardInterrupt` is raised.
fn run_in_python<C: Render>(
    py: Python<'_>,
    rules: String,
    job: C::Job,
    seed: Option<u64>,
    threads: Option<usize>,
    out: Option<PathBuf>,
) -> PyResult<String>
where
    C::Job: Send + 'static,
{
    let stop = Arc::new(AtomicBool::new(false));
    // A run told to stop saves its progress; from Python it is not resumed, so it saves into
    // a folder of its own that is removed however the run ends (nothing is left behind).
    let scratch = std::env::temp_dir().join(format!(
        "napsim-python-{}-{:016x}",
        std::process::id(),
        napsim::rng::fresh_seed()
    ));
    std::fs::create_dir_all(&scratch).map_err(|e| {
        PyRuntimeError::new_err(format!("cannot create {}: {e}", scratch.display()))
    })?;
    let defaults = Controls::default();
    let controls = Controls {
        threads: threads.unwrap_or(defaults.threads),
        stop: Arc::clone(&stop),
        checkpoint: Some(scratch.join("run.checkpoint")),
        ..defaults
    };
    let worker = std::thread::spawn(move || {
        let profile = napsim::rules::load_profile(&rules).map_err(|e| described(e.into()))?;
        let run = LongRun {
            seed,
            controls: &controls,
            outputs: Outputs {
                out,
                ..Outputs::default()
            },
            progress: &napsim::sim::Silent,
        };
        let rendered =
            run_long::<C>(&profile, job, run, napsim::rng::fresh_seed).map_err(described)?;
        String::from_utf8(rendered.stdout).map_err(|e| (false, e.to_string()))
    });
    let mut interrupted = None;
    while !py.detach(|| finished_within(&worker, Duration::from_millis(100))) {
        if let Err(interrupt) = py.check_signals() {
            stop.store(true, Ordering::Relaxed);
            interrupted = Some(interrupt);
            break;
        }
    }
    let result = py.detach(|| worker.join());
    let _ = std::fs::remove_dir_all(&scratch);
    if let Some(interrupt) = interrupted {
        return Err(interrupt);
    }
    match result {
        Ok(result) => result.map_err(python_error),
        Err(_) => Err(PyRuntimeError::new_err("the run failed")),
    }
}

/// Whether `worker` finishes within `wait` (checked every few milliseconds).
fn finished_within<T>(worker: &std::thread::JoinHandle<T>, wait: Duration) -> bool {
    let start = std::time::Instant::now();
    while !worker.is_finished() && start.elapsed() < wait {
        std::thread::sleep(Duration::from_millis(5));
    }
    worker.is_finished()
}

/// `napsim simulate --out -` with the same arguments: the per-bid CSV.
#[pyfunction]
#[pyo3(signature = (rules, players, deals, bid, play, seed, threads))]
#[allow(clippy::too_many_arguments)]
fn simulate_csv(
    py: Python<'_>,
    rules: String,
    players: usize,
    deals: u64,
    bid: String,
    play: String,
    seed: Option<u64>,
    threads: Option<usize>,
) -> PyResult<String> {
    let job = SimulateJob {
        players,
        deals,
        bid,
        play,
        input_files: Default::default(),
    };
    run_in_python::<Simulate>(py, rules, job, seed, threads, Some(PathBuf::from("-")))
}

/// `napsim hand CARDS --json` with the same arguments: the JSON document.
#[pyfunction]
#[pyo3(signature = (cards, rules, players, seat, after, worlds, precision, play, others_bid, dd, as_declarer, seed, threads))]
#[allow(clippy::too_many_arguments)]
fn hand_json(
    py: Python<'_>,
    cards: String,
    rules: String,
    players: usize,
    seat: usize,
    after: Vec<String>,
    worlds: Option<u64>,
    precision: Option<f64>,
    play: Option<String>,
    others_bid: Option<String>,
    dd: bool,
    as_declarer: bool,
    seed: Option<u64>,
    threads: Option<usize>,
) -> PyResult<String> {
    let defaults = HandJob::new(cards);
    let job = HandJob {
        players,
        seat,
        after,
        play: play.unwrap_or(defaults.play.clone()),
        others_bid: others_bid.unwrap_or(defaults.others_bid.clone()),
        dd,
        auction: !as_declarer,
        format: "json".to_string(),
        ..defaults
    }
    .with_worlds(HandWorlds::resolve(worlds, precision));
    run_in_python::<Hand>(py, rules, job, seed, threads, None)
}

/// The extension module.
#[pymodule]
fn _napsim(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(hand_json, module)?)?;
    module.add_function(wrap_pyfunction!(simulate_csv, module)?)?;
    module.add("__version__", napsim::napsim_version())?;
    Ok(())
}
