//! `heuristic`: a fast rule-based card player.
//!
//! The rules, in order (the first that applies decides):
//!
//! **Declarer, trump contracts**
//! 1. Opening lead: the longest suit (ties: the one with the highest top card); lead its top card,
//!    which makes that suit trump.
//! 2. Later leads: while a defender may still hold a trump (one is unseen and not every defender
//!    has shown void in trumps), lead the highest trump (draw trumps from the top); then cash a
//!    side-suit card that no unseen card beats (a master); then lead trumps; then the lowest card.
//! 3. Following: if no legal card beats the card winning the trick, play the lowest card
//!    (side suits before trumps). As the last to play, win with the cheapest winning card;
//!    otherwise with the cheapest winning card no unseen card of its suit beats, or failing that
//!    the highest winning card (ruffing always with the cheapest winning trump).
//!
//! **Defenders, trump contracts**
//! 1. Following: when another defender is winning the trick, do not overtake: play the lowest
//!    card. When the declarer is winning, win as cheaply as possible; if no card wins, play the
//!    lowest card (side suits before trumps).
//! 2. Leading (through the declarer's weakness): among side suits the declarer has not shown void
//!    in, cash a master; otherwise lead the lowest card of the longest such suit; otherwise the
//!    lowest card.
//!
//! **Misère** (the declarer wants no trick)
//! - Declarer: lead the lowest card; follow with the highest card that does not win the trick,
//!   or, when every legal card wins, the highest (to shed it).
//! - Defenders: lead and follow with the lowest card, leaving the declarer on lead and winning.
//!
//! "Lowest" compares ranks across suits, side suits before trumps, then clubs first.

use crate::cards::{Card, CardSet, Suit};
use crate::policy::{PlayPolicy, PlayView};
use crate::rng::SimRng;

/// The rule-based player described in the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl PlayPolicy for Heuristic {
    /// It reads the trump, the misère and the cards, never the bid itself.
    fn plays_by_rules_only(&self) -> bool {
        true
    }

    #[inline]
    fn play(&self, view: &PlayView, _rng: &mut SimRng) -> Card {
        let legal = view.legal();
        if view.is_misere() {
            return misere(view, legal);
        }
        match view.winning() {
            None if view.is_declarer() => declarer_lead(view, legal),
            None => defender_lead(view, legal),
            Some((best, winner)) => follow(view, legal, best, winner),
        }
    }
}

fn declarer_lead(view: &PlayView, hand: CardSet) -> Card {
    let Some(trump) = view.trump() else {
        // The suit is chosen from the whole hand; the card from those the lead rule allows
        // (the top card, or the lowest under Bonaparte's rule).
        let suit = longest_suit(view.hand()).expect("a card to lead");
        return hand.of_suit(suit).last().expect("a legal card of the suit");
    };
    let trumps = CardSet::suit_mask(trump);
    let unseen = view.unseen();
    let my_trumps = hand & trumps;
    // Some defender may still hold a trump: one is unseen, and not every defender has shown
    // void in trumps.
    if my_trumps.any() && (unseen & trumps).any() && !view.others_void(trump) {
        return my_trumps.last().expect("a trump");
    }
    master_top(hand - trumps, unseen)
        .or(my_trumps.last())
        .unwrap_or_else(|| lowest(hand, trumps))
}

fn defender_lead(view: &PlayView, hand: CardSet) -> Card {
    let trumps = view.trumps();
    // Side suits the declarer has not shown void in.
    let open = hand - trumps - CardSet::suits_mask(view.void_mask(view.declarer()));
    if let Some(master) = master_top(open, view.unseen()) {
        return master;
    }
    match longest_suit(open) {
        Some(suit) => open.of_suit(suit).first().expect("a card of the suit"),
        None => lowest(hand, trumps),
    }
}

