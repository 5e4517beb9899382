//! The double-dummy solver against a deliberately naive minimax.
//!
//! The naive search below knows only the rules (follow suit; the highest trump, or else the
//! highest card of the suit led, wins; the winner leads) and tries every legal card at every
//! turn: no pruning, no bounds, no relative ranks, no equivalent cards. Its one concession to
//! time is a memo of exact positions (every hand, the leader, trump) at trick starts, which
//! changes no value; without it a five-player deal takes seconds.
//!
//! Its answers never change, so they are stored: `tests/data/solved_deals.csv` (10,180 seeded
//! deals at 3 to 5 players, every opening lead's value: trump and misère, free, constrained and
//! named-trump leads) and `tests/data/solved_positions.csv` (11,500 seeded positions in
//! mid-play at 3 to 7 players). Every run checks the fast solver against all of them, and the
//! naive search itself against the solver on a fresh random sample (its seed printed on a
//! failure; `NAPSIM_SOLVER_SEED=N` repeats it) and on positions dealt from a short pack of
//! the top ranks, where the bounds' corner cases are common. `NAPSIM_FULL_MINIMAX=1`
//! recomputes every stored answer with the naive search as well (about two minutes), and the
//! ignored test `write_solved_files` rewrites both files from their seeds.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use napsim::cards::{Card, CardSet, Suit};
use napsim::rng::{SimRng, base_rng, below};
use napsim::rules::LeadRule;
use napsim::solver::{Opening, Position, Solver, TrumpChoice, endgame_can_make};

/// A small multiplicative hasher: the memo's keys are already well mixed card bits.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

type Memo = HashMap<([u64; 7], usize, Option<u32>), u8, BuildHasherDefault<Mix>>;

/// Exhaustive minimax over the declarer's tricks.
struct Naive {
    players: usize,
    declarer: usize,
    trump: Option<u32>,
    misere: bool,
    memo: Memo,
}

impl Naive {
    fn new(players: usize, misere: bool) -> Naive {
        Naive {
            players,
            declarer: 0,
            trump: None,
            misere,
            memo: Memo::default(),
        }
    }

    /// The declarer's tricks from here: `hands` by seat, `trick` the cards of the trick in
    /// progress led by `leader`.
    fn value(&mut self, hands: &mut [u64; 7], leader: usize, trick: &mut Vec<u32>) -> u8 {
        if trick.is_empty() {
            let key = (*hands, leader, self.trump);
            if let Some(&v) = self.memo.get(&key) {
                return v;
            }
            let v = self.search(hands, leader, trick);
            self.memo.insert(key, v);
            return v;
        }
        self.search(hands, leader, trick)
    }

    fn search(&mut self, hands: &mut [u64; 7], leader: usize, trick: &mut Vec<u32>) -> u8 {
        let seat = (leader + trick.len()) % self.players;
        if hands[seat] == 0 {
            return 0;
        }
        let mut legal = hands[seat];
        if let Some(&led) = trick.first() {
            let suit = hands[seat] & (0xffff << (led / 16 * 16));
            if suit != 0 {
                legal = suit;
            }
        }
        // The declarer maximises its tricks (minimises them in a misère); defenders the reverse.
        let maximise = (seat == self.declarer) != self.misere;
        let mut best: Option<u8> = None;
        for card in 0..64 {
            if legal >> card & 1 == 0 {
                continue;
            }
            hands[seat] &= !(1 << card);
            trick.push(card);
            let value = if trick.len() == self.players {
                let winner = (leader + self.winner(trick)) % self.players;
                let done = std::mem::take(trick);
                let v = u8::from(winner == self.declarer) + self.value(hands, winner, trick);
                *trick = done;
                v
            } else {
                self.value(hands, leader, trick)
            };
            trick.pop();
            hands[seat] |= 1 << card;
            best = Some(match best {
                None => value,
                Some(b) if maximise => b.max(value),
                Some(b) => b.min(value),
            });
        }
        best.expect("a legal card")
    }

