//! Property tests of every parser of user input: none panics on arbitrary text, each error
//! names the offending token, and written forms read back to what they came from.
//!
//! The case counts are small so that the suite stays fast; set `PROPTEST_CASES` (e.g. 20000) to
//! search harder locally.

use crate::common;

use napsim::analysis::bid_table::Scheme;
use napsim::analysis::replay::{
    Replay, ReplayError, ReplayExtras, parse_calls, parse_plays, replay,
};
use napsim::analysis::solve::parse_solve_deal;
use napsim::analysis::tournament::parse_entrant;
use napsim::bots::{bid_policy, play_policy};
use napsim::cards::{Card, CardError, CardSet, Rank, Suit, parse_cards, parse_deal, parse_hand};
use napsim::cli::{parse_count, parse_threads, parse_whole};
use napsim::eval::hand::{parse_after, parse_hand_for};
use napsim::game::{Call, DealState, Phase, Shuffler};
use napsim::policy::{MAX_NESTING, Spec, SpecError};
use napsim::policy::{Table, run_deal};
use napsim::rng::block_streams;
use napsim::rules::{BUILTIN, HAND_SIZE, MAX_PLAYERS, Profile, RuleSet, RulesError};
use proptest::prelude::*;
use proptest::sample::{Index, select};

/// `cases` cases, or `PROPTEST_CASES` when it is set.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig::with_cases(cases)
}

/// Every built-in profile.
fn profiles() -> &'static [Profile] {
    static PROFILES: std::sync::OnceLock<Vec<Profile>> = std::sync::OnceLock::new();
    PROFILES.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(name, _)| Profile::builtin(name).unwrap())
            .collect()
    })
}

/// A built-in profile.
fn profile() -> impl Strategy<Value = &'static Profile> {
    any::<Index>().prop_map(|i| &profiles()[i.index(profiles().len())])
}

/// A built-in profile and a table size it allows.
fn profile_and_players() -> impl Strategy<Value = (&'static Profile, usize)> {
    (profile(), any::<Index>()).prop_map(|(profile, i)| {
        let sizes = profile.max_players() - profile.min_players() + 1;
        (profile, profile.min_players() + i.index(sizes))
    })
}

/// Arbitrary text: any printable characters, any characters at all, or the characters the
/// grammars use, densely.
fn text(grammar: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,40}",
        any::<String>(),
        proptest::string::string_regex(grammar).unwrap(),
    ]
}

/// The characters of card notation, with separators and some noise.
const CARDISH: &str = "[0-9TtJjQqKkAaCcDdHhSs♠♥♦♣♤♡♢♧XZ1 ,\t/]{0,60}";

/// The characters of policy specs.
const SPECISH: &str = "[a-z0-9_:=,()/ .-]{0,40}|(threshold|always|lookahead|pimc|ismcts|table|pass|random|heuristic|expert|split|dd)(:[a-z=0-9(),:./ -]{0,30})?";

// ---------------------------------------------------------------------------------------------
// Cards

/// `card` in one of the notations the contract accepts.
fn spell(card: Card, style: u8) -> String {
    let rank = match (card.rank(), style % 3) {
        (Rank::Ten, 0) => "10".to_string(),
        (_, 1) => card.rank().letter().to_ascii_lowercase().to_string(),
        _ => card.rank().letter().to_string(),
    };
    let suit = match (style / 3) % 4 {
        0 => card.suit().letter().to_string(),
        1 => card.suit().letter().to_ascii_lowercase().to_string(),
        2 => card.suit().symbol().to_string(),
        _ => match card.suit() {
            Suit::Clubs => "♧",
            Suit::Diamonds => "♢",
            Suit::Hearts => "♡",
            Suit::Spades => "♤",
        }
        .to_string(),
    };
    rank + &suit
}

/// Cards written with mixed notations and separators.
fn write_cards(cards: &[Card], styles: &[u8]) -> String {
    const SEPARATORS: [&str; 6] = [" ", ",", ", ", "\t", "\n", "  ,"];
    let mut text = String::new();
    for (i, &card) in cards.iter().enumerate() {
        let style = styles[i % styles.len()];
        if i > 0 {
            text += SEPARATORS[style as usize % SEPARATORS.len()];
        }
        text += &spell(card, style);
    }
    text
}

/// The tokens `parse_cards` sees in `text`.
fn tokens(text: &str) -> Vec<&str> {
    text.split([' ', ',', '\t', '\n'])
        .filter(|t| !t.is_empty())
        .collect()
}

/// Cards of `set` in a shuffled order.
fn shuffled(set: CardSet, keys: &[u64]) -> Vec<Card> {
    let mut cards = set.to_vec();
    let n = cards.len();
    for i in (1..n).rev() {
        cards.swap(i, (keys[i % keys.len()] % (i as u64 + 1)) as usize);
    }
    cards
}

