//! The declarer of a trump contract with short trumps (rule 3 of [`super`]).

use super::super::heuristic::master_top;
use crate::cards::{Card, CardSet};
use crate::policy::PlayView;

/// The declarer's lead after the opening one; None where the heuristic's rules stand.
pub fn choose(view: &PlayView, legal: CardSet) -> Option<Card> {
    let opening = view.tricks_done() == 0 && view.current_trick().is_empty();
    if opening || view.winning().is_some() {
        return None;
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
