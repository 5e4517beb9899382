//! `napsim serve` through the binary: the JSON API against a server on an ephemeral port
//! (every endpoint, the refusals, the limits, a cancelled evaluation, a load of concurrent
//! clients, the signals), and the page in a real browser.
//!
//! One test binary for several files: every test binary links the whole crate, so a few of
//! them build much faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod browser;
mod server;
