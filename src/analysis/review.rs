//! `napsim review`: a played deal judged card by card and call by call, as a chess engine
//! analyses a game.
//!
//! - **Cards.** Before each card, every legal card of the seat to play is solved double dummy
//!   (every hand visible, best play by everyone after it): the declarer's total tricks for the
//!   deal, those already won included. The best for the seat (the most for the declarer, the
//!   fewest for a defender; reversed in a misère) is the position's value before the card, the
//!   played card's is its value after, and the difference is the card's cost in tricks, from
//!   the player's side: 0 when it was a best card, never negative. The opening lead is valued
//!   over the leads the contract allows (each may choose trump). The seat's own choice under
//!   PIMC, from its view only, is shown beside it.
//! - **Calls.** Before each call, the hand evaluator ([`crate::eval::hand`]) values every bid
//!   from that seat after the calls before it, with the hand it held then; passing is worth 0
//!   (the evaluator counts the declarer's units). A call's EV loss is the best option's EV less
//!   the EV of the call made.
//!
//! Every card and call has its own random stream, drawn from the review's seed, so a review is
//! reproducible and does not depend on the thread count.

use crate::analysis::replay::{Replay, ReplayError, replay_auction};
use crate::analysis::solve::{best_value, values_after};
use crate::cards::{Card, CardSet};
use crate::eval::hand::HandQuery;
use crate::game::{Call, Contract, DealState, Phase};
use crate::policy::{BidPolicy, PlayPolicy, PlayView};
use crate::rng::block_streams;
use crate::rules::{BidId, Profile};
use crate::sim::{PoolError, Progress, Silent};
use crate::solver::{Opening, Position, Solver};

/// How a review judges the calls (the hand evaluator's settings).
pub struct CallSettings<'a> {
    /// The play policy of the evaluator's worlds.
    pub play: &'a dyn PlayPolicy,
    /// The bid policy the evaluator assumes for the earlier seats.
    pub others: &'a dyn BidPolicy,
    /// Worlds per call.
    pub worlds: u64,
    /// Worker threads.
    pub threads: usize,
}

/// How a review is made.
pub struct ReviewSettings<'a> {
    /// The policy whose choice is shown beside each card (PIMC), from the seat's view.
    pub choice: &'a dyn PlayPolicy,
    /// The calls' judge, or None to review the cards only.
    pub calls: Option<CallSettings<'a>>,
    /// The review's seed.
    pub seed: u64,
    /// Told of each call judged (one unit) and of the cards (one unit) as they are done.
    pub progress: &'a dyn Progress,
}

/// One card of the deal, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardReview {
    /// The trick, 1 to 5.
    pub trick: usize,
    /// The seat that played it.
    pub seat: usize,
    /// The card.
    pub card: Card,
    /// The declarer's total tricks with best play from the position before the card.
    pub dd_before: u8,
    /// The same after the card (None for a revoke, which ends a replayed deal).
    pub dd_after: Option<u8>,
    /// Tricks the card cost the player's side (0 for a best card; None for a revoke).
    pub cost: Option<u8>,
    /// Whether the contract could be made, with best play, before the card.
    pub made_before: bool,
    /// The same after it (None for a revoke).
    pub made_after: Option<bool>,
    /// The best cards for the seat.
    pub best: CardSet,
    /// The card the choice policy plays from the seat's view.
    pub choice: Card,
}

/// One bid's value from a seat, as the evaluator found it.
#[derive(Clone, Debug, PartialEq)]
pub struct BidValue {
    /// The bid.
    pub bid: BidId,
    /// Whether the seat could call it after the calls before it.
    pub callable: bool,
    /// The declarer's expected units if it bids it.
    pub ev: f64,
    /// The standard error of `ev`.
    pub se: f64,
}

