//! A strategy file as a person reads it: how it was found, its rounds, its exploitability,
//! and by seat and calls so far, from which hands it makes each call.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::analysis::optimize::StrategyFile;
use crate::rules::Profile;
use crate::stats::Z95;

/// The Markdown of `file` (found for `profile`), headed by the command that reproduces it.
pub fn strategy_markdown(profile: &Profile, file: &StrategyFile, command: &str) -> String {
    let body = &file.body;
    let found = &file.found;
    let settings = &found.settings;
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Bidding strategy: {}, {} players, {} play\n",
        body.profile, body.players, body.play
    );
    let rounds = found.rounds.len();
    let ending = if found.converged {
        format!("settled after {rounds} rounds (the last changed no cell's play)")
    } else {
        format!(
            "stopped after {rounds} of at most {} rounds",
            settings.rounds
        )
    };
    let _ = writeln!(
        md,
        "Found by iterated best response, {ending}: each round valued every call of every seat \
         on {} fresh deals against the strategy of the other seats, and changed a cell's call \
         where the lead of its best call was significant at one-sided level {} (cells reached \
         by at least {} hands). Hands are grouped by `{}` classes{}; {} cells hold a call, the \
         threshold bidder bids elsewhere. Started from `{}`.\n",
        settings.deals,
        settings.level,
        settings.min_hands,
        body.by,
        if body.history == crate::bots::tuned::History::Highest.name() {
            ", the calls before a seat by the bid to beat"
        } else {
            ""
        },
        body.cells.len(),
        settings.start
    );
    if let Some(rating) = &body.rating {
        let _ = writeln!(
            md,
            "The Misère rating that bands the classes was fitted to {} Misères, declared from \
             every seat in turn while the others passed, and played out ({:.1}% made): each suit \
             adds by its length (one card, or more) and its top two cards.\n",
            rating.hands,
            100.0 * rating.made as f64 / rating.hands.max(1) as f64
        );
    }
    let _ = writeln!(md, "Reproduce with:\n\n```\n{command}\n```\n");
    rounds_table(&mut md, file);
    exploitability(&mut md, file);
    cells(&mut md, profile, file);
    md
}

/// One row per round.
fn rounds_table(md: &mut String, file: &StrategyFile) {
    let players = file.body.players;
    let _ = writeln!(md, "## Rounds\n");
    let seats: String = (0..players).map(|s| format!(" seat {s} |")).collect();
    let _ = writeln!(
        md,
        "Units per deal at each seat under the strategy the round started from (0 is eldest), \
         and what the round changed: cells whose play changed, their mean lead per hand and \
         the leads summed per deal.\n"
    );
    let _ = writeln!(
        md,
        "| round | cells reached |{seats} changed | mean lead | lead per deal |"
    );
    let _ = writeln!(md, "|---:|---:|{}---:|---:|---:|", "---:|".repeat(players));
    for r in &file.found.rounds {
        let values: String = r
            .seat_values
            .iter()
            .map(|(mean, se)| format!(" {mean:+.3} ± {se:.3} |"))
            .collect();
        let _ = writeln!(
            md,
            "| {} | {} |{values} {} | {:+.3} | {:+.4} |",
            r.round, r.cells_reached, r.changed, r.mean_gain, r.gain_per_deal
        );
    }
    md.push('\n');
}

/// The exploitability section, once measured.
fn exploitability(md: &mut String, file: &StrategyFile) {
    let Some(e) = &file.found.exploitability else {
        return;
    };
    let _ = writeln!(md, "## Exploitability\n");
    let _ = writeln!(
        md,
        "On {} held-out deals (none of the rounds'), a best response for one seat was chosen \
         on each half of them and its gain over the strategy measured on the other half (the \
         two measures averaged): by exact class (the hand up to a renaming of suits), or where \
         that is not significant by the strategy's class, the call whose lead over the \
         strategy's is significant at one-sided level {}; elsewhere the strategy's call. It \
         can only find gains that half the deals show, so it is a lower bound.\n",
        e.deals, file.found.settings.deviation_level
    );
    let _ = writeln!(md, "| seat | cells deviating | gain per deal |");
    let _ = writeln!(md, "|---:|---:|---:|");
    for s in &e.seats {
        let _ = writeln!(
            md,
            "| {} | {} | {:+.4} ± {:.4} |",
            s.seat, s.cells, s.mean, s.se
        );
    }
    let (low, high) = (
        e.per_session - Z95 * e.per_session_se,
        e.per_session + Z95 * e.per_session_se,
    );
    let _ = writeln!(
        md,
        "\nA player deviating at every seat it takes gains **{:+.3} units a session** (95% \
         interval {low:+.3} to {high:+.3}; the seats' errors added, a bound whatever their \
         correlation).\n",
        e.per_session
    );
}

/// By seat and calls so far, the classes that make each call, highest call first.
fn cells(md: &mut String, profile: &Profile, file: &StrategyFile) {
    let _ = writeln!(md, "## The strategy\n");
    let _ = writeln!(
        md,
        "By seat (0 is eldest) and the calls before it: the classes from which the strategy \
         makes each call, with the hands that reached the cell in the last round. Hands of a \
         class not listed bid as the threshold bidder does.\n"
    );
    let mut groups: BTreeMap<(usize, &Vec<String>), Vec<&crate::bots::tuned::CellEntry>> =
        BTreeMap::new();
    for cell in &file.body.cells {
        groups
            .entry((cell.seat, &cell.calls))
            .or_default()
            .push(cell);
    }
    let order: Vec<String> = std::iter::once("pass".to_string())
        .chain(profile.bids().iter().map(|b| b.name().to_string()))
        .collect();
    let by_highest = file.body.history == crate::bots::tuned::History::Highest.name();
    for ((seat, calls), cells) in groups {
        let before = match (calls.as_slice(), by_highest) {
            ([], _) if seat == 0 => "first to speak".to_string(),
            ([], true) => "nobody has bid".to_string(),
            ([bid], true) => format!("{} to beat", call_label(profile, bid)),
            _ => format!("after {}", calls.join(", ")),
        };
        let _ = writeln!(md, "### Seat {seat}, {before}\n");
        for call in order.iter().rev() {
            let making: Vec<String> = cells
                .iter()
                .filter(|c| &c.call == call)
                .map(|c| format!("{} ({})", c.class, c.hands))
                .collect();
            if making.is_empty() {
                continue;
            }
            let _ = writeln!(
                md,
                "- **{}**: {}",
                call_label(profile, call),
                making.join("; ")
            );
        }
        md.push('\n');
    }
}

/// A call named in a strategy file as a person reads it: the bid's label, `Pass`, or the name
/// itself when the profile has no such call.
fn call_label(profile: &Profile, name: &str) -> String {
    match crate::game::Call::parse(name, profile) {
        Some(crate::game::Call::Bid(id)) => profile.bid(id).label().to_string(),
        Some(_) => "Pass".to_string(),
        None => name.to_string(),
    }
}
