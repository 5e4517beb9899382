//! The bot processes: one per command and worker thread, started on first use and kept
//! running; each answer read with a deadline; every process ended on [`shutdown`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Every bot process started and not yet reaped, by process id: [`shutdown`] ends them.
static CHILDREN: Mutex<Vec<(u32, Child)>> = Mutex::new(Vec::new());

thread_local! {
    /// This thread's bots, by their program's key (`Program::key`).
    static BOTS: RefCell<HashMap<String, Bot>> = RefCell::new(HashMap::new());
}

/// How to start a bot.
#[derive(Clone, Debug)]
pub(super) struct Program {
    /// The program and its arguments (no shell).
    pub argv: Vec<String>,
    /// Where its stderr goes (appended).
    pub log: PathBuf,
    /// One process per key and thread: a program asked for both calls and cards, or by two
    /// entrants, is one process.
    key: String,
}

impl Program {
    /// The program `argv` logging to `log`.
    pub fn new(argv: Vec<String>, log: PathBuf) -> Program {
        let key = format!("{argv:?} {}", log.display());
        Program { argv, log, key }
    }
}

/// A running bot: its input, its output and what has been read of it past the last line.
struct Bot {
    pid: u32,
    stdin: ChildStdin,
    stdout: ChildStdout,
    pending: Vec<u8>,
    chunk: Box<[u8; 4096]>,
}

/// How a wait for a line ended without one.
enum NoLine {
    /// The output closed (the bot exited, or closed it).
    Closed,
    /// The deadline passed.
    Late,
}

impl Bot {
    /// The next line of the bot's output (without its newline), waiting at most `deadline`.
    /// `poll(2)` waits on the pipe itself: a reader thread would add two thread switches to
    /// every request.
    fn read_line(&mut self, deadline: Duration) -> Result<String, NoLine> {
        let until = Instant::now() + deadline;
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                return Ok(String::from_utf8_lossy(&line[..end]).into_owned());
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(NoLine::Late);
            }
            let mut poll = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let millis = left.as_millis().clamp(1, i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd for the length given.
            let ready = unsafe { libc::poll(&mut poll, 1, millis) };
            if ready < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(NoLine::Closed);
            }
            if ready == 0 {
                continue;
            }
            match self.stdout.read(&mut self.chunk[..]) {
                Ok(0) | Err(_) => return Err(NoLine::Closed),
                Ok(n) => self.pending.extend_from_slice(&self.chunk[..n]),
            }
        }
    }
}

/// What went wrong with a bot, in words for the error line.
#[derive(Debug)]
pub(super) enum Failure {
    /// It could not be started.
    Start(String),
    /// It exited, or closed its output, before answering.
    Gone(String),
    /// No answer within the move time.
    Timeout(Duration),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Start(e) => write!(f, "could not be started: {e}"),
            Failure::Gone(how) => write!(f, "{how} before answering"),
            Failure::Timeout(t) => write!(f, "did not answer within {} s", t.as_secs_f64()),
        }
    }
}

/// What a request got back: the answer to the handshake when the process was started for it,
/// and the answer to the request.
pub(super) struct Answers {
    pub greeting: Option<(String, String)>,
    pub answer: String,
}

/// Sends `line` to this thread's process of `program` (starting it first, with `hello`, the
/// handshake, if it is not running) and returns the answers. A failed process is ended and
/// forgotten: the next request starts a new one. On failure, also the line that failed.
pub(super) fn ask(
    program: &Program,
    hello: impl FnOnce() -> String,
    line: &str,
    deadline: Duration,
) -> Result<Answers, (Failure, String)> {
    BOTS.with(|bots| {
        let mut bots = bots.borrow_mut();
        let key = &program.key;
        let mut greeting = None;
        if !bots.contains_key(key) {
            let hello = hello();
            let mut bot = start(program).map_err(|e| (e, hello.clone()))?;
            match exchange(&mut bot, &hello, deadline) {
                Ok(answer) => greeting = Some((hello, answer)),
                Err(e) => {
                    end(bot.pid);
                    return Err((e, hello));
                }
            }
            bots.insert(key.clone(), bot);
        }
        let bot = bots.get_mut(key).expect("just inserted");
        match exchange(bot, line, deadline) {
            Ok(answer) => Ok(Answers { greeting, answer }),
            Err(e) => {
                let bot = bots.remove(key).expect("present");
                end(bot.pid);
                Err((e, line.to_string()))
            }
        }
    })
}

/// Ends this thread's process of `program` (after an answer that was not acceptable).
pub(super) fn forget(program: &Program) {
    let bot = BOTS.with(|bots| bots.borrow_mut().remove(&program.key));
    if let Some(bot) = bot {
        end(bot.pid);
    }
}

/// Ends every bot process, on every path out of napsim. The workers' threads close their bots'
/// input as they end, so a well-behaved bot is given a moment to finish on its own (it may
/// write a last line to its log) before it is killed.
pub fn shutdown() {
    let mut children = std::mem::take(&mut *CHILDREN.lock().unwrap_or_else(|e| e.into_inner()));
    let grace = Instant::now() + Duration::from_millis(200);
    while Instant::now() < grace {
        children.retain_mut(|(_, child)| !matches!(child.try_wait(), Ok(Some(_))));
        if children.is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    for (_, mut child) in children {
        let _ = child.kill();
        let _ = child.wait();
    }
}

fn start(program: &Program) -> Result<Bot, Failure> {
    let (name, args) = program
        .argv
        .split_first()
        .ok_or_else(|| Failure::Start("no command".into()))?;
    let log = open_log(&program.log)
        .map_err(|e| Failure::Start(format!("cannot open {}: {e}", program.log.display())))?;
    let mut child = Command::new(name)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .map_err(|e| Failure::Start(format!("{name}: {e}")))?;
    let stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let pid = child.id();
    CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((pid, child));
    Ok(Bot {
        pid,
        stdin,
        stdout,
        pending: Vec::new(),
        chunk: Box::new([0; 4096]),
    })
}

fn open_log(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
}

/// Writes `line` and waits for one line back.
fn exchange(bot: &mut Bot, line: &str, deadline: Duration) -> Result<String, Failure> {
    let sent = writeln!(bot.stdin, "{line}").and_then(|()| bot.stdin.flush());
    if sent.is_err() {
        return Err(Failure::Gone(exit_status(bot.pid)));
    }
    match bot.read_line(deadline) {
        Ok(answer) => Ok(answer),
        Err(NoLine::Closed) => Err(Failure::Gone(exit_status(bot.pid))),
        Err(NoLine::Late) => Err(Failure::Timeout(deadline)),
    }
}

/// How the process `pid` ended, in words ("it exited with status 3"), waiting briefly for it.
fn exit_status(pid: u32) -> String {
    for _ in 0..50 {
        let mut children = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, child)) = children.iter_mut().find(|(p, _)| *p == pid)
            && let Ok(Some(status)) = child.try_wait()
        {
            return format!("it {}", describe(status));
        }
        drop(children);
        std::thread::sleep(Duration::from_millis(10));
    }
    "it closed its output".into()
}

fn describe(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        _ => "exited".into(),
    }
}

/// Kills and reaps the process `pid`.
fn end(pid: u32) {
    let mut children = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(at) = children.iter().position(|(p, _)| *p == pid) {
        let (_, mut child) = children.swap_remove(at);
        let _ = child.kill();
        let _ = child.wait();
    }
}
