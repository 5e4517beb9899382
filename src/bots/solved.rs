//! What the policies that play by solving positions (`dd`, `pimc`) share: the position a
//! candidate card leads to in a given layout of the hands, and what the contract needs.

use crate::cards::{Card, CardSet, Suit};
use crate::policy::PlayView;
use crate::rules::{MAX_PLAYERS, TrumpRule};
use crate::solver::{Position, Solver};

/// Whether the card the seat to play in `view` plays names trump: an opening lead where the
/// suit of that lead is trump.
pub(super) fn lead_names_trump(view: &PlayView) -> bool {
    let opening = view.tricks_done() == 0 && view.current_trick().is_empty();
    opening && view.bid().trump() == TrumpRule::FirstLead
}

/// The trump suit once `card` is played: the suit of the opening lead where that names trump.
fn trump_after(view: &PlayView, card: Card) -> Option<Suit> {
    if lead_names_trump(view) {
        Some(card.suit())
    } else {
        view.trump()
    }
}

/// The position of `view` with `hands` the layout of every hand (the true one, or a sampled
/// world). Built once per layout; [`play`] then tries each candidate on a copy. The hands
/// agree with the deal by construction: [`Position::new`]'s checks run in debug builds only.
pub(super) fn layout(view: &PlayView, hands: &[CardSet; MAX_PLAYERS]) -> Position {
    let players = view.players();
    let trick = view.current_trick();
    let leader = (view.seat() + players - trick.len()) % players;
    Position::new_unchecked(
        &hands[..players],
        view.contract().declarer,
        view.trump(),
        view.is_misere(),
        leader,
        trick,
    )
}

/// The position after the seat to play in `view` plays `card` in `layout`, and the declarer's
/// tricks from a trick it completes. An opening lead that names trump sets it here.
pub(super) fn play(view: &PlayView, layout: &Position, card: Card) -> (Position, u8) {
    layout.with_trump(trump_after(view, card)).after(card)
}

/// Whether `value` beats `best` so far for a seat that wants more tricks (`more`) or fewer;
/// ties keep the earlier card.
pub(super) fn improves(more: bool, value: u64, best: Option<u64>) -> bool {
    match best {
        None => true,
        Some(b) => (more && value > b) || (!more && value < b),
    }
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

    /// Whether the contract is made from `position`, reached with `gained` more tricks (PIMC's
    /// tests compare its fast path with this plain query).
    #[cfg(test)]
    pub(super) fn made(&self, solver: &mut Solver, position: &Position, gained: u8) -> bool {
        self.made_with(position, gained, |position, tricks| {
            solver.can_make(position, tricks)
        })
    }

    /// [`Goal::made`] with `can_make` answering the target queries ("can the declarer reach
    /// this many more tricks, at most this many in a misère?").
    pub(super) fn made_with(
        &self,
        position: &Position,
        gained: u8,
        can_make: impl FnOnce(&Position, u8) -> bool,
    ) -> bool {
        let taken = self.won + gained;
        if self.misere {
            taken == 0 && can_make(position, 0)
        } else if taken >= self.needed {
            true
        } else {
            can_make(position, self.needed - taken)
        }
    }

    /// The target query of [`Goal::made`] asked before the trick in progress is completed:
    /// the tricks the declarer still needs, or in a misère the most it may take (none). Only
    /// for an open contract ([`Goal::open`]).
    pub(super) fn still_needed(&self) -> u8 {
        if self.misere {
            0
        } else {
            self.needed - self.won
        }
    }

    /// Whether the contract is still open with `left` tricks to play: neither made nor beaten
    /// whatever happens now.
    pub(super) fn open(&self, left: u8) -> bool {
        if self.misere {
            self.won == 0
        } else {
            self.won < self.needed && self.won + left >= self.needed
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
