//! The output of `napsim review`: a report for a person (the costly cards marked), JSON Lines
//! for programs, and the summary over many deals.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::analysis::review::{CallReview, CardReview, DealReview};
use crate::cards::{Card, CardSet};
use crate::rules::Profile;

/// A card as the reports write it, or the cards of a set from the highest.
fn cards(set: CardSet) -> Vec<String> {
    set.iter_desc().map(|c| c.to_string()).collect()
}

/// A call's name: `pass` or the bid's.
fn call_name(review: &CallReview, profile: &Profile) -> String {
    review.call.name(profile).to_string()
}

/// The JSON Lines of one reviewed deal (`deal` numbers deals from 1 in a file): one object
/// per card in play order, then one per call.
pub fn review_json_lines(review: &DealReview, deal: usize, profile: &Profile) -> String {
    let mut text = String::new();
    for card in &review.cards {
        let mut line = json!({
            "type": "card",
            "deal": deal,
            "trick": card.trick,
            "seat": card.seat,
            "card": card.card.to_string(),
            "dd_before": card.dd_before,
            "dd_after": card.dd_after,
            "cost": card.cost,
            "made_before": card.made_before,
            "made_after": card.made_after,
            "best": cards(card.best),
            "pimc": card.choice.to_string(),
        });
        if card.dd_after.is_none() {
            line["revoke"] = Value::Bool(true);
        }
        text += &line.to_string();
        text.push('\n');
    }
    for call in &review.calls {
        let mut bids = Map::new();
        for b in &call.bids {
            bids.insert(
                profile.bid(b.bid).name().to_string(),
                json!({"ev": round(b.ev), "se": round(b.se), "callable": b.callable}),
            );
        }
        let mut calls = Map::new();
        for c in &call.calls {
            calls.insert(
                c.call.name(profile).to_string(),
                json!({"ev": round(c.ev), "se": round(c.se)}),
            );
        }
        let best = match (&call.ev, call.best) {
            (None, _) => Value::Null,
            (Some(_), Some(id)) => Value::from(profile.bid(id).name()),
            (Some(_), None) => Value::from("pass"),
        };
        let line = json!({
            "type": "call",
            "deal": deal,
            "seat": call.seat,
            "position": call.position,
            "call": call_name(call, profile),
            "ev": call.ev.map(round),
            "loss": call.loss.map(round),
            "best": best,
            "worlds": call.worlds,
            "bids": bids,
            "calls": calls,
        });
        text += &line.to_string();
        text.push('\n');
    }
    text
}

/// Four decimals: enough for units per deal, and stable text.
fn round(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The report of one reviewed deal for a person.
pub fn review_text(review: &DealReview, deal: usize, profile: &Profile) -> String {
    let mut text = String::new();
    let _ = write!(text, "Deal {deal}: ");
    let Some(contract) = review.contract else {
        text += "every seat passed.\n";
        text += &calls_text(review, profile);
        return text;
    };
    let bid = profile.bid(contract.bid);
    let goal = if review.misere {
        "no trick".to_string()
    } else {
        format!("{} tricks", review.needed)
    };
    let opening = review.cards.first().map_or(0, |c| c.dd_before);
    let verdict = if review.cards.first().is_some_and(|c| c.made_before) {
        "can be made"
    } else {
        "cannot be made"
    };
    let _ = writeln!(
        text,
        "seat {} declares {} ({goal}); with best play by everyone it {verdict} \
         ({opening} tricks, double dummy).",
        contract.declarer,
        bid.label()
    );
    text += &calls_text(review, profile);
    text += "\ntrick seat card  tricks    cost  best cards       PIMC\n";
    for card in &review.cards {
        let _ = writeln!(text, "{}", card_line(card));
    }
    let lost = |declarer: bool| -> usize {
        review
            .cards
            .iter()
            .filter(|c| (c.seat == contract.declarer) == declarer)
            .filter_map(|c| c.cost)
            .map(usize::from)
            .sum()
    };
    let swings = review
        .cards
        .iter()
        .filter(|c| c.made_after.is_some_and(|m| m != c.made_before))
        .count();
    let (by_declarer, by_defence) = (lost(true), lost(false));
    let _ = writeln!(
        text,
        "\nTricks given away against double-dummy play: {by_declarer} by the declarer, \
         {by_defence} by the defence (! marks them); {swings} card{} changed whether the \
         contract can be made (!!).\n\
         tricks: the declarer's tricks for the deal with best play by everyone (double dummy), \
         before→after the card; best cards: those that keep the most for the seat's side; \
         PIMC: the card PIMC plays from that seat's view.",
        plural(swings)
    );
    text
}

/// One card's line of the text report.
fn card_line(card: &CardReview) -> String {
    let after = card
        .dd_after
        .map_or("revoke".to_string(), |a| a.to_string());
    let mark = match (card.cost, card.made_after) {
        (None, _) => "  revoke",
        (Some(_), Some(after)) if after != card.made_before => "  !!",
        (Some(c), _) if c > 0 => "  !",
        _ => "",
    };
    let cost = card.cost.map_or("-".to_string(), |c| c.to_string());
    // Cards for people as `napsim play` shows them (`A♠`); the JSON keeps the ASCII.
    let best: Vec<String> = card.best.iter_desc().map(Card::for_people).collect();
    format!(
        "{:<5} {:<4} {:<4}  {:<8}  {:<4}  {:<15}  {}{mark}",
        card.trick,
        card.seat,
        card.card.for_people(),
        format!("{}→{after}", card.dd_before),
        cost,
        best.join(" "),
        card.choice.for_people()
    )
}

/// The calls' part of the text report.
fn calls_text(review: &DealReview, profile: &Profile) -> String {
    if review.calls.is_empty() {
        return String::new();
    }
    // Names as long as `wellington-without-floater` widen the call column.
    let width = review
        .calls
        .iter()
        .map(|c| call_name(c, profile).len())
        .chain(profile.bid_ids().map(|id| profile.bid(id).name().len()))
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "\nseat {:<width$}      EV  {:<width$}   loss\n",
        "call", "best"
    );
    for call in &review.calls {
        let name = call_name(call, profile);
        match (call.ev, call.loss) {
            (Some(ev), Some(loss)) => {
                let best = call.best.map_or("pass", |id| profile.bid(id).name());
                let mark = if loss > 0.0 { "  !" } else { "" };
                let _ = writeln!(
                    text,
                    "{:<4} {name:<width$}  {ev:>+6.2}  {best:<width$}  {loss:>5.2}{mark}",
                    call.seat
                );
            }
            _ => {
                let _ = writeln!(text, "{:<4} {name:<width$}  (not judged)", call.seat);
            }
        }
    }
    text
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// What one seat lost over many reviewed deals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatSummary {
    /// Cards played (revokes included).
    pub cards: u64,
    /// Tricks lost by double-dummy cost as declarer.
    pub declarer_tricks: u64,
    /// Tricks lost by double-dummy cost as defender.
    pub defender_tricks: u64,
    /// Cards that turned a contract the seat's side had into one it has not.
    pub swings: u64,
    /// Calls judged.
    pub calls: u64,
    /// Their EV loss, summed (units).
    pub call_loss: f64,
}

