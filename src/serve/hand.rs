//! `POST /api/hand` and `/api/hand/stream`: `napsim hand --json` for a request, whole or as
//! it goes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::Shared;
use super::api::{self, ApiError, JSON_LINES};
use super::request::{self, StopOnDrop};
use crate::analysis::hand::{Hand, HandJob, HandWorlds};
use crate::bots::ext::BotPool;
use crate::commands::{LongRun, Outputs, hand_json, run_prepared};
use crate::error::Error;
use crate::run::{Controls, LongCommand};
use crate::sim::Progress;

/// A hand to evaluate: `napsim hand`'s arguments, by the names the Python package gives them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HandRequest {
    /// The five cards.
    cards: String,
    /// A built-in profile's name or a profile's TOML (default: the default profile).
    #[serde(default)]
    rules: Option<String>,
    #[serde(default = "request::four_players")]
    players: usize,
    #[serde(default)]
    seat: usize,
    /// The earlier seats' calls, in speaking order.
    #[serde(default)]
    after: Vec<String>,
    #[serde(default)]
    worlds: Option<u64>,
    #[serde(default)]
    precision: Option<f64>,
    #[serde(default)]
    play: Option<String>,
    #[serde(default)]
    others_bid: Option<String>,
    #[serde(default = "yes")]
    dd: bool,
    #[serde(default)]
    as_declarer: bool,
    /// The seed (default: one the server chooses, given in the answer).
    #[serde(default)]
    seed: Option<u64>,
}

fn yes() -> bool {
    true
}

/// A hand evaluation checked and set up, ready to run.
struct Evaluation {
    hand: Hand,
    seed: u64,
    worlds: u64,
}

impl HandRequest {
    /// The job, checked against what the server allows, and prepared.
    fn prepare(self, shared: &Shared) -> Result<Evaluation, ApiError> {
        let profile = request::profile(self.rules.as_deref())?;
        request::one_line("cards", &self.cards)?;
        let defaults = HandJob::new(self.cards);
        let play = self.play.unwrap_or(defaults.play.clone());
        let others_bid = self.others_bid.unwrap_or(defaults.others_bid.clone());
        request::sealed("play", &play)?;
        request::sealed("others_bid", &others_bid)?;
        let worlds = HandWorlds::resolve(self.worlds, self.precision);
        request::within_cap("worlds", worlds.worlds, shared.config.max_worlds)?;
        let job = HandJob {
            players: self.players,
            seat: self.seat,
            after: self.after,
            play,
            others_bid,
            dd: self.dd,
            auction: !self.as_declarer,
            format: "json".to_string(),
            ..defaults
        }
        .with_worlds(worlds);
        let hand = Hand::prepare(&profile, job, &BotPool::default())?;
        Ok(Evaluation {
            hand,
            seed: self.seed.unwrap_or_else(crate::rng::fresh_seed),
            worlds: worlds.worlds,
        })
    }
}

/// Counts the worlds played, and passes the server's stop on to the run as blocks finish.
struct Counter {
    done: AtomicU64,
    server_stopping: Arc<AtomicBool>,
    run_stop: Arc<AtomicBool>,
}

