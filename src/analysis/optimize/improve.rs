//! From a phase's tallies to decisions: a round's best responses (which cells change their
//! call), and the exploitability of a strategy (what a finer best response gains on held-out
//! deals).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::tally::{CellId, CellTally, OptimizeTally};
use crate::bots::tuned::{CellKey, Strategy};
use crate::cards::{CardSet, Suit};
use crate::eval::classes::Class;
use crate::eval::hand::{call_at, call_index};
use crate::game::Call;
use crate::stats::mean_se;

/// When a cell changes its call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// The one-sided normal quantile a call's lead must exceed, in standard errors.
    pub z: f64,
    /// Cells reached by fewer hands keep what they have.
    pub min_hands: u64,
}

/// A cell whose call a round changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The cell.
    pub key: CellKey,
    /// Its call before (None: the fallback's).
    pub from: Option<usize>,
    /// Its call now.
    pub to: usize,
    /// Hands that reached it in the round.
    pub hands: u64,
    /// The new call's mean lead over the old per hand, and its standard error.
    pub gain: (f64, f64),
}

impl Rule {
    /// The best legal call of `cell` and its lead over the strategy's call (ties to the call
    /// the strategy made most often there, then to the lower call).
    fn best(cell: &CellTally) -> Option<(usize, f64, f64)> {
        let mut best: Option<(usize, f64, f64, u64)> = None;
        for g in &cell.1 {
            let (gain, se) = cell.gain(g.0 as usize)?;
            let better = match best {
                None => true,
                Some((_, b, _, chosen)) => gain > b || (gain == b && g.1 > chosen),
            };
            if better {
                best = Some((g.0 as usize, gain, se, g.1));
            }
        }
        best.map(|(c, gain, se, _)| (c, gain, se))
    }

    /// The call that `cell`, holding `held` (None: the fallback's calls), takes under the
    /// rule, if it changes: a call with a lead over the strategy's significant at the rule's
    /// level; a cell without a call of its own takes its best call when no call it could hold
    /// does worse than the fallback there.
    pub fn decide(&self, cell: &CellTally, held: Option<usize>) -> Option<(usize, f64, f64)> {
        if cell.hands() < self.min_hands {
            return None;
        }
        let (best, gain, se) = Rule::best(cell)?;
        match held {
            Some(held) if best == held => None,
            Some(_) => (gain > 0.0 && gain > self.z * se).then_some((best, gain, se)),
            None => (gain >= 0.0).then_some((best, gain, se)),
        }
    }

    /// A deviation's call for `cell`: a call with a significant lead over the strategy's.
    pub fn deviate(&self, cell: &CellTally) -> Option<usize> {
        if cell.hands() < self.min_hands {
            return None;
        }
        let (best, gain, se) = Rule::best(cell)?;
        (gain > 0.0 && gain > self.z * se).then_some(best)
    }
}

/// One round's best responses: each cell of the tally decided by `rule` against `strategy`.
/// Returns the new strategy and the cells whose play changes (a cell that takes the one call
/// the fallback always made there takes a call of its own, but plays as before).
pub fn improve(strategy: &Strategy, tally: &OptimizeTally, rule: &Rule) -> (Strategy, Vec<Change>) {
    let mut next = strategy.clone();
    let mut changes = Vec::new();
    for (id, cell) in &tally.cells {
        let key = id.key();
        let held = strategy.cells.get(&key).map(|&c| call_number(c));
        let Some((to, gain, se)) = rule.decide(cell, held) else {
            continue;
        };
        next.cells.insert(key, call_at(to));
        let same_play = held.is_none() && cell.call(to).is_some_and(|g| g.1 == cell.hands());
        if !same_play {
            changes.push(Change {
                key,
                from: held,
                to,
                hands: cell.hands(),
                gain: (gain, se),
            });
        }
    }
    (next, changes)
}

/// A call's number among the calls (passing 0, bid `i` as `i + 1`).
fn call_number(call: Call) -> usize {
    match call {
        Call::Bid(id) => call_index(id),
        _ => 0,
    }
}

/// What one seat gains by its best response, per deal at its position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatGain {
    /// The position.
    pub seat: usize,
    /// Mean units per deal.
    pub mean: f64,
    /// Its standard error.
    pub se: f64,
    /// Cells of the measuring halves at which the best response deviated.
    pub cells: usize,
}

