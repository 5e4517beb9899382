//! The long commands through the binary: simulate, solve, thresholds, bid-table and its chart,
//! shards and merge, interrupts and checkpoints, and every refusal.
//!
//! One test binary for several files: every test binary links the whole crate, so a few of
//! them build much faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod bid_chart;
mod bid_table_cli;
mod cli;
mod cli_errors;
mod interrupt;
mod shards;
mod solve_cli;
mod thresholds_cli;
