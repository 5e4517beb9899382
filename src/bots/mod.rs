//! Every policy napsim ships, and the registry that builds one from its spec.
//!
//! | spec | kind | what it does |
//! | --- | --- | --- |
//! | `pass` | bid | always passes |
//! | `threshold[:BID=SCORE,...]` | bid | bids the highest legal bid whose hand-strength threshold the hand reaches ([`threshold`]) |
//! | `always:bid=BID` | bid | eldest bids `BID`, everyone else passes: every deal is played |
//! | `table:file=(FILE.csv)` | bid | bids from a `napsim bid-table --by exact` table: the legal bid with the highest positive expected units for its hand's class and seat, the threshold policy for classes the table lacks ([`table`]) |
//! | `tuned:file=(FILE.json)` | bid | plays a strategy found by `napsim optimize`: the strategy's call for the seat's position, the calls before it and its hand's class, the threshold policy for cells the strategy lacks ([`tuned`]) |
//! | `lookahead[:worlds=K,play=SPEC,others=SPEC,auction=off\|on]` | bid | evaluates its own hand over K worlds consistent with the earlier calls and calls the legal bid with the highest expected units as declarer, or with `auction=on` the legal call worth the most in the whole auction ([`lookahead`]) |
//! | `random` | play | a uniformly random legal card |
//! | `heuristic` | play | a documented rule set ([`heuristic`]) |
//! | `expert[:worlds=K]` | play | the heuristic's rules with better misère defence, declarer trump play and defence when every trick counts, and the last tricks solved exactly over K sampled layouts of the hidden cards ([`expert`]) |
//! | `pimc[:worlds=K]` | play | samples K layouts of the hidden cards and plays the card that makes (or beats) the contract in the most of them, solved double dummy, ties to the heuristic's card ([`pimc`]) |
//! | `ismcts[:iterations=K]` | play | information-set Monte Carlo tree search: K iterations, each on a layout of the hidden cards sampled from what the seat knows, heuristic rollouts; plays the most visited card ([`ismcts`]) |
//! | `split:declarer=SPEC,defence=SPEC` | play | one policy for the declarer, another for the defenders, to measure each side's play ([`split`]) |
//! | `ext:cmd=(COMMAND ...)[,log=(FILE)]` | bid, play | an external program speaking the line protocol of `docs/protocol.md` on its stdin and stdout: one process per worker thread ([`ext`]) |
//! | `dd` | play | **a cheat that sees every hand**: double-dummy optimal play, perfect play by every seat, a reference point ([`dd`]) |
//!
//!
//! Each policy sees only its view ([`crate::policy::BidView`], [`crate::policy::PlayView`]) and draws randomness only from
//! the RNG it is handed; `dd` alone holds the double-dummy capability
//! ([`crate::policy::SeeAllHands`]).

pub mod always;
pub mod dd;
pub mod expert;
pub mod ext;
pub mod heuristic;
pub mod ismcts;
pub mod lookahead;
pub mod pimc;
mod solved;
pub mod split;
pub mod table;
pub mod threshold;
pub mod tuned;

pub use table::{InputFileError, input_files, reaches_outside};

use crate::policy::{BidPolicy, PlayPolicy, Spec, SpecError};
use crate::rules::Profile;

/// The bid policy names, for messages.
pub const BID_POLICIES: &[&str] = &[
    "pass",
    "threshold",
    "always",
    "lookahead",
    "table",
    "tuned",
    "ext",
];
/// The play policy names, for messages.
pub const PLAY_POLICIES: &[&str] = &[
    "random",
    "heuristic",
    "expert",
    "pimc",
    "ismcts",
    "split",
    "ext",
    "dd",
];

/// Builds a bid policy from its spec for `profile`; an external bot in it runs in a pool of
/// its own, which it ends when dropped. Such a bot's failure is reported only through its
/// pool ([`ext::BotPool::failure`]: the failing decision and every later one are stand-ins),
/// so a caller that may run external bots names the pool with [`bid_policy_in`] and checks it.
pub fn bid_policy(text: &str, profile: &Profile) -> Result<Box<dyn BidPolicy>, SpecError> {
    bid_policy_in(text, profile, &ext::BotPool::default())
}

