//! Ending a run from inside a block's work: the block's work returns an [`Abort`] (an external
//! bot that crashed, hung or answered an illegal card, as its pool recorded it) and the driver
//! drops that block, keeps the blocks finished before it and reports the message. No panic
//! carries it: a policy's decision returns a card or a call, so a failing bot gives a stand-in
//! and its pool keeps the failure ([`crate::bots::ext::BotPool::failure`]) for the caller of
//! the driver to turn into this value.

/// Why a run was aborted, as the failing component words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abort(pub String);

impl std::fmt::Display for Abort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
