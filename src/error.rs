//! The error of a napsim command: what went wrong, of which kind. The kind decides the exit
//! status, which the command line alone maps ([`crate::cli`]); the message says what was wrong
//! and what is accepted.

use std::fmt;

use thiserror::Error as ThisError;

use crate::cards::CardError;
use crate::files::Unwritable;
use crate::policy::SpecError;
use crate::rules::RulesError;

/// Why a command did not finish.
#[derive(Debug, ThisError)]
pub enum Error {
    /// Bad input or usage, which the user can correct (a hand, a flag, a file that is not a
    /// napsim file).
    #[error("{0}")]
    Input(String),
    /// A rule profile that cannot be used.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A card, hand or deal that cannot be read.
    #[error(transparent)]
    Cards(#[from] CardError),
    /// A policy spec that cannot be used.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A failure of the machine rather than of the input: a file that cannot be written, a
    /// worker that failed.
    #[error("{0}")]
    Runtime(String),
    /// An output that cannot be written, found before the run.
    #[error(transparent)]
    Unwritable(#[from] Unwritable),
    /// The output stream could not be written (a closed pipe among the causes).
    #[error("cannot write to stdout: {0}")]
    Stdout(std::io::Error),
    /// The run was stopped (SIGINT, SIGTERM) after saving what can be resumed; the message
    /// says where and how to continue.
    #[error("{0}")]
    Interrupted(String),
}

impl Error {
    /// Bad input: `message` names what was wrong.
    pub fn input(message: impl fmt::Display) -> Error {
        Error::Input(message.to_string())
    }

    /// A runtime failure such as I/O.
    pub fn runtime(message: impl fmt::Display) -> Error {
        Error::Runtime(message.to_string())
    }
}
