//! `napsim serve`: a local web server for card players: a page that evaluates a hand, plays a
//! session against the bots and reviews a game, and the JSON API under it (`docs/api.md`).
//!
//! Every answer is the library's: the hand evaluator's document is `napsim hand --json`'s, a
//! session is `napsim play --json`'s conversation, a review `napsim review --json`'s lines, a
//! solved deal `napsim solve --json`'s. The server's state (the evaluations under way, the
//! sessions) belongs to the [`serve`] call that runs it; nothing is global.
//!
//! Safe to leave running: it listens on the loopback address unless told otherwise, limits
//! request bodies and the worlds of a request, runs a bounded number of evaluations at once
//! (more wait in a bounded queue, the rest get a `busy` answer), stops an evaluation whose
//! client went away, and never reads a file or runs a program a request names: profiles are
//! built-in names or TOML text, and policy specs that name a program or a file are refused.

mod api;
mod gate;
mod hand;
mod page;
mod play;
mod request;
mod review;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::error::Error;
pub use api::ApiError;
use gate::Gate;
use play::Sessions;

/// How a server runs: where it listens and what it allows.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on (port 0: a free port).
    pub addr: SocketAddr,
    /// Worker threads of one evaluation.
    pub threads: usize,
    /// Evaluations (hands, reviews, solves, session steps) that run at once.
    pub evaluations: usize,
    /// Requests that may wait for an evaluation to finish; a request beyond them is answered
    /// `503 busy` at once.
    pub waiting: usize,
    /// The most worlds a request may ask for (a hand's, a review's, a hint's).
    pub max_worlds: u64,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// Sessions against the bots held at once.
    pub max_sessions: usize,
    /// A session no request has touched for this long is ended.
    pub session_idle: Duration,
}

/// The loopback address with a free port.
pub const DEFAULT_ADDR: &str = "127.0.0.1:0";

impl Default for ServeConfig {
    /// Loopback, a free port; every core for each of two evaluations at once, eight more
    /// waiting; 20,000 worlds, 1 MiB bodies; 64 sessions, ended after an idle hour.
    fn default() -> ServeConfig {
        ServeConfig {
            addr: DEFAULT_ADDR.parse().expect("a socket address"),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            evaluations: 2,
            waiting: 8,
            max_worlds: 20_000,
            max_body: 1 << 20,
            max_sessions: 64,
            session_idle: Duration::from_secs(3600),
        }
    }
}

/// What every request handler shares: the configuration, the evaluation gate, the sessions,
/// and the flag that stops the server (and its evaluations).
struct Shared {
    config: ServeConfig,
    gate: Gate,
    sessions: Sessions,
    stopping: Arc<AtomicBool>,
}

/// Runs the server until `stop` is set (a signal handler's flag): binds `config.addr`, calls
/// `ready` with the address bound (the command line prints its URL), serves, and returns
/// within about a second of `stop`, the evaluations under way told to stop.
pub fn serve(
    config: ServeConfig,
    ready: impl FnOnce(SocketAddr),
    stop: Arc<AtomicBool>,
) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| Error::runtime(format!("cannot start the server's runtime: {e}")))?;
    let result = runtime.block_on(run(config, ready, stop));
    // Blocking work still running (an evaluation finishing its block) is not waited for long:
    // it has been told to stop, and the process may exit under it.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

async fn run(
    config: ServeConfig,
    ready: impl FnOnce(SocketAddr),
    stop: Arc<AtomicBool>,
) -> Result<(), Error> {
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| Error::input(format!("cannot listen on {}: {e}", config.addr)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::runtime(format!("cannot read the address listened on: {e}")))?;
    let shared = Arc::new(Shared {
        gate: Gate::new(config.evaluations, config.waiting),
        sessions: Sessions::new(config.max_sessions, config.session_idle),
        config,
        stopping: Arc::new(AtomicBool::new(false)),
    });
    let app = api::router(Arc::clone(&shared));
    ready(addr);
    let expiry = tokio::spawn(play::expire_idle(Arc::clone(&shared)));
    let stopping = Arc::clone(&shared.stopping);
    let signal = async move {
        while !stop.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Evaluations and sessions hear of it, and their streams end.
        stopping.store(true, Ordering::Relaxed);
    };
    let server = axum::serve(listener, app).with_graceful_shutdown(signal);
    let shared_for_end = Arc::clone(&shared);
    let served = async move {
        let result = server.await;
        shared_for_end.sessions.end_all();
        result
    };
    // Connections still open a second after the stop (a stream being written, a client that
    // keeps its connection) are dropped.
    let outcome = tokio::select! {
        result = served => result.map_err(|e| Error::runtime(format!("the server failed: {e}"))),
        () = async {
            while !shared.stopping.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        } => Ok(()),
    };
    expiry.abort();
    shared.sessions.end_all();
    outcome
}
