//! Partial results: the integer tallies of some of a run's blocks, with everything needed to
//! check that parts belong together. A shard's output (`--shard I/N --out FILE`) and a
//! checkpoint (`--checkpoint FILE`) are both a [`Partial`]; `napsim merge` adds complete parts
//! and `--resume` continues an incomplete one.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::error::InputError;
use crate::files::fnv1a64;
use crate::sim::{BlockSet, RunState, Shard, Tally, TallyError};

/// The `format` field of every partial file.
pub const FORMAT: &str = "napsim-partial";
/// The layout version of partial files; a file of another version is refused.
pub const FORMAT_VERSION: u32 = 1;

/// What makes two runs the same run: parts merge, and a checkpoint resumes, only when these
/// are equal. Thread counts, paths and timings are not part of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Identity {
    /// napsim's version.
    pub napsim_version: String,
    /// The subcommand (`simulate`).
    pub command: String,
    /// The profile's name.
    pub profile: String,
    /// The profile's TOML text.
    pub profile_toml: String,
    /// The resolved arguments that decide the result, by name.
    pub arguments: serde_json::Value,
    /// The seed.
    pub seed: u64,
    /// Units in the whole run (deals, worlds, card sets).
    pub units: u64,
    /// Units per block.
    pub block_size: u64,
}

impl Identity {
    /// Blocks in the whole run.
    pub fn blocks(&self) -> u64 {
        self.units.div_ceil(self.block_size.max(1))
    }

    /// A short digest of the whole identity, for file names.
    pub fn digest(&self) -> String {
        let text = serde_json::to_vec(self).unwrap_or_default();
        format!("{:08x}", fnv1a64(&text) >> 32)
    }

    /// Units in the blocks `range` (the last block of the run may be short).
    pub fn units_in(&self, range: &Range<u64>) -> u64 {
        let end = range.end.saturating_mul(self.block_size).min(self.units);
        end.saturating_sub(range.start.saturating_mul(self.block_size))
    }

    /// Units in the blocks of `done`.
    pub fn units_done(&self, done: &BlockSet) -> u64 {
        done.ranges().iter().map(|r| self.units_in(r)).sum()
    }

    /// The first field in which `self` and `other` differ, as `(field, ours, theirs)`: the
    /// command first, then the version, the profile, the seed, the arguments and the size of
    /// the run (the profile's TOML last: its name usually says it all).
    pub fn difference(&self, other: &Identity) -> Option<(String, String, String)> {
        let ours = serde_json::to_value(self).unwrap_or_default();
        let theirs = serde_json::to_value(other).unwrap_or_default();
        let order = [
            "command",
            "napsim_version",
            "profile",
            "seed",
            "arguments",
            "units",
            "block_size",
            "profile_toml",
        ];
        order
            .iter()
            .find_map(|key| first_difference(&ours[key], &theirs[key], key.to_string()))
            .or_else(|| first_difference(&ours, &theirs, String::new()))
    }
}

/// The first place (a dotted path) where two JSON values differ, with both values abridged.
fn first_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    path: String,
) -> Option<(String, String, String)> {
    use serde_json::Value;
    if a == b {
        return None;
    }
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    if let (Value::Object(x), Value::Object(y)) = (a, b) {
        let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let null = Value::Null;
            let (p, q) = (x.get(key).unwrap_or(&null), y.get(key).unwrap_or(&null));
            if let Some(found) = first_difference(p, q, join(key)) {
                return Some(found);
            }
        }
    }
    let show = |v: &Value| {
        let text = v.to_string();
        match text.char_indices().nth(60) {
            Some((cut, _)) => format!("{}...", &text[..cut]),
            None => text,
        }
    };
    Some((
        if path.is_empty() {
            "the whole".into()
        } else {
            path
        },
        show(a),
        show(b),
    ))
}

/// Some of a run's blocks: which run, which shard, the blocks done and their merged tally.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Partial<T> {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The run.
    pub identity: Identity,
    /// The share of the run this part covers.
    pub shard: Shard,
    /// The finished blocks (all of the shard's when the part is complete).
    pub done: BlockSet,
    /// Seconds spent computing these blocks (summed over resumptions).
    pub elapsed_seconds: f64,
    /// CPU seconds (user and system, every thread) spent on them; 0 in parts written before
    /// napsim recorded it.
    #[serde(default)]
    pub cpu_seconds: f64,
    /// The merged tally of the finished blocks.
    pub tally: T,
    /// For a part read from a file, whether the file's digest matched its content
    /// ([`crate::files::seal`]); `None` for a part made in memory.
    #[serde(skip)]
    pub sealed: Option<bool>,
}

