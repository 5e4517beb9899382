//! Rule profiles: the TOML format ([`RuleSet`]), its validation into a [`Profile`], and the
//! built-in profiles embedded from `configs/rules/`.
//!
//! ```
//! let profile = napsim::rules::Profile::builtin("heather-1875").unwrap();
//! assert_eq!(profile.bids().len(), 4);
//! assert_eq!(profile.bid_by_name("nap").unwrap().made(), 5);
//! ```

mod builtin;
mod profile;
mod raw;
mod validate;

pub use builtin::{BUILTIN, DEFAULT_PROFILE, builtin_names};
pub use profile::{
    AllPass, Bid, BidId, BidKind, FirstDealer, Gather, HAND_SIZE, LeadRule, MAX_BIDS, MAX_PLAYERS,
    MAX_SESSION_DEALS, Profile, Revoke, Shuffle, SpareHand, Ties, TrumpRule,
};
pub use raw::{
    AuctionRules, BidRules, DealRules, FloaterRules, KittyRules, PackRules, PlayRules,
    PurchaseRules, RuleSet, SessionRules, SpareHandRules, TableRules,
};

use thiserror::Error;

/// One problem found while validating a profile, naming the TOML key at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The key, e.g. `bids[3].only_over`.
    pub key: String,
    /// What is wrong and what is accepted.
    pub message: String,
}

/// Why a profile could not be loaded or used.
#[derive(Debug, Error)]
pub enum RulesError {
    /// No built-in profile of that name, and it does not look like a file.
    #[error(
        "unknown rule profile '{name}'; built-in profiles: {known} (or give a path to a .toml file)"
    )]
    UnknownProfile {
        /// The name asked for.
        name: String,
        /// The names that exist, comma-separated.
        known: String,
    },
    /// The file could not be read.
    #[error("cannot read rule profile {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The TOML could not be parsed into a [`RuleSet`] (syntax, a missing or unknown key).
    #[error("rule profile {origin} is not valid: {message}")]
    Toml {
        /// Where it came from.
        origin: String,
        /// The parser's message, which names the key.
        message: String,
    },
    /// The TOML parsed but breaks the rules of a profile; every problem is listed.
    #[error("rule profile {origin} is not valid: {}", format_problems(.problems))]
    Invalid {
        /// Where it came from.
        origin: String,
        /// Every problem found.
        problems: Vec<Problem>,
    },
    /// The table size is outside what the profile allows.
    #[error("{players} players cannot play profile '{profile}': it allows {min} to {max}")]
    Players {
        /// The profile.
        profile: String,
        /// Players asked for.
        players: usize,
        /// Fewest allowed.
        min: usize,
        /// Most allowed.
        max: usize,
    },
}

fn format_problems(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("{}: {}", p.key, p.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Loads a profile by built-in name or from a `.toml` file path.
///
/// A name containing `/` or `\`, or ending in `.toml`, is read as a file; anything else must be
/// a built-in name.
pub fn load_profile(name_or_path: &str) -> Result<Profile, RulesError> {
    let looks_like_file = name_or_path.ends_with(".toml")
        || name_or_path.contains('/')
        || name_or_path.contains('\\');
    if looks_like_file {
        let text = std::fs::read_to_string(name_or_path).map_err(|source| RulesError::Io {
            path: name_or_path.to_string(),
            source,
        })?;
        return Profile::from_toml(&text, name_or_path);
    }
    Profile::builtin(name_or_path)
}
