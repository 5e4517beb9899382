//! When an adaptive evaluation may stop (`napsim hand --precision`).
//!
//! The rule is checked only after whole multiples of [`CHECK_EVERY`] worlds (and at the cap),
//! on the tally of the worlds so far. The worlds come in blocks with their own streams, so
//! that tally is exactly the tally of a run of that many worlds: an adaptive run that stops
//! after n worlds reports what `--worlds n` reports, whatever the thread count.

use serde::{Deserialize, Serialize};

use super::{BLOCK_SIZE, HandQuery, HandTally};
use crate::rules::BidId;
use crate::stats::{Z95, mean_se, wilson95};

/// Worlds between two checks of an adaptive run: it stops only after a multiple of this, or at
/// its cap. A whole number of blocks; part of the determinism contract.
pub const CHECK_EVERY: u64 = 512;

const _: () = assert!(CHECK_EVERY.is_multiple_of(BLOCK_SIZE));

/// Standard errors by which the best call must lead every other callable bid, and passing, to
/// count as settled: Pocock's boundary for eight looks at 5% (two-sided), so that over the
/// checks of a run of up to 4,096 worlds a call that is not ahead is settled about as rarely
/// as one test at 95% would allow.
pub const Z_SETTLED: f64 = 2.53;

/// An adaptive run: at most `max_worlds` worlds, stopping at the first check at which every
/// bid's P(make) is known within `points` or the best call is settled.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StopRule {
    /// The half-width, in percentage points, that every bid's 95% P(make) interval must reach.
    pub points: f64,
    /// Worlds at most.
    pub max_worlds: u64,
}

/// Why an adaptive run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every bid's 95% P(make) interval is within the points asked.
    Precise,
    /// The best call (a bid, or passing) leads every other callable bid and passing by more
    /// than [`Z_SETTLED`] standard errors, compared on the same worlds.
    Settled,
    /// Neither, at the most worlds allowed.
    MaxWorlds,
}

impl StopReason {
    /// Its name in JSON (`precise`, `settled`, `max_worlds`).
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Precise => "precise",
            StopReason::Settled => "settled",
            StopReason::MaxWorlds => "max_worlds",
        }
    }
}

impl StopRule {
    /// The worlds after which every P(make) interval is within `points` whatever the makes
    /// (the widest Wilson interval, at P(make) = 1/2, has half-width z / (2 sqrt(n + z^2))),
    /// rounded up to a check: the cap of a run given a precision only.
    pub fn worlds_for(points: f64) -> u64 {
        let half = points / 100.0;
        let needed = (Z95 / (2.0 * half)).powi(2) - Z95 * Z95;
        let checks = (needed.max(1.0) / CHECK_EVERY as f64).ceil();
        (checks as u64).max(1).saturating_mul(CHECK_EVERY)
    }

    /// Why the run may stop with `tally` (the worlds so far), if it may: precise first, then
    /// settled, then the cap.
    pub fn reason(&self, query: &HandQuery, tally: &HandTally) -> Option<StopReason> {
        if tally.worlds == 0 {
            return None;
        }
        if precise(tally, self.points) {
            Some(StopReason::Precise)
        } else if settled(query, tally) {
            Some(StopReason::Settled)
        } else if tally.worlds >= self.max_worlds {
            Some(StopReason::MaxWorlds)
        } else {
            None
        }
    }
}

/// Whether every bid's 95% Wilson interval for P(make) has a half-width of at most `points`.
fn precise(tally: &HandTally, points: f64) -> bool {
    tally.bids.iter().all(|b| {
        wilson95(b.made, tally.worlds)
            .is_some_and(|(low, high)| (high - low) / 2.0 <= points / 100.0)
    })
}

/// Whether the recommendation is settled: the callable bid with the highest expected units
/// (ties to the lower bid, as the summary chooses) leads passing and, world by world, every
/// other callable bid by more than [`Z_SETTLED`] standard errors; or, when no callable bid
/// is positive, every one is below zero by as much. Nothing callable: passing, settled.
fn settled(query: &HandQuery, tally: &HandTally) -> bool {
    let ev = |id: BidId| {
        let b = &tally.bids[id.index()];
        mean_se(tally.worlds, b.units, b.units_sq).unwrap_or((0.0, 0.0))
    };
    let callable: Vec<BidId> = query
        .profile
        .bid_ids()
        .filter(|&id| query.callable(id))
        .collect();
    let best = callable.iter().copied().fold(None, |best, id| match best {
        Some(b) if ev(b).0 >= ev(id).0 => Some(b),
        _ => Some(id),
    });
    let Some(best) = best else {
        return true;
    };
    let ahead = |(mean, se): (f64, f64)| mean > Z_SETTLED * se;
    if ev(best).0 <= 0.0 {
        return callable.iter().all(|&id| {
            let (mean, se) = ev(id);
            ahead((-mean, se))
        });
    }
    ahead(ev(best))
        && callable
            .iter()
            .filter(|&&id| id != best)
            .all(|&id| tally.paired(best, id).is_some_and(ahead))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_of_a_precision_reaches_it_at_one_half() {
        for points in [0.5, 1.0, 1.55, 3.0, 10.0] {
            let n = StopRule::worlds_for(points);
            assert_eq!(n % CHECK_EVERY, 0);
            let (low, high) = wilson95(n / 2, n).unwrap();
            assert!((high - low) / 2.0 <= points / 100.0, "{points}: {n}");
            let fewer = n - CHECK_EVERY;
            if fewer > 0 {
                let (low, high) = wilson95(fewer / 2, fewer).unwrap();
                assert!((high - low) / 2.0 > points / 100.0, "{points}: {fewer}");
            }
        }
        assert_eq!(StopRule::worlds_for(1.55), 4096);
        assert_eq!(StopRule::worlds_for(50.0), CHECK_EVERY);
    }
}
