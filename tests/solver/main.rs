//! The double-dummy solver against a plain minimax (stored answers and a live sample), and the play
//! built on it.
//!
//! One test binary for several files: every test binary links the whole crate, so a few of
//! them build much faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod solver_play;
mod solver_tests;
