//! The manifest written beside every output file (`FILE.meta.json`).

use serde::Serialize;

use crate::rules::Profile;

/// Everything needed to reproduce an output.
#[derive(Clone, Debug, Serialize)]
pub struct Meta {
    /// napsim's version.
    pub napsim_version: String,
    /// The subcommand (`simulate`).
    pub command: String,
    /// The command line as given.
    pub argv: Vec<String>,
    /// The profile's name.
    pub profile: String,
    /// The profile's TOML text.
    pub profile_toml: String,
    /// The resolved arguments, by name.
    pub arguments: serde_json::Value,
    /// The seed (also when it was chosen for the user).
    pub seed: u64,
    /// Units simulated (deals).
    pub deals: u64,
    /// Units per block.
    pub block_size: u64,
    /// Wall-clock seconds the run took.
    pub elapsed_seconds: f64,
}

impl Meta {
    /// A manifest for `command` on `profile`.
    pub fn new(command: &str, profile: &Profile, arguments: serde_json::Value) -> Meta {
        Meta {
            napsim_version: env!("CARGO_PKG_VERSION").to_string(),
            command: command.to_string(),
            argv: std::env::args().collect(),
            profile: profile.name().to_string(),
            profile_toml: profile.toml().to_string(),
            arguments,
            seed: 0,
            deals: 0,
            block_size: 0,
            elapsed_seconds: 0.0,
        }
    }

    /// Records the run: its seed, units (deals, worlds), units per block and duration.
    pub fn record_run(&mut self, seed: u64, units: u64, block_size: u64, elapsed_seconds: f64) {
        self.seed = seed;
        self.deals = units;
        self.block_size = block_size;
        self.elapsed_seconds = elapsed_seconds;
    }

    /// Pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        text.push('\n');
        text
    }
}
