//! Replaying a real game: its hands, calls and card sequence instead of policies, so that a
//! table can score a game it played.

use thiserror::Error;

use crate::cards::{Card, CardError, CardSet, parse_cards};
use crate::game::{Call, DealState, IllegalCall, IllegalPlay, Phase};
use crate::rules::Profile;

/// A game as it was played.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The dealer's seat.
    pub dealer: usize,
    /// The hands as dealt, seat 0 first.
    pub hands: Vec<CardSet>,
    /// Every seat's call, in speaking order from the dealer's left.
    pub calls: Vec<Call>,
    /// Every card played, in order.
    pub plays: Vec<Card>,
}

/// Why a replay was refused.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// A call that is not `pass` or a bid of the profile.
    #[error("'{call}' is not a call of profile {profile}: use pass or one of {names}")]
    UnknownCall {
        /// The call as written.
        call: String,
        /// The profile.
        profile: String,
        /// Its bid names.
        names: String,
    },
    /// Not one call per seat.
    #[error("--calls needs one call per seat ({expected}), got {got}")]
    CallCount {
        /// Seats.
        expected: usize,
        /// Calls given.
        got: usize,
    },
    /// An illegal call.
    #[error("call {index} ('{call}' by seat {seat}) is illegal: {reason}")]
    IllegalCall {
        /// 1-based position in the auction.
        index: usize,
        /// The seat.
        seat: usize,
        /// The call.
        call: String,
        /// Why.
        reason: IllegalCall,
    },
    /// An illegal card.
    #[error("card {index} ({card} by seat {seat}) is illegal: {reason}")]
    IllegalPlay {
        /// 1-based position in the card sequence.
        index: usize,
        /// The seat.
        seat: usize,
        /// The card.
        card: Card,
        /// Why.
        reason: IllegalPlay,
    },
    /// The card sequence stops before the deal is over.
    #[error(
        "the card sequence ends after {played} cards but the deal is not over (seat {seat} is to play)"
    )]
    TooFewCards {
        /// Cards given.
        played: usize,
        /// The seat to play next.
        seat: usize,
    },
    /// Cards after the deal is over.
    #[error("the deal is over after {used} cards but {given} were given")]
    TooManyCards {
        /// Cards the deal took.
        used: usize,
        /// Cards given.
        given: usize,
    },
    /// A card that cannot be read.
    #[error(transparent)]
    Card(#[from] CardError),
    /// The profile needs more than hands, calls and cards to replay.
    #[error(
        "replaying a game of profile {profile} is not supported: its {what} cannot be given on the command line yet"
    )]
    Unsupported {
        /// The profile.
        profile: String,
        /// What is missing.
        what: &'static str,
    },
}

/// Parses calls separated by commas or spaces (`pass,three,pass,pass`).
pub fn parse_calls(text: &str, profile: &Profile) -> Result<Vec<Call>, ReplayError> {
    text.split([',', ' '])
        .filter(|t| !t.is_empty())
        .map(|word| {
            Call::parse(word, profile).ok_or_else(|| ReplayError::UnknownCall {
                call: word.to_string(),
                profile: profile.name().to_string(),
                names: profile.bid_names(),
            })
        })
        .collect()
}

/// Parses the card sequence of a replay (duplicates are left to the replay to refuse).
pub fn parse_plays(text: &str) -> Result<Vec<Card>, ReplayError> {
    Ok(parse_cards(text)?)
}

/// Replays `game` under `profile` through the checked engine, returning the finished deal.
pub fn replay<'p>(profile: &'p Profile, game: &Replay) -> Result<DealState<'p>, ReplayError> {
    let players = game.hands.len();
    if game.calls.len() != players {
        return Err(ReplayError::CallCount {
            expected: players,
            got: game.calls.len(),
        });
    }
    let missing = if profile.has_floater() {
        Some("floater, peeks and floater exchange")
    } else if profile.purchase_stake().is_some() {
        Some("purchases")
    } else if profile.spare_hand().is_some() {
        Some("spare hand")
    } else {
        None
    };
    if let Some(what) = missing {
        return Err(ReplayError::Unsupported {
            profile: profile.name().to_string(),
            what,
        });
    }
    let mut dealt = crate::game::Dealt {
        hands: [CardSet::EMPTY; crate::rules::MAX_PLAYERS],
        stock: profile.pack(players),
        spare: CardSet::EMPTY,
        stock_order: crate::game::StockOrder::EMPTY,
        floater: None,
    };
    for (seat, &hand) in game.hands.iter().enumerate() {
        dealt.hands[seat] = hand;
        dealt.stock -= hand;
    }
    // From the dealt hands, so that any ante the profile charges is paid.
    let mut state = DealState::from_dealt(profile, game.dealer, &dealt, players);
    for (i, &call) in game.calls.iter().enumerate() {
        let seat = state.to_act().expect("a seat to call");
        state
            .call(call)
            .map_err(|reason| ReplayError::IllegalCall {
                index: i + 1,
                seat,
                call: call.name(profile).to_string(),
                reason,
            })?;
    }
    for (i, &card) in game.plays.iter().enumerate() {
        let Some(seat) = state.to_act() else {
            return Err(ReplayError::TooManyCards {
                used: i,
                given: game.plays.len(),
            });
        };
        state
            .play_replayed(card)
            .map_err(|reason| ReplayError::IllegalPlay {
                index: i + 1,
                seat,
                card,
                reason,
            })?;
    }
    if state.phase() != Phase::Finished {
        return Err(ReplayError::TooFewCards {
            played: game.plays.len(),
            seat: state.to_act().expect("a seat to play"),
        });
    }
    Ok(state)
}
