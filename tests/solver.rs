//! The double-dummy solver against a deliberately naive minimax, and a golden file.
//!
//! The naive search below knows only the rules (follow suit; the highest trump, or else the
//! highest card of the suit led, wins; the winner leads) and tries every legal card at every
//! turn: no pruning, no bounds, no relative ranks, no equivalent cards. Its one concession to
//! time is a memo of exact positions (every hand, the leader, trump) at trick starts, which
//! changes no value; without it a five-player deal takes seconds. The fast solver must agree
//! with it exactly, lead by lead, on 10,000 seeded deals at 3 to 5 players (trump and misère,
//! free and constrained leads) and on random positions in mid-play at up to 7 players.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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
    let mut pack: Vec<Card> = CardSet::FULL.into_iter().collect();
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

/// Deals to run: the full count in release, a tenth under the checked profile (debug
/// assertions make both searches several times slower; the release run covers the count).
fn scaled(deals: usize) -> usize {
    if cfg!(debug_assertions) {
        deals / 10
    } else {
        deals
    }
}

fn check_deals(players: usize, deals: usize, seed: u64, opening: &Opening) {
    let mut rng = base_rng(seed);
    let mut solver = Solver::new(players);
    for deal in 0..scaled(deals) {
        let hands = random_deal(players, 5, &mut rng);
        let expected = naive_opening(&hands, opening);
        let got = solver.opening(&hands, 0, opening);
        assert_eq!(got, expected, "deal {deal} at {players} players: {hands:?}");
        // The best value and the target query agree with the values at every threshold.
        let value = best(&expected, opening.misere);
        assert_eq!(
            solver.best_opening(&hands, 0, opening),
            value,
            "deal {deal}: {hands:?}"
        );
        for cap in [0, 1, 2] {
            assert_eq!(
                solver.best_opening_at_most(&hands, 0, opening, cap),
                value.min(cap),
                "deal {deal}, cap {cap}: {hands:?}"
            );
        }
        for t in 0..=5 {
            let can = if opening.misere {
                value <= t
            } else {
                value >= t
            };
            let query = solver.can_make_opening(&hands, 0, opening, t);
            assert_eq!(query, can, "deal {deal}, target {t}: {hands:?}");
        }
    }
}

#[test]
fn three_players_trump() {
    check_deals(3, 3000, 1, &Opening::TRUMPS);
}

#[test]
fn three_players_misere() {
    check_deals(3, 2000, 2, &Opening::MISERE);
}

#[test]
fn four_players_trump() {
    check_deals(4, 2400, 3, &Opening::TRUMPS);
}

#[test]
fn four_players_misere() {
    check_deals(4, 1500, 4, &Opening::MISERE);
}

#[test]
fn five_players_trump() {
    check_deals(5, 300, 5, &Opening::TRUMPS);
}

#[test]
fn five_players_misere() {
    check_deals(5, 200, 6, &Opening::MISERE);
}

#[test]
fn constrained_and_named_openings() {
    // Bonaparte leads the lowest of a suit; Peep Nap's Wellington names trump and leads the
    // lowest side card; a misère whose first lead names trump.
    let bonaparte = Opening {
        trump: TrumpChoice::FirstLead,
        lead: LeadRule::LowestOfSuit,
        misere: false,
    };
    check_deals(4, 200, 7, &bonaparte);
    for (i, suit) in Suit::ALL.into_iter().enumerate() {
        let wellington = Opening {
            trump: TrumpChoice::Named(suit),
            lead: LeadRule::LowestNonTrump,
            misere: false,
        };
        check_deals(4, 50, 8 + i as u64, &wellington);
    }
    let trump_misere = Opening {
        trump: TrumpChoice::FirstLead,
        lead: LeadRule::Any,
        misere: true,
    };
    check_deals(4, 200, 12, &trump_misere);
}

