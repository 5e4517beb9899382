//! An independent rules checker for `napsim deal --json`.
//!
//! Nothing here uses the `napsim` library: every record is parsed from its JSON text with
//! `serde_json::Value`, and the rules of the `heather-1875` profile (the pack, the deal, the
//! auction, the contract, trick play and the settlement) are re-implemented from their written
//! description. Each stdout line of the binary is one deal; the checker replays it and rejects it
//! with the record index and the name of the rule it breaks.
//!
//! On top of the per-deal rules, the runs are checked as sequences (the deal passes left, so the
//! dealer rotates by one seat per record) and the dealing is checked statistically (suit patterns
//! and card frequencies against their exact probabilities).
//!
//! The checker itself is tested at the bottom of the file: hand-crafted bad records (a revoke, a
//! wrong trick winner, an unbalanced settlement, ...) must be rejected for the right reason.

use std::collections::{BTreeSet, HashSet};

use assert_cmd::Command;
use serde_json::Value;

/// The only rule profile, and the one the checker implements.
const PROFILE: &str = "heather-1875";
/// Cards dealt to each seat, and tricks played in a deal.
const HAND_SIZE: usize = 5;
/// Ranks from lowest to highest; a card's rank value is its index here plus 2.
const RANKS: &[u8; 13] = b"23456789TJQKA";
/// Suit letters; a card's suit is its index here.
const SUITS: &[u8; 4] = b"CDHS";
/// The fields of a record, exactly.
const RECORD_FIELDS: [&str; 11] = [
    "profile",
    "players",
    "dealer",
    "hands",
    "auction",
    "contract",
    "trump",
    "tricks",
    "declarer_tricks",
    "made",
    "payments",
];

/// One rung of the bidding ladder.
#[derive(Debug)]
struct Bid {
    name: &'static str,
    /// Tricks the declarer needs.
    tricks: u64,
    /// What each other seat pays the declarer when made (or is paid when it fails).
    pays: i64,
    /// Whether the bid is allowed only after nap has been bid in the same auction.
    needs_nap: bool,
}

/// The ladder of `heather-1875`, lowest to highest.
const LADDER: [Bid; 4] = [
    Bid {
        name: "three",
        tricks: 3,
        pays: 3,
        needs_nap: false,
    },
    Bid {
        name: "four",
        tricks: 4,
        pays: 4,
        needs_nap: false,
    },
    Bid {
        name: "nap",
        tricks: 5,
        pays: 5,
        needs_nap: false,
    },
    Bid {
        name: "wellington",
        tricks: 5,
        pays: 10,
        needs_nap: true,
    },
];
const NAP: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Card {
    /// 2..=14 (ace high).
    rank: u8,
    /// Index into `SUITS`: clubs 0, diamonds 1, hearts 2, spades 3.
    suit: u8,
}

impl Card {
    /// 0..52, for tallies.
    fn index(self) -> usize {
        self.suit as usize * 13 + self.rank as usize - 2
    }
    /// The key of the display order: spades, hearts, diamonds, clubs; ace down to two.
    fn display_key(self) -> (u8, u8) {
        (3 - self.suit, 14 - self.rank)
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = RANKS[self.rank as usize - 2] as char;
        let s = SUITS[self.suit as usize] as char;
        write!(f, "{r}{s}")
    }
}

fn parse_card(text: &str) -> Result<Card, String> {
    let b = text.as_bytes();
    let bad = || format!("card-syntax: {text:?} is not rank+suit like \"TS\"");
    if b.len() != 2 {
        return Err(bad());
    }
    let rank = RANKS.iter().position(|&r| r == b[0]).ok_or_else(bad)? as u8 + 2;
    let suit = SUITS.iter().position(|&s| s == b[1]).ok_or_else(bad)? as u8;
    Ok(Card { rank, suit })
}

fn parse_suit(text: &str) -> Result<u8, String> {
    match text.as_bytes() {
        [s] => SUITS
            .iter()
            .position(|x| x == s)
            .map(|i| i as u8)
            .ok_or_else(|| format!("trump-syntax: {text:?} is not a suit letter")),
        _ => Err(format!("trump-syntax: {text:?} is not a suit letter")),
    }
}

/// What the checker learned from one valid record, for the sequence and statistical checks.
#[derive(Clone, Debug)]
struct Checked {
    players: usize,
    dealer: usize,
    hands: Vec<Vec<Card>>,
    /// The declarer and the ladder index of the contract.
    contract: Option<(usize, usize)>,
    made: Option<bool>,
}

