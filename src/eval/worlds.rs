//! Sampling the hands a seat cannot see, uniformly among the layouts consistent with what it
//! knows: its own hand, the cards played, the hand sizes, the voids shown by failing to follow
//! suit, cards it knows are out of play, and a peeked floater taken by the declarer.

use crate::cards::{Card, CardSet, Suit};
use crate::policy::PlayView;
use crate::rng::{SimRng, below};
use crate::rules::MAX_PLAYERS;

/// Attempts at plain rejection sampling before the constrained fallback.
const REJECTION_TRIES: usize = 20_000;

/// What a seat knows about the hidden hands.
#[derive(Clone, Debug)]
pub struct Knowledge {
    players: usize,
    /// Cards known to be in each hand (the seat's own hand; a floater the declarer took).
    known: [CardSet; MAX_PLAYERS],
    /// Cards still to deal to each hand.
    missing: [usize; MAX_PLAYERS],
    /// Suits each seat has shown void in, as a mask of suit lanes.
    voids: [u64; MAX_PLAYERS],
    /// The cards that may be in the hidden hands or out of play (the undealt stock), in card
    /// order: the first `pool_len` of `pool` (listed once here, not at every sample).
    pool: [Card; 52],
    pool_len: usize,
    /// Seats to deal to, the most constrained first (so rejection comes early).
    order: [usize; MAX_PLAYERS],
}

impl Knowledge {
    /// Knowledge from its parts: `known` cards in each hand, `missing` cards still to deal to
    /// each, the suits each seat is void in, and the `pool` to deal from (what is not dealt
    /// stays out of play).
    pub fn new(
        known: &[CardSet],
        missing: &[usize],
        voids: &[Vec<Suit>],
        pool: CardSet,
    ) -> Knowledge {
        let players = known.len();
        let mut k = Knowledge::empty(players, pool);
        k.known[..players].copy_from_slice(known);
        k.missing[..players].copy_from_slice(missing);
        for (seat, suits) in voids.iter().enumerate() {
            for &suit in suits {
                k.voids[seat] |= CardSet::suit_mask(suit).bits();
            }
        }
        k.set_order();
        k
    }

    /// What the seat to play in `view` knows.
    pub fn of(view: &PlayView) -> Knowledge {
        let players = view.players();
        let declarer = view.contract().declarer;
        let mut k = Knowledge::empty(players, view.unseen() - view.known_out());
        k.known[view.seat()] = view.hand();
        for seat in 0..players {
            if seat != view.seat() {
                k.missing[seat] = view.hand_len(seat);
                for suit in Suit::ALL {
                    if view.known_void(seat, suit) {
                        k.voids[seat] |= CardSet::suit_mask(suit).bits();
                    }
                }
            }
        }
        // A floater this seat peeked at and the declarer took is in the declarer's hand, unless
        // played, or discarded (assumed only when the declarer has shown void in its suit).
        if let Some(floater) = view.floater()
            && view.seat() != declarer
            && view.bid().with_floater()
            && !view.played().contains(floater)
            && k.voids[declarer] & floater.set().bits() == 0
            && k.missing[declarer] > 0
        {
            k.known[declarer].insert(floater);
            k.missing[declarer] -= 1;
        }
        k.set_order();
        k
    }

    /// Nothing known yet but the pool to deal from.
    fn empty(players: usize, pool: CardSet) -> Knowledge {
        let mut cards = [Card::try_from_index(2).expect("a card"); 52];
        let mut len = 0;
        for card in pool {
            cards[len] = card;
            len += 1;
        }
        Knowledge {
            players,
            known: [CardSet::EMPTY; MAX_PLAYERS],
            missing: [0; MAX_PLAYERS],
            voids: [0; MAX_PLAYERS],
            pool: cards,
            pool_len: len,
            order: [0; MAX_PLAYERS],
        }
    }

    /// Seats to deal to, the most voids first.
    fn set_order(&mut self) {
        // Sorted in place (a stable sort, as the seats' order is part of the draws).
        let mut len = 0;
        self.order = [usize::MAX; MAX_PLAYERS];
        for seat in (0..self.players).filter(|&s| self.missing[s] > 0) {
            self.order[len] = seat;
            len += 1;
        }
        let voids = self.voids;
        self.order[..len].sort_by_key(|&s| std::cmp::Reverse(voids[s].count_ones()));
    }

    /// One layout of every hand, uniform among those consistent with the knowledge (by
    /// rejection; after many rejections, a constrained deal that is consistent but may not be
    /// exactly uniform, for knowledge that almost no layout satisfies).
    pub fn sample(&self, rng: &mut SimRng) -> [CardSet; MAX_PLAYERS] {
        let mut pool = self.pool;
        let size = self.pool_len;
        for _ in 0..REJECTION_TRIES {
            if let Some(hands) = self.try_deal(&mut pool[..size], rng, false) {
                return hands;
            }
        }
        loop {
            if let Some(hands) = self.try_deal(&mut pool[..size], rng, true) {
                return hands;
            }
        }
    }

    /// Deals the missing cards from `pool` at random; with `constrained`, each seat draws only
    /// from the cards it may hold. None when a seat receives a card of a suit it is void in
    /// (or, constrained, runs out of cards it may hold).
    fn try_deal(
        &self,
        pool: &mut [Card],
        rng: &mut SimRng,
        constrained: bool,
    ) -> Option<[CardSet; MAX_PLAYERS]> {
        let mut hands = self.known;
        let mut left = pool.len();
        for &seat in self.order.iter().take_while(|&&s| s != usize::MAX) {
            for _ in 0..self.missing[seat] {
                if constrained {
                    // Move the cards this seat may hold to the front of the undealt part.
                    let mut allowed = 0;
                    for i in 0..left {
                        if pool[i].set().bits() & self.voids[seat] == 0 {
                            pool.swap(i, allowed);
                            allowed += 1;
                        }
                    }
                    if allowed == 0 {
                        return None;
                    }
                    let pick = below(rng, allowed as u64) as usize;
                    pool.swap(pick, left - 1);
                } else {
                    let pick = below(rng, left as u64) as usize;
                    pool.swap(pick, left - 1);
                }
                left -= 1;
                let card = pool[left];
                if card.set().bits() & self.voids[seat] != 0 {
                    return None;
                }
                hands[seat].insert(card);
            }
        }
        Some(hands)
    }

    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players
    }
}
