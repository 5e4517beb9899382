//! The game: dealing, one deal as a state machine, settlement, sessions.
//!
//! **Architecture invariant:** nothing here does IO or reads a clock; all randomness comes from
//! the RNGs passed in.

mod deal;
mod session;
mod state;

pub use deal::{Dealt, STOCK_MAX, Shuffler, StockOrder};
pub use session::{SessionResult, SessionState, play_session, resume_session};
pub use state::{
    Call, Contract, DealState, IllegalCall, IllegalPlay, IllegalPurchase, Phase, Settlement, beats,
    contract_payments, opening_leads, trick_winner,
};