/// A strategy's exploitability: what a player gains by deviating to its own best response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exploitability {
    /// Per position, per deal.
    pub seats: Vec<SeatGain>,
    /// Per session: a player sits at every position `session_deals / players` times.
    pub per_session: f64,
    /// Its standard error: the positions' errors added (a bound that holds whatever their
    /// correlation).
    pub per_session_se: f64,
    /// Held-out deals: each half chooses a best response that the other half measures.
    pub deals: u64,
}

/// A best response chosen on one half of the deals: the call of each exact cell and of each
/// strategy cell at which it deviates.
struct Response {
    exact: HashMap<CellKey, usize>,
    coarse: HashMap<CellKey, usize>,
}

/// The exploitability of `strategy` from an exploitability phase's tally (`tally`: cells by
/// exact class, the deals in two halves). On each half a best response is chosen, and its
/// gain over the strategy measured on the other half (so that no choice is measured on the
/// deals that made it); the two measures are averaged. The best response at a cell: its exact
/// class's best call where the lead over the strategy's call is significant under `rule`,
/// else its strategy class's where that is, else the strategy's own call.
pub fn exploitability(
    strategy: &Strategy,
    tally: &OptimizeTally,
    rule: &Rule,
    session_deals: usize,
) -> Exploitability {
    let coarse_key = |key: CellKey| CellKey {
        class: strategy.class(exact_hand(key.class)),
        ..key
    };
    let half = |h: u8| {
        tally
            .cells
            .range(CellId(h, 0, 0, 0)..CellId(h + 1, 0, 0, 0))
            .map(|(id, cell)| (id.key(), cell))
    };
    let choose = |h: u8| {
        let mut coarse: BTreeMap<CellKey, CellTally> = BTreeMap::new();
        for (key, cell) in half(h) {
            coarse.entry(coarse_key(key)).or_default().add(cell);
        }
        Response {
            exact: half(h)
                .filter_map(|(key, cell)| rule.deviate(cell).map(|c| (key, c)))
                .collect(),
            coarse: coarse
                .iter()
                .filter_map(|(key, cell)| rule.deviate(cell).map(|c| (*key, c)))
                .collect(),
        }
    };
    let players = tally.seats.len();
    // Deal `n` is in half `n % 2`.
    let deals = [tally.deals - tally.deals / 2, tally.deals / 2];
    let mut seats: Vec<SeatGain> = (0..players)
        .map(|seat| SeatGain {
            seat,
            mean: 0.0,
            se: 0.0,
            cells: 0,
        })
        .collect();
    for (chooser, measurer) in [(0u8, 1u8), (1, 0)] {
        let response = choose(chooser);
        let mut sums = vec![(0i64, 0u64); players];
        for (key, cell) in half(measurer) {
            let call = response
                .exact
                .get(&key)
                .or_else(|| response.coarse.get(&coarse_key(key)));
            if let Some(g) = call.and_then(|&c| cell.call(c)) {
                sums[key.seat as usize].0 += g.2;
                sums[key.seat as usize].1 += g.3;
                seats[key.seat as usize].cells += 1;
            }
        }
        for (gain, (sum, sq)) in seats.iter_mut().zip(sums) {
            let n = deals[measurer as usize];
            let (mean, se) = mean_se(n, sum, u128::from(sq)).unwrap_or((0.0, 0.0));
            gain.mean += mean / 2.0;
            gain.se += se / 2.0;
        }
    }
    let per_position = session_deals as f64 / players.max(1) as f64;
    Exploitability {
        per_session: per_position * seats.iter().map(|s| s.mean).sum::<f64>(),
        per_session_se: per_position * seats.iter().map(|s| s.se).sum::<f64>(),
        seats,
        deals: tally.deals,
    }
}