    /// The index in `trick` of the winning card.
    fn winner(&self, trick: &[u32]) -> usize {
        let led = trick[0] / 16;
        let strength = |c: u32| match c / 16 {
            s if Some(s) == self.trump => 100 + c % 16,
            s if s == led => c % 16,
            _ => 0,
        };
        (0..trick.len())
            .max_by_key(|&i| strength(trick[i]))
            .unwrap()
    }
}

fn raw(hands: &[CardSet]) -> [u64; 7] {
    let mut out = [0; 7];
    for (o, h) in out.iter_mut().zip(hands) {
        *o = h.bits();
    }
    out
}

/// A random deal of `players` hands of `size` cards from the full pack.
fn random_deal(players: usize, size: usize, rng: &mut SimRng) -> Vec<CardSet> {
    random_deal_from(CardSet::FULL, players, size, rng)
}

/// A random deal of `players` hands of `size` cards from `pack`.
fn random_deal_from(pack: CardSet, players: usize, size: usize, rng: &mut SimRng) -> Vec<CardSet> {
    let mut pack: Vec<Card> = pack.into_iter().collect();
    let mut hands = vec![CardSet::EMPTY; players];
    for hand in hands.iter_mut() {
        for _ in 0..size {
            let i = below(rng, pack.len() as u64) as usize;
            hand.insert(pack.swap_remove(i));
        }
    }
    hands
}

/// The opening leads a rule allows, written out independently of the engine.
fn allowed_leads(hand: CardSet, opening: &Opening) -> Vec<Card> {
    let cards: Vec<Card> = hand.iter_desc().collect();
    match (opening.lead, opening.trump) {
        (LeadRule::Any, _) => cards,
        (LeadRule::LowestOfSuit, _) => cards
            .iter()
            .copied()
            .filter(|c| {
                !cards
                    .iter()
                    .any(|d| d.suit() == c.suit() && d.rank() < c.rank())
            })
            .collect(),
        (LeadRule::LowestNonTrump, TrumpChoice::Named(trump)) => {
            let side: Vec<Card> = cards
                .iter()
                .copied()
                .filter(|c| c.suit() != trump)
                .collect();
            // Every card of the lowest rank (two suits may tie); a hand of trumps only may
            // lead any card.
            match side.iter().map(|c| c.rank()).min() {
                Some(low) => side.into_iter().filter(|c| c.rank() == low).collect(),
                None => cards,
            }
        }
        (LeadRule::LowestNonTrump, _) => unreachable!("only with a named trump"),
    }
}

/// The naive value of every allowed opening lead by the declarer (seat 0).
fn naive_opening(hands: &[CardSet], opening: &Opening) -> Vec<(Card, u8)> {
    let mut naive = Naive::new(hands.len(), opening.misere);
    let mut raw = raw(hands);
    let mut values = Vec::new();
    for card in allowed_leads(hands[0], opening) {
        naive.trump = match opening.trump {
            TrumpChoice::FirstLead => Some(card.suit() as u32),
            TrumpChoice::NoTrump => None,
            TrumpChoice::Named(s) => Some(s as u32),
        };
        raw[0] &= !card.set().bits();
        let mut trick = vec![u32::from(card.index())];
        values.push((card, naive.value(&mut raw, 0, &mut trick)));
        raw[0] |= card.set().bits();
    }
    values
}

fn best(values: &[(Card, u8)], misere: bool) -> u8 {
    let tricks = values.iter().map(|v| v.1);
    if misere { tricks.min() } else { tricks.max() }.unwrap()
}

/// The opening rules of the stored deals, by the name the file gives them.
fn openings() -> Vec<(String, Opening)> {
    let mut all = vec![
        ("trumps".to_string(), Opening::TRUMPS),
        ("misere".to_string(), Opening::MISERE),
        // Bonaparte leads the lowest of a suit.
        (
            "lowest-of-suit".to_string(),
            Opening {
                trump: TrumpChoice::FirstLead,
                lead: LeadRule::LowestOfSuit,
                misere: false,
            },
        ),
        // A misère whose first lead names trump.
        (
            "misere-first-lead".to_string(),
            Opening {
                trump: TrumpChoice::FirstLead,
                lead: LeadRule::Any,
                misere: true,
            },
        ),
    ];
    // Peep Nap's Wellington names trump and leads the lowest side card.
    for suit in Suit::ALL {
        let opening = Opening {
            trump: TrumpChoice::Named(suit),
            lead: LeadRule::LowestNonTrump,
            misere: false,
        };
        all.push((format!("lowest-non-trump-{}", suit.letter()), opening));
    }
    all
}

