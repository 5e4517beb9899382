//! `pimc:worlds=K`: perfect-information Monte Carlo play.
//!
//! For the seat to play: sample K layouts of the hidden hands uniformly among those consistent
//! with what the seat knows ([`worlds`](crate::eval::worlds)), solve each layout double dummy for
//! every candidate card (one per run of equivalent cards), and play the card with which the
//! contract is made in the most worlds (declarer) or the fewest (defenders). Ties go to the
//! card with the best average double-dummy tricks, then to the lowest card. Worlds come from
//! the RNG the driver hands in, so runs are reproducible; the solver's table, shared per
//! thread, changes no answer.

use super::solved::{Goal, improves, layout, play};
use crate::cards::Card;
use crate::eval::worlds::Knowledge;
use crate::policy::{PlayPolicy, PlayView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::HAND_SIZE;
use crate::solver::{Position, one_per_run, with_thread_solver};

/// Largest world count accepted.
pub const MAX_WORLDS: usize = 100_000;

/// The PIMC player.
#[derive(Clone, Copy, Debug)]
pub struct Pimc {
    worlds: usize,
}

impl Pimc {
    /// `pimc:worlds=K` (K defaults to 32).
    pub fn from_spec(spec: &Spec) -> Result<Pimc, SpecError> {
        spec.check_keys(&["worlds"])?;
        let worlds = match spec.get("worlds") {
            None => 32,
            Some(text) => text
                .parse::<usize>()
                .ok()
                .filter(|k| (1..=MAX_WORLDS).contains(k))
                .ok_or_else(|| SpecError::BadValue {
                    policy: "pimc".into(),
                    key: "worlds".into(),
                    value: text.into(),
                    reason: format!("expected a whole number of worlds from 1 to {MAX_WORLDS}"),
                })?,
        };
        Ok(Pimc { worlds })
    }

    /// The number of worlds per decision.
    pub fn worlds(&self) -> usize {
        self.worlds
    }
}

impl PlayPolicy for Pimc {
    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        // Cards adjacent among those not yet seen played are equivalent in every world.
        let live = (view.unseen() - view.known_out()) | view.hand();
        let candidates: Vec<Card> = one_per_run(view.legal(), live).into_iter().collect();
        if candidates.len() == 1 {
            return candidates[0];
        }
        let knowledge = Knowledge::of(view);
        let goal = Goal::of(view);
        let worlds: Vec<Position> = (0..self.worlds)
            .map(|_| layout(view, &knowledge.sample(rng)))
            .collect();
        with_thread_solver(view.players(), |solver| {
            let mut made = [0usize; HAND_SIZE];
            for world in &worlds {
                for (i, &card) in candidates.iter().enumerate() {
                    let (position, gained) = play(view, world, card);
                    made[i] += usize::from(goal.made(solver, &position, gained));
                }
            }
            let declarer = view.is_declarer();
            let target = if declarer {
                made[..candidates.len()].iter().max()
            } else {
                made[..candidates.len()].iter().min()
            };
            let target = *target.expect("candidates");
            let tied: Vec<usize> = (0..candidates.len())
                .filter(|&i| made[i] == target)
                .collect();
            if tied.len() == 1 {
                return candidates[tied[0]];
            }
            // Ties: the best total of double-dummy tricks over the worlds.
            let more = goal.wants_tricks(view);
            let mut best: Option<(usize, u64)> = None;
            for &i in &tied {
                let total: u64 = worlds
                    .iter()
                    .map(|world| {
                        let (position, gained) = play(view, world, candidates[i]);
                        u64::from(goal.tricks(solver, &position, gained))
                    })
                    .sum();
                if improves(more, total, best.map(|(_, b)| b)) {
                    best = Some((i, total));
                }
            }
            candidates[best.expect("a tied card").0]
        })
    }
}
