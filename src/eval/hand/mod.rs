//! The hand evaluator (`napsim hand`, and the `lookahead` bid policy's brain): what one hand is
//! worth as declarer, bid by bid.
//!
//! Each world deals the other hands at random from the unseen cards ([`worlds`]); the same
//! world is then played once per bid of the profile, with the hand declaring at its seat, the
//! declarer's choices (floater, named trump) made by the default bid policy and every card by
//! the play policy. So the bids are compared on common deals. Units count the bid's payouts
//! only (no kitty, no antes). Blocks of worlds, each with its own streams, make the result
//! independent of the thread count ([`crate::sim`]).

mod auction;
mod input;
mod stopping;
pub mod worlds;

pub use auction::{AuctionTally, CallOutcomes, PASS_INDEX, PASSED_OUT_UNITS, call_at, call_index};
pub use input::{HandInputError, PILOT_DRAWS, PILOT_MIN_KEPT, parse_after, parse_hand_for};
pub use stopping::{
    CHECK_EVERY, EARLY_CHECKS, EARLY_PLAYERS, StopReason, StopRule, Z_EARLY, Z_SETTLED,
};

use std::sync::atomic::{AtomicBool, Ordering};

use rand_core::SeedableRng;

use crate::cards::CardSet;
use crate::game::{Call, DealState};
use crate::policy::Pass;
use crate::policy::{BidPolicy, PlayPolicy};
use crate::policy::{Uniform, play_out, settle_contract};
use crate::rng::{SimRng, next_u64};
use crate::rules::{BidId, HAND_SIZE, MAX_BIDS, Profile, TrumpRule};
use crate::sim::{self, Block, Plan, PoolError, Progress, Tally, TallyError};
use crate::solver::{Opening, with_thread_solver};
use crate::stats::{mean_se, paired_mean_se, wilson95};
use worlds::{World, WorldDealer};

/// Worlds per block. Part of the determinism contract: changing it changes the results.
pub const BLOCK_SIZE: u64 = 64;

/// The play policy the evaluator uses unless told otherwise (`napsim hand`, the call hint of
/// `napsim play`): PIMC as the strong bid tables play it, but for two changes that make it both
/// stronger and cheaper there (measured in docs/performance.md, "`napsim hand`"): the
/// declarer's opening lead, which every world of a hand shares, is decided once over 256
/// worlds; and against a misère the defenders play `expert`, which holds PIMC declarers to
/// fewer made misères than PIMC's own defence.
pub const DEFAULT_PLAY: &str =
    "split:declarer=(pimc:worlds=16,opening=256),defence=(pimc:worlds=16),misere-defence=(expert)";

/// Deals drawn per kept world before `napsim hand` gives up on conditioning calls as too rare.
pub const MAX_DRAWS_PER_WORLD: u64 = 1_000_000;

/// What to evaluate.
pub struct HandQuery<'a> {
    /// The rules.
    pub profile: &'a Profile,
    /// Table size.
    pub players: usize,
    /// The hand's position in the auction (0 = eldest).
    pub seat: usize,
    /// The hand.
    pub hand: CardSet,
    /// The calls of the earlier seats to condition the worlds on (empty: no conditioning).
    pub after: &'a [Call],
    /// The bid policy the earlier seats are assumed to use.
    pub others: &'a dyn BidPolicy,
    /// The play policy of every seat.
    pub play: &'a dyn PlayPolicy,
    /// Also count the double-dummy makes beside the play policy's.
    pub dd_column: bool,
    /// Also value every call, passing included, in the whole auction: the later seats bid
    /// with `others` too, and whoever wins plays ([`auction`]).
    pub auction: bool,
    /// With `auction`, also the chance of winning the session after each call: the session's
    /// state and its equity, seen from the hand's seat. None: the deal is valued on its own.
    pub session: Option<&'a crate::eval::equity::SessionQuery>,
}

/// How one bid fared over the worlds. Stored in files as the array `[made, dd_made, units,
/// units_sq, tricks]`: bid tables hold millions of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "OutcomesRepr", into = "OutcomesRepr")]
pub struct BidOutcomes {
    /// Worlds in which it was made.
    pub made: u64,
    /// Worlds in which its double-dummy value reached it (when counted).
    pub dd_made: u64,
    /// The declarer's units, summed.
    pub units: i64,
    /// The declarer's units, squared and summed.
    pub units_sq: u128,
    /// Worlds by the declarer's tricks.
    pub tricks: [u64; HAND_SIZE + 1],
}

