//! Sessions: a fixed number of deals with the deal passing left.

use super::deal::Shuffler;
use super::state::DealState;
use crate::rng::{SimRng, below};
use crate::rules::{FirstDealer, MAX_PLAYERS, Profile, Ties};

/// Where a deal stands in its session: which deal of how many, and every seat's balance before
/// it. The policies see it ([`crate::policy::BidView::session`]); a deal outside a session
/// (`simulate`, the tables) has none. The kitty, where a profile has one, is the deal's own
/// ([`DealState::kitty_before`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionState {
    /// This deal's number in the session, 1 for the first.
    pub deal: u32,
    /// Deals in the session.
    pub deals: u32,
    /// Each seat's balance before this deal, by seat (not by position in the auction).
    pub balances: [i64; MAX_PLAYERS],
}

impl SessionState {
    /// Deals still to come after this one.
    pub fn deals_after(&self) -> u32 {
        self.deals - self.deal
    }
}

/// The outcome of one session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionResult {
    /// Deals played, passed-out deals included.
    pub deals: usize,
    /// Deals nobody bid on.
    pub passed_out: usize,
    /// Each seat's balance at the end.
    pub balances: [i64; MAX_PLAYERS],
    /// The kitty at the end (a session from its first deal starts with it empty; a resumed one
    /// with the kitty it was resumed with).
    pub kitty: i64,
    /// Each seat's share of the win, in 420ths (420 is divisible by every table size up to 7, so
    /// a tie shared by k seats gives each exactly 420 / k).
    pub win_share_420: [u32; MAX_PLAYERS],
}

/// Plays one session of the profile's length: a fresh shuffle and a random first dealer, then
/// the deal passing left. Cards come from `deal_rng`; `play` bids, plays and settles each deal
/// (with the bots of [`crate::policy::run_deal`], typically) and may tally it.
pub fn play_session(
    profile: &Profile,
    shuffler: &mut Shuffler,
    players: usize,
    deal_rng: &mut SimRng,
    play: impl FnMut(&mut DealState),
) -> SessionResult {
    shuffler.reset();
    let dealer = match profile.first_dealer() {
        FirstDealer::Random => below(deal_rng, players as u64) as usize,
    };
    let start = SessionState {
        deal: 1,
        deals: profile.session_deals() as u32,
        balances: [0; MAX_PLAYERS],
    };
    resume_session(
        profile,
        shuffler,
        players,
        deal_rng,
        (start, dealer, 0),
        play,
    )
}

/// Plays the rest of a session from `start`: its deal dealt by `dealer` (the pack as
/// `shuffler` holds it) with `kitty` in the kitty (0 without one), then the deal passing left
/// to the session's end. The result counts the deals played from `start` and the balances and
/// kitty at the end.
pub fn resume_session(
    profile: &Profile,
    shuffler: &mut Shuffler,
    players: usize,
    deal_rng: &mut SimRng,
    (start, mut dealer, kitty): (SessionState, usize, i64),
    mut play: impl FnMut(&mut DealState),
) -> SessionResult {
    let mut result = SessionResult {
        deals: 0,
        passed_out: 0,
        balances: start.balances,
        kitty,
        win_share_420: [0; MAX_PLAYERS],
    };
    for deal in start.deal..=start.deals {
        let dealt = shuffler.deal(dealer, deal_rng);
        let mut state = DealState::from_dealt(profile, dealer, &dealt, players);
        state.set_kitty(result.kitty);
        state.set_session(SessionState {
            deal,
            deals: start.deals,
            balances: result.balances,
        });
        play(&mut state);
        result.kitty = state.kitty_after();
        shuffler.collect(&state);
        result.deals += 1;
        if state.contract().is_none() {
            result.passed_out += 1;
        }
        for (balance, pay) in result.balances.iter_mut().zip(state.payments()) {
            *balance += pay;
        }
        dealer = (dealer + 1) % players;
    }
    let top = result.balances[..players]
        .iter()
        .copied()
        .max()
        .unwrap_or(0);
    let winners = result.balances[..players]
        .iter()
        .filter(|&&b| b == top)
        .count() as u32;
    match profile.ties() {
        Ties::Share => {
            for seat in 0..players {
                if result.balances[seat] == top {
                    result.win_share_420[seat] = 420 / winners;
                }
            }
        }
    }
    result
}
