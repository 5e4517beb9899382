//! What a seat may know: the information-set views handed to policies.
//!
//! A view wraps the deal state privately and exposes only public information plus the seat's
//! own hand, so a policy cannot look at another seat's cards by construction.

use crate::cards::{Card, CardSet, Suit};
use crate::game::{Call, Contract, DealState, SessionState};
use crate::rules::{Bid, Profile};

/// What a seat knows when it is its turn to call.
#[derive(Clone, Copy)]
pub struct BidView<'a> {
    state: &'a DealState<'a>,
    seat: usize,
}

impl<'a> BidView<'a> {
    /// The view of the seat to call in `state`.
    pub fn new(state: &'a DealState<'a>) -> BidView<'a> {
        let seat = state.to_act().expect("a seat to call");
        BidView { state, seat }
    }
    /// The profile being played.
    pub fn profile(&self) -> &'a Profile {
        self.state.profile()
    }
    /// This seat.
    pub fn seat(&self) -> usize {
        self.seat
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.state.players()
    }
    /// The dealer's seat.
    pub fn dealer(&self) -> usize {
        self.state.dealer()
    }
    /// This seat's position in the auction: 0 for eldest (the dealer's left).
    pub fn position(&self) -> usize {
        self.state.calls().len()
    }
    /// The kitty now (it is on the table for everyone to see).
    pub fn kitty(&self) -> i64 {
        self.state.kitty_before()
    }
    /// The session this deal is part of: the deal's number, the session's length and every
    /// seat's balance before this deal (public: everyone has kept the score). None outside a
    /// session.
    pub fn session(&self) -> Option<&'a SessionState> {
        self.state.session()
    }
    /// Cards left in the stock to buy from (Purchase Nap).
    pub fn stock_left(&self) -> usize {
        self.state.stock_left()
    }
    /// The floater, if this seat paid to see it (Peep Nap).
    pub fn floater(&self) -> Option<Card> {
        self.state.floater_seen_by(self.seat)
    }
    /// Whether a floater lies on the table (Peep Nap).
    pub fn has_floater(&self) -> bool {
        self.state.floater().is_some()
    }
    /// Whether this seat has already looked at the floater.
    pub fn peeked(&self) -> bool {
        self.state.peeked(self.seat)
    }
    /// This seat's hand.
    pub fn hand(&self) -> CardSet {
        self.state.hand(self.seat)
    }
    /// The calls made so far, in speaking order.
    pub fn calls(&self) -> &'a [Call] {
        self.state.calls()
    }
    /// The highest bid so far and who made it.
    pub fn highest(&self) -> Option<Contract> {
        self.state.contract()
    }
    /// Whether `call` is legal now.
    pub fn is_legal(&self, call: Call) -> bool {
        self.state.check_call(call).is_ok()
    }
    /// The legal calls: passing, then the bids of the ladder the seat may call.
    pub fn legal_calls(&self) -> Vec<Call> {
        std::iter::once(Call::Pass)
            .chain(self.profile().bid_ids().map(Call::Bid))
            .filter(|&call| self.is_legal(call))
            .collect()
    }
}

/// What a seat knows when it is its turn to play a card.
#[derive(Clone, Copy)]
pub struct PlayView<'a> {
    state: &'a DealState<'a>,
    seat: usize,
    legal: CardSet,
}