impl<T> Partial<T> {
    /// The part of `identity`'s run that `shard` covers, at `state`.
    pub fn new(identity: Identity, shard: Shard, state: RunState<T>, spent: Spent) -> Partial<T> {
        Partial {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            identity,
            shard,
            done: state.done,
            elapsed_seconds: spent.elapsed_seconds,
            cpu_seconds: spent.cpu_seconds,
            tally: state.tally,
            sealed: None,
        }
    }

    /// The blocks this part's shard covers.
    pub fn range(&self) -> Range<u64> {
        self.shard.blocks(self.identity.blocks())
    }

    /// Whether every block of the shard is done.
    pub fn is_complete(&self) -> bool {
        self.done.is_exactly(&self.range())
    }

    /// Units in the finished blocks.
    pub fn units_done(&self) -> u64 {
        self.identity.units_done(&self.done)
    }
}

impl<T: Serialize> Partial<T> {
    /// The file's bytes: compact JSON, sealed with a digest of its content
    /// ([`crate::files::seal`]), and a final newline.
    pub fn to_bytes(&self) -> Result<Vec<u8>, serde_json::Error> {
        let mut bytes = serde_json::to_vec(self)?;
        bytes.push(b'\n');
        Ok(crate::files::seal(bytes))
    }
}

/// Why a partial file, or a set of them, was refused.
#[derive(Debug, Error)]
pub enum PartialError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file's bytes were refused.
    #[error("{}: {source}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with its bytes.
        #[source]
        source: Box<PartialError>,
    },
    /// Not JSON.
    #[error("not a napsim partial result or checkpoint ({0})")]
    NotJson(#[source] serde_json::Error),
    /// JSON without napsim's `format`.
    #[error("not a napsim partial result or checkpoint")]
    NotOurs,
    /// Another layout version.
    #[error(
        "written in partial-file format {}, but this napsim reads format {FORMAT_VERSION}",
        version_name(.found)
    )]
    Version {
        /// The file's version, if it has one.
        found: Option<u32>,
    },
    /// napsim's format, but not its fields.
    #[error("a damaged partial file ({0})")]
    Damaged(#[source] serde_json::Error),
    /// Blocks of no units.
    #[error("a damaged partial file (block_size 0)")]
    ZeroBlockSize,
    /// A shard that is not one of its count.
    #[error("a damaged partial file (shard {0})")]
    BadShard(Shard),
    /// Finished blocks outside the file's shard.
    #[error("a damaged partial file (its finished blocks lie outside shard {0})")]
    BlocksOutsideShard(Shard),
    /// A tally that is not the command's.
    #[error("a damaged partial file (its {command} tally does not decode: {source})")]
    TallyDecode {
        /// The command the file is of.
        command: String,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// A tally that counts other units than its finished blocks hold.
    #[error(
        "a damaged partial file (its tally counts {counted} units, its finished blocks hold \
         {expected})"
    )]
    UnitCount {
        /// Units the tally counts.
        counted: u64,
        /// Units in the finished blocks.
        expected: u64,
    },
    /// A tally whose counts do not fit.
    #[error("a damaged partial file ({0})")]
    Tally(#[source] TallyError),
    /// A file whose digest does not match its content (or that has none).
    #[error(
        "a damaged or edited partial file (its digest does not match its content: napsim \
         reads only the files it wrote, unchanged)"
    )]
    Edited,
    /// Nothing to merge.
    #[error("no parts to merge")]
    NoParts,
    /// A part of another run than the first.
    #[error(
        "{name} is from a different run than {first}: {field} is {theirs} there, {ours} in {first}"
    )]
    DifferentRun {
        /// The part.
        name: String,
        /// The first part.
        first: String,
        /// The first field that differs.
        field: String,
        /// Its value in the first part.
        ours: String,
        /// Its value in this part.
        theirs: String,
    },
    /// A part of another split than the first.
    #[error(
        "{name} is shard {shard} but {first} is shard {first_shard}: all parts must come from \
         the same `shard` I/N split"
    )]
    DifferentSplit {
        /// The part.
        name: String,
        /// Its shard.
        shard: Shard,
        /// The first part.
        first: String,
        /// The first part's shard.
        first_shard: Shard,
    },
    /// A shard given twice.
    #[error("shard {shard} is given twice: {first} and {second}")]
    Twice {
        /// The shard.
        shard: Shard,
        /// The first part holding it.
        first: String,
        /// The second.
        second: String,
    },
    /// Shards missing from the set.
    #[error(
        "shard{} {}{} {} missing ({given} of {count} parts given)",
        if .shown.len() > 1 { "s" } else { "" },
        .shown.join(", "),
        and_more(.more),
        if .shown.len() > 1 { "are" } else { "is" }
    )]
    Missing {
        /// The first few missing (`I/N`).
        shown: Vec<String>,
        /// How many more are missing.
        more: u64,
        /// Shards in the run.
        count: u64,
        /// Parts given.
        given: usize,
    },
    /// A part whose shard is not finished.
    #[error(
        "{name} is unfinished: {done} of shard {shard}'s {blocks} blocks done (resume it with \
         `resume` {name} to finish it)"
    )]
    Unfinished {
        /// The part.
        name: String,
        /// Its finished blocks.
        done: u64,
        /// Its shard.
        shard: Shard,
        /// The shard's blocks.
        blocks: u64,
    },
}