fn opening_named(name: &str) -> Opening {
    openings()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no opening {name}"))
        .1
}

/// The seeded deals of the stored file: (players, opening, count, seed).
fn seeded_deals() -> Vec<(usize, &'static str, usize, u64)> {
    let mut groups = vec![
        (3, "trumps", 3000, 1),
        (3, "misere", 2000, 2),
        (4, "trumps", 2400, 3),
        (4, "misere", 1500, 4),
        (5, "trumps", 300, 5),
        (5, "misere", 200, 6),
        (4, "lowest-of-suit", 200, 7),
        (4, "lowest-non-trump-C", 50, 8),
        (4, "lowest-non-trump-D", 50, 9),
        (4, "lowest-non-trump-H", 50, 10),
        (4, "lowest-non-trump-S", 50, 11),
        (4, "misere-first-lead", 200, 12),
    ];
    // The first golden file's deals.
    groups.extend([
        (3, "trumps", 60, 101),
        (4, "trumps", 60, 102),
        (5, "trumps", 30, 103),
        (4, "misere", 30, 104),
    ]);
    groups
}

/// The seeded positions of the stored file: (group, players, cards a hand, count, seed, which
/// are misères). The endgame group is one stream over three to seven players.
type PositionGroup = (&'static str, usize, usize, usize, u64, fn(usize) -> bool);

fn seeded_positions() -> Vec<PositionGroup> {
    let every_third = |i: usize| i % 3 == 2;
    let all = |_: usize| true;
    vec![
        ("mid-play", 3, 5, 1000, 20, every_third),
        ("mid-play", 4, 5, 1000, 21, every_third),
        ("mid-play", 5, 4, 300, 22, every_third),
        ("endings", 6, 3, 400, 23, every_third),
        ("endings", 7, 3, 400, 24, every_third),
        ("endings", 7, 2, 200, 25, every_third),
        ("misere", 3, 5, 1500, 40, all),
        ("misere", 4, 5, 1500, 41, all),
        ("misere", 5, 4, 600, 42, all),
        ("misere", 5, 5, 100, 43, all),
        ("misere", 6, 3, 600, 44, all),
        ("misere", 7, 3, 600, 45, all),
        ("misere", 7, 2, 300, 46, all),
    ]
}

/// A deal and the naive value of every allowed opening lead.
struct SolvedDeal {
    players: usize,
    opening_name: String,
    hands: Vec<CardSet>,
    leads: Vec<(Card, u8)>,
}

/// A position and its naive value. `endgame` positions are also checked against the plain
/// endgame search.
struct SolvedPosition {
    group: String,
    position: Position,
    value: u8,
    /// What the naive search needs to recompute the value.
    raw: ([u64; 7], Vec<u32>, usize),
}

fn solve_deal(players: usize, opening_name: &str, hands: Vec<CardSet>) -> SolvedDeal {
    let leads = naive_opening(&hands, &opening_named(opening_name));
    SolvedDeal {
        players,
        opening_name: opening_name.to_string(),
        hands,
        leads,
    }
}

fn naive_value(position: &Position, raw: &([u64; 7], Vec<u32>, usize)) -> u8 {
    let (mut hands, mut trick, leader) = raw.clone();
    let mut naive = Naive::new(position.players(), position.is_misere());
    naive.trump = position.trump().map(|s| s as u32);
    naive.value(&mut hands, leader, &mut trick)
}

/// The deals of `seeded_deals`, dealt from their seeds: (players, opening, hands).
fn seeded_deal_hands() -> Vec<(usize, &'static str, Vec<CardSet>)> {
    let mut deals = Vec::new();
    for (players, opening, count, seed) in seeded_deals() {
        let mut rng = base_rng(seed);
        for _ in 0..count {
            deals.push((players, opening, random_deal(players, 5, &mut rng)));
        }
    }
    deals
}

/// The positions of `seeded_positions` and the endgame stream, drawn from their seeds.
fn seeded_position_draws() -> Vec<(&'static str, Drawn)> {
    let mut draws = Vec::new();
    for (group, players, size, count, seed, misere) in seeded_positions() {
        let mut rng = base_rng(seed);
        for i in 0..count {
            draws.push((group, random_position(players, size, misere(i), &mut rng)));
        }
    }
    let mut rng = base_rng(26);
    for players in 3..=7 {
        for i in 0..600 {
            let drawn = random_position(players, 1 + i % 3, i % 3 == 2, &mut rng);
            draws.push(("endgame", drawn));
        }
    }
    draws
}

/// A drawn position solved by the naive search.
fn solve_position(group: &str, (position, hands, trick, leader): Drawn) -> SolvedPosition {
    let raw = (hands, trick, leader);
    let value = naive_value(&position, &raw);
    SolvedPosition {
        group: group.to_string(),
        position,
        value,
        raw,
    }
}

const SOLVED_DEALS: &str = "tests/data/solved_deals.csv";
const SOLVED_POSITIONS: &str = "tests/data/solved_positions.csv";

fn hand_text(hand: CardSet) -> String {
    if hand.is_empty() {
        "-".to_string()
    } else {
        hand.to_string()
    }
}

fn parse_set(text: &str) -> CardSet {
    if text == "-" {
        return CardSet::EMPTY;
    }
    napsim::cards::parse_cards(text)
        .unwrap()
        .into_iter()
        .collect()
}

fn stored_deals() -> &'static [SolvedDeal] {
    static ROWS: OnceLock<Vec<SolvedDeal>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let text = std::fs::read_to_string(SOLVED_DEALS).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("players,contract,deal,leads,best"));
        lines
            .map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                let players: usize = fields[0].parse().unwrap();
                let hands: Vec<CardSet> = fields[2].split('/').map(parse_set).collect();
                assert_eq!(hands.len(), players, "{line}");
                let leads = fields[3]
                    .split(' ')
                    .map(|lead| {
                        let (card, value) = lead.split_once(':').unwrap();
                        (card.parse().unwrap(), value.parse().unwrap())
                    })
                    .collect();
                let row = SolvedDeal {
                    players,
                    opening_name: fields[1].to_string(),
                    hands,
                    leads,
                };
                let misere = opening_named(fields[1]).misere;
                assert_eq!(best(&row.leads, misere).to_string(), fields[4], "{line}");
                row
            })
            .collect()
    })
}

