//! The manifest written beside every output file (`FILE.meta.json`).

use serde::Serialize;

use crate::run::partial::Identity;

/// Everything needed to reproduce an output: the run's [`Identity`] (the same for a single
/// process and for merged shards, so two manifests of one result agree outside `run`), the
/// command that reproduces it, and how this copy was computed.
#[derive(Clone, Debug, Serialize)]
pub struct Meta {
    /// Which run: version, command, profile and its TOML, resolved arguments, seed, units and
    /// units per block.
    #[serde(flatten)]
    pub identity: Identity,
    /// The command line that reproduces the output (for the commands that print one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
    /// What the run concluded, for a command that concludes something (a tournament's
    /// `--sprt` test).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<serde_json::Value>,
    /// How this copy was computed.
    pub run: RunInfo,
}

/// How an output was computed: by which process, on how many threads, in how long.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    /// The command line as given.
    pub argv: Vec<String>,
    /// Worker threads (none for a merge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Seconds of computing (summed over resumptions, and over the parts of a merge).
    pub elapsed_seconds: f64,
    /// CPU seconds of computing, user and system, every thread (summed likewise).
    pub cpu_seconds: f64,
    /// The partial files merged into this output (`napsim merge`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged_parts: Vec<String>,
}

impl RunInfo {
    /// This process's command line, with its thread count and computing times.
    pub fn here(threads: Option<usize>, elapsed_seconds: f64, cpu_seconds: f64) -> RunInfo {
        RunInfo {
            argv: std::env::args().collect(),
            threads,
            elapsed_seconds,
            cpu_seconds,
            merged_parts: Vec::new(),
        }
    }
}

impl Meta {
    /// Pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        text.push('\n');
        text
    }
}
