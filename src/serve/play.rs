//! `POST /api/play` and `/api/play/{id}/answer`: sessions against the bots, each one
//! `napsim play --json` running on a thread of its own, its answers fed from the requests and
//! its JSON lines handed back up to the next question.

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::api::{self, ApiError};
use super::{Shared, request};
use crate::analysis::game::{DEFAULT_BOTS, DEFAULT_HINT_WORLDS, GameSettings};
use crate::bots::ext::BotPool;
use crate::commands::{PlayJob, SessionFile, play_session};
use crate::error::Error;

/// What a session's thread tells the requests.
enum Message {
    /// One JSON line of `napsim play --json`.
    Line(String),
    /// The session waits for an answer.
    Waiting,
    /// The session is over (with the error that ended it, if one did).
    Ended(Option<String>),
}

/// One session: where its answers go and its lines come from.
struct Session {
    answers: Mutex<Option<Sender<String>>>,
    lines: Mutex<Receiver<Message>>,
    touched: Mutex<Instant>,
}

/// The sessions a server holds, by id.
pub(super) struct Sessions {
    held: Mutex<HashMap<String, Arc<Session>>>,
    max: usize,
    idle: Duration,
}

/// A poisoned lock still holds good data here: every critical section leaves it whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sessions {
    /// At most `max` sessions, each ended after `idle` untouched.
    pub(super) fn new(max: usize, idle: Duration) -> Sessions {
        Sessions {
            held: Mutex::new(HashMap::new()),
            max,
            idle,
        }
    }

    /// Ends every session: each one's thread reads the end of its answers and quits.
    pub(super) fn end_all(&self) {
        lock(&self.held).clear();
    }

    fn get(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = lock(&self.held).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no session {id}: it ended, was ended for being idle, or never began"
            ))
        })?;
        *lock(&session.touched) = Instant::now();
        Ok(session)
    }

    fn remove(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.held).remove(id)
    }
}

/// Ends the sessions left idle too long, every half minute, until the server stops.
pub(super) async fn expire_idle(shared: Arc<Shared>) {
    loop {
        tokio::time::sleep(Duration::from_secs(30)).await;
        let idle = shared.sessions.idle;
        lock(&shared.sessions.held).retain(|_, s| lock(&s.touched).elapsed() < idle);
    }
}

/// A session to start: `napsim play`'s arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StartRequest {
    #[serde(default)]
    rules: Option<String>,
    #[serde(default = "request::four_players")]
    players: usize,
    #[serde(default)]
    seat: usize,
    /// The other seats' policies, `BID/PLAY` (default: `napsim play`'s).
    #[serde(default)]
    bots: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    /// Deals to play (default: the profile's session).
    #[serde(default)]
    deals: Option<u64>,
    /// Worlds a call hint plays.
    #[serde(default)]
    hint_worlds: Option<u64>,
}

/// An answer: what a person types at `napsim play`'s prompt (a call, a card, `hint`...).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnswerRequest {
    answer: String,
}

/// `POST /api/play`: starts a session; the answer is its lines up to the first question.
pub(super) async fn start(
    State(shared): State<Arc<Shared>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let asked: StartRequest = api::parse(&body)?;
    let profile = request::profile(asked.rules.as_deref())?;
    let bots = asked.bots.unwrap_or_else(|| DEFAULT_BOTS.to_string());
    request::sealed("bots", &bots)?;
    let hint_worlds = asked.hint_worlds.unwrap_or(DEFAULT_HINT_WORLDS);
    request::within_cap("hint_worlds", hint_worlds, shared.config.max_worlds)?;
    if asked.deals == Some(0) {
        return Err(ApiError::bad("`deals` 0: play at least one deal"));
    }
    let seed = asked.seed.unwrap_or_else(crate::rng::fresh_seed);
    let job = PlayJob {
        players: asked.players,
        seat: asked.seat,
        bots: bots.clone(),
        seed: Some(seed),
        deals: asked.deals,
        json: true,
        color: false,
        echo: false,
        save: None,
        force: false,
        hint_worlds,
        threads: shared.config.threads,
        bot_pool: BotPool::default(),
    };
    let settings = GameSettings {
        players: job.players,
        seat: job.seat,
        bots,
        seed,
        deals: job.deals,
        hint_worlds,
        threads: job.threads,
        bot_pool: BotPool::default(),
    };
    settings.check(&profile).map_err(ApiError::from)?;
    let place = shared.gate.enter().await?;
    let id = format!("{:016x}", crate::rng::fresh_seed());
    {
        let mut held = lock(&shared.sessions.held);
        if held.len() >= shared.sessions.max {
            return Err(ApiError::busy(format!(
                "busy: this server holds {} sessions, its most; end one (DELETE \
                 /api/play/ID) or try again later",
                held.len()
            )));
        }
        let session = spawn_session(profile, job);
        held.insert(id.clone(), Arc::new(session));
    }
    let session = shared.sessions.get(&id)?;
    let id_for_end = id.clone();
    let shared_for_end = Arc::clone(&shared);
    let answer = tokio::task::spawn_blocking(move || {
        let _place = place;
        let told = {
            let lines = lock(&session.lines);
            collect(&lines)
        };
        if told.ended {
            shared_for_end.sessions.remove(&id_for_end);
        }
        told
    })
    .await
    .map_err(|e| Error::runtime(format!("the session failed: {e}")))?;
    Ok(answer.into_response(Some(&id)))
}

