//! Hand strength: the trick-taking and misère scores of a hand, its best five cards and the
//! trump suit to name. The default choices of every bid policy ([`super::BidPolicy`]) use them,
//! as do the threshold bidder and the hand classes.
//!
//! **Trick strength**: for each suit the hand holds, taken as trump,
//!
//! - 2 points per trump, plus 4 for the trump ace, 3 for the king, 2 for the queen, 1 for the jack;
//! - 3 points per side-suit ace, 1 per side-suit king;
//!
//! and the hand's score is the best over its suits (A K Q J 2 of one suit scores 20; A K Q of
//! trumps and two small side cards 15; three small trumps and two side aces 12).
//!
//! **Misère strength**: 3 points per card from the two to the five, 2 per six to eight, 1 per
//! nine or ten, 0 for court cards and aces (five cards of 2-5 score 15).

use crate::cards::{Card, CardSet, Rank, Suit};

/// The five cards of `cards` with the highest [`strength`]. The score is a sum of per-card
/// values once the trump suit is fixed, so for each candidate trump the best five are simply its
/// five most valuable cards (ties: higher rank, then higher suit); the best trump wins. With
/// five cards or fewer, all of them.
pub fn best_five(cards: CardSet) -> CardSet {
    if cards.count() <= 5 {
        return cards;
    }
    let mut best = (0, CardSet::EMPTY);
    for trump in cards.suits() {
        let mut ranked: [(u32, Card); 16] = [(0, Card::new(Rank::Two, Suit::Clubs)); 16];
        let mut n = 0;
        for card in cards.into_iter().take(16) {
            ranked[n] = (card_value(card, trump), card);
            n += 1;
        }
        let ranked = &mut ranked[..n];
        ranked.sort_unstable_by(|a, b| {
            (b.0, b.1.rank(), b.1.suit()).cmp(&(a.0, a.1.rank(), a.1.suit()))
        });
        let hand: CardSet = ranked.iter().take(5).map(|&(_, c)| c).collect();
        let score = strength(hand).0;
        if score > best.0 || best.1.is_empty() {
            best = (score, hand);
        }
    }
    best.1
}

/// The trump suit to name for `hand`: the one that gives the highest [`strength`] among suits
/// that leave at least one card outside trumps (a one-suit hand must name another suit: then
/// the first such suit in the order clubs, diamonds, hearts, spades).
pub fn named_trump(hand: CardSet) -> Suit {
    let side = side_points(hand.bits());
    let score = |trump: Suit| trump_score(hand.bits(), side, trump);
    Suit::ALL
        .into_iter()
        .filter(|&s| (hand - CardSet::suit_mask(s)).any())
        .max_by_key(|&s| (score(s), std::cmp::Reverse(s)))
        .unwrap_or(Suit::Clubs)
}

/// A card's contribution to [`strength`] with `trump` as trumps.
fn card_value(card: Card, trump: Suit) -> u32 {
    let rank = card.rank();
    if card.suit() == trump {
        2 + match rank {
            Rank::Ace => 4,
            Rank::King => 3,
            Rank::Queen => 2,
            Rank::Jack => 1,
            _ => 0,
        }
    } else {
        match rank {
            Rank::Ace => 3,
            Rank::King => 1,
            _ => 0,
        }
    }
}

/// The trick-taking strength of a hand and the trump suit that gives it (see the module docs).
///
/// Counted by suit rather than card by card (the threshold bidder scores every hand of every
/// world a hint or `hand --after` deals): with the side-card points of the whole hand `side`,
/// taking suit `t` as trump scores `side` plus 2 per card of `t` and, for its honours, the
/// trump value less the side value (ace 6 - 3, king 5 - 1, queen 4, jack 3, less the 2 each
/// trump already counts).
pub fn strength(hand: CardSet) -> (u32, Option<Suit>) {
    let bits = hand.bits();
    let side = side_points(bits);
    let mut best = (0, None);
    for trump in hand.suits() {
        let score = trump_score(bits, side, trump);
        if score > best.0 || best.1.is_none() {
            best = (score, Some(trump));
        }
    }
    best
}

/// The side-card points of the cards `bits` as if none were trumps: 3 an ace, 1 a king.
fn side_points(bits: u64) -> u32 {
    3 * (bits & rank_lanes(Rank::Ace)).count_ones() + (bits & rank_lanes(Rank::King)).count_ones()
}

/// The [`strength`] score of the cards `bits` (whose [`side_points`] are `side`) with `trump`
/// as trumps.
fn trump_score(bits: u64, side: u32, trump: Suit) -> u32 {
    let lane = (bits >> (16 * trump.index())) as u16;
    let honour = |rank: Rank| u32::from(lane >> rank as u32) & 1;
    side + 2 * lane.count_ones()
        + honour(Rank::Ace)
        + 2 * honour(Rank::King)
        + 2 * honour(Rank::Queen)
        + honour(Rank::Jack)
}

/// The bit of `rank` in every lane.
const fn rank_lanes(rank: Rank) -> u64 {
    0x0001_0001_0001_0001 << rank as u32
}

/// The bits of the ranks `low..=high` in every lane.
const fn ranks_lanes(low: Rank, high: Rank) -> u64 {
    let one_lane = (1u64 << (high as u32 + 1)) - (1u64 << low as u32);
    one_lane * 0x0001_0001_0001_0001
}

/// The misère strength of a hand: how low its cards are (see the module docs).
pub fn misere_strength(hand: CardSet) -> u32 {
    let bits = hand.bits();
    3 * (bits & ranks_lanes(Rank::Two, Rank::Five)).count_ones()
        + 2 * (bits & ranks_lanes(Rank::Six, Rank::Eight)).count_ones()
        + (bits & ranks_lanes(Rank::Nine, Rank::Ten)).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scores by suit are the module docs' card-by-card sums, on random hands of one to
    /// ten cards.
    #[test]
    fn the_scores_are_the_card_by_card_sums() {
        let mut rng = crate::rng::base_rng(9);
        for _ in 0..20_000 {
            let size = 1 + crate::rng::below(&mut rng, 10);
            let mut hand = CardSet::EMPTY;
            while u64::from(hand.count()) < size {
                let index = crate::rng::below(&mut rng, 64) as u8;
                if let Some(card) = Card::try_from_index(index) {
                    hand.insert(card);
                }
            }
            let mut best = (0, None);
            for trump in hand.suits() {
                let score: u32 = hand.into_iter().map(|card| card_value(card, trump)).sum();
                if score > best.0 || best.1.is_none() {
                    best = (score, Some(trump));
                }
            }
            assert_eq!(strength(hand), best, "{hand:?}");
            let misere: u32 = hand
                .into_iter()
                .map(|c| match c.rank().value() {
                    2..=5 => 3,
                    6..=8 => 2,
                    9 | 10 => 1,
                    _ => 0,
                })
                .sum();
            assert_eq!(misere_strength(hand), misere, "{hand:?}");
        }
    }
}
