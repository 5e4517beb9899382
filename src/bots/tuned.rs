//! `tuned:file=(FILE.json)`: bids from a strategy file made by `napsim optimize`.
//!
//! A strategy is a lookup from a cell, (the seat's position in the auction, the calls before it,
//! its hand's class), to a call, for one profile and table size. A seat whose cell the strategy
//! holds makes that call; any other seat calls as the default threshold bidder does, which also
//! makes every decision besides the call (buying, peeking, taking the spare hand, naming trump).
//!
//! The file is JSON (`format: napsim-strategy/1`): the profile, table size and class scheme it
//! was found for, what its cells know of the earlier calls (`history`: left out for all of
//! them, `highest` for the bid to beat only, see [`History`]), and its cells, each `{seat,
//! calls, class, key, call, hands}` (`calls` the earlier calls by name, or the bid to beat if
//! any, `class` the class label, `key` the class's number, `hands` how many hands reached the
//! cell when it was last valued). Loading checks every cell against the
//! profile: a cell that could not arise, or whose call would be illegal there, is refused with
//! its file and cell named.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::threshold::Threshold;
use crate::cards::CardSet;
use crate::eval::classes::{Class, Scheme};
use crate::eval::rating::{BANDS, MisereRating};
use crate::game::{Call, DealState};
use crate::policy::{BidPolicy, BidView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::Profile;

/// The `format` of a strategy file.
pub const STRATEGY_FORMAT: &str = "napsim-strategy/1";

/// The schemes a strategy may group hands by.
pub const STRATEGY_SCHEMES: [Scheme; 6] = [
    Scheme::Classes,
    Scheme::ClassesMisere,
    Scheme::ClassesRated,
    Scheme::Coarse,
    Scheme::Exact,
    Scheme::Strength,
];

/// The scheme called `name` (`classes`, `classes-misere`, `classes-rated`, `coarse`, `exact`,
/// `strength`).
pub fn scheme_named(name: &str) -> Option<Scheme> {
    STRATEGY_SCHEMES.into_iter().find(|s| s.name() == name)
}

/// Where a seat stands when it calls: its position (0 for eldest), what it knows of the calls
/// before it ([`History::code`]) and its hand's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CellKey {
    /// The position in the auction.
    pub seat: u8,
    /// The earlier calls, or the bid to beat, packed ([`History::code`]).
    pub history: u64,
    /// The hand's class.
    pub class: Class,
}

/// Bits per call in a [`history_code`].
const CALL_BITS: u32 = 7;
/// A call's code: passing 0, bid `i` as `i + 1`, taking the spare hand the largest code.
const SPARE_CODE: u64 = (1 << CALL_BITS) - 1;

/// The calls `calls` packed into a number, seven bits each, the first call highest (the
/// position, which is the number of calls, tells the lengths apart).
pub fn history_code(calls: &[Call]) -> u64 {
    calls.iter().fold(0, |code, call| {
        code << CALL_BITS
            | match call {
                Call::Pass => 0,
                Call::Bid(id) => id.index() as u64 + 1,
                Call::TakeSpare => SPARE_CODE,
            }
    })
}

/// The calls of a [`history_code`] of `len` calls.
pub fn history_calls(code: u64, len: usize) -> Vec<Call> {
    (0..len)
        .rev()
        .map(|i| match code >> (CALL_BITS * i as u32) & SPARE_CODE {
            0 => Call::Pass,
            SPARE_CODE => Call::TakeSpare,
            b => Call::Bid(crate::rules::BidId((b - 1) as u8)),
        })
        .collect()
}

/// What a cell knows of the calls before its seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// Every call, in order ([`history_code`]).
    Calls,
    /// Only the bid to beat (the last bid made, none while every earlier seat passed): at a
    /// seat, the auctions that leave the same bid to beat share a cell, so each is reached by
    /// more hands, at the cost of what the order of the calls says about the other hands.
    Highest,
}

impl History {
    /// Both kinds.
    pub const ALL: [History; 2] = [History::Calls, History::Highest];

