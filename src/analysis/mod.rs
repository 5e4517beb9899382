//! Analyses: each turns a job into integer tallies (the long commands implement
//! [`crate::run::LongCommand`]) and the tallies into result rows.

pub mod bid_table;
pub mod coach;
pub mod deals;
pub mod equity;
pub mod game;
pub mod hand;
pub mod optimize;
pub mod replay;
pub mod review;
pub mod simulate;
pub mod solve;
pub mod thresholds;
pub mod tournament;

use crate::error::Error;

/// Checks that `seat` is a position in the auction of a table of `players`.
fn check_seat(seat: usize, players: usize) -> Result<(), Error> {
    if seat >= players {
        return Err(Error::input(format!(
            "`seat` {seat} is not a position in the auction: 0 (eldest) to {}",
            players - 1
        )));
    }
    Ok(())
}
