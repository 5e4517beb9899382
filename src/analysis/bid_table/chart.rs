//! The data of `napsim bid-table --plot`: one seat's P(make) per bid, by trump length and by
//! which of the trump ace, king and queen the hand holds.
//!
//! The groups pool the tallies of every class with that trump length and those top honours,
//! rare classes included, so the chart does not depend on `--min-hands` for its classes (only
//! groups with fewer hands than that are not drawn) and reads the same under `--by classes` and
//! `--by exact`. Counts stay integers; intervals are computed from them when drawing.

use std::collections::BTreeMap;

use super::{BidTableConfig, BidTableTally};

/// The hands of one trump length and top-honour pattern at the charted seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartGroup {
    /// Trump length (the longest suit, ties to the higher cards).
    pub length: u8,
    /// Which of the trump A, K, Q are held: [`crate::eval::classes::TOP_ACE`] and friends.
    pub top: u8,
    /// Hands in the group.
    pub hands: u64,
    /// Per bid (ladder order): hands that made it.
    pub made: Vec<u64>,
}

/// What `--plot` draws: one seat of one table, every bid, every group (those with fewer than
/// `min_hands` hands are counted in their panel's total but not drawn).
#[derive(Clone, Debug, PartialEq)]
pub struct BidChart {
    /// The profile's name.
    pub profile: String,
    /// Table size.
    pub players: usize,
    /// The seat charted (0 = eldest).
    pub seat: usize,
    /// Deals played.
    pub deals: u64,
    /// The play policy spec.
    pub play: String,
    /// Groups with fewer hands are not drawn.
    pub min_hands: u64,
    /// The bids' labels, in ladder order.
    pub bids: Vec<String>,
    /// The groups with hands, by trump length then top honours.
    pub groups: Vec<ChartGroup>,
}

/// Pools the tally of `seat` by trump length and top trump honours.
pub fn chart(
    tally: &BidTableTally,
    config: &BidTableConfig,
    seat: usize,
    play: &str,
    min_hands: u64,
) -> BidChart {
    let profile = config.profile;
    let bids = profile.bids().len();
    let mut groups: BTreeMap<(u8, u8), ChartGroup> = BTreeMap::new();
    for ((s, class), t) in &tally.classes {
        if *s != seat {
            continue;
        }
        let (length, top) = config.scheme.trump_length_and_top(*class);
        let group = groups.entry((length, top)).or_insert_with(|| ChartGroup {
            length,
            top,
            hands: 0,
            made: vec![0; bids],
        });
        group.hands += t.hands;
        for (sum, b) in group.made.iter_mut().zip(&t.bids) {
            *sum += b.made;
        }
    }
    BidChart {
        profile: profile.name().to_string(),
        players: config.players,
        seat,
        deals: config.deals,
        play: play.to_string(),
        min_hands,
        bids: profile
            .bids()
            .iter()
            .map(|b| b.label().to_string())
            .collect(),
        groups: groups.into_values().filter(|g| g.hands > 0).collect(),
    }
}