    /// The name in strategy files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            History::Calls => "calls",
            History::Highest => "highest",
        }
    }

    /// The kind called `name`.
    pub fn named(name: &str) -> Option<History> {
        History::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The code of a cell whose seat speaks after `calls`.
    pub fn code(self, calls: &[Call]) -> u64 {
        match self {
            History::Calls => history_code(calls),
            History::Highest => calls
                .iter()
                .rev()
                .find(|c| matches!(c, Call::Bid(_)))
                .map_or(0, |c| history_code(&[*c])),
        }
    }

    /// The calls a cell of seat `seat` and code `code` names: every call before the seat, or
    /// the bid to beat (none when every earlier seat passed).
    pub fn calls(self, code: u64, seat: usize) -> Vec<Call> {
        match self {
            History::Calls => history_calls(code, seat),
            History::Highest if code == 0 => Vec::new(),
            History::Highest => history_calls(code, 1),
        }
    }

    /// A sequence of calls that reaches a cell naming `named` at seat `seat`, to replay:
    /// `named` itself, or passes, then the bids that the bid to beat must overcall (Wellington
    /// only over Nap), then that bid.
    fn replay(self, named: &[Call], seat: usize, profile: &Profile) -> Result<Vec<Call>, String> {
        match self {
            History::Calls if named.len() == seat => Ok(named.to_vec()),
            History::Calls => Err(format!(
                "seat {seat} speaks after {seat} calls, not {}",
                named.len()
            )),
            History::Highest => match named {
                [] => Ok(vec![Call::Pass; seat]),
                &[Call::Bid(bid)] if seat > 0 => {
                    let mut chain = vec![bid];
                    while let Some(under) = profile.bid(chain[0]).only_over() {
                        chain.insert(0, under);
                    }
                    if chain.len() > seat {
                        return Err(format!(
                            "no auction leaves {} to beat at seat {seat}: it takes {} bids to \
                             reach",
                            profile.bid(bid).name(),
                            chain.len()
                        ));
                    }
                    let mut calls = vec![Call::Pass; seat - chain.len()];
                    calls.extend(chain.into_iter().map(Call::Bid));
                    Ok(calls)
                }
                _ => Err(format!(
                    "with history highest a cell names the bid to beat (one bid, none at seat \
                     0), not '{}'",
                    named
                        .iter()
                        .map(|c| c.name(profile))
                        .collect::<Vec<_>>()
                        .join(",")
                )),
            },
        }
    }
}

/// The `history` of strategy files that do not name one.
pub fn calls_history() -> String {
    History::Calls.name().to_string()
}

/// Whether a file's `history` is the default, which files leave out.
pub fn is_calls_history(history: &str) -> bool {
    history == History::Calls.name()
}

/// One cell of a strategy file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellEntry {
    /// The position in the auction (0 for eldest).
    pub seat: usize,
    /// The earlier calls by name, in speaking order (with `history` `highest`, the bid to
    /// beat, if any).
    pub calls: Vec<String>,
    /// The class's label.
    pub class: String,
    /// The class's number (the label alone does not always give it back).
    pub key: u64,
    /// The call by name.
    pub call: String,
    /// Hands that reached the cell when it was last valued.
    pub hands: u64,
}

/// The playable part of a strategy file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyBody {
    /// [`STRATEGY_FORMAT`].
    pub format: String,
    /// The profile's name.
    pub profile: String,
    /// The table size.
    pub players: usize,
    /// The class scheme's name.
    pub by: String,
    /// What a cell knows of the earlier calls ([`History`]): `calls` (left out) or `highest`.
    #[serde(default = "calls_history", skip_serializing_if = "is_calls_history")]
    pub history: String,
    /// The play policy the strategy was found for (a spec).
    pub play: String,
    /// The bid policy for cells the strategy lacks (always `threshold`).
    pub fallback: String,
    /// The Misère rating that bands the classes of `classes-rated` (left out otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<MisereRating>,
    /// The cells, in order of seat, calls and class.
    pub cells: Vec<CellEntry>,
}

/// A strategy, checked against its profile: the cells to look up.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    /// The table size.
    pub players: usize,
    /// How hands are grouped.
    pub scheme: Scheme,
    /// What a cell knows of the earlier calls.
    pub history: History,
    /// The Misère rating of [`Scheme::ClassesRated`] (None until fitted, and for other schemes).
    pub rating: Option<MisereRating>,
    /// The call of each cell the strategy holds.
    pub cells: HashMap<CellKey, Call>,
}

impl Strategy {
    /// The empty strategy: every seat bids as the fallback does.
    pub fn empty(players: usize, scheme: Scheme, history: History) -> Strategy {
        Strategy {
            players,
            scheme,
            history,
            rating: None,
            cells: HashMap::new(),
        }
    }

