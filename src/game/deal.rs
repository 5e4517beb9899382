//! Dealing: the pack, the shuffle, the cut and the rounds of the deal.
//!
//! With a fresh shuffle every deal ([`crate::rules::Shuffle::EveryDeal`]) the physical process
//! (shuffle the whole pack, cut it, give each seat three cards then two from the dealer's left)
//! hands out a uniformly random ordered selection of the pack's cards: cutting a uniformly
//! shuffled pack leaves it uniformly shuffled. [`Shuffler`] therefore draws just the cards that
//! are dealt, by a partial Fisher-Yates shuffle, and gives them out in the order of the rounds.
//! This is the same distribution at a fraction of the cost (no draw for the cut, none for the
//! cards that stay in the stock).

use crate::cards::{Card, CardSet};
use crate::rng::{SimRng, below};
use crate::rules::{HAND_SIZE, MAX_PLAYERS, Profile};

/// The hands of one deal and the undealt stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dealt {
    /// One hand per seat (seats beyond the table size are empty).
    pub hands: [CardSet; MAX_PLAYERS],
    /// The cards nobody received.
    pub stock: CardSet,
}

impl Dealt {
    /// The hands of the seats at a table of `players`.
    pub fn hands(&self, players: usize) -> &[CardSet] {
        &self.hands[..players]
    }
}

/// Deals hands from a profile's pack. Keeps the pack in an array that the partial shuffle
/// permutes in place, so a deal allocates nothing.
#[derive(Clone, Debug)]
pub struct Shuffler {
    pack: Vec<Card>,
    pack_set: CardSet,
    players: usize,
    /// For each position in dealing order, the seat offset from the dealer's left.
    order: Vec<u8>,
}

impl Shuffler {
    /// A shuffler for `profile` at a table of `players` (already checked against the profile).
    pub fn new(profile: &Profile, players: usize) -> Shuffler {
        let pack_set = profile.pack(players);
        let mut order = Vec::with_capacity(players * HAND_SIZE);
        for &batch in profile.batches() {
            for seat in 0..players {
                for _ in 0..batch {
                    order.push(seat as u8);
                }
            }
        }
        Shuffler {
            pack: pack_set.to_vec(),
            pack_set,
            players,
            order,
        }
    }

    /// The pack in use.
    pub fn pack(&self) -> CardSet {
        self.pack_set
    }

    /// Deals one deal with `dealer` dealing: the first card goes to the dealer's left.
    #[inline]
    pub fn deal(&mut self, dealer: usize, rng: &mut SimRng) -> Dealt {
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        let len = self.pack.len();
        let mut dealt = CardSet::EMPTY;
        for (i, &offset) in self.order.iter().enumerate() {
            let j = i + below(rng, (len - i) as u64) as usize;
            self.pack.swap(i, j);
            let card = self.pack[i];
            // dealer + 1 + offset < 2 * players: one subtraction replaces a division.
            let mut seat = dealer + 1 + offset as usize;
            if seat >= self.players {
                seat -= self.players;
            }
            hands[seat].insert(card);
            dealt.insert(card);
        }
        Dealt {
            hands,
            stock: self.pack_set - dealt,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::base_rng;

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
