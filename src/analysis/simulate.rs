//! `simulate`: play many complete deals and tally, per bid, how often it was declared and made
//! and what it earned the declarer.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use std::any::Any;

use crate::bots::always::Always;
use crate::bots::ext::BotPool;
use crate::bots::heuristic::Heuristic;
use crate::bots::threshold::Threshold;
use crate::bots::{bid_policy_at, input_files, play_policy_in};
use crate::error::Error;
use crate::game::{DealState, Shuffler};
use crate::policy::Pass;
use crate::policy::RandomPlay;
use crate::policy::{BidPolicy, PlayPolicy};
use crate::policy::{Seats, Uniform, run_deal};
use crate::rules::Profile;
use crate::run::LongCommand;
use crate::sim::{Block, Tally, TallyError};
use crate::stats::{mean_se, wilson95};

/// Deals per block. Part of the determinism contract: changing it changes the results.
pub const BLOCK_SIZE: u64 = 1 << 16;

/// What to simulate.
pub struct SimulateConfig<'a> {
    /// The rules.
    pub profile: &'a Profile,
    /// Table size (checked against the profile).
    pub players: usize,
    /// Deals to play.
    pub deals: u64,
    /// The seed.
    pub seed: u64,
    /// The bid policy of every seat.
    pub bid: &'a dyn BidPolicy,
    /// The play policy of every seat.
    pub play: &'a dyn PlayPolicy,
}

/// Per bid: how often it was the contract and what it earned.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BidTally {
    /// Deals on which it was the contract.
    pub declared: u64,
    /// Of those, how many were made.
    pub made: u64,
    /// The declarer's units, summed.
    pub units: i64,
    /// The declarer's units, squared and summed.
    pub units_sq: u128,
}

/// The tallies of a simulation.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SimulateTally {
    /// Deals played.
    pub deals: u64,
    /// Deals on which every seat passed.
    pub passed_out: u64,
    /// One entry per bid of the profile, lowest first.
    pub bids: Vec<BidTally>,
}

impl Tally for SimulateTally {
    fn units(&self) -> Option<u64> {
        Some(self.deals)
    }

    fn check(&self, bids: usize) -> Result<(), TallyError> {
        if self.deals > 0 && self.bids.len() != bids {
            return Err(TallyError::BidCount {
                counted: self.bids.len(),
                bids,
            });
        }
        let declared = self.bids.iter().try_fold(self.passed_out, |sum, b| {
            (b.made <= b.declared).then(|| sum.checked_add(b.declared))?
        });
        if declared != Some(self.deals) {
            return Err(TallyError::Contracts);
        }
        Ok(())
    }

    fn merge(&mut self, other: SimulateTally) {
        self.deals += other.deals;
        self.passed_out += other.passed_out;
        if self.bids.len() < other.bids.len() {
            self.bids.resize(other.bids.len(), BidTally::default());
        }
        for (a, b) in self.bids.iter_mut().zip(other.bids) {
            a.declared += b.declared;
            a.made += b.made;
            a.units += b.units;
            a.units_sq += b.units_sq;
        }
    }
}

/// Plays the deals of one block.
pub fn simulate_block(config: &SimulateConfig, block: Block) -> SimulateTally {
    let mut tally = SimulateTally {
        deals: block.len,
        passed_out: 0,
        bids: vec![BidTally::default(); config.profile.bids().len()],
    };
    play_block(config, block, |state| match state.settlement() {
        None => tally.passed_out += 1,
        Some(result) => {
            let units = result.units;
            let bid = &mut tally.bids[result.bid.index()];
            bid.declared += 1;
            bid.made += u64::from(result.made);
            bid.units += units;
            bid.units_sq += (units * units) as u128;
        }
    });
    tally
}

/// Plays the deals of one block as `simulate` does and hands each finished deal to `visit`.
pub fn play_block(config: &SimulateConfig, block: Block, visit: impl FnMut(&DealState)) {
    // The built-in policies get a loop compiled for their types (direct, inlined calls); any
    // other policy runs through dynamic dispatch. The results are the same either way.
    let bid: &dyn Any = config.bid;
    if let Some(bid) = bid.downcast_ref::<Always>() {
        with_play(config, bid, block, visit)
    } else if let Some(bid) = bid.downcast_ref::<Threshold>() {
        with_play(config, bid, block, visit)
    } else if let Some(bid) = bid.downcast_ref::<Pass>() {
        with_play(config, bid, block, visit)
    } else {
        with_play(config, config.bid, block, visit)
    }
}

/// [`play_block`] with the bid policy's type fixed: now fix the play policy's.
fn with_play<B: BidPolicy + ?Sized>(
    config: &SimulateConfig,
    bid: &B,
    block: Block,
    visit: impl FnMut(&DealState),
) {
    let play: &dyn Any = config.play;
    if let Some(play) = play.downcast_ref::<Heuristic>() {
        block_loop(config, &Uniform { bid, play }, block, visit)
    } else if let Some(play) = play.downcast_ref::<RandomPlay>() {
        block_loop(config, &Uniform { bid, play }, block, visit)
    } else {
        let play = config.play;
        block_loop(config, &Uniform { bid, play }, block, visit)
    }
}