/// One call's value from a seat in the whole auction, as the evaluator found it.
#[derive(Clone, Debug, PartialEq)]
pub struct CallValue {
    /// The call.
    pub call: Call,
    /// The seat's expected units from the whole deal if it makes this call.
    pub ev: f64,
    /// The standard error of `ev`.
    pub se: f64,
}

/// One call of the auction, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct CallReview {
    /// The seat that called.
    pub seat: usize,
    /// Its place in the auction (0 = eldest).
    pub position: usize,
    /// The call.
    pub call: Call,
    /// Every bid of the profile, valued; empty when the evaluator could not judge the call
    /// (the calls before it were too rare to sample, or taking a spare hand).
    pub bids: Vec<BidValue>,
    /// Every call the seat could make, passing first, valued in the whole auction (the later
    /// seats still to speak); empty when not judged.
    pub calls: Vec<CallValue>,
    /// The evaluator's best call in the whole auction: a bid, or None for passing.
    pub best: Option<BidId>,
    /// The call's value in the whole auction, when judged.
    pub ev: Option<f64>,
    /// The best call's value less the call's, when judged.
    pub loss: Option<f64>,
    /// Worlds the evaluator played.
    pub worlds: u64,
}

/// A deal, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct DealReview {
    /// The contract (None when every seat passed).
    pub contract: Option<Contract>,
    /// Tricks the contract needs (0 for a misère).
    pub needed: u8,
    /// Whether the contract is a misère.
    pub misere: bool,
    /// The cards, in play order.
    pub cards: Vec<CardReview>,
    /// The calls, in speaking order (empty when calls are not reviewed).
    pub calls: Vec<CallReview>,
}

/// Why a review failed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The game does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A worker thread failed while evaluating a call.
    #[error("evaluating a call failed: {0}")]
    Pool(#[from] PoolError),
}

/// Reviews `game` under `profile`.
pub fn review(
    profile: &Profile,
    game: &Replay,
    settings: &ReviewSettings,
) -> Result<DealReview, ReviewError> {
    let mut state = replay_auction(profile, game)?;
    let calls = match &settings.calls {
        Some(judge) => review_calls(profile, &state, judge, settings)?,
        None => Vec::new(),
    };
    let contract = state.contract();
    let (needed, misere) = contract.map_or((0, false), |c| {
        let bid = profile.bid(c.bid);
        (bid.tricks_needed(), bid.is_misere())
    });
    let mut cards = Vec::with_capacity(game.plays.len());
    let mut solver = Solver::new(game.hands.len());
    for (i, &card) in game.plays.iter().enumerate() {
        let Some(seat) = state.to_act().filter(|_| state.phase() == Phase::Play) else {
            return Err(ReplayError::TooManyCards {
                used: i,
                given: game.plays.len(),
            }
            .into());
        };
        let values = card_values(&mut solver, &state);
        let choice = chosen_card(&state, settings.choice, settings.seed, i as u64);
        let declarer = seat == contract.expect("a contract in the play").declarer;
        // The declarer wants tricks, a defender denies them; a misère reverses both.
        let wants_more = declarer != misere;
        let best_value = best_value(&values, wants_more);
        let made = |v: u8| if misere { v == 0 } else { v >= needed };
        let after = values.iter().find(|(c, _)| *c == card).map(|&(_, v)| v);
        state
            .play_replayed(card)
            .map_err(|reason| ReplayError::IllegalPlay {
                index: i + 1,
                seat,
                card,
                reason,
            })?;
        cards.push(CardReview {
            trick: i / game.hands.len() + 1,
            seat,
            card,
            dd_before: best_value,
            dd_after: after,
            cost: after.map(|v| v.abs_diff(best_value)),
            made_before: made(best_value),
            made_after: after.map(made),
            best: values
                .iter()
                .filter(|(_, v)| *v == best_value)
                .map(|(c, _)| *c)
                .collect(),
            choice,
        });
    }
    settings.progress.advance(1);
    if state.phase() != Phase::Finished {
        return Err(ReplayError::TooFewCards {
            played: game.plays.len(),
            seat: state.to_act().expect("a seat to play"),
        }
        .into());
    }
    Ok(DealReview {
        contract,
        needed,
        misere,
        cards,
        calls,
    })
}

