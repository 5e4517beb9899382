//! The integer tallies of an optimiser phase: per cell, how often the strategy made each call
//! and what each legal call gained over the strategy's call, deal by deal; per seat, the
//! strategy's units.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::deal::{DealValues, MAX_CALLS};
use crate::bots::tuned::CellKey;
use crate::eval::classes::Class;
use crate::eval::rating::RatingTally;
use crate::rules::MAX_PLAYERS;
use crate::sim::{Tally, TallyError};
use crate::stats::mean_se;

/// One legal call of a cell. Stored as `[call, chosen, sum, sum_sq]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallGain(
    /// The call ([`crate::eval::hand::call_index`] numbering).
    pub u8,
    /// Hands at which the strategy made this call.
    pub u64,
    /// The call's units less the strategy's call's, summed.
    pub i64,
    /// Those differences squared, summed.
    pub u64,
);

/// The tally of one cell: hands that reached it and each legal call's gain. Stored as
/// `[hands, [call gains]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellTally(
    /// Hands that reached the cell.
    pub u64,
    /// One entry per legal call, in call order.
    pub Vec<CallGain>,
);

impl CellTally {
    /// Hands that reached the cell.
    pub fn hands(&self) -> u64 {
        self.0
    }

    /// The entry of call `call`, if legal here.
    pub fn call(&self, call: usize) -> Option<&CallGain> {
        self.1.iter().find(|g| g.0 as usize == call)
    }

    /// The mean gain of call `call` over the strategy's call per hand, and its standard error.
    pub fn gain(&self, call: usize) -> Option<(f64, f64)> {
        let g = self.call(call)?;
        mean_se(self.0, g.2, u128::from(g.3))
    }

    /// Adds `other`'s counts (a cell of the same calls before: the same legal calls).
    pub fn add(&mut self, other: &CellTally) {
        self.0 += other.0;
        for theirs in &other.1 {
            match self.1.iter_mut().find(|g| g.0 == theirs.0) {
                Some(ours) => {
                    ours.1 += theirs.1;
                    ours.2 += theirs.2;
                    ours.3 += theirs.3;
                }
                None => {
                    self.1.push(*theirs);
                    self.1.sort_by_key(|g| g.0);
                }
            }
        }
    }
}

/// A cell of the tally: which half of the deals (0, or 1 for the second half of an
/// exploitability phase), seat, calls before, class. Stored as an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CellId(pub u8, pub u8, pub u64, pub u64);

impl CellId {
    /// The half and the cell.
    pub fn new(half: u8, key: CellKey) -> CellId {
        CellId(half, key.seat, key.history, key.class.0)
    }

    /// The half of the deals.
    pub fn half(self) -> u8 {
        self.0
    }

    /// The cell.
    pub fn key(self) -> CellKey {
        CellKey {
            seat: self.1,
            history: self.2,
            class: Class(self.3),
        }
    }
}

/// The tallies of an optimiser phase.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptimizeTally {
    /// Deals valued.
    pub deals: u64,
    /// Per seat, the strategy's units summed and their squares summed.
    pub seats: Vec<(i64, u64)>,
    /// Per cell; stored as a list of `[cell, tally]` entries.
    #[serde(with = "crate::analysis::bid_table::entries")]
    pub cells: BTreeMap<CellId, CellTally>,
    /// The Misères played to fit a rating (the rating phase only; left out when empty).
    #[serde(default, skip_serializing_if = "RatingTally::is_empty")]
    pub rating: RatingTally,
}

impl OptimizeTally {
    /// Adds one deal's values, its turns under `half`.
    pub fn add_deal(&mut self, values: &DealValues, players: usize, half: u8) {
        self.deals += 1;
        self.seats.resize(self.seats.len().max(players), (0, 0));
        for (seat, &u) in values.units.iter().enumerate().take(players) {
            self.seats[seat].0 += u;
            self.seats[seat].1 += (u * u) as u64;
        }
        for turn in &values.turns {
            let cell = self.cells.entry(CellId::new(half, turn.key)).or_default();
            cell.0 += 1;
            if cell.1.is_empty() {
                cell.1 = (0..MAX_CALLS)
                    .filter(|&c| turn.legal >> c & 1 == 1)
                    .map(|c| CallGain(c as u8, 0, 0, 0))
                    .collect();
            }
            let base = turn.units[turn.current];
            for gain in &mut cell.1 {
                let c = gain.0 as usize;
                let d = turn.units[c] - base;
                gain.1 += u64::from(c == turn.current);
                gain.2 += d;
                gain.3 += (d * d) as u64;
            }
        }
    }

    /// Seat `seat`'s mean units per deal under the strategy and its standard error.
    pub fn seat_value(&self, seat: usize) -> Option<(f64, f64)> {
        let &(sum, sq) = self.seats.get(seat)?;
        mean_se(self.deals, sum, u128::from(sq))
    }
}

impl Tally for OptimizeTally {
    fn merge(&mut self, other: OptimizeTally) {
        self.deals += other.deals;
        self.seats
            .resize(self.seats.len().max(other.seats.len()), (0, 0));
        for (ours, theirs) in self.seats.iter_mut().zip(&other.seats) {
            ours.0 += theirs.0;
            ours.1 += theirs.1;
        }
        self.rating.merge(&other.rating);
        for (id, theirs) in other.cells {
            match self.cells.get_mut(&id) {
                Some(ours) => ours.add(&theirs),
                None => {
                    self.cells.insert(id, theirs);
                }
            }
        }
    }

    fn units(&self) -> Option<u64> {
        Some(self.deals)
    }

    fn check(&self, bids: usize) -> Result<(), TallyError> {
        if !self.rating.is_consistent()
            || self.rating.hands > self.deals.saturating_mul(MAX_PLAYERS as u64)
        {
            return Err(TallyError::ClassCounts);
        }
        for cell in self.cells.values() {
            let calls_in_order = cell.1.windows(2).all(|w| w[0].0 < w[1].0);
            let chosen: u64 = cell.1.iter().map(|g| g.1).sum();
            let known = cell.1.iter().all(|g| g.0 as usize <= bids);
            if !calls_in_order || !known || chosen != cell.0 || cell.0 > self.deals {
                return Err(TallyError::ClassCounts);
            }
        }
        Ok(())
    }
}
