//! `napsim equity`'s Markdown and chart: the chance of winning the session by lead and deals
//! to come.

use std::fmt::Write as _;

use crate::analysis::equity::EquityRow;

/// What the Markdown says about the run besides its rows.
pub struct EquityDoc<'a> {
    /// The command that reproduces the table.
    pub command: &'a str,
    /// The profile's name.
    pub profile: &'a str,
    /// Table size.
    pub players: usize,
    /// Deals in the session.
    pub session: usize,
    /// Deals measured.
    pub deals: u64,
    /// The bid and play policies of the table.
    pub bid: &'a str,
    /// See `bid`.
    pub play: &'a str,
    /// Distinct payment vectors measured.
    pub outcomes: usize,
    /// The leads shown in the Markdown table (the CSV and chart have every row).
    pub shown: &'a [i64],
}

/// The Markdown rendering of the equity table.
pub fn equity_markdown(doc: &EquityDoc, rows: &[EquityRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Session equity: {}, {} players\n",
        doc.profile, doc.players
    );
    let _ = writeln!(
        out,
        "The chance of winning a session of {} deals (the highest balance wins, tied balances \
         share the win) for a player who leads each of the others by the same number of units, \
         the others level, with some deals still to come (the one about to be dealt \
         included), averaged over the player's position in that deal. The deals to come are \
         valued from what one deal pays at this table: {} deals played by `{}` bidding and `{}` \
         play, {} distinct payments by position. Every sequence of outcomes is enumerated where \
         the deals to come are few; otherwise the last deal is, and the deals before it are \
         {} sampled sequences, the same for every state (marked ~).\n",
        doc.session,
        doc.deals,
        doc.bid,
        doc.play,
        doc.outcomes,
        crate::eval::equity::FUTURES
    );
    let _ = writeln!(out, "`{}`\n", doc.command);
    out.push_str("| lead |");
    for k in 1..=doc.session {
        let _ = write!(out, " {k} to come |");
    }
    out.push_str("\n| ---: |");
    for _ in 1..=doc.session {
        out.push_str(" ---: |");
    }
    out.push('\n');
    for &lead in doc.shown {
        let _ = write!(out, "| {lead:+} |");
        for k in 1..=doc.session {
            match rows.iter().find(|r| r.lead == lead && r.deals_left == k) {
                Some(row) => {
                    let mark = if row.exact { "" } else { "~" };
                    let _ = write!(out, " {mark}{} |", percent(row.win_chance));
                }
                None => out.push_str(" |"),
            }
        }
        out.push('\n');
    }
    out
}

/// A chance as a percentage to a tenth, never rounded to a certainty it is not: `>99.9%` and
/// `<0.1%` where it is within a twentieth of a point of one or zero.
pub(super) fn percent(chance: f64) -> String {
    match chance {
        c if c > 0.0 && c < 0.0005 => "<0.1%".to_string(),
        c if (0.9995..1.0).contains(&c) => ">99.9%".to_string(),
        c => format!("{:.1}%", 100.0 * c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_never_round_to_a_certainty() {
        assert_eq!(percent(1.0), "100.0%");
        assert_eq!(percent(0.9996), ">99.9%");
        assert_eq!(percent(0.9994), "99.9%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(0.0004), "<0.1%");
        assert_eq!(percent(0.25), "25.0%");
    }
}
