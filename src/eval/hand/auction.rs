//! Every call of the hand valued in the whole auction: what passing, or each bid, brings this
//! seat once the seats still to speak have called and the contract has been played.
//!
//! In each world the seats before the hand have made their calls (the given ones, on which the
//! world was kept; or, when none are given, their own calls by the assumed policy), the hand
//! makes the call valued, and the seats after it call with the same policy, each call of the
//! hand facing the same later seats' stream (common random numbers). Whoever wins the auction
//! plays the contract with the play policy: the hand's own contract is the play the declarer
//! view already made of that world, so a call that ends the auction is worth exactly its
//! declarer units; another seat's contract is played from the same play stream and valued at
//! what the hand pays or receives as a defender. Its information sets, unlike the hand's own,
//! come once each, so it is played by the policy as it plays unrepeated deals
//! ([`PlayPolicy::unshared`](crate::policy::PlayPolicy::unshared): the default play's PIMC
//! declarer, whose opening lead the hand's own worlds share, leads the heuristic's card there;
//! deciding it in every world would cost several times the rest of the evaluation). A passed-out deal is worth
//! [`PASSED_OUT_UNITS`]. Units count the bid's payouts only, as the declarer figures do: no
//! kitty, antes, peeks or spare-hand multiplier (the kitty belongs to the session, whose state
//! this evaluator does not see).

use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

use super::{HandQuery, pair_count, pairs_in_order};
use crate::cards::CardSet;
use crate::game::{Call, DealState, Phase};
use crate::policy::{PlayPolicy, Uniform, auction_turn, play_out, settle_contract};
use crate::rng::SimRng;
use crate::rules::{BidId, MAX_BIDS, MAX_PLAYERS, TrumpRule};
use crate::solver::Opening;
use crate::stats::{mean_se, paired_mean_se};

/// The hand's units from a passed-out deal: nothing changes hands but the antes, which every
/// seat pays whatever it calls (and which the declarer figures leave out too).
pub const PASSED_OUT_UNITS: i64 = 0;

/// Mixed into a world's play seed for the stream of the other seats' calls, so that the plays
/// keep the stream the declarer view gives them.
const AUCTION_STREAM: u64 = 0x6175_6374_696f_6e73;

/// The index of passing among the calls: the calls are passing, then each bid of the profile.
pub const PASS_INDEX: usize = 0;

/// The index of a bid among the calls.
pub fn call_index(bid: BidId) -> usize {
    bid.index() + 1
}

/// The call at `index` among the calls.
pub fn call_at(index: usize) -> Call {
    match index {
        PASS_INDEX => Call::Pass,
        i => Call::Bid(BidId((i - 1) as u8)),
    }
}

/// How one call fared in the whole auction. Stored in files as `[contract, units, units_sq]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "CallRepr", into = "CallRepr")]
pub struct CallOutcomes {
    /// Worlds in which the call ended the auction as the contract (passing: every seat passed).
    pub contract: u64,
    /// The hand's units from the whole deal, summed.
    pub units: i64,
    /// The hand's units, squared and summed.
    pub units_sq: u128,
}

/// [`CallOutcomes`] as a JSON array.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct CallRepr(u64, i64, u128);

impl From<CallRepr> for CallOutcomes {
    fn from(CallRepr(contract, units, units_sq): CallRepr) -> CallOutcomes {
        CallOutcomes {
            contract,
            units,
            units_sq,
        }
    }
}

impl From<CallOutcomes> for CallRepr {
    fn from(c: CallOutcomes) -> CallRepr {
        CallRepr(c.contract, c.units, c.units_sq)
    }
}

impl CallOutcomes {
    fn add(&mut self, other: &CallOutcomes) {
        self.contract += other.contract;
        self.units += other.units;
        self.units_sq += other.units_sq;
    }
}

/// The integer tallies of the calls in the whole auction.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuctionTally {
    /// One entry per call: passing, then each bid of the profile, lowest first (a bid the hand
    /// may not call stays empty).
    pub calls: Vec<CallOutcomes>,
    /// The hand's units of two calls multiplied world by world and summed, one entry per pair
    /// of calls in the order of the declarer tally's pairs: the paired comparison of calls.
    pub pairs: Vec<i128>,
    /// Worlds in which each call was valued.
    pub played: Vec<u64>,
    /// Whether an adaptive run stopped valuing passing (a dropped bid's call stops with it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pass_dropped: bool,
    /// With a session ([`HandQuery::session`]), one entry per call: the chance of winning the
    /// session after it, in [`CHANCE_SCALE`]ths (integers, so that sums do not depend on the
    /// order of merging), summed and squared-summed over the worlds valued. Empty without one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wins: Vec<(u64, u128)>,
}

