//! The Markdown of `napsim bid-table`: one section per table size, one table per seat, classes
//! from strongest to weakest, the best bid in bold.

use std::collections::BTreeMap;

use crate::analysis::bid_table::BidTableRow;

/// What the Markdown says about the run besides the rows.
pub struct BidTableDoc<'a> {
    /// The command that reproduces the table.
    pub command: &'a str,
    /// The profile's name.
    pub profile: &'a str,
    /// The play policy spec.
    pub play: &'a str,
    /// Deals played, and deals with the double-dummy count.
    pub deals: u64,
    /// Deals with the double-dummy count.
    pub dd_deals: u64,
    /// The smallest class shown.
    pub min_hands: u64,
    /// Per table size, per seat: hands counted and hands in classes too rare to show.
    pub coverage: BTreeMap<usize, Vec<(u64, u64)>>,
    /// The bids' names and labels, in ladder order.
    pub bids: Vec<(String, String)>,
}

/// The Markdown document.
pub fn bid_table_markdown(doc: &BidTableDoc, rows: &[BidTableRow]) -> String {
    let pct = |p: f64| format!("{:.1}", 100.0 * p);
    let mut text = format!(
        "# Bid table: {}\n\nMade with `{}` ({} deals; play `{}`; double-dummy column on the \
         first {} deals).\n\nSeat 0 is eldest (the dealer's left). A seat's rows count the \
         deals in which every earlier seat passed under the threshold bidder. Each cell: \
         P(make) in percent with its 95% interval, the double-dummy P(make) (dd), and the \
         declarer's expected units per deal (EV). The best bid (highest positive EV among the \
         bids callable after passes) is in bold. Classes with fewer than {} hands are not \
         shown.\n",
        doc.profile, doc.command, doc.deals, doc.play, doc.dd_deals, doc.min_hands
    );
    let mut by_table: BTreeMap<usize, Vec<&BidTableRow>> = BTreeMap::new();
    for row in rows {
        by_table.entry(row.players).or_default().push(row);
    }
    for (players, coverage) in &doc.coverage {
        text += &format!("\n## {players} players\n");
        let table_rows = by_table.get(players).map_or(&[][..], |r| &r[..]);
        for (seat, &(hands, rare)) in coverage.iter().enumerate() {
            text += &format!(
                "\n### Seat {seat}\n\n{hands} hands; {rare} ({:.1}%) in classes too rare to show.\n\n",
                if hands > 0 {
                    100.0 * rare as f64 / hands as f64
                } else {
                    0.0
                }
            );
            let header: Vec<&str> = doc.bids.iter().map(|(_, label)| label.as_str()).collect();
            text += &format!("| class | hands | {} | best |\n", header.join(" | "));
            text += &format!("| --- | ---: |{} --- |\n", " --- |".repeat(header.len()));
            let seat_rows: Vec<&&BidTableRow> =
                table_rows.iter().filter(|r| r.seat == seat).collect();
            for class_rows in seat_rows.chunk_by(|a, b| a.class == b.class) {
                let first = class_rows[0];
                let best_label = doc
                    .bids
                    .iter()
                    .find(|(name, _)| *name == first.best_bid)
                    .map_or("pass", |(_, label)| label.as_str());
                let cells: Vec<String> = class_rows
                    .iter()
                    .map(|r| {
                        let dd = r
                            .dd_p_make
                            .map_or(String::new(), |p| format!(" dd {}", pct(p)));
                        let cell = format!(
                            "{} ({}–{}){dd}, EV {:+.2}",
                            pct(r.p_make),
                            pct(r.ci95_low),
                            pct(r.ci95_high),
                            r.ev
                        );
                        if r.bid == first.best_bid {
                            format!("**{cell}**")
                        } else {
                            cell
                        }
                    })
                    .collect();
                text += &format!(
                    "| {} | {} | {} | **{best_label}** |\n",
                    first.class,
                    first.hands,
                    cells.join(" | ")
                );
            }
        }
    }
    text
}
