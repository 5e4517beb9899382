//! `pass`: the trivial bid policy.

use super::{BidPolicy, BidView};
use crate::game::Call;
use crate::rng::SimRng;

/// Always passes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pass;

impl BidPolicy for Pass {
    fn call(&self, _view: &BidView, _rng: &mut SimRng) -> Call {
        Call::Pass
    }
}
