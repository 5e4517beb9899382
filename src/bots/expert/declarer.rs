//! The declarer of a trump contract with short trumps (rule 3 of [`super`]).

use super::super::heuristic::master_top;
use crate::cards::{Card, CardSet, Suit};
use crate::policy::PlayView;
use crate::rules::TrumpRule;

/// The declarer's lead; None where the heuristic's rules stand.
pub fn choose(view: &PlayView, legal: CardSet) -> Option<Card> {
    let opening = view.tricks_done() == 0 && view.current_trick().is_empty();
    if view.winning().is_some() {
        return None;
    }
    if opening {
        return opening_lead(view, legal);
    }
    let trump = view.trump()?;
    let trumps = CardSet::suit_mask(trump);
    let mine = legal & trumps;
    let unseen = view.unseen();
    let theirs = unseen & trumps;
    if mine.is_empty() || theirs.is_empty() || view.others_void(trump) {
        return None;
    }
    let top = mine.last().expect("a trump");
    if theirs.above_in_suit(top).is_empty() {
        // A master trump draws theirs.
        return Some(top);
    }
    // Trumps that cannot draw: cash the side masters first, then lead low on the side,
    // keeping the trumps to ruff.
    let side = legal - trumps;
    master_top(side, unseen).or_else(|| side.lowest_rank())
}

/// The opening lead that makes its suit trump: the top card of the longest suit, and among
/// suits of equal length the one with the lower top card, keeping the higher cards to win as
/// side cards. None when the lead does not choose trump or the rules forbid that card.
fn opening_lead(view: &PlayView, legal: CardSet) -> Option<Card> {
    if view.trump().is_some() || view.bid().trump() != TrumpRule::FirstLead {
        return None;
    }
    let hand = view.hand();
    let suit = Suit::ALL
        .into_iter()
        .filter(|&s| hand.of_suit(s).any())
        .max_by_key(|&s| {
            let top = hand.of_suit(s).last().expect("a card").rank();
            (hand.suit_len(s), std::cmp::Reverse(top))
        })?;
    let card = hand.of_suit(suit).last()?;
    legal.contains(card).then_some(card)
}
