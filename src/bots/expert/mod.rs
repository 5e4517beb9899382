//! `expert[:worlds=K]`: a fast card player between `heuristic` and PIMC.
//!
//! It plays as [`heuristic`](super::heuristic) does except where a rule below says otherwise,
//! and it solves the last tricks exactly. The first rule that applies decides:
//!
//! 1. **The declarer solves the ending** ([`ending`]). Once few tricks are left (three at four
//!    players or fewer, two at five or more) and the contract is still open (not yet made, not
//!    yet beaten), the declarer samples K layouts of the hidden cards consistent with what it
//!    has seen (cards played, voids shown, a floater it knows of) and plays the card with which
//!    the contract is made in the most of them, each solved exactly by the plain endgame search
//!    ([`crate::solver::endgame_can_make`]); ties go to the card the rules below would play,
//!    else to the lowest tied card. (Defenders solving their endings too measured no stronger:
//!    see `docs/performance.md`.)
//! 2. **Misère defence** ([`misere`]): the defenders work together to make the declarer take a
//!    trick. Lead the lowest card of a suit the declarer has not shown void in, the shortest
//!    such suit first (its high cards are the ones that cannot escape); follow below the
//!    declarer's card when it is winning, so that it keeps the trick; while the declarer is
//!    still to play, keep the trick's winning card as low as possible; when the declarer can no
//!    longer be caught in this trick, throw the highest card, keeping low cards to lead later.
//! 3. **Declarer, choosing and using trumps** ([`declarer`]): the opening lead (where it makes
//!    trump) is the top card of the longest suit, and of suits of equal length the one with
//!    the lower top card, keeping the higher cards to win on the side. Later, draw trumps only
//!    with a trump no unseen trump beats (a master); otherwise cash the side-suit masters first
//!    and keep the low trumps for ruffing, leading the lowest side card when no master is left.
//! 4. **Defence when every trick counts** ([`defence`]): when one more defenders' trick beats
//!    the contract (a Nap, or a contract that has run out of spare tricks), a defender who
//!    follows while the declarer is still to play covers with its highest card of the suit
//!    (or its cheapest trump when it cannot follow) instead of ducking under a partner's card,
//!    and a defender who discards keeps its cards that can still beat the declarer's (masters
//!    and guarded honours), throwing the lowest of the others.
//! 5. Otherwise, the heuristic's rules.
//!
//! Cost: the rules cost what the heuristic's do; the ending's solve samples K worlds and runs a
//! tiny search per world and candidate card, a few microseconds a decision.

mod declarer;
mod defence;
pub mod ending;
mod misere;

use super::heuristic::Heuristic;
use crate::cards::Card;
use crate::policy::{PlayPolicy, PlayView, Spec, SpecError};
use crate::rng::SimRng;

/// Worlds sampled per solved decision by default.
pub const DEFAULT_WORLDS: usize = 8;
/// Largest world count accepted.
pub const MAX_WORLDS: usize = 1_000;

/// The expert player.
#[derive(Clone, Copy, Debug)]
pub struct Expert {
    worlds: usize,
}

impl Default for Expert {
    fn default() -> Expert {
        Expert {
            worlds: DEFAULT_WORLDS,
        }
    }
}

impl Expert {
    /// `expert[:worlds=K]`.
    pub fn from_spec(spec: &Spec) -> Result<Expert, SpecError> {
        spec.check_keys(&["worlds"])?;
        let (default, max) = (DEFAULT_WORLDS as u64, MAX_WORLDS as u64);
        let worlds = spec.count("worlds", default, max, "a whole number of worlds")? as usize;
        Ok(Expert { worlds })
    }

    /// The card the rules (everything but the ending's solve) choose.
    fn rules(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        let legal = view.legal();
        let chosen = if view.is_misere() {
            misere::choose(view, legal)
        } else if view.is_declarer() {
            declarer::choose(view, legal)
        } else {
            defence::choose(view, legal)
        };
        chosen.unwrap_or_else(|| Heuristic.play(view, rng))
    }
}

