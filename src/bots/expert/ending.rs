//! The ending: once few tricks are left, the seat samples layouts of the hidden cards and
//! solves each exactly (see the rules in [`super`]).

use super::super::solved::{Goal, layout, play};
use crate::cards::{Card, CardSet};
use crate::eval::worlds::Knowledge;
use crate::policy::PlayView;
use crate::rng::SimRng;
use crate::solver::{Position, endgame_can_make, one_per_run};

/// Tricks left (the one in progress included) from which the declarer solves, by table size.
pub fn declarer_solves_from(players: usize) -> usize {
    if players <= 4 { 3 } else { 2 }
}

/// The declarer's card from the ending's solve, or None when the rules decide: a defender to
/// play, too many tricks left, the contract already settled, or one card (up to equivalents)
/// to choose from. `rule` is the rules' card, which wins ties.
///
/// The rules' card is counted first over every world; another card replaces it only by being
/// made in strictly more worlds, the lowest such card first, and each is dropped as soon as
/// the worlds left cannot lift it above the best so far (so most decisions cost one query
/// per world).
pub fn solve(view: &PlayView, worlds: usize, rule: Card, rng: &mut SimRng) -> Option<Card> {
    let left = view.hand().count() as usize;
    let goal = Goal::of(view);
    if !view.is_declarer() || left > declarer_solves_from(view.players()) || !goal.open(left as u8)
    {
        return None;
    }
    // The trick's cards separate runs too: with the 8 on the table, the 9 and the 7 differ.
    let trick = view
        .current_trick()
        .iter()
        .fold(CardSet::EMPTY, |a, c| a | c.set());
    let live = (view.unseen() - view.known_out()) | view.hand() | trick;
    let candidates = one_per_run(view.legal(), live);
    if candidates.count() < 2 {
        return None;
    }
    let knowledge = Knowledge::of(view);
    let layouts: Vec<Position> = (0..worlds)
        .map(|_| layout(view, &knowledge.sample(rng)))
        .collect();
    // The count of worlds in which `card` makes the contract, or None as soon as it cannot
    // beat `bar`.
    let count = |card: Card, bar: Option<usize>| {
        let mut made = 0;
        for (i, world) in layouts.iter().enumerate() {
            let (position, gained) = play(view, world, card);
            made += usize::from(goal.made_with(&position, gained, endgame_can_make));
            let rest = layouts.len() - i - 1;
            if bar.is_some_and(|bar| made + rest <= bar) {
                return None;
            }
        }
        Some(made)
    };
    // The rules' card first; another card replaces it only by doing strictly better, the
    // lowest such card first.
    let mut best = (rule, count(rule, None).expect("no bar"));
    let mut others: Vec<Card> = candidates
        .into_iter()
        .filter(|&c| !(c.same_suit(rule) && one_per_run(c.set() | rule.set(), live).count() == 1))
        .collect();
    others.sort_by_key(|c| (c.rank(), c.suit()));
    for card in others {
        if let Some(made) = count(card, Some(best.1)) {
            best = (card, made);
        }
    }
    Some(best.0)
}
