//! Solver speed, per thread: the exact value of a deal including the choice of opening lead
//! and a target query at 4 players, the exact value at 7 players (a trump contract and a
//! misère), a PIMC decision at the opening lead with 100 worlds and whole deals played by PIMC
//! with 16 worlds at 4 players; and the deals of the golden file.
//!
//! Every iteration checks a known answer, so that a wrong solver cannot be measured as a fast
//! one: the golden file's values (`tests/data/solved_deals.csv`, computed by the naive minimax
//! of `tests/solver/solver_tests.rs`; the bench keeps to its last 180 deals, the first golden
//! file), and for the random deals the distribution of their best values, pinned (`KNOWN_*`),
//! against which the target queries are checked too (a deal makes three exactly when its best
//! value is three or more: two different searches must agree).
//!
//! `cargo bench --bench solver`; the figures are reported in the issue notes.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use napsim::analysis::solve::random_hands;
use napsim::bots::play_policy;
use napsim::cards::{Card, CardSet};
use napsim::game::{Call, DealState};
use napsim::policy::{Pass, PlayView, Table, play_out};
use napsim::rng::base_rng;
use napsim::rules::Profile;
use napsim::solver::{Opening, Solver, reset_thread_solver};

fn deals(players: usize, count: usize) -> Vec<Vec<CardSet>> {
    let profile = Profile::default_profile();
    let pack: Vec<Card> = profile.pack(players).into_iter().collect();
    let mut rng = base_rng(2026);
    (0..count)
        .map(|_| random_hands(&pack, players, &mut rng))
        .collect()
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    for (players, count) in [(4usize, 2000usize), (7, 200)] {
        let hands = deals(players, count);
        group.throughput(Throughput::Elements(count as u64));
        // A fresh solver per iteration (made outside the timing): its table must not remember
        // the same deals from the previous iteration.
        // The same 4p deals as misères too: `solve --random --misere` beside the trump contract.
        // At 7p the misère is the slow case (`napsim hand` with Misère at seven players).
        let mut cases = vec![("", Opening::TRUMPS, KNOWN_4P)];
        if players == 4 {
            cases.push(("misere ", Opening::MISERE, KNOWN_4P_MISERE));
        } else {
            cases[0].2 = KNOWN_7P;
            cases.push(("misere ", Opening::MISERE, KNOWN_7P_MISERE));
        }
        for (kind, opening, known) in cases {
            group.bench_function(format!("{players}p {kind}value with lead choice"), |b| {
                b.iter_batched(
                    || Solver::new(players),
                    |mut solver| {
                        let mut values = [0u32; 6];
                        for h in &hands {
                            values[usize::from(solver.best_opening(h, 0, &opening))] += 1;
                        }
                        assert_eq!(
                            values, known,
                            "{players}p {kind}: deals by best value, {count} deals of seed 2026"
                        );
                        black_box(values)
                    },
                    BatchSize::LargeInput,
                )
            });
        }
        if players == 4 {
            group.bench_function("4p target query (three)", |b| {
                b.iter_batched(
                    || Solver::new(players),
                    |mut solver| {
                        let made = hands
                            .iter()
                            .filter(|h| solver.can_make_opening(h, 0, &Opening::TRUMPS, 3))
                            .count() as u32;
                        assert_eq!(made, KNOWN_4P[3..].iter().sum::<u32>(), "4p: makes three");
                        black_box(made)
                    },
                    BatchSize::LargeInput,
                )
            });
        }
    }
    // A PIMC decision at the opening lead: the declarer (eldest, bidding Three) chooses among
    // its cards with 100 worlds.
    let profile = Profile::default_profile();
    let pimc = play_policy("pimc:worlds=100", &profile).unwrap();
    let openings: Vec<DealState> = deals(4, 50)
        .iter()
        .map(|h| {
            let mut state = DealState::new(&profile, 3, h);
            state
                .call(Call::Bid(profile.bid_id("three").unwrap()))
                .unwrap();
            for _ in 0..3 {
                state.call(Call::Pass).unwrap();
            }
            state
        })
        .collect();
    group.throughput(Throughput::Elements(openings.len() as u64));
    group.bench_function("4p pimc opening lead, 100 worlds", |b| {
        let mut rng = base_rng(1);
        b.iter_batched(
            reset_thread_solver,
            |()| {
                for state in &openings {
                    let view = PlayView::new(state);
                    let card = pimc.play(&view, &mut rng);
                    assert!(view.legal().contains(card), "{card} is not a legal lead");
                    black_box(card);
                }
            },
            BatchSize::LargeInput,
        )
    });
    // Whole deals played by PIMC at every seat with 16 worlds, from the same openings: every kind
    // of decision (leads, follows, declarer and defenders) in the proportions of a simulation.
    let pimc16 = play_policy("pimc:worlds=16", &profile).unwrap();
    let table = Table::uniform(&Pass, pimc16.as_ref());
    group.throughput(Throughput::Elements(openings.len() as u64));
    group.bench_function("4p pimc whole deal, 16 worlds", |b| {
        b.iter_batched(
            reset_thread_solver,
            |()| {
                let mut rng = base_rng(1);
                let mut made = 0;
                for state in &openings {
                    let mut state = state.clone();
                    play_out(&mut state, &table, &mut rng);
                    made += u32::from(state.made().expect("a finished contract"));
                }
                assert_eq!(
                    made,
                    KNOWN_PIMC_MADE,
                    "contracts made of {}",
                    openings.len()
                );
                black_box(made)
            },
            BatchSize::LargeInput,
        )
    });
    // The golden file: every deal's value against the naive minimax's.
    let golden = golden_deals();
    group.throughput(Throughput::Elements(golden.len() as u64));
    group.bench_function("golden file deals, 3-5p", |b| {
        b.iter(|| {
            for (line, hands, opening, best) in &golden {
                let mut solver = Solver::new(hands.len());
                let value = solver.best_opening(hands, 0, opening);
                assert_eq!(value, *best, "{GOLDEN} line {line}");
                black_box(value);
            }
        })
    });
    group.finish();
}

