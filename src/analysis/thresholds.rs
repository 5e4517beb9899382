//! `napsim thresholds`: the threshold bid policy's parameters swept on common deals.
//!
//! Hands are tallied by their threshold scores ([`Scheme::Strength`]) with every bid evaluated
//! on every deal ([`crate::analysis::bid_table`]). For a bid and a threshold `v`, the rule
//! "at this seat, with everyone before passing, bid it when the score reaches `v`" earns per
//! deal the units of the hands scoring `v` or more, summed and divided by the deals that reached
//! the seat. The best `v` maximises that; its interval holds every `v` whose paired difference
//! from the best (the same deals) is within 1.96 standard errors. Trick bids use the trick
//! strength, misère bids the misère strength.
//!
//! With `--auction` the hands that do not bid pass, and passing has its value in the whole auction
//! (a later seat may declare), as the bid has its own: the rule earns the bid's auction units on the
//! hands at or above `v` and passing's on the rest. A bid the seat may not call after passes
//! (one that may only overcall) is left out.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::bid_table::{
    self, BidTableConfig, BidTableTally, Scheme, TablePolicies, bid_table_block,
};
use crate::bots::ext::BotPool;
use crate::error::Error;
use crate::eval::hand::{PASS_INDEX, call_index};
use crate::rules::Profile;
use crate::run::LongCommand;
use crate::sim::Block;

/// The arguments that decide a threshold sweep's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdsJob {
    /// Table size.
    pub players: usize,
    /// Deals to play.
    pub deals: u64,
    /// The play policy of every seat (a spec).
    pub play: String,
    /// The seat swept, 0 for eldest.
    pub seat: usize,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub input_files: BTreeMap<String, String>,
    /// Value the bids and passing in the whole auction (`--auction`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auction: bool,
}

impl ThresholdsJob {
    /// The sweep of `deals` random deals at `players` seats as `napsim thresholds` makes it by
    /// default: every seat playing `heuristic`, the eldest hand swept, passing worth 0 (no
    /// auction values).
    pub fn new(players: usize, deals: u64) -> ThresholdsJob {
        ThresholdsJob {
            players,
            deals,
            play: "heuristic".to_string(),
            seat: 0,
            input_files: BTreeMap::new(),
            auction: false,
        }
    }
}

/// `napsim thresholds`, prepared: a strength-class bid table with no double-dummy column.
pub struct Thresholds {
    profile: Profile,
    job: ThresholdsJob,
    policies: TablePolicies,
}

impl Thresholds {
    /// The sweep's table with `seed`: strength classes, no double-dummy column.
    pub fn config(&self, seed: u64) -> BidTableConfig<'_> {
        BidTableConfig {
            profile: &self.profile,
            players: self.job.players,
            deals: self.job.deals,
            seed,
            play: self.policies.play.as_ref(),
            others_play: self.policies.others_play(),
            dd_deals: 0,
            scheme: Scheme::Strength,
            opener: self.policies.opener.as_ref(),
            strata: None,
            auction: self.job.auction,
        }
    }
}

impl LongCommand for Thresholds {
    const NAME: &'static str = "thresholds";
    const UNIT: &'static str = "deals";
    const BLOCK_SIZE: u64 = bid_table::BLOCK_SIZE;
    type Job = ThresholdsJob;
    type Tally = BidTableTally;

    fn prepare(
        profile: &Profile,
        mut job: ThresholdsJob,
        bots: &BotPool,
    ) -> Result<Thresholds, Error> {
        profile.check_players(job.players)?;
        super::check_seat(job.seat, job.players)?;
        Ok(Thresholds {
            policies: TablePolicies::new(profile, &job.play, &mut job.input_files, bots)?,
            profile: profile.clone(),
            job,
        })
    }

    fn profile(&self) -> &Profile {
        &self.profile
    }

    fn job(&self) -> &ThresholdsJob {
        &self.job
    }

    fn units(&self) -> u64 {
        self.job.deals
    }

    fn block(&self, seed: u64, block: Block) -> BidTableTally {
        bid_table_block(&self.config(seed), block)
    }
}

/// One row: a bid and a threshold value.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ThresholdRow {
    /// The profile's name.
    pub profile: String,
    /// Table size.
    pub players: usize,
    /// Position in the auction (0 = eldest).
    pub seat: usize,
    /// The bid's name.
    pub bid: String,
    /// The score the hand must reach (one above the highest score seen: never bid).
    pub threshold: u32,
    /// Deals that reached the seat.
    pub deals: u64,
    /// Of those, hands at or above the threshold (which bid).
    pub bidding: u64,
    /// Units per deal that reached the seat.
    pub ev_per_deal: f64,
    /// Its standard error.
    pub ev_se: f64,
    /// 95% interval.
    pub ci95_low: f64,
    /// 95% interval.
    pub ci95_high: f64,
    /// Whether this threshold maximises the EV.
    pub best: bool,
    /// Whether its EV is within the 95% paired interval of the best one's.
    pub near_best: bool,
}

/// Per bid: the EV-maximising threshold and its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct BestThreshold {
    /// The bid's name.
    pub bid: String,
    /// Trick bids: "strength"; misère: "misère strength".
    pub score: &'static str,
    /// The best threshold.
    pub threshold: u32,
    /// The lowest and highest thresholds not significantly worse.
    pub interval: (u32, u32),
    /// The best threshold's EV per deal and its standard error.
    pub ev: (f64, f64),
    /// Whether the best is "never bid" (one above every score seen).
    pub never: bool,
}