    /// Checks `body` against `profile`; errors say what is wrong, naming the cell.
    pub fn from_body(body: &StrategyBody, profile: &Profile) -> Result<Strategy, String> {
        if body.format != STRATEGY_FORMAT {
            return Err(format!(
                "format '{}' is not a napsim strategy ({STRATEGY_FORMAT}): make one with napsim \
                 optimize",
                body.format
            ));
        }
        if body.profile != profile.name() {
            return Err(format!(
                "the strategy is for profile {}, not {}",
                body.profile,
                profile.name()
            ));
        }
        if profile.check_players(body.players).is_err() {
            return Err(format!(
                "the strategy is for {} players, which {} does not seat",
                body.players,
                profile.name()
            ));
        }
        let scheme =
            scheme_named(&body.by).ok_or_else(|| format!("unknown class scheme '{}'", body.by))?;
        let history = History::named(&body.history)
            .ok_or_else(|| format!("unknown history '{}': use calls or highest", body.history))?;
        match (&body.rating, scheme) {
            (Some(rating), Scheme::ClassesRated) => rating.check()?,
            (Some(_), _) => {
                return Err(format!(
                    "a misère rating bands only classes-rated strategies, not {}",
                    body.by
                ));
            }
            (None, Scheme::ClassesRated) if !body.cells.is_empty() => {
                return Err("a classes-rated strategy needs its misère rating".into());
            }
            _ => {}
        }
        if body.fallback != "threshold" {
            return Err(format!(
                "fallback '{}': only the threshold bidder is a fallback",
                body.fallback
            ));
        }
        let auction_start = any_deal(profile, body.players);
        let mut cells = HashMap::new();
        for entry in &body.cells {
            let (key, call) = check_cell(
                entry,
                profile,
                body.players,
                (scheme, history),
                &auction_start,
            )
            .map_err(|reason| format!("{}: {reason}", describe_cell(entry)))?;
            if cells.insert(key, call).is_some() {
                return Err(format!("{}: the cell appears twice", describe_cell(entry)));
            }
        }
        Ok(Strategy {
            players: body.players,
            scheme,
            history,
            rating: body.rating.clone(),
            cells,
        })
    }

    /// The strategy's cells as a file's entries, in order, with the hands each reached
    /// (`hands`, 0 for a cell it lacks).
    pub fn entries(&self, profile: &Profile, hands: impl Fn(&CellKey) -> u64) -> Vec<CellEntry> {
        let mut keys: Vec<&CellKey> = self.cells.keys().collect();
        keys.sort();
        keys.into_iter()
            .map(|key| CellEntry {
                seat: key.seat as usize,
                calls: self
                    .history
                    .calls(key.history, key.seat as usize)
                    .into_iter()
                    .map(|c| c.name(profile).to_string())
                    .collect(),
                class: self.scheme.label(key.class),
                key: key.class.0,
                call: self.cells[key].name(profile).to_string(),
                hands: hands(key),
            })
            .collect()
    }

    /// The class of `hand` (banded by the strategy's rating where it has one).
    pub fn class(&self, hand: CardSet) -> Class {
        self.scheme.class_with(hand, self.rating.as_ref())
    }

    /// The cell of the seat to call in `view`.
    pub fn cell(&self, view: &BidView) -> CellKey {
        CellKey {
            seat: view.position() as u8,
            history: self.history.code(view.calls()),
            class: self.class(view.hand()),
        }
    }

    /// The call the strategy holds for the seat to call in `view`, if any.
    pub fn lookup(&self, view: &BidView) -> Option<Call> {
        self.cells.get(&self.cell(view)).copied()
    }
}

/// A cell as messages name it.
fn describe_cell(entry: &CellEntry) -> String {
    let calls = if entry.calls.is_empty() {
        "none".to_string()
    } else {
        entry.calls.join(",")
    };
    format!(
        "cell seat {}, calls before {calls}, class '{}'",
        entry.seat, entry.class
    )
}

/// Some deal at the start of its auction, to replay a cell's calls on (whether a call is legal
/// does not depend on the cards).
fn any_deal(profile: &Profile, players: usize) -> DealState<'_> {
    let mut shuffler = crate::game::Shuffler::new(profile, players);
    let dealt = shuffler.deal(players - 1, &mut crate::rng::base_rng(0));
    let mut state = DealState::from_dealt(profile, players - 1, &dealt, players);
    // Purchases (Purchase Nap) come before the auction: nobody buys.
    while state.phase() == crate::game::Phase::Purchase {
        state
            .purchase(CardSet::EMPTY)
            .expect("buying nothing is legal");
    }
    state
}

