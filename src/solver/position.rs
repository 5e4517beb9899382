//! A position for the solver: every hand visible, perhaps a trick in progress.

use thiserror::Error;

use crate::cards::{Card, CardSet, Suit};
use crate::game::{DealState, Phase};
use crate::rules::{HAND_SIZE, MAX_PLAYERS, TrumpRule};

/// A position of the play with every hand visible: what the solver works on.
///
/// The trump suit is fixed (the opening lead, which may choose it, is the business of
/// [`Solver::opening`](super::Solver::opening)). In a misère the declarer wants to take no
/// trick, so it plays to take as few as it can and the defenders to give it as many as they can.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) players: usize,
    pub(super) declarer: usize,
    pub(super) hands: [CardSet; MAX_PLAYERS],
    pub(super) trump: Option<Suit>,
    pub(super) misere: bool,
    pub(super) leader: usize,
    pub(super) trick: [Card; MAX_PLAYERS],
    pub(super) trick_len: usize,
}

/// Why a set of hands and a trick do not make a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The player count is outside 3 to 7.
    #[error("a position needs 3 to {MAX_PLAYERS} players, not {0}")]
    Players(usize),
    /// A seat number is not at the table.
    #[error("seat {0} is not at a table of {1}")]
    Seat(usize, usize),
    /// A card is held twice, or held and on the table.
    #[error("{0} appears twice")]
    Duplicate(Card),
    /// Hand sizes do not fit the trick in progress.
    #[error("the hands hold {0} cards at seat {1}, but the trick in progress needs {2}")]
    HandSize(usize, usize, usize),
    /// A hand is larger than a deal's five cards, or every hand is empty.
    #[error("hands must hold 1 to {HAND_SIZE} cards each")]
    Empty,
    /// The trick in progress already holds a card from every seat.
    #[error("the trick in progress is complete")]
    TrickComplete,
}

