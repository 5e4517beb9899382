//! Output: CSV rows, run manifests, deal records (JSON), narration and terminal tables (text),
//! Markdown tables, SVG charts, the progress bar, and a finished command's files
//! ([`Rendered`], written atomically through [`crate::files`]).

#[cfg(feature = "charts")]
mod bid_chart;
mod bid_table;
mod equity;
#[cfg(feature = "charts")]
mod equity_chart;
mod game;
mod hand;
mod meta;
mod narrate;
mod output;
#[cfg(feature = "cli")]
mod progress;
mod record;
mod review;
mod solve;
mod strategy;
mod summary;
mod thresholds;
mod tournament;

#[cfg(feature = "charts")]
pub use bid_chart::bid_chart_svg;
pub use bid_table::{BidTableDoc, bid_table_markdown};
pub use equity::{EquityDoc, equity_markdown};
#[cfg(feature = "charts")]
pub use equity_chart::equity_chart_svg;
pub use game::{call_hint_json, card_hints_json, event_json, view_json};
pub use hand::HandReport;
pub use meta::{Meta, RunInfo};
pub use narrate::narrate;
pub use output::Rendered;
#[cfg(feature = "cli")]
pub use progress::TerminalProgress;
pub use record::{
    AuctionEntry, ContractRecord, DealRecord, ExchangeRecord, RevokeRecord, TrickRecord,
    read_records,
};
pub use review::{
    SeatSummary, review_json_lines, review_summary, review_text, summary_json, summary_text,
};
pub use solve::{RandomSolveReport, solve_after_json, solve_after_text, solve_json, solve_text};
pub use strategy::strategy_markdown;
pub use summary::simulate_summary;
pub use thresholds::thresholds_text;
pub use tournament::{tournament_markdown, tournament_text};

use serde::Serialize;

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

/// Like [`csv_bytes`], but with no rows still writes the header row (taken from a default row),
/// so that an empty table is a CSV with its columns rather than an empty file.
pub fn csv_bytes_with_header<T: Serialize + Default>(rows: &[T]) -> Result<Vec<u8>, csv::Error> {
    if !rows.is_empty() {
        return csv_bytes(rows);
    }
    let mut bytes = csv_bytes(&[T::default()])?;
    let header_end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1);
    bytes.truncate(header_end);
    Ok(bytes)
}

/// A chart that could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the chart: {0}")]
pub struct ChartError(String);

/// Without the `charts` feature (a library build without plotters): every chart is refused.
#[cfg(not(feature = "charts"))]
fn no_charts() -> ChartError {
    ChartError("this build of napsim has no charts (cargo feature `charts`)".to_string())
}

/// The bid table's chart, refused: this build has no charts.
#[cfg(not(feature = "charts"))]
pub fn bid_chart_svg(
    _chart: &crate::analysis::bid_table::chart::BidChart,
) -> Result<String, ChartError> {
    Err(no_charts())
}

/// The equity chart, refused: this build has no charts.
#[cfg(not(feature = "charts"))]
pub fn equity_chart_svg(
    _doc: &EquityDoc,
    _rows: &[crate::analysis::equity::EquityRow],
) -> Result<String, ChartError> {
    Err(no_charts())
}
