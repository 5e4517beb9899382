//! The step-by-step game ([`crate::analysis::game`]) as JSON objects for programs: its
//! events, what the caller's seat sees, and the coach's hints (the shapes `napsim play --json`
//! writes for the hints, and the Python package's `Game` returns).

use serde_json::{Value, json};

use super::DealRecord;
use crate::analysis::coach::CardHint;
use crate::analysis::game::{Event, Game, HINT_PLAY, Question};
use crate::cards::{CardSet, Suit};
use crate::eval::hand::HandSummary;
use crate::game::Phase;
use crate::rules::{BidId, HAND_SIZE, Profile};

/// Cards in the `AS` notation, highest first.
fn cards(set: CardSet) -> Vec<String> {
    set.iter_desc().map(|c| c.to_string()).collect()
}

/// A call hint as `napsim play --json` writes it: `{"type": "hint", "worlds", "play", "bids":
/// [{"bid", "p_make", "ci95", "ev", "ev_se", "dd_p_make"}], "calls": [{"call", "auction_ev",
/// "auction_ev_se", "diff_best", "diff_best_se", "p_contract"}], "best", "best_as_declarer"}`.
pub fn call_hint_json(profile: &Profile, summary: &HandSummary) -> Value {
    let bids: Vec<Value> = summary
        .bids
        .iter()
        .filter(|b| b.callable)
        .map(|b| {
            json!({"bid": profile.bid(b.id).name(), "p_make": b.p_make,
                   "ci95": [b.ci95.0, b.ci95.1], "ev": b.ev, "ev_se": b.ev_se,
                   "dd_p_make": b.dd_p_make})
        })
        .collect();
    let calls: Vec<Value> = summary
        .calls
        .iter()
        .map(|c| {
            json!({"call": c.call.name(profile), "auction_ev": c.auction_ev,
                   "auction_ev_se": c.auction_ev_se, "diff_best": c.diff_best,
                   "diff_best_se": c.diff_best_se, "p_contract": c.p_contract})
        })
        .collect();
    let name = |bid: Option<BidId>| bid.map_or("pass", |id| profile.bid(id).name());
    json!({"type": "hint", "worlds": summary.worlds, "play": HINT_PLAY, "bids": bids,
           "calls": calls, "best": name(summary.recommended),
           "best_as_declarer": name(summary.declarer_recommended)})
}

/// A card hint as `napsim play --json` writes it: `{"type": "hint", "cards": [{"card", "pimc",
/// "dd"}]}`.
pub fn card_hints_json(hints: &[CardHint]) -> Value {
    let cards: Vec<Value> = hints
        .iter()
        .map(|h| json!({"card": h.card.to_string(), "pimc": h.pimc, "dd": h.dd}))
        .collect();
    json!({"type": "hint", "cards": cards})
}

/// An event of `game` as a JSON object for programs: `type` (`deal`, `bought`, `exchanged`,
/// `peeked`, `saw`, `call`, `kept`, `declared`, `took_floater`, `discarded`, `trump`,
/// `card`, `lead_trump`, `trick`, `result`, `end`) and its fields, cards in the `AS`
/// notation and calls and bids by name.
pub fn event_json(game: &Game, event: &Event) -> Value {
    let profile = game.profile();
    match event {
        Event::Deal {
            number,
            deals,
            dealer,
            hand,
        } => json!({"type": "deal", "number": number, "deals": deals, "dealer": dealer,
                        "hand": hand.to_string()}),
        Event::Bought { seat, count } => json!({"type": "bought", "seat": seat, "count": count}),
        Event::Exchanged { gave, got } => {
            json!({"type": "exchanged", "gave": gave.to_string(), "got": got.to_string()})
        }
        Event::Peeked { seat } => json!({"type": "peeked", "seat": seat}),
        Event::Saw { floater } => json!({"type": "saw", "floater": floater.to_string()}),
        Event::Called { seat, call, forced } => json!({"type": "call", "seat": seat,
                "call": call.name(profile), "forced": forced}),
        Event::Kept { keep } => json!({"type": "kept", "keep": keep.to_string()}),
        Event::Declared { declarer, bid } => json!({"type": "declared",
                "declarer": declarer, "bid": profile.bid(*bid).name()}),
        Event::TookFloater { seat } => json!({"type": "took_floater", "seat": seat}),
        Event::Discarded { card } => json!({"type": "discarded", "card": card.to_string()}),
        Event::Trump { suit } => json!({"type": "trump", "suit": suit.to_string()}),
        Event::Played { seat, card } => {
            json!({"type": "card", "seat": seat, "card": card.to_string()})
        }
        Event::LeadTrump { suit } => json!({"type": "lead_trump", "suit": suit.to_string()}),
        Event::Trick {
            number,
            winner,
            declarer_tricks,
            needs,
        } => json!({"type": "trick", "number": number, "winner": winner,
                        "declarer_tricks": declarer_tricks, "needs": needs}),
        Event::Settled(s) => {
            let record = usize::try_from(s.number - 1)
                .ok()
                .and_then(|i| game.finished().get(i))
                .map(DealRecord::from_state);
            json!({"type": "result", "number": s.number, "record": record,
                       "payments": s.payments, "kitty": s.kitty, "balances": s.balances})
        }
        Event::End { balances } => json!({"type": "end", "balances": balances}),
    }
}