impl<'a> PlayView<'a> {
    /// The view of the seat to play in `state` (which must be in its play phase).
    #[inline]
    pub fn new(state: &'a DealState<'a>) -> PlayView<'a> {
        debug_assert_eq!(state.phase(), crate::game::Phase::Play, "a seat to play");
        PlayView {
            state,
            seat: state.next_seat(),
            legal: state.legal_cards(),
        }
    }
    /// The profile being played.
    pub fn profile(&self) -> &'a Profile {
        self.state.profile()
    }
    /// This seat.
    pub fn seat(&self) -> usize {
        self.seat
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.state.players()
    }
    /// The dealer's seat.
    pub fn dealer(&self) -> usize {
        self.state.dealer()
    }
    /// This seat's remaining cards.
    pub fn hand(&self) -> CardSet {
        self.state.hand(self.seat)
    }
    /// The session this deal is part of, as [`BidView::session`].
    pub fn session(&self) -> Option<&'a SessionState> {
        self.state.session()
    }
    /// The cards this seat may play now.
    pub fn legal(&self) -> CardSet {
        self.legal
    }
    /// The auction's calls in speaking order.
    pub fn calls(&self) -> &'a [Call] {
        self.state.calls()
    }
    /// The contract being played.
    pub fn contract(&self) -> Contract {
        self.state.contract().expect("a contract in the play phase")
    }
    /// The contract's bid.
    pub fn bid(&self) -> &'a Bid {
        self.profile().bid(self.contract().bid)
    }
    /// Whether the contract is a misère.
    pub fn is_misere(&self) -> bool {
        self.state.is_misere()
    }
    /// The declarer's seat.
    #[inline]
    pub fn declarer(&self) -> usize {
        self.state.declarer()
    }
    /// Whether this seat is the declarer.
    #[inline]
    pub fn is_declarer(&self) -> bool {
        self.state.declarer() == self.seat
    }
    /// The trump suit (None before the opening lead and in no-trump contracts).
    pub fn trump(&self) -> Option<Suit> {
        self.state.trump()
    }
    /// The cards of the trump suit (empty when [`PlayView::trump`] is None).
    #[inline]
    pub fn trumps(&self) -> CardSet {
        self.state.trumps()
    }
    /// Every card played so far, in order.
    pub fn history(&self) -> &'a [Card] {
        self.state.history()
    }
    /// The set of cards played so far.
    pub fn played(&self) -> CardSet {
        self.state.played()
    }
    /// The cards of trick `t` (0 first) in play order, its leader first (started tricks only).
    pub fn trick_cards(&self, t: usize) -> &'a [Card] {
        self.state.trick_cards(t)
    }
    /// The seat that led trick `t` (started tricks only).
    pub fn trick_leader(&self, t: usize) -> usize {
        self.state.trick_leader(t)
    }
    /// The seat that won trick `t` (completed tricks only).
    pub fn trick_winner(&self, t: usize) -> usize {
        self.state.trick_winner(t)
    }
    /// The cards of the trick in progress, leader first.
    pub fn current_trick(&self) -> &'a [Card] {
        self.state.current_trick()
    }
    /// The card now winning the trick in progress and its seat.
    #[inline]
    pub fn winning(&self) -> Option<(Card, usize)> {
        self.state.winning()
    }
    /// Tricks completed so far.
    pub fn tricks_done(&self) -> usize {
        self.state.tricks_done()
    }
    /// Tricks taken so far by `seat`.
    pub fn tricks_won(&self, seat: usize) -> u8 {
        self.state.tricks_won(seat)
    }
    /// Whether `seat` has shown void in `suit` by failing to follow it.
    #[inline]
    pub fn known_void(&self, seat: usize, suit: Suit) -> bool {
        self.state.void_mask(seat) & (1 << suit as u8) != 0
    }
    /// The suits `seat` has shown void in, a bit per suit (bit 0 clubs).
    #[inline]
    pub fn void_mask(&self, seat: usize) -> u8 {
        self.state.void_mask(seat)
    }
    /// Whether every other seat has shown void in `suit`.
    #[inline]
    pub fn others_void(&self, suit: Suit) -> bool {
        self.state.others_void(self.seat, suit)
    }
    /// The suit led to the trick in progress (None when this seat leads).
    #[inline]
    pub fn led(&self) -> Option<Suit> {
        self.state.led()
    }
    /// How many seats play after this one in the current trick.
    pub fn seats_after(&self) -> usize {
        self.players() - 1 - self.current_trick().len()
    }
    /// Whether `seat` still plays to the current trick after this seat.
    pub fn plays_after(&self, seat: usize) -> bool {
        let n = self.players();
        let ahead = (seat + n - self.seat) % n;
        ahead != 0 && ahead <= self.seats_after()
    }
    /// The floater, if this seat saw it (it paid to look, or took it as declarer).
    pub fn floater(&self) -> Option<Card> {
        self.state.floater_seen_by(self.seat)
    }
    /// Cards this seat itself put out of play (the declarer's floater discard).
    pub fn set_aside(&self) -> CardSet {
        match self.state.floater_discard() {
            Some(card) if self.is_declarer() => card.set(),
            _ => CardSet::EMPTY,
        }
    }
    /// How many cards `seat` holds now (public: everyone sees the cards played).
    pub fn hand_len(&self, seat: usize) -> usize {
        self.state.hand(seat).count() as usize
    }
    /// Cards this seat knows are out of play: those it gave up in a purchase or on taking the
    /// spare hand, and its floater discard.
    pub fn known_out(&self) -> CardSet {
        let (given, _) = self.state.bought(self.seat);
        let spare = match self.state.spare_exchange() {
            Some((taker, gave, _)) if taker == self.seat => gave,
            _ => CardSet::EMPTY,
        };
        given | spare | self.set_aside()
    }
    /// **A cheat:** every seat's hand, for the holder of the double-dummy capability (the `dd`
    /// family); every other policy decides from what its seat can know.
    pub fn all_hands(
        &self,
        _sees_all: &super::SeeAllHands,
    ) -> [CardSet; crate::rules::MAX_PLAYERS] {
        let mut hands = [CardSet::EMPTY; crate::rules::MAX_PLAYERS];
        for (seat, hand) in hands.iter_mut().enumerate().take(self.players()) {
            *hand = self.state.hand(seat);
        }
        hands
    }
    /// The cards this seat cannot see: the pack less its hand, the cards played and a floater
    /// it saw (other hands and the undealt stock together).
    #[inline]
    pub fn unseen(&self) -> CardSet {
        let unseen = self.state.pack() - self.hand() - self.played();
        if self.state.floater().is_none() {
            return unseen;
        }
        unseen - self.floater().map_or(CardSet::EMPTY, Card::set) - self.set_aside()
    }
}
