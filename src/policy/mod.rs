//! The policy contracts: the deciders of the auction ([`BidPolicy`]) and the play
//! ([`PlayPolicy`]), the information-set views they decide from ([`BidView`], [`PlayView`]), the
//! loop that asks them through one deal ([`run_deal`]), the spec grammar that names them
//! ([`Spec`]) and the hand-strength scores their default choices use ([`strength`]). The
//! policies themselves, and the registry that builds one from its spec, are in [`crate::bots`].
//!
//! Policies see only their view ([`BidView`], [`PlayView`]) and draw randomness only from the
//! RNG they are handed.

mod pass;
mod random;
mod runner;
pub mod spec;
pub mod strength;
mod view;

pub use pass::Pass;
pub use random::RandomPlay;
pub use runner::{
    Seats, Table, Uniform, auction_turn, play_out, run_auction, run_deal, settle_contract,
};
pub use spec::{MAX_NESTING, Spec, SpecError};
pub use view::{BidView, PlayView};

use std::any::Any;

use crate::cards::{Card, CardSet, Suit};
use crate::game::Call;
use crate::rng::SimRng;

/// Decides a seat's call in the auction. (`Any`: the simulation driver recognises the built-in
/// policies and runs a loop compiled for them.)
pub trait BidPolicy: Send + Sync + Any {
    /// Purchase Nap: which cards to give up for as many from the stock, paying the stake (empty:
    /// do not buy). Only asked where the profile allows it. The default never buys.
    fn purchase(&self, _view: &BidView, _rng: &mut SimRng) -> CardSet {
        CardSet::EMPTY
    }

    /// Peep Nap: whether to pay to look at the floater before calling. The default never looks.
    fn peek(&self, _view: &BidView, _rng: &mut SimRng) -> bool {
        false
    }

    /// Peep Nap: as declarer of a bid with the floater, which of the six cards (`six`: the hand
    /// and the floater) to discard. The default discards the card outside the strongest five
    /// ([`strength::best_five`]).
    fn floater_discard(&self, _view: &BidView, six: CardSet, _rng: &mut SimRng) -> Card {
        (six - strength::best_five(six))
            .first()
            .or(six.first())
            .expect("six cards")
    }

    /// As declarer of a bid whose trump is named, the trump suit. The default names the suit
    /// that makes the hand strongest while keeping a card outside it
    /// ([`strength::named_trump`]).
    fn name_trump(&self, view: &BidView, _rng: &mut SimRng) -> Suit {
        strength::named_trump(view.hand())
    }

    /// Whether to take the spare hand instead of calling (Sir Garnet; only asked when the seat
    /// may take it). The default never takes it.
    fn take_spare(&self, _view: &BidView, _rng: &mut SimRng) -> bool {
        false
    }

    /// Which five of `cards` (the seat's hand and the spare hand it took) to keep. The default
    /// keeps the five with the highest trick-taking strength ([`strength::best_five`]).
    fn keep(&self, _view: &BidView, cards: CardSet, _rng: &mut SimRng) -> CardSet {
        strength::best_five(cards)
    }

    /// The call for the seat in `view`; it must be legal ([`BidView::is_legal`]). The runner only
    /// asks when the seat has at least one legal bid.
    fn call(&self, view: &BidView, rng: &mut SimRng) -> Call;

    /// Whether the policy can bid at a table of `players` (a strategy found for one table size
    /// cannot bid at another); the reason when it cannot. Commands ask before they play. The
    /// default bids at any table.
    fn check_table(&self, _players: usize) -> Result<(), String> {
        Ok(())
    }
}

/// Decides which card a seat plays. (`Any`: see [`BidPolicy`].)
pub trait PlayPolicy: Send + Sync + Any {
    /// The card for the seat in `view`; it must be in [`PlayView::legal`]. The runner does not
    /// ask for a seat's last card.
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card;

    /// The double-dummy capability, for the one policy family that sees every hand (`dd`).
    /// Analyses ask it to know that a play is double dummy (and take the solver's value
    /// instead of playing the cards out). The default, for every fair policy, is `None`.
    fn sees_all_hands(&self) -> Option<&SeeAllHands> {
        None
    }

    /// This policy as it plays deals whose information sets do not come back: where it spends
    /// on a decision that it makes once per information set and remembers (PIMC's
    /// `opening=K`), a cheap stand-in for that decision (PIMC's declarer then leads the
    /// heuristic's card). Analyses that play one hand's information sets many times, and
    /// others' once each (`napsim hand`'s contracts won by another seat), play those others
    /// with it. `None`: the policy plays them as it is.
    fn unshared(&self) -> Option<std::sync::Arc<dyn PlayPolicy>> {
        None
    }

    /// Whether this policy's cards depend on the contract's bid only through its play rules
    /// ([`Bid::plays_like`](crate::rules::Bid::plays_like): tricks needed or misère, the trump
    /// and lead rules, the floater), never through the bid's name, id, place in the ladder or
    /// payouts, nor through the calls of the auction that led to it. When true, a deal played
    /// under two bids that play alike, from the same generator, gets the same cards, and
    /// analyses play it once for both (`napsim hand` plays each world once per distinct
    /// contract, and once per contract another seat wins whatever the hand called before it). The default, `false`, is always safe: a
    /// policy that cannot promise it (an external bot) keeps it.
    fn plays_by_rules_only(&self) -> bool {
        false
    }
}

/// The double-dummy capability: the right to see every seat's hand ([`PlayView::all_hands`]).
///
/// It cannot be made outside this crate, and inside it only the `dd` family
/// ([`crate::bots::dd`]) makes one, so a policy written against the library cannot look at
/// another seat's cards, and the crate's own cheat is named where it is granted.
#[derive(Debug)]
pub struct SeeAllHands(());

impl SeeAllHands {
    /// The capability; granted in `bots::dd` only.
    pub(crate) const fn grant() -> SeeAllHands {
        SeeAllHands(())
    }
}