/// [`BidOutcomes`] as a JSON array.
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct OutcomesRepr(u64, u64, i64, u128, [u64; HAND_SIZE + 1]);

impl From<OutcomesRepr> for BidOutcomes {
    fn from(OutcomesRepr(made, dd_made, units, units_sq, tricks): OutcomesRepr) -> BidOutcomes {
        BidOutcomes {
            made,
            dd_made,
            units,
            units_sq,
            tricks,
        }
    }
}

impl From<BidOutcomes> for OutcomesRepr {
    fn from(b: BidOutcomes) -> OutcomesRepr {
        OutcomesRepr(b.made, b.dd_made, b.units, b.units_sq, b.tricks)
    }
}

impl BidOutcomes {
    /// Checks the counts of `trials` hands, `dd_trials` of them with the double-dummy count:
    /// makes at most the trials, and every trial counted once by its tricks.
    pub fn check(&self, trials: u64, dd_trials: u64) -> Result<(), TallyError> {
        let by_tricks = self
            .tricks
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n));
        if self.made > trials || self.dd_made > dd_trials || by_tricks != Some(trials) {
            return Err(TallyError::Outcomes { trials });
        }
        Ok(())
    }

    /// Adds `other`'s counts into these.
    pub fn add(&mut self, other: &BidOutcomes) {
        self.made += other.made;
        self.dd_made += other.dd_made;
        self.units += other.units;
        self.units_sq += other.units_sq;
        for (x, y) in self.tricks.iter_mut().zip(other.tricks) {
            *x += y;
        }
    }
}

/// The integer tallies of an evaluation.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HandTally {
    /// Worlds kept (evaluated).
    pub worlds: u64,
    /// Deals drawn to keep them (more than `worlds` when conditioned on earlier calls).
    pub drawn: u64,
    /// A world needed more draws than allowed: the conditioning calls are too rare.
    pub too_rare: bool,
    /// One entry per bid of the profile, lowest first.
    pub bids: Vec<BidOutcomes>,
    /// The declarer's units of two bids multiplied world by world and summed, one entry per
    /// pair of bids (`i < j`, in the order (0,1), (0,2)... (1,2)...): with the squares, the
    /// variance of the difference between two bids on the common worlds ([`HandTally::paired`]).
    #[serde(default)]
    pub pairs: Vec<i128>,
    /// Worlds in which each bid was played, one entry per bid: fewer than `worlds` for a bid
    /// an adaptive run dropped. Empty in files written before bids could be dropped (every bid
    /// then played every world); see [`HandTally::bid_worlds`].
    #[serde(default)]
    pub played: Vec<u64>,
    /// The bids an adaptive run stopped playing, by index, because at a check they trailed the
    /// best call by more than the settling lead ([`StopRule::drop_trailing`]): worlds merged
    /// later leave their counts (and their pairs) as they were. Empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<bool>,
    /// Every call valued in the whole auction ([`HandQuery::auction`]); `None` when not asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auction: Option<AuctionTally>,
}

/// Where the pair of bids `i < j` of `bids` bids sits in [`HandTally::pairs`].
fn pair_index(bids: usize, i: usize, j: usize) -> usize {
    debug_assert!(i < j && j < bids);
    i * bids - i * (i + 1) / 2 + (j - i - 1)
}

/// Pairs of `bids` bids.
fn pair_count(bids: usize) -> usize {
    bids * bids.saturating_sub(1) / 2
}

/// The pairs `(i, j)`, `i < j`, of `bids` bids in the order of [`HandTally::pairs`].
fn pairs_in_order(bids: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..bids).flat_map(move |i| (i + 1..bids).map(move |j| (i, j)))
}

/// Whether bid `i` is in `mask` (bit `i`: bid `i`).
fn in_mask(mask: u64, i: usize) -> bool {
    mask >> i & 1 == 1
}

impl HandTally {
    /// The mean and standard error of bid `a`'s units less bid `b`'s, world by world: the
    /// paired comparison of two bids on the same worlds (`None` without worlds).
    /// `None` too when the two were not played in the same worlds (one was dropped).
    pub fn paired(&self, a: BidId, b: BidId) -> Option<(f64, f64)> {
        let (i, j) = (a.index().min(b.index()), a.index().max(b.index()));
        let (x, y) = (self.bids.get(a.index())?, self.bids.get(b.index())?);
        let n = self.bid_worlds(i);
        if n != self.bid_worlds(j) {
            return None;
        }
        let cross = if i == j {
            return mean_se(n, 0, 0);
        } else {
            *self.pairs.get(pair_index(self.bids.len(), i, j))?
        };
        paired_mean_se(n, (x.units, x.units_sq), (y.units, y.units_sq), cross)
    }

