//! The protocol's messages (docs/protocol.md): requests built from a seat's view, answers
//! parsed back. Cards in the ASCII notation (`AS`, `TD`), calls by name (`pass`, `three`).

use serde_json::{Value, json};

use crate::cards::{Card, CardSet};
use crate::game::Call;
use crate::policy::{BidView, PlayView};
use crate::rules::Profile;

/// The protocol's version, sent in the handshake.
pub const PROTOCOL_VERSION: u32 = 1;

/// The handshake: the protocol version, the profile and the table size.
pub(super) fn hello(profile: &Profile, players: usize) -> String {
    json!({
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "profile": profile.name(),
        "players": players,
    })
    .to_string()
}

fn cards(set: CardSet) -> String {
    set.to_string()
}

fn card_list(set: CardSet) -> Vec<String> {
    set.iter_desc().map(|c| c.to_string()).collect()
}

fn call_names(calls: &[Call], profile: &Profile) -> Vec<String> {
    calls.iter().map(|c| c.name(profile).to_string()).collect()
}

/// The auction so far, each call with its seat: the eldest (the dealer's left) speaks first.
fn auction(calls: &[Call], profile: &Profile, dealer: usize, players: usize) -> Vec<Value> {
    calls
        .iter()
        .enumerate()
        .map(|(i, call)| json!({"seat": (dealer + 1 + i) % players, "call": call.name(profile)}))
        .collect()
}

/// The legal calls of the seat in `view`: passing, then the bids of the ladder it may call.
pub(super) fn legal_calls(view: &BidView) -> Vec<Call> {
    let profile = view.profile();
    std::iter::once(Call::Pass)
        .chain(profile.bid_ids().map(Call::Bid))
        .filter(|&call| view.is_legal(call))
        .collect()
}

/// A `bid` request: what the seat in `view` knows in the auction.
pub(super) fn bid_request(view: &BidView, legal: &[Call], seed: u64) -> String {
    let profile = view.profile();
    let mut request = json!({
        "type": "bid",
        "profile": profile.name(),
        "players": view.players(),
        "seat": view.seat(),
        "dealer": view.dealer(),
        "position": view.position(),
        "hand": cards(view.hand()),
        "legal": call_names(legal, profile),
        "calls": auction(view.calls(), profile, view.dealer(), view.players()),
        "seed": seed,
    });
    if profile.has_kitty() {
        request["kitty"] = json!(view.kitty());
    }
    if let Some(floater) = view.floater() {
        request["floater"] = json!(floater.to_string());
    }
    request.to_string()
}

/// A `play` request: what the seat in `view` knows in the play.
pub(super) fn play_request(view: &PlayView, seed: u64) -> String {
    let profile = view.profile();
    let contract = view.contract();
    let tricks: Vec<Value> = (0..=view.tricks_done())
        .filter_map(|t| {
            let played = view.trick_cards(t);
            if played.is_empty() {
                return None;
            }
            let mut trick = json!({
                "leader": view.trick_leader(t),
                "cards": played.iter().map(Card::to_string).collect::<Vec<_>>(),
            });
            if t < view.tricks_done() {
                trick["winner"] = json!(view.trick_winner(t));
            }
            Some(trick)
        })
        .collect();
    let mut request = json!({
        "type": "play",
        "profile": profile.name(),
        "players": view.players(),
        "seat": view.seat(),
        "dealer": view.dealer(),
        "hand": cards(view.hand()),
        "legal": card_list(view.legal()),
        "calls": auction(view.calls(), profile, view.dealer(), view.players()),
        "contract": {
            "bid": view.bid().name(),
            "declarer": contract.declarer,
            "misere": view.is_misere(),
        },
        "trump": view.trump().map(|s| s.to_string()),
        "tricks": tricks,
        "seed": seed,
    });
    if let Some(floater) = view.floater() {
        request["floater"] = json!(floater.to_string());
    }
    request.to_string()
}

/// The value of `field` in the answer `line`, or why there is none.
fn field(line: &str, field: &str) -> Result<String, String> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| format!("it is not a JSON object ({e})"))?;
    let object = value.as_object().ok_or("it is not a JSON object")?;
    match object.get(field) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(_) => Err(format!("its \"{field}\" is not a string")),
        None => Err(format!("it has no \"{field}\"")),
    }
}

/// The call in the answer `line`, if it is one of `legal`.
pub(super) fn parse_call(line: &str, legal: &[Call], profile: &Profile) -> Result<Call, String> {
    let name = field(line, "call")?;
    let call = Call::parse(&name, profile).ok_or_else(|| format!("\"{name}\" is no call"))?;
    if legal.contains(&call) {
        Ok(call)
    } else {
        Err(format!("\"{name}\" is not a legal call here"))
    }
}

/// The card in the answer `line`, if it is legal.
pub(super) fn parse_card(line: &str, legal: CardSet) -> Result<Card, String> {
    let text = field(line, "card")?;
    let card: Card = text.parse().map_err(|_| format!("\"{text}\" is no card"))?;
    if legal.contains(card) {
        Ok(card)
    } else {
        Err(format!("{card} is not a legal card here"))
    }
}

/// The bot's name in its answer to the handshake, if it gave one.
pub(super) fn parse_name(line: &str) -> Result<Option<String>, String> {
    match field(line, "name") {
        Ok(name) => Ok(Some(name)),
        Err(e) if e.starts_with("it has no") => Ok(None),
        Err(e) => Err(e),
    }
}