// ---------------------------------------------------------------- JSON helpers

fn get<'a>(obj: &'a Value, key: &str, what: &str) -> Result<&'a Value, String> {
    obj.get(key)
        .ok_or_else(|| format!("schema: {what} has no field {key:?}"))
}

fn exact_fields(obj: &Value, fields: &[&str], what: &str) -> Result<(), String> {
    let map = obj
        .as_object()
        .ok_or_else(|| format!("schema: {what} is not an object: {obj}"))?;
    let have: BTreeSet<&str> = map.keys().map(String::as_str).collect();
    let want: BTreeSet<&str> = fields.iter().copied().collect();
    if have != want {
        return Err(format!(
            "schema: {what} has fields {have:?}, expected {want:?}"
        ));
    }
    Ok(())
}

fn as_usize(v: &Value, what: &str) -> Result<usize, String> {
    v.as_u64()
        .map(|x| x as usize)
        .ok_or_else(|| format!("schema: {what} is not a non-negative integer: {v}"))
}

fn as_str<'a>(v: &'a Value, what: &str) -> Result<&'a str, String> {
    v.as_str()
        .ok_or_else(|| format!("schema: {what} is not a string: {v}"))
}

fn as_array<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| format!("schema: {what} is not an array: {v}"))
}

// ---------------------------------------------------------------- the checker

/// Checks one stdout line; the error names the record index and the rule broken.
fn check_line(index: usize, line: &str) -> Result<Checked, String> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| format!("record {index}: schema: not valid JSON ({e})"))?;
    check_record(&value).map_err(|e| format!("record {index}: {e}"))
}

