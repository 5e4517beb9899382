//! Policies: the pluggable deciders of the auction ([`BidPolicy`]) and the play
//! ([`PlayPolicy`]), the views they decide from, and the spec grammar that names them.
//!
//! | spec | kind | what it does |
//! | --- | --- | --- |
//! | `pass` | bid | always passes |
//! | `threshold[:BID=SCORE,...]` | bid | bids the highest legal bid whose hand-strength threshold the hand reaches ([`threshold`]) |
//! | `always:bid=BID` | bid | eldest bids `BID`, everyone else passes: every deal is played |
//! | `table:file=(FILE.csv)` | bid | bids from a `napsim bid-table --by exact` table: the legal bid with the highest positive expected units for its hand's class and seat, the threshold policy for classes the table lacks ([`table`]) |
//! | `lookahead[:worlds=K,play=SPEC,others=SPEC]` | bid | evaluates its own hand over K worlds consistent with the earlier calls and calls the legal bid with the highest expected units ([`lookahead`]) |
//! | `random` | play | a uniformly random legal card |
//! | `heuristic` | play | a documented rule set ([`heuristic`]) |
//! | `pimc[:worlds=K]` | play | samples K layouts of the hidden cards and plays the card that makes (or beats) the contract in the most of them, solved double dummy ([`pimc`]) |
//! | `ismcts[:iterations=K]` | play | information-set Monte Carlo tree search: K iterations, each on a layout of the hidden cards sampled from what the seat knows, heuristic rollouts; plays the most visited card ([`ismcts`]) |
//! | `dd` | play | **a cheat that sees every hand**: double-dummy optimal play, the upper bound for card play ([`dd`]) |
//!
//! Policies see only their view ([`BidView`], [`PlayView`]) and draw randomness only from the
//! RNG they are handed.

pub mod always;
pub mod dd;
pub mod heuristic;
pub mod ismcts;
pub mod lookahead;
pub mod pass;
pub mod pimc;
pub mod random;
mod solved;
pub mod spec;
pub mod table;
pub mod threshold;
mod view;
pub mod worlds;

pub use spec::{Spec, SpecError};
pub use view::{BidView, PlayView};

use std::any::Any;

use crate::cards::{Card, CardSet, Suit};
use crate::game::Call;
use crate::rng::SimRng;
use crate::rules::Profile;

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
    /// ([`threshold::best_five`]).
    fn floater_discard(&self, _view: &BidView, six: CardSet, _rng: &mut SimRng) -> Card {
        (six - threshold::best_five(six))
            .first()
            .or(six.first())
            .expect("six cards")
    }

    /// As declarer of a bid whose trump is named, the trump suit. The default names the suit
    /// that makes the hand strongest while keeping a card outside it
    /// ([`threshold::named_trump`]).
    fn name_trump(&self, view: &BidView, _rng: &mut SimRng) -> Suit {
        threshold::named_trump(view.hand())
    }

    /// Whether to take the spare hand instead of calling (Sir Garnet; only asked when the seat
    /// may take it). The default never takes it.
    fn take_spare(&self, _view: &BidView, _rng: &mut SimRng) -> bool {
        false
    }

    /// Which five of `cards` (the seat's hand and the spare hand it took) to keep. The default
    /// keeps the five with the highest trick-taking strength ([`threshold::best_five`]).
    fn keep(&self, _view: &BidView, cards: CardSet, _rng: &mut SimRng) -> CardSet {
        threshold::best_five(cards)
    }

    /// The call for the seat in `view`; it must be legal ([`BidView::is_legal`]). The runner only
    /// asks when the seat has at least one legal bid.
    fn call(&self, view: &BidView, rng: &mut SimRng) -> Call;
}

/// Decides which card a seat plays. (`Any`: see [`BidPolicy`].)
pub trait PlayPolicy: Send + Sync + Any {
    /// The card for the seat in `view`; it must be in [`PlayView::legal`]. The runner does not
    /// ask for a seat's last card.
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card;
}

/// The bid policy names, for messages.
pub const BID_POLICIES: &[&str] = &["pass", "threshold", "always", "lookahead", "table"];
/// The play policy names, for messages.
pub const PLAY_POLICIES: &[&str] = &["random", "heuristic", "pimc", "ismcts", "dd"];

/// Builds a bid policy from its spec for `profile`.
pub fn bid_policy(text: &str, profile: &Profile) -> Result<Box<dyn BidPolicy>, SpecError> {
    let spec: Spec = text.parse()?;
    Ok(match spec.name.as_str() {
        "pass" => {
            spec.check_keys(&[])?;
            Box::new(pass::Pass)
        }
        "threshold" => Box::new(threshold::Threshold::from_spec(&spec, profile)?),
        "always" => Box::new(always::Always::from_spec(&spec, profile)?),
        "lookahead" => Box::new(lookahead::Lookahead::from_spec(&spec, profile)?),
        "table" => Box::new(table::TableBids::from_spec(&spec, profile)?),
        _ => {
            return Err(SpecError::UnknownName {
                kind: "bid",
                name: spec.name,
                known: BID_POLICIES.join(", "),
            });
        }
    })
}

/// Builds a play policy from its spec for `profile`.
pub fn play_policy(text: &str, _profile: &Profile) -> Result<Box<dyn PlayPolicy>, SpecError> {
    let spec: Spec = text.parse()?;
    Ok(match spec.name.as_str() {
        "random" => {
            spec.check_keys(&[])?;
            Box::new(random::RandomPlay)
        }
        "heuristic" => {
            spec.check_keys(&[])?;
            Box::new(heuristic::Heuristic)
        }
        "pimc" => Box::new(pimc::Pimc::from_spec(&spec)?),
        "ismcts" => Box::new(ismcts::Ismcts::from_spec(&spec)?),
        "dd" => {
            spec.check_keys(&[])?;
            Box::new(dd::DoubleDummy)
        }
        _ => {
            return Err(SpecError::UnknownName {
                kind: "play",
                name: spec.name,
                known: PLAY_POLICIES.join(", "),
            });
        }
    })
}
