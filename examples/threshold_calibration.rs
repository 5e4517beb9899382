//! How the `threshold` bid policy's defaults were chosen.
//!
//! Deals many deals at a table of N (default 4) and, on the same deals, lets eldest declare each
//! trick bid of the default profile with heuristic play for every seat. Prints, per hand-strength
//! score, the make rate and the declarer's expected units of each bid, and the bid with the best
//! expected value (or pass when none is positive).
//!
//! `cargo run --release --example threshold_calibration -- [DEALS] [PLAYERS]`

use napsim::bots::{bid_policy, play_policy};
use napsim::game::{DealState, Shuffler};
use napsim::policy::strength::strength;
use napsim::policy::{Table, run_deal};
use napsim::rng::block_streams;
use napsim::rules::Profile;

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args.next().map_or(2_000_000, |a| a.parse().expect("DEALS"));
    let players: usize = args.next().map_or(4, |a| a.parse().expect("PLAYERS"));
    let profile = Profile::default_profile();
    let play = play_policy("heuristic", &profile).unwrap();
    let bids: Vec<_> = ["three", "four", "nap"]
        .iter()
        .map(|b| {
            (
                *b,
                bid_policy(&format!("always:bid={b}"), &profile).unwrap(),
            )
        })
        .collect();
    // made[score][bid], declared[score]
    let mut made = vec![[0u64; 3]; 64];
    let mut count = vec![0u64; 64];
    for (i, (_, bid)) in bids.iter().enumerate() {
        let table = Table::uniform(bid.as_ref(), play.as_ref());
        let (mut deal_rng, mut policy_rng) = block_streams(1, 0);
        let mut shuffler = Shuffler::new(&profile, players);
        for _ in 0..deals {
            let dealt = shuffler.deal(players - 1, &mut deal_rng);
            let mut state = DealState::new(&profile, players - 1, dealt.hands(players));
            run_deal(&mut state, &table, &mut policy_rng);
            let score = strength(state.dealt(0)).0 as usize;
            if i == 0 {
                count[score] += 1;
            }
            made[score][i] += u64::from(state.made() == Some(true));
        }
    }
    let opponents = (players - 1) as f64;
    println!("score   hands   three%   four%    nap%    EV3     EV4     EVnap   best");
    for score in 0..64 {
        if count[score] < 200 {
            continue;
        }
        let n = count[score] as f64;
        let mut best = ("pass", 0.0);
        let mut line = format!("{score:>5} {:>8}", count[score]);
        let mut evs = String::new();
        for (i, (name, _)) in bids.iter().enumerate() {
            let p = made[score][i] as f64 / n;
            let stake = profile.bid_by_name(name).unwrap();
            let ev = opponents * (p * stake.made() as f64 - (1.0 - p) * stake.failed() as f64);
            line += &format!(" {:>7.1}", 100.0 * p);
            evs += &format!(" {ev:>7.2}");
            if ev > best.1 {
                best = (name, ev);
            }
        }
        println!("{line}{evs}   {}", best.0);
    }
}
