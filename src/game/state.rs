//! One deal as a state machine: auction, then five tricks, then the result.
//!
//! [`DealState`] starts from dealt hands. Each action comes in two forms: a checked one
//! ([`DealState::call`], [`DealState::play`]) that returns an error and leaves the state
//! unchanged when the action is illegal, and an unchecked fast path for simulation
//! ([`DealState::call_unchecked`], [`DealState::play_unchecked`]) that only debug-asserts
//! legality.

use thiserror::Error;

use crate::cards::{Card, CardSet, Suit};
use crate::rules::{BidId, HAND_SIZE, LeadRule, MAX_PLAYERS, Profile, Revoke, TrumpRule};

/// A seat's call in the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// No bid.
    Pass,
    /// A bid of the profile's ladder.
    Bid(BidId),
    /// Take the spare hand (Sir Garnet): keep five of the ten cards and play the profile's
    /// spare-hand bid, which nobody may overcall. Made with [`DealState::take_spare`].
    TakeSpare,
}

impl Call {
    /// The lowercase ASCII name used in records: `pass` or the bid's name.
    pub fn name(self, profile: &Profile) -> &str {
        match self {
            Call::Pass => "pass",
            Call::Bid(id) => profile.bid(id).name(),
            Call::TakeSpare => "take-spare",
        }
    }

    /// Parses `pass` or a bid name of `profile`.
    pub fn parse(text: &str, profile: &Profile) -> Option<Call> {
        let text = text.trim().to_ascii_lowercase();
        if text == "pass" {
            Some(Call::Pass)
        } else if text == "take-spare" && profile.spare_hand().is_some() {
            Some(Call::TakeSpare)
        } else {
            profile.bid_id(&text).map(Call::Bid)
        }
    }
}

/// The winning bid of an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    /// The seat that plays alone.
    pub declarer: usize,
    /// The bid it won with.
    pub bid: BidId,
}

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

/// Why a call was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalCall {
    /// The auction is over.
    #[error("the auction is over")]
    NotInAuction,
    /// The bid does not beat the bid on the table.
    #[error("a bid must be higher than the bid on the table")]
    NotHigher,
    /// The bid may only be called over another bid that has not been called.
    #[error("this bid may only be called over an earlier bid that has not been made")]
    NotOverRequiredBid,
    /// The spare hand was taken: nobody may overcall.
    #[error("the spare hand was taken: nobody may overcall")]
    SpareTaken,
    /// The profile has no spare hand, or it can no longer be taken.
    #[error("the spare hand cannot be taken now")]
    NoSpare,
    /// Taking the spare hand needs the five cards kept ([`DealState::take_spare`]).
    #[error("taking the spare hand needs the five cards kept")]
    KeepNeeded,
    /// The kept cards are not five of the hand and the spare hand (or the floater's discard is
    /// not one of the six cards).
    #[error("the cards kept or discarded are not the seat's")]
    BadKeep,
    /// No floater to look at or take now.
    #[error("there is no floater to look at or take now")]
    NoFloater,
    /// No trump to name now.
    #[error("no trump suit is to be named now")]
    NoTrumpToName,
    /// Naming that suit would leave no non-trump card to lead.
    #[error("the declarer must keep a non-trump card to lead: name another suit")]
    NoLeadAfterNaming,
}

/// Why a purchase was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalPurchase {
    /// The deal is not in its purchase phase.
    #[error("cards can only be bought before the auction of a Purchase Nap profile")]
    NotInPurchase,
    /// A discarded card is not in the hand.
    #[error("the seat does not hold every card it discards")]
    NotHeld,
    /// Fewer cards left in the stock than discarded.
    #[error("{wanted} cards wanted but only {left} left in the stock")]
    StockTooSmall {
        /// Cards asked for.
        wanted: usize,
        /// Cards left.
        left: usize,
    },
}