/// The per-seat summary over `reviews`.
pub fn review_summary(reviews: &[DealReview], players: usize) -> Vec<SeatSummary> {
    let mut seats = vec![SeatSummary::default(); players];
    for review in reviews {
        let declarer = review.contract.map(|c| c.declarer);
        for card in &review.cards {
            let Some(seat) = seats.get_mut(card.seat) else {
                continue;
            };
            seat.cards += 1;
            let cost = u64::from(card.cost.unwrap_or(0));
            if declarer == Some(card.seat) {
                seat.declarer_tricks += cost;
            } else {
                seat.defender_tricks += cost;
            }
            if card.made_after.is_some_and(|m| m != card.made_before) {
                seat.swings += 1;
            }
        }
        for call in &review.calls {
            if let (Some(seat), Some(loss)) = (seats.get_mut(call.seat), call.loss) {
                seat.calls += 1;
                seat.call_loss += loss;
            }
        }
    }
    seats
}

/// The summary for a person.
pub fn summary_text(seats: &[SeatSummary], deals: usize) -> String {
    let mut text = format!(
        "{deals} deal{} reviewed\n\n\
         seat  cards  tricks lost  as declarer  as defender  swings  calls  EV lost  per call\n",
        plural(deals)
    );
    for (i, s) in seats.iter().enumerate() {
        let per_call = if s.calls > 0 {
            format!("{:.3}", s.call_loss / s.calls as f64)
        } else {
            "-".to_string()
        };
        let _ = writeln!(
            text,
            "{i:<4}  {:>5}  {:>11}  {:>11}  {:>11}  {:>6}  {:>5}  {:>7.2}  {per_call:>8}",
            s.cards,
            s.declarer_tricks + s.defender_tricks,
            s.declarer_tricks,
            s.defender_tricks,
            s.swings,
            s.calls,
            s.call_loss,
        );
    }
    text += "\nTricks lost: double-dummy cost of the seat's cards; swings: cards that changed \
             whether the contract can be made; EV lost: units per deal given up by the calls, \
             as the hand evaluator values them.\n";
    text
}

/// The summary as one JSON object.
pub fn summary_json(seats: &[SeatSummary], deals: usize) -> String {
    let seats: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "seat": i,
                "cards": s.cards,
                "tricks_lost": s.declarer_tricks + s.defender_tricks,
                "tricks_lost_declarer": s.declarer_tricks,
                "tricks_lost_defender": s.defender_tricks,
                "contract_swings": s.swings,
                "calls": s.calls,
                "call_ev_loss": round(s.call_loss),
            })
        })
        .collect();
    json!({"deals": deals, "seats": seats}).to_string() + "\n"
}
