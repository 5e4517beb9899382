//! `napsim._napsim`: the library's jobs for Python. Each function takes the job's arguments,
//! runs it with the GIL released, and returns what the command line would print (the Python
//! package's `napsim/__init__.py` turns it into Python values).

mod game;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use std::sync::atomic::AtomicU64;

use napsim::analysis::bid_table::{BidTable, BidTableJob, read_class_file};
use napsim::analysis::hand::{Hand, HandJob, HandWorlds};
use napsim::analysis::simulate::{Simulate, SimulateJob};
use napsim::analysis::thresholds::{Thresholds, ThresholdsJob};
use napsim::analysis::tournament::{Tournament, TournamentJob};
use napsim::bots::ext::BotPool;
use napsim::commands::{
    self, LongRun, Outputs, Render, ReviewJob, Rows, SolveJob, run_long, run_long_rows,
};
use napsim::error::Error;
use napsim::rules::Profile;
use napsim::run::Controls;
use napsim::run::LongCommand;
use napsim::sim::Progress;
use napsim::stats::sprt::Sprt;
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

/// What a run has done so far, for the progress callback: written by the run's threads,
/// read by the Python thread between its checks for signals.
#[derive(Default)]
struct Counted {
    total: AtomicU64,
    done: AtomicU64,
}

impl Progress for Counted {
    fn start(&self, total: u64, done: u64, _unit: &str) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}

/// Runs `work` on its own thread with the GIL released and returns its value. Every tenth of
/// a second the Python thread checks for signals and, when it is given, calls `progress` with
/// `(done, total)` if they moved. On Ctrl-C `stop` is set (the run finishes the work under way
/// and ends, nothing is left running) and the `KeyboardInterrupt` is raised once it has.
fn run_on_thread<T: Send + 'static>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    counted: Arc<Counted>,
    stop: Arc<AtomicBool>,
    work: impl FnOnce() -> Result<T, (bool, String)> + Send + 'static,
) -> PyResult<T> {
    // External bots belong to the run's own pool, which ends them as the run ends.
    let worker = std::thread::spawn(work);
    let mut interrupted = None;
    let mut shown = (u64::MAX, u64::MAX);
    let mut report = |py: Python<'_>| -> PyResult<()> {
        let now = (
            counted.done.load(Ordering::Relaxed),
            counted.total.load(Ordering::Relaxed),
        );
        if let Some(callback) = &progress
            && now != shown
            && now.1 > 0
        {
            shown = now;
            callback.call1(py, now)?;
        }
        Ok(())
    };
    while !py.detach(|| finished_within(&worker, Duration::from_millis(100))) {
        let checked = py.check_signals().and_then(|()| report(py));
        if let Err(error) = checked {
            stop.store(true, Ordering::Relaxed);
            interrupted = Some(error);
            break;
        }
    }
    let result = py.detach(|| worker.join());
    if interrupted.is_none()
        && let Err(error) = report(py)
    {
        interrupted = Some(error);
    }
    if let Some(error) = interrupted {
        return Err(error);
    }
    match result {
        Ok(result) => result.map_err(python_error),
        Err(_) => Err(PyRuntimeError::new_err("the run failed")),
    }
}

/// How a function is run: its profile, seed, threads and progress callback.
struct RunOptions {
    rules: String,
    seed: Option<u64>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    /// Seconds an external bot may take to answer one request (None: the default).
    move_time: Option<f64>,
}

/// A pool for a run's external bots whose answers may take `move_time` seconds each (None:
/// [`napsim::bots::ext::DEFAULT_MOVE_TIME`]); the run's end ends them.
fn bot_pool(move_time: Option<f64>) -> PyResult<BotPool> {
    match move_time {
        None => Ok(BotPool::default()),
        Some(secs) if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 => {
            Ok(BotPool::new(Duration::from_secs_f64(secs)))
        }
        Some(secs) => Err(PyValueError::new_err(format!(
            "move_time {secs}: give the seconds a bot may take to answer, above 0 and at most a day"
        ))),
    }
}

