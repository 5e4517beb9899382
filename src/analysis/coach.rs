//! The coach of `napsim play`: hints for the seat to act, from the same tools the reviews use.
//!
//! - At a call: the hand evaluator ([`crate::eval::hand`]) on the seat's hand after the calls so
//!   far: P(make), EV and its interval for every bid as declarer, and every legal call (passing
//!   included) valued in the whole auction, the later seats still to speak.
//! - At a card: each legal card's share of PIMC's sampled worlds won (from the seat's view) and
//!   its double-dummy value (every hand visible: the declarer's tricks for the deal after it).

use crate::analysis::review::card_values;
use crate::bots::pimc::Pimc;
use crate::cards::Card;
use crate::eval::hand::{HandQuery, HandSummary};
use crate::game::DealState;
use crate::policy::{BidPolicy, PlayPolicy, PlayView};
use crate::rng::block_streams;
use crate::sim::{PoolError, Silent};
use crate::solver::with_thread_solver;

/// The evaluator's settings for a call hint.
pub struct CallCoach<'a> {
    /// The play policy of the evaluator's worlds.
    pub play: &'a dyn PlayPolicy,
    /// The bid policy assumed for the other seats: those that called before, and those still
    /// to speak.
    pub others: &'a dyn BidPolicy,
    /// Worlds to play.
    pub worlds: u64,
    /// Worker threads.
    pub threads: usize,
}

/// The evaluator's view of the call to make in `state` (in its auction): every bid from the
/// seat to call after the calls so far, with the seat's hand, and every legal call valued in
/// the whole auction (the summary recommends by those). None when those calls are too rare to
/// sample.
pub fn call_hint(
    state: &DealState,
    coach: &CallCoach,
    seed: u64,
) -> Result<Option<HandSummary>, PoolError> {
    let seat = state.to_act().expect("a seat to call");
    let query = HandQuery {
        profile: state.profile(),
        players: state.players(),
        seat: state.calls().len(),
        hand: state.hand(seat),
        after: state.calls(),
        others: coach.others,
        play: coach.play,
        dd_column: true,
        auction: true,
        session: None,
    };
    Ok(query
        .run(coach.worlds, seed, coach.threads, &Silent)?
        .map(|tally| query.summarise(&tally)))
}

/// One legal card's values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardHint {
    /// The card.
    pub card: Card,
    /// The share of PIMC's worlds in which it wins for the seat's side.
    pub pimc: f64,
    /// The declarer's tricks for the deal after it, double dummy.
    pub dd: u8,
}

/// Every legal card of the seat to play in `state`, valued by `pimc` from the seat's view
/// (its worlds from `seed`) and double dummy. Highest card first.
pub fn card_hint(state: &DealState, pimc: &Pimc, seed: u64) -> Vec<CardHint> {
    let (_, mut rng) = block_streams(seed, 0);
    let shares = pimc.card_shares(&PlayView::new(state), &mut rng);
    let values = with_thread_solver(state.players(), |solver| card_values(solver, state));
    shares
        .into_iter()
        .map(|(card, pimc)| CardHint {
            card,
            pimc,
            dd: values
                .iter()
                .find(|(c, _)| *c == card)
                .map(|&(_, v)| v)
                .expect("the same legal cards"),
        })
        .collect()
}
