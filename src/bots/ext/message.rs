//! The protocol's messages (docs/protocol.md): requests built from a seat's view, answers
//! parsed back. Cards in the ASCII notation (`AS`, `TD`), calls by name (`pass`, `three`).
//!
//! Requests are written straight into a reused buffer, keys in alphabetical order (as a JSON
//! map would print them): building `serde_json::Value` maps cost more than the rest of a
//! request's round trip.

use std::fmt::Write as _;

use serde::Deserialize;

use crate::cards::{Card, CardSet};
use crate::game::{Call, SessionState};
use crate::policy::{BidView, PlayView};
use crate::rules::Profile;

/// The protocol's version, sent in the handshake.
pub const PROTOCOL_VERSION: u32 = 1;

/// A JSON object being written: `{"a":1,"b":"x"}`.
struct Object<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Object<'a> {
    fn new(out: &'a mut String) -> Object<'a> {
        out.push('{');
        Object { out, first: true }
    }

    fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, key);
        self.out.push(':');
        self.out
    }

    fn str(&mut self, key: &str, value: &str) -> &mut Self {
        string(self.key(key), value);
        self
    }

    fn num(&mut self, key: &str, value: impl std::fmt::Display) -> &mut Self {
        let out = self.key(key);
        let _ = write!(out, "{value}");
        self
    }

    /// An array of strings (bid names may come from a user's profile: escaped).
    fn strs<'s>(&mut self, key: &str, items: impl IntoIterator<Item = &'s str>) -> &mut Self {
        let out = self.key(key);
        out.push('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            string(out, item);
        }
        out.push(']');
        self
    }

    /// An array of cards (their text, rank then suit letter, never needs escaping).
    fn cards(&mut self, key: &str, cards: impl IntoIterator<Item = Card>) -> &mut Self {
        let out = self.key(key);
        out.push('[');
        for (i, card) in cards.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "\"{card}\"");
        }
        out.push(']');
        self
    }

    /// The session a deal is part of, where it is one: `{"balances":[..],"deal":D,"deals":N}`,
    /// balances by seat.
    fn session(&mut self, session: Option<&SessionState>, players: usize) -> &mut Self {
        let Some(session) = session else {
            return self;
        };
        let out = self.key("session");
        out.push_str("{\"balances\":[");
        for (i, balance) in session.balances[..players].iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{balance}");
        }
        let _ = write!(
            out,
            "],\"deal\":{},\"deals\":{}}}",
            session.deal, session.deals
        );
        self
    }

    fn null(&mut self, key: &str) -> &mut Self {
        self.key(key).push_str("null");
        self
    }

    fn end(&mut self) {
        self.out.push('}');
    }
}

/// `text` as a JSON string.
fn string(out: &mut String, text: &str) {
    out.push('"');
    if !text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        out.push_str(text);
        out.push('"');
        return;
    }
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The handshake: the protocol version, the profile and the table size.
pub(super) fn hello(profile: &Profile, players: usize) -> String {
    let mut out = String::new();
    Object::new(&mut out)
        .num("players", players)
        .str("profile", profile.name())
        .num("protocol", PROTOCOL_VERSION)
        .str("type", "hello")
        .end();
    out
}

/// The auction so far, each call with its seat: the eldest (the dealer's left) speaks first.
fn auction(o: &mut Object, calls: &[Call], profile: &Profile, dealer: usize, players: usize) {
    let out = o.key("calls");
    out.push('[');
    for (i, call) in calls.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let mut entry = Object::new(out);
        entry
            .str("call", call.name(profile))
            .num("seat", (dealer + 1 + i) % players)
            .end();
    }
    out.push(']');
}

/// The legal calls of the seat in `view`: passing, then the bids of the ladder it may call.
pub(super) fn legal_calls(view: &BidView) -> Vec<Call> {
    view.legal_calls()
}

/// A `bid` request into `out`: what the seat in `view` knows in the auction.
pub(super) fn bid_request(out: &mut String, view: &BidView, legal: &[Call], seed: u64) {
    let profile = view.profile();
    let mut o = Object::new(out);
    auction(&mut o, view.calls(), profile, view.dealer(), view.players());
    o.num("dealer", view.dealer());
    if let Some(floater) = view.floater() {
        o.str("floater", &floater.to_string());
    }
    o.str("hand", &view.hand().to_string());
    if profile.has_kitty() {
        o.num("kitty", view.kitty());
    }
    o.strs("legal", legal.iter().map(|c| c.name(profile)))
        .num("players", view.players())
        .num("position", view.position())
        .str("profile", profile.name())
        .num("seat", view.seat())
        .num("seed", seed)
        .session(view.session(), view.players())
        .str("type", "bid")
        .end();
}

