//! `ext:cmd=(COMMAND ...)`: a bot in any language, speaking a line protocol on its standard
//! input and output (docs/protocol.md).
//!
//! - The processes belong to a [`BotPool`], which whoever runs the bots owns: started on the
//!   first request and kept running, one per program for each request under way at once (so
//!   at most one per worker thread); a process answers calls, cards or both, so one program
//!   given to `--bid` and `--play` shares them. Every process ends with the pool.
//! - napsim writes one JSON object per line and reads one back: the handshake first, then a
//!   request per decision carrying what the seat may know ([`message`]) and a `seed` drawn
//!   from the decision's own stream, so that a bot drawing its randomness from it gives the
//!   same results whatever the thread count.
//! - A bot that exits, closes its output, answers no JSON, an illegal call or card, or nothing
//!   within the move time ends the run with one line naming the bot, the request and what
//!   came back: the failure is recorded in the bot's pool ([`BotPool::failure`]), the seat
//!   gets a stand-in decision, and whoever runs the pool's bots discards the work since and
//!   reports the failure (no panic carries it). The bot's stderr goes to its log file, never to napsim's
//!   output.
//! - Only the call and the card are asked. The other choices some profiles offer (Purchase
//!   Nap's exchange, Peep Nap's look at the floater and its discard, a named trump, Sir
//!   Garnet's spare hand) take the bid policies' documented defaults.

mod message;
mod process;

pub use message::PROTOCOL_VERSION;
pub use process::{BotKiller, BotPool};

/// The protocol's `bid` request for the seat in `view` (one JSON object, no newline): what a
/// front end playing that seat is shown (`napsim play --json`).
pub fn bid_request(view: &BidView, seed: u64) -> (String, Vec<Call>) {
    let legal = message::legal_calls(view);
    let mut out = String::new();
    message::bid_request(&mut out, view, &legal, seed);
    (out, legal)
}

/// The protocol's `play` request for the seat in `view` (one JSON object, no newline).
pub fn play_request(view: &PlayView, seed: u64) -> String {
    let mut out = String::new();
    message::play_request(&mut out, view, seed);
    out
}

use std::path::PathBuf;
use std::time::Duration;

use crate::cards::Card;
use crate::game::Call;
use crate::policy::{BidPolicy, BidView, PlayPolicy, PlayView, Spec, SpecError};
use crate::rng::{SimRng, next_u64};
use process::{Lease, Program};

/// The default move time: how long a bot may take to answer one request.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(10);

/// Seeds sent to bots stay below 2^53, so that every JSON reader holds them exactly.
const SEED_MASK: u64 = (1 << 53) - 1;

/// An external bot.
#[derive(Clone, Debug)]
pub struct External {
    /// The spec as written, to name the bot in errors.
    spec: String,
    program: Program,
    /// Where its processes run.
    pool: BotPool,
}

impl External {
    /// `ext:cmd=(PROGRAM ARGS...)[,log=(FILE)]`: the command is split at spaces and run
    /// without a shell; its stderr is appended to FILE (default `napsim-bots/NAME.log` in the
    /// system's temporary directory, NAME the script's or else the program's file stem). Its
    /// processes run in `pool`.
    pub fn from_spec(spec: &Spec, text: &str, pool: &BotPool) -> Result<External, SpecError> {
        spec.check_keys(&["cmd", "log"])?;
        let cmd = spec.get("cmd").ok_or_else(|| SpecError::Missing {
            policy: "ext".into(),
            key: "cmd".into(),
            hint: "the bot's command, e.g. ext:cmd=(python3 bots/random_bot.py)".into(),
        })?;
        let argv: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
        let Some(program) = argv.first() else {
            return Err(SpecError::BadValue {
                policy: "ext".into(),
                key: "cmd".into(),
                value: cmd.into(),
                reason: "an empty command".into(),
            });
        };
        let log = match spec.get("log") {
            Some(file) => PathBuf::from(file),
            None => {
                // Named after the script an interpreter runs (its first argument that is a
                // file), else the program.
                let script = argv[1..]
                    .iter()
                    .map(std::path::Path::new)
                    .find(|p| p.is_file());
                let stem = script
                    .unwrap_or(std::path::Path::new(program))
                    .file_stem()
                    .map_or("bot".into(), |n| n.to_string_lossy().into_owned());
                std::env::temp_dir()
                    .join("napsim-bots")
                    .join(format!("{stem}.log"))
            }
        };
        Ok(External {
            spec: text.to_string(),
            program: Program::new(argv, log),
            pool: pool.clone(),
        })
    }

