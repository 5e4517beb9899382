//! One deal valued call by call: for every seat with a call to make, what each of its legal
//! calls brings it when every other seat bids by the current strategy and whoever wins plays
//! the contract.
//!
//! Common random numbers make the comparison of calls paired: a seat's turn draws from a stream
//! of its own (the deal's seed and the seat), whichever calls came before, and a contract is
//! played from a stream of the deal, its declarer and its bid, whichever calls led to it. The
//! same contract from the same cards is therefore played once per deal and remembered, when the
//! play policy promises that its cards depend on the contract's rules only
//! ([`PlayPolicy::plays_by_rules_only`]).

use rand_core::SeedableRng;

use crate::bots::tuned::{CellKey, Tuned};
use crate::cards::CardSet;
use crate::eval::classes::Scheme;
use crate::eval::hand::{PASSED_OUT_UNITS, call_at, call_index};
use crate::game::{Call, DealState, Dealt, Phase};
use crate::policy::{
    BidPolicy, BidView, PlayPolicy, Uniform, auction_turn, play_out, settle_contract,
};
use crate::rng::SimRng;
use crate::rules::{MAX_BIDS, MAX_PLAYERS, Profile};

/// The most calls a seat chooses from: passing and every bid.
pub const MAX_CALLS: usize = MAX_BIDS + 1;

/// Mixed into a deal's seed for the stream of a seat's turns.
const TURN_STREAM: u64 = 0x7475_726e_7321_0001;
/// Mixed into a deal's seed for the stream of a contract's play.
const PLAY_STREAM: u64 = 0x706c_6179_7321_0002;
/// Mixed into a deal's seed for the play of the rating phase's Misères.
const RATING_PLAY_STREAM: u64 = 0x6d69_7365_7265_0004;
/// Mixed into a deal's seed for the purchases (Purchase Nap).
const PURCHASE_STREAM: u64 = 0x6275_7973_2100_0003;

/// A seat's turn with a choice of calls, valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Where the seat stood, its class under the valuer's scheme.
    pub key: CellKey,
    /// The call the strategy made ([`call_index`] numbering).
    pub current: usize,
    /// The calls it could make (bit per call index).
    pub legal: u128,
    /// Each legal call's units for the seat (the others 0).
    pub units: [i64; MAX_CALLS],
}

/// The units every seat took under the strategy, and the turns valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealValues {
    /// Each seat's units (seats beyond the table 0).
    pub units: [i64; MAX_PLAYERS],
    /// The turns with a choice, in speaking order.
    pub turns: Vec<Turn>,
}

/// Values deals' calls against a strategy.
pub struct Valuer<'a> {
    /// The rules.
    pub profile: &'a Profile,
    /// Table size.
    pub players: usize,
    /// Every seat's bidding, the valued seat's included after its call.
    pub strategy: &'a Tuned,
    /// Every seat's play.
    pub play: &'a dyn PlayPolicy,
    /// The classes of the turns' cells.
    pub scheme: Scheme,
}

/// A contract played in a deal, as far as its play depends on it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Played {
    declarer: usize,
    /// The first bid of the profile that plays like the contract's bid.
    like: u8,
    hands: [CardSet; MAX_PLAYERS],
}

impl<'a> Valuer<'a> {
    /// The dealer of every deal: the last seat, so that seat `s` is position `s`.
    pub fn dealer(&self) -> usize {
        self.players - 1
    }

