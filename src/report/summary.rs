//! The readable summary of a simulation, for the terminal.

use std::fmt::Write;

use crate::analysis::simulate::{SimulateRow, SimulateTally};

/// Formats `rows` as an aligned table with a header line naming the run.
pub fn simulate_summary(
    rows: &[SimulateRow],
    tally: &SimulateTally,
    elapsed_seconds: f64,
) -> String {
    let mut out = String::new();
    let Some(first) = rows.first() else {
        return out;
    };
    let passed_pct = 100.0 * tally.passed_out as f64 / tally.deals.max(1) as f64;
    let _ = writeln!(
        out,
        "{} | {} players | bid {} | play {} | seed {}",
        first.profile, first.players, first.bid_policy, first.play_policy, first.seed
    );
    let _ = writeln!(
        out,
        "{} deals in {:.2} s ({:.0} deals/s); passed out: {} ({:.2}%)",
        tally.deals,
        elapsed_seconds,
        tally.deals as f64 / elapsed_seconds.max(1e-9),
        tally.passed_out,
        passed_pct
    );
    let width = rows.iter().map(|r| r.bid.len()).max().unwrap_or(3).max(12);
    let _ = writeln!(
        out,
        "{:<width$} {:>6} {:>12} {:>8} {:>20} {:>18}",
        "bid", "tricks", "declared", "share", "made % (95% CI)", "EV/declared ± se"
    );
    for row in rows {
        let share = 100.0 * row.declared as f64 / tally.deals.max(1) as f64;
        let made = match (row.success_rate, row.ci95_low, row.ci95_high) {
            (Some(p), Some(lo), Some(hi)) => {
                format!("{:.1} ({:.1}-{:.1})", 100.0 * p, 100.0 * lo, 100.0 * hi)
            }
            _ => "-".to_string(),
        };
        let ev = match (row.ev_declarer, row.ev_declarer_se) {
            (Some(ev), Some(se)) => format!("{ev:+.3} ± {se:.3}"),
            _ => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>12} {:>7.2}% {:>20} {:>18}",
            row.bid, row.tricks_needed, row.declared, share, made, ev
        );
    }
    out
}
