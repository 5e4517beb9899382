//! Class-targeted sampling (`bid-table --per-class N`): each shown class's hands drawn
//! directly and uniformly within the class, instead of waiting for random deals to bring them.
//!
//! Every five-card hand of the pack is enumerated once and bucketed by class, which also gives
//! each class's exact share of the hands. A unit of work is one hand of one (seat, class): the
//! class hand is drawn uniformly from its bucket, the rest of the deal uniformly around it
//! ([`WorldDealer`]), and at a later seat the whole sample, class hand included, is drawn again
//! until every earlier seat passes under the opening bidder (the engine's own auction turn).
//! So a row estimates exactly what the same row of an unstratified table does: the hands of the
//! class that reach the seat, all passed.
//!
//! The class's share of the hands reaching a later seat is estimated from the same runs:
//! `exact share x P(the earlier seats pass | the class) / P(the earlier seats pass)`, the first
//! probability from the draws the class needed, the second from one plain random deal per unit
//! whose auction is run as far as it goes.

use std::collections::{BTreeMap, BTreeSet};

use crate::cards::CardSet;
use crate::eval::classes::{Class, Scheme};
use crate::game::Call;
use crate::rules::{HAND_SIZE, MAX_PLAYERS};

/// Draws allowed for one accepted hand before the run gives up on the (seat, class): a
/// class whose earlier seats almost never pass cannot be sampled this way.
pub const MAX_DRAWS_PER_HAND: u64 = 1_000_000;

/// Calls of the earlier seats that a sampled deal must reproduce: all passes.
pub const PASSES: [Call; MAX_PLAYERS] = [Call::Pass; MAX_PLAYERS];

/// Every hand of a pack, bucketed by class.
#[derive(Debug)]
pub struct ClassIndex {
    /// Hands of the pack in all (C(pack, 5)).
    total: u64,
    /// Hands per class.
    counts: BTreeMap<Class, u64>,
    /// The hands of the wanted classes, in enumeration order.
    hands: BTreeMap<Class, Vec<CardSet>>,
}

impl ClassIndex {
    /// Enumerates the hands of `pack` under `scheme`, keeping the hands of the classes for
    /// which `wanted` holds (the counts are kept for every class).
    pub fn build(pack: CardSet, scheme: Scheme, wanted: impl Fn(Class) -> bool) -> ClassIndex {
        let cards: Vec<CardSet> = pack.into_iter().map(|c| c.set()).collect();
        let mut index = ClassIndex {
            total: 0,
            counts: BTreeMap::new(),
            hands: BTreeMap::new(),
        };
        for_each_hand(&cards, |hand| {
            let class = scheme.class(hand);
            index.total += 1;
            *index.counts.entry(class).or_default() += 1;
            if wanted(class) {
                index.hands.entry(class).or_default().push(hand);
            }
        });
        index
    }

    /// Drops the hands of the classes for which `wanted` fails (their counts stay).
    pub fn keep(&mut self, wanted: impl Fn(Class) -> bool) {
        self.hands.retain(|&class, _| wanted(class));
    }

    /// Hands of the pack in all.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Every class some hand of the pack has.
    pub fn classes(&self) -> impl Iterator<Item = Class> + '_ {
        self.counts.keys().copied()
    }

    /// The exact share of `class` among all hands (0 for a class no hand has).
    pub fn share(&self, class: Class) -> f64 {
        self.counts
            .get(&class)
            .map_or(0.0, |&n| n as f64 / self.total as f64)
    }

    /// The hands of a wanted `class` (empty for another).
    pub fn hands(&self, class: Class) -> &[CardSet] {
        self.hands.get(&class).map_or(&[], Vec::as_slice)
    }
}

/// Calls `visit` with every `HAND_SIZE`-card subset of `cards` (each a one-card set), in
/// lexicographic order of positions.
fn for_each_hand(cards: &[CardSet], mut visit: impl FnMut(CardSet)) {
    fn walk(
        cards: &[CardSet],
        from: usize,
        left: usize,
        hand: CardSet,
        visit: &mut dyn FnMut(CardSet),
    ) {
        if left == 0 {
            visit(hand);
            return;
        }
        for i in from..=cards.len() - left {
            walk(cards, i + 1, left - 1, hand | cards[i], visit);
        }
    }
    if cards.len() >= HAND_SIZE {
        walk(cards, 0, HAND_SIZE, CardSet::EMPTY, &mut visit);
    }
}

