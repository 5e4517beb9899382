//! Running one deal with a policy per seat.

use super::{BidPolicy, BidView, PlayPolicy, PlayView};
use crate::game::{Call, DealState, Phase};
use crate::rng::SimRng;
use crate::rules::MAX_PLAYERS;

/// Who sits at each seat: the policies [`run_deal`] asks. Generic so that a table of one
/// known policy type (see [`Uniform`]) compiles to direct, inlinable calls.
pub trait Seats {
    /// The bid policy type.
    type Bid: BidPolicy + ?Sized;
    /// The play policy type.
    type Play: PlayPolicy + ?Sized;
    /// The bid policy at `seat`.
    fn bid(&self, seat: usize) -> &Self::Bid;
    /// The play policy at `seat`.
    fn play(&self, seat: usize) -> &Self::Play;
}

/// Every seat uses the same two policies, of types known at compile time.
pub struct Uniform<'a, B: ?Sized, P: ?Sized> {
    /// The bid policy of every seat.
    pub bid: &'a B,
    /// The play policy of every seat.
    pub play: &'a P,
}

impl<B: BidPolicy + ?Sized, P: PlayPolicy + ?Sized> Seats for Uniform<'_, B, P> {
    type Bid = B;
    type Play = P;
    #[inline]
    fn bid(&self, _seat: usize) -> &B {
        self.bid
    }
    #[inline]
    fn play(&self, _seat: usize) -> &P {
        self.play
    }
}

impl<'a> Seats for Table<'a> {
    type Bid = dyn BidPolicy;
    type Play = dyn PlayPolicy;
    fn bid(&self, seat: usize) -> &Self::Bid {
        self.bid[seat]
    }
    fn play(&self, seat: usize) -> &Self::Play {
        self.play[seat]
    }
}

/// The policies sitting at each seat.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    bid: [&'a (dyn BidPolicy + 'static); MAX_PLAYERS],
    play: [&'a (dyn PlayPolicy + 'static); MAX_PLAYERS],
}

impl<'a> Table<'a> {
    /// Every seat uses the same two policies.
    pub fn uniform(
        bid: &'a (dyn BidPolicy + 'static),
        play: &'a (dyn PlayPolicy + 'static),
    ) -> Table<'a> {
        Table {
            bid: [bid; MAX_PLAYERS],
            play: [play; MAX_PLAYERS],
        }
    }

    /// Seat `i` uses `bid[i]` and `play[i]` (slices at least as long as the table).
    pub fn per_seat(
        bid: &[&'a (dyn BidPolicy + 'static)],
        play: &[&'a (dyn PlayPolicy + 'static)],
    ) -> Table<'a> {
        let mut table = Table::uniform(bid[0], play[0]);
        table.bid[..bid.len()].copy_from_slice(bid);
        table.play[..play.len()].copy_from_slice(play);
        table
    }
}

/// Plays `state` to the end: the auction, then every trick. A seat with no legal bid left passes
/// and a seat's last card is played, both without asking the policy.
///
/// # Panics
/// If a policy returns an illegal call, or (in debug builds) an illegal card: both are bugs in
/// the policy.
pub fn run_deal<T: Seats + ?Sized>(state: &mut DealState, table: &T, rng: &mut SimRng) {
    run_auction(state, table, rng);
    settle_contract(state, table, rng);
    play_out(state, table, rng);
}

/// The purchases and the auction (see [`run_deal`]).
pub fn run_auction<T: Seats + ?Sized>(state: &mut DealState, table: &T, rng: &mut SimRng) {
    while state.phase() == Phase::Purchase {
        let seat = state.to_act().expect("a seat to buy");
        let discard = table.bid(seat).purchase(&BidView::new(state), rng);
        if let Err(e) = state.purchase(discard) {
            panic!("bid policy at seat {seat} made an illegal purchase: {e}");
        }
    }
    while state.phase() == Phase::Auction {
        let seat = state.to_act().expect("a seat to call");
        auction_turn(state, table.bid(seat), rng);
    }
}

/// One seat's turn in the auction, played by `policy`: take the spare hand (where it may),
/// else look at the floater (where it may), then call. Returns the call made
/// ([`Call::TakeSpare`] when it took the spare hand). A seat with no legal bid passes without
/// being asked. Analyses that replay auctions on sampled hands use this same turn.
///
/// # Panics
/// If the policy makes an illegal call or keeps an illegal hand (a bug in the policy).
pub fn auction_turn<B: BidPolicy + ?Sized>(
    state: &mut DealState,
    policy: &B,
    rng: &mut SimRng,
) -> Call {
    let seat = state.to_act().expect("a seat to call");
    if state.can_take_spare() {
        let view = BidView::new(state);
        if policy.take_spare(&view, rng) {
            let keep = policy.keep(&view, state.hand(seat) | state.spare(), rng);
            if let Err(e) = state.take_spare(keep) {
                panic!("bid policy at seat {seat} kept an illegal hand: {e}");
            }
            return Call::TakeSpare;
        }
    }
    if state.can_peek() && policy.peek(&BidView::new(state), rng) {
        state.peek().expect("checked");
    }
    let call = if state.any_legal_bid() {
        policy.call(&BidView::new(state), rng)
    } else {
        Call::Pass
    };
    if let Err(e) = state.call(call) {
        panic!("bid policy at seat {seat} made an illegal call ({call:?}): {e}");
    }
    call
}

/// The declarer's choices once the auction is won: the floater exchange and naming trump,
/// where the contract has them (see [`run_deal`]).
pub fn settle_contract<T: Seats + ?Sized>(state: &mut DealState, table: &T, rng: &mut SimRng) {
    if state.phase() == Phase::Floater {
        let seat = state.to_act().expect("the declarer");
        let floater = state.floater().expect("a floater");
        let view = BidView::new(state);
        let discard = table
            .bid(seat)
            .floater_discard(&view, state.hand(seat).with(floater), rng);
        if let Err(e) = state.take_floater(discard) {
            panic!("bid policy at seat {seat} discarded an illegal card: {e}");
        }
    }
    if state.phase() == Phase::Trump {
        let seat = state.to_act().expect("the declarer");
        let trump = table.bid(seat).name_trump(&BidView::new(state), rng);
        if let Err(e) = state.name_trump(trump) {
            panic!("bid policy at seat {seat} named an illegal trump: {e}");
        }
    }
}

/// Every trick (see [`run_deal`]).
#[inline]
pub fn play_out<T: Seats + ?Sized>(state: &mut DealState, table: &T, rng: &mut SimRng) {
    while state.phase() == Phase::Play {
        let view = PlayView::new(state);
        let hand = view.hand();
        // The last card is played without asking. (Testing for any single legal card instead
        // costs more in mispredicted branches than the policy calls it saves.)
        let card = if hand.at_most_one() {
            hand.first().expect("a card in hand")
        } else {
            table.play(view.seat()).play(&view, rng)
        };
        state.play_unchecked(card);
    }
}