/// Why a card could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalPlay {
    /// The deal is not in its play phase.
    #[error("no card can be played now (the deal is not in its play phase)")]
    NotInPlay,
    /// The seat to play does not hold the card.
    #[error("the seat to play does not hold that card")]
    NotHeld,
    /// The seat can follow suit and did not.
    #[error("the seat must follow suit")]
    MustFollowSuit,
    /// The opening lead breaks the contract's lead rule (Bonaparte, Wellington).
    #[error("the opening lead must follow the contract's lead rule")]
    LeadRule,
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
    /// The spare hand (Sir Garnet), face down until taken.
    spare: CardSet,
    /// Whether a seat took the spare hand.
    spare_taken: bool,
    /// The five cards the taker of the spare hand kept.
    kept: CardSet,
    /// The kitty when the deal began.
    kitty_before: i64,
    /// Units each seat paid into the kitty during the deal before settlement (antes, stakes).
    paid_in: [i64; MAX_PLAYERS],
    /// The stock in order (Purchase Nap) and how many cards were drawn from its top.
    stock_order: super::StockOrder,
    stock_drawn: u8,
    /// Per seat, the cards it gave up and received when buying.
    bought: [(CardSet, CardSet); MAX_PLAYERS],
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
            spare: extras.map_or(CardSet::EMPTY, |d| d.spare),
            spare_taken: false,
            kept: CardSet::EMPTY,
            kitty_before: 0,
            paid_in,
            stock_order: match extras {
                Some(d) if purchase => d.stock_order,
                _ => super::StockOrder::EMPTY,
            },
            stock_drawn: 0,
            bought: [(CardSet::EMPTY, CardSet::EMPTY); MAX_PLAYERS],
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

    /// Starts the deal with `kitty` units in the kitty (carried over from the previous deal).
    pub fn set_kitty(&mut self, kitty: i64) {
        self.kitty_before = kitty;
    }

    /// The kitty when the deal began.
    pub fn kitty_before(&self) -> i64 {
        self.kitty_before
    }

    /// The kitty after the deal: what was in it, plus what was paid in, less what a winning
    /// declarer took (only meaningful once finished).
    pub fn kitty_after(&self) -> i64 {
        let players = self.players as usize;
        let mut kitty = self.kitty_before + self.paid_in[..players].iter().sum::<i64>();
        if let (Some(c), Some(made)) = (self.contract, self.made()) {
            // A revoking defender settles with the declarer alone; the kitty is untouched.
            let defender_revoked = self
                .revoke
                .is_some_and(|(seat, _)| seat as usize != c.declarer);
            let bid = self.profile.bid(c.bid);
            if !defender_revoked && made && bid.takes_kitty() {
                kitty = 0;
            } else if !defender_revoked && !made && bid.failed_to_kitty() {
                kitty += self.failed_payout() * players as i64;
            }
        }
        kitty
    }

    /// What the contract's bid pays per opponent (or per player into the kitty) when it fails:
    /// its `failed` payout, multiplied where the spare hand was taken.
    fn failed_payout(&self) -> i64 {
        let bid = self.profile.bid(self.contract.expect("a contract").bid);
        match self.profile.spare_hand() {
            Some(spare) if self.spare_taken => bid.failed() * spare.failed_multiplier,
            _ => bid.failed(),
        }
    }

    /// The floater dealt face down (Peep Nap).
    pub fn floater(&self) -> Option<Card> {
        self.floater
    }

    /// Whether `seat` paid to look at the floater.
    pub fn peeked(&self, seat: usize) -> bool {
        self.peeked & (1 << seat) != 0
    }

    /// The floater as `seat` knows it: seen if it paid to look, or took it as declarer.
    pub fn floater_seen_by(&self, seat: usize) -> Option<Card> {
        let took =
            self.floater_discard.is_some() && self.contract.is_some_and(|c| c.declarer == seat);
        self.floater.filter(|_| self.peeked(seat) || took)
    }

    /// The declarer's floater exchange, once made: the card it discarded (possibly the floater).
    pub fn floater_discard(&self) -> Option<Card> {
        self.floater_discard
    }

    /// Whether the seat to call may pay to look at the floater now (before its call).
    pub fn can_peek(&self) -> bool {
        self.phase == Phase::Auction && self.floater.is_some() && !self.peeked(self.next as usize)
    }

    /// The seat to call pays the profile's price into the kitty and looks at the floater.
    pub fn peek(&mut self) -> Result<Card, IllegalCall> {
        if !self.can_peek() {
            return Err(IllegalCall::NoFloater);
        }
        let seat = self.next as usize;
        self.peeked |= 1 << seat;
        self.paid_in[seat] += self.profile.peek_price();
        Ok(self.floater.expect("checked"))
    }

    /// The declarer of a bid with the floater takes it and discards `discard` (one of its six
    /// cards, possibly the floater).
    pub fn take_floater(&mut self, discard: Card) -> Result<(), IllegalCall> {
        if self.phase != Phase::Floater {
            return Err(IllegalCall::NoFloater);
        }
        let declarer = self.next as usize;
        let six = self.hands[declarer] | self.floater.expect("a floater in this phase").set();
        if !six.contains(discard) {
            return Err(IllegalCall::BadKeep);
        }
        self.hands[declarer] = six.without(discard);
        self.floater_discard = Some(discard);
        self.phase = self.phase_after_floater();
        Ok(())
    }

    /// The declarer names `trump` (a bid whose trump is named). With a lowest-non-trump lead
    /// rule, the hand must keep at least one card outside the trump suit.
    pub fn name_trump(&mut self, trump: Suit) -> Result<(), IllegalCall> {
        if self.phase != Phase::Trump {
            return Err(IllegalCall::NoTrumpToName);
        }
        let c = self.contract.expect("a contract");
        let hand = self.hands[c.declarer];
        if self.profile.bid(c.bid).lead() == LeadRule::LowestNonTrump
            && (hand - CardSet::suit_mask(trump)).is_empty()
        {
            return Err(IllegalCall::NoLeadAfterNaming);
        }
        self.set_trump(trump);
        self.phase = Phase::Play;
        Ok(())
    }

    fn phase_after_floater(&self) -> Phase {
        let bid = self.profile.bid(self.contract.expect("a contract").bid);
        if bid.trump() == TrumpRule::Named {
            Phase::Trump
        } else {
            Phase::Play
        }
    }

    /// The stock in order, top card first (Purchase Nap; empty otherwise).
    pub fn stock_order(&self) -> &[Card] {
        self.stock_order.as_slice()
    }

    /// Cards left in the stock to buy from (Purchase Nap).
    pub fn stock_left(&self) -> usize {
        self.stock_order.as_slice().len() - self.stock_drawn as usize
    }

    /// Buys for the seat to act in the purchase phase: gives up `discard` (empty: does not buy)
    /// and receives as many cards from the top of the stock, paying the stake into the kitty.
    pub fn purchase(&mut self, discard: CardSet) -> Result<(), IllegalPurchase> {
        if self.phase != Phase::Purchase {
            return Err(IllegalPurchase::NotInPurchase);
        }
        let seat = self.next as usize;
        if !(discard - self.hands[seat]).is_empty() {
            return Err(IllegalPurchase::NotHeld);
        }
        let n = discard.count() as usize;
        if n > self.stock_left() {
            return Err(IllegalPurchase::StockTooSmall {
                wanted: n,
                left: self.stock_left(),
            });
        }
        if n > 0 {
            let start = self.stock_drawn as usize;
            let received: CardSet = self.stock_order.as_slice()[start..start + n]
                .iter()
                .copied()
                .collect();
            self.stock_drawn += n as u8;
            self.hands[seat] = (self.hands[seat] - discard) | received;
            self.bought[seat] = (discard, received);
            self.paid_in[seat] += self.profile.purchase_stake().unwrap_or(0);
        }
        self.purchases_done += 1;
        self.next = next_seat(seat, self.players as usize) as u8;
        if self.purchases_done == self.players {
            self.phase = Phase::Auction;
        }
        Ok(())
    }

    /// What `seat` gave up and received when buying (empty sets when it did not buy).
    pub fn bought(&self, seat: usize) -> (CardSet, CardSet) {
        self.bought[seat]
    }

    /// The spare hand dealt face down (empty without one).
    pub fn spare(&self) -> CardSet {
        self.spare
    }

    /// Whether the spare hand was taken.
    pub fn spare_taken(&self) -> bool {
        self.spare_taken
    }

    /// The spare-hand exchange, once made: the taker, the cards it gave up and those it took.
    pub fn spare_exchange(&self) -> Option<(usize, CardSet, CardSet)> {
        let declarer = self.contract.filter(|_| self.spare_taken)?.declarer;
        let dealt = self.dealt[declarer];
        Some((declarer, dealt - self.kept, self.kept - dealt))
    }

    /// Whether the seat to call may take the spare hand now: the profile deals one, nobody has
    /// taken it, and the bid on the table is below the spare-hand bid.
    pub fn can_take_spare(&self) -> bool {
        self.check_call(Call::TakeSpare).is_ok()
    }

    /// Takes the spare hand for the seat to call, keeping `keep` (five of its ten cards); the
    /// seat is now the declarer of the profile's spare-hand bid.
    pub fn take_spare(&mut self, keep: CardSet) -> Result<(), IllegalCall> {
        self.check_call(Call::TakeSpare)?;
        let seat = self.next as usize;
        let ten = self.hands[seat] | self.spare;
        if keep.count() as usize != HAND_SIZE || !(keep - ten).is_empty() {
            return Err(IllegalCall::BadKeep);
        }
        let bid = self.profile.spare_hand().expect("checked").bid;
        self.hands[seat] = keep;
        self.kept = keep;
        self.spare_taken = true;
        self.contract = Some(Contract {
            declarer: seat,
            bid,
        });
        self.next = next_seat(seat, self.players as usize) as u8;
        self.calls[self.call_count as usize] = Call::TakeSpare;
        self.call_count += 1;
        if self.call_count == self.players {
            self.end_auction();
        }
        Ok(())
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
        (self.in_trick != 0).then(|| self.led_suit())
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

    /// Whether `call` is legal now.
    pub fn check_call(&self, call: Call) -> Result<(), IllegalCall> {
        if self.phase != Phase::Auction {
            return Err(IllegalCall::NotInAuction);
        }
        let current = self.contract.map(|c| c.bid);
        let bid = match call {
            Call::Pass => return Ok(()),
            Call::TakeSpare => {
                let Some(spare) = self.profile.spare_hand() else {
                    return Err(IllegalCall::NoSpare);
                };
                if self.spare_taken || self.spare.is_empty() {
                    return Err(IllegalCall::NoSpare);
                }
                return if current.is_some_and(|c| c >= spare.bid) {
                    Err(IllegalCall::NotHigher)
                } else {
                    Ok(())
                };
            }
            Call::Bid(bid) => bid,
        };
        if self.spare_taken {
            return Err(IllegalCall::SpareTaken);
        }
        if current.is_some_and(|c| bid <= c) {
            return Err(IllegalCall::NotHigher);
        }
        if let Some(required) = self.profile.bid(bid).only_over() {
            // "Only over an existing Nap": the required bid, or one above it, is on the table.
            if current.is_none_or(|c| c < required) {
                return Err(IllegalCall::NotOverRequiredBid);
            }
        }
        Ok(())
    }

    /// Whether the seat to call has any legal bid (when it has none, it can only pass).
    pub fn any_legal_bid(&self) -> bool {
        self.phase == Phase::Auction
            && !self.spare_taken
            && self.profile.can_overcall(self.contract.map(|c| c.bid))
    }

    /// Makes the next call, or returns why it is illegal (leaving the state unchanged).
    pub fn call(&mut self, call: Call) -> Result<(), IllegalCall> {
        self.check_call(call)?;
        if call == Call::TakeSpare {
            return Err(IllegalCall::KeepNeeded);
        }
        self.call_unchecked(call);
        Ok(())
    }

    /// Makes the next call without checking it (debug builds assert legality).
    pub fn call_unchecked(&mut self, call: Call) {
        debug_assert_eq!(self.check_call(call), Ok(()));
        let seat = self.next as usize;
        self.next = next_seat(seat, self.players as usize) as u8;
        self.calls[self.call_count as usize] = call;
        self.call_count += 1;
        if let Call::Bid(bid) = call {
            self.contract = Some(Contract {
                declarer: seat,
                bid,
            });
        }
        if self.call_count == self.players {
            self.end_auction();
        }
    }

    fn end_auction(&mut self) {
        match self.contract {
            None => self.phase = Phase::Finished,
            Some(c) => {
                let bid = self.profile.bid(c.bid);
                self.phase = if bid.with_floater() && self.floater.is_some() {
                    Phase::Floater
                } else if bid.trump() == TrumpRule::Named {
                    Phase::Trump
                } else {
                    Phase::Play
                };
                self.misere = bid.is_misere();
                self.declarer = c.declarer as u8;
                self.trick_leaders[0] = c.declarer as u8;
                self.next = c.declarer as u8;
            }
        }
    }

    /// The cards the seat to play may play.
    #[inline]
    pub fn legal_cards(&self) -> CardSet {
        if self.phase != Phase::Play {
            return CardSet::EMPTY;
        }
        let hand = self.hands[self.next as usize];
        if self.in_trick != 0 {
            hand.follow(self.led_suit())
        } else if self.played_count == 0 {
            self.opening_leads(hand)
        } else {
            hand
        }
    }

    /// The cards the declarer may lead to the first trick under its bid's lead rule.
    fn opening_leads(&self, hand: CardSet) -> CardSet {
        let bid = self.profile.bid(self.contract.expect("a contract").bid);
        opening_leads(hand, bid.lead(), self.trump)
    }

    /// The suit led to the trick in progress (only meaningful while a trick is in progress).
    #[inline]
    fn led_suit(&self) -> Suit {
        self.led
    }

    /// Plays `card` for the seat to play, or returns why it is illegal (state unchanged).
    pub fn play(&mut self, card: Card) -> Result<(), IllegalPlay> {
        if self.phase != Phase::Play {
            return Err(IllegalPlay::NotInPlay);
        }
        let seat = self.to_act().expect("a seat plays in the play phase");
        if !self.hands[seat].contains(card) {
            return Err(IllegalPlay::NotHeld);
        }
        if !self.legal_cards().contains(card) {
            return Err(if self.in_trick == 0 {
                IllegalPlay::LeadRule
            } else {
                IllegalPlay::MustFollowSuit
            });
        }
        self.play_unchecked(card);
        Ok(())
    }

    /// Plays `card` from a replayed game: as [`DealState::play`], except that under a profile
    /// whose revoke rule is [`Revoke::SettleAtOnce`] a failure to follow suit ends the deal, to
    /// be settled as that rule says.
    pub fn play_replayed(&mut self, card: Card) -> Result<(), IllegalPlay> {
        match self.play(card) {
            Err(IllegalPlay::MustFollowSuit) if self.profile.revoke() == Revoke::SettleAtOnce => {
                let seat = self.next;
                self.revoke = Some((seat, card));
                self.phase = Phase::Finished;
                Ok(())
            }
            other => other,
        }
    }

    /// The revoke that ended a replayed deal: the seat and the card.
    pub fn revoke(&self) -> Option<(usize, Card)> {
        self.revoke.map(|(seat, card)| (seat as usize, card))
    }

    /// Plays `card` without checking it (debug builds assert legality).
    // Always inlined: as a call it saves and restores six registers and reloads the trick
    // state for every card (measured 9% of a deal once the policy is inlined beside it).
    #[inline(always)]
    pub fn play_unchecked(&mut self, card: Card) {
        debug_assert!(self.legal_cards().contains(card), "illegal play {card}");
        let n = self.players;
        let in_trick = self.in_trick;
        let seat = self.next;
        if in_trick == 0 {
            if self.played_count == 0 {
                self.opening_lead(card);
            }
            self.led = card.suit();
            self.winning = (card, seat);
        } else {
            // Branch-free on purpose: which card wins, and who shows void, is random data that
            // a branch predictor cannot learn.
            let led = self.led_suit();
            self.voids |= u32::from(card.suit() != led) << (4 * seat as u32 + led as u32);
            let (best, best_seat) = self.winning;
            let wins = beats_trumps(card, best, self.trumps);
            self.winning = (
                if wins { card } else { best },
                if wins { seat } else { best_seat },
            );
        }
        self.hands[seat as usize].remove(card);
        self.played.insert(card);
        self.history[self.played_count as usize] = card;
        self.played_count += 1;
        if in_trick + 1 == n {
            self.end_trick();
        } else {
            self.in_trick = in_trick + 1;
            self.next = if seat + 1 == n { 0 } else { seat + 1 };
        }
    }

    /// The opening lead `card` names trump where the contract's trump rule says so.
    #[cold]
    fn opening_lead(&mut self, card: Card) {
        let bid = self.contract.expect("a contract in the play phase").bid;
        if self.profile.bid(bid).trump() == TrumpRule::FirstLead {
            self.set_trump(card.suit());
        }
    }

    /// The last card of a trick was played: the trick goes to its winner, who leads next.
    fn end_trick(&mut self) {
        let trick = self.trick as usize;
        let winner = self.winning.1;
        self.trick_winners[trick] = winner;
        self.tricks_won[winner as usize] += 1;
        self.in_trick = 0;
        self.next = winner;
        self.trick += 1;
        // A misère fails, and the deal ends, as soon as the declarer takes a trick.
        let misere_lost = self.misere && self.declarer == winner;
        if trick + 1 == HAND_SIZE || misere_lost {
            self.phase = Phase::Finished;
        } else {
            self.trick_leaders[trick + 1] = winner;
        }
    }

    /// Tricks taken by the declarer (0 when passed out).
    pub fn declarer_tricks(&self) -> u8 {
        self.contract.map_or(0, |c| self.tricks_won[c.declarer])
    }

    /// Whether the finished deal's contract was made (None when passed out or unfinished).
    pub fn made(&self) -> Option<bool> {
        if self.phase != Phase::Finished {
            return None;
        }
        let c = self.contract?;
        if let Some((seat, _)) = self.revoke {
            // A revoking declarer loses; a revoking defender pays as if the contract were made.
            return Some(seat as usize != c.declarer);
        }
        Some(self.profile.bid(c.bid).is_made(self.declarer_tricks()))
    }

    /// The finished deal's result for a simulation's tally, in one pass: whether the contract
    /// was made, the declarer's units (its entry of [`DealState::payments`]) and the kitty after
    /// the deal ([`DealState::kitty_after`]). None when passed out or unfinished.
    // The simulation loop needs only these three numbers; `payments` and `kitty_after` each
    // re-derive the result and `payments` settles every seat (together about 4% of a deal).
    #[inline]
    pub fn settlement(&self) -> Option<Settlement> {
        if self.phase != Phase::Finished {
            return None;
        }
        let c = self.contract?;
        let bid = self.profile.bid(c.bid);
        let players = self.players as i64;
        let opponents = players - 1;
        let paid: i64 = self.paid_in.iter().sum();
        let mut units = -self.paid_in[c.declarer];
        let mut kitty = self.kitty_before + paid;
        // A revoking declarer loses; a revoking defender alone pays what all the defenders
        // would have paid, and the kitty is untouched.
        let defender_revoked = self
            .revoke
            .is_some_and(|(seat, _)| seat as usize != c.declarer);
        let made = match self.revoke {
            Some(_) => defender_revoked,
            None => bid.is_made(self.tricks_won[c.declarer]),
        };
        if defender_revoked {
            units += bid.made() * opponents;
        } else if made {
            units += bid.made() * opponents;
            if bid.takes_kitty() {
                units += kitty;
                kitty = 0;
            }
        } else {
            let failed = self.failed_payout();
            if bid.failed_to_kitty() {
                units -= failed * players;
                kitty += failed * players;
            } else {
                units -= failed * opponents;
            }
        }
        debug_assert_eq!(units, self.payments()[c.declarer]);
        debug_assert_eq!(kitty, self.kitty_after());
        Some(Settlement {
            declarer: c.declarer,
            bid: c.bid,
            made,
            units,
            kitty_after: kitty,
        })
    }

    /// The units each seat wins (positive) or pays (negative) for the finished deal; they sum
    /// to zero. All zero when passed out.
    pub fn payments(&self) -> [i64; MAX_PLAYERS] {
        let players = self.players as usize;
        // What each seat paid into the kitty before settlement (antes, purchase stakes).
        let mut pay = [0i64; MAX_PLAYERS];
        for (p, paid) in pay.iter_mut().zip(&self.paid_in).take(players) {
            *p = -paid;
        }
        let (Some(c), Some(made)) = (self.contract, self.made()) else {
            return pay;
        };
        let bid = self.profile.bid(c.bid);
        let opponents = players as i64 - 1;
        if let Some((revoker, _)) = self.revoke
            && revoker as usize != c.declarer
        {
            // The revoking defender alone pays what all the defenders would have paid.
            pay[c.declarer] += bid.made() * opponents;
            pay[revoker as usize] -= bid.made() * opponents;
            return pay;
        }
        if made {
            for (seat, p) in pay.iter_mut().enumerate().take(players) {
                *p += if seat == c.declarer {
                    bid.made() * opponents
                } else {
                    -bid.made()
                };
            }
            if bid.takes_kitty() {
                let paid: i64 = self.paid_in[..players].iter().sum();
                pay[c.declarer] += self.kitty_before + paid;
            }
            return pay;
        }
        let failed = self.failed_payout();
        if bid.failed_to_kitty() {
            // Into the kitty: the amount times the number of players.
            pay[c.declarer] -= failed * players as i64;
            return pay;
        }
        for (seat, p) in pay.iter_mut().enumerate().take(players) {
            *p += if seat == c.declarer {
                -failed * opponents
            } else {
                failed
            };
        }
        pay
    }
}