    /// The worlds in which bid `index` was played.
    pub fn bid_worlds(&self, index: usize) -> u64 {
        self.played.get(index).copied().unwrap_or(self.worlds)
    }

    /// Whether bid `index` was dropped by an adaptive run.
    pub fn is_dropped(&self, index: usize) -> bool {
        self.dropped.get(index).copied().unwrap_or(false)
    }

    /// Whether the call at `index` among the calls ([`call_at`]) was dropped by an adaptive
    /// run: passing on its own, a bid's call with the bid.
    pub fn is_call_dropped(&self, index: usize) -> bool {
        match index {
            PASS_INDEX => self.auction.as_ref().is_some_and(|a| a.pass_dropped),
            i => self.is_dropped(i - 1),
        }
    }

    /// Whether the call at `index` was dropped before the last of these worlds (see
    /// [`HandTally::left_out`]).
    pub fn call_left_out(&self, index: usize) -> bool {
        let worlds = self.auction.as_ref().map_or(0, |a| a.call_worlds(index));
        self.is_call_dropped(index) && worlds < self.worlds
    }

    /// What an adaptive run has stopped playing so far.
    pub fn skipped(&self) -> Skip {
        Skip {
            bids: self.dropped_mask(),
            pass: self.is_call_dropped(PASS_INDEX),
        }
    }

    /// Whether bid `index` was dropped before the last of these worlds: left out of the
    /// stopping rule. A bid dropped at the check of these very worlds is not yet (the rule at
    /// that check saw it, and sees it again when a run resumed there asks it again).
    pub fn left_out(&self, index: usize) -> bool {
        self.is_dropped(index) && self.bid_worlds(index) < self.worlds
    }

    /// Marks bid `index` dropped: the worlds merged from now on leave it as it is.
    pub fn drop_bid(&mut self, index: usize) {
        if self.dropped.len() <= index {
            self.dropped.resize(self.bids.len().max(index + 1), false);
        }
        self.dropped[index] = true;
    }

    /// The dropped bids as a mask (bit `i`: bid `i`), for the blocks that may skip them.
    pub fn dropped_mask(&self) -> u64 {
        self.dropped
            .iter()
            .enumerate()
            .filter(|(_, d)| **d)
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// Adds one world's units (one per bid) to the paired sums of the bids played (`skip`: a
    /// mask of those that were not).
    fn add_pairs(&mut self, units: &[i64], skip: u64) {
        for (k, (i, j)) in pairs_in_order(units.len()).enumerate() {
            if !in_mask(skip, i) && !in_mask(skip, j) {
                self.pairs[k] += i128::from(units[i]) * i128::from(units[j]);
            }
        }
    }

    /// The worlds each bid was played in, one entry per bid of `bids`, whether counted or not
    /// (files from before [`HandTally::played`]).
    fn played_per_bid(&self, bids: usize) -> Vec<u64> {
        (0..bids).map(|i| self.bid_worlds(i)).collect()
    }
}

impl Tally for HandTally {
    /// A too-rare run stops keeping worlds, so it counts fewer than its blocks hold.
    fn units(&self) -> Option<u64> {
        (!self.too_rare).then_some(self.worlds)
    }

    fn check(&self, bids: usize) -> Result<(), TallyError> {
        if self.worlds > 0 && self.bids.len() != bids {
            return Err(TallyError::BidCount {
                counted: self.bids.len(),
                bids,
            });
        }
        // Every bid played in every world, but those dropped.
        let played_as_dropped =
            (0..self.bids.len()).all(|i| self.bid_worlds(i) == self.worlds || self.is_dropped(i));
        if !(self.played.is_empty() || self.played.len() == self.bids.len())
            || self.dropped.len() > self.bids.len()
            || self.played.iter().any(|&n| n > self.worlds)
            || !played_as_dropped
        {
            return Err(TallyError::Outcomes {
                trials: self.worlds,
            });
        }
        for (i, b) in self.bids.iter().enumerate() {
            let n = self.bid_worlds(i);
            b.check(n, n)?;
        }
        if self.worlds > 0 && self.pairs.len() != pair_count(bids) {
            return Err(TallyError::Pairs {
                counted: self.pairs.len(),
                bids,
            });
        }
        if let Some(auction) = &self.auction
            && self.worlds > 0
            && !auction.is_consistent(bids, self.worlds)
        {
            return Err(TallyError::Outcomes {
                trials: self.worlds,
            });
        }
        Ok(())
    }