/// Sums per score: the bid's units, and (in the auction view) passing's and the two multiplied
/// hand by hand (zero in the declarer view, where passing is worth nothing).
#[derive(Clone, Copy, Default)]
struct Bucket {
    hands: u64,
    units: i64,
    units_sq: u128,
    pass_units: i64,
    pass_sq: u128,
    cross: i128,
}

impl Bucket {
    fn add(&mut self, other: &Bucket) {
        self.hands += other.hands;
        self.units += other.units;
        self.units_sq += other.units_sq;
        self.pass_units += other.pass_units;
        self.pass_sq += other.pass_sq;
        self.cross += other.cross;
    }
}

/// Mean and standard error of per-deal values whose sum and sum of squares are given.
fn mean_se(n: u64, sum: i64, sum_sq: u128) -> (f64, f64) {
    crate::stats::mean_se(n, sum, sum_sq).unwrap_or((0.0, 0.0))
}

/// The rows of every bid at `seat` and each bid's best threshold.
pub fn sweep(
    tally: &BidTableTally,
    profile: &Profile,
    players: usize,
    seat: usize,
) -> (Vec<ThresholdRow>, Vec<BestThreshold>) {
    let mut rows = Vec::new();
    let mut bests = Vec::new();
    for (index, id) in profile.bid_ids().enumerate() {
        let bid = profile.bid(id);
        let misere = bid.is_misere();
        let mut buckets: BTreeMap<u32, Bucket> = BTreeMap::new();
        let mut deals = 0;
        let mut callable = true;
        for ((s, class), t) in &tally.classes {
            if *s != seat {
                continue;
            }
            let score = if misere {
                Scheme::misere_score(*class)
            } else {
                Scheme::trick_score(*class)
            };
            let bucket = match &t.calls {
                None => {
                    let o = &t.bids[index];
                    Bucket {
                        hands: t.hands,
                        units: o.units,
                        units_sq: o.units_sq,
                        ..Bucket::default()
                    }
                }
                Some(calls) => {
                    let c = call_index(id);
                    callable &= calls.call_worlds(c) == t.hands;
                    let (o, pass) = (calls.calls[c], calls.calls[PASS_INDEX]);
                    Bucket {
                        hands: t.hands,
                        units: o.units,
                        units_sq: o.units_sq,
                        pass_units: pass.units,
                        pass_sq: pass.units_sq,
                        cross: calls.cross(c, PASS_INDEX).unwrap_or(0),
                    }
                }
            };
            buckets.entry(score).or_default().add(&bucket);
            deals += t.hands;
        }
        if deals == 0 || !callable {
            continue;
        }
        let top = buckets.keys().next_back().copied().unwrap_or(0) + 1;
        // Cumulative sums from the top score down: the hands that bid at threshold v.
        let mut at_or_above: Vec<Bucket> = vec![Bucket::default(); top as usize + 2];
        for v in (0..=top).rev() {
            let mut sum = at_or_above[v as usize + 1];
            if let Some(b) = buckets.get(&v) {
                sum.add(b);
            }
            at_or_above[v as usize] = sum;
        }
        let all = at_or_above[0];
        // The hands at or above v bid, the rest pass.
        let ev = |v: u32| {
            let bidding = at_or_above[v as usize];
            mean_se(
                deals,
                bidding.units + (all.pass_units - bidding.pass_units),
                bidding.units_sq + (all.pass_sq - bidding.pass_sq),
            )
        };
        let best = (0..=top)
            .max_by(|&a, &b| ev(a).0.total_cmp(&ev(b).0).then(b.cmp(&a)))
            .expect("thresholds");
        // Paired: the difference between v and the best is the hands between bidding rather
        // than passing.
        let near = |v: u32| {
            let (lo, hi) = (v.min(best), v.max(best));
            let (a, b) = (at_or_above[lo as usize], at_or_above[hi as usize]);
            let bid = (a.units - b.units, a.units_sq - b.units_sq);
            let pass = (a.pass_units - b.pass_units, a.pass_sq - b.pass_sq);
            let (mean, se) = crate::stats::paired_mean_se(deals, bid, pass, a.cross - b.cross)
                .unwrap_or((0.0, 0.0));
            mean.abs() <= 1.96 * se || v == best
        };
        let near_set: Vec<u32> = (0..=top).filter(|&v| near(v)).collect();
        for v in 0..=top {
            let (mean, se) = ev(v);
            rows.push(ThresholdRow {
                profile: profile.name().to_string(),
                players,
                seat,
                bid: bid.name().to_string(),
                threshold: v,
                deals,
                bidding: at_or_above[v as usize].hands,
                ev_per_deal: mean,
                ev_se: se,
                ci95_low: mean - 1.96 * se,
                ci95_high: mean + 1.96 * se,
                best: v == best,
                near_best: near_set.contains(&v),
            });
        }
        bests.push(BestThreshold {
            bid: bid.name().to_string(),
            score: if misere {
                "misère strength"
            } else {
                "strength"
            },
            threshold: best,
            interval: (
                *near_set.first().expect("the best"),
                *near_set.last().expect("the best"),
            ),
            ev: ev(best),
            never: best == top,
        });
    }
    (rows, bests)
}
