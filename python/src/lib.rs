//! `napsim._napsim`: the library's jobs for Python. Each function takes the job's arguments,
//! runs it with the GIL released, and returns what the command line would print (the Python
//! package's `napsim/__init__.py` turns it into Python values).

use napsim::analysis::hand::{Hand, HandJob, HandWorlds};
use napsim::commands::{LongRun, Outputs, run_long};
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

/// A seed for a run given none: from the clock and the process, like the command line's.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
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
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let stdout = py
        .detach(move || {
            let profile = napsim::rules::load_profile(&rules).map_err(|e| described(e.into()))?;
            let controls = Controls {
                threads,
                ..Controls::default()
            };
            let run = LongRun {
                seed,
                controls: &controls,
                outputs: Outputs::default(),
                progress: &napsim::sim::Silent,
            };
            let rendered = run_long::<Hand>(&profile, job, run, fresh_seed).map_err(described)?;
            String::from_utf8(rendered.stdout).map_err(|e| (false, e.to_string()))
        })
        .map_err(python_error)?;
    Ok(stdout)
}

/// The extension module.
#[pymodule]
fn _napsim(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(hand_json, module)?)?;
    module.add("__version__", napsim::napsim_version())?;
    Ok(())
}
