//! The game: dealing, one deal as a state machine, running a deal with policies, sessions.
//!
//! **Architecture invariant:** nothing here does IO or reads a clock; all randomness comes from
//! the RNGs passed in.

mod deal;
mod runner;
mod session;
mod state;

pub use deal::{Dealt, STOCK_MAX, Shuffler, StockOrder};
pub use runner::{
    Seats, Table, Uniform, auction_turn, play_out, run_auction, run_deal, settle_contract,
};
pub use session::{SessionResult, play_session, play_session_with};
pub use state::{
    Call, Contract, DealState, IllegalCall, IllegalPlay, IllegalPurchase, Phase, Settlement, beats,
    opening_leads, trick_winner,
};
