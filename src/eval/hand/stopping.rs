//! When an adaptive evaluation may stop (`napsim hand --precision`), and which bids it may stop
//! playing before then.
//!
//! The rule is checked only after whole multiples of [`CHECK_EVERY`] worlds (and at the cap),
//! and at six players and more also after [`EARLY_CHECKS`] worlds, on the tally of the worlds
//! so far. At a check where the run goes on, the bids that trail the best call by the settling
//! lead are dropped ([`StopRule::drop_trailing`]): later worlds leave their counts as they
//! were. The worlds come in blocks with their own streams, so a bid's counts are exactly those
//! of a run of the worlds it was played in: an adaptive run reports, bid by bid, what
//! `--worlds m` reports for that bid's m, whatever the thread count.

use serde::{Deserialize, Serialize};

use super::{AuctionTally, BLOCK_SIZE, HandQuery, HandTally, PASS_INDEX, Skip};
use crate::rules::BidId;
use crate::stats::{Z95, mean_se, wilson95};

/// Worlds between two checks of an adaptive run: it stops only after a multiple of this, at
/// its cap, or (six players and more) at an early check. A whole number of blocks; part of the
/// determinism contract.
pub const CHECK_EVERY: u64 = 512;

const _: () = assert!(CHECK_EVERY.is_multiple_of(BLOCK_SIZE));

/// Standard errors by which the best call must lead every other callable bid, and passing, to
/// count as settled: Pocock's boundary for eight looks at 5% (two-sided), so that over the
/// checks of a run of up to 4,096 worlds a call that is not ahead is settled about as rarely
/// as one test at 95% would allow.
pub const Z_SETTLED: f64 = 2.53;

/// The checks before the first multiple of [`CHECK_EVERY`] at tables of [`EARLY_PLAYERS`] and
/// more, where a world costs many times as much as at four players (and a clear hand would
/// otherwise take seconds to reach its first check). Whole numbers of blocks, each dividing
/// the next check.
pub const EARLY_CHECKS: [u64; 2] = [128, 256];

/// The table size from which an adaptive run also checks at [`EARLY_CHECKS`].
pub const EARLY_PLAYERS: usize = 6;

/// Standard errors by which the best call must lead at an early check: a Haybittle-Peto
/// boundary, nominal p = 0.001 two-sided (0.05% one-sided) a comparison, so that the two
/// early looks leave the later looks' [`Z_SETTLED`] close to its 5%. The Wilson intervals of
/// the precise rule are honest at any count, so it applies at the early checks unchanged.
pub const Z_EARLY: f64 = 3.29;

const _: () = assert!(
    EARLY_CHECKS[0].is_multiple_of(BLOCK_SIZE)
        && EARLY_CHECKS[1].is_multiple_of(EARLY_CHECKS[0])
        && CHECK_EVERY.is_multiple_of(EARLY_CHECKS[1])
        && Z_EARLY > Z_SETTLED
);

/// An adaptive run: at most `max_worlds` worlds, stopping at the first check at which every
/// bid's P(make) is known within `points` or the best call is settled.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StopRule {
    /// The half-width, in percentage points, that every bid's 95% P(make) interval must reach.
    pub points: f64,
    /// Worlds at most.
    pub max_worlds: u64,
    /// Whether the rule is also asked at [`EARLY_CHECKS`] (tables of [`EARLY_PLAYERS`] and more).
    #[serde(default)]
    pub early: bool,
}

