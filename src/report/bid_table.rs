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
    /// Deals played (random deals only).
    pub deals: u64,
    /// Hands per class and seat of a stratified run.
    pub per_class: Option<u64>,
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
    let sampling = match doc.per_class {
        Some(n) => format!(
            "{n} hands of each class at each seat, drawn uniformly within the class \
             (class-targeted sampling); play `{}`; double-dummy column on the first {} hands of \
             each",
            doc.play, doc.dd_deals
        ),
        None => format!(
            "{} deals; play `{}`; double-dummy column on the first {} deals",
            doc.deals, doc.play, doc.dd_deals
        ),
    };
    let mut text = format!(
        "# Bid table: {}\n\nMade with `{}` ({sampling}).\n\nSeat 0 is eldest (the dealer's \
         left). A seat's rows count the deals in which every earlier seat passed under the \
         threshold bidder. Each cell: P(make) in percent with its 95% interval, the double-dummy \
         P(make) (dd), and the declarer's expected units per deal (EV). The best bid (highest \
         positive EV among the bids callable after passes) is in bold. Classes with fewer than \
         {} hands are not shown.\n",
        doc.profile, doc.command, doc.min_hands
    );
    let auction = rows.first().is_some_and(|r| r.auction_ev.is_some());
    if auction {
        text += "\nIn the whole auction: the seats after this one still speak (bidding by the \
                 threshold bidder) and whoever wins plays. Each cell adds the seat's expected \
                 units from the whole deal if it calls the bid (auction); the pass column is \
                 what passing is worth (not 0: a later seat may declare), and the best call is \
                 the one worth the most there, beside the declarer view's best bid.\n";
    }
    if doc.per_class.is_some() {
        text += "\nShare: the class's share of the hands reaching the seat, in percent (exact at \
                 seat 0; at later seats estimated from how often the earlier seats passed).\n";
    }
    let mut by_table: BTreeMap<usize, Vec<&BidTableRow>> = BTreeMap::new();
    for row in rows {
        by_table.entry(row.players).or_default().push(row);
    }
    for (players, coverage) in &doc.coverage {
        text += &format!("\n## {players} players\n");
        let table_rows = by_table.get(players).map_or(&[][..], |r| &r[..]);
        for (seat, &(hands, rare)) in coverage.iter().enumerate() {
            let seat_rows: Vec<&&BidTableRow> =
                table_rows.iter().filter(|r| r.seat == seat).collect();
            let mut header: Vec<&str> = doc.bids.iter().map(|(_, label)| label.as_str()).collect();
            if auction {
                header.insert(0, "pass");
            }
            let bid_columns = doc.bids.len();
            match doc.per_class {
                Some(n) => {
                    let classes = seat_rows.len() / bid_columns.max(1);
                    text += &format!(
                        "\n### Seat {seat}\n\n{classes} classes shown, {n} hands each.\n\n"
                    );
                    text += &format!(
                        "| class | hands | share | {} | best |\n",
                        header.join(" | ")
                    );
                    text += &format!(
                        "| --- | ---: | ---: |{} --- |\n",
                        " --- |".repeat(header.len())
                    );
                }
                None => {
                    text += &format!(
                        "\n### Seat {seat}\n\n{hands} hands; {rare} ({:.1}%) in classes too rare to show.\n\n",
                        if hands > 0 {
                            100.0 * rare as f64 / hands as f64
                        } else {
                            0.0
                        }
                    );
                    text += &format!("| class | hands | {} | best |\n", header.join(" | "));
                    text += &format!("| --- | ---: |{} --- |\n", " --- |".repeat(header.len()));
                }
            }
            for class_rows in seat_rows.chunk_by(|a, b| a.class == b.class) {
                let first = class_rows[0];
                let best_label = doc
                    .bids
                    .iter()
                    .find(|(name, _)| *name == first.best_bid)
                    .map_or("pass", |(_, label)| label.as_str());
                let pass_cell = first.pass_ev.map(|p| format!("{p:+.2}")).into_iter();
                let cells: Vec<String> = pass_cell
                    .chain(class_rows.iter().map(|r| {
                        let dd = r
                            .dd_p_make
                            .map_or(String::new(), |p| format!(" dd {}", pct(p)));
                        let in_auction = match r.auction_ev {
                            Some(Some(v)) => format!(", auction {v:+.2}"),
                            _ => String::new(),
                        };
                        let cell = format!(
                            "{} ({}–{}){dd}, EV {:+.2}{in_auction}",
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
                    }))
                    .collect();
                let best = match &first.best_call {
                    Some(call) => {
                        let label = doc
                            .bids
                            .iter()
                            .find(|(name, _)| name == call)
                            .map_or("pass", |(_, label)| label.as_str());
                        format!("**{label}** (declarer: {best_label})")
                    }
                    None => format!("**{best_label}**"),
                };
                let share = first
                    .class_share
                    .map_or(String::new(), |p| format!(" {} |", share_percent(p)));
                text += &format!(
                    "| {} | {} |{share} {} | {best} |\n",
                    first.class,
                    first.hands,
                    cells.join(" | ")
                );
            }
        }
    }
    text
}

/// A class's share in percent, to three significant figures however rare (`12.3`, `0.0462`,
/// `0.000154`).
fn share_percent(share: f64) -> String {
    let percent = 100.0 * share;
    if percent <= 0.0 {
        return "0".to_string();
    }
    let digits = (2 - percent.log10().floor() as i32).max(1) as usize;
    format!("{percent:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::share_percent;

    #[test]
    fn shares_keep_three_significant_figures() {
        assert_eq!(share_percent(0.1234), "12.3");
        assert_eq!(share_percent(0.000462), "0.0462");
        assert_eq!(share_percent(4.0 / 2_598_960.0), "0.000154");
        assert_eq!(share_percent(1.0), "100.0");
        assert_eq!(share_percent(0.0), "0");
    }
}