/// `POST /api/play/{id}/answer`: gives the session an answer; the answer is its lines up to
/// the next question (or its end).
pub(super) async fn answer(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let asked: AnswerRequest = api::parse(&body)?;
    request::one_line("answer", &asked.answer)?;
    let session = shared.sessions.get(&id)?;
    let place = shared.gate.enter().await?;
    let shared_for_end = Arc::clone(&shared);
    let id_for_end = id.clone();
    let told = tokio::task::spawn_blocking(move || {
        let _place = place;
        // One request at a time per session: a second waits for the first's answer.
        let lines = lock(&session.lines);
        let sent = lock(&session.answers)
            .as_ref()
            .is_some_and(|answers| answers.send(asked.answer).is_ok());
        if !sent {
            shared_for_end.sessions.remove(&id_for_end);
            return Err(ApiError::not_found(format!("session {id_for_end} is over")));
        }
        let told = collect(&lines);
        if told.ended {
            shared_for_end.sessions.remove(&id_for_end);
        }
        Ok(told)
    })
    .await
    .map_err(|e| Error::runtime(format!("the session failed: {e}")))??;
    Ok(told.into_response(None))
}

/// `DELETE /api/play/{id}`: ends the session (its finished deals were in its `result` lines).
pub(super) async fn end(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    match shared.sessions.remove(&id) {
        Some(_) => Ok(api::json_answer(json!({"ended": id}).to_string() + "\n")),
        None => Err(ApiError::not_found(format!("no session {id}"))),
    }
}

/// What a session said between two questions.
struct Told {
    messages: Vec<Value>,
    ended: bool,
    error: Option<String>,
}

impl Told {
    /// `{"session": ID, "messages": [...], "waiting": bool}`, with `error` when a failure
    /// ended the session.
    fn into_response(self, id: Option<&str>) -> Response {
        let mut object = json!({
            "messages": self.messages,
            "waiting": !self.ended,
        });
        if let Some(id) = id {
            object["session"] = Value::from(id);
        }
        if let Some(error) = self.error {
            object["error"] = Value::from(error);
        }
        api::json_answer(object.to_string() + "\n")
    }
}

/// The session's lines up to its next question or its end.
fn collect(lines: &Receiver<Message>) -> Told {
    let mut messages = Vec::new();
    loop {
        match lines.recv() {
            Ok(Message::Line(line)) => {
                messages.push(serde_json::from_str(&line).unwrap_or(Value::String(line)));
            }
            Ok(Message::Waiting) => {
                return Told {
                    messages,
                    ended: false,
                    error: None,
                };
            }
            Ok(Message::Ended(error)) => {
                return Told {
                    messages,
                    ended: true,
                    error,
                };
            }
            Err(_) => {
                return Told {
                    messages,
                    ended: true,
                    error: Some("the session ended".to_string()),
                };
            }
        }
    }
}

/// Starts `napsim play --json` on a thread of its own, its finished deals kept in memory.
fn spawn_session(profile: crate::rules::Profile, job: PlayJob) -> Session {
    let (answers, answers_in) = channel::<String>();
    let (lines_out, lines) = channel::<Message>();
    let seed = job.seed.unwrap_or(0);
    let ended = lines_out.clone();
    std::thread::spawn(move || {
        let mut input = Answers {
            answers: answers_in,
            waiting: lines_out.clone(),
            line: Vec::new(),
            at: 0,
        };
        let mut output = Lines {
            partial: Vec::new(),
            lines: lines_out,
        };
        let file = SessionFile::in_memory();
        let result = play_session(&profile, &job, || seed, (&mut input, &mut output), &file);
        let _ = ended.send(Message::Ended(result.err().map(|e| e.to_string())));
    });
    Session {
        answers: Mutex::new(Some(answers)),
        lines: Mutex::new(lines),
        touched: Mutex::new(Instant::now()),
    }
}

/// The answers of a session as its input: each time it wants a line, it says it waits, then
/// reads the next answer; the end of the answers (the session ended) is the end of the input.
struct Answers {
    answers: Receiver<String>,
    waiting: Sender<Message>,
    line: Vec<u8>,
    at: usize,
}

impl Read for Answers {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Answers {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at >= self.line.len() {
            let _ = self.waiting.send(Message::Waiting);
            match self.answers.recv() {
                Ok(answer) => {
                    self.line = (answer + "\n").into_bytes();
                    self.at = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.line[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at += amount;
    }
}

/// A session's output, sent a line at a time.
struct Lines {
    partial: Vec<u8>,
    lines: Sender<Message>,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).into_owned();
            self.lines
                .send(Message::Line(text))
                .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "ended"))?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