/// The unit of a tallied chance of winning: 2^-24 (a chance is rounded to it).
pub const CHANCE_SCALE: f64 = (1u64 << 24) as f64;

impl AuctionTally {
    /// An empty tally for the calls of a profile of `bids` bids.
    pub fn new(bids: usize) -> AuctionTally {
        let calls = bids + 1;
        AuctionTally {
            calls: vec![CallOutcomes::default(); calls],
            pairs: vec![0; pair_count(calls)],
            played: vec![0; calls],
            pass_dropped: false,
            wins: Vec::new(),
        }
    }

    /// Adds one world's values of the calls valued (`valued`: a mask of call indices), and,
    /// with a session, each call's chance of winning it.
    pub(super) fn add_world(
        &mut self,
        (units, contract): (&[i64], &[bool]),
        chances: Option<&[f64]>,
        valued: u128,
    ) {
        let is_valued = |c: usize| valued >> c & 1 == 1;
        if let Some(chances) = chances {
            self.wins.resize(self.calls.len(), (0, 0));
            for (c, (sum, sum_sq)) in self.wins.iter_mut().enumerate() {
                if is_valued(c) {
                    let q = (chances[c] * CHANCE_SCALE).round() as u64;
                    *sum += q;
                    *sum_sq += u128::from(q) * u128::from(q);
                }
            }
        }
        for (c, outcome) in self.calls.iter_mut().enumerate() {
            if is_valued(c) {
                let u = units[c];
                outcome.units += u;
                outcome.units_sq += (u * u) as u128;
                outcome.contract += u64::from(contract[c]);
                self.played[c] += 1;
            }
        }
        for (k, (i, j)) in pairs_in_order(self.calls.len()).enumerate() {
            if is_valued(i) && is_valued(j) {
                self.pairs[k] += i128::from(units[i]) * i128::from(units[j]);
            }
        }
    }

    /// Adds `other`'s counts, leaving the calls `dropped` says are dropped as they were.
    pub fn merge(&mut self, other: &AuctionTally, dropped: impl Fn(usize) -> bool) {
        let calls = self.calls.len().max(other.calls.len());
        self.calls.resize(calls, CallOutcomes::default());
        self.played.resize(calls, 0);
        self.pairs.resize(pair_count(calls), 0);
        for (c, (outcome, played)) in other.calls.iter().zip(&other.played).enumerate() {
            if !dropped(c) {
                self.calls[c].add(outcome);
                self.played[c] += played;
            }
        }
        let sums = self.pairs.iter_mut().zip(&other.pairs);
        for ((i, j), (sum, more)) in pairs_in_order(calls).zip(sums) {
            if !dropped(i) && !dropped(j) {
                *sum += more;
            }
        }
        self.pass_dropped |= other.pass_dropped;
        if !other.wins.is_empty() {
            // A consistent part has one entry per call (`is_consistent`), so none is lost here.
            self.wins.resize(calls.max(other.wins.len()), (0, 0));
            for (c, (sum, sum_sq)) in other.wins.iter().enumerate() {
                if !dropped(c) {
                    self.wins[c].0 += sum;
                    self.wins[c].1 += sum_sq;
                }
            }
        }
    }

    /// Whether the counts are those of `worlds` worlds of a profile of `bids` bids: one entry
    /// per call, no call valued in more worlds than there were or contracted more often than
    /// valued.
    pub fn is_consistent(&self, bids: usize, worlds: u64) -> bool {
        let calls = bids + 1;
        self.calls.len() == calls
            && self.played.len() == calls
            && self.pairs.len() == pair_count(calls)
            && (self.wins.is_empty() || self.wins.len() == calls)
            && self
                .calls
                .iter()
                .zip(&self.played)
                .all(|(c, &n)| n <= worlds && c.contract <= n)
    }

    /// The worlds in which call `index` was valued.
    pub fn call_worlds(&self, index: usize) -> u64 {
        self.played.get(index).copied().unwrap_or(0)
    }

