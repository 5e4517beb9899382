//! Whole-deal throughput: heuristic and expert self-play at four players on one thread, through
//! the same block function `napsim simulate` runs. Reports deals per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use napsim::analysis::simulate::{SimulateConfig, simulate_block};
use napsim::bots::{bid_policy, play_policy};
use napsim::rng::block_streams;
use napsim::rules::Profile;
use napsim::sim::Block;

const DEALS: u64 = 10_000;

fn bench_simulate(c: &mut Criterion) {
    let profile = Profile::default_profile();
    let mut group = c.benchmark_group("simulate");
    group.throughput(Throughput::Elements(DEALS));
    for (bid_spec, play_spec, known_made) in [
        ("always:bid=three", "heuristic", KNOWN_THREE_MADE),
        ("threshold", "heuristic", KNOWN_THRESHOLD_MADE),
        ("threshold", "expert", KNOWN_EXPERT_MADE),
    ] {
        let bid = bid_policy(bid_spec, &profile).unwrap();
        let play = play_policy(play_spec, &profile).unwrap();
        let config = SimulateConfig {
            profile: &profile,
            players: 4,
            deals: DEALS,
            seed: 7,
            bid: bid.as_ref(),
            play: play.as_ref(),
        };
        let block = || {
            let (deal_rng, policy_rng) = block_streams(7, 0);
            Block {
                index: 0,
                len: DEALS,
                deal_rng,
                policy_rng,
                abandoned: None,
            }
        };
        // Known answer, in every iteration: a wrong engine cannot be measured as a fast one.
        let check = |tally: &napsim::analysis::simulate::SimulateTally| {
            let made: u64 = tally.bids.iter().map(|b| b.made).sum();
            assert_eq!(
                made, known_made,
                "{bid_spec}/{play_spec}: contracts made in the first {DEALS} deals of seed 7"
            );
            assert_eq!(tally.deals, DEALS);
        };
        check(&simulate_block(&config, block()));
        // The expert solves its endings: fewer samples keep its bench to seconds.
        group.sample_size(if play_spec == "expert" { 20 } else { 100 });
        group.bench_function(format!("4p {play_spec} {bid_spec}"), |b| {
            b.iter(|| {
                let tally = simulate_block(&config, block());
                check(&tally);
                tally
            })
        });
    }
    group.finish();
}

const KNOWN_THREE_MADE: u64 = 2733;
const KNOWN_THRESHOLD_MADE: u64 = 3689;
const KNOWN_EXPERT_MADE: u64 = 3952;

criterion_group!(benches, bench_simulate);
criterion_main!(benches);
