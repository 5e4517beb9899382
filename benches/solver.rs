//! Solver speed, per thread: the exact value of a deal including the choice of opening lead
//! and a target query at 4 players, the exact value at 7 players, and a PIMC decision at the
//! opening lead with 100 worlds at 4 players.
//!
//! `cargo bench --bench solver`; the figures are reported in the issue notes.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use napsim::analysis::solve::random_hands;
use napsim::bots::play_policy;
use napsim::cards::{Card, CardSet};
use napsim::game::{Call, DealState};
use napsim::policy::PlayView;
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
        group.bench_function(format!("{players}p value with lead choice"), |b| {
            b.iter_batched(
                || Solver::new(players),
                |mut solver| {
                    let total: u32 = hands
                        .iter()
                        .map(|h| u32::from(solver.best_opening(h, 0, &Opening::TRUMPS)))
                        .sum();
                    // Known answer: every value is a trick count of the deal.
                    assert!(total <= 5 * count as u32);
                    black_box(total)
                },
                BatchSize::LargeInput,
            )
        });
        if players == 4 {
            group.bench_function("4p target query (three)", |b| {
                b.iter_batched(
                    || Solver::new(players),
                    |mut solver| {
                        let made = hands
                            .iter()
                            .filter(|h| solver.can_make_opening(h, 0, &Opening::TRUMPS, 3))
                            .count();
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
                    black_box(pimc.play(&view, &mut rng));
                }
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
