//! Analyses: each turns a job into integer tallies (the long commands implement
//! [`crate::run::LongCommand`]) and the tallies into result rows.

pub mod bid_table;
pub mod deals;
pub mod hand;
pub mod replay;
pub mod simulate;
pub mod solve;
pub mod thresholds;
pub mod tournament;
