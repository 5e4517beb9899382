//! Dealing: the pack, the shuffle, the cut and the rounds of the deal.
//!
//! With a fresh shuffle every deal ([`crate::rules::Shuffle::EveryDeal`]) the physical process
//! (shuffle the whole pack, cut it, give each seat three cards then two from the dealer's left)
//! hands out a uniformly random ordered selection of the pack's cards: cutting a uniformly
//! shuffled pack leaves it uniformly shuffled. [`Shuffler`] therefore draws just the cards that
//! are dealt, by a partial Fisher-Yates shuffle, and gives them out in the order of the rounds.
//! This is the same distribution at a fraction of the cost (no draw for the cut, none for the
//! cards that stay in the stock).

use super::state::DealState;

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::rng::{SimRng, below};
use crate::rules::{Gather, HAND_SIZE, MAX_PLAYERS, Profile, Shuffle};

/// The marker for a position of the deal that goes to the spare hand (also its slot among the
/// sets a deal fills, after the seats').
const SPARE: u8 = MAX_PLAYERS as u8;
/// The marker for the position of the deal that is the floater (and its slot).
const FLOATER: u8 = MAX_PLAYERS as u8 + 1;
/// The most cards a pack holds.
const PACK_MAX: usize = 52;
/// Room for the pack: a power of two, so that a masked index needs no bounds check.
const PACK_SLOTS: usize = 64;

/// The hands of one deal and the undealt stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dealt {
    /// One hand per seat (seats beyond the table size are empty).
    pub hands: [CardSet; MAX_PLAYERS],
    /// The cards nobody received (the spare hand apart).
    pub stock: CardSet,
    /// The spare hand dealt face down, for profiles that have one (else empty).
    pub spare: CardSet,
    /// The stock in order, top card first, for profiles that draw from it (Purchase Nap);
    /// empty otherwise.
    pub stock_order: StockOrder,
    /// The floater dealt face down (Peep Nap).
    pub floater: Option<Card>,
}

/// The most cards a stock can hold: a 52-card pack less three hands of five.
pub const STOCK_MAX: usize = 37;

/// An ordered stock, top card first (a fixed array, so dealing allocates nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StockOrder {
    cards: [Card; STOCK_MAX],
    len: u8,
}

impl StockOrder {
    /// No stock.
    pub const EMPTY: StockOrder = StockOrder {
        cards: [Card::new(crate::cards::Rank::Two, crate::cards::Suit::Clubs); STOCK_MAX],
        len: 0,
    };

    /// A stock of `cards`, top first (at most [`STOCK_MAX`]).
    pub fn from_slice(cards: &[Card]) -> StockOrder {
        let mut stock = StockOrder::EMPTY;
        let len = cards.len().min(STOCK_MAX);
        stock.cards[..len].copy_from_slice(&cards[..len]);
        stock.len = len as u8;
        stock
    }

