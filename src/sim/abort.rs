//! Ending a run from inside a block's work: [`abort`] unwinds out of the policy that failed
//! (an external bot that crashed, hung or answered an illegal card) up to the driver, which
//! drops that block, keeps the blocks finished before it and reports the message.
//!
//! A panic is the carrier because a policy's decision returns a card or a call, not a
//! `Result`, and the failure must cross every analysis between the policy and the driver; the
//! payload type tells it apart from a bug, whose panic the drivers re-raise unchanged, and the
//! panic hook stays silent for it: the user sees one `error:` line, no backtrace.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Once;

/// Why a run was aborted, as the failing component words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abort(pub String);

/// Ends the run that the current block belongs to with `message`.
pub fn abort(message: String) -> ! {
    quiet_hook();
    std::panic::panic_any(Abort(message))
}

/// `work()`, or the [`Abort`] it ended with; any other panic continues unwinding. The block
/// drivers catch a block's abort with it, and the command line a policy's abort outside any
/// run (a bot that fails while `napsim deal` or `napsim hand` asks it).
pub fn attempt<T>(work: impl FnOnce() -> T) -> Result<T, Abort> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(value) => Ok(value),
        Err(payload) => match payload.downcast::<Abort>() {
            Ok(aborted) => Err(*aborted),
            Err(other) => resume_unwind(other),
        },
    }
}

/// Wraps the panic hook once so that an [`Abort`] prints nothing (the driver reports it);
/// every other panic still reaches the previous hook.
fn quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<Abort>().is_none() {
                previous(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_abort_is_caught_and_other_panics_pass_through() {
        assert_eq!(attempt(|| 3), Ok(3));
        assert_eq!(
            attempt(|| -> u32 { abort("the bot left".into()) }),
            Err(Abort("the bot left".into()))
        );
        let other = catch_unwind(|| attempt(|| -> u32 { panic!("a bug") }));
        assert!(other.is_err());
    }
}
