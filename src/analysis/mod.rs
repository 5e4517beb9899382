//! Analyses: each turns a configuration into integer tallies (through [`crate::sim`]) and the
//! tallies into result rows.

pub mod bid_table;
pub mod deals;
pub mod replay;
pub mod simulate;
pub mod solve;
pub mod thresholds;
pub mod tournament;
