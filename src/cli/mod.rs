//! The `napsim` command line: argument parsing and dispatch to the library. No game logic.
//!
//! Exit codes: 0 success, 1 runtime failure (I/O), 2 bad input or usage.

mod args;
mod commands;
mod execute;

pub use args::{Cli, Command, parse_count, parse_threads, parse_whole};

use std::ffi::OsString;
use std::fmt;

use clap::Parser;

/// A failure to report: the exit code and the one-line message.
#[derive(Debug)]
pub struct Failure {
    /// 1 for runtime failures, 2 for bad input.
    pub code: i32,
    /// The message, without the `error: ` prefix.
    pub message: String,
}

impl Failure {
    /// Bad input or usage: exit 2.
    pub fn input(message: impl fmt::Display) -> Failure {
        Failure {
            code: 2,
            message: message.to_string(),
        }
    }

    /// A runtime failure such as I/O: exit 1.
    pub fn runtime(message: impl fmt::Display) -> Failure {
        Failure {
            code: 1,
            message: message.to_string(),
        }
    }
}

macro_rules! input_errors {
    ($($t:ty),*) => {$(
        impl From<$t> for Failure {
            fn from(e: $t) -> Failure {
                Failure::input(e)
            }
        }
    )*};
}
input_errors!(
    crate::rules::RulesError,
    crate::cards::CardError,
    crate::policy::SpecError
);

/// Runs napsim with `args` (the program name first) and returns the exit code. Errors are
/// printed to stderr as one `error: ...` line.
pub fn main_with_args(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match commands::run(cli) {
        Ok(()) => 0,
        Err(f) if f.code == 0 => 0,
        Err(f) => {
            crate::stderr::line(&format!("error: {}", f.message));
            f.code
        }
    }
}