fn stored_positions() -> &'static [SolvedPosition] {
    static ROWS: OnceLock<Vec<SolvedPosition>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let text = std::fs::read_to_string(SOLVED_POSITIONS).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("group,players,trump,leader,hands,trick,value")
        );
        lines
            .map(|line| {
                let f: Vec<&str> = line.split(',').collect();
                let hands: Vec<CardSet> = f[4].split('/').map(parse_set).collect();
                assert_eq!(hands.len().to_string(), f[1], "{line}");
                let trick: Vec<Card> = napsim::cards::parse_cards(f[5]).unwrap();
                let leader: usize = f[3].parse().unwrap();
                let (trump, misere) = match f[2] {
                    "misere" => (None, true),
                    suit => (Suit::from_char(suit.chars().next().unwrap()), false),
                };
                let position = Position::new(&hands, 0, trump, misere, leader, &trick).unwrap();
                let raw_trick = trick.iter().map(|c| u32::from(c.index())).collect();
                SolvedPosition {
                    group: f[0].to_string(),
                    position,
                    value: f[6].parse().unwrap(),
                    raw: (raw(&hands), raw_trick, leader),
                }
            })
            .collect()
    })
}

/// Whether the naive search is rerun on every stored answer (`NAPSIM_FULL_MINIMAX=1`).
fn full_minimax() -> bool {
    std::env::var("NAPSIM_FULL_MINIMAX").is_ok_and(|v| v == "1")
}