/// Why an adaptive run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every bid's 95% P(make) interval is within the points asked.
    Precise,
    /// The best call (a bid, or passing) leads every other callable bid and passing by more
    /// than [`Z_SETTLED`] standard errors ([`Z_EARLY`] at an early check), compared on the
    /// same worlds.
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

    /// The rule for `players` at the table: early checks from [`EARLY_PLAYERS`] on.
    pub fn new(points: f64, max_worlds: u64, players: usize) -> StopRule {
        StopRule {
            points,
            max_worlds,
            early: players >= EARLY_PLAYERS,
        }
    }

    /// Worlds between the checks the runner makes: every check is a multiple of it (the rule
    /// itself then passes over those that are not checks, see [`StopRule::is_check`]).
    pub fn check_step(&self) -> u64 {
        if self.early {
            EARLY_CHECKS[0]
        } else {
            CHECK_EVERY
        }
    }

    /// Whether the rule is asked after `worlds` worlds: at a multiple of [`CHECK_EVERY`], at
    /// the cap, and with early checks at [`EARLY_CHECKS`].
    pub fn is_check(&self, worlds: u64) -> bool {
        worlds > 0
            && (worlds.is_multiple_of(CHECK_EVERY)
                || worlds == self.max_worlds
                || (self.early && EARLY_CHECKS.contains(&worlds)))
    }

    /// The lead, in standard errors, that settles the recommendation after `worlds` worlds:
    /// with early checks, [`Z_EARLY`] before the first multiple of [`CHECK_EVERY`] (a cap
    /// below it included); else [`Z_SETTLED`].
    pub fn z_settled(&self, worlds: u64) -> f64 {
        if self.early && worlds < CHECK_EVERY {
            Z_EARLY
        } else {
            Z_SETTLED
        }
    }

    /// Why the run may stop with `tally` (the worlds so far), if it is a check and the run may
    /// stop there: precise first, then settled, then the cap.
    pub fn reason(&self, query: &HandQuery, tally: &HandTally) -> Option<StopReason> {
        if !self.is_check(tally.worlds) {
            return None;
        }
        let z = self.z_settled(tally.worlds);
        let settled = match CallStanding::new(query, tally) {
            Some(calls) => calls.settled(z),
            None => Standing::new(query, tally).settled(z),
        };
        if precise(tally, self.points) {
            Some(StopReason::Precise)
        } else if settled {
            Some(StopReason::Settled)
        } else if tally.worlds >= self.max_worlds {
            Some(StopReason::MaxWorlds)
        } else {
            None
        }
    }

    /// At a check where the run goes on, drops from `tally` the bids that trail the best call
    /// (a bid, or passing) by more than the settling lead ([`StopRule::z_settled`]), callable
    /// or not: the rest of the run need not play them, as it would stop once every other call
    /// trailed so. Their numbers stay those of the worlds so far, they are never recommended,
    /// and the checks after this one leave them out. Asked again at the same check it drops
    /// nothing more. In the auction view the calls are compared by their auction values
    /// (passing may be dropped too, and a bid's call drops the bid), the bids the hand may
    /// not call by their declarer values as before. Returns what is dropped so far.
    pub fn drop_trailing(&self, query: &HandQuery, tally: &mut HandTally) -> Skip {
        if self.is_check(tally.worlds) && self.reason(query, tally).is_none() {
            let z = self.z_settled(tally.worlds);
            let calls = CallStanding::new(query, tally);
            let (drop_pass, trailing_calls) = match &calls {
                Some(calls) => (
                    !tally.is_call_dropped(PASS_INDEX) && calls.trails(PASS_INDEX, z),
                    calls.trailing_bids(z),
                ),
                None => (false, Vec::new()),
            };
            let standing = Standing::new(query, tally);
            let mut trailing: Vec<usize> = query
                .profile
                .bid_ids()
                .filter(|&id| !tally.is_dropped(id.index()) && standing.trails(id, z))
                // In the auction view a callable bid goes by its call.
                .filter(|&id| calls.is_none() || !query.callable(id))
                .map(|id| id.index())
                .collect();
            trailing.extend(trailing_calls);
            for i in trailing {
                tally.drop_bid(i);
            }
            if let Some(auction) = tally.auction.as_mut().filter(|_| drop_pass) {
                auction.pass_dropped = true;
            }
        }
        tally.skipped()
    }
}

/// Whether every bid still played (not [`HandTally::left_out`]) has a 95% Wilson interval
/// for P(make) of half-width at most `points`.
fn precise(tally: &HandTally, points: f64) -> bool {
    tally
        .bids
        .iter()
        .enumerate()
        .filter(|&(i, _)| !tally.left_out(i))
        .all(|(i, b)| {
            wilson95(b.made, tally.bid_worlds(i))
                .is_some_and(|(low, high)| (high - low) / 2.0 <= points / 100.0)
        })
}

/// The comparisons of a check: the bids still played, and the best call among them.
struct Standing<'a> {
    tally: &'a HandTally,
    /// The callable bids still played.
    callable: Vec<BidId>,
    /// The callable bid with the highest expected units (ties to the lower bid, as the summary
    /// chooses) if that is positive; `None` (passing) otherwise.
    best: Option<BidId>,
}

