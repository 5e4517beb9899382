//! Node counts over the deals of `napsim solve --random N --players P --seed S` (same deals, one
//! reused solver): the total and the deals with the most nodes, which are repeatable where
//! times are not (`cargo run --release --example solver_tail -- P N S`). The fingerprint of
//! every deal's value compares two builds of the solver; `PRINT=1` lists the values, `MISERE=1`
//! solves misères instead of trump contracts.
use napsim::analysis::solve::random_hands;
use napsim::cards::Card;
use napsim::rng::base_rng;
use napsim::rules::Profile;
use napsim::solver::{Opening, Solver};

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
    let opening = if std::env::var("MISERE").is_ok() {
        Opening::MISERE
    } else {
        Opening::TRUMPS
    };
    let mut solver = Solver::new(players);
    let mut rows = Vec::new();
    for i in 0..deals {
        let hands = random_hands(&pack, players, &mut rng);
        let before = solver.nodes();
        let best = solver.best_opening(&hands, 0, &opening);
        let text: Vec<String> = hands.iter().map(|h| h.to_string()).collect();
        if std::env::var("PRINT").is_ok() {
            println!("{i} {best} {}", text.join("/"));
        }
        rows.push((solver.nodes() - before, i, best, text.join("/")));
    }
    let total: u64 = rows.iter().map(|r| r.0).sum();
    // A fingerprint of every deal's value, to compare variants of the solver.
    let check = rows.iter().fold(0u64, |a, r| {
        (a ^ (r.1 << 3 | u64::from(r.2))).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    });
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    println!(
        "{players}p seed {seed}: {} nodes/deal, max {}, values {check:016x}",
        total / deals,
        rows[0].0
    );
    for r in rows.iter().take(3) {
        println!("  {} nodes deal {} best {}: {}", r.0, r.1, r.2, r.3);
    }
}