/// The classes named by a `--classes` file: a bid table's CSV (a header with a `class` column,
/// and a `seat` column when the rows are per seat: its (seat, class) rows), or one class label
/// per line for every seat (blank lines and lines starting with `#` skipped). In file order,
/// repeats kept (they are merged when the pairs are made).
pub fn read_picks(text: &str) -> Result<Vec<(Option<usize>, String)>, String> {
    let first = text.lines().next().unwrap_or("");
    if !first.split(',').any(|field| field.trim() == "class") {
        return Ok(text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(|label| (None, label.to_string()))
            .collect());
    }
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|e| e.to_string())?.clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let class = column("class").expect("the header has a class column");
    let seat = column("seat");
    let mut picks = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| e.to_string())?;
        let seat =
            match seat {
                Some(i) => {
                    let text = record.get(i).unwrap_or("");
                    Some(text.parse::<usize>().map_err(|_| {
                        format!("row {}: seat '{text}' is not a seat number", line + 2)
                    })?)
                }
                None => None,
            };
        picks.push((seat, record.get(class).unwrap_or("").to_string()));
    }
    Ok(picks)
}

/// The (seat, class) pairs a stratified run plays, in order: from `picks` (a seat, or every
/// seat, and a class), each seat's classes in class order.
pub fn pairs(players: usize, picks: &[(Option<usize>, Class)]) -> Vec<(usize, Class)> {
    let mut set = BTreeSet::new();
    for &(seat, class) in picks {
        match seat {
            Some(seat) => {
                set.insert((seat, class));
            }
            None => set.extend((0..players).map(|seat| (seat, class))),
        }
    }
    set.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_hand;
    use crate::rules::Profile;

    #[test]
    fn the_enumeration_holds_every_hand_once_and_counts_classes_exactly() {
        let pack = Profile::builtin("heather-1875").unwrap().pack(4);
        let royal = Scheme::Classes.class(parse_hand("AS KS QS JS TS", 5).unwrap());
        let index = ClassIndex::build(pack, Scheme::Classes, |c| c == royal);
        assert_eq!(index.total(), 2_598_960);
        assert_eq!(index.counts.values().sum::<u64>(), 2_598_960);
        // A-K-Q-J-T of one suit: one hand per suit.
        assert_eq!(index.hands(royal).len(), 4);
        assert_eq!(index.share(royal), 4.0 / 2_598_960.0);
        // Five trumps headed by the ace but none of K Q J T: C(8, 4) hands per suit.
        let ace_high = Scheme::Classes.class(parse_hand("AS 9S 7S 4S 2S", 5).unwrap());
        assert_eq!(index.counts[&ace_high], 4 * 70);
        // A 32-card pack.
        let small = Profile::builtin("peep-nap").unwrap().pack(4);
        let n = u64::from(small.count());
        assert!(n < 52);
        let index = ClassIndex::build(small, Scheme::Exact, |_| false);
        assert_eq!(
            index.total(),
            n * (n - 1) * (n - 2) * (n - 3) * (n - 4) / 120
        );
        assert!(index.hands.is_empty());
    }

    #[test]
    fn picks_come_from_a_bid_table_csv_or_a_list_of_labels() {
        let csv = "profile,seat,class,bid\nx,0,\"4 trumps A-K-x-x, 1 void\",three\nx,2,\"2 trumps x-x\",four\n";
        assert_eq!(
            read_picks(csv).unwrap(),
            vec![
                (Some(0), "4 trumps A-K-x-x, 1 void".to_string()),
                (Some(2), "2 trumps x-x".to_string())
            ]
        );
        let list = "# strong hands\n5 trumps A-K-Q-J-T\n\n4 trumps A-K-x-x, 1 void\n";
        assert_eq!(
            read_picks(list).unwrap(),
            vec![
                (None, "5 trumps A-K-Q-J-T".to_string()),
                (None, "4 trumps A-K-x-x, 1 void".to_string())
            ]
        );
        let bad = "seat,class\nfirst,2 trumps x-x\n";
        assert_eq!(
            read_picks(bad).unwrap_err(),
            "row 2: seat 'first' is not a seat number"
        );
    }

    #[test]
    fn pairs_cover_every_seat_for_a_class_without_one() {
        let (a, b) = (Class(1), Class(2));
        assert_eq!(
            pairs(3, &[(None, b), (Some(1), a), (Some(1), b)]),
            vec![(0, b), (1, a), (1, b), (2, b)]
        );
    }
}
