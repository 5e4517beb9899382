//! `table:file=(FILE.csv)`: bids from a bid table made with `napsim bid-table --by exact`.
//!
//! The seat looks up its hand's exact class (its hand up to a renaming of the suits) for its
//! table size and position in the auction, and calls the legal bid with the highest positive
//! expected units in the table, or passes when none is positive. A hand whose class the table
//! lacks bids with the default threshold policy.

use std::collections::HashMap;

use super::threshold::Threshold;
use crate::eval::classes::Scheme;
use crate::game::Call;
use crate::policy::{BidPolicy, BidView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::{BidId, Profile};

/// The table bidder.
pub struct TableBids {
    /// Per (players, seat, exact class label): each bid's expected units.
    entries: HashMap<(usize, usize, String), Vec<(BidId, f64)>>,
    fallback: Threshold,
}

/// One CSV row, as far as the policy reads it.
#[derive(serde::Deserialize)]
struct Row {
    profile: String,
    players: usize,
    seat: usize,
    class: String,
    bid: String,
    ev: f64,
}

impl TableBids {
    /// Builds the policy from `table:file=(FILE.csv)`, reading the table for `profile`.
    pub fn from_spec(spec: &Spec, profile: &Profile) -> Result<TableBids, SpecError> {
        spec.check_keys(&["file"])?;
        let file = spec.get("file").ok_or_else(|| SpecError::Missing {
            policy: "table".into(),
            key: "file".into(),
            hint: "a bid table's CSV by exact classes (`by` exact), e.g. table:file=(tables/exact.csv)"
                .into(),
        })?;
        let bad = |reason: String| SpecError::BadValue {
            policy: "table".into(),
            key: "file".into(),
            value: file.to_string(),
            reason,
        };
        let text =
            std::fs::read_to_string(file).map_err(|e| bad(format!("cannot read it: {e}")))?;
        let mut entries: HashMap<(usize, usize, String), Vec<(BidId, f64)>> = HashMap::new();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        for (line, row) in reader.deserialize::<Row>().enumerate() {
            let row = row.map_err(|e| bad(format!("not a napsim bid-table CSV: {e}")))?;
            let at = || format!("row {}", line + 2);
            if row.profile != profile.name() {
                return Err(bad(format!(
                    "{}: the table is for profile {}, not {}",
                    at(),
                    row.profile,
                    profile.name()
                )));
            }
            if !row.class.chars().all(|c| "AKQJT98765432.".contains(c)) {
                return Err(bad(format!(
                    "{}: class '{}' is not an exact class: make the table with `by` exact",
                    at(),
                    row.class
                )));
            }
            let id = profile.bid_id(&row.bid).ok_or_else(|| {
                bad(format!(
                    "{}: no bid '{}' in profile {}",
                    at(),
                    row.bid,
                    profile.name()
                ))
            })?;
            entries
                .entry((row.players, row.seat, row.class))
                .or_default()
                .push((id, row.ev));
        }
        Ok(TableBids {
            entries,
            fallback: Threshold::from_spec(&"threshold".parse().expect("a spec"), profile)?,
        })
    }
}

impl BidPolicy for TableBids {
    fn call(&self, view: &BidView, rng: &mut SimRng) -> Call {
        let class = Scheme::Exact.label(Scheme::Exact.class(view.hand()));
        let Some(bids) = self.entries.get(&(view.players(), view.position(), class)) else {
            return self.fallback.call(view, rng);
        };
        bids.iter()
            .filter(|(id, ev)| *ev > 0.0 && view.is_legal(Call::Bid(*id)))
            .fold(None::<(BidId, f64)>, |best, &(id, ev)| match best {
                Some((_, b)) if b >= ev => best,
                _ => Some((id, ev)),
            })
            .map_or(Call::Pass, |(id, _)| Call::Bid(id))
    }
}

/// Adds the files that `spec` and the policies nested in its parameters read to `found`.
fn walk_files(spec: &Spec, found: &mut Vec<String>) {
    if (spec.name == "table" || spec.name == "tuned")
        && let Some(file) = spec.get("file")
    {
        found.push(file.to_string());
    }
    if spec.name == "lookahead"
        && let Some(file) = spec.get("equity")
    {
        found.push(file.to_string());
    }
    for (_, value) in &spec.params {
        if let Ok(inner) = value.parse::<Spec>() {
            walk_files(&inner, found);
        }
    }
}

/// What the policy spec `text` (or a `BID/PLAY` pair of them) reaches outside napsim, in
/// words: the first external program (`ext:`) or file (`table:file=`, `tuned:file=`,
/// `lookahead:equity=`) that it or a policy nested in it names; None when it names neither,
/// as the specs of a request to `napsim serve` must. Whatever the spec's grammar makes of it,
/// text that holds `ext:` is taken for an external program.
pub fn reaches_outside(text: &str) -> Option<String> {
    fn walk_programs(spec: &Spec) -> bool {
        spec.name == "ext"
            || spec.params.iter().any(|(_, value)| {
                value
                    .parse::<Spec>()
                    .is_ok_and(|inner| walk_programs(&inner))
            })
    }
    let pieces = std::iter::once(text).chain(text.split('/'));
    let specs: Vec<Spec> = pieces
        .filter_map(|piece| piece.trim().parse().ok())
        .collect();
    if text.contains("ext:") || specs.iter().any(walk_programs) {
        return Some(format!("'{text}' runs an external program (ext:)"));
    }
    let mut files = Vec::new();
    for spec in &specs {
        walk_files(spec, &mut files);
    }
    let named = files.iter().find(|file| !file.is_empty());
    match (named, files.is_empty()) {
        (Some(file), _) => Some(format!("'{text}' reads the file {file}")),
        (None, false) => Some(format!("'{text}' reads a file")),
        (None, true) => None,
    }
}

/// A file that a policy reads (`table:file=...`) could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {path}: {source}")]
pub struct InputFileError {
    /// The file, as the spec names it.
    pub path: String,
    /// Why it could not be read.
    #[source]
    pub source: std::io::Error,
}

/// The files that the policies of `specs` read (`table:file=...`, `tuned:file=...`,
/// `lookahead:equity=...`, also nested in another
/// policy's parameters), each with a digest of its bytes: a run's result depends on them, so
/// they belong to its identity (a part or checkpoint made with another table is refused).
pub fn input_files(
    specs: &[&str],
) -> Result<std::collections::BTreeMap<String, String>, InputFileError> {
    let mut files = Vec::new();
    for text in specs {
        if let Ok(spec) = text.parse::<Spec>() {
            walk_files(&spec, &mut files);
        }
    }
    files
        .into_iter()
        .map(|file| {
            let bytes = match std::fs::read(&file) {
                Ok(bytes) => bytes,
                Err(source) => return Err(InputFileError { path: file, source }),
            };
            Ok((
                file,
                format!("fnv1a64:{:016x}", crate::files::fnv1a64(&bytes)),
            ))
        })
        .collect()
}

#[cfg(test)]
mod input_tests {
    use super::*;

    #[test]
    fn table_files_are_found_also_nested_and_digested() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.csv");
        std::fs::write(&a, "x").unwrap();
        let a = a.to_str().unwrap();
        let nested = format!("lookahead:others=(table:file=({a})),worlds=8");
        let files = input_files(&["threshold", "heuristic", &nested]).unwrap();
        assert_eq!(files.len(), 1);
        // FNV-1a of "x".
        assert_eq!(files[a], "fnv1a64:af63f54c86021707");
        assert!(input_files(&["table:file=(/no/such.csv)"]).is_err());
        assert!(input_files(&["pimc:worlds=16"]).unwrap().is_empty());
    }
}