    /// Values the deal `dealt` with the deal's seed `seed`.
    pub fn value(&self, dealt: &Dealt, seed: u64) -> DealValues {
        let profile = self.profile;
        let mut state = self.bought(dealt, seed);
        let mut played: Vec<(Played, u8)> = Vec::new();
        let mut turns = Vec::new();
        while state.phase() == Phase::Auction {
            let seat = state.to_act().expect("a seat to call");
            let mut rng = self.turn_rng(seed, seat);
            if state.can_take_spare() {
                let view = BidView::new(&state);
                if self.strategy.take_spare(&view, &mut rng) {
                    let keep =
                        self.strategy
                            .keep(&view, state.hand(seat) | state.spare(), &mut rng);
                    state
                        .take_spare(keep)
                        .expect("the fallback keeps five cards");
                    continue;
                }
            }
            if state.can_peek() && self.strategy.peek(&BidView::new(&state), &mut rng) {
                state.peek().expect("checked");
            }
            if !state.any_legal_bid() {
                state.call(Call::Pass).expect("passing is legal");
                continue;
            }
            let current = self.strategy.call(&BidView::new(&state), &mut rng);
            let mut turn = Turn {
                key: CellKey {
                    seat: seat as u8,
                    history: self.strategy.strategy().history.code(state.calls()),
                    class: self
                        .scheme
                        .class_with(state.hand(seat), self.strategy.strategy().rating.as_ref()),
                },
                current: index_of(current),
                legal: 0,
                units: [0; MAX_CALLS],
            };
            for c in 0..=profile.bids().len() {
                let call = call_at(c);
                if state.check_call(call).is_err() {
                    continue;
                }
                turn.legal |= 1 << c;
                let mut after = state.clone();
                after.call(call).expect("checked");
                self.finish_auction(&mut after, seed);
                turn.units[c] = self.units(seat, after, seed, &mut played);
            }
            turns.push(turn);
            state.call(current).expect("the strategy calls legally");
        }
        let mut units = [0; MAX_PLAYERS];
        for (seat, u) in units.iter_mut().enumerate().take(self.players) {
            *u = self.units(seat, state.clone(), seed, &mut played);
        }
        DealValues { units, turns }
    }

    /// The Misères of the deal `dealt` with the deal's seed `seed`: each seat in turn declares
    /// `misere` while every other seat passes, and plays it out; per seat whose Misère stood, its
    /// hand and whether the Misère was made.
    pub fn misere_outcomes(
        &self,
        dealt: &Dealt,
        seed: u64,
        misere: crate::rules::BidId,
    ) -> Vec<(CardSet, bool)> {
        let profile = self.profile;
        let mut outcomes = Vec::with_capacity(self.players);
        for declarer in 0..self.players {
            let mut state = self.bought(dealt, seed);
            let hand = state.hand(declarer);
            while state.phase() == Phase::Auction {
                let seat = state.to_act().expect("a seat to call");
                let call = if seat == declarer {
                    Call::Bid(misere)
                } else {
                    Call::Pass
                };
                if state.call(call).is_err() {
                    break;
                }
            }
            let stood = state
                .contract()
                .is_some_and(|c| c.declarer == declarer && c.bid == misere);
            if state.phase() == Phase::Auction || !stood {
                continue;
            }
            let stream = RATING_PLAY_STREAM.wrapping_mul(declarer as u64 + 1);
            let tricks = self.play_contract(&mut state, seed ^ stream);
            outcomes.push((hand, profile.bid(misere).is_made(tricks)));
        }
        outcomes
    }

    /// The deal `dealt` at the start of its auction: any purchases (Purchase Nap) made by the
    /// strategy from the deal's purchase stream.
    fn bought<'p>(&self, dealt: &Dealt, seed: u64) -> DealState<'p>
    where
        'a: 'p,
    {
        let mut state = DealState::from_dealt(self.profile, self.dealer(), dealt, self.players);
        let mut rng = SimRng::seed_from_u64(seed ^ PURCHASE_STREAM);
        while state.phase() == Phase::Purchase {
            let discard = self.strategy.purchase(&BidView::new(&state), &mut rng);
            state.purchase(discard).expect("the fallback buys legally");
        }
        state
    }

    /// Plays out the contract of `state`, whose auction is over, from the stream `seed`; the
    /// declarer's tricks.
    fn play_contract(&self, state: &mut DealState, seed: u64) -> u8 {
        let mut rng = SimRng::seed_from_u64(seed);
        let table = Uniform {
            bid: self.strategy,
            play: self.play,
        };
        settle_contract(state, &table, &mut rng);
        play_out(state, &table, &mut rng);
        state.declarer_tricks()
    }

    /// The stream of `seat`'s turns in the deal of `seed`.
    fn turn_rng(&self, seed: u64, seat: usize) -> SimRng {
        SimRng::seed_from_u64(seed ^ TURN_STREAM.wrapping_mul(seat as u64 + 1))
    }

