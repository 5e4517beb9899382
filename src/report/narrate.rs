//! A finished deal told for a person.

use std::fmt::Write;

use crate::game::DealState;

/// Narrates a finished deal: hands, auction, tricks, result and payments. `number` counts the
/// deals of a run from 1.
pub fn narrate(state: &DealState, number: u64) -> String {
    let profile = state.profile();
    let players = state.players();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Deal {number} ({}, {players} players, seat {} deals)",
        profile.name(),
        state.dealer()
    );
    for seat in 0..players {
        let _ = writeln!(out, "  seat {seat}: {:?}", state.dealt(seat));
    }
    let calls: Vec<String> = state
        .calls()
        .iter()
        .enumerate()
        .map(|(i, c)| format!("seat {} {}", state.caller(i), c.name(profile)))
        .collect();
    for i in 0..players {
        let seat = (state.dealer() + 1 + i) % players;
        let (discarded, received) = state.bought(seat);
        if discarded.any() {
            let _ = writeln!(
                out,
                "  seat {seat} buys: gave up {discarded}, took {received}"
            );
        } else if state.bought_in(seat) {
            let _ = writeln!(out, "  seat {seat} buys: paid, gave up nothing");
        }
    }
    let _ = writeln!(out, "  auction: {}", calls.join(", "));
    if let Some(floater) = state.floater() {
        let peeks: Vec<String> = (0..players)
            .filter(|&s| state.peeked(s))
            .map(|s| format!("seat {s}"))
            .collect();
        let who = if peeks.is_empty() {
            "nobody".to_string()
        } else {
            peeks.join(", ")
        };
        let _ = writeln!(out, "  floater: {floater} (paid to look: {who})");
    }
    if let Some((seat, discarded, received)) = state.spare_exchange() {
        let _ = writeln!(
            out,
            "  seat {seat} took the spare hand ({:?}): gave up {discarded}, took {received}",
            state.spare()
        );
    }
    let Some(contract) = state.contract() else {
        let _ = writeln!(out, "  all passed: no contract, the deal passes left");
        kitty_line(&mut out, state);
        return out;
    };
    let bid = profile.bid(contract.bid);
    if let Some(discard) = state.floater_discard() {
        let floater = state.floater().expect("a floater");
        let _ = writeln!(
            out,
            "  seat {} takes the floater {floater} and discards {discard}",
            contract.declarer
        );
    }
    let trump = match state.trump() {
        Some(suit) => format!("{} trump", suit.symbol()),
        None => "no trump".to_string(),
    };
    let _ = writeln!(
        out,
        "  contract: {} by seat {}, {trump}",
        bid.label(),
        contract.declarer
    );
    for t in 0..state.tricks_done() {
        let cards: Vec<String> = state.trick_cards(t).iter().map(|c| c.to_string()).collect();
        let _ = writeln!(
            out,
            "  trick {}: seat {} leads {}; seat {} wins",
            t + 1,
            state.trick_leader(t),
            cards.join(" "),
            state.trick_winner(t)
        );
    }
    if let Some((seat, card)) = state.revoke() {
        let so_far: Vec<String> = state
            .current_trick()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let _ = writeln!(
            out,
            "  revoke: after {}, seat {seat} played {card} without following suit; play stops",
            so_far.join(" ")
        );
    }
    let made = state.made() == Some(true);
    let verdict = match (state.revoke().is_some(), made) {
        (true, true) => "settled as made (a defender revoked)",
        (true, false) => "settled as lost (the declarer revoked)",
        (false, true) => "made",
        (false, false) => "lost",
    };
    let _ = writeln!(
        out,
        "  result: declarer took {} trick(s): {} {verdict}",
        state.declarer_tricks(),
        bid.label(),
    );
    kitty_line(&mut out, state);
    let payments: Vec<String> = state.payments()[..players]
        .iter()
        .enumerate()
        .map(|(s, p)| format!("seat {s} {p:+}"))
        .collect();
    let _ = writeln!(out, "  payments: {}", payments.join(", "));
    out
}

/// The kitty before and after the deal, for profiles that have one.
fn kitty_line(out: &mut String, state: &DealState) {
    if state.profile().has_kitty() {
        let _ = writeln!(
            out,
            "  kitty: {} before, {} after",
            state.kitty_before(),
            state.kitty_after()
        );
    }
}