    /// The mean and standard error of call `a`'s units less call `b`'s, world by world (`None`
    /// without worlds, or when the two were not valued in the same worlds).
    pub fn paired(&self, a: usize, b: usize) -> Option<(f64, f64)> {
        let (i, j) = (a.min(b), a.max(b));
        let n = self.call_worlds(a);
        if n != self.call_worlds(b) {
            return None;
        }
        if i == j {
            return mean_se(n, 0, 0);
        }
        let (x, y) = (self.calls.get(a)?, self.calls.get(b)?);
        let cross = self.cross(a, b)?;
        paired_mean_se(n, (x.units, x.units_sq), (y.units, y.units_sq), cross)
    }

    /// Of the calls `candidates`, the one with the highest mean units (ties to the earlier
    /// call; a call never valued counts as the lowest): None without candidates.
    pub fn best(&self, candidates: impl IntoIterator<Item = usize>) -> Option<usize> {
        let ev = |c: usize| self.ev(c).map_or(f64::NEG_INFINITY, |(mean, _)| mean);
        candidates.into_iter().fold(None, |best, c| match best {
            Some(b) if ev(b) >= ev(c) => Some(b),
            _ => Some(c),
        })
    }

    /// The units of calls `a` and `b` multiplied world by world and summed (`a != b`).
    pub fn cross(&self, a: usize, b: usize) -> Option<i128> {
        let (i, j) = (a.min(b), a.max(b));
        (i != j && j < self.calls.len())
            .then(|| {
                self.pairs
                    .get(super::pair_index(self.calls.len(), i, j))
                    .copied()
            })
            .flatten()
    }

    /// Call `index`'s chance of winning the session, and its standard error over the worlds
    /// (None without a session or without worlds).
    pub fn win_chance(&self, index: usize) -> Option<(f64, f64)> {
        let &(sum, sum_sq) = self.wins.get(index)?;
        let n = self.call_worlds(index);
        let (mean, se) = mean_se(n, i64::try_from(sum).ok()?, sum_sq)?;
        Some((mean / CHANCE_SCALE, se / CHANCE_SCALE))
    }

    /// Of the calls `candidates`, the one with the highest chance of winning the session (ties
    /// to the one with the higher mean units, then to the earlier call): None without
    /// candidates or without a session.
    pub fn best_chance(&self, candidates: impl IntoIterator<Item = usize>) -> Option<usize> {
        if self.wins.is_empty() {
            return None;
        }
        // Means compared exactly: sum_b / n_b against sum_c / n_c as cross products (a call
        // never valued has no mean and loses to any that was).
        let chance = |c: usize| {
            let sum = self.wins.get(c).map_or(0, |w| w.0);
            (u128::from(sum), u128::from(self.call_worlds(c)))
        };
        let ev = |c: usize| self.ev(c).map_or(f64::NEG_INFINITY, |(mean, _)| mean);
        let keeps = |b: usize, c: usize| {
            let ((sum_b, n_b), (sum_c, n_c)) = (chance(b), chance(c));
            if n_b == 0 || n_c == 0 {
                return n_b > 0 || n_c == 0 && ev(b) >= ev(c);
            }
            match (sum_b * n_c).cmp(&(sum_c * n_b)) {
                std::cmp::Ordering::Equal => ev(b) >= ev(c),
                order => order.is_gt(),
            }
        };
        candidates.into_iter().fold(None, |best, c| match best {
            Some(b) if keeps(b, c) => Some(b),
            _ => Some(c),
        })
    }

    /// Call `index`'s mean units and their standard error.
    pub fn ev(&self, index: usize) -> Option<(f64, f64)> {
        let c = self.calls.get(index)?;
        mean_se(self.call_worlds(index), c.units, c.units_sq)
    }
}

/// A contract another seat won, and the hands it is played from: within a world, the same
/// contract from the same hands plays the same cards when the play policy looks only at the
/// play rules, whatever the hand called before it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct OtherContract {
    declarer: usize,
    /// The first bid of the profile that plays like the contract's.
    like: BidId,
    hands: [CardSet; MAX_PLAYERS],
}

