//! Nodes per target query for one deal (`cargo run --release --example solver_one -- "h0/h1/..."`).
use napsim::analysis::solve::parse_solve_deal;
use napsim::rules::Profile;
use napsim::solver::{Opening, Solver};

fn main() {
    let text = std::env::args().nth(1).expect("a deal");
    let hands = parse_solve_deal(&text, &Profile::default_profile()).unwrap();
    for lead in hands[0].iter_desc() {
        for t in 1..=3 {
            let mut solver = Solver::new(hands.len());
            let one = Opening::TRUMPS;
            // Only this lead: solve the position after it.
            let made = solver.can_make_after_lead(&hands, 0, &one, lead, t);
            println!("lead {lead} target {t}: {made} in {} nodes", solver.nodes());
        }
    }
}
