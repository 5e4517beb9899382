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
    let score = |trump: Suit| -> u32 { hand.into_iter().map(|c| card_value(c, trump)).sum() };
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
pub fn strength(hand: CardSet) -> (u32, Option<Suit>) {
    let mut best = (0, None);
    for trump in hand.suits() {
        let score: u32 = hand.into_iter().map(|card| card_value(card, trump)).sum();
        if score > best.0 || best.1.is_none() {
            best = (score, Some(trump));
        }
    }
    best
}

/// The misère strength of a hand: how low its cards are (see the module docs).
pub fn misere_strength(hand: CardSet) -> u32 {
    hand.into_iter()
        .map(|c| match c.rank().value() {
            2..=5 => 3,
            6..=8 => 2,
            9 | 10 => 1,
            _ => 0,
        })
        .sum()
}
