//! The error of a napsim command: what went wrong, of which kind. The kind decides the exit
//! status, which the command line alone maps ([`crate::cli`]); the message says what was wrong
//! and what is accepted.

use std::fmt;

use thiserror::Error as ThisError;

use crate::bots::InputFileError;
use crate::bots::ext::BotPool;
use crate::cards::CardError;
use crate::eval::hand::HandInputError;
use crate::files::Unwritable;
use crate::policy::SpecError;
use crate::rules::RulesError;
use crate::sim::TallyError;

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
    /// A file that a policy reads (`table:file=...`) cannot be read.
    #[error(transparent)]
    InputFile(#[from] InputFileError),
    /// The hand or the earlier calls of `napsim hand` cannot be used.
    #[error(transparent)]
    HandInput(#[from] HandInputError),
    /// A tally read from a file whose counts do not fit.
    #[error(transparent)]
    Tally(#[from] TallyError),
    /// Bad input refused by a layer that itself returns this `Error` (`run`, `analysis`: a
    /// partial file, an entrant, a deal to solve, a replay), as that layer's typed error: the
    /// conversion is [`InputError`]'s, since this module cannot name those types without an
    /// import cycle.
    #[error(transparent)]
    Refused(Box<dyn std::error::Error + Send + Sync>),
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

/// A typed error of a layer above this module that means bad input (exit status 2): `?`
/// turns it into [`Error::Refused`], keeping it whole (`downcast_ref` finds it again).
pub trait InputError: std::error::Error + Send + Sync + 'static {}

impl<E: InputError> From<E> for Error {
    fn from(error: E) -> Error {
        Error::Refused(Box::new(error))
    }
}

impl Error {
    /// Whether the error is bad input (the caller's to fix: exit status 2 on the command
    /// line, `ValueError` in Python) rather than a failure of the run.
    pub fn is_input(&self) -> bool {
        match self {
            Error::Input(_)
            | Error::Rules(_)
            | Error::Cards(_)
            | Error::Spec(_)
            | Error::InputFile(_)
            | Error::HandInput(_)
            | Error::Tally(_)
            | Error::Refused(_) => true,
            Error::Runtime(_) | Error::Unwritable(_) | Error::Stdout(_) | Error::Interrupted(_) => {
                false
            }
        }
    }

    /// Bad input: `message` names what was wrong.
    pub fn input(message: impl fmt::Display) -> Error {
        Error::Input(message.to_string())
    }

    /// Fails with the failure of a bot of `pool` if one failed ([`BotPool::failure`]): what
    /// was decided since rests on stand-ins, so nothing of it may be shown.
    pub fn bots_held(pool: &BotPool) -> Result<(), Error> {
        match pool.failure() {
            Some(why) => Err(Error::Runtime(why)),
            None => Ok(()),
        }
    }

    /// A runtime failure such as I/O.
    pub fn runtime(message: impl fmt::Display) -> Error {
        Error::Runtime(message.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::partial::PartialError;

    #[test]
    fn a_refusal_keeps_its_typed_error_and_its_message() {
        let typed = PartialError::Twice {
            shard: crate::sim::Shard { index: 1, count: 3 },
            first: "a".into(),
            second: "b".into(),
        };
        let message = typed.to_string();
        let error = Error::from(typed);
        assert_eq!(error.to_string(), message);
        let Error::Refused(inner) = &error else {
            panic!("not a refusal: {error:?}");
        };
        assert!(matches!(
            inner.downcast_ref::<PartialError>(),
            Some(PartialError::Twice { second, .. }) if second == "b"
        ));
    }
}