/// The fast solver's answers for `row` against its naive values: every lead's value, the best
/// value, the capped best, and the target query at every target.
fn check_deal(solver: &mut Solver, row: &SolvedDeal, what: &str) {
    let (hands, opening) = (&row.hands, opening_named(&row.opening_name));
    let context = || format!("{what}: {} {hands:?}", row.opening_name);
    assert_eq!(
        solver.opening(hands, 0, &opening),
        row.leads,
        "{}",
        context()
    );
    let value = best(&row.leads, opening.misere);
    assert_eq!(
        solver.best_opening(hands, 0, &opening),
        value,
        "{}",
        context()
    );
    for cap in [0, 1, 2] {
        assert_eq!(
            solver.best_opening_at_most(hands, 0, &opening, cap),
            value.min(cap),
            "cap {cap}, {}",
            context()
        );
    }
    for t in 0..=5 {
        let can = if opening.misere {
            value <= t
        } else {
            value >= t
        };
        let query = solver.can_make_opening(hands, 0, &opening, t);
        assert_eq!(query, can, "target {t}, {}", context());
    }
}

/// The fast solver's value and every target query against `row`'s naive value; the plain
/// endgame search's too for the endgame group.
fn check_position(solver: &mut Solver, row: &SolvedPosition, what: &str) {
    let (position, expected) = (&row.position, row.value);
    assert_eq!(solver.value(position), expected, "{what}: {position:?}");
    for t in 0..=position.tricks_left() {
        let can = if position.is_misere() {
            expected <= t
        } else {
            expected >= t
        };
        assert_eq!(
            solver.can_make(position, t),
            can,
            "{what}, target {t}: {position:?}"
        );
        if row.group == "endgame" {
            assert_eq!(
                endgame_can_make(position, t),
                can,
                "{what}, endgame search, target {t}: {position:?}"
            );
        }
    }
}

/// Every stored deal at `players` with an opening `which` accepts, one solver kept over all of
/// them (its table reused across deals, as in play); with `NAPSIM_FULL_MINIMAX=1` the naive
/// search recomputes each stored answer too.
fn check_stored_deals(players: usize, which: impl Fn(&str) -> bool) {
    let mut solver = Solver::new(players);
    let rows = stored_deals()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.players == players && which(&r.opening_name));
    let mut count = 0;
    for (i, row) in rows {
        let what = format!("{SOLVED_DEALS} row {}", i + 2);
        if full_minimax() {
            let again = solve_deal(players, &row.opening_name, row.hands.clone());
            assert_eq!(again.leads, row.leads, "{what}: the naive search disagrees");
        }
        check_deal(&mut solver, row, &what);
        count += 1;
    }
    assert!(count > 0, "no stored deals at {players} players");
}

/// Every stored position of `group` at `players`, as above.
fn check_stored_positions(group: &str, players: usize) {
    let mut solver = Solver::new(players);
    let rows = stored_positions()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.group == group && r.position.players() == players);
    let mut count = 0;
    for (i, row) in rows {
        let what = format!("{SOLVED_POSITIONS} row {}", i + 2);
        if full_minimax() {
            let again = naive_value(&row.position, &row.raw);
            assert_eq!(again, row.value, "{what}: the naive search disagrees");
        }
        check_position(&mut solver, row, &what);
        count += 1;
    }
    assert!(
        count > 0,
        "no stored {group} positions at {players} players"
    );
}

#[test]
fn stored_deals_at_three_players() {
    check_stored_deals(3, |_| true);
}

#[test]
fn stored_trump_deals_at_four_players() {
    check_stored_deals(4, |o| o == "trumps");
}

#[test]
fn stored_misere_deals_at_four_players() {
    check_stored_deals(4, |o| o == "misere");
}

#[test]
fn stored_constrained_and_named_openings() {
    check_stored_deals(4, |o| o != "trumps" && o != "misere");
}

#[test]
fn stored_deals_at_five_players() {
    check_stored_deals(5, |_| true);
}

#[test]
fn stored_mid_play_positions_at_three_to_five_players() {
    for players in 3..=5 {
        check_stored_positions("mid-play", players);
    }
}

#[test]
fn stored_six_and_seven_player_endings() {
    check_stored_positions("endings", 6);
    check_stored_positions("endings", 7);
}

