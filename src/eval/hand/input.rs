//! Checking the inputs of `napsim hand`: the hand and the earlier calls.

use thiserror::Error;

use crate::cards::{Card, CardError, CardSet, parse_hand};
use crate::game::{Call, DealState};
use crate::rules::{HAND_SIZE, MAX_PLAYERS, Profile};

/// Deals drawn before the run to check that conditioning calls can be sampled.
pub const PILOT_DRAWS: u64 = 20_000;

/// Of those, how many must be kept (at least 1 in 10,000).
pub const PILOT_MIN_KEPT: u64 = 2;

/// Why the hand or the earlier calls of `napsim hand` were refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HandInputError {
    /// The hand cannot be read.
    #[error(transparent)]
    Cards(#[from] CardError),
    /// A card of the hand outside the profile's pack.
    #[error("{card} is not in the pack ({pack})")]
    OutsidePack {
        /// The card.
        card: Card,
        /// The pack, described.
        pack: String,
    },
    /// An empty call between commas in `--after`.
    #[error(
        "`after` '{text}': call {index} is empty; write the calls separated by single commas \
         (pass,three)"
    )]
    EmptyCall {
        /// `--after` as written.
        text: String,
        /// The empty call's position, from 1.
        index: usize,
    },
    /// Not one call per earlier seat.
    #[error(
        "`after` gives {given} call{} but seat {seat} has {seat} earlier seat{}: give exactly \
         {seat} (pass or a bid: {bids})",
        plural(.given),
        plural(.seat)
    )]
    CallCount {
        /// Calls given.
        given: usize,
        /// The hand's seat (as many earlier seats).
        seat: usize,
        /// The profile's bid names.
        bids: String,
    },
    /// A word that is not `pass` or a bid of the profile.
    #[error("`after`: '{word}' is not a call of profile {profile}: use pass or one of {bids}")]
    UnknownCall {
        /// The word.
        word: String,
        /// The profile's name.
        profile: String,
        /// Its bid names.
        bids: String,
    },
    /// A call that is illegal where it is made.
    #[error("`after`: '{word}' at seat {seat} is impossible: {reason}")]
    Impossible {
        /// The call as written.
        word: String,
        /// The seat making it.
        seat: usize,
        /// Why it is illegal, in the profile's words.
        reason: String,
    },
}

/// `s` unless `n` is one.
fn plural(n: &usize) -> &'static str {
    if *n == 1 { "" } else { "s" }
}

/// Parses a hand of five cards, all in the profile's pack for `players`.
pub fn parse_hand_for(
    text: &str,
    profile: &Profile,
    players: usize,
) -> Result<CardSet, HandInputError> {
    let hand = parse_hand(text, HAND_SIZE)?;
    let outside = hand - profile.pack(players);
    if let Some(card) = outside.first() {
        return Err(HandInputError::OutsidePack {
            card,
            pack: profile.pack_description(players),
        });
    }
    Ok(hand)
}

/// Parses `--after`: exactly `seat` calls (`pass` or a bid of the profile), separated by
/// commas, that are legal in turn.
pub fn parse_after(
    text: &str,
    profile: &Profile,
    players: usize,
    seat: usize,
) -> Result<Vec<Call>, HandInputError> {
    let words: Vec<&str> = if text.trim().is_empty() {
        Vec::new()
    } else {
        text.split(',').map(str::trim).collect()
    };
    if let Some(i) = words.iter().position(|w| w.is_empty()) {
        return Err(HandInputError::EmptyCall {
            text: text.to_string(),
            index: i + 1,
        });
    }
    if words.len() != seat {
        return Err(HandInputError::CallCount {
            given: words.len(),
            seat,
            bids: profile.bid_names(),
        });
    }
    let hands = [CardSet::EMPTY; MAX_PLAYERS];
    let mut state = DealState::new(profile, players - 1, &hands[..players]);
    let mut calls = Vec::with_capacity(seat);
    for (i, word) in words.iter().enumerate() {
        let call = match Call::parse(word, profile) {
            Some(Call::TakeSpare) | None => {
                return Err(HandInputError::UnknownCall {
                    word: word.to_string(),
                    profile: profile.name().to_string(),
                    bids: profile.bid_names(),
                });
            }
            Some(call) => call,
        };
        state
            .call(call)
            .map_err(|reason| HandInputError::Impossible {
                word: word.to_string(),
                seat: i,
                reason: reason.explain(profile),
            })?;
        calls.push(call);
    }
    Ok(calls)
}
