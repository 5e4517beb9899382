//! Solver measurements: nodes and time per deal (`cargo run --release --example solver_profile -- 4 2000`).
use napsim::analysis::solve::random_hands;
use napsim::cards::Card;
use napsim::rng::base_rng;
use napsim::rules::Profile;
use napsim::solver::{Opening, Solver};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).map_or(4, |a| a.parse().unwrap());
    let deals: usize = args.get(2).map_or(2000, |a| a.parse().unwrap());
    let profile = Profile::default_profile();
    let pack: Vec<Card> = profile.pack(players).into_iter().collect();
    let mut rng = base_rng(1);
    let hands: Vec<_> = (0..deals)
        .map(|_| random_hands(&pack, players, &mut rng))
        .collect();
    for what in ["all leads", "best only", "target 3"] {
        let mut solver = Solver::new(players);
        let start = Instant::now();
        let mut sum = 0u64;
        for h in &hands {
            sum += match what {
                "all leads" => solver.opening(h, 0, &Opening::TRUMPS).len() as u64,
                "best only" => u64::from(solver.best_opening(h, 0, &Opening::TRUMPS)),
                _ => u64::from(solver.can_make_opening(h, 0, &Opening::TRUMPS, 3)),
            };
        }
        let el = start.elapsed();
        println!(
            "{players}p {what:>10}: {:.1} us/deal, {} nodes/deal ({sum})",
            el.as_secs_f64() * 1e6 / deals as f64,
            solver.nodes() / deals as u64
        );
    }
    if std::env::var("PER_DEAL").is_ok() {
        per_deal(players, deals);
    }
}

#[allow(dead_code)]
fn per_deal(players: usize, deals: usize) {
    let profile = Profile::default_profile();
    let pack: Vec<Card> = profile.pack(players).into_iter().collect();
    let mut rng = base_rng(1);
    let mut solver = Solver::new(players);
    let mut rows = Vec::new();
    for _ in 0..deals {
        let h = random_hands(&pack, players, &mut rng);
        let before = solver.nodes();
        let made = solver.best_opening(&h, 0, &Opening::TRUMPS);
        rows.push((solver.nodes() - before, made, h));
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    for r in rows.iter().take(5) {
        let hands: Vec<String> = r.2.iter().map(|h| h.to_string()).collect();
        println!("{} nodes best={} {}", r.0, r.1, hands.join(" / "));
    }
    let total: u64 = rows.iter().map(|r| r.0).sum();
    let top: u64 = rows.iter().take(deals / 20).map(|r| r.0).sum();
    println!(
        "top 5% of deals: {:.0}% of nodes",
        100.0 * top as f64 / total as f64
    );
}
