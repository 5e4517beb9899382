//! The SVG chart of `napsim bid-table --plot`: P(make) against trump length, one panel per
//! pattern of top trump honours (which of A, K, Q the hand holds), one coloured line per bid
//! with Wilson 95% interval bars.
//!
//! Drawn with plotters' SVG backend and no font library: text is written as SVG `<text>` and
//! laid out with plotters' estimate of its width. The output depends on the chart data only (no
//! dates, no random ids), so the same rows give the same bytes.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::analysis::bid_table::{BidChart, ChartGroup};
use crate::eval::classes::{TOP_ACE, TOP_KING, TOP_QUEEN};
use crate::stats::wilson95;

const WIDTH: u32 = 1200;
/// The title and notes.
const HEADER: u32 = 78;
/// The two rows of panels.
const PANELS_HEIGHT: u32 = 700;
/// One row of legend entries.
const LEGEND_ROW: u32 = 26;
const FONT: &str = "sans-serif";

/// Line colours, in bid order (cycled past ten lines): readable on white, told apart by most
/// colour-blind readers in the first four.
const COLOURS: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xe0, 0x7b, 0x00),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x17, 0xbe, 0xcf),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
];

/// The panels, strongest first: the top row holds the trump ace, the bottom row does not.
const PANELS: [u8; 8] = [
    TOP_ACE | TOP_KING | TOP_QUEEN,
    TOP_ACE | TOP_KING,
    TOP_ACE | TOP_QUEEN,
    TOP_ACE,
    TOP_KING | TOP_QUEEN,
    TOP_KING,
    TOP_QUEEN,
    0,
];

/// Horizontal distance between neighbouring lines' points, in trump lengths, so that their
/// interval bars do not hide each other; smaller with many lines, which spread over at most
/// [`DODGE_SPREAD`].
const DODGE: f64 = 0.08;
/// See [`DODGE`].
const DODGE_SPREAD: f64 = 0.45;

/// One line of the chart: a bid, or several bids whose made counts agree in every group (Nap
/// and Wellington when they play alike), drawn once under a joint label.
struct Line {
    label: String,
    bid: usize,
}

/// The SVG document of `chart`.
pub fn bid_chart_svg(chart: &BidChart) -> Result<String, super::ChartError> {
    let error = |e: Box<dyn std::error::Error>| super::ChartError(e.to_string());
    let lines = lines(chart);
    // The legend's rows decide the height; text is measured on a scratch backend.
    let rows = {
        let mut scratch = String::new();
        let area = SVGBackend::with_string(&mut scratch, (WIDTH, 100)).into_drawing_area();
        legend_rows(&area, &lines).map_err(error)?
    };
    let legend = 14 + LEGEND_ROW * rows.len() as u32;
    let mut svg = String::new();
    {
        let size = (WIDTH, HEADER + legend + PANELS_HEIGHT);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, chart, &lines, &rows, legend).map_err(error)?;
        root.present()
            .map_err(|e| super::ChartError(e.to_string()))?;
    }
    Ok(svg)
}

/// The caption of a panel: which of the trump A, K, Q its hands hold (`top` as in
/// [`PANELS`]: A = 4, K = 2, Q = 1).
fn top_label(top: u8) -> &'static str {
    match top {
        7 => "A-K-Q",
        6 => "A-K, no Q",
        5 => "A-Q, no K",
        4 => "A, no K or Q",
        3 => "K-Q, no A",
        2 => "K, no A or Q",
        1 => "Q, no A or K",
        _ => "no A, K or Q",
    }
}

/// Bids with identical made counts in every group share a line.
fn lines(chart: &BidChart) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for (bid, label) in chart.bids.iter().enumerate() {
        let same = |other: usize| {
            !chart.groups.is_empty() && chart.groups.iter().all(|g| g.made[other] == g.made[bid])
        };
        match lines.iter_mut().find(|line| same(line.bid)) {
            Some(line) => {
                line.label += " = ";
                line.label += label;
            }
            None => lines.push(Line {
                label: label.clone(),
                bid,
            }),
        }
    }
    lines
}

fn text_style(size: f64, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).pos(Pos::new(h, v))
}

/// An area of the SVG in pixels.
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// One legend entry: its line and label width in pixels.
struct Entry {
    line: usize,
    width: i32,
}

const LEGEND_SWATCH: i32 = 30;
const LEGEND_GAP: i32 = 28;
const LEGEND_SIZE: f64 = 16.0;

/// The legend entries in rows that fit the width.
fn legend_rows(area: &Area, lines: &[Line]) -> Result<Vec<Vec<Entry>>, Box<dyn std::error::Error>> {
    let style = text_style(LEGEND_SIZE, HPos::Left, VPos::Center);
    let mut rows: Vec<Vec<Entry>> = Vec::new();
    let mut used = 0;
    for (line, l) in lines.iter().enumerate() {
        let width = LEGEND_SWATCH + 8 + area.estimate_text_size(&l.label, &style)?.0 as i32;
        match rows.last_mut() {
            Some(row) if used + LEGEND_GAP + width <= WIDTH as i32 - 40 => {
                used += LEGEND_GAP + width;
                row.push(Entry { line, width });
            }
            _ => {
                used = width;
                rows.push(vec![Entry { line, width }]);
            }
        }
    }
    Ok(rows)
}