/// Checks one record against the rules of `heather-1875`.
fn check_record(rec: &Value) -> Result<Checked, String> {
    exact_fields(rec, &RECORD_FIELDS, "the record")?;
    let profile = as_str(get(rec, "profile", "the record")?, "profile")?;
    if profile != PROFILE {
        return Err(format!("profile: {profile:?}, expected {PROFILE:?}"));
    }
    let n = as_usize(&rec["players"], "players")?;
    if n < 2 || n * HAND_SIZE > 52 {
        return Err(format!(
            "players: {n} players cannot be dealt 5 cards from 52"
        ));
    }
    let dealer = as_usize(&rec["dealer"], "dealer")?;
    if dealer >= n {
        return Err(format!(
            "dealer: seat {dealer} does not exist at {n} players"
        ));
    }

    // The deal: n hands of 5 distinct cards, shown in display order.
    let hands_json = as_array(&rec["hands"], "hands")?;
    if hands_json.len() != n {
        return Err(format!("deal: {} hands for {n} players", hands_json.len()));
    }
    let mut hands: Vec<Vec<Card>> = Vec::with_capacity(n);
    let mut seen = HashSet::new();
    for (seat, h) in hands_json.iter().enumerate() {
        let text = as_str(h, "a hand")?;
        let cards = text
            .split(' ')
            .map(parse_card)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{e} (seat {seat}'s hand {text:?})"))?;
        if cards.len() != HAND_SIZE {
            return Err(format!(
                "deal: seat {seat} holds {} cards ({text:?}), expected {HAND_SIZE}",
                cards.len()
            ));
        }
        for &c in &cards {
            if !seen.insert(c) {
                return Err(format!("deal: {c} dealt twice (again to seat {seat})"));
            }
        }
        let mut sorted = cards.clone();
        sorted.sort_by_key(|c| c.display_key());
        if sorted != cards {
            let want: Vec<String> = sorted.iter().map(Card::to_string).collect();
            return Err(format!(
                "hand-order: seat {seat}'s hand {text:?} is not in display order, expected {:?}",
                want.join(" ")
            ));
        }
        hands.push(cards);
    }

    // The auction: each seat once, from the dealer's left, each bid above the last.
    let auction = as_array(&rec["auction"], "auction")?;
    if auction.len() != n {
        return Err(format!(
            "auction: {} calls at {n} players, expected each seat to speak once",
            auction.len()
        ));
    }
    let mut highest: Option<(usize, usize)> = None;
    let mut nap_bid = false;
    for (i, entry) in auction.iter().enumerate() {
        exact_fields(entry, &["seat", "call"], "an auction call")?;
        let seat = as_usize(&entry["seat"], "auction seat")?;
        let expected = (dealer + 1 + i) % n;
        if seat != expected {
            return Err(format!(
                "auction-order: call {i} made by seat {seat}, expected seat {expected} (dealer {dealer})"
            ));
        }
        let call = as_str(&entry["call"], "auction call")?;
        if call == "pass" {
            continue;
        }
        let b = LADDER
            .iter()
            .position(|bid| bid.name == call)
            .ok_or_else(|| format!("auction: seat {seat} made unknown call {call:?}"))?;
        if let Some((by, h)) = highest
            && b <= h
        {
            return Err(format!(
                "auction-overcall: seat {seat} bid {call} over seat {by}'s {}, which it does not outrank",
                LADDER[h].name
            ));
        }
        if LADDER[b].needs_nap && !nap_bid {
            return Err(format!(
                "auction-wellington: seat {seat} bid {call} without nap having been bid"
            ));
        }
        nap_bid |= b == NAP;
        highest = Some((seat, b));
    }

    let payments_json = as_array(&rec["payments"], "payments")?;
    if payments_json.len() != n {
        return Err(format!(
            "payments: {} entries for {n} players",
            payments_json.len()
        ));
    }
    let payments = payments_json
        .iter()
        .map(|p| {
            p.as_i64()
                .ok_or_else(|| format!("schema: payment is not an integer: {p}"))
        })
        .collect::<Result<Vec<i64>, _>>()?;
    if payments.iter().sum::<i64>() != 0 {
        return Err(format!("payments-balance: {payments:?} do not sum to zero"));
    }
    let tricks_json = as_array(&rec["tricks"], "tricks")?;
    let declarer_tricks = as_usize(&rec["declarer_tricks"], "declarer_tricks")?;

    let Some((declarer, b)) = highest else {
        // All passed: nothing is played and nobody pays.
        if !rec["contract"].is_null() {
            return Err(format!(
                "contract: all passed but contract is {}",
                rec["contract"]
            ));
        }
        if !rec["trump"].is_null() {
            return Err(format!("trump: all passed but trump is {}", rec["trump"]));
        }
        if !tricks_json.is_empty() {
            return Err(format!(
                "tricks: all passed but {} tricks were played",
                tricks_json.len()
            ));
        }
        if declarer_tricks != 0 {
            return Err(format!(
                "declarer-tricks: all passed but declarer_tricks is {declarer_tricks}"
            ));
        }
        if !rec["made"].is_null() {
            return Err(format!("made: all passed but made is {}", rec["made"]));
        }
        if payments.iter().any(|&p| p != 0) {
            return Err(format!(
                "payments: all passed but payments are {payments:?}"
            ));
        }
        return Ok(Checked {
            players: n,
            dealer,
            hands,
            contract: None,
            made: None,
        });
    };
    let bid = &LADDER[b];

    // The contract: the highest bid and who made it.
    let contract = &rec["contract"];
    if contract.is_null() {
        return Err(format!(
            "contract: null, but seat {declarer} bid {}",
            bid.name
        ));
    }
    exact_fields(contract, &["declarer", "bid", "tricks"], "the contract")?;
    let c_declarer = as_usize(&contract["declarer"], "contract declarer")?;
    let c_bid = as_str(&contract["bid"], "contract bid")?;
    let c_tricks = as_usize(&contract["tricks"], "contract tricks")?;
    if c_declarer != declarer || c_bid != bid.name {
        return Err(format!(
            "contract: {c_bid} by seat {c_declarer}, but the highest bid was {} by seat {declarer}",
            bid.name
        ));
    }
    if c_tricks as u64 != bid.tricks {
        return Err(format!(
            "contract: {} needs {} tricks, record says {c_tricks}",
            bid.name, bid.tricks
        ));
    }

    // The play: five tricks, the declarer leading the first, whose suit is trump.
    if tricks_json.len() != HAND_SIZE {
        return Err(format!(
            "tricks: {} tricks played, expected {HAND_SIZE}",
            tricks_json.len()
        ));
    }
    let mut remaining = hands.clone();
    let mut leader = declarer;
    let mut trump: Option<u8> = None;
    let mut won = vec![0usize; n];
    for (t, trick) in tricks_json.iter().enumerate() {
        exact_fields(trick, &["leader", "cards", "winner"], "a trick")?;
        let l = as_usize(&trick["leader"], "trick leader")?;
        if l != leader {
            let why = if t == 0 {
                format!("the declarer, seat {declarer}")
            } else {
                format!("the winner of trick {}, seat {leader}", t - 1)
            };
            return Err(format!("lead: trick {t} led by seat {l}, expected {why}"));
        }
        let cards = as_array(&trick["cards"], "trick cards")?;
        if cards.len() != n {
            return Err(format!(
                "trick-size: trick {t} has {} cards at {n} players",
                cards.len()
            ));
        }
        let mut played: Vec<Card> = Vec::with_capacity(n);
        for (k, cv) in cards.iter().enumerate() {
            let seat = (leader + k) % n;
            let card = parse_card(as_str(cv, "a played card")?)?;
            let hand = &mut remaining[seat];
            let Some(pos) = hand.iter().position(|&c| c == card) else {
                return Err(format!(
                    "card-in-hand: trick {t}, seat {seat} played {card}, which it does not hold (holds {})",
                    show(hand)
                ));
            };
            if let Some(led) = played.first()
                && card.suit != led.suit
                && hand.iter().any(|c| c.suit == led.suit)
            {
                return Err(format!(
                    "follow-suit: trick {t}, seat {seat} played {card} on {led} led while holding {} (revoke)",
                    show(hand)
                ));
            }
            if t == 0 && k == 0 {
                trump = Some(card.suit);
            }
            hand.remove(pos);
            played.push(card);
        }
        let trump = trump.expect("set by the first card");
        let led = played[0].suit;
        let best = (0..n)
            .max_by_key(|&k| {
                let c = played[k];
                (c.suit == trump, c.suit == led, c.rank)
            })
            .expect("a card");
        let winner = (leader + best) % n;
        let w = as_usize(&trick["winner"], "trick winner")?;
        if w != winner {
            return Err(format!(
                "trick-winner: trick {t} ({}) with trump {} won by seat {winner} ({}), record says seat {w}",
                show(&played),
                SUITS[trump as usize] as char,
                played[best]
            ));
        }
        won[winner] += 1;
        leader = winner;
    }
    debug_assert!(remaining.iter().all(Vec::is_empty));

    let trump = trump.expect("five tricks played");
    let t_field = &rec["trump"];
    let t_suit = parse_suit(as_str(t_field, "trump")?)?;
    if t_suit != trump {
        return Err(format!(
            "trump: record says {t_field}, but the first card led was a {}",
            SUITS[trump as usize] as char
        ));
    }

    // The result and the settlement.
    if declarer_tricks != won[declarer] {
        return Err(format!(
            "declarer-tricks: record says {declarer_tricks}, seat {declarer} won {} (tricks by seat: {won:?})",
            won[declarer]
        ));
    }
    let made = won[declarer] as u64 >= bid.tricks;
    if rec["made"].as_bool() != Some(made) {
        return Err(format!(
            "made: record says {}, but {} tricks for {} (needs {}) is {}",
            rec["made"], won[declarer], bid.name, bid.tricks, made
        ));
    }
    let sign = if made { 1 } else { -1 };
    let expected: Vec<i64> = (0..n)
        .map(|s| {
            if s == declarer {
                sign * bid.pays * (n as i64 - 1)
            } else {
                -sign * bid.pays
            }
        })
        .collect();
    if payments != expected {
        return Err(format!(
            "payments: {payments:?}, expected {expected:?} ({} {} by seat {declarer})",
            bid.name,
            if made { "made" } else { "failed" }
        ));
    }
    Ok(Checked {
        players: n,
        dealer,
        hands,
        contract: Some((declarer, b)),
        made: Some(made),
    })
}

fn show(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks that consecutive records are one sequence with the deal passing left, and that the
/// dealers are spread evenly.
fn check_sequence(records: &[Checked]) -> Result<(), String> {
    let Some(first) = records.first() else {
        return Ok(());
    };
    let n = first.players;
    for (i, pair) in records.windows(2).enumerate() {
        if pair[1].players != n {
            return Err(format!(
                "record {}: players: {} players, the run started with {n}",
                i + 1,
                pair[1].players
            ));
        }
        let want = (pair[0].dealer + 1) % n;
        if pair[1].dealer != want {
            return Err(format!(
                "record {}: dealer-rotation: dealer {} after dealer {} in record {i}, expected {want}",
                i + 1,
                pair[1].dealer,
                pair[0].dealer
            ));
        }
    }
    // Implied by the rotation, but stated as what it means for the run: each seat deals
    // either floor(K/n) or ceil(K/n) times.
    let mut dealt = vec![0usize; n];
    for r in records {
        dealt[r.dealer] += 1;
    }
    let (lo, hi) = (dealt.iter().min().unwrap(), dealt.iter().max().unwrap());
    if hi - lo > 1 {
        return Err(format!(
            "dealer-distribution: deals per dealer seat {dealt:?} over {} records",
            records.len()
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- running the binary

fn run_napsim(args: &[&str]) -> String {
    let out = Command::cargo_bin("napsim")
        .expect("the napsim binary")
        .args(args)
        .output()
        .expect("napsim runs");
    assert!(
        out.status.success(),
        "napsim {args:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs `napsim deal --json` and checks every record and the sequence.
fn check_run(players: usize, count: usize, seed: u64, bid: &str, play: &str) -> Vec<Checked> {
    let (players_s, count_s, seed_s) = (players.to_string(), count.to_string(), seed.to_string());
    let args = [
        "deal",
        "--json",
        "--count",
        &count_s,
        "--seed",
        &seed_s,
        "--players",
        &players_s,
        "--bid",
        bid,
        "--play",
        play,
    ];
    let stdout = run_napsim(&args);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        count,
        "napsim {args:?}: {} records, expected {count}",
        lines.len()
    );
    let mut records = Vec::with_capacity(count);
    for (i, line) in lines.iter().enumerate() {
        match check_line(i, line) {
            Ok(r) => {
                assert_eq!(
                    r.players, players,
                    "record {i}: players: {} players, asked for {players}",
                    r.players
                );
                records.push(r);
            }
            Err(e) => panic!("napsim {args:?}\n{e}\nrecord JSON: {line}"),
        }
    }
    if let Err(e) = check_sequence(&records) {
        panic!("napsim {args:?}\n{e}");
    }
    let played = records.iter().filter(|r| r.contract.is_some()).count();
    let made = records.iter().filter(|r| r.made == Some(true)).count();
    let mut by_bid = [0usize; 4];
    for r in &records {
        if let Some((_, b)) = r.contract {
            by_bid[b] += 1;
        }
    }
    eprintln!(
        "napsim {args:?}: {count} deals ok; played {played} (made {made}); contracts three/four/nap/wellington {by_bid:?}"
    );
    records
}

/// The sanity that a run exercised the play and settlement checks both ways.
fn assert_coverage(records: &[Checked]) {
    let played = records.iter().filter(|r| r.contract.is_some()).count();
    let made = records.iter().filter(|r| r.made == Some(true)).count();
    assert!(played > 0, "coverage: no deal was played");
    assert!(made > 0, "coverage: no contract was made");
    assert!(made < played, "coverage: no contract failed");
}

// ---------------------------------------------------------------- tests against the binary

#[test]
fn four_players_random_play_obeys_the_rules() {
    let records = check_run(4, 20_000, 11, "threshold", "random");
    assert_coverage(&records);
    assert!(
        records.iter().any(|r| r.contract.is_none()),
        "coverage: the threshold bidder never passed out a deal"
    );
}

#[test]
fn four_players_heuristic_play_obeys_the_rules_and_deals_fairly() {
    let records = check_run(4, 20_000, 12, "threshold", "heuristic");
    assert_coverage(&records);
    let hands: Vec<&Vec<Card>> = records.iter().flat_map(|r| &r.hands).collect();
    assert_eq!(hands.len(), 80_000);

    // Suit patterns (suit lengths, longest first) against their exact probabilities: the
    // number of 5-card hands of each pattern out of C(52,5) = 2,598,960.
    const PATTERNS: [([usize; 4], f64); 6] = [
        ([5, 0, 0, 0], 5_148.0),
        ([4, 1, 0, 0], 111_540.0),
        ([3, 2, 0, 0], 267_696.0),
        ([3, 1, 1, 0], 580_008.0),
        ([2, 2, 1, 0], 949_104.0),
        ([2, 1, 1, 1], 685_464.0),
    ];
    let total: f64 = PATTERNS.iter().map(|p| p.1).sum();
    assert_eq!(total, 2_598_960.0);
    let mut observed = [0usize; 6];
    for hand in &hands {
        let mut lengths = [0usize; 4];
        for c in hand.iter() {
            lengths[c.suit as usize] += 1;
        }
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        let k = PATTERNS
            .iter()
            .position(|p| p.0 == lengths)
            .expect("every 5-card hand has one of the six patterns");
        observed[k] += 1;
    }
    let m = hands.len() as f64;
    let chi2: f64 = PATTERNS
        .iter()
        .zip(observed)
        .map(|(p, o)| {
            let e = m * p.1 / total;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    eprintln!("suit patterns {observed:?}: chi-square {chi2:.2} (5 d.f.)");
    // Six categories, so 5 degrees of freedom. The upper 1e-4 quantile of chi-square(5) is
    // 25.74: a fair deal exceeds 25.7 for about one seed in ten thousand, so a failure here
    // is strong evidence of a biased shuffle or deal, not bad luck. (The four hands of a deal
    // are not quite independent, being drawn from one pack, but each hand's pattern has the
    // exact distribution above and the dependence barely moves the statistic.) The seed is
    // fixed, so the test is deterministic.
    assert!(
        chi2 <= 25.7,
        "deal-fairness: suit patterns {observed:?} over {m} hands give chi-square {chi2:.2} > 25.7 (5 d.f., p < 1e-4)"
    );

    // Each card is equally likely to be dealt in a deal: each of the 20 000 deals puts
    // k = 20 of the N = 52 cards in the hands, so each card is dealt in about 20000 * 20/52
    // deals. Drawing without replacement makes these counts a multinomial's covariance times
    // c = (N - k) / (N - 1) (the finite-population correction), so chi-square / c follows
    // chi-square with N - 1 = 51 degrees of freedom; its upper 1e-4 quantile is 97.3.
    let mut per_card = [0usize; 52];
    for hand in &hands {
        for c in hand.iter() {
            per_card[c.index()] += 1;
        }
    }
    let dealt = hands.len() as f64 * HAND_SIZE as f64;
    let e = dealt / 52.0;
    let c = (52.0 - 4.0 * HAND_SIZE as f64) / 51.0;
    let chi2: f64 = per_card
        .iter()
        .map(|&o| (o as f64 - e).powi(2) / e)
        .sum::<f64>()
        / c;
    eprintln!("card frequencies: corrected chi-square {chi2:.2} (51 d.f.)");
    assert!(
        chi2 <= 97.3,
        "deal-fairness: card frequencies {per_card:?} give corrected chi-square {chi2:.2} > 97.3 (51 d.f., p < 1e-4)"
    );
}

#[test]
fn three_players_obey_the_rules() {
    let records = check_run(3, 3_000, 13, "threshold", "heuristic");
    assert_coverage(&records);
}

#[test]
fn seven_players_obey_the_rules() {
    let records = check_run(7, 3_000, 14, "threshold", "random");
    assert_coverage(&records);
}

#[test]
fn always_bidding_three_plays_every_deal() {
    let records = check_run(4, 5_000, 15, "always:bid=three", "heuristic");
    assert_coverage(&records);
    for (i, r) in records.iter().enumerate() {
        let Some((_, b)) = r.contract else {
            panic!("record {i}: policy: every seat bids three when it may, yet all passed");
        };
        assert_eq!(
            LADDER[b].name, "three",
            "record {i}: policy: only three is ever bid, contract is {}",
            LADDER[b].name
        );
    }
}

#[test]
fn aggressive_bidding_reaches_wellington_and_obeys_the_rules() {
    // Low thresholds make auctions climb the whole ladder, so overcalls, nap and wellington
    // (which needs an earlier nap) are all exercised.
    let records = check_run(
        5,
        3_000,
        16,
        "threshold:three=8,four=10,nap=12,wellington=14",
        "random",
    );
    assert_coverage(&records);
    for (name, b) in [("nap", NAP), ("wellington", NAP + 1)] {
        assert!(
            records
                .iter()
                .any(|r| matches!(r.contract, Some((_, x)) if x == b)),
            "coverage: no {name} contract in the run"
        );
    }
}

/// A sweep over every table size with several bidders, a few seeds each, sized to stay fast.
#[test]
fn every_table_size_and_bidder_obeys_the_rules() {
    let bids = [
        "threshold",
        "always:bid=three",
        "always:bid=nap",
        "threshold:three=8,four=10,nap=12,wellington=14",
    ];
    for seed in 100..102 {
        for players in 3..=7 {
            for (k, bid) in bids.iter().enumerate() {
                let play = if (seed + k as u64).is_multiple_of(2) {
                    "random"
                } else {
                    "heuristic"
                };
                check_run(players, 1_000, seed, bid, play);
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_deals() {
    let args = [
        "deal",
        "--json",
        "--count",
        "300",
        "--seed",
        "99",
        "--players",
        "5",
    ];
    let a = run_napsim(&args);
    assert_eq!(
        a,
        run_napsim(&args),
        "determinism: seed 99 gave two outputs"
    );
    let other = run_napsim(&[
        "deal",
        "--json",
        "--count",
        "300",
        "--seed",
        "100",
        "--players",
        "5",
    ]);
    assert_ne!(a, other, "seeding: seeds 99 and 100 gave the same deals");
}

// ---------------------------------------------------------------- tests of the checker

/// A hand-checked legal record: four players, dealer 0, seat 0 bids three last and makes four.
const GOOD: &str = r#"{"profile":"heather-1875","players":4,"dealer":0,"hands":["AH KH 7H KC 8C","JS 4S QH JD 6D","2H 8D 5D 6C 5C","5S 3S TH JC 7C"],"auction":[{"seat":1,"call":"pass"},{"seat":2,"call":"pass"},{"seat":3,"call":"pass"},{"seat":0,"call":"three"}],"contract":{"declarer":0,"bid":"three","tricks":3},"trump":"H","tricks":[{"leader":0,"cards":["AH","QH","2H","TH"],"winner":0},{"leader":0,"cards":["KH","4S","5C","3S"],"winner":0},{"leader":0,"cards":["7H","6D","5D","5S"],"winner":0},{"leader":0,"cards":["8C","JD","6C","JC"],"winner":3},{"leader":3,"cards":["7C","KC","JS","8D"],"winner":0}],"declarer_tricks":4,"made":true,"payments":[9,-3,-3,-3]}"#;

/// A hand-checked passed-out record at three players.
const PASSED: &str = r#"{"profile":"heather-1875","players":3,"dealer":2,"hands":["AS KS 2H 3D 4C","QS JH TD 9C 8C","JS TS 9S 8S 7S"],"auction":[{"seat":0,"call":"pass"},{"seat":1,"call":"pass"},{"seat":2,"call":"pass"}],"contract":null,"trump":null,"tricks":[],"declarer_tricks":0,"made":null,"payments":[0,0,0]}"#;

/// A hand-checked record where a trump wins: seat 1 ruffs the AD led in trick 3, and in trick 4
/// the declarer's KS overtrumps seat 2's JS.
const TRUMPING: &str = r#"{"profile":"heather-1875","players":3,"dealer":2,"hands":["AS KS AH KH AD","3S 2S QH JH TH","QS JS 3H 2H KD"],"auction":[{"seat":0,"call":"three"},{"seat":1,"call":"pass"},{"seat":2,"call":"pass"}],"contract":{"declarer":0,"bid":"three","tricks":3},"trump":"S","tricks":[{"leader":0,"cards":["AS","2S","QS"],"winner":0},{"leader":0,"cards":["AH","QH","3H"],"winner":0},{"leader":0,"cards":["KH","JH","2H"],"winner":0},{"leader":0,"cards":["AD","3S","KD"],"winner":1},{"leader":1,"cards":["TH","JS","KS"],"winner":0}],"declarer_tricks":4,"made":true,"payments":[6,-3,-3]}"#;

fn good() -> Value {
    serde_json::from_str(GOOD).unwrap()
}

/// Asserts the checker rejects `rec` for `rule`, naming the record index.
fn assert_rejected(rec: &Value, rule: &str) {
    let line = rec.to_string();
    match check_line(17, &line) {
        Ok(_) => panic!("the checker accepted a record breaking {rule}: {line}"),
        Err(e) => {
            assert!(e.starts_with("record 17: "), "no record index in {e:?}");
            assert!(e.contains(rule), "expected a {rule} error, got {e:?}");
        }
    }
}

#[test]
fn checker_accepts_legal_records() {
    let r = check_line(0, GOOD).unwrap();
    assert_eq!(r.contract, Some((0, 0)));
    assert_eq!(r.made, Some(true));
    let r = check_line(1, PASSED).unwrap();
    assert_eq!(r.contract, None);
}

#[test]
fn checker_rejects_a_revoke() {
    // Seat 1 discards 4S on the led AH while holding QH, then plays QH to the next trick.
    let mut rec = good();
    rec["tricks"][0]["cards"][1] = "4S".into();
    rec["tricks"][1]["cards"][1] = "QH".into();
    assert_rejected(&rec, "follow-suit: trick 0, seat 1 played 4S");
}

#[test]
fn checker_rejects_a_wrong_winner() {
    // JC beats 8C in the fourth trick (no trump played), not the leader's 8C.
    let mut rec = good();
    rec["tricks"][3]["winner"] = 0.into();
    assert_rejected(&rec, "trick-winner: trick 3");
    // A discard of another suit (JS) never wins.
    let mut rec = good();
    rec["tricks"][4]["winner"] = 1.into();
    assert_rejected(&rec, "trick-winner: trick 4");
    // A trump beats the higher card of the led suit, and a higher trump a lower one.
    let trumping: Value = serde_json::from_str(TRUMPING).unwrap();
    check_record(&trumping).unwrap();
    let mut rec = trumping.clone();
    rec["tricks"][3]["winner"] = 0.into();
    assert_rejected(&rec, "trick-winner: trick 3");
    let mut rec = trumping;
    rec["tricks"][4]["winner"] = 2.into();
    assert_rejected(&rec, "trick-winner: trick 4");
}

#[test]
fn checker_rejects_unbalanced_or_wrong_payments() {
    let mut rec = good();
    rec["payments"][3] = (-2).into();
    assert_rejected(&rec, "payments-balance");
    let mut rec = good();
    rec["payments"] = serde_json::json!([-9, 3, 3, 3]);
    assert_rejected(&rec, "payments:");
    let mut rec: Value = serde_json::from_str(PASSED).unwrap();
    rec["payments"] = serde_json::json!([2, -1, -1]);
    assert_rejected(&rec, "payments:");
}

#[test]
fn checker_rejects_bad_deals() {
    let mut rec = good();
    rec["hands"][1] = "JS 4S QH JD AH".into();
    assert_rejected(&rec, "deal: AH dealt twice");
    let mut rec = good();
    rec["hands"][0] = "KH AH 7H KC 8C".into();
    assert_rejected(&rec, "hand-order: seat 0");
    let mut rec = good();
    rec["hands"][0] = "AH KH 7H KC 8c".into();
    assert_rejected(&rec, "card-syntax");
    let mut rec = good();
    rec["hands"][0] = "AH KH 7H KC  8C".into();
    assert_rejected(&rec, "card-syntax");
    let mut rec = good();
    rec["hands"][0] = "AH KH 7H KC".into();
    assert_rejected(&rec, "deal: seat 0 holds 4 cards");
}

#[test]
fn checker_rejects_bad_auctions() {
    let mut rec = good();
    rec["auction"][0]["seat"] = 0.into();
    rec["auction"][3]["seat"] = 1.into();
    assert_rejected(&rec, "auction-order: call 0");
    let mut rec = good();
    rec["auction"][2]["call"] = "four".into();
    assert_rejected(
        &rec,
        "auction-overcall: seat 0 bid three over seat 3's four",
    );
    let mut rec = good();
    rec["auction"][3]["call"] = "wellington".into();
    assert_rejected(&rec, "auction-wellington");
    let mut rec = good();
    rec["contract"]["bid"] = "four".into();
    assert_rejected(&rec, "contract:");
    let mut rec = good();
    rec["contract"]["tricks"] = 4.into();
    assert_rejected(&rec, "contract:");
    let mut rec: Value = serde_json::from_str(PASSED).unwrap();
    rec["contract"] = serde_json::json!({"declarer": 0, "bid": "three", "tricks": 3});
    assert_rejected(&rec, "contract: all passed");
}

#[test]
fn checker_rejects_bad_play() {
    let mut rec = good();
    rec["tricks"][0]["leader"] = 1.into();
    assert_rejected(&rec, "lead: trick 0");
    let mut rec = good();
    rec["tricks"][4]["leader"] = 0.into();
    assert_rejected(&rec, "lead: trick 4");
    let mut rec = good();
    rec["tricks"][2]["cards"][3] = "AS".into();
    assert_rejected(&rec, "card-in-hand: trick 2, seat 3 played AS");
    let mut rec = good();
    rec["trump"] = "S".into();
    assert_rejected(&rec, "trump:");
    let mut rec = good();
    rec["declarer_tricks"] = 3.into();
    assert_rejected(&rec, "declarer-tricks");
    let mut rec = good();
    rec["made"] = false.into();
    assert_rejected(&rec, "made:");
    let mut rec = good();
    rec["tricks"].as_array_mut().unwrap().pop();
    assert_rejected(&rec, "tricks: 4 tricks played");
    let mut rec = good();
    rec.as_object_mut()
        .unwrap()
        .insert("extra".into(), 1.into());
    assert_rejected(&rec, "schema");
}

#[test]
fn checker_rejects_a_broken_dealer_rotation() {
    let mut a = check_line(0, GOOD).unwrap();
    let mut seq = vec![a.clone()];
    for _ in 0..5 {
        a.dealer = (a.dealer + 1) % 4;
        seq.push(a.clone());
    }
    check_sequence(&seq).unwrap();
    seq[3].dealer = seq[2].dealer;
    let e = check_sequence(&seq).unwrap_err();
    assert!(e.contains("record 3: dealer-rotation"), "{e}");
}
