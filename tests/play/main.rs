//! Sessions and bots: `napsim play` and `review`, tournaments, and bots in other languages.
//!
//! One test binary for several files: every test binary links the whole crate, so a few of
//! them build much faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod ext_bots;
mod play_tests;
mod review;
mod tournament;
