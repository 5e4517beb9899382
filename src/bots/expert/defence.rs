//! Defence of a trump contract when every trick counts (rule 4 of [`super`]).

use super::super::heuristic::winning_cards;
use crate::cards::{Card, CardSet};
use crate::policy::PlayView;

/// A defender's card when one more defenders' trick beats the contract; None otherwise (the
/// heuristic's rules).
pub fn choose(view: &PlayView, legal: CardSet) -> Option<Card> {
    let declarer = view.declarer();
    let left = view.hand().count() as u8;
    let needed = view.bid().tricks_needed();
    let won = view.tricks_won(declarer);
    if won + left > needed || won >= needed {
        // The declarer can still lose a trick, or has already made it.
        return None;
    }
    let (best, winner) = view.winning()?;
    let trumps = view.trumps();
    let led = view.led().expect("a trick in progress");
    let follows = legal.of_suit(led).any();
    if view.plays_after(declarer) {
        if follows {
            // Cover: force the declarer's highest card, or win over it.
            return legal.of_suit(led).last();
        }
        let ruffs = winning_cards(legal, best, trumps) & trumps;
        if ruffs.any() {
            return ruffs.first();
        }
        return Some(discard(view, legal));
    }
    if winner == declarer {
        let winners = winning_cards(legal, best, trumps);
        if let Some(card) = winners.first() {
            return Some(card);
        }
    }
    if follows {
        return None;
    }
    Some(discard(view, legal))
}

/// The card to throw: the lowest of those that cannot beat any card the declarer may still
/// hold (not a trump, not a master of a suit the declarer has not shown void in); the lowest
/// card when every card can.
fn discard(view: &PlayView, legal: CardSet) -> Card {
    let trumps = view.trumps();
    let open = CardSet::suits_mask(!view.void_mask(view.declarer()) & 0xf);
    let keepers = trumps | (legal.masters_over(view.unseen()) & open);
    let spare = legal - keepers;
    let pool = if spare.any() { spare } else { legal };
    pool.lowest_rank().expect("a card")
}
