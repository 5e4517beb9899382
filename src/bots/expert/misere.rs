//! Misère defence as a team: make the declarer take a trick (rule 2 of [`super`]).

use super::super::heuristic::{highest, lowest, winning_cards};
use crate::cards::{Card, CardSet};
use crate::policy::PlayView;

/// The defenders' card in a misère; None for the declarer (the heuristic's rules).
pub fn choose(view: &PlayView, legal: CardSet) -> Option<Card> {
    if view.is_declarer() {
        return None;
    }
    let declarer = view.declarer();
    let Some((best, winner)) = view.winning() else {
        // Lead low in a suit the declarer still holds: a suit it is void in lets it throw
        // its dangerous cards.
        let open = legal - CardSet::suits_mask(view.void_mask(declarer));
        return Some(lowest(
            if open.any() { open } else { legal },
            CardSet::EMPTY,
        ));
    };
    let follows = legal.any() && view.led().is_some_and(|led| legal.of_suit(led).any());
    if view.plays_after(declarer) {
        // Keep the trick's winning card low, so that the declarer's card can beat it; a
        // discard sheds the highest card.
        return Some(if follows {
            lowest(legal, CardSet::EMPTY)
        } else {
            highest(legal)
        });
    }
    if winner == declarer {
        // Stay under the declarer's card, shedding the highest card that does.
        let under = legal - winning_cards(legal, best, view.trumps());
        return Some(highest(if under.any() { under } else { legal }));
    }
    // The declarer escaped this trick: shed the highest card, keep the low ones to lead.
    Some(highest(legal))
}