/// How a long command's finished run becomes the text handed to Python.
type Finish<C> = fn(&Profile, <C as LongCommand>::Job, LongRun) -> Result<String, Error>;

/// What the command prints to stdout.
fn printed<C: Render>(profile: &Profile, job: C::Job, run: LongRun) -> Result<String, Error> {
    let rendered = run_long::<C>(profile, job, run, napsim::rng::fresh_seed)?;
    String::from_utf8(rendered.stdout).map_err(|e| Error::Runtime(e.to_string()))
}

/// The command's rows ([`Rows`]) as a JSON array of objects.
fn rows_json<C: Rows>(profile: &Profile, job: C::Job, run: LongRun) -> Result<String, Error> {
    let rows = run_long_rows::<C>(profile, job, run, napsim::rng::fresh_seed)?;
    serde_json::to_string(&rows).map_err(|e| Error::Runtime(e.to_string()))
}

/// Runs the long command `C` on its own thread ([`run_on_thread`]), `out` being the output it
/// is told to write, and returns what `finish` makes of it.
fn run_in_python<C: Render>(
    py: Python<'_>,
    options: RunOptions,
    job: C::Job,
    (out, finish): (Option<PathBuf>, Finish<C>),
) -> PyResult<String>
where
    C::Job: Send + 'static,
{
    let pool = bot_pool(options.move_time)?;
    let stop = Arc::new(AtomicBool::new(false));
    // From Python a run is never resumed, so one stopped by Ctrl-C saves nothing (no
    // checkpoint beside the caller's files, nothing to clean up) and writes no partial output.
    let defaults = Controls::default();
    let controls = Controls {
        threads: options.threads.unwrap_or(defaults.threads),
        stop: Arc::clone(&stop),
        bot_pool: pool,
        save_interrupted: false,
        ..defaults
    };
    let counted = Arc::new(Counted::default());
    let (rules, seed) = (options.rules, options.seed);
    let reporter = Arc::clone(&counted);
    let work = move || {
        let profile = napsim::rules::load_profile(&rules).map_err(|e| described(e.into()))?;
        let run = LongRun {
            seed,
            controls: &controls,
            outputs: Outputs {
                out,
                ..Outputs::default()
            },
            progress: reporter.as_ref(),
        };
        finish(&profile, job, run).map_err(described)
    };
    run_on_thread(py, options.progress, counted, stop, work)
}

/// Whether `worker` finishes within `wait` (checked every few milliseconds).
fn finished_within<T>(worker: &std::thread::JoinHandle<T>, wait: Duration) -> bool {
    let start = std::time::Instant::now();
    while !worker.is_finished() && start.elapsed() < wait {
        std::thread::sleep(Duration::from_millis(5));
    }
    worker.is_finished()
}

/// `napsim simulate` with the same arguments: the per-bid rows (its CSV's), as JSON.
#[pyfunction]
#[pyo3(signature = (rules, players, deals, bid, play, seed, threads, progress, move_time))]
#[allow(clippy::too_many_arguments)]
fn simulate_rows(
    py: Python<'_>,
    rules: String,
    players: usize,
    deals: u64,
    bid: String,
    play: String,
    seed: Option<u64>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    move_time: Option<f64>,
) -> PyResult<String> {
    let job = SimulateJob {
        players,
        deals,
        bid,
        play,
        input_files: Default::default(),
    };
    let options = RunOptions {
        rules,
        seed,
        threads,
        progress,
        move_time,
    };
    run_in_python::<Simulate>(py, options, job, (None, rows_json::<Simulate>))
}

/// `napsim hand CARDS --json` with the same arguments: the JSON document.
#[pyfunction]
#[pyo3(signature = (cards, rules, players, seat, after, worlds, precision, play, others_bid, dd, as_declarer, seed, threads, progress, move_time))]
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
    progress: Option<Py<PyAny>>,
    move_time: Option<f64>,
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
    let options = RunOptions {
        rules,
        seed,
        threads,
        progress,
        move_time,
    };
    run_in_python::<Hand>(py, options, job, (None, printed::<Hand>))
}

