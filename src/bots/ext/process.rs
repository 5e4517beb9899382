//! The bot processes of a [`BotPool`]: started on first use, kept running between requests, each
//! answer read with a deadline; every process ended when the pool is shut down or dropped.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sys::{await_group_end, describe, has_exited, kill_group, ready_within, spawn_in_group};

/// The external bots of a run: their processes, started on first use (one per program for each
/// request under way at once, so at most one per worker thread; a program asked for both calls
/// and cards, or by two entrants, shares them), kept running between requests, and every one
/// of them (with whatever it started) ended by [`BotPool::shutdown`] or when the last handle
/// to the pool is dropped. Whoever runs the bots owns the pool: the command line one for the
/// whole command, the Python package one for each call, a library caller its own.
#[derive(Clone)]
pub struct BotPool(Arc<Inner>);

struct Inner {
    /// How long a bot may take to answer one request.
    move_time: Duration,
    /// Every process started and not yet reaped, by process id.
    children: Mutex<Vec<(u32, Child)>>,
    /// The process groups of the running bots, for [`BotKiller`].
    groups: Arc<Groups>,
    /// The bots between requests, by their program's key (`Program::key`), the most recently
    /// used last.
    idle: Mutex<HashMap<String, Vec<Bot>>>,
    /// While a deal runs under [`BotPool::record_forfeits`] on a thread: the seats whose bot
    /// failed in it.
    forfeits: Mutex<HashMap<std::thread::ThreadId, Vec<usize>>>,
    /// The first failure of a bot that did not forfeit: it ends whatever runs the pool's bots
    /// ([`BotPool::failure`]).
    failure: Mutex<Option<String>>,
}

/// The process groups of a pool's running bots: a slot holds a group's number, or 0. Read by
/// a signal handler, so no lock.
struct Groups([AtomicU32; 256]);

/// Kills the process groups of a pool's running bots from a signal handler ([`BotPool::killer`]).
#[derive(Clone)]
pub struct BotKiller(Arc<Groups>);

impl BotKiller {
    /// Kills every running bot's process group at once (a second Ctrl-C). Safe in a signal
    /// handler: atomics and `kill(2)` only. The processes are reaped when napsim exits.
    pub fn kill(&self) {
        for slot in &self.0.0 {
            let pid = slot.load(Ordering::SeqCst);
            if pid != 0 {
                kill_group(pid);
            }
        }
    }
}