/// Checks one cell: its seat, that its calls could be made in turn, its class, and that its
/// call is legal after them.
fn check_cell(
    entry: &CellEntry,
    profile: &Profile,
    players: usize,
    (scheme, history): (Scheme, History),
    start: &DealState,
) -> Result<(CellKey, Call), String> {
    if entry.seat >= players {
        return Err(format!("no seat {} at a table of {players}", entry.seat));
    }
    let parse = |name: &str| {
        Call::parse(name, profile)
            .ok_or_else(|| format!("'{name}' is not a call of profile {}", profile.name()))
    };
    let named = entry
        .calls
        .iter()
        .map(|name| parse(name))
        .collect::<Result<Vec<Call>, String>>()?;
    let mut state = start.clone();
    let mut calls = Vec::new();
    for call in history.replay(&named, entry.seat, profile)? {
        let name = call.name(profile);
        if call == Call::TakeSpare {
            // Taking the spare hand ends the bidding: no later seat has a call to make.
            return Err("no seat calls after the spare hand is taken".into());
        }
        state
            .call(call)
            .map_err(|e| format!("the earlier call {name} is illegal there: {e}"))?;
        calls.push(call);
    }
    let call = parse(&entry.call)?;
    if call == Call::TakeSpare {
        return Err("take-spare is not a call a strategy makes".into());
    }
    if !state.any_legal_bid() {
        return Err("the seat has no bid left to make there".into());
    }
    state
        .check_call(call)
        .map_err(|e| format!("{} is illegal there: {}", entry.call, e.explain(profile)))?;
    let class = Class(entry.key);
    if scheme == Scheme::ClassesRated && !(1..=BANDS).contains(&(class.0 >> 16)) {
        return Err(format!(
            "class number {} has no Misère rating band (1 to {BANDS})",
            entry.key
        ));
    }
    if scheme.label(class) != entry.class {
        return Err(format!(
            "class number {} is '{}' under `by` {}, not '{}'",
            entry.key,
            scheme.label(class),
            scheme.name(),
            entry.class
        ));
    }
    Ok((
        CellKey {
            seat: entry.seat as u8,
            history: history.code(&calls),
            class,
        },
        call,
    ))
}

/// The tuned bidder: a strategy's call where it holds the seat's cell, the threshold bidder's
/// elsewhere and for every other decision.
pub struct Tuned {
    strategy: Strategy,
    fallback: Threshold,
}

impl Tuned {
    /// The bidder playing `strategy` for `profile`.
    pub fn new(strategy: Strategy, profile: &Profile) -> Tuned {
        Tuned {
            strategy,
            fallback: Threshold::from_spec(&"threshold".parse().expect("a spec"), profile)
                .expect("the default threshold bidder"),
        }
    }

    /// Builds the policy from `tuned:file=(FILE.json)`, reading the strategy for `profile`.
    pub fn from_spec(spec: &Spec, profile: &Profile) -> Result<Tuned, SpecError> {
        spec.check_keys(&["file"])?;
        let file = spec.get("file").ok_or_else(|| SpecError::Missing {
            policy: "tuned".into(),
            key: "file".into(),
            hint: "a strategy from napsim optimize, e.g. tuned:file=(strategies/4p.json)".into(),
        })?;
        let bad = |reason: String| SpecError::BadValue {
            policy: "tuned".into(),
            key: "file".into(),
            value: file.to_string(),
            reason,
        };
        let text =
            std::fs::read_to_string(file).map_err(|e| bad(format!("cannot read it: {e}")))?;
        let body: StrategyBody = serde_json::from_str(&text)
            .map_err(|e| bad(format!("not a napsim strategy file: {e}")))?;
        let strategy = Strategy::from_body(&body, profile).map_err(bad)?;
        Ok(Tuned::new(strategy, profile))
    }

    /// The strategy played.
    pub fn strategy(&self) -> &Strategy {
        &self.strategy
    }

    /// The fallback bidder.
    pub fn fallback(&self) -> &Threshold {
        &self.fallback
    }
}

impl BidPolicy for Tuned {
    fn purchase(&self, view: &BidView, rng: &mut SimRng) -> CardSet {
        self.fallback.purchase(view, rng)
    }

    fn peek(&self, view: &BidView, rng: &mut SimRng) -> bool {
        self.fallback.peek(view, rng)
    }

    fn floater_discard(
        &self,
        view: &BidView,
        six: CardSet,
        rng: &mut SimRng,
    ) -> crate::cards::Card {
        self.fallback.floater_discard(view, six, rng)
    }

