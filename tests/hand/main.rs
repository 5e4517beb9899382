//! `napsim hand`: the evaluator through the library and the command line.
//!
//! One test binary for several files: every test binary links the whole crate, so a few of
//! them build much faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod hand_cli;
mod hand_tests;