    /// A dropped bid keeps its counts: `other`'s worlds are added to the bids still played
    /// (a block may have played a bid dropped before it was merged: its plays are left out).
    fn merge(&mut self, other: HandTally) {
        let bids = self.bids.len().max(other.bids.len());
        let mut played = self.played_per_bid(bids);
        for (i, n) in other.played_per_bid(bids).into_iter().enumerate() {
            if !self.is_dropped(i) {
                played[i] += n;
            }
        }
        self.played = played;
        self.worlds += other.worlds;
        self.drawn += other.drawn;
        self.too_rare |= other.too_rare;
        self.bids.resize(bids, BidOutcomes::default());
        for (i, b) in other.bids.iter().enumerate() {
            if !self.is_dropped(i) {
                self.bids[i].add(b);
            }
        }
        if self.pairs.len() < other.pairs.len() {
            self.pairs.resize(other.pairs.len(), 0);
        }
        let dropped = self.dropped_mask();
        let sums = self.pairs.iter_mut().zip(&other.pairs);
        for ((i, j), (sum, more)) in pairs_in_order(bids).zip(sums) {
            if !in_mask(dropped, i) && !in_mask(dropped, j) {
                *sum += more;
            }
        }
        if let Some(more) = &other.auction {
            let dropped: Vec<bool> = (0..=bids).map(|c| self.is_call_dropped(c)).collect();
            let auction = self
                .auction
                .get_or_insert_with(|| AuctionTally::new(more.calls.len().saturating_sub(1)));
            auction.merge(more, |c| dropped.get(c).copied().unwrap_or(false));
        }
        // A whole run's tally merged into an empty one (`napsim merge`) keeps its drops.
        for (i, &dropped) in other.dropped.iter().enumerate() {
            if dropped {
                self.drop_bid(i);
            }
        }
    }
}

/// One bid's play of one world: the declarer's tricks, and the deal's double-dummy value when
/// it was solved (in a misère not played double dummy, at most 1: only whether it is made
/// counts).
#[derive(Clone, Copy, Debug, Default)]
struct Played {
    tricks: u8,
    dd: Option<u8>,
}

/// What an adaptive run has stopped playing: bids (and their calls), and passing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip {
    /// The bids, as a mask (bit `i`: bid `i`): neither played as declarer nor called.
    pub bids: u64,
    /// Passing: not valued in the whole auction.
    pub pass: bool,
}

/// What to do with a world that the conditioning calls keep rejecting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooRare {
    /// Mark the tally [`HandTally::too_rare`] and stop.
    Fail,
    /// Keep the last world drawn anyway (a bot must answer).
    KeepLast,
}