impl Position {
    /// A position with `leader` having led the cards of `trick` (empty at the start of a trick),
    /// `hands` by seat as they are now.
    pub fn new(
        hands: &[CardSet],
        declarer: usize,
        trump: Option<Suit>,
        misere: bool,
        leader: usize,
        trick: &[Card],
    ) -> Result<Position, PositionError> {
        let players = hands.len();
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(PositionError::Players(players));
        }
        for seat in [declarer, leader] {
            if seat >= players {
                return Err(PositionError::Seat(seat, players));
            }
        }
        if trick.len() >= players {
            return Err(PositionError::TrickComplete);
        }
        let mut seen = CardSet::EMPTY;
        for card in hands.iter().flat_map(|h| *h).chain(trick.iter().copied()) {
            if seen.contains(card) {
                return Err(PositionError::Duplicate(card));
            }
            seen.insert(card);
        }
        // Seats that have played to the trick hold one card fewer than those still to play.
        let to_play = hands[(leader + trick.len()) % players].count() as usize;
        if to_play == 0 || to_play > HAND_SIZE {
            return Err(PositionError::Empty);
        }
        for (offset, _) in hands.iter().enumerate() {
            let seat = (leader + offset) % players;
            let want = if offset < trick.len() {
                to_play - 1
            } else {
                to_play
            };
            let have = hands[seat].count() as usize;
            if have != want {
                return Err(PositionError::HandSize(have, seat, want));
            }
        }
        Ok(Position::assemble(
            hands, declarer, trump, misere, leader, trick,
        ))
    }

    /// [`Position::new`] without its checks, for hands and a trick that make a position by
    /// construction (a layout sampled around one seat's view, or the deal's own); checked in
    /// debug builds.
    pub(crate) fn new_unchecked(
        hands: &[CardSet],
        declarer: usize,
        trump: Option<Suit>,
        misere: bool,
        leader: usize,
        trick: &[Card],
    ) -> Position {
        let position = Position::assemble(hands, declarer, trump, misere, leader, trick);
        debug_assert_eq!(
            Position::new(hands, declarer, trump, misere, leader, trick),
            Ok(position),
            "the hands do not make a position"
        );
        position
    }

    /// The position of [`Position::new`]'s arguments, unchecked.
    fn assemble(
        hands: &[CardSet],
        declarer: usize,
        trump: Option<Suit>,
        misere: bool,
        leader: usize,
        trick: &[Card],
    ) -> Position {
        let players = hands.len();
        let mut position = Position {
            players,
            declarer,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            trump,
            misere,
            leader,
            trick: [Card::try_from_index(2).expect("a card"); MAX_PLAYERS],
            trick_len: trick.len(),
        };
        position.hands[..players].copy_from_slice(hands);
        position.trick[..trick.len()].copy_from_slice(trick);
        position
    }

    /// The position of a deal being played (`state` in its play phase, trump fixed), seen with
    /// every hand visible. `None` before the opening lead has fixed trump, or after the play.
    pub fn from_state(state: &DealState) -> Option<Position> {
        let seat = state.to_act()?;
        let contract = state.contract()?;
        let first_lead = state.profile().bid(contract.bid).trump() == TrumpRule::FirstLead;
        let opening = state.tricks_done() == 0 && state.current_trick().is_empty();
        if state.phase() != Phase::Play || (first_lead && opening) {
            return None;
        }
        let players = state.players();
        let hands: Vec<CardSet> = (0..players).map(|s| state.hand(s)).collect();
        let trick = state.current_trick();
        let leader = (seat + players - trick.len()) % players;
        Position::new(
            &hands,
            contract.declarer,
            state.trump(),
            state.is_misere(),
            leader,
            trick,
        )
        .ok()
    }

    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players
    }
    /// The declarer's seat.
    pub fn declarer(&self) -> usize {
        self.declarer
    }
    /// The cards `seat` holds.
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }
    /// The trump suit, if any.
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }
    /// Whether the declarer plays a misère.
    pub fn is_misere(&self) -> bool {
        self.misere
    }
    /// The seat to play.
    pub fn to_play(&self) -> usize {
        // A compare instead of a division (asked at every PIMC query).
        super::search::wrap(self.leader + self.trick_len, self.players)
    }
    /// The cards of the trick in progress, leader first.
    pub fn trick(&self) -> &[Card] {
        &self.trick[..self.trick_len]
    }
    /// Tricks still to be completed, the one in progress included.
    pub fn tricks_left(&self) -> u8 {
        self.hands[self.to_play()].count() as u8
    }
    /// The cards the seat to play may play (follow suit if able).
    pub fn legal(&self) -> CardSet {
        let hand = self.hands[self.to_play()];
        match self.trick_len {
            0 => hand,
            _ => hand.follow(self.trick[0].suit()),
        }
    }

    /// The same position with `hands` (by seat, at least one per player) in place of its own:
    /// for the layouts sampled around one seat's view, whose hands hold as many cards as this
    /// position's and no card of its trick, so that what [`Position::new`] checks holds by
    /// construction (checked in debug builds).
    pub fn with_hands(self, hands: &[CardSet]) -> Position {
        let hands = &hands[..self.players];
        let mut position = self;
        position.hands[..self.players].copy_from_slice(hands);
        debug_assert_eq!(
            Position::new(
                hands,
                self.declarer,
                self.trump,
                self.misere,
                self.leader,
                self.trick()
            ),
            Ok(position),
            "the hands do not make a position"
        );
        position
    }

    /// The same position with `trump` as the trump suit (for an opening lead that chooses it).
    pub fn with_trump(mut self, trump: Option<Suit>) -> Position {
        self.trump = trump;
        self
    }

    /// The position after the seat to play plays `card` (which must be legal), with the
    /// declarer's tricks from the completed trick, if one was completed.
    pub fn after(&self, card: Card) -> (Position, u8) {
        debug_assert!(self.legal().contains(card), "{card} is not legal");
        let mut next = *self;
        let seat = self.to_play();
        next.hands[seat].remove(card);
        next.trick[next.trick_len] = card;
        next.trick_len += 1;
        if next.trick_len < self.players {
            return (next, 0);
        }
        let winner = crate::game::trick_winner(
            &next.trick[..self.players],
            self.leader,
            self.players,
            self.trump,
        );
        next.leader = winner;
        next.trick_len = 0;
        (next, u8::from(winner == self.declarer))
    }
}