/// The plain endgame search answers every target query as the naive minimax does, on endings
/// of up to three cards a hand, mid-trick included, trump and misère, at three to seven players.
#[test]
fn stored_endgames_at_three_to_seven_players() {
    for players in 3..=7 {
        check_stored_positions("endgame", players);
    }
}

/// Misère positions in mid-play, at every table size: the misère bounds (ducking, forced
/// floors, the trick in progress settled before every card is played) and their marks in the
/// table, against the naive search.
#[test]
fn stored_misere_positions_at_three_to_seven_players() {
    for players in 3..=7 {
        check_stored_positions("misere", players);
    }
}

/// The files hold exactly what their seeds deal, so that a changed generator cannot leave
/// stale answers unnoticed: the deals and positions (not their values, which the naive search
/// alone gives) drawn again from the seeds match the stored ones row for row.
#[test]
fn stored_files_hold_what_the_seeds_deal() {
    let stored = stored_deals();
    let seeded = seeded_deal_hands();
    assert_eq!(stored.len(), seeded.len(), "{SOLVED_DEALS}: rows");
    for (row, (players, opening, hands)) in stored.iter().zip(seeded) {
        assert_eq!((row.players, row.opening_name.as_str()), (players, opening));
        assert_eq!(row.hands, hands);
    }
    let stored = stored_positions();
    let seeded = seeded_position_draws();
    assert_eq!(stored.len(), seeded.len(), "{SOLVED_POSITIONS}: rows");
    for (row, (group, (position, ..))) in stored.iter().zip(seeded) {
        assert_eq!(row.group, group);
        assert_eq!(format!("{:?}", row.position), format!("{position:?}"));
    }
}

/// The seed of the fresh sample: `NAPSIM_SOLVER_SEED`, or the clock.
fn fresh_seed() -> u64 {
    match std::env::var("NAPSIM_SOLVER_SEED") {
        Ok(text) => text.parse().expect("NAPSIM_SOLVER_SEED is a whole number"),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    }
}

/// Fresh random deals and positions, new on every run, against the naive search itself: what
/// the stored answers cannot catch (a bug on deals no seed drew) has a new chance every run.
#[test]
fn fresh_deals_and_positions_against_the_naive_search() {
    let seed = fresh_seed();
    let what = format!("fresh sample, NAPSIM_SOLVER_SEED={seed}");
    let mut rng = base_rng(seed);
    for (players, opening, count) in [
        (3, "trumps", 120),
        (3, "misere", 80),
        (4, "trumps", 60),
        (4, "misere", 40),
        (4, "lowest-of-suit", 20),
        (4, "misere-first-lead", 20),
        (5, "trumps", 6),
        (5, "misere", 6),
    ] {
        let mut solver = Solver::new(players);
        for _ in 0..count {
            let row = solve_deal(players, opening, random_deal(players, 5, &mut rng));
            check_deal(&mut solver, &row, &what);
        }
    }
    for (players, size, count) in [(3, 5, 60), (4, 5, 40), (5, 4, 20), (6, 3, 40), (7, 2, 40)] {
        let mut solver = Solver::new(players);
        for i in 0..count {
            let drawn = random_position(players, size, i % 2 == 1, &mut rng);
            let group = if size <= 3 { "endgame" } else { "mid-play" };
            check_position(&mut solver, &solve_position(group, drawn), &what);
        }
    }
}

/// The top ranks of every suit, just enough of them for `cards` cards: dealt from so short a
/// pack, nearly every card has a close rival in another hand, and a seat often holds nothing
/// but high cards.
fn short_pack(cards: usize) -> CardSet {
    let ranks = cards.div_ceil(4) as u8;
    CardSet::FULL
        .into_iter()
        .filter(|c| c.index() % 16 > 14 - ranks)
        .collect()
}