impl HandQuery<'_> {
    /// The calls the hand may make (bit [`call_index`]): passing, and every bid it may call
    /// after the earlier calls (all passes when none are given).
    pub(super) fn callable_calls(&self) -> u128 {
        self.profile
            .bid_ids()
            .filter(|&id| self.callable(id))
            .fold(1 << PASS_INDEX, |mask, id| mask | 1 << call_index(id))
    }

    /// Values the calls of the mask `valued` in one world and adds them to `tally`: `before` is
    /// the world's deal with the earlier calls made that were given (the seats before the hand
    /// that have not called yet call here, by the assumed policy), `seed` the world's play
    /// seed and `played` the declarer view's plays of the world (the bids skipped there are not
    /// in `valued`); other seats' contracts are played by `others_play`.
    pub(super) fn value_calls(
        &self,
        mut before: DealState,
        (seed, played): (u64, &[super::Played]),
        valued: u128,
        others_play: &dyn PlayPolicy,
        tally: &mut AuctionTally,
    ) {
        let mut rng = SimRng::seed_from_u64(seed ^ AUCTION_STREAM);
        while before.to_act() != Some(self.seat) && before.phase() == Phase::Auction {
            auction_turn(&mut before, self.others, &mut rng);
        }
        let calls = played.len() + 1;
        let mut units = [0; MAX_BIDS + 1];
        let mut contract = [false; MAX_BIDS + 1];
        // With a session: each call's chance of winning it, from how the deal ended.
        let mut chances = [0.0; MAX_BIDS + 1];
        let mut others_played: Vec<(OtherContract, u8)> = Vec::new();
        for c in (0..calls).filter(|&c| valued >> c & 1 == 1) {
            let mut state = before.clone();
            let mut later = rng.clone();
            // A bid an earlier seat has outbid (earlier calls not given) becomes a pass.
            let call = Some(call_at(c))
                .filter(|&call| state.check_call(call).is_ok())
                .unwrap_or(Call::Pass);
            state.call(call).expect("a legal call");
            while state.phase() == Phase::Auction {
                auction_turn(&mut state, self.others, &mut later);
            }
            let Some(won) = state.contract() else {
                units[c] = PASSED_OUT_UNITS;
                contract[c] = c == PASS_INDEX;
                if let Some(session) = self.session {
                    chances[c] = session.chance(None);
                }
                continue;
            };
            let bid = self.profile.bid(won.bid);
            contract[c] = won.declarer == self.seat;
            if won.declarer == self.seat {
                let made = bid.is_made(played[won.bid.index()].tricks);
                units[c] = bid.declarer_units(made, self.players);
                if let Some(session) = self.session {
                    chances[c] = session.chance(Some((self.seat, won.bid, made)));
                }
                continue;
            }
            let key = OtherContract {
                declarer: won.declarer,
                like: self
                    .profile
                    .bid_ids()
                    .find(|&id| self.profile.bid(id).plays_like(bid))
                    .unwrap_or(won.bid),
                hands: std::array::from_fn(|s| {
                    if s < self.players {
                        state.hand(s)
                    } else {
                        CardSet::EMPTY
                    }
                }),
            };
            let share = self.play.plays_by_rules_only();
            let tricks = match others_played.iter().find(|(k, _)| share && *k == key) {
                Some(&(_, tricks)) => tricks,
                None => {
                    let tricks = self.play_contract(state, seed, others_play);
                    others_played.push((key, tricks));
                    tricks
                }
            };
            units[c] = bid.defender_units(bid.is_made(tricks));
            if let Some(session) = self.session {
                chances[c] = session.chance(Some((won.declarer, won.bid, bid.is_made(tricks))));
            }
        }
        let session = self.session.map(|_| &chances[..calls]);
        tally.add_world((&units[..calls], &contract[..calls]), session, valued);
    }

    /// Plays another seat's contract from the end of its auction by `play` with the play stream
    /// `seed` (its declarer's choices by the assumed bid policy); returns the declarer's tricks.
    fn play_contract(&self, mut state: DealState, seed: u64, play: &dyn PlayPolicy) -> u8 {
        let table = Uniform {
            bid: self.others,
            play,
        };
        let mut rng = SimRng::seed_from_u64(seed);
        settle_contract(&mut state, &table, &mut rng);
        if play.sees_all_hands().is_some() {
            let contract = state.contract().expect("a contract");
            let bid = self.profile.bid(contract.bid);
            let named = (bid.trump() == TrumpRule::Named)
                .then(|| state.trump())
                .flatten();
            let opening = Opening::for_bid(bid, named);
            return self.solve_opening(&state, contract.declarer, &opening, None);
        }
        play_out(&mut state, &table, &mut rng);
        state.declarer_tricks()
    }
}
