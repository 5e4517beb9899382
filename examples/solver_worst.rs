//! The slowest deals of `napsim solve --random N --players P --seed S` (same deals):
//! `cargo run --release --example solver_worst -- P N S`.
use napsim::analysis::solve::random_hands;
use napsim::cards::Card;
use napsim::rng::base_rng;
use napsim::rules::Profile;
use napsim::solver::{Opening, Solver};
use std::time::Instant;

fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    let (players, deals, seed) = (a[0] as usize, a[1], a[2]);
    let pack: Vec<Card> = Profile::default_profile()
        .pack(players)
        .into_iter()
        .collect();
    let mut rng = base_rng(seed);
    let mut solver = Solver::new(players);
    let mut worst = Vec::new();
    for i in 0..deals {
        let hands = random_hands(&pack, players, &mut rng);
        let (start, nodes) = (Instant::now(), solver.nodes());
        let best = solver.best_opening(&hands, 0, &Opening::TRUMPS);
        let us = start.elapsed().as_secs_f64() * 1e6;
        let text: Vec<String> = hands.iter().map(|h| h.to_string()).collect();
        worst.push((us, i, best, solver.nodes() - nodes, text.join("/")));
    }
    worst.sort_by(|x, y| y.0.total_cmp(&x.0));
    for w in worst.iter().take(4) {
        println!(
            "{:.0} us deal {} best {} nodes {}: {}",
            w.0, w.1, w.2, w.3, w.4
        );
    }
}