/// Positions dealt from the short pack against the naive search, trump contracts and misères
/// in turn: the bounds meet their corner cases there (a defender holding nothing but high
/// cards, the high cards of several defenders in one suit) far more often than in deals from
/// the full pack. A fixed sample and a fresh one.
#[test]
fn short_pack_positions_against_the_naive_search() {
    for seed in [7, fresh_seed()] {
        let what = format!("short pack, NAPSIM_SOLVER_SEED={seed}");
        let mut rng = base_rng(seed);
        for (players, size, count) in [(3, 5, 150), (4, 4, 150), (5, 3, 100), (4, 5, 50)] {
            let mut solver = Solver::new(players);
            let pack = short_pack(players * size);
            for i in 0..scaled(count) {
                let drawn = random_position_from(pack, players, size, i % 2 == 1, &mut rng);
                check_position(&mut solver, &solve_position("short", drawn), &what);
            }
        }
    }
}

/// Writes both stored files from their seeds with the naive minimax (about two minutes):
/// `cargo test --profile suite --test solver -- --ignored write_solved_files`.
#[test]
#[ignore]
fn write_solved_files() {
    let mut text = String::from("players,contract,deal,leads,best\n");
    let deals = seeded_deal_hands().into_iter();
    for row in deals.map(|(players, opening, hands)| solve_deal(players, opening, hands)) {
        let deal: Vec<String> = row.hands.iter().map(|&h| hand_text(h)).collect();
        let leads: Vec<String> = row.leads.iter().map(|(c, v)| format!("{c}:{v}")).collect();
        let misere = opening_named(&row.opening_name).misere;
        text += &format!(
            "{},{},{},{},{}\n",
            row.players,
            row.opening_name,
            deal.join("/"),
            leads.join(" "),
            best(&row.leads, misere)
        );
    }
    std::fs::write(SOLVED_DEALS, text).unwrap();
    let mut text = String::from("group,players,trump,leader,hands,trick,value\n");
    let positions = seeded_position_draws().into_iter();
    for row in positions.map(|(group, drawn)| solve_position(group, drawn)) {
        let p = &row.position;
        let leader = row.raw.2;
        let hands: Vec<String> = (0..p.players()).map(|s| hand_text(p.hand(s))).collect();
        let trick: Vec<String> = p.trick().iter().map(|c| c.to_string()).collect();
        let trump = match p.trump() {
            _ if p.is_misere() => "misere".to_string(),
            Some(suit) => suit.letter().to_string(),
            None => unreachable!("a trump contract names its trump"),
        };
        text += &format!(
            "{},{},{trump},{leader},{},{},{}\n",
            row.group,
            p.players(),
            hands.join("/"),
            trick.join(" "),
            row.value
        );
    }
    std::fs::write(SOLVED_POSITIONS, text).unwrap();
}

/// A drawn position: the position, the hands as the naive search holds them, the trick's card
/// indices and its leader.
type Drawn = (Position, [u64; 7], Vec<u32>, usize);

/// Plays `count` random legal cards from the start of a deal, the declarer (seat 0) leading.
fn random_position(players: usize, size: usize, misere: bool, rng: &mut SimRng) -> Drawn {
    random_position_from(CardSet::FULL, players, size, misere, rng)
}

/// [`random_position`] with the hands dealt from `pack`.
fn random_position_from(
    pack: CardSet,
    players: usize,
    size: usize,
    misere: bool,
    rng: &mut SimRng,
) -> Drawn {
    let mut hands = random_deal_from(pack, players, size, rng);
    let trump = if misere {
        None
    } else {
        Some(Suit::ALL[below(rng, 4) as usize])
    };
    let mut leader = 0;
    let mut trick: Vec<Card> = Vec::new();
    let plays = below(rng, (size * players - 1) as u64) as usize;
    for _ in 0..plays {
        let seat = (leader + trick.len()) % players;
        let legal = match trick.first() {
            Some(led) => hands[seat].follow(led.suit()),
            None => hands[seat],
        };
        let cards: Vec<Card> = legal.into_iter().collect();
        let card = cards[below(rng, cards.len() as u64) as usize];
        hands[seat].remove(card);
        trick.push(card);
        if trick.len() == players {
            leader = (leader + napsim::game::trick_winner(&trick, 0, players, trump)) % players;
            trick.clear();
        }
    }
    let position = Position::new(&hands, 0, trump, misere, leader, &trick).unwrap();
    let raw_trick = trick.iter().map(|c| u32::from(c.index())).collect();
    (position, raw(&hands), raw_trick, leader)
}