fn draw(
    root: &Area,
    chart: &BidChart,
    lines: &[Line],
    rows: &[Vec<Entry>],
    legend_height: u32,
) -> Result<(), Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let (header, rest) = root.split_vertically(HEADER);
    let (legend, panels) = rest.split_vertically(legend_height);

    let seat = if chart.seat == 0 {
        "seat 0 (eldest)".to_string()
    } else {
        format!("seat {} (every earlier seat passed)", chart.seat)
    };
    let title = format!(
        "{}, {} players, {seat}: P(make) by trump length and top trump honours",
        chart.profile, chart.players
    );
    let centre = (WIDTH / 2) as i32;
    header.draw_text(
        &title,
        &text_style(24.0, HPos::Center, VPos::Top).color(&BLACK),
        (centre, 10),
    )?;
    let notes = [
        format!(
            "{} deals, play {}. Trump: the longest suit (ties to the higher cards). Each point: the \
             hands with that trump length and exactly those of the trump A, K, Q.",
            chart.deals, chart.play
        ),
        format!(
            "Bars: Wilson 95% intervals. Groups of fewer than {} hands are not drawn. Lines are \
             offset sideways so that their bars do not overlap.",
            chart.min_hands
        ),
    ];
    for (i, note) in notes.iter().enumerate() {
        header.draw_text(
            note,
            &text_style(15.0, HPos::Center, VPos::Top).color(&BLACK.mix(0.75)),
            (centre, 40 + 18 * i as i32),
        )?;
    }

    draw_legend(&legend, lines, rows)?;

    let lengths = chart.groups.iter().map(|g| g.length);
    let lo = lengths.clone().min().unwrap_or(2).min(2);
    let hi = lengths.max().unwrap_or(5).max(5);
    let areas = panels.margin(0, 6, 6, 6).split_evenly((2, 4));
    for (index, (area, &top)) in areas.iter().zip(&PANELS).enumerate() {
        let hands: u64 = chart
            .groups
            .iter()
            .filter(|g| g.top == top)
            .map(|g| g.hands)
            .sum();
        let groups: Vec<&ChartGroup> = chart
            .groups
            .iter()
            .filter(|g| g.top == top && g.hands >= chart.min_hands)
            .collect();
        let caption = format!("{} ({hands} hands)", top_label(top));
        let mut panel = ChartBuilder::on(area)
            .caption(caption, (FONT, 17.0))
            .margin(8)
            .x_label_area_size(40)
            .y_label_area_size(if index % 4 == 0 { 56 } else { 40 })
            .build_cartesian_2d(f64::from(lo) - 0.5..f64::from(hi) + 0.5, 0.0..1.0)?;
        let x_format = |x: &f64| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{}", x.round() as i64)
            } else {
                String::new()
            }
        };
        let y_format = |y: &f64| format!("{:.0}%", 100.0 * y);
        let mut mesh = panel.configure_mesh();
        mesh.x_labels(usize::from(hi - lo) + 2)
            .x_label_formatter(&x_format)
            .y_labels(6)
            .y_label_formatter(&y_format)
            .light_line_style(TRANSPARENT)
            .bold_line_style(BLACK.mix(0.12))
            .x_desc("trump length")
            .label_style((FONT, 14.0))
            .axis_desc_style((FONT, 14.0));
        if index % 4 == 0 {
            mesh.y_desc("P(make)");
        }
        mesh.draw()?;
        if groups.is_empty() {
            panel.plotting_area().draw(&Text::new(
                format!("no group of {} hands", chart.min_hands),
                (f64::from(lo + hi) / 2.0, 0.5),
                text_style(14.0, HPos::Center, VPos::Center).color(&BLACK.mix(0.6)),
            ))?;
            continue;
        }
        let middle = (lines.len() as f64 - 1.0) / 2.0;
        let step = DODGE.min(DODGE_SPREAD / (lines.len() as f64 - 1.0).max(1.0));
        for (i, line) in lines.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let dodge = (i as f64 - middle) * step;
            let points: Vec<(f64, f64, f64, f64)> = groups
                .iter()
                .map(|g| {
                    let made = g.made[line.bid];
                    let (low, high) = wilson95(made, g.hands).unwrap_or((0.0, 1.0));
                    let x = f64::from(g.length) + dodge;
                    (x, made as f64 / g.hands as f64, low, high)
                })
                .collect();
            panel.draw_series(LineSeries::new(
                points.iter().map(|&(x, p, _, _)| (x, p)),
                colour.stroke_width(2),
            ))?;
            panel.draw_series(points.iter().map(|&(x, p, low, high)| {
                ErrorBar::new_vertical(x, low, p, high, colour.filled().stroke_width(1), 7)
            }))?;
        }
    }
    Ok(())
}

/// The legend: rows of entries, each row centred; an entry is a line with a dot, then the
/// label.
fn draw_legend(
    area: &Area,
    lines: &[Line],
    rows: &[Vec<Entry>],
) -> Result<(), Box<dyn std::error::Error>> {
    let style = text_style(LEGEND_SIZE, HPos::Left, VPos::Center).color(&BLACK);
    for (r, row) in rows.iter().enumerate() {
        let total: i32 =
            row.iter().map(|e| e.width).sum::<i32>() + LEGEND_GAP * (row.len() as i32 - 1).max(0);
        let mut x = (WIDTH as i32 - total).max(0) / 2;
        let y = 7 + LEGEND_ROW as i32 * r as i32 + LEGEND_ROW as i32 / 2;
        for entry in row {
            let colour = COLOURS[entry.line % COLOURS.len()];
            area.draw(&PathElement::new(
                vec![(x, y), (x + LEGEND_SWATCH, y)],
                colour.stroke_width(2),
            ))?;
            area.draw(&Circle::new((x + LEGEND_SWATCH / 2, y), 3, colour.filled()))?;
            area.draw_text(&lines[entry.line].label, &style, (x + LEGEND_SWATCH + 8, y))?;
            x += entry.width + LEGEND_GAP;
        }
    }
    Ok(())
}