/// The deals of one block, played by `seats`, each handed to `visit` when finished.
fn block_loop<T: Seats>(
    config: &SimulateConfig,
    seats: &T,
    mut block: Block,
    mut visit: impl FnMut(&DealState),
) {
    let profile = config.profile;
    let players = config.players;
    let mut shuffler = Shuffler::new(profile, players);
    // Each block starts from a fresh shuffle (and, with limited shuffling, carries the pack
    // from deal to deal); the dealer rotates left from seat 0.
    let mut dealer = 0;
    let mut kitty = 0;
    for _ in 0..block.len {
        let dealt = shuffler.deal(dealer, &mut block.deal_rng);
        let mut state = DealState::from_dealt(profile, dealer, &dealt, players);
        state.set_kitty(kitty);
        run_deal(&mut state, seats, &mut block.policy_rng);
        shuffler.collect(&state);
        visit(&state);
        // Only a kitty profile carries units from deal to deal; the others skip the settling.
        if profile.has_kitty() {
            kitty = state.kitty_after();
        }
        dealer = (dealer + 1) % players;
    }
}

/// The arguments that decide a simulation's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulateJob {
    /// Table size.
    pub players: usize,
    /// Deals to play.
    pub deals: u64,
    /// Every seat's bid policy (a spec).
    pub bid: String,
    /// Every seat's play policy (a spec).
    pub play: String,
    /// Files the policies read (`table:file=`), with a digest of each
    /// ([`crate::bots::input_files`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub input_files: BTreeMap<String, String>,
}

/// `napsim simulate`, prepared: the policies built.
pub struct Simulate {
    profile: Profile,
    job: SimulateJob,
    bid: Box<dyn BidPolicy>,
    play: Box<dyn PlayPolicy>,
}

impl Simulate {
    /// The simulation's configuration with `seed`.
    pub fn config(&self, seed: u64) -> SimulateConfig<'_> {
        SimulateConfig {
            profile: &self.profile,
            players: self.job.players,
            deals: self.job.deals,
            seed,
            bid: self.bid.as_ref(),
            play: self.play.as_ref(),
        }
    }
}

impl LongCommand for Simulate {
    const NAME: &'static str = "simulate";
    const UNIT: &'static str = "deals";
    const BLOCK_SIZE: u64 = BLOCK_SIZE;
    type Job = SimulateJob;
    type Tally = SimulateTally;

    fn prepare(profile: &Profile, mut job: SimulateJob, bots: &BotPool) -> Result<Simulate, Error> {
        profile.check_players(job.players)?;
        let bid = bid_policy_at(&job.bid, profile, job.players, bots)?;
        let play = play_policy_in(&job.play, profile, bots)?;
        if job.input_files.is_empty() {
            job.input_files = input_files(&[&job.bid, &job.play])?;
        }
        Ok(Simulate {
            bid,
            play,
            profile: profile.clone(),
            job,
        })
    }

    fn profile(&self) -> &Profile {
        &self.profile
    }

    fn job(&self) -> &SimulateJob {
        &self.job
    }

    fn units(&self) -> u64 {
        self.job.deals
    }

    fn block(&self, seed: u64, block: Block) -> SimulateTally {
        simulate_block(&self.config(seed), block)
    }
}

/// One CSV row of `napsim simulate`: one bid of the profile.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimulateRow {
    /// The profile's name.
    pub profile: String,
    /// Table size.
    pub players: usize,
    /// The bid policy spec.
    pub bid_policy: String,
    /// The play policy spec.
    pub play_policy: String,
    /// The seed.
    pub seed: u64,
    /// Deals played (all of them, passed-out deals included).
    pub deals: u64,
    /// The bid's name.
    pub bid: String,
    /// Tricks needed (0 for misère).
    pub tricks_needed: u8,
    /// Deals on which the bid was the contract.
    pub declared: u64,
    /// Of those, made.
    pub made: u64,
    /// made / declared (empty when never declared).
    pub success_rate: Option<f64>,
    /// Wilson 95% lower bound.
    pub ci95_low: Option<f64>,
    /// Wilson 95% upper bound.
    pub ci95_high: Option<f64>,
    /// The declarer's mean units per declared deal.
    pub ev_declarer: Option<f64>,
    /// Its standard error.
    pub ev_declarer_se: Option<f64>,
}

/// Turns the tallies into one row per bid.
pub fn rows(
    tally: &SimulateTally,
    profile: &Profile,
    players: usize,
    bid_spec: &str,
    play_spec: &str,
    seed: u64,
) -> Vec<SimulateRow> {
    profile
        .bid_ids()
        .map(|id| {
            let bid = profile.bid(id);
            let t = tally.bids.get(id.index()).cloned().unwrap_or_default();
            let ci = wilson95(t.made, t.declared);
            let ev = mean_se(t.declared, t.units, t.units_sq);
            SimulateRow {
                profile: profile.name().to_string(),
                players,
                bid_policy: bid_spec.to_string(),
                play_policy: play_spec.to_string(),
                seed,
                deals: tally.deals,
                bid: bid.name().to_string(),
                tricks_needed: bid.tricks_needed(),
                declared: t.declared,
                made: t.made,
                success_rate: (t.declared > 0).then(|| t.made as f64 / t.declared as f64),
                ci95_low: ci.map(|c| c.0),
                ci95_high: ci.map(|c| c.1),
                ev_declarer: ev.map(|e| e.0),
                ev_declarer_se: ev.map(|e| e.1),
            }
        })
        .collect()
}
