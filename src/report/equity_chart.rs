//! `napsim equity`'s chart (SVG): the chance of winning the session by lead, a line per
//! number of deals to come.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::ChartError;
use super::equity::EquityDoc;
use crate::analysis::equity::EquityRow;

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