/// The first suit (clubs first) whose top card in `cards` no `unseen` card of its suit beats,
/// and that card. Branch-free over the four suits: whether a card is a master is random data.
pub(super) fn master_top(cards: CardSet, unseen: CardSet) -> Option<Card> {
    // A card above every unseen card of its suit is a master; a suit holds one exactly when
    // its top card is one, so the first suit with a master is the suit of the lowest master.
    let first = cards.masters_over(unseen).first()?;
    cards.of_suit(first.suit()).last()
}

fn follow(view: &PlayView, legal: CardSet, best: Card, winner: usize) -> Card {
    let trumps = view.trumps();
    let winners = winning_cards(legal, best, trumps);
    let declarer = view.declarer();
    if view.seat() == declarer {
        return declarer_follow(view, legal, winners, trumps);
    }
    // A defender: which cards win is random data, so the choice is made with selects rather
    // than branches (this also covers a single legal card). The winning cards all lie in one
    // suit (higher cards of the suit led, or trumps when void in it: a seat that can follow
    // must), so the cheapest is the lowest.
    let cheapest = winners.first_set();
    let give_up = winners.is_empty() | (winner != declarer);
    let choice = CardSet::select(give_up, lowest_set(legal, trumps), cheapest);
    choice.first().expect("a legal card")
}

fn declarer_follow(view: &PlayView, legal: CardSet, winners: CardSet, trumps: CardSet) -> Card {
    if winners.is_empty() {
        return lowest_set(legal, trumps).first().expect("a legal card");
    }
    let led = view.led().expect("a trick in progress");
    let in_suit = winners.of_suit(led);
    if view.seats_after() > 0 && in_suit.any() {
        let unseen = view.unseen();
        let safe = in_suit
            .into_iter()
            .find(|&c| unseen.above_in_suit(c).is_empty());
        return safe.unwrap_or_else(|| in_suit.last().expect("a winner"));
    }
    match in_suit.first() {
        Some(card) => card,
        None => winners.lowest_rank().expect("a winning trump"),
    }
}

fn misere(view: &PlayView, legal: CardSet) -> Card {
    let Some((best, _)) = view.winning() else {
        return lowest(legal, CardSet::EMPTY);
    };
    if !view.is_declarer() {
        return lowest(legal, CardSet::EMPTY);
    }
    let trumps = view.trumps();
    let losers = legal - winning_cards(legal, best, trumps);
    highest(if losers.any() { losers } else { legal })
}

/// The cards of `legal` that would beat `best`: higher cards of its suit, and every trump
/// (`trumps` is the trump suit's mask, empty without trump) when `best` is not a trump.
pub(super) fn winning_cards(legal: CardSet, best: Card, trumps: CardSet) -> CardSet {
    legal.above_in_suit(best) | (legal & (trumps - CardSet::suit_mask(best.suit())))
}

/// The longest suit of `cards`; ties go to the higher top card, then to the higher suit.
fn longest_suit(cards: CardSet) -> Option<Suit> {
    // Key: length, then the top card's bit in its lane, then the suit; a void suit scores 0.
    let best = Suit::ALL
        .into_iter()
        .map(|suit| {
            let lane = u32::from(cards.lane(suit));
            let top = 31 - (lane | 1).leading_zeros();
            let key = lane.count_ones() << 4 | top;
            (key << 2 | suit as u32) * u32::from(lane != 0)
        })
        .max()
        .unwrap_or(0);
    (best != 0).then(|| Suit::ALL[(best & 3) as usize])
}

/// The lowest-ranked card, side suits before trumps (`trumps`: the trump suit's mask, empty
/// without trump), ties to the lower suit.
pub(super) fn lowest(cards: CardSet, trumps: CardSet) -> Card {
    lowest_set(cards, trumps).first().expect("a card")
}

/// [`lowest`] as a one-card set, without branches; `trumps` is the trump suit's mask.
fn lowest_set(cards: CardSet, trumps: CardSet) -> CardSet {
    let side = cards - trumps;
    let pool = CardSet::select(side.any(), side, cards & trumps);
    pool.lowest_rank_set()
}

/// The highest-ranked card, ties to the higher suit.
pub(super) fn highest(cards: CardSet) -> Card {
    cards.highest_rank().expect("a card")
}