impl HandQuery<'_> {
    /// Evaluates `len` worlds, drawn from `deal_rng` (worlds) and `policy_rng` (the plays and
    /// the assumed bids), allowing `max_draws` deals per kept world.
    pub fn evaluate(
        &self,
        len: u64,
        deal_rng: &mut SimRng,
        policy_rng: &mut SimRng,
        max_draws: u64,
        too_rare: TooRare,
    ) -> HandTally {
        let rngs = (deal_rng, policy_rng);
        self.evaluate_unless(len, rngs, max_draws, too_rare, None, Skip::default())
    }

    /// [`HandQuery::evaluate`], giving up (with the worlds so far) once `abandoned` is set, and
    /// playing nothing of `skip`.
    fn evaluate_unless(
        &self,
        len: u64,
        (deal_rng, policy_rng): (&mut SimRng, &mut SimRng),
        max_draws: u64,
        too_rare: TooRare,
        abandoned: Option<&AtomicBool>,
        skip: Skip,
    ) -> HandTally {
        let dealer = self.dealer();
        let bids = self.profile.bids().len();
        let mut tally = HandTally {
            bids: vec![BidOutcomes::default(); bids],
            pairs: vec![0; pair_count(bids)],
            played: vec![0; bids],
            auction: self.auction.then(|| AuctionTally::new(bids)),
            ..HandTally::default()
        };
        // The calls valued in the whole auction: the callable ones not skipped.
        let valued = self.callable_calls() & !(u128::from(skip.bids) << 1) & !u128::from(skip.pass);
        let mut played = [Played::default(); MAX_BIDS];
        let mut units = [0; MAX_BIDS];
        // Contracts won by other seats, whose information sets do not come back.
        let unshared = self.auction.then(|| self.play.unshared()).flatten();
        let others_play = unshared.as_deref().unwrap_or(self.play);
        for _ in 0..len {
            if abandoned.is_some_and(|a| a.load(Ordering::Relaxed)) {
                break;
            }
            let mut world = dealer.draw(deal_rng);
            let mut draws = 1;
            let mut before = dealer.before_hand(&world, policy_rng);
            while before.is_none() {
                if draws == max_draws {
                    if too_rare == TooRare::Fail {
                        tally.too_rare = true;
                        return tally;
                    }
                    break;
                }
                world = dealer.draw(deal_rng);
                draws += 1;
                before = dealer.before_hand(&world, policy_rng);
            }
            tally.worlds += 1;
            tally.drawn += draws;
            let seed = next_u64(policy_rng);
            self.play_world(&world, seed, &mut played[..bids], skip.bids);
            for (i, id) in self.profile.bid_ids().enumerate() {
                if !in_mask(skip.bids, i) {
                    units[i] = self.record(id, played[i], &mut tally.bids[i]);
                    tally.played[i] += 1;
                }
            }
            tally.add_pairs(&units[..bids], skip.bids);
            if let Some(auction) = &mut tally.auction {
                // A world kept though the earlier calls rejected it: those seats call in it.
                let before = before
                    .unwrap_or_else(|| worlds::auction_start(self.profile, self.players, &world));
                let plays = (seed, &played[..bids]);
                self.value_calls(before, plays, valued, others_play, auction);
            }
        }
        tally
    }

    /// The worlds of this query.
    pub fn dealer(&self) -> WorldDealer<'_> {
        WorldDealer::new(
            self.profile,
            self.players,
            self.seat,
            self.hand,
            self.after,
            self.others,
        )
    }

    /// Plays `world` (which must hold the hand at its seat) once per bid, every bid's play
    /// drawing from the same stream (`seed`), and adds the outcomes to `outcomes` (one per bid).
    pub fn evaluate_world(&self, world: &World, seed: u64, outcomes: &mut [BidOutcomes]) {
        let mut played = [Played::default(); MAX_BIDS];
        let played = &mut played[..outcomes.len()];
        self.play_world(world, seed, played, 0);
        for ((id, outcome), result) in self.profile.bid_ids().zip(outcomes).zip(played) {
            self.record(id, *result, outcome);
        }
    }

    /// [`HandQuery::evaluate_world`], also valuing every call the hand may make in the whole
    /// auction into `calls` (one world more): `before` is the deal at the hand's turn, the
    /// earlier seats' calls made; other seats' contracts are played by `others_play` (the play
    /// policy's [`unshared`](PlayPolicy::unshared) form, made once by the caller).
    pub fn evaluate_world_with_calls(
        &self,
        world: &World,
        (before, others_play): (DealState, &dyn PlayPolicy),
        seed: u64,
        outcomes: &mut [BidOutcomes],
        calls: &mut AuctionTally,
    ) {
        let bids = outcomes.len();
        let mut played = [Played::default(); MAX_BIDS];
        self.play_world(world, seed, &mut played[..bids], 0);
        for ((id, outcome), result) in self.profile.bid_ids().zip(outcomes).zip(&played) {
            self.record(id, *result, outcome);
        }
        let plays = (seed, &played[..bids]);
        self.value_calls(before, plays, self.callable_calls(), others_play, calls);
    }

    /// Adds one world's result of `bid` to its outcomes; returns the declarer's units.
    fn record(&self, id: BidId, result: Played, outcome: &mut BidOutcomes) -> i64 {
        let bid = self.profile.bid(id);
        let made = bid.is_made(result.tricks);
        let units = bid.declarer_units(made, self.players);
        outcome.made += u64::from(made);
        outcome.dd_made += u64::from(self.dd_column && result.dd.is_some_and(|v| bid.is_made(v)));
        outcome.units += units;
        outcome.units_sq += (units * units) as u128;
        outcome.tricks[result.tricks as usize] += 1;
        units
    }

    /// Plays `world` once per distinct contract of the profile but those of the mask `skip`,
    /// every play drawing from the same stream (`seed`), and writes each bid's result to
    /// `played` (one per bid; a bid skipped is left as it is). A bid's play does not depend on
    /// which others are played.
    fn play_world(&self, world: &World, seed: u64, played: &mut [Played], skip: u64) {
        let table = Uniform {
            bid: &Pass,
            play: self.play,
        };
        // Bids that play alike are played once when the policy looks only at the play rules:
        // the same cards from the same stream, so the same tricks (and double-dummy value).
        let share = self.play.plays_by_rules_only();
        let bids = self.profile.bids();
        // Double-dummy values already found in this world: bids that share their opening rules
        // and the declarer's hand (after any floater exchange) share the value.
        let mut solved: Vec<(Opening, CardSet, u8)> = Vec::new();
        // Every seat plays double dummy: a bid is made when the double-dummy value reaches it
        // (solved, not played out).
        let play_dd = self.play.sees_all_hands().is_some();
        for (i, id) in self.profile.bid_ids().enumerate() {
            let bid = &bids[i];
            if in_mask(skip, i) {
                continue;
            }
            if share && let Some(j) = (0..i).find(|&j| !in_mask(skip, j) && bids[j].plays_like(bid))
            {
                played[i] = played[j];
                continue;
            }
            let mut state = self.declare(world, id);
            let mut rng = SimRng::seed_from_u64(seed);
            settle_contract(&mut state, &table, &mut rng);
            let dd = (self.dd_column || play_dd).then(|| {
                let named = (bid.trump() == TrumpRule::Named)
                    .then(|| state.trump())
                    .flatten();
                let opening = Opening::for_bid(bid, named);
                let own = state.hand(self.seat);
                match solved.iter().find(|(o, h, _)| *o == opening && *h == own) {
                    Some(&(_, _, value)) => value,
                    None => {
                        // Only whether a misère is made counts unless the play is double dummy.
                        let cap = (opening.misere && !play_dd).then_some(1);
                        let value = self.solve_opening(&state, self.seat, &opening, cap);
                        solved.push((opening, own, value));
                        value
                    }
                }
            });
            let tricks = match dd {
                Some(value) if play_dd => value,
                _ => {
                    play_out(&mut state, &table, &mut rng);
                    state.declarer_tricks()
                }
            };
            played[i] = Played { tricks, dd };
        }
    }

    /// The double-dummy value (the tricks of `declarer`) of `state`'s deal with `opening`, or
    /// with a `cap`, the smaller of the value and the cap (cheaper in a misère, whose value is
    /// found from none up).
    fn solve_opening(
        &self,
        state: &DealState,
        declarer: usize,
        opening: &Opening,
        cap: Option<u8>,
    ) -> u8 {
        let mut hands = [CardSet::EMPTY; crate::rules::MAX_PLAYERS];
        for (seat, hand) in hands.iter_mut().enumerate().take(self.players) {
            *hand = state.hand(seat);
        }
        with_thread_solver(self.players, |solver| {
            let hands = &hands[..self.players];
            match cap {
                Some(cap) => solver.best_opening_at_most(hands, declarer, opening, cap),
                None => solver.best_opening(hands, declarer, opening),
            }
        })
    }

    /// The deal of `world` with the hand's seat declaring `bid`.
    fn declare(&self, world: &World, bid: BidId) -> DealState<'_> {
        DealState::declared(
            self.profile,
            &world.hands[..self.players],
            world.floater,
            self.seat,
            bid,
        )
    }

    /// Whether the hand's seat may call `bid` after the earlier calls (all passes when none
    /// are given).
    pub fn callable(&self, bid: BidId) -> bool {
        let hands = [CardSet::EMPTY; crate::rules::MAX_PLAYERS];
        let mut state = DealState::new(self.profile, self.players - 1, &hands[..self.players]);
        for seat in 0..self.seat {
            let call = self.after.get(seat).copied().unwrap_or(Call::Pass);
            if state.call(call).is_err() {
                return false;
            }
        }
        state.check_call(Call::Bid(bid)).is_ok()
    }

    /// Evaluates `worlds` worlds from `seed` on `threads` threads. None when the conditioning
    /// calls turned out too rare to sample ([`MAX_DRAWS_PER_WORLD`]).
    pub fn run(
        &self,
        worlds: u64,
        seed: u64,
        threads: usize,
        progress: &dyn Progress,
    ) -> Result<Option<HandTally>, PoolError> {
        let plan = Plan {
            total: worlds,
            block_size: BLOCK_SIZE,
            seed,
        };
        let tally = sim::run(plan, threads, progress, |block| self.evaluate_block(block))?;
        Ok((!tally.too_rare).then_some(tally))
    }

    /// Evaluates the worlds of one block of a run. A world that needs more than
    /// [`MAX_DRAWS_PER_WORLD`] draws marks the tally `too_rare`; an abandoned block (its run
    /// has stopped) ends early.
    pub fn evaluate_block(&self, block: Block) -> HandTally {
        self.evaluate_block_skipping(block, Skip::default())
    }

    /// [`HandQuery::evaluate_block`], not playing what an adaptive run has dropped (`skip`).
    /// Their counts stay zero.
    pub fn evaluate_block_skipping(&self, mut block: Block, skip: Skip) -> HandTally {
        self.evaluate_unless(
            block.len,
            (&mut block.deal_rng, &mut block.policy_rng),
            MAX_DRAWS_PER_WORLD,
            TooRare::Fail,
            block.abandoned.as_deref(),
            skip,
        )
    }

    /// Of `tries` deals drawn from `seed`'s pilot stream (apart from the run's), how many the
    /// conditioning calls keep: a quick check that they are not impossible or too rare.
    pub fn pilot(&self, tries: u64, seed: u64) -> u64 {
        let (mut deal_rng, mut policy_rng) = crate::rng::block_streams(seed, u64::MAX);
        let dealer = self.dealer();
        (0..tries)
            .filter(|_| dealer.accepts(&dealer.draw(&mut deal_rng), &mut policy_rng))
            .count() as u64
    }
}