#[test]
fn every_spelling_of_every_card_reads_back() {
    for card in CardSet::FULL {
        for style in 0..12 {
            let written = spell(card, style);
            assert_eq!(written.parse::<Card>(), Ok(card), "{written}");
            assert_eq!(
                format!(" {written}, ").trim_matches([' ', ',']).parse(),
                Ok(card)
            );
        }
        assert_eq!(card.to_string().parse::<Card>(), Ok(card));
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn a_card_token_reads_only_as_what_it_spells(token in text("[0-9TtJjQqKkAaCcDdHhSs♠♥♦♣♤♡♢♧XZ1]{0,4}")) {
        match token.parse::<Card>() {
            Ok(card) => {
                // The token is rank then suit: its canonical form is the card's.
                let mut chars: Vec<char> = token.chars().collect();
                let suit = Suit::from_char(chars.pop().unwrap()).unwrap();
                let rank: String = chars.into_iter().collect::<String>().to_uppercase();
                let rank = if rank == "10" { "T".to_string() } else { rank };
                prop_assert_eq!(format!("{rank}{}", suit.letter()), card.to_string());
                prop_assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            }
            Err(e) => prop_assert_eq!(e, CardError::UnknownToken(token.clone())),
        }
    }

    #[test]
    fn parse_cards_reads_tokens_or_names_the_bad_one(text in text(CARDISH)) {
        let words = tokens(&text);
        match parse_cards(&text) {
            Ok(cards) => {
                prop_assert_eq!(cards.len(), words.len());
                let set: CardSet = cards.iter().copied().collect();
                prop_assert_eq!(set.count() as usize, cards.len(), "no card twice");
                let again = parse_cards(&cards.iter().map(Card::to_string).collect::<Vec<_>>().join(" "));
                prop_assert_eq!(again, Ok(cards));
            }
            Err(CardError::UnknownToken(t)) => {
                prop_assert!(words.contains(&t.as_str()), "{t:?} is not a token of {text:?}");
                prop_assert!(t.parse::<Card>().is_err());
            }
            Err(CardError::Duplicate(t)) => {
                // The first token that repeats an earlier card.
                let cards: Vec<Option<Card>> = words.iter().map(|w| w.parse().ok()).collect();
                let first = (0..words.len()).find(|&i| cards[i].is_some() && cards[..i].contains(&cards[i]));
                prop_assert_eq!(first.map(|i| words[i]), Some(t.as_str()));
            }
            Err(e) => prop_assert!(false, "parse_cards cannot fail with {e:?}"),
        }
    }

    #[test]
    fn written_card_lists_read_back_in_order(
        bits in any::<u64>(), keys in prop::collection::vec(any::<u64>(), 1..8),
        styles in prop::collection::vec(any::<u8>(), 1..8),
    ) {
        let cards = shuffled(CardSet::from_bits_truncate(bits), &keys);
        let text = write_cards(&cards, &styles);
        prop_assert_eq!(parse_cards(&text), Ok(cards.clone()));
        prop_assert_eq!(parse_plays(&text).unwrap(), cards.clone());
        match parse_hand(&text, 5) {
            Ok(hand) => {
                prop_assert_eq!(cards.len(), 5);
                prop_assert_eq!(hand, cards.iter().copied().collect::<CardSet>());
            }
            Err(e) => prop_assert_eq!(e, CardError::WrongCount { hand: text.trim().to_string(), expected: 5, got: cards.len() }),
        }
        // The same card twice is refused by its second spelling.
        if let Some(&first) = cards.first() {
            let doubled = format!("{text} {}", spell(first, styles[0].wrapping_add(1)));
            prop_assert_eq!(parse_cards(&doubled), Err(CardError::Duplicate(spell(first, styles[0].wrapping_add(1)))));
        }
    }

    #[test]
    fn parse_hand_and_deal_never_panic_and_keep_their_promises(
        text in text(CARDISH), (profile, players) in profile_and_players(), size in 0usize..7,
    ) {
        if let Ok(hand) = parse_hand(&text, size) {
            prop_assert_eq!(hand.count() as usize, size);
        }
        let pack = profile.pack(players);
        if let Ok(hands) = parse_deal(&text, players, HAND_SIZE, pack, "the pack") {
            prop_assert_eq!(hands.len(), players);
            let mut seen = CardSet::EMPTY;
            for hand in hands {
                prop_assert_eq!(hand.count() as usize, HAND_SIZE);
                prop_assert!((hand & seen).is_empty() && (hand - pack).is_empty());
                seen |= hand;
            }
        }
        if let Ok(hand) = parse_hand_for(&text, profile, players) {
            prop_assert_eq!(hand.count() as usize, HAND_SIZE);
            prop_assert!((hand - pack).is_empty());
        }
    }

    #[test]
    fn written_deals_read_back_and_each_fault_is_named(
        (profile, players) in profile_and_players(),
        keys in prop::collection::vec(any::<u64>(), 1..8),
        styles in prop::collection::vec(any::<u8>(), 1..8),
        fault in 0usize..5, at in any::<Index>(), other in any::<Index>(),
    ) {
        let pack = profile.pack(players);
        let order = shuffled(pack, &keys);
        let mut hands: Vec<Vec<Card>> = order.chunks(HAND_SIZE).take(players).map(<[Card]>::to_vec).collect();
        let sets = |hands: &[Vec<Card>]| hands.iter().map(|h| h.iter().copied().collect::<CardSet>()).collect::<Vec<_>>();
        let write = |hands: &[Vec<Card>]| hands.iter().map(|h| write_cards(h, &styles)).collect::<Vec<_>>().join("/");
        let parse = |text: &str| parse_deal(text, players, HAND_SIZE, pack, "the pack");
        prop_assert_eq!(parse(&write(&hands)), Ok(sets(&hands)));
        let (seat, card) = (at.index(players), at.index(HAND_SIZE));
        match fault {
            // A card of another seat.
            0 => {
                let donor = (seat + 1 + other.index(players - 1)) % players;
                let copied = hands[donor][other.index(HAND_SIZE)];
                hands[seat][card] = copied;
                prop_assert_eq!(parse(&write(&hands)), Err(CardError::Duplicate(copied.to_string())));
            }
            // A card outside the profile's pack (where the pack is reduced).
            1 => {
                if let Some(outside) = (CardSet::FULL - pack).first() {
                    hands[seat][card] = outside;
                    prop_assert_eq!(parse(&write(&hands)), Err(CardError::OutsidePack { card: outside.to_string(), pack: "the pack".into() }));
                }
            }
            // A card missing.
            2 => {
                hands[seat].remove(card);
                let text = write(&hands);
                let written = text.split('/').nth(seat).unwrap().trim().to_string();
                prop_assert_eq!(parse(&text), Err(CardError::WrongCount { hand: written, expected: HAND_SIZE, got: HAND_SIZE - 1 }));
            }
            // A hand missing or one too many.
            3 => {
                hands.remove(seat);
                prop_assert_eq!(parse(&write(&hands)), Err(CardError::WrongHandCount { expected: players, got: players - 1 }));
            }
            _ => {
                let text = write(&hands) + "/";
                prop_assert_eq!(parse(&text), Err(CardError::WrongHandCount { expected: players, got: players + 1 }));
            }
        }
    }

    #[test]
    fn solve_deals_never_panic_and_are_consistent(text in text(CARDISH), which in profile()) {
        if let Ok(hands) = parse_solve_deal(&text, which) {
            prop_assert!(which.check_players(hands.len()).is_ok());
            let size = hands[0].count();
            let mut seen = CardSet::EMPTY;
            for hand in &hands {
                prop_assert!((1..=HAND_SIZE as u32).contains(&hand.count()) && hand.count() == size);
                prop_assert!((*hand & seen).is_empty() && (*hand - which.pack(hands.len())).is_empty());
                seen |= *hand;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Policy specs

/// Well-formed spec values: plain words (with inner spaces, dots and dashes), paths, and
/// nested specs, any of which may carry spaces at either end.
fn spec_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-z0-9.-]{0,8}",
        "[a-z0-9]{1,4}( [a-z0-9]{1,4})?",
        "/?[a-z]{1,5}(/[a-z.]{1,5}){0,2}",
        " [a-z0-9]{1,3} ?",
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        (
            "[a-z][a-z0-9_-]{0,6}",
            prop::collection::vec(("[a-z][a-z_]{0,5}", inner), 0..4),
        )
            .prop_map(|(name, params)| {
                Spec {
                    name,
                    params: dedup(params),
                }
                .to_string()
            })
    })
}

/// Params with each key once.
fn dedup(params: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in params {
        if !out.iter().any(|(o, _)| *o == k) {
            out.push((k, v));
        }
    }
    out
}

/// Specs close to the real ones: known names and keys, values good and bad, nested.
fn policy_text() -> impl Strategy<Value = String> {
    let names = select(
        &[
            "pass",
            "threshold",
            "always",
            "lookahead",
            "table",
            "random",
            "heuristic",
            "expert",
            "pimc",
            "ismcts",
            "split",
            "dd",
            "frob",
        ][..],
    );
    let keys = select(
        &[
            "three",
            "four",
            "nap",
            "wellington",
            "misere",
            "spare",
            "bid",
            "worlds",
            "play",
            "others",
            "iterations",
            "file",
            "two",
            "blucher",
            "x",
        ][..],
    );
    let values = prop_oneof![
        select(
            &[
                "0",
                "1",
                "2",
                "64",
                "100000",
                "100001",
                "1e3",
                "-1",
                "1.5",
                "off",
                "nan",
                "inf",
                "18446744073709551616",
                "three",
                "nap",
                "wellington",
                "misere",
                "",
                "(pimc:worlds=2)",
                "(lookahead:worlds=1,play=(dd))",
                "(always:bid=nap)",
                "(frob)",
                "(threshold:three=off)",
                "(/nonexistent/table.csv)",
                "(random",
                "random)",
                "((pass))",
            ][..]
        )
        .prop_map(String::from),
        "[a-z0-9=:,()/.-]{0,12}",
    ];
    (names, prop::collection::vec((keys, values), 0..4)).prop_map(|(name, params)| {
        let params: Vec<String> = params
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if params.is_empty() {
            name.to_string()
        } else {
            format!("{name}:{}", params.join(","))
        }
    })
}

/// Every parenthesis in `text` closes one opened before it, and all are closed.
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Checks that a refused spec's message names what was wrong.
fn names_the_fault(text: &str, error: &SpecError) -> Result<(), TestCaseError> {
    let message = error.to_string();
    let needle = match error {
        SpecError::Syntax { spec, .. } => spec.clone(),
        SpecError::UnknownName { name, .. } => format!("'{name}'"),
        SpecError::UnknownKey { key, .. } | SpecError::Missing { key, .. } => format!("'{key}'"),
        SpecError::BadValue { key, value, .. } => format!("{key}={value}"),
    };
    prop_assert!(
        message.contains(&needle),
        "{}: {} does not name {}",
        text,
        message,
        needle
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn parsed_specs_write_back_to_themselves(text in text(SPECISH)) {
        if let Ok(spec) = text.parse::<Spec>() {
            let written = spec.to_string();
            prop_assert_eq!(written.parse::<Spec>(), Ok(spec.clone()), "{} wrote {}", text, written);
            // A value read from parentheses is itself balanced, so it can be a nested spec.
            for (key, value) in &spec.params {
                prop_assert!(balanced(value), "{text}: {key}={value}");
            }
        }
    }

    #[test]
    fn written_specs_read_back(
        name in "[a-z][a-z0-9_-]{0,8}",
        params in prop::collection::vec(("[a-z][a-z_]{0,5}", spec_value()), 0..4),
    ) {
        let spec = Spec { name, params: dedup(params) };
        let written = spec.to_string();
        prop_assert_eq!(written.parse::<Spec>(), Ok(spec), "{}", written);
    }

    #[test]
    fn policies_are_built_or_refused_by_name(
        text in prop_oneof![text(SPECISH), policy_text()], which in profile(),
    ) {
        if let Err(e) = bid_policy(&text, which) {
            names_the_fault(&text, &e)?;
        }
        if let Err(e) = play_policy(&text, which) {
            names_the_fault(&text, &e)?;
        }
        // Nested inside another spec, as the lookahead policy and tournament entrants take it.
        let _ = bid_policy(&format!("lookahead:worlds=1,others=({text})"), which);
        let _ = bid_policy(&format!("lookahead:worlds=1,play=({text})"), which);
        let _ = parse_entrant(&format!("e=({text})/({text})"), which, &Default::default());
    }

    #[test]
    fn entrants_never_panic(text in text("[a-z=/():,0-9 .-]{0,40}"), which in profile()) {
        if let Ok(entrant) = parse_entrant(&text, which, &Default::default()) {
            prop_assert!(!entrant.name.is_empty());
            prop_assert!(text.contains(&entrant.name));
        }
    }
}

#[test]
fn deeply_nested_specs_are_read_without_overflowing() {
    let profile = Profile::default_profile();
    let nested = |depth: usize| "lookahead:others=(".repeat(depth) + "frob" + &")".repeat(depth);
    // As deep as allowed: every level is built, down to the unknown name at the bottom.
    let error = bid_policy(&nested(MAX_NESTING), &profile)
        .err()
        .expect("refused");
    assert!(error.to_string().contains("'frob'"), "{error}");
    // Deeper, and far deeper: refused at the top, before any recursion.
    for depth in [MAX_NESTING + 1, 2000, 100_000] {
        let error = bid_policy(&nested(depth), &profile).err().expect("refused");
        assert!(
            error.to_string().contains("nest more than 32 deep"),
            "{error}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Rule profiles

/// Every quoted string and every number written in the built-in profiles, and values that
/// sit just outside what they allow.
fn toml_values() -> Vec<String> {
    let mut values: Vec<String> = [
        "-1",
        "0",
        "1",
        "2",
        "3",
        "5",
        "6",
        "7",
        "8",
        "64",
        "65",
        "255",
        "256",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "-9223372036854775808",
        "1.5",
        "nan",
        "inf",
        "true",
        "false",
        "[]",
        "[3, 2]",
        "[5]",
        "[1, 1, 1, 1, 1]",
        "[0, 5]",
        "[2, 2, 2]",
        "{}",
        "{ 3 = \"9\" }",
        "{ 8 = \"2\" }",
        "{ x = \"9\" }",
        "{ 3 = \"K\", 4 = \"A\" }",
        "\"\"",
        "\"X\"",
        "\"10\"",
        "\"1\"",
        "\"A\"",
        "'nap'",
        "\"\"\"multi\nline\"\"\"",
    ]
    .map(String::from)
    .to_vec();
    for (_, text) in BUILTIN {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            if let Some((_, value)) = line.split_once(" = ")
                && !values.iter().any(|v| v == value)
            {
                values.push(value.to_string());
            }
        }
    }
    values
}

/// One edit of a profile's text.
#[derive(Clone, Debug)]
enum Edit {
    /// Set the value of the n-th `key = value` line, to a value of the same kind (a string
    /// for a string) or of any kind.
    Value(Index, Index, bool),
    /// Rename the key of the n-th `key = value` line.
    Key(Index, String),
    /// Delete a line.
    Delete(Index),
    /// Repeat a line.
    Repeat(Index),
    /// Swap two lines.
    Swap(Index, Index),
    /// Insert a character at a byte position (moved to a character boundary).
    Insert(Index, char),
    /// Cut the text at a position.
    Truncate(Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        6 => (any::<Index>(), any::<Index>(), prop::bool::weighted(0.8)).prop_map(|(a, b, same)| Edit::Value(a, b, same)),
        1 => (any::<Index>(), "[a-z_]{1,12}").prop_map(|(a, k)| Edit::Key(a, k)),
        2 => any::<Index>().prop_map(Edit::Delete),
        1 => any::<Index>().prop_map(Edit::Repeat),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        1 => (any::<Index>(), prop_oneof![select(&['[', ']', '"', '=', '\n', '#', '{', ',', '\'', '\\', 'é', '0'][..]), any::<char>()])
            .prop_map(|(a, c)| Edit::Insert(a, c)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edit: &Edit, values: &[String]) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let assignments: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].starts_with('#') && lines[i].contains(" = "))
        .collect();
    let nothing_to_edit = match edit {
        Edit::Value(..) | Edit::Key(..) => assignments.is_empty(),
        Edit::Delete(_) | Edit::Repeat(_) | Edit::Swap(..) => lines.is_empty(),
        Edit::Insert(..) | Edit::Truncate(_) => false,
    };
    if nothing_to_edit {
        return text.to_string();
    }
    match edit {
        Edit::Value(at, value, same_kind) => {
            let i = assignments[at.index(assignments.len())];
            let (key, old) = lines[i].split_once(" = ").unwrap();
            // Numbers, strings, booleans, arrays and tables by their first character.
            let kind = |v: &str| {
                v.chars().next().map(|c| {
                    if c == '-' || c.is_ascii_digit() {
                        '0'
                    } else {
                        c
                    }
                })
            };
            let pool: Vec<&String> = values
                .iter()
                .filter(|v| !same_kind || kind(v) == kind(old))
                .collect();
            let pool = if pool.is_empty() {
                values.iter().collect()
            } else {
                pool
            };
            lines[i] = format!("{key} = {}", pool[value.index(pool.len())]);
        }
        Edit::Key(at, key) => {
            let i = assignments[at.index(assignments.len())];
            let value = lines[i].split_once(" = ").unwrap().1.to_string();
            lines[i] = format!("{key} = {value}");
        }
        Edit::Delete(at) => {
            lines.remove(at.index(lines.len()));
        }
        Edit::Repeat(at) => {
            let i = at.index(lines.len());
            lines.insert(i, lines[i].clone());
        }
        Edit::Swap(a, b) => {
            let n = lines.len();
            lines.swap(a.index(n), b.index(n));
        }
        Edit::Insert(at, c) => {
            let mut text = lines.join("\n");
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            text.insert(i, *c);
            return text;
        }
        Edit::Truncate(at) => {
            let mut text = lines.join("\n");
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            text.truncate(i);
            return text;
        }
    }
    lines.join("\n")
}

/// Plays one deal of `profile` at `players` with `bid` and `play` from `seed`.
fn play_one<'p>(
    profile: &'p Profile,
    players: usize,
    seed: u64,
    bid: &str,
    play: &str,
) -> DealState<'p> {
    let bid = bid_policy(bid, profile).unwrap();
    let play = play_policy(play, profile).unwrap();
    let table = Table::uniform(bid.as_ref(), play.as_ref());
    let (mut deal_rng, mut policy_rng) = block_streams(seed, 0);
    let dealer = (seed % players as u64) as usize;
    let dealt = Shuffler::new(profile, players).deal(dealer, &mut deal_rng);
    let mut state = DealState::from_dealt(profile, dealer, &dealt, players);
    run_deal(&mut state, &table, &mut policy_rng);
    state
}

/// Checks a profile loaded from `text`: a refusal names a key for each problem; a profile that
/// loads plays at its smallest and largest table, and writes back (through the file format)
/// to a profile that validates the same.
fn check_profile_text(text: &str, seed: u64) -> Result<(), TestCaseError> {
    match Profile::from_toml(text, "fuzz.toml") {
        Ok(profile) => {
            for players in [profile.min_players(), profile.max_players()] {
                for (bid, play) in [
                    ("threshold", "heuristic"),
                    ("threshold:three=0,four=0,nap=0", "random"),
                ] {
                    let bid = if bid_policy(bid, &profile).is_ok() {
                        bid
                    } else {
                        "threshold"
                    };
                    let state = play_one(&profile, players, seed, bid, play);
                    prop_assert_eq!(state.phase(), Phase::Finished);
                    let change = state.kitty_after() - state.kitty_before();
                    prop_assert_eq!(state.payments().iter().sum::<i64>() + change, 0);
                }
            }
        }
        Err(RulesError::Invalid { origin, problems }) => {
            prop_assert_eq!(origin, "fuzz.toml");
            prop_assert!(!problems.is_empty());
            for p in &problems {
                prop_assert!(!p.key.is_empty() && !p.message.is_empty(), "{:?}", p);
            }
        }
        Err(RulesError::Toml { origin, message }) => {
            prop_assert_eq!(origin, "fuzz.toml");
            prop_assert!(!message.is_empty());
        }
        Err(e) => prop_assert!(false, "from_toml cannot fail with {e:?}"),
    }
    // The file format round-trips: the rule set written back validates to the same result.
    if let Ok(raw) = toml::from_str::<RuleSet>(text) {
        let written = toml::to_string(&raw).unwrap();
        let again: RuleSet = toml::from_str(&written).unwrap();
        prop_assert_eq!(format!("{raw:?}"), format!("{again:?}"));
        let a = Profile::from_raw(raw, text, "fuzz.toml");
        let b = Profile::from_raw(again, text, "fuzz.toml");
        prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn profile_text_never_panics(text in text("[a-z_\\[\\]=\" 0-9\n.{},#'-]{0,80}")) {
        check_profile_text(&text, 1)?;
    }

    #[test]
    fn edited_builtin_profiles_are_refused_or_play(
        which in 0..BUILTIN.len(), edits in prop::collection::vec(edit(), 1..4), seed in any::<u64>(),
    ) {
        let values = toml_values();
        let mut text = BUILTIN[which].1.to_string();
        for e in &edits {
            text = apply(&text, e, &values);
        }
        check_profile_text(&text, seed)?;
    }
}

#[test]
fn builtin_profiles_write_back_to_themselves() {
    for (name, text) in BUILTIN {
        let raw: RuleSet = toml::from_str(text).unwrap();
        let written = toml::to_string(&raw).unwrap();
        let a = Profile::from_toml(text, name).unwrap();
        let b = Profile::from_toml(&written, name).unwrap();
        // The same profile but for the text it keeps.
        let debug = |p: &Profile| format!("{p:?}").replace(&format!("{:?}", p.toml()), "");
        assert_eq!(debug(&a), debug(&b), "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Counts

/// The exact value of a decimal (`_` ignored, an optional exponent) when it is a whole number
/// that fits in a u64: the reference the count parsers must agree with.
fn exact_whole(text: &str) -> Option<u64> {
    let clean: String = text.trim().chars().filter(|&c| c != '_').collect();
    let clean = clean.strip_prefix('+').unwrap_or(&clean);
    let (mantissa, exponent) = match clean.find(['e', 'E']) {
        Some(i) => (&clean[..i], clean[i + 1..].parse::<i64>().ok()?),
        None => (clean, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Some(0);
    }
    let shift = exponent.checked_sub(frac.len() as i64)?;
    let digits = if shift >= 0 {
        if digits.len() as i64 + shift > 20 {
            return None;
        }
        format!("{digits}{}", "0".repeat(shift as usize))
    } else {
        let cut = digits.len().checked_sub(shift.unsigned_abs() as usize)?;
        if !digits[cut..].bytes().all(|b| b == b'0') {
            return None;
        }
        digits[..cut].to_string()
    };
    digits.parse::<u64>().ok()
}

/// `n` written with underscores between some digits.
fn with_underscores(n: u64, mask: u64) -> String {
    let mut out = String::new();
    for (i, c) in n.to_string().chars().enumerate() {
        if i > 0 && mask >> (i % 64) & 1 == 1 {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// The ways of writing `n` that the count parsers accept.
fn spellings(n: u64, mask: u64) -> Vec<String> {
    let mut out = vec![n.to_string(), with_underscores(n, mask), format!(" {n} ")];
    let (mut m, mut k) = (n, 0);
    while m != 0 && m % 10 == 0 {
        m /= 10;
        k += 1;
        out.push(format!("{m}e{k}"));
        out.push(format!("{m}E+{k}"));
    }
    if m != 0 {
        // One significant digit before the point: 1234e3 as 1.234e6.
        let digits = m.to_string();
        if digits.len() > 1 {
            out.push(format!(
                "{}.{}e{}",
                &digits[..1],
                &digits[1..],
                k + digits.len() - 1
            ));
        }
    }
    out
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn counts_read_their_exact_value_or_are_refused(text in text("[0-9_eE.+ -]{0,25}|[0-9]{15,22}(\\.[0-9]{0,3})?[eE][+-]?[0-9]{1,2}")) {
        let exact = exact_whole(&text);
        match parse_count(&text) {
            Ok(n) => {
                prop_assert!(n >= 1);
                prop_assert_eq!(Some(n), exact, "{:?}", text);
            }
            Err(e) => prop_assert!(!e.is_empty()),
        }
        if let Ok(n) = parse_whole(&text) {
            prop_assert_eq!(Some(n), exact, "{:?}", text);
        }
        if let Ok(n) = parse_threads(&text) {
            prop_assert!((1..=1024).contains(&n));
            prop_assert_eq!(text.trim().parse::<usize>(), Ok(n));
        }
    }

    #[test]
    fn every_spelling_of_a_count_reads_back(n in prop_oneof![0u64..2000, any::<u64>(), (0u64..1_000_000, 0u32..13).prop_map(|(m, k)| m * 10u64.pow(k))], mask in any::<u64>()) {
        for text in spellings(n, mask) {
            prop_assert_eq!(parse_whole(&text), Ok(n), "{:?}", text);
            if n == 0 {
                prop_assert_eq!(parse_count(&text), Err("must be at least 1".to_string()), "{:?}", text);
            } else {
                prop_assert_eq!(parse_count(&text), Ok(n), "{:?}", text);
            }
        }
        let threads = parse_threads(&n.to_string());
        if (1..=1024).contains(&n) {
            prop_assert_eq!(threads, Ok(n as usize));
        } else {
            prop_assert!(threads.is_err());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Calls: replays and `hand --after`

/// A legal auction's first `count` calls at a table of `players`, chosen by `picks`.
fn auction(profile: &Profile, players: usize, count: usize, picks: &[Index]) -> Vec<Call> {
    let hands = [CardSet::EMPTY; MAX_PLAYERS];
    let mut state = DealState::new(profile, players - 1, &hands[..players]);
    let options: Vec<Call> = std::iter::once(Call::Pass)
        .chain(profile.bid_ids().map(Call::Bid))
        .collect();
    let mut calls = Vec::new();
    for i in 0..count {
        let pick = picks[i % picks.len()].index(options.len());
        let call = (0..options.len())
            .map(|j| options[(pick + j) % options.len()])
            .find(|&c| state.call(c).is_ok())
            .expect("pass is always legal in the auction");
        calls.push(call);
    }
    calls
}

/// Calls written by name with mixed case, spaces and the given separator.
fn write_calls(profile: &Profile, calls: &[Call], separator: &str, upper: &[bool]) -> String {
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let name = c.name(profile);
            if upper[i % upper.len()] {
                name.to_uppercase()
            } else {
                name.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(separator)
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn call_lists_never_panic_and_name_an_unknown_call(
        text in text("[a-z ,-]{0,40}|((pass|three|nap|misere|take-spare|four-with-floater|x)[ ,]{1,2}){0,8}"),
        (profile, players) in profile_and_players(), seat in any::<Index>(),
    ) {
        match parse_calls(&text, profile) {
            Ok(calls) => prop_assert_eq!(calls.len(), text.split([',', ' ']).filter(|t| !t.is_empty()).count()),
            Err(ReplayError::UnknownCall { call, .. }) => {
                prop_assert!(text.split([',', ' ']).any(|w| w == call));
                prop_assert!(Call::parse(&call, profile).is_none());
            }
            Err(e) => prop_assert!(false, "parse_calls cannot fail with {e:?}"),
        }
        let seat = seat.index(players);
        match parse_after(&text, profile, players, seat) {
            Ok(calls) => {
                prop_assert_eq!(calls.len(), seat);
                prop_assert!(!calls.contains(&Call::TakeSpare));
            }
            Err(e) => prop_assert!(e.to_string().contains("`after`"), "{e}"),
        }
    }

    #[test]
    fn written_calls_read_back(
        (profile, players) in profile_and_players(), seat in any::<Index>(),
        picks in prop::collection::vec(any::<Index>(), 1..8),
        upper in prop::collection::vec(any::<bool>(), 1..4), separator in select(&[",", ", ", " ,", " "][..]),
    ) {
        let seat = seat.index(players);
        let calls = auction(profile, players, seat, &picks);
        let text = write_calls(profile, &calls, separator, &upper);
        prop_assert_eq!(parse_calls(&text, profile).unwrap(), calls.clone());
        if separator != " " {
            prop_assert_eq!(parse_after(&text, profile, players, seat), Ok(calls.clone()));
        }
        // A full auction of every seat reads back as a replay's calls.
        let all = auction(profile, players, players, &picks);
        prop_assert_eq!(parse_calls(&write_calls(profile, &all, separator, &upper), profile).unwrap(), all);
        if profile.spare_hand().is_some() {
            prop_assert_eq!(parse_calls("pass,TAKE-SPARE", profile).unwrap(), vec![Call::Pass, Call::TakeSpare]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Replays: a real game read back, then edited

/// A game played by bots, as the replay flags would give it.
fn played_game(profile: &Profile, players: usize, seed: u64, kitty: i64) -> (Replay, Vec<i64>) {
    let bid = bid_policy("threshold:three=8,four=12,nap=14", profile)
        .or_else(|_| bid_policy("threshold", profile))
        .unwrap();
    let play = play_policy("random", profile).unwrap();
    let table = Table::uniform(bid.as_ref(), play.as_ref());
    let (mut deal_rng, mut policy_rng) = block_streams(seed, 0);
    let dealer = (seed % players as u64) as usize;
    let dealt = Shuffler::new(profile, players).deal(dealer, &mut deal_rng);
    let mut state = DealState::from_dealt(profile, dealer, &dealt, players);
    state.set_kitty(kitty);
    run_deal(&mut state, &table, &mut policy_rng);
    let position = |c: &Card| state.stock_order().iter().position(|s| s == c);
    let buys = (0..players)
        .filter(|&seat| !state.bought(seat).0.is_empty())
        .map(|seat| {
            let (given, received) = state.bought(seat);
            let mut received = received.to_vec();
            received.sort_by_key(position);
            (seat, given, received)
        })
        .collect();
    let named = state
        .contract()
        .is_some_and(|c| profile.bid(c.bid).trump() == napsim::rules::TrumpRule::Named);
    let extras = ReplayExtras {
        kitty,
        floater: state.floater(),
        peeks: (0..players).filter(|&s| state.peeked(s)).collect(),
        discard: state.floater_discard(),
        trump: if named { state.trump() } else { None },
        buys,
        spare: profile.spare_hand().map(|_| state.spare()),
        keep: state
            .spare_exchange()
            .map(|(seat, discarded, received)| (state.dealt(seat) - discarded) | received),
    };
    let game = Replay {
        dealer,
        hands: (0..players).map(|s| state.dealt(s)).collect(),
        calls: state.calls().to_vec(),
        plays: state.history().to_vec(),
        extras,
    };
    (game, state.payments().to_vec())
}

/// One change to a replayed game.
#[derive(Clone, Debug)]
enum GameEdit {
    SwapPlays(Index, Index),
    ReplacePlay(Index, Index),
    DropPlays(Index),
    ExtraPlay(Index),
    ReplaceCall(Index, Index),
    SwapCalls(Index, Index),
    Dealer(Index),
    Floater(Option<Index>),
    Discard(Option<Index>),
    Trump(Option<Index>),
    Peeks(Vec<Index>),
    Buy(Index, Vec<Index>, Vec<Index>),
    Keep(Option<Vec<Index>>),
    Spare(Option<Vec<Index>>),
    SwapHands(Index, Index),
}

fn game_edit() -> impl Strategy<Value = GameEdit> {
    let i = any::<Index>;
    let cards = || prop::collection::vec(any::<Index>(), 0..6);
    prop_oneof![
        (i(), i()).prop_map(|(a, b)| GameEdit::SwapPlays(a, b)),
        (i(), i()).prop_map(|(a, b)| GameEdit::ReplacePlay(a, b)),
        i().prop_map(GameEdit::DropPlays),
        i().prop_map(GameEdit::ExtraPlay),
        (i(), i()).prop_map(|(a, b)| GameEdit::ReplaceCall(a, b)),
        (i(), i()).prop_map(|(a, b)| GameEdit::SwapCalls(a, b)),
        i().prop_map(GameEdit::Dealer),
        prop::option::of(i()).prop_map(GameEdit::Floater),
        prop::option::of(i()).prop_map(GameEdit::Discard),
        prop::option::of(i()).prop_map(GameEdit::Trump),
        prop::collection::vec(i(), 0..3).prop_map(GameEdit::Peeks),
        (i(), cards(), cards()).prop_map(|(s, g, r)| GameEdit::Buy(s, g, r)),
        prop::option::of(cards()).prop_map(GameEdit::Keep),
        prop::option::of(cards()).prop_map(GameEdit::Spare),
        (i(), i()).prop_map(|(a, b)| GameEdit::SwapHands(a, b)),
    ]
}

fn edit_game(game: &mut Replay, edit: &GameEdit, profile: &Profile) {
    let players = game.hands.len();
    let all: Vec<Card> = CardSet::FULL.to_vec();
    let card = |i: &Index| all[i.index(all.len())];
    let set = |v: &[Index]| v.iter().map(card).collect::<CardSet>();
    let calls: Vec<Call> = std::iter::once(Call::Pass)
        .chain(profile.bid_ids().map(Call::Bid))
        .chain(profile.spare_hand().map(|_| Call::TakeSpare))
        .collect();
    let n = game.plays.len();
    match edit {
        GameEdit::SwapPlays(a, b) if n > 0 => game.plays.swap(a.index(n), b.index(n)),
        GameEdit::ReplacePlay(a, c) if n > 0 => game.plays[a.index(n)] = card(c),
        GameEdit::DropPlays(a) => game.plays.truncate(a.index(n + 1)),
        GameEdit::ExtraPlay(c) => game.plays.push(card(c)),
        GameEdit::ReplaceCall(a, c) => game.calls[a.index(players)] = calls[c.index(calls.len())],
        GameEdit::SwapCalls(a, b) => game.calls.swap(a.index(players), b.index(players)),
        GameEdit::Dealer(d) => game.dealer = d.index(players),
        GameEdit::Floater(c) => game.extras.floater = c.as_ref().map(card),
        GameEdit::Discard(c) => game.extras.discard = c.as_ref().map(card),
        GameEdit::Trump(s) => game.extras.trump = s.as_ref().map(|s| Suit::ALL[s.index(4)]),
        GameEdit::Peeks(seats) => {
            game.extras.peeks = seats.iter().map(|s| s.index(players)).collect()
        }
        GameEdit::Buy(seat, given, received) => game.extras.buys.push((
            seat.index(players),
            set(given),
            received.iter().map(card).collect(),
        )),
        GameEdit::Keep(c) => game.extras.keep = c.as_deref().map(set),
        GameEdit::Spare(c) => game.extras.spare = c.as_deref().map(set),
        GameEdit::SwapHands(a, b) => game.hands.swap(a.index(players), b.index(players)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn replays_of_edited_games_settle_or_are_refused(
        (profile, players) in profile_and_players(), seed in any::<u64>(), kitty in 0i64..40,
        edits in prop::collection::vec(game_edit(), 0..3),
    ) {
        let (mut game, payments) = played_game(profile, players, seed, kitty);
        let state = replay(profile, &game).map_err(|e| TestCaseError::fail(format!("{e}: {game:?}")))?;
        prop_assert_eq!(state.payments(), &payments[..]);
        for e in &edits {
            edit_game(&mut game, e, profile);
        }
        match replay(profile, &game) {
            Ok(state) => {
                prop_assert_eq!(state.phase(), Phase::Finished);
                let change = state.kitty_after() - state.kitty_before();
                prop_assert_eq!(state.payments().iter().sum::<i64>() + change, 0);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The bid table the `table` policy reads

/// A `napsim bid-table --by exact` CSV for `profile`, with some rows edited.
fn table_csv(profile: &Profile, hands: &[u64], edits: &[(Index, String)]) -> String {
    let mut rows = vec!["profile,players,seat,class,bid,tricks_needed,hands,ev".to_string()];
    for (i, &bits) in hands.iter().enumerate() {
        let hand: CardSet = shuffled(CardSet::FULL, &[bits, bits.rotate_left(17)])
            .into_iter()
            .take(HAND_SIZE)
            .collect();
        let class = Scheme::Exact.label(Scheme::Exact.class(hand));
        let bid = &profile.bids()[i % profile.bids().len()];
        let ev = (bits % 41) as f64 - 20.0;
        rows.push(format!(
            "{},{},{},{class},{},{},100,{ev}",
            profile.name(),
            profile.min_players() + i % 2,
            i % 3,
            bid.name(),
            bid.tricks_needed()
        ));
    }
    for (at, text) in edits {
        let i = at.index(rows.len());
        let mut fields: Vec<String> = rows[i].split(',').map(String::from).collect();
        let f = at.index(fields.len());
        fields[f] = text.clone();
        rows[i] = fields.join(",");
    }
    rows.join("\n") + "\n"
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn bid_tables_are_read_or_refused_and_bid_legally(
        (profile, players) in profile_and_players(),
        hands in prop::collection::vec(any::<u64>(), 0..20),
        edits in prop::collection::vec((any::<Index>(), prop_oneof![
            Just(String::new()), Just("nan".to_string()), Just("-1".to_string()), Just("AK9.7.2".to_string()),
            Just("\"a,b\"".to_string()), Just("heather-1875".to_string()), Just("wellington".to_string()),
            "\\PC{0,8}",
        ]), 0..3),
        garbage in prop::option::weighted(0.1, any::<String>()),
        seed in any::<u64>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        let text = garbage.unwrap_or_else(|| table_csv(profile, &hands, &edits));
        std::fs::write(&path, &text).unwrap();
        let spec = format!("table:file=({})", path.display());
        match bid_policy(&spec, profile) {
            Ok(_) => {
                let state = play_one(profile, players, seed, &spec, "heuristic");
                prop_assert_eq!(state.phase(), Phase::Finished);
            }
            Err(e) => names_the_fault(&spec, &e)?,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The replay flags that only the command line reads (`--buy`, `--peeks`, `--trump`, ...)

/// A replay per profile with extras: its rules, hands, calls, plays and flags (with the value
/// that makes the replay valid, or none where the flag is optional).
type ReplayCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, Option<&'static str>)],
);

const REPLAYS: [ReplayCase; 3] = [
    (
        "purchase-nap",
        "AS KS QS 2H 2D/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
        "nap,pass,pass,pass",
        "AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC",
        &[
            ("--buy", Some("0:2H 2D>JS TS")),
            ("--kitty", Some("7")),
            ("--dealer", None),
        ],
    ),
    (
        "peep-nap",
        "AS KS 9S 9H TD/AH KH QH JH TH/AD KD QD JD 9D/AC KC QC JC TC",
        "nap-with-floater,wellington-without-floater,pass,pass",
        "TH 9D TC 9H AH AD AC AS KS KH KD KC 9S QH QD QC TD JH JD JC",
        &[
            ("--floater", Some("QS")),
            ("--trump", Some("S")),
            ("--peeks", None),
            ("--discard", None),
        ],
    ),
    (
        "sir-garnet",
        "AS KS 2H 3D 4C/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
        "take-spare,pass,pass,pass",
        "AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC",
        &[
            ("--spare", Some("QS JS TS 9S 8S")),
            ("--keep", Some("AS KS QS JS TS")),
        ],
    ),
];

#[test]
fn the_replays_that_the_flags_are_fuzzed_on_are_valid() {
    for (rules, hands, calls, plays, flags) in REPLAYS {
        let mut args = vec![
            "--rules", rules, "deal", "--hands", hands, "--calls", calls, "--plays", plays,
        ];
        for (flag, value) in flags {
            if let Some(value) = value {
                args.extend([*flag, *value]);
            }
        }
        common::stdout(&args);
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn replay_flags_are_refused_with_one_error_line(
        which in 0..REPLAYS.len(), flag in any::<Index>(),
        value in text("[0-9A-Z:>, /-]{0,16}|[0-9]{1,3}:[2-9TJQKA][CDHS] ?[2-9TJQKA]?[CDHS]?>[2-9TJQKA][CDHS] ?[2-9TJQKA]?[CDHS]?"),
    ) {
        if value.contains('\0') {
            return Ok(()); // not passable as an argument
        }
        let (rules, hands, calls, plays, flags) = REPLAYS[which];
        let fuzzed = flags[flag.index(flags.len())].0;
        let mut command = common::napsim();
        command.args(["--rules", rules, "deal", "--hands", hands, "--calls", calls, "--plays", plays]);
        for (flag, good) in flags {
            if *flag == fuzzed {
                command.arg(flag).arg(&value);
            } else if let Some(good) = good {
                command.args([flag, good]);
            }
        }
        let out = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(!stderr.contains("panicked"), "{} {:?}: {}", fuzzed, value, stderr);
        match out.status.code() {
            Some(0) => prop_assert!(stderr.is_empty()),
            Some(2) => prop_assert!(stderr.starts_with("error:"), "{} {:?}: {}", fuzzed, value, stderr),
            code => prop_assert!(false, "{} {:?}: exit {:?}: {}", fuzzed, value, code, stderr),
        }
    }
}