impl<'a> Standing<'a> {
    fn new(query: &HandQuery, tally: &'a HandTally) -> Standing<'a> {
        let mut standing = Standing {
            tally,
            callable: query
                .profile
                .bid_ids()
                .filter(|&id| !tally.left_out(id.index()) && query.callable(id))
                .collect(),
            best: None,
        };
        standing.best = standing
            .callable
            .iter()
            .copied()
            .fold(None, |best, id| match best {
                Some(b) if standing.ev(b).0 >= standing.ev(id).0 => Some(b),
                _ => Some(id),
            })
            .filter(|&b| standing.ev(b).0 > 0.0);
        standing
    }

    /// A bid's expected units and their standard error.
    fn ev(&self, id: BidId) -> (f64, f64) {
        let b = &self.tally.bids[id.index()];
        mean_se(self.tally.bid_worlds(id.index()), b.units, b.units_sq).unwrap_or((0.0, 0.0))
    }

    /// Whether the best call leads `id` by more than `z` standard errors: world by world when
    /// the best call is a bid, else (passing, worth 0) by `id`'s own.
    fn trails(&self, id: BidId, z: f64) -> bool {
        let ahead = |(mean, se): (f64, f64)| mean > z * se;
        match self.best {
            Some(best) => best != id && self.tally.paired(best, id).is_some_and(ahead),
            None => {
                let (mean, se) = self.ev(id);
                ahead((-mean, se))
            }
        }
    }

    /// Whether the recommendation is settled: the best call leads passing (when it is a bid)
    /// and every other callable bid still played by more than `z` standard errors. Nothing
    /// callable: passing, settled.
    fn settled(&self, z: f64) -> bool {
        let leads_passing = self.best.is_none_or(|best| {
            let (mean, se) = self.ev(best);
            mean > z * se
        });
        leads_passing
            && self
                .callable
                .iter()
                .filter(|&&id| Some(id) != self.best)
                .all(|&id| self.trails(id, z))
    }
}

/// The comparisons of a check in the auction view: the calls still valued (passing and the
/// callable bids), and the best of them by the hand's units in the whole auction.
struct CallStanding<'a> {
    auction: &'a AuctionTally,
    /// The calls still valued, by index among the calls.
    calls: Vec<usize>,
    /// The call with the highest mean units (ties to the earlier call, passing first).
    best: usize,
}

impl<'a> CallStanding<'a> {
    /// The standing of `tally`'s calls; `None` when it does not value them.
    fn new(query: &HandQuery, tally: &'a HandTally) -> Option<CallStanding<'a>> {
        let auction = tally.auction.as_ref()?;
        let callable = query.callable_calls();
        let calls: Vec<usize> = (0..auction.calls.len())
            .filter(|&c| callable >> c & 1 == 1 && !tally.call_left_out(c))
            .collect();
        let best = auction.best(calls.iter().copied()).unwrap_or(PASS_INDEX);
        Some(CallStanding {
            auction,
            calls,
            best,
        })
    }

    /// Whether the best call leads call `c` by more than `z` standard errors, world by world.
    fn trails(&self, c: usize, z: f64) -> bool {
        c != self.best
            && self
                .auction
                .paired(self.best, c)
                .is_some_and(|(mean, se)| mean > z * se)
    }

    /// The bids (by index among the bids) whose calls trail the best call by `z`.
    fn trailing_bids(&self, z: f64) -> Vec<usize> {
        self.calls
            .iter()
            .filter(|&&c| c != PASS_INDEX && self.trails(c, z))
            // Call index c is bid c - 1 (passing comes first).
            .map(|&c| c - 1)
            .collect()
    }

    /// Whether the best call leads every other call still valued by `z`.
    fn settled(&self, z: f64) -> bool {
        self.calls
            .iter()
            .filter(|&&c| c != self.best)
            .all(|&c| self.trails(c, z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_players_add_early_checks_with_a_stricter_lead() {
        let four = StopRule::new(1.55, 4000, 4);
        let six = StopRule::new(1.55, 4000, 6);
        assert_eq!(four.check_step(), CHECK_EVERY);
        assert_eq!(six.check_step(), 128);
        let checks = |rule: StopRule| -> Vec<u64> {
            (1..=4000).filter(|&w| rule.is_check(w)).take(5).collect()
        };
        assert_eq!(checks(four), [512, 1024, 1536, 2048, 2560]);
        assert_eq!(checks(six), [128, 256, 512, 1024, 1536]);
        // Every check is a multiple of the step the runner checks at, or the cap.
        for rule in [four, six, StopRule::new(1.55, 700, 7)] {
            assert!(rule.is_check(rule.max_worlds));
            for w in (1..=rule.max_worlds).filter(|&w| rule.is_check(w)) {
                assert!(w % rule.check_step() == 0 || w == rule.max_worlds, "{w}");
            }
        }
        assert_eq!(six.z_settled(128), Z_EARLY);
        assert_eq!(six.z_settled(256), Z_EARLY);
        assert_eq!(six.z_settled(512), Z_SETTLED);
        // Without early checks a cap below 512 is an ordinary check.
        assert_eq!(StopRule::new(1.55, 300, 5).z_settled(300), Z_SETTLED);
        assert_eq!(StopRule::new(1.55, 300, 6).z_settled(300), Z_EARLY);
    }

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