impl PlayPolicy for Expert {
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        let rule = self.rules(view, rng);
        ending::solve(view, self.worlds, rule, rng).unwrap_or(rule)
    }

    /// The rules and the solve read the bid's tricks needed, misère, trump rule and floater
    /// use only.
    fn plays_by_rules_only(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{CardSet, parse_hand};
    use crate::game::DealState;
    use crate::rng::base_rng;
    use crate::rules::Profile;

    /// The card `expert` plays after `plays`, in a deal of `hands` (seat 0 declaring `bid`).
    fn expert_after(profile: &str, hands: &[&str], bid: &str, plays: &[&str]) -> (Card, Card) {
        let profile = Profile::builtin(profile).unwrap();
        let hands: Vec<CardSet> = hands.iter().map(|h| parse_hand(h, 5).unwrap()).collect();
        let id = profile.bid_id(bid).unwrap();
        let mut state = DealState::declared(&profile, &hands, None, 0, id);
        for card in plays {
            state.play(card.parse().unwrap()).unwrap();
        }
        let view = PlayView::new(&state);
        let mut rng = base_rng(1);
        let expert = Expert::default().play(&view, &mut rng);
        (expert, Heuristic.play(&view, &mut rng))
    }

    #[test]
    fn misere_defenders_lead_a_suit_the_declarer_still_holds() {
        // The declarer (seat 0) threw the king of spades on trick 2, void in hearts; seat 2
        // won it and leads. Its lowest card is a heart, which would let the declarer throw
        // another high card.
        let hands = [
            "2C KS 9S 8S 7D",
            "AC 3H 4D 5D 6D",
            "3C AH 2H 5S 6S",
            "4C 4H 7S 9D TD",
        ];
        let plays = ["2C", "AC", "3C", "4C", "3H", "AH", "4H", "KS"];
        let (expert, heuristic) = expert_after("pub-guide", &hands, "misere", &plays);
        assert_eq!(
            (expert.to_string(), heuristic.to_string()),
            ("5S".into(), "2H".into())
        );
    }

    #[test]
    fn misere_defenders_stay_under_the_declarers_card() {
        // Seat 2 leads the 2 of spades, seat 3 throws a heart, the declarer (seat 0) plays the
        // 9: seat 1 stays under it with its highest lower spade, keeping its 3 to lead later.
        let hands = [
            "2C 9S 3D 4D 5D",
            "6C 8S 3S KS 7H",
            "8C 2S AH 6H 5H",
            "4C JH TH 9H 8H",
        ];
        let plays = ["2C", "6C", "8C", "4C", "2S", "JH", "9S"];
        let (expert, heuristic) = expert_after("pub-guide", &hands, "misere", &plays);
        assert_eq!(
            (expert.to_string(), heuristic.to_string()),
            ("8S".into(), "3S".into())
        );
    }

    #[test]
    fn the_opening_lead_keeps_the_stronger_of_two_equal_suits_for_side_tricks() {
        // Two suits of two: hearts trump, the ace and king of diamonds win on the side.
        let hands = [
            "8H 6H AD KD 7C",
            "2S 3S 4S 5S 6S",
            "7S 8S 9S TS JS",
            "QS KS AS 2H 3H",
        ];
        let (expert, heuristic) = expert_after("heather-1875", &hands, "three", &[]);
        assert_eq!(
            (expert.to_string(), heuristic.to_string()),
            ("8H".into(), "AD".into())
        );
    }

    #[test]
    fn a_declarer_whose_trump_cannot_draw_cashes_its_side_master() {
        // Spades are trump (the declarer led the queen); the ace and king are unseen, so the
        // jack would lose to them: cash the ace of hearts instead.
        let hands = [
            "QS JS AH 2D 3C",
            "4S 7D 8D 9D TD",
            "5S 2H 3H 4H 5H",
            "6S 6H 7H 8H 9H",
        ];
        let plays = ["QS", "4S", "5S", "6S"];
        let (expert, heuristic) = expert_after("heather-1875", &hands, "three", &plays);
        assert_eq!(
            (expert.to_string(), heuristic.to_string()),
            ("AH".into(), "JS".into())
        );
    }
}