    fn name_trump(&self, view: &BidView, rng: &mut SimRng) -> crate::cards::Suit {
        self.fallback.name_trump(view, rng)
    }

    fn take_spare(&self, view: &BidView, rng: &mut SimRng) -> bool {
        self.fallback.take_spare(view, rng)
    }

    fn keep(&self, view: &BidView, cards: CardSet, rng: &mut SimRng) -> CardSet {
        self.fallback.keep(view, cards, rng)
    }

    fn call(&self, view: &BidView, rng: &mut SimRng) -> Call {
        // At another table size (a command that cannot ask `check_table`) the cells mean
        // nothing: the fallback bids.
        let lookup = (view.players() == self.strategy.players)
            .then(|| self.strategy.lookup(view))
            .flatten();
        match lookup {
            Some(call) if view.is_legal(call) => call,
            _ => self.fallback.call(view, rng),
        }
    }

    fn check_table(&self, players: usize) -> Result<(), String> {
        if players == self.strategy.players {
            Ok(())
        } else {
            Err(format!(
                "the strategy is for a table of {} players, not {players}",
                self.strategy.players
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BidId;

    fn body(cells: Vec<CellEntry>) -> StrategyBody {
        StrategyBody {
            format: STRATEGY_FORMAT.into(),
            profile: "heather-1875".into(),
            players: 4,
            by: "classes".into(),
            history: "calls".into(),
            play: "heuristic".into(),
            fallback: "threshold".into(),
            rating: None,
            cells,
        }
    }

    fn cell(seat: usize, calls: &[&str], hand: &str, call: &str) -> CellEntry {
        let class = Scheme::Classes.class(crate::cards::parse_hand(hand, 5).unwrap());
        CellEntry {
            seat,
            calls: calls.iter().map(|c| c.to_string()).collect(),
            class: Scheme::Classes.label(class),
            key: class.0,
            call: call.into(),
            hands: 1,
        }
    }

    #[test]
    fn a_seat_in_a_cell_makes_its_call_and_others_bid_by_threshold() {
        let profile = Profile::default_profile();
        // Three small trumps and nothing else: the threshold bidder passes.
        let weak = "7S 5S 3S 4H 2D";
        let strategy = Strategy::from_body(&body(vec![cell(0, &[], weak, "nap")]), &profile);
        let tuned = Tuned::new(strategy.unwrap(), &profile);
        let threshold = Threshold::from_spec(&"threshold".parse().unwrap(), &profile).unwrap();
        let mut rng = crate::rng::base_rng(1);
        let hands = |first: &str| {
            let mut hands = vec![crate::cards::parse_hand(first, 5).unwrap()];
            for other in ["AH KH QH JH 9H", "AC KC QC JC 9C", "AD KD QD JD 9D"] {
                hands.push(crate::cards::parse_hand(other, 5).unwrap());
            }
            hands
        };
        let weak_hands = hands(weak);
        let state = DealState::new(&profile, 3, &weak_hands);
        let nap = Call::Bid(profile.bid_id("nap").unwrap());
        assert_eq!(tuned.call(&BidView::new(&state), &mut rng), nap);
        assert_eq!(threshold.call(&BidView::new(&state), &mut rng), Call::Pass);
        let strong_hands = hands("AS KS QS JS 2D");
        let strong = DealState::new(&profile, 3, &strong_hands);
        assert_eq!(
            tuned.call(&BidView::new(&strong), &mut rng),
            threshold.call(&BidView::new(&strong), &mut rng)
        );
        assert!(tuned.check_table(4).is_ok());
        assert!(tuned.check_table(3).unwrap_err().contains("4 players"));
    }

    #[test]
    fn cells_that_cannot_arise_or_call_illegally_are_refused_by_name() {
        let profile = Profile::default_profile();
        let refused =
            |cells: Vec<CellEntry>| Strategy::from_body(&body(cells), &profile).unwrap_err();
        let hand = "AS KS 9S 7H 2C";
        let error = refused(vec![cell(1, &["nap"], hand, "three")]);
        assert!(error.contains("cell seat 1, calls before nap"), "{error}");
        assert!(error.contains("three is illegal"), "{error}");
        assert!(refused(vec![cell(4, &["pass"; 4], hand, "three")]).contains("no seat 4"));
        assert!(refused(vec![cell(1, &[], hand, "three")]).contains("after 1 calls"));
        assert!(refused(vec![cell(0, &[], hand, "misere")]).contains("not a call"));
        assert!(refused(vec![cell(0, &[], hand, "wellington")]).contains("illegal"));
        let mut mislabelled = cell(0, &[], hand, "three");
        mislabelled.class = "5 trumps A-K-Q-J-T".into();
        assert!(refused(vec![mislabelled]).contains("class number"));
        let twice = vec![cell(0, &[], hand, "three"), cell(0, &[], hand, "four")];
        assert!(refused(twice).contains("twice"));
        let mut other = body(vec![]);
        other.profile = "pub-guide".into();
        let error = Strategy::from_body(&other, &profile).unwrap_err();
        assert!(error.contains("profile pub-guide"), "{error}");
    }

    #[test]
    fn cells_by_the_bid_to_beat_share_every_auction_that_faces_it() {
        let profile = Profile::default_profile();
        let (pass, three, four) = (
            Call::Pass,
            Call::Bid(profile.bid_id("three").unwrap()),
            Call::Bid(profile.bid_id("four").unwrap()),
        );
        let highest = History::Highest;
        assert_eq!(highest.code(&[three, pass, four]), highest.code(&[four]));
        assert_eq!(highest.code(&[pass, four, pass]), highest.code(&[four]));
        assert_ne!(highest.code(&[three, pass]), highest.code(&[four]));
        assert_eq!(highest.code(&[pass, pass]), 0);
        assert_eq!(highest.calls(highest.code(&[three, four]), 3), [four]);
        assert!(highest.calls(0, 2).is_empty());
        assert_eq!(
            History::Calls.code(&[three, four]),
            history_code(&[three, four])
        );

        // A file by the bid to beat: its cells name the bid, or nothing when all passed.
        let hand = "AS KS 9S 7H 2C";
        let mut by_highest = body(vec![
            cell(2, &["three"], hand, "four"),
            cell(3, &[], hand, "three"),
        ]);
        by_highest.history = "highest".into();
        let strategy = Strategy::from_body(&by_highest, &profile).unwrap();
        let tuned = Tuned::new(strategy, &profile);
        let hands: Vec<CardSet> = ["7H 5D 3C 2S 4H", "8H 6D 4C 3S 5H", hand, "9H 7D 5C 4S 6H"]
            .iter()
            .map(|h| crate::cards::parse_hand(h, 5).unwrap())
            .collect();
        let mut rng = crate::rng::base_rng(1);
        for before in [[three, pass], [pass, three]] {
            let mut state = DealState::new(&profile, 3, &hands);
            for call in before {
                state.call(call).unwrap();
            }
            assert_eq!(tuned.call(&BidView::new(&state), &mut rng), four);
        }
        let refused = |cells: Vec<CellEntry>| {
            let mut b = body(cells);
            b.history = "highest".into();
            Strategy::from_body(&b, &profile).unwrap_err()
        };
        assert!(refused(vec![cell(2, &["pass", "three"], hand, "four")]).contains("one bid"));
        assert!(refused(vec![cell(0, &["three"], hand, "four")]).contains("one bid"));

        // Bids that may only overcall: a cell facing Wellington replays Nap before it, and no
        // auction leaves Wellington to beat at seat 1.
        // (pub-guide: Blücher over Wellington over Nap.)
        let pub_guide = crate::rules::load_profile("pub-guide").unwrap();
        let overcalling = |cells: Vec<CellEntry>| {
            let mut b = body(cells);
            b.profile = "pub-guide".into();
            b.history = "highest".into();
            Strategy::from_body(&b, &pub_guide)
        };
        assert!(overcalling(vec![cell(3, &["wellington"], hand, "blucher")]).is_ok());
        let error = overcalling(vec![cell(1, &["wellington"], hand, "pass")]).unwrap_err();
        assert!(error.contains("no auction leaves wellington"), "{error}");
        assert!(refused(vec![cell(2, &["four"], hand, "three")]).contains("illegal"));
        let mut unknown = body(vec![]);
        unknown.history = "some".into();
        let error = Strategy::from_body(&unknown, &profile).unwrap_err();
        assert!(error.contains("unknown history"), "{error}");
    }

    #[test]
    fn history_codes_round_trip() {
        let calls = [Call::Pass, Call::Bid(BidId(2)), Call::TakeSpare];
        for len in 0..=calls.len() {
            let code = history_code(&calls[..len]);
            assert_eq!(history_calls(code, len), calls[..len]);
        }
        assert_ne!(
            history_code(&[Call::Bid(BidId(0))]),
            history_code(&[Call::Pass, Call::Pass])
        );
    }
}
