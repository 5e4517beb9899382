//! The bot processes: one per command and worker thread, started on first use and kept
//! running; each answer read with a deadline; every process ended on [`shutdown`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// Every bot process started and not yet reaped, by process id: [`shutdown`] ends them.
static CHILDREN: Mutex<Vec<(u32, Child)>> = Mutex::new(Vec::new());

thread_local! {
    /// This thread's bots, by their program's key ([`Program::key`]).
    static BOTS: RefCell<HashMap<String, Bot>> = RefCell::new(HashMap::new());
}

/// How to start a bot.
#[derive(Clone, Debug)]
pub(super) struct Program {
    /// The program and its arguments (no shell).
    pub argv: Vec<String>,
    /// Where its stderr goes (appended).
    pub log: PathBuf,
}

impl Program {
    /// One process per key and thread: a program asked for both calls and cards, or by two
    /// entrants, is one process.
    fn key(&self) -> String {
        format!("{:?} {}", self.argv, self.log.display())
    }
}

/// A running bot: its input, and the lines of its output as a reader thread receives them.
struct Bot {
    pid: u32,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
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
        let key = program.key();
        let mut greeting = None;
        if !bots.contains_key(&key) {
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
        let bot = bots.get_mut(&key).expect("just inserted");
        match exchange(bot, line, deadline) {
            Ok(answer) => Ok(Answers { greeting, answer }),
            Err(e) => {
                let bot = bots.remove(&key).expect("present");
                end(bot.pid);
                Err((e, line.to_string()))
            }
        }
    })
}

/// Ends this thread's process of `program` (after an answer that was not acceptable).
pub(super) fn forget(program: &Program) {
    let bot = BOTS.with(|bots| bots.borrow_mut().remove(&program.key()));
    if let Some(bot) = bot {
        end(bot.pid);
    }
}

/// Ends every bot process, on every path out of napsim.
pub fn shutdown() {
    let children = std::mem::take(&mut *CHILDREN.lock().unwrap_or_else(|e| e.into_inner()));
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
    let (sender, lines) = channel();
    // A thread per process reads its lines, so that a reader can wait with a deadline.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(Some(line)).is_err() {
                return;
            }
        }
        let _ = sender.send(None);
    });
    let pid = child.id();
    CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((pid, child));
    Ok(Bot { pid, stdin, lines })
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
    match bot.lines.recv_timeout(deadline) {
        Ok(Some(answer)) => Ok(answer),
        Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(Failure::Gone(exit_status(bot.pid))),
        Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout(deadline)),
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
