//! Time and nodes of `best_opening` on given deals, fresh solver each, median of R runs
//! (`cargo run --release --example solver_time -- R "deal" ...`).
use napsim::analysis::solve::parse_solve_deal;
use napsim::rules::Profile;
use napsim::solver::{Opening, Solver};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args[0].parse().unwrap();
    for text in &args[1..] {
        let hands = parse_solve_deal(text, &Profile::default_profile()).unwrap();
        let mut times = Vec::new();
        let mut nodes = 0;
        for _ in 0..runs {
            let mut solver = Solver::new(hands.len());
            let start = Instant::now();
            let best = solver.best_opening(&hands, 0, &Opening::TRUMPS);
            times.push(start.elapsed().as_secs_f64() * 1e3);
            nodes = solver.nodes();
            std::hint::black_box(best);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{:.2} ms median ({:.2} min), {nodes} nodes",
            times[runs / 2],
            times[0]
        );
    }
}
