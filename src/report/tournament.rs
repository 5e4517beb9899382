//! The outputs of `napsim tournament` for people: the Markdown (the entrants, then the
//! cross-table of paired differences) and the terminal tables.

use crate::analysis::tournament::{Entrant, EntrantRow, PairRow, TournamentJob};
use crate::rules::Profile;

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

/// The terminal tables of `napsim tournament`: each entrant's balance, units and win share, then
/// the paired differences between entrants.
pub fn tournament_text(
    profile: &Profile,
    job: &TournamentJob,
    seed: u64,
    elapsed_seconds: f64,
    entrants: &[Entrant],
    rows: &[EntrantRow],
    pairs: &[PairRow],
) -> String {
    // Both counts in the same words as the table's `sessions` column: card sets, and the
    // sessions they make (a duplicate card set is played in every rotation).
    let most = if job.sprt.is_some() { "at most " } else { "" };
    let played = if job.duplicate {
        let rotations = job.players as u64;
        format!(
            "{most}{} card sets, duplicate: {rotations} rotations each, {most}{} sessions",
            job.sessions,
            job.sessions.saturating_mul(rotations)
        )
    } else {
        format!("{most}{} card sets: one session each", job.sessions)
    };
    let mut text = format!(
        "{} | {} players | {played} | seed {seed} | {:.1} s\n\n",
        profile.name(),
        job.players,
        elapsed_seconds
    );
    text += &format!(
        "{:<14} {:>10} {:>17} {:>10} {:>23}\n",
        "entrant", "sessions", "balance ± se", "units/deal", "win share (95%)"
    );
    for r in rows {
        text += &format!(
            "{:<14} {:>10} {:>9.3} ± {:<5.3} {:>+10.4} {:>7.3} ({:.3}-{:.3})\n",
            r.entrant,
            r.sessions,
            r.mean_balance,
            r.mean_balance_se,
            r.units_per_deal,
            r.win_share,
            r.win_share_ci95_low,
            r.win_share_ci95_high
        );
    }
    text += "\npaired differences per session (row minus column, ± se; * significant at 95%):\n";
    text += &format!("{:<14}", "");
    for e in entrants {
        text += &format!(" {:>18}", e.name);
    }
    text += "\n";
    for a in entrants {
        text += &format!("{:<14}", a.name);
        for b in entrants {
            let cell = pairs
                .iter()
                .find(|p| p.entrant_a == a.name && p.entrant_b == b.name)
                .map_or("-".to_string(), |p| {
                    format!(
                        "{:+.3}±{:.3}{}",
                        p.mean_diff,
                        p.mean_diff_se,
                        if p.significant { "*" } else { " " }
                    )
                });
            text += &format!(" {cell:>18}");
        }
        text += "\n";
    }
    text
}
