//! One deal as a state machine: purchase, auction, the variants' extras, five tricks, then the
//! result and what it pays.
//!
//! [`DealState`] starts from dealt hands. Each action comes in two forms: a checked one
//! ([`DealState::call`], [`DealState::play`]) that returns an error and leaves the state
//! unchanged when the action is illegal, and an unchecked fast path for simulation
//! ([`DealState::call_unchecked`], [`DealState::play_unchecked`]) that only debug-asserts
//! legality.
//!
//! This file holds the state, its constructors and its accessors; the actions live beside it,
//! one job a file, each an `impl DealState` block that sees the state's private fields:
//! `auction` (calls), `extras` (purchase, floater, spare hand, naming trump), `play` (tricks)
//! and `settle` (the result, and the one computation of what each seat and the kitty get).

mod auction;
mod extras;
mod play;
mod settle;

pub use auction::{Call, Contract, IllegalCall};
pub use extras::IllegalPurchase;
pub use play::{IllegalPlay, beats, opening_leads, trick_winner};
pub use settle::{Settlement, contract_payments};

use crate::cards::{Card, CardSet, Suit};
use crate::rules::{BidId, HAND_SIZE, MAX_PLAYERS, Profile};

/// Where a deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Purchase Nap: seats in turn from the dealer's left may buy cards from the stock.
    Purchase,
    /// Seats are calling.
    Auction,
    /// Peep Nap: the declarer of a bid with the floater takes it and discards one card.
    Floater,
    /// The declarer names the trump suit (a bid whose trump is named).
    Trump,
    /// Tricks are being played.
    Play,
    /// Every trick is played, or every seat passed.
    Finished,
}

/// The state of one deal.
#[derive(Clone, Debug)]
pub struct DealState<'p> {
    profile: &'p Profile,
    players: u8,
    dealer: u8,
    phase: Phase,
    dealt: [CardSet; MAX_PLAYERS],
    hands: [CardSet; MAX_PLAYERS],
    calls: [Call; MAX_PLAYERS],
    call_count: u8,
    contract: Option<Contract>,
    /// Whether the contract is a misère (cached from the profile when the auction ends).
    misere: bool,
    /// The declarer (cached from `contract` when the auction ends, for the play's hot path).
    declarer: u8,
    trump: Option<Suit>,
    /// The trump suit's cards (empty without trump): `trump` as a mask for the hot path.
    trumps: CardSet,
    /// Every card played, in order; trick `t` is `history[t * players ..][.. players]`.
    history: [Card; HAND_SIZE * MAX_PLAYERS],
    played_count: u8,
    /// Cards in the trick in progress.
    in_trick: u8,
    /// The suit led to the trick in progress (cached from `history` at the lead).
    led: Suit,
    /// Tricks completed (so also the index of the trick in progress).
    trick: u8,
    /// The seat to act (meaningless once finished).
    next: u8,
    /// The pack in play, so that "unseen" needs no profile lookup.
    pack: CardSet,
    trick_leaders: [u8; HAND_SIZE],
    trick_winners: [u8; HAND_SIZE],
    /// The card now winning the current trick and its seat.
    winning: (Card, u8),
    tricks_won: [u8; MAX_PLAYERS],
    played: CardSet,
    /// Bit `4 * seat + suit` is set when `seat` has shown void in `suit` (failed to follow):
    /// one word, so "has every other seat shown void in trumps" is one mask test.
    voids: u32,
    /// A revoke that ended a replayed deal: the seat and the card.
    revoke: Option<(u8, Card)>,
    /// A seat that forfeited the deal (its bot failed, `tournament --forfeit`): settled as a
    /// revoke by that seat.
    forfeit: Option<u8>,
    /// The spare hand (Sir Garnet), face down until taken.
    spare: CardSet,
    /// Whether a seat took the spare hand.
    spare_taken: bool,
    /// The five cards the taker of the spare hand kept.
    kept: CardSet,
    /// The kitty when the deal began.
    kitty_before: i64,
    /// The session this deal is part of (None outside one).
    session: Option<super::session::SessionState>,
    /// Units each seat paid into the kitty during the deal before settlement (antes, stakes).
    paid_in: [i64; MAX_PLAYERS],
    /// The stock in order (Purchase Nap) and how many cards were drawn from its top.
    stock_order: super::StockOrder,
    stock_drawn: u8,
    /// Per seat, the cards it gave up and received when buying.
    bought: [(CardSet, CardSet); MAX_PLAYERS],
    /// The seats that paid the purchase stake (one bit each): a seat may pay and discard
    /// nothing.
    bought_in: u8,
    /// The floater (Peep Nap), the seats that paid to see it, and the card the declarer of a
    /// bid with the floater discarded.
    floater: Option<Card>,
    peeked: u8,
    floater_discard: Option<Card>,
    /// Purchases decided so far (the purchase phase).
    purchases_done: u8,
}