/// `napsim bid-table` with the same arguments: the bid table's rows (its CSV's), as JSON.
#[pyfunction]
#[pyo3(signature = (rules, players, deals, play, by, dd_deals, per_class, classes, class_labels, min_hands, auction, seed, threads, progress, move_time))]
#[allow(clippy::too_many_arguments)]
fn bid_table_rows(
    py: Python<'_>,
    rules: String,
    players: usize,
    deals: u64,
    play: String,
    by: String,
    dd_deals: Option<u64>,
    per_class: Option<u64>,
    classes: Option<PathBuf>,
    class_labels: Vec<String>,
    min_hands: Option<u64>,
    auction: bool,
    seed: Option<u64>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    move_time: Option<f64>,
) -> PyResult<String> {
    let class_rows = match &classes {
        Some(path) => read_class_file(path).map_err(|e| PyValueError::new_err(e.to_string()))?,
        None => Vec::new(),
    };
    let job = BidTableJob {
        by,
        play,
        classes_file: classes.as_ref().map(|p| p.display().to_string()),
        classes: class_rows,
        class_labels,
        auction,
        ..BidTableJob::new(players, deals)
    }
    .with_sampling(per_class, dd_deals, min_hands);
    let options = RunOptions {
        rules,
        seed,
        threads,
        progress,
        move_time,
    };
    run_in_python::<BidTable>(py, options, job, (None, rows_json::<BidTable>))
}

/// `napsim thresholds` with the same arguments: a row per bid and threshold (its CSV's), as
/// JSON.
#[pyfunction]
#[pyo3(signature = (rules, players, deals, play, seat, auction, seed, threads, progress, move_time))]
#[allow(clippy::too_many_arguments)]
fn thresholds_rows(
    py: Python<'_>,
    rules: String,
    players: usize,
    deals: u64,
    play: String,
    seat: usize,
    auction: bool,
    seed: Option<u64>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    move_time: Option<f64>,
) -> PyResult<String> {
    let job = ThresholdsJob {
        play,
        seat,
        auction,
        ..ThresholdsJob::new(players, deals)
    };
    let options = RunOptions {
        rules,
        seed,
        threads,
        progress,
        move_time,
    };
    run_in_python::<Thresholds>(py, options, job, (None, rows_json::<Thresholds>))
}

/// `napsim tournament` with the same arguments: a row per entrant (its CSV's), as JSON.
#[pyfunction]
#[pyo3(signature = (rules, players, entrants, sessions, duplicate, forfeit, sprt, sprt_on, alpha, beta, seed, threads, progress, move_time))]
#[allow(clippy::too_many_arguments)]
fn tournament_rows(
    py: Python<'_>,
    rules: String,
    players: usize,
    entrants: Vec<String>,
    sessions: u64,
    duplicate: bool,
    forfeit: bool,
    sprt: Option<(f64, f64)>,
    sprt_on: String,
    alpha: f64,
    beta: f64,
    seed: Option<u64>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    move_time: Option<f64>,
) -> PyResult<String> {
    let sprt = match sprt {
        Some((d0, d1)) => {
            Sprt::check_bounds(d0, d1).map_err(PyValueError::new_err)?;
            Some(Sprt {
                d0,
                d1,
                alpha,
                beta,
            })
        }
        None => None,
    };
    let sprt_wins = match sprt_on.as_str() {
        "units" => false,
        "wins" => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "sprt_on is units or wins, not '{other}'"
            )));
        }
    };
    let job = TournamentJob {
        duplicate,
        forfeit,
        sprt_wins: sprt.is_some() && sprt_wins,
        sprt,
        ..TournamentJob::new(players, entrants, sessions)
    };
    let options = RunOptions {
        rules,
        seed,
        threads,
        progress,
        move_time,
    };
    run_in_python::<Tournament>(py, options, job, (None, rows_json::<Tournament>))
}