/// Every legal card of the seat to play in `state` with the declarer's total tricks after it
/// under best play by everyone (double dummy).
pub fn card_values(solver: &mut Solver, state: &DealState) -> Vec<(Card, u8)> {
    let contract = state.contract().expect("a contract in the play");
    let won = state.tricks_won(contract.declarer);
    let opening = state.tricks_done() == 0 && state.current_trick().is_empty();
    if opening {
        let hands: Vec<CardSet> = (0..state.players()).map(|s| state.hand(s)).collect();
        let rules = Opening::for_bid(state.profile().bid(contract.bid), state.trump());
        return solver.opening(&hands, contract.declarer, &rules);
    }
    let position = Position::from_state(state).expect("a position in the play");
    values_after(solver, &position, won)
}

/// The card `policy` plays in `state` from the seat's view, with the `index`-th stream of
/// `seed` (a forced card is played without asking).
fn chosen_card(state: &DealState, policy: &dyn PlayPolicy, seed: u64, index: u64) -> Card {
    let legal = state.legal_cards();
    if legal.at_most_one() {
        return legal.first().expect("a legal card");
    }
    let (_, mut rng) = block_streams(seed, index);
    policy.play(&PlayView::new(state), &mut rng)
}

/// Every call of the auction in `state` (after it), judged by the evaluator.
fn review_calls(
    profile: &Profile,
    state: &DealState,
    judge: &CallSettings,
    settings: &ReviewSettings,
) -> Result<Vec<CallReview>, PoolError> {
    let seed = settings.seed;
    let players = state.players();
    let calls = state.calls();
    let mut reviews = Vec::with_capacity(calls.len());
    for (position, &call) in calls.iter().enumerate() {
        let seat = state.caller(position);
        // The hand it called with: as dealt, with any purchase made before the auction.
        let (given, received) = state.bought(seat);
        let hand = (state.dealt(seat) - given) | received;
        let query = HandQuery {
            profile,
            players,
            seat: position,
            hand,
            after: &calls[..position],
            others: judge.others,
            play: judge.play,
            dd_column: false,
            auction: true,
            session: None,
        };
        // Calls are reviewed with streams apart from the cards' (whose indices start at 0).
        let call_seed = seed ^ (0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(position as u64 + 1));
        let tally = match call {
            Call::TakeSpare => None,
            _ => query.run(judge.worlds, call_seed, judge.threads, &Silent)?,
        };
        settings.progress.advance(1);
        let Some(tally) = tally else {
            reviews.push(CallReview {
                seat,
                position,
                call,
                bids: Vec::new(),
                calls: Vec::new(),
                best: None,
                ev: None,
                loss: None,
                worlds: 0,
            });
            continue;
        };
        let summary = query.summarise(&tally);
        let bids: Vec<BidValue> = summary
            .bids
            .iter()
            .map(|b| BidValue {
                bid: b.id,
                callable: b.callable,
                ev: b.ev,
                se: b.ev_se,
            })
            .collect();
        let calls: Vec<CallValue> = summary
            .calls
            .iter()
            .map(|c| CallValue {
                call: c.call,
                ev: c.auction_ev,
                se: c.auction_ev_se,
            })
            .collect();
        // The call made is legal, so it is among the calls valued.
        let made = summary.calls.iter().find(|c| c.call == call);
        reviews.push(CallReview {
            seat,
            position,
            call,
            best: summary.recommended,
            ev: made.map(|c| c.auction_ev),
            loss: made.map(|c| 0.0 - c.diff_best),
            worlds: summary.worlds,
            bids,
            calls,
        });
    }
    Ok(reviews)
}
