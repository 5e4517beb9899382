//! `napsim equity`: the session equity table, from the measured payments of one deal.
//!
//! The run plays deals as `simulate` does (the same blocks, so the same deals for the same
//! seed) and counts each deal's payment vector by position in the auction
//! ([`OutcomeTally`]). From those counts [`crate::eval::equity::SessionEquity`] values every
//! state of the session; the table shows the states a player reads most easily: one seat
//! leading each of the others by the same amount (the others level), by deals to come.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::simulate::{Simulate, SimulateJob, play_block};
use crate::bots::ext::BotPool;
use crate::error::Error;
use crate::eval::equity::{ByPosition, DealOutcomes, SessionEquity};
use crate::game::{DealState, contract_payments};
use crate::rules::{MAX_PLAYERS, Profile};
use crate::run::LongCommand;
use crate::sim::{Block, Tally, TallyError};

/// Deals per block: `simulate`'s, so that the same seed plays the same deals.
pub const BLOCK_SIZE: u64 = super::simulate::BLOCK_SIZE;

/// The seed of the sampled futures ([`SessionEquity::new`]): part of the table's definition,
/// the same for every run, so that a table depends only on the measured outcomes.
pub const FUTURES_SEED: u64 = 0x5e55_1011;

/// The counted payment vectors of the deals played.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeTally {
    /// Deals played.
    pub deals: u64,
    /// Each distinct payment vector (by position, eldest first) and how many deals paid it,
    /// sorted by payments.
    pub outcomes: Vec<(Vec<i64>, u64)>,
}

impl OutcomeTally {
    /// Counts one finished deal.
    pub fn add(&mut self, state: &DealState) {
        let players = state.players();
        let by_position = DealOutcomes::by_position(&state.payments(), state.dealer(), players);
        self.count(by_position[..players].to_vec(), 1);
        self.deals += 1;
    }

    fn count(&mut self, payments: Vec<i64>, n: u64) {
        match self.outcomes.binary_search_by(|(p, _)| p.cmp(&payments)) {
            Ok(i) => self.outcomes[i].1 += n,
            Err(i) => self.outcomes.insert(i, (payments, n)),
        }
    }

    /// The counts as [`DealOutcomes`] at a table of `players`.
    pub fn measured(&self, players: usize) -> DealOutcomes {
        let mut measured = DealOutcomes::new(players);
        for (payments, n) in &self.outcomes {
            let mut by_position: ByPosition = [0; MAX_PLAYERS];
            by_position[..payments.len()].copy_from_slice(payments);
            measured.add(by_position, *n);
        }
        measured
    }
}

impl Tally for OutcomeTally {
    fn merge(&mut self, other: OutcomeTally) {
        self.deals += other.deals;
        for (payments, n) in other.outcomes {
            self.count(payments, n);
        }
    }

    fn units(&self) -> Option<u64> {
        Some(self.deals)
    }

    fn check(&self, _bids: usize) -> Result<(), TallyError> {
        let counted = self
            .outcomes
            .iter()
            .try_fold(0u64, |sum, (_, n)| sum.checked_add(*n));
        let sorted = self.outcomes.windows(2).all(|w| w[0].0 < w[1].0);
        let one_size = self.outcomes.iter().all(|(p, _)| {
            (2..=MAX_PLAYERS).contains(&p.len()) && p.len() == self.outcomes[0].0.len()
        });
        if counted != Some(self.deals) || !sorted || !one_size {
            return Err(TallyError::Contracts);
        }
        Ok(())
    }
}

/// The arguments that decide an equity table: a simulation's (the table size, the deals to
/// measure, every seat's policies).
pub type EquityJob = SimulateJob;

/// `napsim equity`, prepared: the simulation whose deals it measures.
pub struct Equity {
    simulate: Simulate,
}

impl LongCommand for Equity {
    const NAME: &'static str = "equity";
    const UNIT: &'static str = "deals";
    const BLOCK_SIZE: u64 = BLOCK_SIZE;
    type Job = EquityJob;
    type Tally = OutcomeTally;

    fn prepare(profile: &Profile, job: EquityJob, bots: &BotPool) -> Result<Equity, Error> {
        if job.deals == 0 {
            return Err(Error::input(
                "`deals` 0: an equity table needs deals to measure",
            ));
        }
        Ok(Equity {
            simulate: Simulate::prepare(profile, job, bots)?,
        })
    }