    /// The cards, top first.
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl Dealt {
    /// The hands of the seats at a table of `players`.
    pub fn hands(&self, players: usize) -> &[CardSet] {
        &self.hands[..players]
    }
}

/// Deals hands from a profile's pack, allocation-free per deal.
///
/// With [`Shuffle::EveryDeal`] it draws the dealt cards by a partial Fisher-Yates shuffle (see
/// the module docs). With [`Shuffle::Limited`] it keeps the physical order of the whole pack:
/// [`Shuffler::collect`] gathers a finished deal's cards as the profile's [`Gather`] model says
/// (or marks the pack for a shuffle), and the next [`Shuffler::deal`] shuffles if due, cuts and
/// deals from the top.
#[derive(Clone, Debug)]
pub struct Shuffler {
    /// The pack, top card first, in the first `len` entries (with every-deal shuffling, only a
    /// permutation to draw from).
    pack: [Card; PACK_SLOTS],
    len: usize,
    scratch: Vec<Card>,
    pack_set: CardSet,
    players: usize,
    /// For each position in dealing order, the seat offset from the dealer's left (or
    /// [`SPARE`], [`FLOATER`]).
    order: Vec<u8>,
    /// Per dealer, for each position in dealing order, the slot it goes to: the seat, or
    /// [`SPARE`], [`FLOATER`] (`order` resolved once, so dealing a card needs no branch).
    targets: Vec<[u8; PACK_MAX]>,
    shuffle: Shuffle,
    /// The fewest cards in each packet of the cut, when the pack is cut.
    cut: Option<usize>,
    /// Whether the next deal starts with a full shuffle (limited shuffling).
    due: bool,
    /// Whether deals must carry the stock's order (players draw from it).
    ordered_stock: bool,
}

impl Shuffler {
    /// A shuffler for `profile` at a table of `players` (already checked against the profile),
    /// starting from a fresh shuffle.
    pub fn new(profile: &Profile, players: usize) -> Shuffler {
        let pack_set = profile.pack(players);
        let mut order = Vec::with_capacity(players * HAND_SIZE);
        // A spare hand is dealt like one more seat, after the dealer, in every round.
        let seats = players + usize::from(profile.spare_hand().is_some());
        for &batch in profile.batches() {
            for seat in 0..seats {
                for _ in 0..batch {
                    order.push(if seat < players { seat as u8 } else { SPARE });
                }
            }
        }
        // The floater is dealt face down after the hands.
        if profile.has_floater() {
            order.push(FLOATER);
        }
        let targets = (0..players)
            .map(|dealer| {
                let mut row = [0; PACK_MAX];
                for (slot, &offset) in row.iter_mut().zip(&order) {
                    *slot = if offset < SPARE {
                        ((dealer + 1 + offset as usize) % players) as u8
                    } else {
                        offset
                    };
                }
                row
            })
            .collect();
        Shuffler {
            targets,
            pack: {
                let mut pack = [Card::new(Rank::Two, Suit::Clubs); PACK_SLOTS];
                for (slot, card) in pack.iter_mut().zip(pack_set) {
                    *slot = card;
                }
                pack
            },
            len: pack_set.count() as usize,
            scratch: Vec::with_capacity(pack_set.count() as usize),
            pack_set,
            players,
            order,
            shuffle: profile.shuffle(),
            cut: profile.cut().then(|| profile.min_cut_packet()),
            due: true,
            ordered_stock: profile.purchase_stake().is_some(),
        }
    }

    /// The pack in use.
    pub fn pack(&self) -> CardSet {
        self.pack_set
    }

    /// The pack's order, top card first (meaningful with limited shuffling).
    pub fn order(&self) -> &[Card] {
        &self.pack[..self.len]
    }

    /// Makes the next deal start from a fresh shuffle (a new session).
    pub fn reset(&mut self) {
        self.due = true;
    }

    /// Deals one deal with `dealer` dealing: the first card goes to the dealer's left.
    #[inline]
    pub fn deal(&mut self, dealer: usize, rng: &mut SimRng) -> Dealt {
        let len = self.len;
        let limited = matches!(self.shuffle, Shuffle::Limited { .. });
        if limited {
            if self.due {
                for i in 0..len - 1 {
                    let j = i + below(rng, (len - i) as u64) as usize;
                    self.pack[..len].swap(i, j);
                }
                self.due = false;
            }
            if let Some(min) = self.cut {
                // The top packet of `c` cards goes to the bottom.
                let c = min + below(rng, (len + 1 - 2 * min) as u64) as usize;
                self.pack[..len].rotate_left(c);
            }
        }
        // One set per seat, then the spare hand and the floater: each position of the deal
        // goes to its slot without a branch.
        let mut slots = [CardSet::EMPTY; 16];
        let targets = &self.targets[dealer][..self.order.len()];
        let pack = &mut self.pack;
        for (i, &target) in targets.iter().enumerate() {
            // i < j < len <= 52: the masks only spare the bounds checks.
            let card = if limited {
                pack[i % PACK_SLOTS]
            } else {
                let j = i + below(rng, (len - i) as u64) as usize;
                // The swap written out so that the card dealt is the one read from `j` (also
                // when `i == j`): reading it back from `i` after the two stores made every
                // deal wait on the store to `j` (measured 3% of a deal).
                let (top, drawn) = (pack[i % PACK_SLOTS], pack[j % PACK_SLOTS]);
                pack[j % PACK_SLOTS] = top;
                pack[i % PACK_SLOTS] = drawn;
                drawn
            };
            slots[target as usize % slots.len()].insert(card);
        }
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        hands.copy_from_slice(&slots[..MAX_PLAYERS]);
        let spare = slots[SPARE as usize];
        let floater = slots[FLOATER as usize].first();
        let dealt = slots.iter().fold(CardSet::EMPTY, |all, &set| all | set);
        let mut stock_order = StockOrder::EMPTY;
        if self.ordered_stock {
            let start = self.order.len();
            if !limited {
                for i in start..len.saturating_sub(1) {
                    let j = i + below(rng, (len - i) as u64) as usize;
                    self.pack[..len].swap(i, j);
                }
            }
            stock_order = StockOrder::from_slice(&self.pack[start..len]);
        }
        Dealt {
            hands,
            stock: self.pack_set - dealt,
            spare,
            stock_order,
            floater,
        }
    }