/// Builds a bid policy from its spec for `profile`, its external bots running in `bots`.
pub fn bid_policy_in(
    text: &str,
    profile: &Profile,
    bots: &ext::BotPool,
) -> Result<Box<dyn BidPolicy>, SpecError> {
    let spec: Spec = text.parse()?;
    Ok(match spec.name.as_str() {
        "pass" => {
            spec.check_keys(&[])?;
            Box::new(crate::policy::Pass)
        }
        "threshold" => Box::new(threshold::Threshold::from_spec(&spec, profile)?),
        "always" => Box::new(always::Always::from_spec(&spec, profile)?),
        "lookahead" => Box::new(lookahead::Lookahead::from_spec(&spec, profile, bots)?),
        "table" => Box::new(table::TableBids::from_spec(&spec, profile)?),
        "tuned" => Box::new(tuned::Tuned::from_spec(&spec, profile)?),
        "ext" => Box::new(ext::External::from_spec(&spec, text, bots)?),
        _ => {
            return Err(SpecError::UnknownName {
                kind: "bid",
                name: spec.name,
                known: BID_POLICIES.join(", "),
            });
        }
    })
}

/// Builds a bid policy from its spec for `profile`, its external bots running in `bots`, and
/// checks that it can bid at a table of `players` ([`BidPolicy::check_table`]).
pub fn bid_policy_at(
    text: &str,
    profile: &Profile,
    players: usize,
    bots: &ext::BotPool,
) -> Result<Box<dyn BidPolicy>, SpecError> {
    let policy = bid_policy_in(text, profile, bots)?;
    policy
        .check_table(players)
        .map_err(|reason| match text.parse::<Spec>() {
            Ok(spec) => SpecError::BadValue {
                policy: spec.name.clone(),
                key: spec
                    .params
                    .first()
                    .map_or(String::new(), |(k, _)| k.clone()),
                value: spec
                    .params
                    .first()
                    .map_or(String::new(), |(_, v)| v.clone()),
                reason,
            },
            Err(e) => e,
        })?;
    Ok(policy)
}

/// Builds a play policy from its spec for `profile`; an external bot in it runs in a pool of
/// its own, which it ends when dropped. Such a bot's failure is reported only through its
/// pool ([`ext::BotPool::failure`]), so a caller that may run external bots names the pool
/// with [`play_policy_in`] and checks it.
pub fn play_policy(text: &str, profile: &Profile) -> Result<Box<dyn PlayPolicy>, SpecError> {
    play_policy_in(text, profile, &ext::BotPool::default())
}

/// Builds a play policy from its spec for `profile`, its external bots running in `bots`.
pub fn play_policy_in(
    text: &str,
    profile: &Profile,
    bots: &ext::BotPool,
) -> Result<Box<dyn PlayPolicy>, SpecError> {
    let spec: Spec = text.parse()?;
    Ok(match spec.name.as_str() {
        "random" => {
            spec.check_keys(&[])?;
            Box::new(crate::policy::RandomPlay)
        }
        "heuristic" => {
            spec.check_keys(&[])?;
            Box::new(heuristic::Heuristic)
        }
        "expert" => Box::new(expert::Expert::from_spec(&spec)?),
        "pimc" => Box::new(pimc::Pimc::from_spec(&spec)?),
        "ismcts" => Box::new(ismcts::Ismcts::from_spec(&spec)?),
        "split" => Box::new(split::Split::from_spec(&spec, profile, bots)?),
        "ext" => Box::new(ext::External::from_spec(&spec, text, bots)?),
        "dd" => {
            spec.check_keys(&[])?;
            Box::new(dd::DoubleDummy)
        }
        _ => {
            return Err(SpecError::UnknownName {
                kind: "play",
                name: spec.name,
                known: PLAY_POLICIES.join(", "),
            });
        }
    })
}