/// One bid's result.
#[derive(Clone, Debug, PartialEq)]
pub struct BidSummary {
    /// The bid.
    pub id: BidId,
    /// Tricks needed (0 for misère).
    pub tricks_needed: u8,
    /// Whether the hand's seat may call it after the earlier calls.
    pub callable: bool,
    /// P(make).
    pub p_make: f64,
    /// Its 95% Wilson interval.
    pub ci95: (f64, f64),
    /// The declarer's expected units per deal if it bids it.
    pub ev: f64,
    /// The standard error of `ev`.
    pub ev_se: f64,
    /// The P(make) at which the bid breaks even.
    pub breakeven: f64,
    /// The double-dummy P(make), when counted.
    pub dd_p_make: Option<f64>,
    /// The worlds it was played in: all of them, unless an adaptive run dropped it.
    pub worlds: u64,
    /// Whether an adaptive run dropped it, as trailing the best call (it is then never
    /// recommended).
    pub dropped: bool,
}

/// The evaluation's result.
#[derive(Clone, Debug, PartialEq)]
pub struct HandSummary {
    /// Worlds evaluated.
    pub worlds: u64,
    /// Deals drawn to keep them.
    pub worlds_drawn: u64,
    /// The distribution of the declarer's tricks (P of 0 to 5) in the play of its best
    /// callable trick-taking bid (the highest expected units; ties to the lower bid).
    pub tricks: [f64; HAND_SIZE + 1],
    /// One entry per bid of the profile, lowest first.
    pub bids: Vec<BidSummary>,
    /// The recommended call (None: pass): the call worth the most in the whole auction when
    /// the calls were valued there, else the declarer view's choice.
    pub recommended: Option<BidId>,
    /// The declarer view's choice: the callable bid with the highest expected units as
    /// declarer, or None (pass) when none is positive.
    pub declarer_recommended: Option<BidId>,
    /// Every call the hand may make, passing first, valued in the whole auction (empty when
    /// not asked: [`HandQuery::auction`]).
    pub calls: Vec<CallSummary>,
}