    fn profile(&self) -> &Profile {
        self.simulate.profile()
    }

    fn job(&self) -> &EquityJob {
        self.simulate.job()
    }

    fn units(&self) -> u64 {
        self.simulate.units()
    }

    fn block(&self, seed: u64, block: Block) -> OutcomeTally {
        let mut tally = OutcomeTally::default();
        play_block(&self.simulate.config(seed), block, |state| tally.add(state));
        tally
    }
}

/// One row of the equity table: a seat `lead` units ahead of each other seat (the others
/// level), `deals` deals to come.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EquityRow {
    /// The profile's name.
    pub profile: String,
    /// Table size.
    pub players: usize,
    /// Deals to come, the one about to be dealt included.
    pub deals_left: usize,
    /// The seat's balance less each other seat's (negative: behind).
    pub lead: i64,
    /// Its chance of winning the session (a tie's share counted), averaged over the positions
    /// it may hold in the next deal.
    pub win_chance: f64,
    /// Whether every sequence of outcomes was enumerated (else the deals before the last are
    /// sampled futures).
    pub exact: bool,
}

/// The leads the table shows: from `-max` to `max` in steps of `step`.
pub fn leads(max: i64, step: i64) -> Vec<i64> {
    (-max / step..=max / step).map(|i| i * step).collect()
}

/// The table's rows: every lead of `leads` at every number of deals to come up to the
/// profile's session.
pub fn rows(
    profile: &Profile,
    players: usize,
    equity: &SessionEquity,
    leads: &[i64],
) -> Vec<EquityRow> {
    let session = profile.session_deals();
    let mut rows = Vec::new();
    for deals_left in 1..=session {
        for &lead in leads {
            rows.push(EquityRow {
                profile: profile.name().to_string(),
                players,
                deals_left,
                lead,
                win_chance: leader_chance(equity, lead, deals_left),
                exact: equity.is_exact(deals_left),
            });
        }
    }
    rows
}

/// The chance of a seat `lead` ahead of each of the others (who are level), `deals` to come,
/// averaged over the positions it may hold in the next deal.
pub fn leader_chance(equity: &SessionEquity, lead: i64, deals: usize) -> f64 {
    average_over_positions(equity.players(), |position| {
        let mut balances = [0; MAX_PLAYERS];
        balances[position] = lead;
        equity.win_chances(&balances, deals)[position]
    })
}

/// One row of the break-even table: the make rate at which a bid is worth as much to the
/// chance of winning the session as a deal in which nobody declares, for a declarer `lead`
/// units ahead of each other seat (the others level), `deals` deals to come.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BreakevenRow {
    /// The profile's name.
    pub profile: String,
    /// Table size.
    pub players: usize,
    /// The bid's name.
    pub bid: String,
    /// Deals to come, the one about to be dealt included.
    pub deals_left: usize,
    /// The declarer's balance less each other seat's (negative: behind).
    pub lead: i64,
    /// The make rate at which the bid pays as much as nobody declaring, in units (the
    /// profile's break-even, the same for every state).
    pub units_breakeven: f64,
    /// The make rate at which making the bid's contract gives the same chance of winning the
    /// session as a deal passed out: 1 when even making it does no better, 0 when making it
    /// does better and even losing it does as well (the chances averaged over the declarer's
    /// position in the deal).
    pub session_breakeven: f64,
}

/// The break-even table: every bid of the profile, every lead of `leads`, every number of
/// deals to come up to the profile's session (see [`BreakevenRow`]). Declarers hold no kitty
/// in these states: the deal is settled as from an empty one.
pub fn breakeven_rows(
    profile: &Profile,
    players: usize,
    equity: &SessionEquity,
    leads: &[i64],
) -> Vec<BreakevenRow> {
    let states: Vec<_> = profile
        .bid_ids()
        .flat_map(|id| (1..=profile.session_deals()).map(move |deals| (id, deals)))
        .flat_map(|(id, deals)| leads.iter().map(move |&lead| (id, deals, lead)))
        .collect();
    // Each row values a few dozen states over every sampled future: the rows run in parallel
    // (collected in order, so the table does not depend on the threads).
    states
        .into_par_iter()
        .map(|(id, deals_left, lead)| {
            let bid = profile.bid(id);
            let chance = |contract: Option<bool>| {
                average_over_positions(players, |position| {
                    let mut balances = [0; MAX_PLAYERS];
                    balances[position] = lead;
                    let ending = contract.map(|made| (position, id, made));
                    let (payments, _) = contract_payments(profile, players, 0, ending);
                    equity.chance_after(&balances, &payments, deals_left - 1, position)
                })
            };
            let (pass, made, failed) = (chance(None), chance(Some(true)), chance(Some(false)));
            BreakevenRow {
                profile: profile.name().to_string(),
                players,
                bid: bid.name().to_string(),
                deals_left,
                lead,
                units_breakeven: bid.breakeven(players),
                session_breakeven: breakeven(pass, made, failed),
            }
        })
        .collect()
}