    /// The rest of the auction, every seat by the strategy.
    fn finish_auction(&self, state: &mut DealState, seed: u64) {
        while state.phase() == Phase::Auction {
            let seat = state.to_act().expect("a seat to call");
            auction_turn(state, self.strategy, &mut self.turn_rng(seed, seat));
        }
    }

    /// `seat`'s units once the auction of `state` is over: the contract played (or taken from
    /// `played`, the contracts of this deal already played).
    fn units(
        &self,
        seat: usize,
        mut state: DealState,
        seed: u64,
        played: &mut Vec<(Played, u8)>,
    ) -> i64 {
        let Some(won) = state.contract() else {
            return PASSED_OUT_UNITS;
        };
        let profile = self.profile;
        let bid = profile.bid(won.bid);
        let like = profile
            .bid_ids()
            .find(|&id| profile.bid(id).plays_like(bid))
            .unwrap_or(won.bid);
        let key = Played {
            declarer: won.declarer,
            like: like.0,
            hands: std::array::from_fn(|s| {
                if s < self.players {
                    state.hand(s)
                } else {
                    CardSet::EMPTY
                }
            }),
        };
        // A peek is not in the hands: where a floater lies, every contract is played anew.
        let remember = self.play.plays_by_rules_only() && state.floater().is_none();
        let known = played.iter().find(|(k, _)| remember && *k == key);
        let tricks = match known {
            Some(&(_, tricks)) => tricks,
            None => {
                let stream = PLAY_STREAM
                    .wrapping_mul(won.declarer as u64 + 1)
                    .rotate_left(17)
                    ^ u64::from(like.0 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let tricks = self.play_contract(&mut state, seed ^ stream);
                if remember {
                    played.push((key, tricks));
                }
                tricks
            }
        };
        let made = bid.is_made(tricks);
        if won.declarer == seat {
            bid.declarer_units(made, self.players)
        } else {
            bid.defender_units(made)
        }
    }
}

/// A strategy's call as a call index (a strategy never takes the spare hand as its call).
fn index_of(call: Call) -> usize {
    match call {
        Call::Bid(id) => call_index(id),
        _ => crate::eval::hand::PASS_INDEX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::tuned::{History, Strategy};
    use crate::eval::hand::PASS_INDEX;

    /// Every deal balances, every turn's valued calls include the strategy's own, whose value
    /// is what the seat took in the deal, and the earlier calls are the strategy's.
    #[test]
    fn a_deal_balances_and_values_the_strategy_s_own_call_as_played() {
        for (name, players) in [("heather-1875", 4), ("pub-guide", 3), ("sir-garnet", 4)] {
            let profile = crate::rules::load_profile(name).unwrap();
            let strategy = Tuned::new(
                Strategy::empty(players, Scheme::Classes, History::Calls),
                &profile,
            );
            let play = crate::bots::play_policy("heuristic", &profile).unwrap();
            let valuer = Valuer {
                profile: &profile,
                players,
                strategy: &strategy,
                play: play.as_ref(),
                scheme: Scheme::Classes,
            };
            let mut shuffler = crate::game::Shuffler::new(&profile, players);
            let mut rng = crate::rng::base_rng(11);
            let mut turns = 0;
            for deal in 0..300u64 {
                shuffler.reset();
                let dealt = shuffler.deal(valuer.dealer(), &mut rng);
                let values = valuer.value(&dealt, deal);
                assert_eq!(values.units.iter().sum::<i64>(), 0, "{name} deal {deal}");
                assert_eq!(
                    values,
                    valuer.value(&dealt, deal),
                    "the same deal, the same values"
                );
                for turn in &values.turns {
                    turns += 1;
                    let seat = turn.key.seat as usize;
                    assert!(turn.legal >> PASS_INDEX & 1 == 1, "passing is always legal");
                    assert!(turn.legal >> turn.current & 1 == 1);
                    assert_eq!(
                        turn.units[turn.current], values.units[seat],
                        "{name} {deal}"
                    );
                    let hand_class = Scheme::Classes.class(dealt.hands[seat]);
                    if name != "sir-garnet" {
                        assert_eq!(turn.key.class, hand_class);
                    }
                }
            }
            assert!(turns > 300, "{name}: the seats had calls to choose");
        }
    }
}
