//! `napsim equity`'s Markdown and chart: the chance of winning the session by lead and deals
//! to come.

use std::fmt::Write as _;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::bid_chart::ChartError;
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
fn percent(chance: f64) -> String {
    match chance {
        c if c > 0.0 && c < 0.0005 => "<0.1%".to_string(),
        c if (0.9995..1.0).contains(&c) => ">99.9%".to_string(),
        c => format!("{:.1}%", 100.0 * c),
    }
}

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 640;
const FONT: &str = "sans-serif";

/// The SVG chart: the chance of winning against the lead, one line per number of deals to
/// come. The same rows give the same bytes.
pub fn equity_chart_svg(doc: &EquityDoc, rows: &[EquityRow]) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, doc, rows).map_err(|e| ChartError(e.to_string()))?;
        root.present().map_err(|e| ChartError(e.to_string()))?;
    }
    Ok(svg)
}

fn draw(
    root: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    doc: &EquityDoc,
    rows: &[EquityRow],
) -> Result<(), Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let lowest = rows.iter().map(|r| r.lead).min().unwrap_or(-1);
    let highest = rows.iter().map(|r| r.lead).max().unwrap_or(1);
    let title = format!(
        "{}, {} players: chance of winning the session by lead and deals to come",
        doc.profile, doc.players
    );
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 22))
        .margin(16)
        .x_label_area_size(46)
        .y_label_area_size(60)
        .build_cartesian_2d(lowest as f64..highest as f64, 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc("lead over each other player (units; the others level)")
        .y_desc("chance of winning the session")
        .x_label_formatter(&|x| format!("{x:+.0}"))
        .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
        .label_style((FONT, 15))
        .draw()?;
    for k in 1..=doc.session {
        let colour = Palette99::pick(k - 1).to_rgba();
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.deals_left == k)
            .map(|r| (r.lead as f64, r.win_chance))
            .collect();
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
            .label(format!("{k} to come"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center)))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
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
