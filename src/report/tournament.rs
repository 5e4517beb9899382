//! The Markdown of `napsim tournament`: the entrants, then the cross-table of paired
//! differences.

use crate::analysis::tournament::{EntrantRow, PairRow};

/// The Markdown document for a finished tournament made by `command`.
pub fn tournament_markdown(command: &str, rows: &[EntrantRow], pairs: &[PairRow]) -> String {
    let mut text = format!(
        "# Tournament\n\nMade with `{command}`.\n\n| entrant | bid | play | sessions | \
         balance per session | units per deal | win share (95%) | declared: made/declared |\n\
         | --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n"
    );
    for r in rows {
        text += &format!(
            "| {} | `{}` | `{}` | {} | {:+.3} ± {:.3} | {:+.4} | {:.3} ({:.3}–{:.3}) | {} |\n",
            r.entrant,
            r.bid_policy,
            r.play_policy,
            r.sessions,
            r.mean_balance,
            r.mean_balance_se,
            r.units_per_deal,
            r.win_share,
            r.win_share_ci95_low,
            r.win_share_ci95_high,
            r.declarer
        );
    }
    text += "\nPaired difference in balance per session, row minus column (± standard error; \
             **bold** when the 95% interval excludes zero):\n\n| |";
    for r in rows {
        text += &format!(" {} |", r.entrant);
    }
    text += "\n| --- |";
    text += &" ---: |".repeat(rows.len());
    text += "\n";
    for a in rows {
        text += &format!("| {} |", a.entrant);
        for b in rows {
            let cell = pairs
                .iter()
                .find(|p| p.entrant_a == a.entrant && p.entrant_b == b.entrant)
                .map_or("–".to_string(), |p| {
                    let value = format!("{:+.3} ± {:.3}", p.mean_diff, p.mean_diff_se);
                    if p.significant {
                        format!("**{value}**")
                    } else {
                        value
                    }
                });
            text += &format!(" {cell} |");
        }
        text += "\n";
    }
    text
}
