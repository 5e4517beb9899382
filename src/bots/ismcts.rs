//! `ismcts[:iterations=K]`: information-set Monte Carlo tree search (single observer).
//!
//! One tree for the seat to play, over the cards played from here on. Each of the K
//! iterations samples a layout of the hidden hands consistent with what the seat knows
//! ([`worlds`](crate::eval::worlds)), descends the tree choosing among the cards legal in that layout
//! by UCB1 with availability counts (a card is scored against the iterations in which it could
//! have been played), expands one untried card, plays the deal out with the heuristic policy and
//! credits every card on the path with the result from its player's side (the contract made, for
//! the declarer; beaten, for a defender). The seat plays the most visited card. Layouts and the
//! choice among untried cards come from the RNG the driver hands in, so runs are reproducible.

use super::heuristic::Heuristic;
use crate::cards::{Card, CardSet};
use crate::eval::worlds::Knowledge;
use crate::game::{DealState, Phase, trick_winner};
use crate::policy::Pass;
use crate::policy::{PlayPolicy, PlayView, Spec, SpecError};
use crate::policy::{Uniform, play_out};
use crate::rng::{SimRng, below};
use crate::rules::MAX_PLAYERS;

/// Largest iteration count accepted.
pub const MAX_ITERATIONS: usize = 1_000_000;

/// The exploration constant of UCB1 (rewards lie in 0..1).
const EXPLORATION: f64 = 0.7;

/// The ISMCTS player.
#[derive(Clone, Copy, Debug)]
pub struct Ismcts {
    iterations: usize,
}

impl Ismcts {
    /// `ismcts:iterations=K` (K defaults to 1000).
    pub fn from_spec(spec: &Spec) -> Result<Ismcts, SpecError> {
        spec.check_keys(&["iterations"])?;
        let max = MAX_ITERATIONS as u64;
        let iterations = spec.count("iterations", 1000, max, "a whole number")? as usize;
        Ok(Ismcts { iterations })
    }
}

/// A tree node: the card that led to it and its statistics.
struct Node {
    card: Card,
    /// Whether the card was the declarer's.
    declarer: bool,
    visits: u32,
    /// Iterations in which the card was legal when its parent was reached.
    available: u32,
    /// Sum of rewards from the side of the player of `card`.
    reward: f64,
    children: Vec<usize>,
}

impl PlayPolicy for Ismcts {
    /// Its playouts replay the contract from the view: made or not depends on the tricks
    /// needed (or the misère), and the heuristic rollouts on the rules alone.
    fn plays_by_rules_only(&self) -> bool {
        true
    }

    fn play(&self, view: &PlayView, rng: &mut SimRng) -> Card {
        let legal = view.legal();
        if legal.count() == 1 {
            return legal.first().expect("a legal card");
        }
        let knowledge = Knowledge::of(view);
        let rollout = Uniform {
            bid: &Pass,
            play: &Heuristic,
        };
        let mut nodes = vec![Node {
            card: legal.first().expect("a legal card"),
            declarer: false,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        }];
        let mut path = Vec::new();
        for _ in 0..self.iterations {
            let Some(mut state) = determinize(view, &knowledge.sample(rng)) else {
                continue;
            };
            path.clear();
            let mut node = 0;
            while state.phase() == Phase::Play {
                let legal = state.legal_cards();
                let declarer = state.next_seat() == view.declarer();
                let mut tried = CardSet::EMPTY;
                for i in 0..nodes[node].children.len() {
                    let child = nodes[node].children[i];
                    if legal.contains(nodes[child].card) {
                        nodes[child].available += 1;
                        tried.insert(nodes[child].card);
                    }
                }
                let untried = legal - tried;
                if untried.any() {
                    let pick = below(rng, u64::from(untried.count())) as usize;
                    let card = untried.into_iter().nth(pick).expect("an untried card");
                    nodes.push(Node {
                        card,
                        declarer,
                        visits: 0,
                        available: 1,
                        reward: 0.0,
                        children: Vec::new(),
                    });
                    let child = nodes.len() - 1;
                    nodes[node].children.push(child);
                    path.push(child);
                    state.play_unchecked(card);
                    break;
                }
                let child = nodes[node]
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| legal.contains(nodes[c].card))
                    .max_by(|&a, &b| ucb(&nodes[a]).total_cmp(&ucb(&nodes[b])))
                    .expect("a legal child");
                path.push(child);
                state.play_unchecked(nodes[child].card);
                node = child;
            }
            play_out(&mut state, &rollout, rng);
            let made = state.made().unwrap_or(false);
            for &n in &path {
                let node = &mut nodes[n];
                node.visits += 1;
                node.reward += f64::from(u8::from(made == node.declarer));
            }
        }
        nodes[0]
            .children
            .iter()
            .map(|&c| &nodes[c])
            .max_by(|a, b| a.visits.cmp(&b.visits).then(b.card.cmp(&a.card)))
            .map_or_else(|| legal.first().expect("a legal card"), |n| n.card)
    }
}

/// UCB1 with availability: mean reward plus the exploration bonus.
fn ucb(node: &Node) -> f64 {
    let visits = f64::from(node.visits.max(1));
    node.reward / visits + EXPLORATION * (f64::from(node.available.max(1)).ln() / visits).sqrt()
}

/// The deal of `view` with the hidden hands as in `world` (every seat's remaining cards): the
/// contract settled and the cards played so far replayed. None if the layout does not replay
/// (it always should).
fn determinize<'p>(view: &PlayView<'p>, world: &[CardSet; MAX_PLAYERS]) -> Option<DealState<'p>> {
    let players = view.players();
    let history = view.history();
    // Who played each card: the declarer leads the first trick, each trick's winner the next.
    let mut hands = *world;
    let mut leader = view.declarer();
    for trick in history.chunks(players) {
        for (i, &card) in trick.iter().enumerate() {
            hands[(leader + i) % players].insert(card);
        }
        if trick.len() == players {
            leader = trick_winner(trick, leader, players, view.trump());
        }
    }
    let mut state = DealState::declared(
        view.profile(),
        &hands[..players],
        None,
        view.declarer(),
        view.contract().bid,
    );
    if state.phase() == Phase::Trump {
        state.name_trump(view.trump()?).ok()?;
    }
    for &card in history {
        state.play(card).ok()?;
    }
    (state.phase() == Phase::Play).then_some(state)
}