impl InputError for PartialError {}

/// A format version as shown: the number, or `(none)`.
fn version_name(found: &Option<u32>) -> String {
    found.map_or("(none)".to_string(), |v| v.to_string())
}

/// ` and N more` when `more` is not zero.
fn and_more(more: &u64) -> String {
    if *more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    }
}

/// Time spent on (part of) a run: wall-clock and CPU seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    /// Wall-clock seconds.
    pub elapsed_seconds: f64,
    /// CPU seconds, user and system, of every thread.
    pub cpu_seconds: f64,
}

impl Spent {
    /// Both times summed.
    pub fn plus(self, other: Spent) -> Spent {
        Spent {
            elapsed_seconds: self.elapsed_seconds + other.elapsed_seconds,
            cpu_seconds: self.cpu_seconds + other.cpu_seconds,
        }
    }
}

/// CPU seconds (user and system, every thread) this process has used so far (0 where the
/// system has no `getrusage`).
#[cfg(not(unix))]
pub fn process_cpu_seconds() -> f64 {
    0.0
}

/// CPU seconds (user and system, every thread) this process has used so far.
#[cfg(unix)]
pub fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A partial file whose tally is not yet decoded (its command says which tally it holds).
/// The tally is kept as its JSON text, so that a large one is not first built as a
/// `serde_json::Value` tree (several times its size).
pub type RawPartial = Partial<Box<serde_json::value::RawValue>>;