/// Plays `count` random legal cards from the start of a deal, the declarer (seat 0) leading.
fn random_position(
    players: usize,
    size: usize,
    misere: bool,
    rng: &mut SimRng,
) -> (Position, [u64; 7], Vec<u32>, usize) {
    let mut hands = random_deal(players, size, rng);
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

fn check_positions(players: usize, size: usize, count: usize, seed: u64) {
    check_positions_with(players, size, count, seed, |i| i % 3 == 2);
}

/// Random positions checked against the naive search (value and every target query), one
/// solver kept over all of them; `misere` says which are misères.
fn check_positions_with(
    players: usize,
    size: usize,
    count: usize,
    seed: u64,
    misere: impl Fn(usize) -> bool,
) {
    let mut rng = base_rng(seed);
    let mut solver = Solver::new(players);
    for i in 0..scaled(count) {
        let misere = misere(i);
        let (position, mut hands, mut trick, leader) =
            random_position(players, size, misere, &mut rng);
        let mut naive = Naive::new(players, misere);
        naive.trump = position.trump().map(|s| s as u32);
        let expected = naive.value(&mut hands, leader, &mut trick);
        assert_eq!(
            solver.value(&position),
            expected,
            "position {i}: {position:?}"
        );
        for t in 0..=position.tricks_left() {
            let can = if misere { expected <= t } else { expected >= t };
            assert_eq!(
                solver.can_make(&position, t),
                can,
                "position {i}, target {t}"
            );
        }
    }
}

#[test]
fn mid_play_positions_at_three_to_five_players() {
    check_positions(3, 5, 1000, 20);
    check_positions(4, 5, 1000, 21);
    check_positions(5, 4, 300, 22);
}

#[test]
fn six_and_seven_player_endings() {
    // A naive search of a full seven-player deal takes minutes: endings of three cards or
    // fewer in each hand.
    check_positions(6, 3, 400, 23);
    check_positions(7, 3, 400, 24);
    check_positions(7, 2, 200, 25);
}

/// The plain endgame search answers every target query as the naive minimax does, on endings
/// of up to three cards a hand, mid-trick included, trump and misère, at three to seven players.
#[test]
fn endgame_search_agrees_with_naive() {
    let mut rng = base_rng(26);
    for players in 3..=7 {
        for i in 0..scaled(600) {
            let misere = i % 3 == 2;
            let size = 1 + i % 3;
            let (position, mut hands, mut trick, leader) =
                random_position(players, size, misere, &mut rng);
            let mut naive = Naive::new(players, misere);
            naive.trump = position.trump().map(|s| s as u32);
            let expected = naive.value(&mut hands, leader, &mut trick);
            for t in 0..=position.tricks_left() {
                let can = if misere { expected <= t } else { expected >= t };
                assert_eq!(
                    endgame_can_make(&position, t),
                    can,
                    "{players}p position {i}, target {t}: {position:?}"
                );
            }
        }
    }
}

/// Misère positions in mid-play, at every table size: the misère bounds (ducking, forced
/// floors, the trick in progress settled before every card is played) and their marks in the
/// table, against the naive search.
#[test]
fn misere_positions_at_three_to_seven_players() {
    let all = |_| true;
    check_positions_with(3, 5, 1500, 40, all);
    check_positions_with(4, 5, 1500, 41, all);
    check_positions_with(5, 4, 600, 42, all);
    check_positions_with(5, 5, 100, 43, all);
    check_positions_with(6, 3, 600, 44, all);
    check_positions_with(7, 3, 600, 45, all);
    check_positions_with(7, 2, 300, 46, all);
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

/// The golden file: deals solved by the naive minimax above, one row per deal.
const GOLDEN: &str = "tests/data/solved_deals.csv";

fn golden_rows() -> Vec<(usize, bool, Vec<CardSet>)> {
    let mut rows = Vec::new();
    for (players, misere, count, seed) in [
        (3, false, 60, 101),
        (4, false, 60, 102),
        (5, false, 30, 103),
        (4, true, 30, 104),
    ] {
        let mut rng = base_rng(seed);
        for _ in 0..count {
            rows.push((players, misere, random_deal(players, 5, &mut rng)));
        }
    }
    rows
}

fn opening_of(misere: bool) -> Opening {
    if misere {
        Opening::MISERE
    } else {
        Opening::TRUMPS
    }
}

/// Writes the golden file with the naive minimax: `cargo test --release --test solver --
/// --ignored write_golden_file`.
#[test]
#[ignore]
fn write_golden_file() {
    let mut text = String::from("players,contract,deal,leads,best\n");
    for (players, misere, hands) in golden_rows() {
        let opening = opening_of(misere);
        let values = naive_opening(&hands, &opening);
        let deal: Vec<String> = hands.iter().map(|h| h.to_string()).collect();
        let leads: Vec<String> = values.iter().map(|(c, v)| format!("{c}:{v}")).collect();
        let contract = if misere { "misere" } else { "trumps" };
        text += &format!(
            "{players},{contract},{},{},{}\n",
            deal.join("/"),
            leads.join(" "),
            best(&values, misere)
        );
    }
    std::fs::write(GOLDEN, text).unwrap();
}

#[test]
fn golden_file_of_solved_deals() {
    let text = std::fs::read_to_string(GOLDEN).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("players,contract,deal,leads,best"));
    let mut rows = 0;
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        let players: usize = fields[0].parse().unwrap();
        let misere = fields[1] == "misere";
        let hands: Vec<CardSet> = fields[2]
            .split('/')
            .map(|h| napsim::cards::parse_hand(h, 5).unwrap())
            .collect();
        assert_eq!(hands.len(), players);
        let mut solver = Solver::new(players);
        let opening = opening_of(misere);
        let got: Vec<String> = solver
            .opening(&hands, 0, &opening)
            .iter()
            .map(|(c, v)| format!("{c}:{v}"))
            .collect();
        assert_eq!(got.join(" "), fields[3], "{line}");
        let best: u8 = fields[4].parse().unwrap();
        assert_eq!(solver.best_opening(&hands, 0, &opening), best, "{line}");
        rows += 1;
    }
    assert_eq!(rows, 180);
}