    /// A deal around fixed `hands` (seat 0 first): the rest of the pack is the stock, from which
    /// a spare hand, where the profile has one, is drawn at random.
    pub fn around(&self, hands: &[CardSet], rng: &mut SimRng) -> Dealt {
        let mut dealt = Dealt {
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            stock: self.pack_set,
            spare: CardSet::EMPTY,
            stock_order: StockOrder::EMPTY,
            floater: None,
        };
        for (seat, &hand) in hands.iter().enumerate() {
            dealt.hands[seat] = hand;
            dealt.stock -= hand;
        }
        if self.order.contains(&SPARE) {
            let mut rest = dealt.stock.to_vec();
            for i in 0..HAND_SIZE.min(rest.len()) {
                let j = i + below(rng, (rest.len() - i) as u64) as usize;
                rest.swap(i, j);
                dealt.spare.insert(rest[i]);
            }
            dealt.stock -= dealt.spare;
        }
        if self.order.contains(&FLOATER) {
            let rest = dealt.stock.to_vec();
            let card = rest[below(rng, rest.len() as u64) as usize];
            dealt.floater = Some(card);
            dealt.stock.remove(card);
        }
        if self.ordered_stock {
            let mut rest = dealt.stock.to_vec();
            for i in 0..rest.len().saturating_sub(1) {
                let j = i + below(rng, (rest.len() - i) as u64) as usize;
                rest.swap(i, j);
            }
            dealt.stock_order = StockOrder::from_slice(&rest);
        }
        dealt
    }

    /// Gathers the cards of the finished deal `state` (dealt by this shuffler) for the next
    /// deal, or marks the pack for a shuffle, as the profile's limited shuffling says. Does
    /// nothing with a shuffle every deal.
    pub fn collect(&mut self, state: &DealState) {
        let Shuffle::Limited {
            gather,
            after_made,
            after_all_pass,
        } = self.shuffle
        else {
            return;
        };
        let reshuffle = match state.contract() {
            None => after_all_pass,
            Some(c) => state.made() == Some(true) && after_made.is_some_and(|m| c.bid >= m),
        };
        if reshuffle {
            self.due = true;
            return;
        }
        // The tricks, then the cards still in hand; the rest (the stock, and any cards set
        // aside such as an unused spare hand) keeps its previous order.
        let mut table: CardSet = state.played();
        self.scratch.clear();
        self.scratch.extend_from_slice(state.history());
        for i in 0..self.players {
            let seat = (state.dealer() + 1 + i) % self.players;
            self.scratch.extend(state.hand(seat));
            table |= state.hand(seat);
        }
        let tricks_len = self.scratch.len();
        self.scratch.extend(
            self.pack[..self.len]
                .iter()
                .copied()
                .filter(|c| !table.contains(*c)),
        );
        if gather == Gather::StockThenTricks {
            self.scratch.rotate_left(tricks_len);
        }
        debug_assert_eq!(self.scratch.len(), self.len);
        self.pack[..self.len].copy_from_slice(&self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::base_rng;

    #[test]
    fn limited_shuffling_gathers_and_cuts_without_losing_cards() {
        let text = Profile::default_profile().toml().replace(
            "shuffle = \"every-deal\"",
            "shuffle = \"limited\"\ngather = \"tricks-then-stock\"\nreshuffle_after_made = \"nap\"",
        );
        let profile = Profile::from_toml(&text, "test").unwrap();
        let mut s = Shuffler::new(&profile, 4);
        let mut rng = base_rng(9);
        for dealer in [0, 1, 2, 3, 0, 1] {
            let d = s.deal(dealer, &mut rng);
            let state = DealState::new(&profile, dealer, d.hands(4));
            // Passed out (no calls made yet counts as unfinished; gather the hands).
            s.collect(&state);
            let order: CardSet = s.order().iter().copied().collect();
            assert_eq!((order, s.order().len()), (CardSet::FULL, 52));
        }
    }

    #[test]
    fn every_card_dealt_once() {
        let profile = Profile::default_profile();
        for players in 3..=7 {
            let mut s = Shuffler::new(&profile, players);
            let mut rng = base_rng(players as u64);
            for dealer in 0..players {
                let d = s.deal(dealer, &mut rng);
                let mut all = d.stock;
                for h in d.hands(players) {
                    assert_eq!(h.count(), 5);
                    assert!((all & *h).is_empty());
                    all |= *h;
                }
                assert_eq!(all, CardSet::FULL);
            }
        }
    }
}
