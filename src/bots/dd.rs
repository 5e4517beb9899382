//! `dd`: double-dummy play, **a cheat** that sees every hand.
//!
//! Every seat plays the card that is best with all cards visible: the declarer the one that
//! maximises its tricks (minimises them in a misère), a defender the reverse. This is a
//! reference point (perfect play by every seat, with every card in view), not a fair player. Ties go to the lowest card (bit
//! order: clubs first, then by rank), so play is deterministic.

use super::solved::{Goal, improves, layout, play};
use crate::cards::{Card, CardSet};
use crate::policy::{PlayPolicy, PlayView, SeeAllHands};
use crate::rng::SimRng;
use crate::solver::{one_per_run, with_thread_solver};

/// The double-dummy player (sees every hand).
#[derive(Clone, Copy, Debug, Default)]
pub struct DoubleDummy;

/// The capability `dd` holds: the one grant in the crate.
static SEES_ALL: SeeAllHands = SeeAllHands::grant();

impl PlayPolicy for DoubleDummy {
    fn sees_all_hands(&self) -> Option<&SeeAllHands> {
        Some(&SEES_ALL)
    }

    /// Best play depends on the hands, the trump and lead rules and the misère.
    fn plays_by_rules_only(&self) -> bool {
        true
    }

    fn play(&self, view: &PlayView, _rng: &mut SimRng) -> Card {
        let hands = view.all_hands(&SEES_ALL);
        let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        let live = held
            | view
                .current_trick()
                .iter()
                .map(|c| c.set())
                .fold(CardSet::EMPTY, |a, s| a | s);
        let candidates = one_per_run(view.legal(), live);
        let goal = Goal::of(view);
        let more = goal.wants_tricks(view);
        let deal = layout(view, &hands);
        with_thread_solver(view.players(), |solver| {
            let mut best: Option<(Card, u64)> = None;
            for card in candidates {
                let (position, gained) = play(view, &deal, card);
                let tricks = u64::from(goal.tricks(solver, &position, gained));
                if improves(more, tricks, best.map(|(_, b)| b)) {
                    best = Some((card, tricks));
                }
            }
            best.expect("a legal card").0
        })
    }
}