/// Deals to run in the comparisons of two fast solvers: the full count in release, a tenth
/// under the checked profile (debug assertions make the searches several times slower; the
/// release run covers the count).
fn scaled(deals: usize) -> usize {
    if cfg!(debug_assertions) {
        deals / 10
    } else {
        deals
    }
}

/// Table entries that generalise over small cards never change an answer: one solver kept
/// over many deals (its entries reused across deals) agrees with a solver whose entries key
/// every live card exactly, lead by lead and on positions in mid-play, at six and seven
/// players, where the naive search is too slow for full deals.
#[test]
fn generalised_entries_agree_with_exact_keys() {
    for (players, deals, seed) in [(6, 300, 30), (7, 300, 31)] {
        let mut rng = base_rng(seed);
        let mut general = Solver::new(players);
        let mut exact = Solver::with_exact_keys(players);
        for deal in 0..scaled(deals) {
            let hands = random_deal(players, 5, &mut rng);
            let opening = if deal % 3 == 2 {
                Opening::MISERE
            } else {
                Opening::TRUMPS
            };
            assert_eq!(
                general.opening(&hands, 0, &opening),
                exact.opening(&hands, 0, &opening),
                "deal {deal} at {players} players: {hands:?}"
            );
            let (position, ..) = random_position(players, 5, deal % 3 == 2, &mut rng);
            assert_eq!(
                general.value(&position),
                exact.value(&position),
                "position {deal} at {players} players: {position:?}"
            );
        }
    }
}

/// The same for misères only, whose bounds mark cards of their own, at five to seven players.
#[test]
fn misere_generalised_entries_agree_with_exact_keys() {
    for (players, deals, seed) in [(5, 300, 47), (6, 150, 48), (7, 80, 49)] {
        let mut rng = base_rng(seed);
        let mut general = Solver::new(players);
        let mut exact = Solver::with_exact_keys(players);
        for deal in 0..scaled(deals) {
            let hands = random_deal(players, 5, &mut rng);
            assert_eq!(
                general.opening(&hands, 0, &Opening::MISERE),
                exact.opening(&hands, 0, &Opening::MISERE),
                "deal {deal} at {players} players: {hands:?}"
            );
            let (position, ..) = random_position(players, 5, true, &mut rng);
            assert_eq!(
                general.value(&position),
                exact.value(&position),
                "position {deal} at {players} players: {position:?}"
            );
        }
    }
}

/// A card's answer from [`Solver::can_make_after`], and the answer it gives for every card it
/// names alike, agree with a solver with exact keys valuing the position after each card:
/// PIMC counts an alike card's world without searching it, so a wrong "alike" would change
/// its play.
#[test]
fn a_card_and_the_cards_alike_to_it_reach_what_the_exact_solver_says() {
    let (mut named, mut checked) = (0, 0);
    for (players, count, seed) in [(3, 300, 60), (4, 400, 61), (5, 200, 62), (7, 100, 63)] {
        let mut rng = base_rng(seed);
        let mut general = Solver::new(players);
        let mut exact = Solver::with_exact_keys(players);
        for i in 0..scaled(count) {
            let (position, ..) = random_position(players, 5, i % 3 == 2, &mut rng);
            let reached = |exact: &mut Solver, card: Card, tricks: u8| {
                let (next, gained) = position.after(card);
                let value = gained + exact.value(&next);
                if position.is_misere() {
                    value <= tricks
                } else {
                    value >= tricks
                }
            };
            for tricks in 0..=position.tricks_left() {
                for card in position.legal() {
                    let outcome = general.can_make_after(&position, card, tricks);
                    let truth = reached(&mut exact, card, tricks);
                    assert_eq!(outcome.reached, truth, "{card}, {tricks}: {position:?}");
                    assert!(!outcome.alike.contains(card));
                    for alike in outcome.alike {
                        assert!(position.legal().contains(alike));
                        assert_eq!(
                            reached(&mut exact, alike, tricks),
                            truth,
                            "{alike} alike {card}, {tricks}: {position:?}"
                        );
                        named += 1;
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(named > checked / 20, "{named} alike cards in {checked}");
}
