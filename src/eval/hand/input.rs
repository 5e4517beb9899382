//! Checking the inputs of `napsim hand`: the hand and the earlier calls.

use crate::cards::{CardSet, parse_hand};
use crate::game::{Call, DealState};
use crate::rules::{HAND_SIZE, MAX_PLAYERS, Profile};

/// Deals drawn before the run to check that conditioning calls can be sampled.
pub const PILOT_DRAWS: u64 = 20_000;

/// Of those, how many must be kept (at least 1 in 10,000).
pub const PILOT_MIN_KEPT: u64 = 2;

/// Parses a hand of five cards, all in the profile's pack for `players`.
pub fn parse_hand_for(text: &str, profile: &Profile, players: usize) -> Result<CardSet, String> {
    let hand = parse_hand(text, HAND_SIZE).map_err(|e| e.to_string())?;
    let outside = hand - profile.pack(players);
    if let Some(card) = outside.first() {
        return Err(format!(
            "{card} is not in the pack ({})",
            profile.pack_description(players)
        ));
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
) -> Result<Vec<Call>, String> {
    let words: Vec<&str> = if text.trim().is_empty() {
        Vec::new()
    } else {
        text.split(',').map(str::trim).collect()
    };
    if let Some(i) = words.iter().position(|w| w.is_empty()) {
        return Err(format!(
            "--after '{text}': call {} is empty; write the calls separated by single commas \
             (pass,three)",
            i + 1
        ));
    }
    if words.len() != seat {
        return Err(format!(
            "--after gives {} call{} but seat {seat} has {seat} earlier seat{}: give exactly \
             {seat} (pass or a bid: {})",
            words.len(),
            if words.len() == 1 { "" } else { "s" },
            if seat == 1 { "" } else { "s" },
            profile.bid_names()
        ));
    }
    let hands = [CardSet::EMPTY; MAX_PLAYERS];
    let mut state = DealState::new(profile, players - 1, &hands[..players]);
    let mut calls = Vec::with_capacity(seat);
    for (i, word) in words.iter().enumerate() {
        let call = match Call::parse(word, profile) {
            Some(Call::TakeSpare) | None => {
                return Err(format!(
                    "--after: '{word}' is not a call of profile {}: use pass or one of {}",
                    profile.name(),
                    profile.bid_names()
                ));
            }
            Some(call) => call,
        };
        state
            .call(call)
            .map_err(|e| format!("--after: '{word}' at seat {i} is impossible: {e}"))?;
        calls.push(call);
    }
    Ok(calls)
}
