//! napsim: a Monte Carlo bidding-strategy simulator for the British card game Nap (Napoleon).
//!
//! The library is the real API; the `napsim` binary only parses arguments and calls it.
//!
//! - [`cards`]: cards and the [`cards::CardSet`] bitboard;
//! - [`rules`]: rule profiles (TOML) validated into a [`rules::Profile`];
//! - [`game`]: one deal as a state machine, sessions;
//! - [`policy`]: bid and play policies over information-set views;
//! - [`solver`]: the exact double-dummy solver;
//! - [`sim`]: the deterministic parallel driver;
//! - [`analysis`]: simulate (and later analyses) turning tallies into rows;
//! - [`report`]: CSV, JSON and text output, written atomically;
//! - [`stats`]: intervals and standard errors;
//! - [`stderr`]: messages that never panic when stderr has gone.
//!
//! ```
//! use napsim::{game, policy, rng, rules::Profile};
//! let profile = Profile::default_profile();
//! let bid = policy::bid_policy("always:bid=three", &profile).unwrap();
//! let play = policy::play_policy("heuristic", &profile).unwrap();
//! let table = game::Table::uniform(bid.as_ref(), play.as_ref());
//! let (mut deal_rng, mut policy_rng) = rng::block_streams(7, 0);
//! let mut shuffler = game::Shuffler::new(&profile, 4);
//! let dealt = shuffler.deal(0, &mut deal_rng);
//! let mut state = game::DealState::new(&profile, 0, dealt.hands(4));
//! game::run_deal(&mut state, &table, &mut policy_rng);
//! assert_eq!(state.payments().iter().sum::<i64>(), 0);
//! ```

#![deny(missing_docs)]

pub mod analysis;
pub mod cards;
pub mod cli;
pub mod game;
pub mod policy;
pub mod report;
pub mod rng;
pub mod rules;
pub mod sim;
pub mod solver;
pub mod stats;
pub mod stderr;

/// napsim's version as recorded in every run's identity: the Cargo version, plus the source
/// revision when the build knew one (`0.1.0+COMMIT`, `-dirty.DIGEST` after it when the sources
/// differed from that commit; see `build.rs`). Parts and checkpoints of different versions do
/// not merge or resume.
pub fn napsim_version() -> &'static str {
    env!("NAPSIM_VERSION")
}