/// A finished deal's contract and result ([`DealState::settlement`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// The declarer's seat.
    pub declarer: usize,
    /// The contract's bid.
    pub bid: BidId,
    /// Whether the contract was made.
    pub made: bool,
    /// The declarer's units (positive: won).
    pub units: i64,
    /// The kitty after the deal.
    pub kitty_after: i64,
}

/// The seat to the left of `seat` (the next to speak or play).
#[inline]
fn next_seat(seat: usize, players: usize) -> usize {
    if seat + 1 == players { 0 } else { seat + 1 }
}

/// The cards of `hand` the declarer may lead to the first trick under `rule`, with `trump` the
/// suit named before the lead (if any).
pub fn opening_leads(hand: CardSet, rule: LeadRule, trump: Option<Suit>) -> CardSet {
    match rule {
        LeadRule::Any => hand,
        // The lowest card of each suit: whichever suit it leads names trump.
        LeadRule::LowestOfSuit => Suit::ALL
            .into_iter()
            .filter_map(|s| hand.of_suit(s).first())
            .collect(),
        LeadRule::LowestNonTrump => {
            let trumps = trump.map_or(CardSet::EMPTY, CardSet::suit_mask);
            (hand - trumps).lowest_rank().map_or(hand, Card::set)
        }
    }
}

/// Whether `card` beats `best` (the card now winning the trick) under `trump`.
#[inline]
pub fn beats(card: Card, best: Card, trump: Option<Suit>) -> bool {
    beats_trumps(card, best, trump.map_or(CardSet::EMPTY, CardSet::suit_mask))
}

/// [`beats`] with the trump suit as a mask (`trumps`, empty without trump).
#[inline]
fn beats_trumps(card: Card, best: Card, trumps: CardSet) -> bool {
    // Within a suit the bit index orders the ranks; across suits only a trump beats.
    let same = card.same_suit(best);
    let higher = card.index() > best.index();
    (same & higher) | (!same & trumps.contains(card))
}

/// The seat that wins a complete trick: `cards` in play order from `leader`.
pub fn trick_winner(cards: &[Card], leader: usize, players: usize, trump: Option<Suit>) -> usize {
    let mut best = 0;
    for i in 1..cards.len() {
        if beats(cards[i], cards[best], trump) {
            best = i;
        }
    }
    (leader + best) % players
}