    /// Sends `request` and returns the answer line and the process that wrote it, or how the
    /// bot failed (and the process, when it is still running).
    fn ask(
        &self,
        players: usize,
        profile: &crate::rules::Profile,
        request: &str,
    ) -> Result<(String, Lease<'_>), (Failed, Option<Lease<'_>>)> {
        let hello = || message::hello(profile, players);
        match self.pool.ask(&self.program, hello, request) {
            Ok((answers, lease)) => {
                if let Some((hello, greeting)) = answers.greeting
                    && let Err(why) = message::parse_name(&greeting)
                {
                    return Err((Failed::bad(hello, why, greeting), Some(lease)));
                }
                Ok((answers.answer, lease))
            }
            Err((failure, line)) => Err((
                Failed {
                    what: failure.to_string(),
                    request: line,
                    answer: None,
                },
                None,
            )),
        }
    }

    /// After a failure: the process is ended and `fallback` decided; the seat forfeits when
    /// its thread records forfeits; otherwise the pool records the failure (the bot, what
    /// happened, the request and the answer), which ends the run that asked.
    fn failed<T>(&self, seat: usize, (failed, lease): (Failed, Option<Lease>), fallback: T) -> T {
        if let Some(lease) = lease {
            lease.end();
        }
        if self.pool.forfeited(seat) {
            return fallback;
        }
        let answer = failed
            .answer
            .map_or(String::new(), |a| format!("; it answered: {a}"));
        self.pool.fail(format!(
            "bot {}: {}; request: {}{answer} (its stderr is in {})",
            self.spec,
            failed.what,
            failed.request,
            self.program.log.display()
        ));
        fallback
    }
}

/// How a request failed: what happened, the line that failed, the answer if there was one.
struct Failed {
    what: String,
    request: String,
    answer: Option<String>,
}

impl Failed {
    /// An answer that was not acceptable.
    fn bad(request: String, why: String, answer: String) -> Failed {
        Failed {
            what: format!("answered badly: {why}"),
            request,
            answer: Some(answer),
        }
    }

    /// An answer to `request` from `program` that was not acceptable, unless a line followed
    /// it: then the answer read was a stray line (a bot writing two lines to one request) and
    /// that is the failure, both lines shown, rather than blaming the answer that came next.
    fn bad_or_stray(lease: &mut Lease, request: String, why: String, answer: String) -> Failed {
        match lease.stray_line(STRAY_WAIT) {
            Some(next) => Failed {
                what: format!(
                    "{}: the lines read for this request were {answer} and then {next}",
                    process::UNREQUESTED
                ),
                request,
                answer: None,
            },
            None => Failed::bad(request, why, answer),
        }
    }
}

/// How long a bad answer waits for a line after it, the sign of a stray line (a bot answers in
/// well under this once it has written its first line).
const STRAY_WAIT: Duration = Duration::from_millis(100);

impl BidPolicy for External {
    fn call(&self, view: &BidView, rng: &mut SimRng) -> Call {
        let legal = message::legal_calls(view);
        let mut request = String::with_capacity(512);
        message::bid_request(&mut request, view, &legal, next_u64(rng) & SEED_MASK);
        let fallback = if legal.contains(&Call::Pass) {
            Call::Pass
        } else {
            legal[0]
        };
        if self.pool.failure().is_some() {
            return fallback;
        }
        let (answer, mut lease) = match self.ask(view.players(), view.profile(), &request) {
            Ok(answered) => answered,
            Err(failed) => return self.failed(view.seat(), failed, fallback),
        };
        match message::parse_call(&answer, &legal, view.profile()) {
            Ok(call) => call,
            Err(why) => {
                let failed = Failed::bad_or_stray(&mut lease, request, why, answer);
                self.failed(view.seat(), (failed, Some(lease)), fallback)
            }
        }
    }
}

impl PlayPolicy for External {
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        let legal = view.legal();
        // The lowest legal card: the forced card, which is not asked (the next request shows
        // it played), or a forfeiting seat's.
        let lowest = legal
            .iter_desc()
            .min_by_key(|c| c.rank())
            .expect("a legal card");
        if legal.count() == 1 {
            return lowest;
        }
        let mut request = String::with_capacity(1024);
        message::play_request(&mut request, view, next_u64(rng) & SEED_MASK);
        if self.pool.failure().is_some() {
            return lowest;
        }
        let (answer, mut lease) = match self.ask(view.players(), view.profile(), &request) {
            Ok(answered) => answered,
            Err(failed) => return self.failed(view.seat(), failed, lowest),
        };
        match message::parse_card(&answer, legal) {
            Ok(card) => card,
            Err(why) => {
                let failed = Failed::bad_or_stray(&mut lease, request, why, answer);
                self.failed(view.seat(), (failed, Some(lease)), lowest)
            }
        }
    }
}