/// The make rate q at which `q * made + (1 - q) * failed` equals `pass`, within 0 to 1: 1 when
/// even a made contract does no better than `pass`, 0 when a made one does better and even a
/// lost one does as well.
fn breakeven(pass: f64, made: f64, failed: f64) -> f64 {
    if made <= pass {
        1.0
    } else if failed >= pass {
        0.0
    } else {
        (pass - failed) / (made - failed)
    }
}

/// `value(position)` averaged over the positions of a table of `players`.
fn average_over_positions(players: usize, value: impl Fn(usize) -> f64) -> f64 {
    (0..players).map(value).sum::<f64>() / players as f64
}

/// The equity of `tally`'s outcomes, for sessions of `profile`'s length.
pub fn session_equity(profile: &Profile, players: usize, tally: &OutcomeTally) -> SessionEquity {
    SessionEquity::new(
        &tally.measured(players),
        profile.session_deals(),
        FUTURES_SEED,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_merge_to_the_same_counts_in_any_order() {
        let mut a = OutcomeTally::default();
        a.count(vec![9, -3, -3, -3], 2);
        a.count(vec![0, 0, 0, 0], 1);
        a.deals = 3;
        let mut b = OutcomeTally::default();
        b.count(vec![0, 0, 0, 0], 4);
        b.count(vec![-3, 9, -3, -3], 1);
        b.deals = 5;
        let mut ab = a.clone();
        ab.merge(b.clone());
        let mut ba = b;
        ba.merge(a);
        assert_eq!(ab, ba);
        assert_eq!(ab.deals, 8);
        assert!(ab.check(0).is_ok());
        let mut bad = ab.clone();
        bad.deals = 9;
        assert!(bad.check(0).is_err());
    }

    #[test]
    fn break_even_rates_lie_between_never_and_always() {
        assert_eq!(breakeven(0.5, 0.9, 0.1), 0.5);
        assert_eq!(breakeven(0.2, 0.9, 0.3), 0.0, "even a loss does better");
        assert_eq!(breakeven(0.0, 0.0, 0.0), 1.0, "nothing to gain");
        assert_eq!(breakeven(0.9, 0.8, 0.1), 1.0, "even a make does worse");
    }

    #[test]
    fn behind_on_the_last_deal_only_a_bid_that_overtakes_is_worth_a_risk() {
        // Four players, every deal passed out: the balances never move but for this deal.
        let profile = Profile::default_profile();
        let mut measured = DealOutcomes::new(4);
        measured.add([0; MAX_PLAYERS], 1);
        let equity = SessionEquity::new(&measured, 8, 1);
        let rows = breakeven_rows(&profile, 4, &equity, &[-10, 0, 10]);
        let at = |bid: &str, deals: usize, lead: i64| {
            rows.iter()
                .find(|r| r.bid == bid && r.deals_left == deals && r.lead == lead)
                .unwrap()
                .session_breakeven
        };
        // 10 behind each with one deal left: a made Three (+12 against each) wins outright, a
        // lost one costs nothing that matters: call it whatever the odds.
        assert_eq!(at("three", 1, -10), 0.0);
        // 10 ahead of each: passing wins for certain, so no bid is worth any risk.
        assert_eq!(at("three", 1, 10), 1.0);
        // Level: a made Three wins (1 against a quarter), a lost one loses (0): a quarter.
        assert!((at("three", 1, 0) - 0.25).abs() < 1e-12);
        let units = rows
            .iter()
            .find(|r| r.bid == "three")
            .unwrap()
            .units_breakeven;
        assert_eq!(units, 0.5);
    }

    #[test]
    fn leads_are_symmetric_steps() {
        assert_eq!(leads(6, 3), [-6, -3, 0, 3, 6]);
    }
}