const NO_CARD: Card = Card::new(crate::cards::Rank::Two, Suit::Clubs);

impl<'p> DealState<'p> {
    /// A new deal at the start of its auction. `hands` holds one hand per seat.
    pub fn new(profile: &'p Profile, dealer: usize, hands: &[CardSet]) -> DealState<'p> {
        let mut all = [CardSet::EMPTY; MAX_PLAYERS];
        // An element loop: a slice copy of variable length would call memcpy on every deal.
        for (slot, &hand) in all.iter_mut().zip(hands) {
            *slot = hand;
        }
        DealState::build(profile, dealer, hands.len(), all, None)
    }

    /// The one constructor, built as a single struct literal so that it is written in place.
    fn build(
        profile: &'p Profile,
        dealer: usize,
        players: usize,
        dealt: [CardSet; MAX_PLAYERS],
        extras: Option<&super::Dealt>,
    ) -> DealState<'p> {
        debug_assert!(players <= MAX_PLAYERS && dealer < players);
        // Every seat antes into the kitty before a dealt deal.
        let ante = if extras.is_some() { profile.ante() } else { 0 };
        let mut paid_in = [0; MAX_PLAYERS];
        for paid in &mut paid_in[..players] {
            *paid = ante;
        }
        let purchase = extras.is_some() && profile.purchase_stake().is_some();
        DealState {
            profile,
            players: players as u8,
            dealer: dealer as u8,
            phase: if purchase {
                Phase::Purchase
            } else {
                Phase::Auction
            },
            dealt,
            hands: dealt,
            calls: [Call::Pass; MAX_PLAYERS],
            call_count: 0,
            contract: None,
            misere: false,
            declarer: 0,
            trump: None,
            trumps: CardSet::EMPTY,
            history: [NO_CARD; HAND_SIZE * MAX_PLAYERS],
            played_count: 0,
            in_trick: 0,
            led: Suit::Clubs,
            trick: 0,
            next: next_seat(dealer, players) as u8,
            pack: profile.pack(players),
            trick_leaders: [0; HAND_SIZE],
            trick_winners: [0; HAND_SIZE],
            winning: (NO_CARD, 0),
            tricks_won: [0; MAX_PLAYERS],
            played: CardSet::EMPTY,
            voids: 0,
            revoke: None,
            forfeit: None,
            spare: extras.map_or(CardSet::EMPTY, |d| d.spare),
            spare_taken: false,
            kept: CardSet::EMPTY,
            kitty_before: 0,
            session: None,
            paid_in,
            stock_order: match extras {
                Some(d) if purchase => d.stock_order,
                _ => super::StockOrder::EMPTY,
            },
            stock_drawn: 0,
            bought: [(CardSet::EMPTY, CardSet::EMPTY); MAX_PLAYERS],
            bought_in: 0,
            floater: extras.and_then(|d| d.floater),
            peeked: 0,
            floater_discard: None,
            purchases_done: 0,
        }
    }

