//! What the policies that play by solving positions (`dd`, `pimc`) share: the position a
//! candidate card leads to in a given layout of the hands, and what the contract needs.

use super::PlayView;
use crate::cards::{Card, CardSet, Suit};
use crate::rules::{MAX_PLAYERS, TrumpRule};
use crate::solver::{Position, Solver};

/// The trump suit once `card` is played: the suit of the opening lead where that names trump.
fn trump_after(view: &PlayView, card: Card) -> Option<Suit> {
    let opening = view.tricks_done() == 0 && view.current_trick().is_empty();
    if opening && view.bid().trump() == TrumpRule::FirstLead {
        Some(card.suit())
    } else {
        view.trump()
    }
}

/// The position after the seat to play in `view` plays `card`, with `hands` the layout of
/// every hand (the true one, or a sampled world), and the declarer's tricks from a trick it
/// completes.
pub(super) fn after(view: &PlayView, hands: &[CardSet; MAX_PLAYERS], card: Card) -> (Position, u8) {
    let players = view.players();
    let trick = view.current_trick();
    let leader = (view.seat() + players - trick.len()) % players;
    let before = Position::new(
        &hands[..players],
        view.contract().declarer,
        trump_after(view, card),
        view.is_misere(),
        leader,
        trick,
    )
    .expect("a layout consistent with the deal");
    before.after(card)
}

/// The contract as the solver sees it: tricks still needed, or the misère's clean sheet.
#[derive(Clone, Copy, Debug)]
pub(super) struct Goal {
    misere: bool,
    /// Tricks the declarer has taken.
    won: u8,
    /// Tricks a trick-taking contract needs in all.
    needed: u8,
}

impl Goal {
    pub(super) fn of(view: &PlayView) -> Goal {
        Goal {
            misere: view.is_misere(),
            won: view.tricks_won(view.contract().declarer),
            needed: view.bid().tricks_needed(),
        }
    }

    /// Whether the contract is made from `position`, reached with `gained` more tricks.
    pub(super) fn made(&self, solver: &mut Solver, position: &Position, gained: u8) -> bool {
        let taken = self.won + gained;
        if self.misere {
            taken == 0 && solver.can_make(position, 0)
        } else if taken >= self.needed {
            true
        } else {
            solver.can_make(position, self.needed - taken)
        }
    }

    /// The declarer's tricks over the deal under best play from `position`.
    pub(super) fn tricks(&self, solver: &mut Solver, position: &Position, gained: u8) -> u8 {
        self.won + gained + solver.value(position)
    }

    /// Whether the seat in `view` wants more declarer tricks (the declarer of a trick-taking
    /// contract, or a defender against a misère).
    pub(super) fn wants_tricks(&self, view: &PlayView) -> bool {
        view.is_declarer() != self.misere
    }
}