impl Progress for Counter {
    fn start(&self, _total: u64, done: u64, _unit: &str) {
        self.done.store(done, Ordering::Relaxed);
    }

    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        if self.server_stopping.load(Ordering::Relaxed) {
            self.run_stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs `evaluation` to its end (or its stop): the document `napsim hand --json` writes.
fn run(evaluation: Evaluation, threads: usize, counter: &Counter) -> Result<String, Error> {
    let controls = Controls {
        threads,
        stop: Arc::clone(&counter.run_stop),
        save_interrupted: false,
        ..Controls::default()
    };
    let run = LongRun {
        seed: Some(evaluation.seed),
        controls: &controls,
        outputs: Outputs::default(),
        progress: counter,
    };
    let rendered = run_prepared(evaluation.hand, run, || evaluation.seed)?;
    String::from_utf8(rendered.stdout).map_err(|e| Error::runtime(e.to_string()))
}

/// `POST /api/hand`: the whole evaluation, as `napsim hand --json` prints it.
pub(super) async fn evaluate(
    State(shared): State<Arc<Shared>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: HandRequest = api::parse(&body)?;
    let evaluation = request.prepare(&shared)?;
    let place = shared.gate.enter().await?;
    let run_stop = Arc::new(AtomicBool::new(false));
    // Dropped with this handler: when the client goes away, the run stops.
    let _stop = StopOnDrop(Arc::clone(&run_stop));
    let counter = Counter {
        done: AtomicU64::new(0),
        server_stopping: Arc::clone(&shared.stopping),
        run_stop,
    };
    let threads = shared.config.threads;
    let text = tokio::task::spawn_blocking(move || {
        let _place = place;
        run(evaluation, threads, &counter)
    })
    .await
    .map_err(|e| Error::runtime(format!("the evaluation failed: {e}")))??;
    Ok(api::json_answer(text))
}

/// `POST /api/hand/stream`: JSON lines as the evaluation goes: `progress` with the worlds
/// played (and, at each check, the figures so far as `report`), then `result` with
/// `napsim hand --json`'s document, or `error`.
pub(super) async fn stream(
    State(shared): State<Arc<Shared>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: HandRequest = api::parse(&body)?;
    let mut evaluation = request.prepare(&shared)?;
    let place = shared.gate.enter().await?;
    let (send, receive) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (seed, total) = (evaluation.seed, evaluation.worlds);
    let watched = send.clone();
    evaluation.hand.watch(Box::new(move |hand, tally| {
        if let Ok(report) = hand_json(hand, tally, seed, false) {
            let line = format!(
                r#"{{"type":"progress","worlds":{},"of":{total},"report":{report}}}"#,
                tally.worlds
            );
            let _ = watched.send(line);
        }
    }));
    let run_stop = Arc::new(AtomicBool::new(false));
    let counter = Arc::new(Counter {
        done: AtomicU64::new(0),
        server_stopping: Arc::clone(&shared.stopping),
        run_stop: Arc::clone(&run_stop),
    });
    let threads = shared.config.threads;
    let running = Arc::clone(&counter);
    tokio::task::spawn_blocking(move || {
        let _place = place;
        let line = match run(evaluation, threads, &running) {
            Ok(report) => format!(r#"{{"type":"result","report":{}}}"#, report.trim_end()),
            Err(e) => json!({"type": "error", "message": e.to_string()}).to_string(),
        };
        let _ = send.send(line);
    });
    let first = json!({"type": "started", "seed": seed, "of": total}).to_string();
    let state = Streaming {
        receive,
        counter,
        shown: 0,
        _stop: StopOnDrop(run_stop),
        first: Some(first),
        total,
    };
    let lines = futures_util::stream::unfold(state, next_line);
    let body = Body::from_stream(lines);
    Ok(([(header::CONTENT_TYPE, JSON_LINES)], body).into_response())
}

/// What a streamed evaluation's body reads from: the run's lines, and the worlds played.
struct Streaming {
    receive: tokio::sync::mpsc::UnboundedReceiver<String>,
    counter: Arc<Counter>,
    shown: u64,
    /// Dropped with the body, which the server drops when the client goes away.
    _stop: StopOnDrop,
    first: Option<String>,
    total: u64,
}

/// The next line of the stream: the run's next line, else every quarter second the worlds
/// played when they moved; None once the run's last line is sent.
async fn next_line(
    mut state: Streaming,
) -> Option<(Result<String, std::convert::Infallible>, Streaming)> {
    if let Some(first) = state.first.take() {
        return Some((Ok(first + "\n"), state));
    }
    loop {
        let tick = tokio::time::sleep(Duration::from_millis(250));
        tokio::select! {
            line = state.receive.recv() => {
                // None once the run has ended and sent its last line.
                let line = line?;
                return Some((Ok(line + "\n"), state));
            }
            () = tick => {
                let done = state.counter.done.load(Ordering::Relaxed);
                if done != state.shown {
                    state.shown = done;
                    let line = json!({"type": "progress", "worlds": done, "of": state.total});
                    return Some((Ok(line.to_string() + "\n"), state));
                }
            }
        }
    }
}
