//! `random`: the trivial play policy.

use super::{PlayPolicy, PlayView};
use crate::cards::Card;
use crate::rng::{SimRng, below};

/// Plays a uniformly random legal card.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlay;

impl PlayPolicy for RandomPlay {
    /// A uniform choice among the legal cards, which the play rules decide.
    fn plays_by_rules_only(&self) -> bool {
        true
    }

    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        let mut legal = view.legal();
        let skip = below(rng, legal.count() as u64);
        for _ in 0..skip {
            legal.pop_front();
        }
        legal.first().expect("a legal card")
    }
}