/// What the caller's seat in `game` sees now, as a JSON object for programs: the deal's number of
/// `deals`, the dealer, the question standing (by [`Question::name`], null when none) and
/// its answers in `legal` (the legal calls by name or cards as `AS`; for a purchase the
/// cards that may be given up, to keep the ten cards, to discard the six, to peek `no` and
/// `yes`, for trump the suits that may be named), the caller's hand,
/// the calls so far (`seat`, `call`), the contract (`declarer`, `bid`), the trump suit, the
/// trick in progress (`seat`, `card`), each seat's tricks and balance, whether the session
/// is over.
pub fn view_json(game: &Game) -> Value {
    let profile = game.profile();
    let me = game.settings().seat;
    let question = game.pending();
    let mut view = json!({"seat": me, "deal": game.number(), "deals": game.deals(),
        "question": question.map(Question::name), "balances": game.balances(),
        "over": game.is_over()});
    let Some(state) = game.state() else {
        return view;
    };
    let legal: Vec<String> = match question {
        Some(Question::Call) => game
            .legal_calls()
            .iter()
            .map(|c| c.name(profile).to_string())
            .collect(),
        Some(Question::Card) => cards(state.legal_cards()),
        Some(Question::Purchase) => cards(state.hand(me)),
        Some(Question::Keep) => cards(state.hand(me) | state.spare()),
        Some(Question::Discard) => cards(state.hand(me).with(state.floater().expect("a floater"))),
        Some(Question::Peek) => vec!["no".into(), "yes".into()],
        Some(Question::Trump) => Suit::ALL
            .iter()
            .filter(|&&suit| state.clone().name_trump(suit).is_ok())
            .map(|s| s.to_string())
            .collect(),
        None => Vec::new(),
    };
    let calls: Vec<Value> = state
        .calls()
        .iter()
        .enumerate()
        .map(|(i, call)| json!({"seat": state.caller(i), "call": call.name(profile)}))
        .collect();
    let leader = state.trick_leader(state.tricks_done().min(HAND_SIZE - 1));
    let trick: Vec<Value> = state
        .current_trick()
        .iter()
        .enumerate()
        .map(|(i, card)| {
            json!({"seat": (leader + i) % game.settings().players, "card": card.to_string()})
        })
        .collect();
    let contract = state.contract().filter(|_| state.phase() != Phase::Auction);
    let extra = json!({"dealer": state.dealer(), "hand": state.hand(me).to_string(),
        "legal": legal, "calls": calls,
        "contract": contract.map(|c| json!({"declarer": c.declarer,
                                             "bid": profile.bid(c.bid).name()})),
        "trump": state.trump().map(|s| s.to_string()), "trick": trick,
        "tricks": (0..game.settings().players).map(|s| state.tricks_won(s)).collect::<Vec<_>>()});
    if let (Value::Object(view), Value::Object(extra)) = (&mut view, extra) {
        view.extend(extra);
    }
    view
}
