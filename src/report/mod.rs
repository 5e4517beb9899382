//! Output: CSV rows, run manifests, deal records (JSON), narration (text), Markdown tables,
//! SVG charts, and atomic file writing.
//!
//! **Architecture invariant:** a file is never written in place: bytes go to a temporary file in
//! the same directory, which is then renamed over the target, so an interrupted run never leaves
//! a truncated table.

mod bid_chart;
mod bid_table;
mod hand;
mod meta;
mod narrate;
mod record;
mod solve;
mod summary;
mod tournament;

pub use bid_chart::{ChartError, bid_chart_svg};
pub use bid_table::{BidTableDoc, bid_table_markdown};
pub use hand::HandReport;
pub use meta::{Meta, RunInfo};
pub use narrate::narrate;
pub use record::{
    AuctionEntry, ContractRecord, DealRecord, ExchangeRecord, RevokeRecord, TrickRecord,
};
pub use solve::{RandomSolveReport, solve_json, solve_text};
pub use summary::simulate_summary;
pub use tournament::tournament_markdown;

use std::io::Write;
use std::path::Path;

use serde::Serialize;

/// Whether `path` names something other than a regular file or a link to one (a device such
/// as `/dev/stdout`, a pipe): such outputs are written directly and get no manifest beside them.
pub fn is_special_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, flushed, then renamed. A
/// symbolic link is followed (its target is replaced, not the link); a device or pipe is
/// written directly.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if is_special_file(path) {
        let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
        file.write_all(bytes)?;
        return file.flush();
    }
    let resolved;
    let path = if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        let target = std::fs::read_link(path)?;
        resolved = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
        resolved.as_path()
    } else {
        path
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Serialises rows as CSV: one header row, then one line per row.
pub fn csv_bytes<T: Serialize>(rows: &[T]) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    writer.flush()?;
    writer
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))
}

/// The path of the manifest written beside `output`: its full path plus `.meta.json`.
pub fn meta_path(output: &Path) -> std::path::PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".meta.json");
    name.into()
}
