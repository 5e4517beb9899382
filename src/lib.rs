//! napsim: a Monte Carlo bidding-strategy simulator for the British card game Nap (Napoleon).
//!
//! The library is the real API; the `napsim` binary only turns arguments into the library's
//! jobs and writes what they return. The modules, in layer order (each uses only those above it
//! in this list; `ARCHITECTURE.md` has the map):
//!
//! - [`cards`], [`rng`], [`stats`], [`files`], [`stderr`]: cards and the [`cards::CardSet`]
//!   bitboard, the random streams, intervals, atomic file writes, messages that never panic;
//! - [`rules`]: rule profiles (TOML) validated into a [`rules::Profile`];
//! - [`game`]: one deal as a state machine (dealing, auction, tricks, settlement), sessions;
//! - [`policy`]: the policy contracts: traits, information-set views, the runner, the spec
//!   grammar, hand strength;
//! - [`sim`]: the deterministic parallel block driver (uses only the random streams);
//! - [`solver`]: the exact double-dummy solver;
//! - [`eval`]: sampling hidden cards, the hand evaluator, hand classes, the session equity;
//! - [`bots`]: every policy and the registry that builds one from its spec;
//! - [`error`]: the error of a command, by kind;
//! - [`run`]: long runs: [`run::LongCommand`], shards, checkpoints, the stop flag, merging;
//! - [`analysis`]: each command's job, tallies and rows;
//! - [`report`]: CSV, JSON, Markdown, SVG and terminal output;
//! - [`commands`]: every command as a function from a job to its outputs;
//! - [`serve`]: the web page and its JSON API (`napsim serve`);
//! - [`cli`]: the command line.
//!
//! One deal, played by two policies:
//!
//! ```
//! use napsim::{bots, game, policy, rng, rules::Profile};
//! let profile = Profile::default_profile();
//! let bid = bots::bid_policy("always:bid=three", &profile).unwrap();
//! let play = bots::play_policy("heuristic", &profile).unwrap();
//! let table = policy::Table::uniform(bid.as_ref(), play.as_ref());
//! let (mut deal_rng, mut policy_rng) = rng::block_streams(7, 0);
//! let mut shuffler = game::Shuffler::new(&profile, 4);
//! let dealt = shuffler.deal(0, &mut deal_rng);
//! let mut state = game::DealState::new(&profile, 0, dealt.hands(4));
//! policy::run_deal(&mut state, &table, &mut policy_rng);
//! assert_eq!(state.payments().iter().sum::<i64>(), 0);
//! ```
//!
//! A long command, as `napsim simulate --deals 20000 --seed 7 --checkpoint FILE` runs it, with
//! the caller's own stop flag and no progress shown:
//!
//! ```
//! use napsim::analysis::simulate::{Simulate, SimulateJob};
//! use napsim::commands::{LongRun, Outputs, run_long};
//! use napsim::rules::Profile;
//! use napsim::run::Controls;
//! let dir = std::env::temp_dir().join(format!("napsim-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let controls = Controls {
//!     checkpoint: Some(dir.join("run.checkpoint")),
//!     threads: 2,
//!     ..Controls::default()
//! };
//! let job = SimulateJob {
//!     players: 4,
//!     deals: 20_000,
//!     bid: "threshold".into(),
//!     play: "heuristic".into(),
//!     input_files: Default::default(),
//! };
//! let run = LongRun {
//!     seed: Some(7),
//!     controls: &controls,
//!     outputs: Outputs::default(),
//!     progress: &napsim::sim::Silent,
//! };
//! let rendered = run_long::<Simulate>(&Profile::default_profile(), job, run, || 0).unwrap();
//! let summary = String::from_utf8(rendered.stdout).unwrap();
//! assert!(summary.contains("20000 deals"));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

#![deny(missing_docs)]

pub mod analysis;
pub mod bots;
pub mod cards;
#[cfg(feature = "cli")]
pub mod cli;
pub mod commands;
pub mod error;
pub mod eval;
pub mod files;
pub mod game;
pub mod policy;
pub mod report;
pub mod rng;
pub mod rules;
pub mod run;
#[cfg(feature = "serve")]
pub mod serve;
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