impl Groups {
    /// Notes `pid`'s group (beyond 256 bots at once, the rest are ended by shutdown alone).
    fn note(&self, pid: u32) {
        for slot in &self.0 {
            if slot
                .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Forgets `pid`'s group, ended.
    fn forget(&self, pid: u32) {
        for slot in &self.0 {
            if slot
                .compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }
}

impl Default for BotPool {
    /// A pool whose bots have [`super::DEFAULT_MOVE_TIME`] to answer.
    fn default() -> BotPool {
        BotPool::new(super::DEFAULT_MOVE_TIME)
    }
}

impl std::fmt::Debug for BotPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotPool")
            .field("move_time", &self.0.move_time)
            .finish_non_exhaustive()
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl BotPool {
    /// An empty pool whose bots have `move_time` to answer each request.
    pub fn new(move_time: Duration) -> BotPool {
        BotPool(Arc::new(Inner {
            move_time: move_time.max(Duration::from_millis(1)),
            children: Mutex::new(Vec::new()),
            groups: Arc::new(Groups([const { AtomicU32::new(0) }; 256])),
            idle: Mutex::new(HashMap::new()),
            forfeits: Mutex::new(HashMap::new()),
            failure: Mutex::new(None),
        }))
    }

    /// How long a bot may take to answer one request.
    pub fn move_time(&self) -> Duration {
        self.0.move_time
    }

    /// What a signal handler calls to kill the pool's bots at once.
    pub fn killer(&self) -> BotKiller {
        BotKiller(Arc::clone(&self.0.groups))
    }

    /// Ends every bot process of the pool and whatever it started. The idle bots' input is
    /// closed first, so a well-behaved bot is given a moment to finish on its own (it may
    /// write a last line to its log); then its process group (the bot and every child it left,
    /// detached or not) is killed. The pool may be used again: new requests start new bots.
    pub fn shutdown(&self) {
        self.0.shutdown();
    }

    /// Runs `deal` on this thread with failing bots forfeiting instead of ending the run
    /// (`tournament --forfeit`): a bot that fails is ended (the next request starts another),
    /// its seat passes or plays its lowest legal card, and the seat is returned among the
    /// forfeits, for the caller to settle the deal as lost by it
    /// ([`crate::game::DealState::forfeit`]).
    pub fn record_forfeits<T>(&self, deal: impl FnOnce() -> T) -> (T, Vec<usize>) {
        /// Stops the recording on every way out, an abort's unwinding included.
        struct Recording<'a>(&'a Inner);
        impl Drop for Recording<'_> {
            fn drop(&mut self) {
                lock(&self.0.forfeits).remove(&std::thread::current().id());
            }
        }
        let thread = std::thread::current().id();
        lock(&self.0.forfeits).insert(thread, Vec::new());
        let recording = Recording(&self.0);
        let value = deal();
        let seats = lock(&self.0.forfeits).remove(&thread).unwrap_or_default();
        drop(recording);
        (value, seats)
    }

    /// Why the pool's bots failed, if one did outside a deal that records forfeits: the
    /// first failure, worded for the user (the bot, what happened, the request and the
    /// answer). From then on no bot of the pool is asked anything: each decision is a
    /// stand-in (a pass, the lowest legal card) so that the work under way ends quickly, and
    /// whoever runs the pool's bots must discard what was decided since and end with this
    /// failure (the block drivers drop the blocks that finish after it; [`crate::run`] and
    /// the command line report it).
    pub fn failure(&self) -> Option<String> {
        lock(&self.0.failure).clone()
    }

    /// Records a failure ([`BotPool::failure`]); the first one is kept.
    pub(super) fn fail(&self, message: String) {
        lock(&self.0.failure).get_or_insert(message);
    }

    /// Records a forfeit by `seat` if this thread records forfeits; false otherwise.
    pub(super) fn forfeited(&self, seat: usize) -> bool {
        match lock(&self.0.forfeits).get_mut(&std::thread::current().id()) {
            Some(seats) => {
                seats.push(seat);
                true
            }
            None => false,
        }
    }

    /// Sends `line` to an idle process of `program` (starting one first, with `hello`, the
    /// handshake, if none is idle) and returns the answers and the process, which goes back to
    /// the idle ones when the lease is dropped. A failed process is ended: the next request
    /// starts another. On failure, also the line that failed.
    pub(super) fn ask(
        &self,
        program: &Program,
        hello: impl FnOnce() -> String,
        line: &str,
    ) -> Result<(Answers, Lease<'_>), (Failure, String)> {
        let deadline = self.0.move_time;
        let idle = lock(&self.0.idle)
            .get_mut(&program.key)
            .and_then(|bots| bots.pop());
        let mut greeting = None;
        let mut bot = match idle {
            Some(bot) => Box::new(bot),
            None => {
                let hello = hello();
                let mut bot = Box::new(self.start(program).map_err(|e| (e, hello.clone()))?);
                match self.exchange(&mut bot, &hello, deadline) {
                    Ok(answer) => greeting = Some((hello, answer)),
                    Err(e) => {
                        self.end(bot.pid);
                        return Err((e, hello));
                    }
                }
                bot
            }
        };
        match self.exchange(&mut bot, line, deadline) {
            Ok(answer) => {
                let lease = Lease {
                    pool: self,
                    key: program.key.clone(),
                    bot: Some(bot),
                };
                Ok((Answers { greeting, answer }, lease))
            }
            Err(e) => {
                self.end(bot.pid);
                Err((e, line.to_string()))
            }
        }
    }

    fn start(&self, program: &Program) -> Result<Bot, Failure> {
        let (name, args) = program
            .argv
            .split_first()
            .ok_or_else(|| Failure::Start("no command".into()))?;
        let log = open_log(&program.log)
            .map_err(|e| Failure::Start(format!("cannot open {}: {e}", program.log.display())))?;
        // A process group of its own: a Ctrl-C at the terminal reaches napsim alone, which
        // stops cleanly and then ends its bots; and ending the group ends whatever the bot
        // started.
        let mut command = Command::new(name);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child =
            spawn_in_group(&mut command).map_err(|e| Failure::Start(format!("{name}: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let pid = child.id();
        self.0.groups.note(pid);
        lock(&self.0.children).push((pid, child));
        Ok(Bot {
            pid,
            stdin,
            stdout,
            pending: Vec::new(),
            scanned: 0,
            chunk: Box::new([0; 4096]),
        })
    }

    /// Writes `line` and waits for one line back, after checking that nothing came unasked
    /// since the last answer.
    fn exchange(&self, bot: &mut Bot, line: &str, deadline: Duration) -> Result<String, Failure> {
        let failure = |bot: &Bot, why: NoLine| match why {
            NoLine::Closed => Failure::Gone(self.exit_status(bot.pid)),
            NoLine::Late => Failure::Timeout(deadline),
            NoLine::TooLong => Failure::TooLong,
        };
        match bot.unrequested() {
            Ok(None) => {}
            Ok(Some(stray)) => return Err(Failure::Unrequested(stray)),
            Err(why) => return Err(failure(bot, why)),
        }
        let sent = writeln!(bot.stdin, "{line}").and_then(|()| bot.stdin.flush());
        if sent.is_err() {
            return Err(Failure::Gone(self.exit_status(bot.pid)));
        }
        bot.read_line(deadline).map_err(|why| failure(bot, why))
    }

    /// How the process `pid` ended, in words ("it exited with status 3"), waiting briefly.
    fn exit_status(&self, pid: u32) -> String {
        for _ in 0..50 {
            let mut children = lock(&self.0.children);
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

    /// Kills the process `pid` and its group, and reaps it.
    fn end(&self, pid: u32) {
        let mut children = lock(&self.0.children);
        if let Some(at) = children.iter().position(|(p, _)| *p == pid) {
            let (_, mut child) = children.swap_remove(at);
            kill_group(pid);
            self.0.groups.forget(pid);
            let _ = child.kill();
            let _ = child.wait();
            await_group_end(pid);
        }
    }
}

impl Inner {
    fn shutdown(&self) {
        // Closing the idle bots' input lets them finish on their own.
        lock(&self.idle).clear();
        let children = std::mem::take(&mut *lock(&self.children));
        let grace = Instant::now() + Duration::from_millis(200);
        while Instant::now() < grace && !children.iter().all(|(pid, _)| has_exited(*pid)) {
            std::thread::sleep(Duration::from_millis(5));
        }
        for (pid, mut child) in children {
            kill_group(pid);
            self.groups.forget(pid);
            let _ = child.kill();
            let _ = child.wait();
            await_group_end(pid);
        }
    }
}

/// A lock that a panic elsewhere does not poison for good: the data are still whole.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// A bot process in use for one request: back among the idle ones when dropped, unless
/// [`Lease::end`] ended it.
pub(super) struct Lease<'a> {
    pool: &'a BotPool,
    key: String,
    bot: Option<Box<Bot>>,
}

impl Lease<'_> {
    /// After an answer that was not acceptable: the line, if any, that the process wrote after
    /// it within `wait`. One there means the answer read was a stray line (the second line of
    /// an earlier answer) and this is the answer to the request.
    pub(super) fn stray_line(&mut self, wait: Duration) -> Option<String> {
        let bot = self.bot.as_mut()?;
        let until = Instant::now() + wait;
        loop {
            if let Ok(Some(line)) = bot.unrequested() {
                return Some(line);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || !matches!(bot.fill(left), Ok(true)) {
                return bot.unrequested().ok().flatten();
            }
        }
    }

    /// Ends the process (after an answer that was not acceptable).
    pub(super) fn end(mut self) {
        if let Some(bot) = self.bot.take() {
            self.pool.end(bot.pid);
        }
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(bot) = self.bot.take() {
            lock(&self.pool.0.idle)
                .entry(std::mem::take(&mut self.key))
                .or_default()
                .push(*bot);
        }
    }
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

/// The longest answer line a bot may write, newline excluded: far above any real answer (a few
/// dozen bytes), low enough that a runaway bot is caught at once (docs/protocol.md).
pub(super) const MAX_LINE: usize = 1 << 20;

/// A running bot: its input, its output and what has been read of it past the last line.
struct Bot {
    pid: u32,
    stdin: ChildStdin,
    stdout: ChildStdout,
    pending: Vec<u8>,
    /// How much of `pending` is known to hold no newline: each byte is searched once, so a
    /// long line costs time in proportion to its length.
    scanned: usize,
    chunk: Box<[u8; 4096]>,
}

/// How a wait for a line ended without one.
enum NoLine {
    /// The output closed (the bot exited, or closed it).
    Closed,
    /// The deadline passed.
    Late,
    /// The line reached [`MAX_LINE`] bytes without a newline.
    TooLong,
}

impl Bot {
    /// The next line of the bot's output (without its newline), waiting at most `deadline`.
    /// `poll(2)` waits on the pipe itself: a reader thread would add two thread switches to
    /// every request.
    fn read_line(&mut self, deadline: Duration) -> Result<String, NoLine> {
        let until = Instant::now() + deadline;
        loop {
            if let Some(line) = self.take_line() {
                if line.len() > MAX_LINE {
                    return Err(NoLine::TooLong);
                }
                return Ok(line);
            }
            if self.pending.len() > MAX_LINE {
                return Err(NoLine::TooLong);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(NoLine::Late);
            }
            match self.fill(left) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(closed) => return Err(closed),
            }
        }
    }

    /// The first whole line of `pending`, taken out of it.
    fn take_line(&mut self) -> Option<String> {
        let found = self.pending[self.scanned..]
            .iter()
            .position(|&b| b == b'\n');
        let Some(at) = found else {
            self.scanned = self.pending.len();
            return None;
        };
        let end = self.scanned + at;
        self.scanned = 0;
        let line: Vec<u8> = self.pending.drain(..=end).collect();
        Some(String::from_utf8_lossy(&line[..end]).into_owned())
    }

    /// Waits at most `wait` for output and appends what came to `pending`: true when something
    /// came, false when nothing did, [`NoLine::Closed`] when the output closed.
    fn fill(&mut self, wait: Duration) -> Result<bool, NoLine> {
        if !ready_within(&self.stdout, wait)? {
            return Ok(false);
        }
        match self.stdout.read(&mut self.chunk[..]) {
            Ok(0) | Err(_) => Err(NoLine::Closed),
            Ok(n) => {
                self.pending.extend_from_slice(&self.chunk[..n]);
                Ok(true)
            }
        }
    }

    /// Output that arrived while no request was pending (a second line to the last request,
    /// or a line of its own), if any: a protocol error, since it would answer the next request.
    fn unrequested(&mut self) -> Result<Option<String>, NoLine> {
        while self.pending.len() <= MAX_LINE && self.fill(Duration::ZERO)? {}
        if self.pending.is_empty() {
            return Ok(None);
        }
        let text = self.take_line().unwrap_or_else(|| {
            let shown = &self.pending[..self.pending.len().min(200)];
            String::from_utf8_lossy(shown).into_owned()
        });
        Ok(Some(text))
    }
}

/// How the error line words a line that no request asked for.
pub(super) const UNREQUESTED: &str =
    "wrote a line no request asked for (a second answer to one request, or output of its own)";

/// What went wrong with a bot, in words for the error line.
#[derive(Debug)]
pub(super) enum Failure {
    /// It could not be started.
    Start(String),
    /// It exited, or closed its output, before answering.
    Gone(String),
    /// No answer within the move time.
    Timeout(Duration),
    /// An answer line longer than [`MAX_LINE`].
    TooLong,
    /// A line no request asked for (shown).
    Unrequested(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Start(e) => write!(f, "could not be started: {e}"),
            Failure::Gone(how) => write!(f, "{how} before answering"),
            Failure::Timeout(t) => write!(f, "did not answer within {} s", t.as_secs_f64()),
            Failure::TooLong => write!(
                f,
                "wrote an answer line over {} MiB, the protocol's limit",
                MAX_LINE >> 20
            ),
            Failure::Unrequested(line) => write!(f, "{UNREQUESTED}: {line}"),
        }
    }
}

/// What a request got back: the answer to the handshake when the process was started for it,
/// and the answer to the request.
pub(super) struct Answers {
    pub greeting: Option<(String, String)>,
    pub answer: String,
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

/// The system calls the bots need: Unix ones (process groups, `poll(2)`, `waitid(2)`,
/// `kill(2)`); elsewhere no bot starts, and the rest does nothing.
#[cfg(unix)]
mod sys {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    use std::process::{Child, ChildStdout, Command};
    use std::time::Duration;

    use super::NoLine;

    /// Starts `command` in a process group of its own: a Ctrl-C at the terminal reaches napsim
    /// alone, which stops cleanly and then ends its bots; and ending the group ends whatever
    /// the bot started.
    pub(super) fn spawn_in_group(command: &mut Command) -> std::io::Result<Child> {
        command.process_group(0).spawn()
    }

    /// Whether `out` has something to read within `wait` (`poll(2)` on the pipe itself: a
    /// reader thread would add two thread switches to every request); [`NoLine::Closed`] when
    /// the wait failed.
    pub(super) fn ready_within(out: &ChildStdout, wait: Duration) -> Result<bool, NoLine> {
        let mut poll = libc::pollfd {
            fd: out.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = wait.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd for the length given.
        let ready = unsafe { libc::poll(&mut poll, 1, millis) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                return Ok(false);
            }
            return Err(NoLine::Closed);
        }
        Ok(ready > 0)
    }

    /// Whether the process `pid` (a child not reaped yet) has exited; it stays unreaped, so
    /// its process group keeps its number until [`kill_group`].
    pub(super) fn has_exited(pid: u32) -> bool {
        // SAFETY: waitid writes only into `info`; WNOWAIT leaves the child to be reaped later.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) == 0
                && info.si_pid() != 0
        }
    }

    /// Kills the process group a bot leads: the bot and the children it started.
    pub(super) fn kill_group(pid: u32) {
        // SAFETY: kill has no memory effects; a group that is gone gives ESRCH, ignored.
        unsafe {
            libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
        }
    }

    /// Waits (half a second at most) until the process group `pid` led is gone: a signal is
    /// delivered after `kill` returns, and napsim must not end before the bot's children have.
    pub(super) fn await_group_end(pid: u32) {
        for _ in 0..100 {
            // SAFETY: signal 0 only asks whether the group still has a member.
            if unsafe { libc::kill(-(pid as libc::pid_t), 0) } != 0 {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// How a process ended, in words.
    pub(super) fn describe(status: std::process::ExitStatus) -> String {
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(signal)) => format!("was killed by signal {signal}"),
            _ => "exited".into(),
        }
    }
}

/// Without Unix process groups and `poll(2)` a bot cannot be bounded in time nor ended with
/// what it started: none is started (the spec's first request says so).
#[cfg(not(unix))]
mod sys {
    use std::process::{Child, ChildStdout, Command};
    use std::time::Duration;

    use super::NoLine;

    pub(super) fn spawn_in_group(_: &mut Command) -> std::io::Result<Child> {
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "external bots need a Unix system (process groups and poll)",
        ))
    }

    pub(super) fn ready_within(_: &ChildStdout, _: Duration) -> Result<bool, NoLine> {
        Err(NoLine::Closed)
    }

    pub(super) fn has_exited(_: u32) -> bool {
        true
    }

    pub(super) fn kill_group(_: u32) {}

    pub(super) fn await_group_end(_: u32) {}

    pub(super) fn describe(status: std::process::ExitStatus) -> String {
        match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "exited".into(),
        }
    }
}