    /// A deal at the start of its auction with the cards on the table that the auction can
    /// use: the floater (Peep Nap) and the spare hand (Sir Garnet). Nothing is paid into the
    /// kitty and nothing is bought: for analyses that replay auctions on sampled hands.
    pub fn with_table_cards(
        profile: &'p Profile,
        dealer: usize,
        hands: &[CardSet],
        floater: Option<Card>,
        spare: CardSet,
    ) -> DealState<'p> {
        let mut state = DealState::new(profile, dealer, hands);
        state.floater = floater;
        state.spare = spare;
        state
    }

    /// A deal whose auction is already settled: `declarer` called `bid` and every other seat
    /// passed. For analyses that evaluate one contract on given hands (the dealer is the last
    /// seat, so seat 0 called first). `floater` lies on the table for a bid made with it.
    /// The bid need not have been callable over passes (Wellington is valued as if Nap had
    /// been called before it); nothing is paid into the kitty.
    pub fn declared(
        profile: &'p Profile,
        hands: &[CardSet],
        floater: Option<Card>,
        declarer: usize,
        bid: BidId,
    ) -> DealState<'p> {
        let players = hands.len();
        let mut state = DealState::new(profile, players - 1, hands);
        state.floater = floater;
        for seat in 0..players {
            state.calls[seat] = if seat == declarer {
                Call::Bid(bid)
            } else {
                Call::Pass
            };
        }
        state.call_count = players as u8;
        state.contract = Some(Contract { declarer, bid });
        state.end_auction();
        state
    }

    /// A new deal from what a [`Shuffler`](super::Shuffler) dealt (hands and any spare hand).
    pub fn from_dealt(
        profile: &'p Profile,
        dealer: usize,
        dealt: &super::Dealt,
        players: usize,
    ) -> DealState<'p> {
        DealState::build(profile, dealer, players, dealt.hands, Some(dealt))
    }

    /// The profile being played.
    pub fn profile(&self) -> &'p Profile {
        self.profile
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players as usize
    }
    /// The dealer's seat.
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The hand `seat` was dealt.
    pub fn dealt(&self, seat: usize) -> CardSet {
        self.dealt[seat]
    }
    /// The cards `seat` still holds.
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }
    /// The calls so far, in speaking order (the first is eldest's, the dealer's left).
    pub fn calls(&self) -> &[Call] {
        &self.calls[..self.call_count as usize]
    }
    /// The seat that made the `i`-th call.
    pub fn caller(&self, i: usize) -> usize {
        (self.dealer as usize + 1 + i) % self.players as usize
    }
    /// The highest bid so far and its seat (the contract once the auction is over).
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }
    /// Whether the contract (once the auction is over) is a misère.
    pub fn is_misere(&self) -> bool {
        self.misere
    }
    /// The trump suit, once the first card is led (None before, or in a no-trump contract).
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }
    /// Every card played so far, in order.
    pub fn history(&self) -> &[Card] {
        &self.history[..self.played_count as usize]
    }
    /// The set of cards played so far.
    pub fn played(&self) -> CardSet {
        self.played
    }
    /// Tricks completed so far.
    pub fn tricks_done(&self) -> usize {
        self.trick as usize
    }
    /// The pack in play.
    pub fn pack(&self) -> CardSet {
        self.pack
    }
    /// The leader of trick `t` (started tricks only).
    pub fn trick_leader(&self, t: usize) -> usize {
        self.trick_leaders[t] as usize
    }
    /// The winner of trick `t` (completed tricks only).
    pub fn trick_winner(&self, t: usize) -> usize {
        self.trick_winners[t] as usize
    }
    /// The cards of trick `t` in play order, starting with the leader.
    pub fn trick_cards(&self, t: usize) -> &[Card] {
        let n = self.players as usize;
        let start = t * n;
        let end = (start + n).min(self.played_count as usize);
        &self.history[start.min(end)..end]
    }
    /// The cards of the trick in progress, leader first (empty between tricks).
    pub fn current_trick(&self) -> &[Card] {
        let end = self.played_count as usize;
        &self.history[end - self.in_trick as usize..end]
    }
    /// The card now winning the trick in progress, and its seat.
    pub fn winning(&self) -> Option<(Card, usize)> {
        if self.in_trick == 0 {
            None
        } else {
            Some((self.winning.0, self.winning.1 as usize))
        }
    }
    /// Tricks taken by `seat`.
    pub fn tricks_won(&self, seat: usize) -> u8 {
        self.tricks_won[seat]
    }
    /// The suits `seat` has shown void in, as a bit per suit lane.
    pub fn void_mask(&self, seat: usize) -> u8 {
        (self.voids >> (4 * seat)) as u8 & 0xf
    }
    /// The seats that have shown void in `suit`, as a bit per seat.
    pub fn void_seats(&self, suit: Suit) -> u8 {
        // Gather bit `4 * seat + suit` of every seat into bit `seat` (at most seven seats).
        let lane = (self.voids >> suit as u32) & 0x111_1111;
        let mut seats = 0;
        for seat in 0..MAX_PLAYERS {
            seats |= ((lane >> (4 * seat)) & 1) << seat;
        }
        seats as u8
    }
    /// Whether every seat other than `seat` has shown void in `suit`.
    #[inline]
    pub fn others_void(&self, seat: usize, suit: Suit) -> bool {
        let all = 0x111_1111u32 & ((1u32 << (4 * self.players as u32)) - 1);
        let others = (all & !(1 << (4 * seat))) << suit as u32;
        self.voids & others == others
    }
    /// The declarer (meaningful once the auction has a contract and has ended).
    #[inline]
    pub fn declarer(&self) -> usize {
        self.declarer as usize
    }
    /// The trump suit's cards: empty before the opening lead names trump and in no-trump
    /// contracts.
    #[inline]
    pub fn trumps(&self) -> CardSet {
        self.trumps
    }
    fn set_trump(&mut self, trump: Suit) {
        self.trump = Some(trump);
        self.trumps = CardSet::suit_mask(trump);
    }

    /// The seat to act next, whatever the phase (meaningless once finished): [`DealState::to_act`]
    /// without the check, for the play's hot path.
    #[inline]
    pub fn next_seat(&self) -> usize {
        self.next as usize
    }
    /// The suit led to the trick in progress (None between tricks).
    #[inline]
    pub fn led(&self) -> Option<Suit> {
        (self.in_trick != 0).then_some(self.led)
    }

    /// The seat to act, or None when the deal is finished.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::Purchase | Phase::Auction | Phase::Floater | Phase::Trump | Phase::Play => {
                Some(self.next as usize)
            }
            Phase::Finished => None,
        }
    }
}

/// The seat to the left of `seat` (the next to speak or play).
#[inline]
fn next_seat(seat: usize, players: usize) -> usize {
    if seat + 1 == players { 0 } else { seat + 1 }
}
