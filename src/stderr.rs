//! Messages on stderr that never panic.
//!
//! `eprintln!` panics when the write fails, and it does fail once the terminal has gone (a
//! closed window under `nohup`, where SIGHUP is ignored and stderr is a dead pty) or when stderr
//! is a pipe whose reader has exited (`napsim ... 2>&1 | head`). A message is a courtesy: losing
//! it must not stop a run or lose its results, so these functions drop write errors.

use std::io::Write;

/// Writes `text` and a newline to stderr, ignoring write errors.
pub fn line(text: &str) {
    write(&format!("{text}\n"));
}

/// Writes `text` to stderr as it is, ignoring write errors.
pub fn write(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}