/// A hand of the exact class `class` (its lanes given to the suits in order).
pub fn exact_hand(class: Class) -> CardSet {
    (0..4).fold(CardSet::EMPTY, |hand, i| {
        let lane = (class.0 >> (16 * (3 - i))) as u16;
        hand | CardSet::from_lane(Suit::ALL[i], lane)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::tuned::History;
    use crate::cards::parse_hand;
    use crate::eval::classes::Scheme;

    use super::super::tally::CallGain;

    /// A cell of `hands` hands where call 1 leads the strategy's call 0 by `lead` per hand
    /// with a spread of `spread` units either way.
    fn cell(hands: u64, lead: i64, spread: i64) -> CellTally {
        let half = hands as i64 / 2;
        let sum = lead * hands as i64;
        let sq =
            (half * (lead + spread).pow(2) + (hands as i64 - half) * (lead - spread).pow(2)) as u64;
        CellTally(
            hands,
            vec![CallGain(0, hands, 0, 0), CallGain(1, 0, sum, sq)],
        )
    }

    #[test]
    fn a_cell_changes_only_for_a_significant_lead_on_enough_hands() {
        let rule = Rule {
            z: 3.09,
            min_hands: 200,
        };
        // A lead of 1 with spread 4 on 400 hands: se 0.2, five errors.
        assert_eq!(rule.decide(&cell(400, 1, 4), Some(0)).map(|d| d.0), Some(1));
        // The same lead with spread 40: se 2, not significant.
        assert_eq!(rule.decide(&cell(400, 1, 40), Some(0)), None);
        // Too few hands, however clear.
        assert_eq!(rule.decide(&cell(100, 5, 1), Some(0)), None);
        // The call held already is the best: nothing changes.
        assert_eq!(rule.decide(&cell(400, 1, 4), Some(1)), None);
        // A cell without a call takes its best call when nothing beats the fallback.
        assert_eq!(rule.decide(&cell(400, 1, 40), None).map(|d| d.0), Some(1));
        assert_eq!(rule.decide(&cell(400, -1, 4), None).map(|d| d.0), Some(0));
        assert_eq!(rule.deviate(&cell(400, 1, 40)), None);
        assert_eq!(rule.deviate(&cell(400, 1, 4)), Some(1));
    }

    #[test]
    fn the_exploitability_measures_on_each_half_what_the_other_half_chose() {
        let hand = parse_hand("AS KS 9S 7H 2C", 5).unwrap();
        let key = CellKey {
            seat: 1,
            history: 0,
            class: Scheme::Exact.class(hand),
        };
        let mut tally = OptimizeTally {
            deals: 2000,
            seats: vec![(0, 0); 4],
            ..OptimizeTally::default()
        };
        // Seat 1 reaches the cell in 400 of each half's 1,000 deals, and call 1 leads the
        // strategy's call there by 1 unit a hand (spread 4): 0.4 units per deal.
        tally.cells.insert(CellId::new(0, key), cell(400, 1, 4));
        tally.cells.insert(CellId::new(1, key), cell(400, 1, 4));
        // At seat 2 a lead that half the deals cannot tell from noise: no deviation.
        let noisy = CellKey { seat: 2, ..key };
        tally.cells.insert(CellId::new(0, noisy), cell(400, 1, 60));
        tally.cells.insert(CellId::new(1, noisy), cell(400, -1, 60));
        let strategy = Strategy::empty(4, Scheme::Classes, History::Calls);
        let rule = Rule {
            z: 1.28,
            min_hands: 30,
        };
        let e = exploitability(&strategy, &tally, &rule, 8);
        assert!((e.seats[1].mean - 0.4).abs() < 1e-9, "{:?}", e.seats[1]);
        assert_eq!(e.seats[1].cells, 2);
        assert_eq!((e.seats[2].mean, e.seats[2].cells), (0.0, 0));
        // Eight deals a session, two at each of the four seats.
        assert!((e.per_session - 0.8).abs() < 1e-9);
        assert_eq!(e.deals, 2000);
    }

    #[test]
    fn an_exact_class_gives_back_a_hand_of_it() {
        for text in [
            "AS KS 9S 7H 2C",
            "AH JH TH KC 2D",
            "9S 7S 5H 3D 2C",
            "AS KS QS JS TS",
        ] {
            let hand = parse_hand(text, 5).unwrap();
            let class = Scheme::Exact.class(hand);
            let back = exact_hand(class);
            assert_eq!(Scheme::Exact.class(back), class, "{text}");
            for scheme in [
                Scheme::Classes,
                Scheme::ClassesMisere,
                Scheme::Coarse,
                Scheme::Strength,
            ] {
                assert_eq!(scheme.class(back), scheme.class(hand), "{text}");
            }
        }
    }
}