/// One call's value in the whole auction.
#[derive(Clone, Debug, PartialEq)]
pub struct CallSummary {
    /// The call.
    pub call: Call,
    /// The hand's expected units from the whole deal if it makes this call.
    pub auction_ev: f64,
    /// The standard error of `auction_ev`.
    pub auction_ev_se: f64,
    /// Whether this is the call worth the most units (the best, that `diff_best` compares
    /// against).
    pub is_best: bool,
    /// `auction_ev` less the best call's (0 for the best), compared world by world.
    pub diff_best: f64,
    /// The standard error of `diff_best` (paired; unpaired for a call dropped before the end,
    /// which was not valued in the same worlds).
    pub diff_best_se: f64,
    /// The chance that the call ends the auction as the contract (passing: that every seat
    /// passes and the deal is passed out).
    pub p_contract: f64,
    /// The worlds it was valued in.
    pub worlds: u64,
    /// Whether an adaptive run dropped it, as trailing the best call.
    pub dropped: bool,
    /// With a session ([`HandQuery::session`]): the chance of winning the session after the
    /// call, and its standard error over the worlds.
    pub win_chance: Option<(f64, f64)>,
}

impl HandSummary {
    /// Whether an adaptive run dropped any bid.
    pub fn any_dropped(&self) -> bool {
        self.bids.iter().any(|b| b.dropped)
    }
}