/// Deals by best value (0 to 5 tricks) among the benches' random deals (`deals(4, 2000)` and
/// `deals(7, 200)`): a known answer, pinned.
const KNOWN_4P: [u32; 6] = [177, 575, 599, 424, 187, 38];
const KNOWN_7P: [u32; 6] = [54, 80, 38, 25, 2, 1];
/// The same 7p deals played as misères (the declarer's fewest tricks).
const KNOWN_7P_MISERE: [u32; 6] = [48, 64, 70, 16, 2, 0];
/// The same 4p deals played as misères (the declarer's fewest tricks).
const KNOWN_4P_MISERE: [u32; 6] = [421, 645, 596, 256, 52, 30];
/// Contracts of Three made when PIMC (16 worlds, policy stream of seed 1) plays out the 50
/// openings at every seat: a known answer, pinned.
const KNOWN_PIMC_MADE: u32 = 17;

const GOLDEN: &str = "tests/data/solved_deals.csv";

/// The golden file's deals: line number, hands, contract and best value.
fn golden_deals() -> Vec<(usize, Vec<CardSet>, Opening, u8)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = text.lines().count();
    // The file ends with the first golden file's 180 deals (seeds 101 to 104): the bench keeps
    // to them, so that its figures compare with earlier ones.
    text.lines()
        .enumerate()
        .skip(lines - 180)
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            let hands = fields[2]
                .split('/')
                .map(|h| napsim::cards::parse_hand(h, 5).unwrap())
                .collect();
            let opening = match fields[1] {
                "misere" => Opening::MISERE,
                "trumps" => Opening::TRUMPS,
                other => panic!(
                    "{GOLDEN} line {}: not one of the first deals: {other}",
                    i + 1
                ),
            };
            (i + 1, hands, opening, fields[4].parse().unwrap())
        })
        .collect()
}

criterion_group!(benches, solver);
criterion_main!(benches);