/// Reads and checks a partial file: the format, the version and that its blocks lie in its
/// shard. The tally is left undecoded ([`decode_tally`]).
pub fn read_partial(path: &Path) -> Result<RawPartial, PartialError> {
    let bytes = std::fs::read(path).map_err(|source| PartialError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_partial(&bytes).map_err(|e| PartialError::File {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}

/// Parses and checks the bytes of a partial file.
pub fn parse_partial(bytes: &[u8]) -> Result<RawPartial, PartialError> {
    #[derive(Deserialize)]
    struct Header {
        format: Option<String>,
        format_version: Option<u32>,
    }
    let header: Header = serde_json::from_slice(bytes).map_err(PartialError::NotJson)?;
    if header.format.as_deref() != Some(FORMAT) {
        return Err(PartialError::NotOurs);
    }
    if header.format_version != Some(FORMAT_VERSION) {
        return Err(PartialError::Version {
            found: header.format_version,
        });
    }
    let mut part: RawPartial = serde_json::from_slice(bytes).map_err(PartialError::Damaged)?;
    part.sealed = Some(crate::files::seal_matches(bytes));
    if part.identity.block_size == 0 {
        return Err(PartialError::ZeroBlockSize);
    }
    if part.shard.count == 0 || part.shard.index >= part.shard.count {
        return Err(PartialError::BadShard(part.shard));
    }
    if !part.done.within(&part.range()) {
        return Err(PartialError::BlocksOutsideShard(part.shard));
    }
    Ok(part)
}

/// Decodes a raw part's tally as `T`, and checks that it counts the units of its blocks and that
/// its counts agree with each other for a profile with `bids` bids.
pub fn decode_tally<T: DeserializeOwned + Tally>(
    part: &RawPartial,
    bids: usize,
) -> Result<T, PartialError> {
    let tally: T =
        serde_json::from_str(part.tally.get()).map_err(|source| PartialError::TallyDecode {
            command: part.identity.command.clone(),
            source,
        })?;
    let expected = part.identity.units_done(&part.done);
    if let Some(counted) = tally.units().filter(|&n| n != expected) {
        return Err(PartialError::UnitCount { counted, expected });
    }
    tally.check(bids).map_err(PartialError::Tally)?;
    // Last, so that the checks above still name what they find wrong: an edit they cannot
    // see (counts changed together) is caught here.
    if part.sealed == Some(false) {
        return Err(PartialError::Edited);
    }
    Ok(tally)
}

/// Checks that `parts` (each with its file name) are every shard of one run, once each, each
/// complete. The message names the first difference found.
pub fn check_complete_set(parts: &[(String, &RawPartial)]) -> Result<(), PartialError> {
    let Some((first_name, first)) = parts.first() else {
        return Err(PartialError::NoParts);
    };
    for (name, part) in &parts[1..] {
        if let Some((field, ours, theirs)) = first.identity.difference(&part.identity) {
            return Err(PartialError::DifferentRun {
                name: name.clone(),
                first: first_name.clone(),
                field,
                ours,
                theirs,
            });
        }
        if part.shard.count != first.shard.count {
            return Err(PartialError::DifferentSplit {
                name: name.clone(),
                shard: part.shard,
                first: first_name.clone(),
                first_shard: first.shard,
            });
        }
    }
    let count = first.shard.count;
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for (name, part) in parts {
        if let Some(other) = seen.insert(part.shard.index, name) {
            return Err(PartialError::Twice {
                shard: part.shard,
                first: other.to_string(),
                second: name.clone(),
            });
        }
    }
    // Named up to a few: a count read from a damaged file may be huge.
    let missing = (0..count).filter(|i| !seen.contains_key(i));
    let shown: Vec<String> = missing
        .clone()
        .take(8)
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !shown.is_empty() {
        let more = count - seen.len() as u64 - shown.len() as u64;
        return Err(PartialError::Missing {
            shown,
            more,
            count,
            given: parts.len(),
        });
    }
    for (name, part) in parts {
        if !part.is_complete() {
            let range = part.range();
            return Err(PartialError::Unfinished {
                name: name.clone(),
                done: part.done.len(),
                shard: part.shard,
                blocks: range.end - range.start,
            });
        }
    }
    Ok(())
}

/// Decodes, checks and adds the tallies of complete parts (checked to form one run), one at a
/// time, so that only one decoded part is held besides the total.
pub fn merge_tallies<T: DeserializeOwned + Tally + Default>(
    parts: Vec<(PathBuf, RawPartial)>,
    bids: usize,
) -> Result<T, PartialError> {
    let mut total = T::default();
    for (path, part) in parts {
        let tally = decode_tally(&part, bids).map_err(|e| PartialError::File {
            path,
            source: Box::new(e),
        })?;
        total.merge(tally);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tally that counts units, as the analyses' tallies do.
    #[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
    struct Counted {
        units: u64,
    }

    impl Tally for Counted {
        fn merge(&mut self, other: Counted) {
            self.units += other.units;
        }

        fn units(&self) -> Option<u64> {
            Some(self.units)
        }

        fn check(&self, _bids: usize) -> Result<(), TallyError> {
            Ok(())
        }
    }

    #[test]
    fn a_tally_must_count_the_units_of_its_blocks() {
        let mut p = part(2, 3, true);
        p.tally = raw(serde_json::json!({"units": 360}));
        assert_eq!(decode_tally::<Counted>(&p, 4).unwrap().units, 360);
        p.tally = raw(serde_json::json!({"units": 361}));
        let err = decode_tally::<Counted>(&p, 4).unwrap_err().to_string();
        assert!(err.contains("counts 361 units"), "{err}");
    }

    fn identity() -> Identity {
        Identity {
            napsim_version: "0.1.0".into(),
            command: "simulate".into(),
            profile: "heather-1875".into(),
            profile_toml: "x".into(),
            arguments: serde_json::json!({"players": 4, "bid": "threshold"}),
            seed: 7,
            units: 1000,
            block_size: 64,
        }
    }

    fn raw(value: serde_json::Value) -> Box<serde_json::value::RawValue> {
        serde_json::value::to_raw_value(&value).unwrap()
    }

    fn part(index: u64, count: u64, complete: bool) -> RawPartial {
        let id = identity();
        let shard = Shard { index, count };
        let mut done = BlockSet::new();
        let range = shard.blocks(id.blocks());
        for k in range.clone() {
            if complete || k != range.start {
                done.insert(k);
            }
        }
        let state = RunState {
            done,
            tally: raw(serde_json::json!({})),
        };
        Partial::new(id, shard, state, Spent::default())
    }

    fn check(parts: &[RawPartial]) -> Result<(), String> {
        let named: Vec<(String, &RawPartial)> = parts
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("p{i}"), p))
            .collect();
        check_complete_set(&named).map_err(|e| e.to_string())
    }

    #[test]
    fn a_complete_set_passes_and_each_fault_is_named() {
        let all: Vec<RawPartial> = (0..3).map(|i| part(i, 3, true)).collect();
        assert_eq!(check(&all), Ok(()));
        let err = check(&all[..2]).unwrap_err();
        assert!(err.contains("shard 2/3 is missing"), "{err}");
        let err = check(&[all[0].clone(), all[1].clone(), all[1].clone()]).unwrap_err();
        assert!(err.contains("shard 1/3 is given twice"), "{err}");
        let mut other = all.clone();
        other[2].identity.seed = 8;
        let err = check(&other).unwrap_err();
        assert!(err.contains("seed is 8 there, 7 in p0"), "{err}");
        let mut other = all.clone();
        other[1].identity.arguments["bid"] = "pass".into();
        let err = check(&other).unwrap_err();
        assert!(err.contains("arguments.bid"), "{err}");
        let mut other = all.clone();
        other[2] = part(2, 3, false);
        let err = check(&other).unwrap_err();
        assert!(err.contains("p2 is unfinished"), "{err}");
        let err = check(&[part(0, 2, true), part(1, 3, true)]).unwrap_err();
        assert!(err.contains("same `shard` I/N split"), "{err}");
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let p = part(1, 3, false);
        let bytes = p.to_bytes().unwrap();
        let back = parse_partial(&bytes).unwrap();
        assert_eq!(back.done, p.done);
        assert_eq!(back.identity, p.identity);
        assert!(
            parse_partial(b"{}")
                .unwrap_err()
                .to_string()
                .contains("not a napsim partial")
        );
        assert!(
            parse_partial(b"\x00garbage")
                .unwrap_err()
                .to_string()
                .contains("not a napsim")
        );
        let text = String::from_utf8(bytes).unwrap();
        let newer = text.replace("\"format_version\":1", "\"format_version\":9");
        assert!(
            parse_partial(newer.as_bytes())
                .unwrap_err()
                .to_string()
                .contains("format 9")
        );
        let outside = text.replace("\"done\":[[", "\"done\":[[0,1],[");
        assert!(
            parse_partial(outside.as_bytes())
                .unwrap_err()
                .to_string()
                .contains("outside")
        );
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_are_refused_without_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            proptest::prop_assert!(parse_partial(&bytes).is_err());
        }

        #[test]
        fn damaged_files_parse_or_are_refused_without_panic(
            cut in 0usize..2000,
            flips in proptest::collection::vec((0usize..2000, proptest::num::u8::ANY), 0..4),
        ) {
            let mut bytes = part(1, 3, false).to_bytes().unwrap();
            for (at, byte) in flips {
                let at = at % bytes.len();
                bytes[at] = byte;
            }
            bytes.truncate(cut.max(1).min(bytes.len()));
            if let Ok(p) = parse_partial(&bytes) {
                // What parses is consistent: its blocks lie in its shard of its run.
                proptest::prop_assert!(p.done.within(&p.range()));
                proptest::prop_assert!(p.shard.index < p.shard.count);
                let _ = decode_tally::<Counted>(&p, 4);
            }
        }
    }

    #[test]
    fn units_done_counts_the_short_last_block() {
        let p = part(2, 3, true);
        // 1000 units in blocks of 64: 16 blocks, the last one 40 units.
        assert_eq!(p.range(), 10..16);
        assert_eq!(p.units_done(), 1000 - 640);
    }
}