/// A `play` request into `out`: what the seat in `view` knows in the play.
pub(super) fn play_request(out: &mut String, view: &PlayView, seed: u64) {
    let profile = view.profile();
    let mut o = Object::new(out);
    auction(&mut o, view.calls(), profile, view.dealer(), view.players());
    {
        let out = o.key("contract");
        Object::new(out)
            .str("bid", view.bid().name())
            .num("declarer", view.declarer())
            .num("misere", view.is_misere())
            .end();
    }
    o.num("dealer", view.dealer());
    if let Some(floater) = view.floater() {
        o.str("floater", &floater.to_string());
    }
    o.str("hand", &view.hand().to_string())
        .cards("legal", view.legal().iter_desc())
        .num("players", view.players())
        .str("profile", profile.name())
        .num("seat", view.seat())
        .num("seed", seed)
        .session(view.session(), view.players());
    {
        let out = o.key("tricks");
        out.push('[');
        for t in 0..=view.tricks_done() {
            let played = view.trick_cards(t);
            if played.is_empty() {
                break;
            }
            if t > 0 {
                out.push(',');
            }
            let mut trick = Object::new(out);
            trick
                .cards("cards", played.iter().copied())
                .num("leader", view.trick_leader(t));
            if t < view.tricks_done() {
                trick.num("winner", view.trick_winner(t));
            }
            trick.end();
        }
        out.push(']');
    }
    match view.trump() {
        Some(suit) => o.str("trump", &suit.to_string()),
        None => o.null("trump"),
    };
    o.str("type", "play").end();
}

/// An answer: the fields napsim reads (any others are ignored).
#[derive(Deserialize)]
struct Answer {
    call: Option<serde_json::Value>,
    card: Option<serde_json::Value>,
    name: Option<serde_json::Value>,
}

/// The value of `field` in the answer `line`, if it is a string; or why there is none.
fn field(line: &str, field: &str) -> Result<Option<String>, String> {
    let answer: Answer =
        serde_json::from_str(line).map_err(|e| format!("it is not a JSON object ({e})"))?;
    let value = match field {
        "call" => answer.call,
        "card" => answer.card,
        _ => answer.name,
    };
    match value {
        None => Ok(None),
        Some(serde_json::Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(format!("its \"{field}\" is not a string")),
    }
}

/// The value of `name` in the answer `line`, which must have it.
fn required(line: &str, name: &str) -> Result<String, String> {
    field(line, name)?.ok_or_else(|| format!("it has no \"{name}\""))
}

/// The call in the answer `line`, if it is one of `legal`.
pub(super) fn parse_call(line: &str, legal: &[Call], profile: &Profile) -> Result<Call, String> {
    let name = required(line, "call")?;
    let call = Call::parse(&name, profile).ok_or_else(|| format!("\"{name}\" is no call"))?;
    if legal.contains(&call) {
        Ok(call)
    } else {
        Err(format!("\"{name}\" is not a legal call here"))
    }
}

/// The card in the answer `line`, if it is legal.
pub(super) fn parse_card(line: &str, legal: CardSet) -> Result<Card, String> {
    let text = required(line, "card")?;
    let card: Card = text.parse().map_err(|_| format!("\"{text}\" is no card"))?;
    if legal.contains(card) {
        Ok(card)
    } else {
        Err(format!("{card} is not a legal card here"))
    }
}

/// The bot's name in its answer to the handshake, if it gave one.
pub(super) fn parse_name(line: &str) -> Result<Option<String>, String> {
    field(line, "name")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_json_reads_them() {
        for text in [
            "heather-1875",
            "a \"quoted\" name",
            "back\\slash",
            "tab\there",
            "é♠",
        ] {
            let mut out = String::new();
            string(&mut out, text);
            let back: String = serde_json::from_str(&out).unwrap();
            assert_eq!(back, text, "{out}");
        }
    }

    #[test]
    fn a_session_deal_sends_its_session_and_a_lone_deal_none() {
        use crate::game::{DealState, Shuffler};
        let profile = Profile::default_profile();
        let mut shuffler = Shuffler::new(&profile, 3);
        let dealt = shuffler.deal(2, &mut crate::rng::base_rng(1));
        let mut state = DealState::from_dealt(&profile, 2, &dealt, 3);
        let request = |state: &DealState| {
            let view = BidView::new(state);
            let mut out = String::new();
            bid_request(&mut out, &view, &legal_calls(&view), 5);
            out
        };
        let lone = request(&state);
        assert!(!lone.contains("session"), "{lone}");
        let mut balances = [0; crate::rules::MAX_PLAYERS];
        balances[..3].copy_from_slice(&[-9, 12, -3]);
        state.set_session(SessionState {
            deal: 3,
            deals: 8,
            balances,
        });
        let sent = request(&state);
        let value: serde_json::Value = serde_json::from_str(&sent).unwrap();
        assert_eq!(
            value["session"],
            serde_json::json!({"balances": [-9, 12, -3], "deal": 3, "deals": 8})
        );
        // Keys in alphabetical order, as a JSON map prints them, and nothing else changed.
        assert_eq!(serde_json::to_string(&value).unwrap(), sent);
        let mut without = value.clone();
        without.as_object_mut().unwrap().remove("session");
        assert_eq!(serde_json::to_string(&without).unwrap(), lone);
    }

    #[test]
    fn the_handshake_is_one_json_object() {
        let profile = Profile::default_profile();
        let hello = hello(&profile, 4);
        let value: serde_json::Value = serde_json::from_str(&hello).unwrap();
        assert_eq!(value["type"], "hello");
        assert_eq!(value["protocol"], PROTOCOL_VERSION);
        assert_eq!(value["players"], 4);
    }
}