impl HandQuery<'_> {
    /// Turns the tallies into the per-bid results and the recommendation.
    pub fn summarise(&self, tally: &HandTally) -> HandSummary {
        let n = tally.worlds;
        let bids: Vec<BidSummary> = self
            .profile
            .bid_ids()
            .zip(&tally.bids)
            .map(|(id, t)| {
                let bid = self.profile.bid(id);
                let n = tally.bid_worlds(id.index());
                let (ev, ev_se) = mean_se(n, t.units, t.units_sq).unwrap_or((0.0, 0.0));
                BidSummary {
                    id,
                    tricks_needed: bid.tricks_needed(),
                    callable: self.callable(id),
                    p_make: t.made as f64 / n as f64,
                    ci95: wilson95(t.made, n).unwrap_or((0.0, 1.0)),
                    ev,
                    ev_se,
                    breakeven: bid.breakeven(self.players),
                    dd_p_make: self.dd_column.then(|| t.dd_made as f64 / n as f64),
                    worlds: n,
                    dropped: tally.is_dropped(id.index()),
                }
            })
            .collect();
        let best = |keep: &dyn Fn(&BidSummary) -> bool| {
            bids.iter()
                .filter(|b| keep(b))
                .fold(None::<&BidSummary>, |best, b| match best {
                    Some(x) if x.ev >= b.ev => Some(x),
                    _ => Some(b),
                })
        };
        let recommended = best(&|b| b.callable && !b.dropped && b.ev > 0.0).map(|b| b.id);
        // The best trick-taking bid the seat may call; any trick-taking bid if none may be.
        let trick_bid = |b: &BidSummary| !self.profile.bid(b.id).is_misere();
        let tricks = match best(&|b| trick_bid(b) && b.callable && !b.dropped)
            .or(best(&|b| trick_bid(b) && b.callable))
            .or(best(&trick_bid))
        {
            Some(b) => tally.bids[b.id.index()]
                .tricks
                .map(|count| count as f64 / b.worlds as f64),
            None => [0.0; HAND_SIZE + 1],
        };
        let (calls, best_call) = self.summarise_calls(tally);
        HandSummary {
            worlds: n,
            worlds_drawn: tally.drawn,
            tricks,
            bids,
            recommended: match best_call {
                Some(Call::Bid(id)) => Some(id),
                Some(_) => None,
                None => recommended,
            },
            declarer_recommended: recommended,
            calls,
        }
    }

    /// Every call the hand may make, valued in the whole auction, and the best of them (none
    /// without the auction tally).
    fn summarise_calls(&self, tally: &HandTally) -> (Vec<CallSummary>, Option<Call>) {
        let Some(auction) = &tally.auction else {
            return (Vec::new(), None);
        };
        let callable = self.callable_calls();
        let indices: Vec<usize> = (0..auction.calls.len())
            .filter(|&c| callable >> c & 1 == 1)
            .collect();
        let ev = |c: usize| auction.ev(c).unwrap_or((0.0, 0.0));
        // The best call still valued to the end.
        let still_valued = indices
            .iter()
            .copied()
            .filter(|&c| !tally.is_call_dropped(c));
        let best = auction.best(still_valued).unwrap_or(PASS_INDEX);
        let calls = indices
            .into_iter()
            .map(|c| {
                let (mean, se) = ev(c);
                let (diff, diff_se) = if c == best {
                    (0.0, 0.0)
                } else {
                    auction.paired(c, best).unwrap_or_else(|| {
                        let (b, b_se) = ev(best);
                        (mean - b, se.hypot(b_se))
                    })
                };
                let n = auction.call_worlds(c);
                CallSummary {
                    call: call_at(c),
                    auction_ev: mean,
                    auction_ev_se: se,
                    is_best: c == best,
                    diff_best: diff,
                    diff_best_se: diff_se,
                    p_contract: if n == 0 {
                        0.0
                    } else {
                        auction.calls[c].contract as f64 / n as f64
                    },
                    worlds: n,
                    dropped: tally.is_call_dropped(c),
                    win_chance: auction.win_chance(c),
                }
            })
            .collect();
        (calls, Some(call_at(best)))
    }
}