/// `napsim solve ... --json` with the same arguments: the JSON document.
#[pyfunction]
#[pyo3(signature = (rules, deal, random, players, seed, misere, bid, trump, plays))]
#[allow(clippy::too_many_arguments)]
fn solve_json(
    py: Python<'_>,
    rules: String,
    deal: Option<String>,
    random: Option<u64>,
    players: usize,
    seed: Option<u64>,
    misere: bool,
    bid: Option<String>,
    trump: Option<String>,
    plays: Option<String>,
) -> PyResult<String> {
    if deal.is_some() == random.is_some() {
        return Err(PyValueError::new_err(
            "give either a deal or a number of random deals to solve",
        ));
    }
    let job = SolveJob {
        deal,
        random,
        players,
        seed,
        misere,
        bid,
        trump,
        plays,
        json: true,
    };
    let work = move || {
        let profile = napsim::rules::load_profile(&rules).map_err(|e| described(e.into()))?;
        commands::solve(&profile, &job, napsim::rng::fresh_seed).map_err(described)
    };
    let stop = Arc::new(AtomicBool::new(false));
    run_on_thread(py, None, Arc::new(Counted::default()), stop, work)
}

/// `napsim review - --json` with the same arguments, the records (`deal --json` lines) given
/// as text: the JSON Lines.
#[pyfunction]
#[pyo3(signature = (rules, records, worlds, eval_play, others_bid, choice, seed, summary, threads, progress, move_time))]
#[allow(clippy::too_many_arguments)]
fn review_json(
    py: Python<'_>,
    rules: Option<String>,
    records: String,
    worlds: u64,
    eval_play: Option<String>,
    others_bid: Option<String>,
    choice: Option<String>,
    seed: Option<u64>,
    summary: bool,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    move_time: Option<f64>,
) -> PyResult<String> {
    let defaults = ReviewJob::new(
        Some(PathBuf::from("-")),
        threads.unwrap_or(Controls::default().threads),
    );
    let job = ReviewJob {
        worlds,
        eval_play: eval_play.unwrap_or(defaults.eval_play.clone()),
        others_bid: others_bid.unwrap_or(defaults.others_bid.clone()),
        choice: choice.unwrap_or(defaults.choice.clone()),
        seed: seed.unwrap_or(defaults.seed),
        json: true,
        summary,
        rules_given: rules.is_some(),
        bot_pool: bot_pool(move_time)?,
        ..defaults
    };
    let rules = rules.unwrap_or_else(|| napsim::rules::DEFAULT_PROFILE.to_string());
    let stop = Arc::new(AtomicBool::new(false));
    let counted = Arc::new(Counted::default());
    let (reporter, stopping) = (Arc::clone(&counted), Arc::clone(&stop));
    let work = move || {
        let mut out = commands::StoppableOutput::new(stopping);
        let mut input = records.as_bytes();
        let profile = napsim::rules::load_profile(&rules).map_err(|e| described(e.into()))?;
        commands::review_deals(&profile, &job, &mut input, &mut out, reporter.as_ref())
            .map_err(described)?;
        out.into_text().map_err(described)
    };
    run_on_thread(py, progress, counted, stop, work)
}

/// The extension module.
#[pymodule]
fn _napsim(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(hand_json, module)?)?;
    module.add_function(wrap_pyfunction!(simulate_rows, module)?)?;
    module.add_function(wrap_pyfunction!(bid_table_rows, module)?)?;
    module.add_function(wrap_pyfunction!(thresholds_rows, module)?)?;
    module.add_function(wrap_pyfunction!(tournament_rows, module)?)?;
    module.add_function(wrap_pyfunction!(solve_json, module)?)?;
    module.add_function(wrap_pyfunction!(review_json, module)?)?;
    module.add_class::<game::PyGame>()?;
    module.add("__version__", napsim::napsim_version())?;
    Ok(())
}
