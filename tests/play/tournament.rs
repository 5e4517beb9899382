//! `napsim tournament`: conservation, determinism, and the intervals telling apart what differs.

use crate::common;
use common::*;

use napsim::analysis::tournament::{
    BLOCK_SIZE, TournamentConfig, parse_entrant, rows, tournament_block,
};
use napsim::rules::{BUILTIN, Profile};
use napsim::sim::{Plan, Silent, run};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 8 } else { 32 }))]

    #[test]
    fn sessions_conserve_units_on_every_profile(seed in any::<u64>(), which in 0..BUILTIN.len(), size in 0usize..5, duplicate in any::<bool>()) {
        let profile = Profile::builtin(BUILTIN[which].0).unwrap();
        let players = profile.min_players() + size % (profile.max_players() - profile.min_players() + 1);
        let entrants = vec![
            parse_entrant("a=threshold/heuristic", &profile, &Default::default()).unwrap(),
            parse_entrant("b=(always:bid=three)/random", &profile, &Default::default())
                .or_else(|_| parse_entrant("b=pass/random", &profile, &Default::default()))
                .unwrap(),
        ];
        let config = TournamentConfig { profile: &profile, players, entrants: &entrants, sets: 5, seed, duplicate, forfeit: None, win_test: false };
        let tally = run(Plan { total: config.sets, block_size: BLOCK_SIZE, seed: config.seed }, 1, &Silent, |b| tournament_block(&config, b)).unwrap();
        // Balances sum to minus what the sessions left in the kitty.
        prop_assert_eq!(tally.balance_total + tally.kitty_total, 0);
        let (rows, pairs) = rows(&tally, &config);
        // Every session has one win to share among its seats.
        let rotations = if duplicate { players } else { 1 } as f64;
        let shares: f64 = rows
            .iter()
            .enumerate()
            .map(|(e, r)| r.win_share * config.seat_sessions(e) as f64 / rotations)
            .sum();
        prop_assert!((shares - 1.0).abs() < 1e-9);
        // a - b is minus b - a.
        prop_assert!((pairs[0].mean_diff + pairs[1].mean_diff).abs() < 1e-9);
    }
}

#[test]
fn the_thread_count_changes_no_byte() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str| {
        let out = dir.path().join(format!("t{threads}.csv"));
        let pairs = dir.path().join(format!("p{threads}.csv"));
        stdout(&[
            "tournament",
            "--entrant",
            "h=threshold/heuristic",
            "--entrant",
            "r=threshold/random",
            "--entrant",
            "p=(always:bid=three)/heuristic",
            "--entrant",
            "x=threshold/expert",
            "--sessions",
            &scaled(2000),
            "--seed",
            "3",
            "--threads",
            threads,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            "--pairs",
            pairs.to_str().unwrap(),
        ]);
        (std::fs::read(out).unwrap(), std::fs::read(pairs).unwrap())
    };
    assert_eq!(run("1"), run("2"));
    let md = dir.path().join("t.md");
    stdout(&[
        "tournament",
        "--entrant",
        "h=threshold/heuristic",
        "--entrant",
        "r=threshold/random",
        "--sessions",
        "50",
        "--seed",
        "3",
        "--quiet",
        "--markdown",
        md.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(md).unwrap();
    assert!(
        text.contains(
            "--entrant h=threshold/heuristic --entrant r=threshold/random --sessions 50 --seed 3"
        ),
        "{text}"
    );
    assert!(text.contains("| h | – |"), "{text}");
}

#[test]
fn a_better_player_is_ahead_and_identical_ones_are_not() {
    let pairs_of = |entrants: [&str; 2]| {
        let dir = tempfile::tempdir().unwrap();
        let pairs = dir.path().join("p.csv");
        stdout(&[
            "tournament",
            "--entrant",
            entrants[0],
            "--entrant",
            entrants[1],
            "--sessions",
            &scaled(2000),
            "--seed",
            "11",
            "--quiet",
            "--pairs",
            pairs.to_str().unwrap(),
        ]);
        records(&std::fs::read_to_string(pairs).unwrap())
    };
    let f = |r: &std::collections::HashMap<String, String>, k: &str| r[k].parse::<f64>().unwrap();
    let better = pairs_of(["heuristic=threshold/heuristic", "random=threshold/random"]);
    let ab = better
        .iter()
        .find(|r| r["entrant_a"] == "heuristic")
        .unwrap();
    assert!(f(ab, "ci95_low") > 0.0, "{ab:?}");
    let search = pairs_of([
        "ismcts=threshold/ismcts:iterations=100",
        "random=threshold/random",
    ]);
    let ab = search.iter().find(|r| r["entrant_a"] == "ismcts").unwrap();
    assert!(f(ab, "ci95_low") > 0.0, "{ab:?}");
    let expert = pairs_of(["expert=threshold/expert", "heuristic=threshold/heuristic"]);
    let ab = expert.iter().find(|r| r["entrant_a"] == "expert").unwrap();
    assert!(
        f(ab, "ci95_low") > 0.0,
        "expert must beat heuristic: {ab:?}"
    );
    let same = pairs_of(["one=threshold/heuristic", "two=threshold/heuristic"]);
    let ab = &same[0];
    assert!(
        f(ab, "ci95_low") <= 0.0 && f(ab, "ci95_high") >= 0.0,
        "{ab:?}"
    );
    // Duplicate replays the same cards (and the same random draws) in every rotation, so two
    // identical entrants play identically: their difference is exactly zero.
    assert_eq!(
        (f(ab, "mean_diff"), f(ab, "mean_diff_se")),
        (0.0, 0.0),
        "{ab:?}"
    );
}

#[test]
fn bad_entrants_exit_2() {
    assert_bad(
        &["tournament", "--entrant", "a=threshold/heuristic"],
        "2 to 4 entrants",
    );
    assert_bad(
        &[
            "tournament",
            "--entrant",
            "a=threshold",
            "--entrant",
            "b=threshold/random",
        ],
        "no '/'",
    );
    assert_bad(
        &[
            "tournament",
            "--entrant",
            "a=threshold/heuristic",
            "--entrant",
            "a=threshold/random",
        ],
        "two entrants are named 'a'",
    );
    assert_bad(
        &[
            "tournament",
            "--entrant",
            "a=nosuch/heuristic",
            "--entrant",
            "b=threshold/random",
        ],
        "unknown bid policy",
    );
    assert_bad(
        &[
            "tournament",
            "--entrant",
            "threshold/heuristic",
            "--entrant",
            "b=threshold/random",
        ],
        "NAME=BID/PLAY",
    );
}

/// The `sprt:` line of a tournament's summary, and the run's rows and manifest.
fn sprt_run(entrants: [&str; 2], sprt: &str, threads: &str) -> (String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    let text = stdout(&[
        "tournament",
        "--entrant",
        entrants[0],
        "--entrant",
        entrants[1],
        "--sessions",
        "20000",
        "--seed",
        "5",
        "--sprt",
        sprt,
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let line = text
        .lines()
        .find(|l| l.starts_with("sprt: "))
        .unwrap_or_else(|| panic!("no sprt line: {text}"))
        .to_string();
    let csv = std::fs::read_to_string(&out).unwrap();
    let meta = std::fs::read_to_string(napsim::files::meta_path(&out)).unwrap();
    (line, csv, meta)
}

#[test]
fn the_sequential_test_stops_early_and_decides() {
    // The heuristic against random play: about 8 units a session apart, so H1 (>= 1) at once.
    let (line, csv, meta) = sprt_run(["h=threshold/heuristic", "r=threshold/random"], "0,1", "2");
    assert!(line.starts_with("sprt: accepted H1 (LLR "), "{line}");
    let played: u64 = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" card sets played)"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(played < 20000 && played.is_multiple_of(64), "{line}");
    // The rows count the card sets played, not the maximum.
    assert!(csv.contains(&format!(",{},", played * 4)), "{csv}");
    let meta: serde_json::Value = serde_json::from_str(&meta).unwrap();
    assert_eq!(meta["outcome"]["sprt"]["decision"], "accepted_h1");
    assert_eq!(meta["outcome"]["sprt"]["card_sets"], played);
    // Identical entrants tie every card set in duplicate: the variance floor accepts H0.
    let (line, _, meta) = sprt_run(
        ["a=threshold/heuristic", "b=threshold/heuristic"],
        "0,1",
        "2",
    );
    assert!(line.starts_with("sprt: accepted H0 (LLR "), "{line}");
    assert!(line.ends_with(", 64 card sets played)"), "{line}");
    assert!(meta.contains("\"accepted_h0\""));
}

#[test]
fn the_sequential_test_on_the_win_share_can_disagree_with_the_units() {
    // Bidding Three from weaker hands loses units but wins more sessions of four (more
    // variance): on units the test finds it worse, on the win share better.
    let run = |sprt: &str, on: &str| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("t.csv");
        let text = stdout(&[
            "tournament",
            "--entrant",
            "t9=threshold:three=9/heuristic",
            "--entrant",
            "t=threshold/heuristic",
            "--sessions",
            "20000",
            "--seed",
            "5",
            "--sprt",
            sprt,
            "--sprt-on",
            on,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        let meta = std::fs::read_to_string(napsim::files::meta_path(&out)).unwrap();
        let meta: serde_json::Value = serde_json::from_str(&meta).unwrap();
        (text, meta)
    };
    let (text, meta) = run("-0.5,0", "units");
    assert!(text.contains("\nsprt: accepted H0"), "{text}");
    assert!(meta["outcome"]["sprt"].get("on").is_none());
    let (text, meta) = run("0,0.02", "wins");
    assert!(
        text.contains("\nsprt on the win share: accepted H1"),
        "{text}"
    );
    assert_eq!(meta["outcome"]["sprt"]["on"], "wins");
    assert!(
        meta["reproduce"]
            .as_str()
            .unwrap()
            .contains("--sprt 0,0.02 --sprt-on wins")
    );
    // Without --sprt, --sprt-on is refused.
    assert_bad(
        &[
            "tournament",
            "--entrant",
            "a=pass/random",
            "--entrant",
            "b=pass/random",
            "--sprt-on",
            "wins",
        ],
        "required arguments",
    );
}

#[test]
fn the_sequential_test_stops_at_the_same_block_with_any_thread_count() {
    // Hypotheses close to the true difference: the test runs several blocks before deciding.
    let entrants = ["h=threshold/heuristic", "r=threshold/random"];
    let (line1, csv1, _) = sprt_run(entrants, "7.5,8.5", "1");
    let (line2, csv2, _) = sprt_run(entrants, "7.5,8.5", "2");
    assert_eq!(line1, line2);
    assert_eq!(csv1, csv2);
    assert!(!line1.ends_with(", 64 card sets played)"), "{line1}");
}

#[test]
fn the_sequential_test_refuses_shards_and_bad_hypotheses() {
    let base = [
        "tournament",
        "--entrant",
        "a=threshold/heuristic",
        "--entrant",
        "b=threshold/random",
    ];
    let with =
        |extra: &[&'static str]| -> Vec<&str> { base.iter().chain(extra).copied().collect() };
    assert_bad(
        &with(&[
            "--sprt", "0,1", "--seed", "1", "--shard", "0/2", "--out", "p.json",
        ]),
        "cannot be split into shards",
    );
    assert_bad(&with(&["--sprt", "1,0"]), "D0 < D1");
    assert_bad(&with(&["--sprt", "0,1", "--alpha", "0.5"]), "--alpha 0.5");
    // clap names the missing --sprt on the line after.
    assert_bad(&with(&["--beta", "0.1"]), "required arguments");
}

/// The session equity of a table of threshold bidders playing heuristic cards, against whole
/// sessions played from the same states by that table: within three standard errors.
#[test]
fn the_session_equity_is_what_sessions_played_from_its_states_give() {
    use napsim::analysis::equity::{self, OutcomeTally};
    use napsim::analysis::simulate::{SimulateConfig, play_block};
    use napsim::game::{SessionState, Shuffler, resume_session};
    use napsim::policy::{Table, run_deal};
    use napsim::rules::MAX_PLAYERS;
    use rayon::prelude::*;

    let profile = Profile::default_profile();
    let players = 4;
    let bid = napsim::bots::bid_policy("threshold", &profile).unwrap();
    let play = napsim::bots::play_policy("heuristic", &profile).unwrap();
    let config = SimulateConfig {
        profile: &profile,
        players,
        deals: 200_000,
        seed: 61,
        bid: bid.as_ref(),
        play: play.as_ref(),
    };
    let plan = Plan {
        total: config.deals,
        block_size: equity::BLOCK_SIZE,
        seed: config.seed,
    };
    let tally = run(plan, 2, &Silent, |block| {
        let mut tally = OutcomeTally::default();
        play_block(&config, block, |state| tally.add(state));
        tally
    })
    .unwrap();
    let model = equity::session_equity(&profile, players, &tally);

    let table = Table::uniform(bid.as_ref(), play.as_ref());
    let sessions = 20_000u64;
    // (this deal's number, the balances by seat, its dealer)
    let states: [(u32, [i64; 4], usize); 4] = [
        (8, [-9, 9, 0, 0], 3),
        (7, [12, -4, -4, -4], 0),
        (6, [0, 15, -20, 5], 1),
        (3, [6, -2, -2, -2], 2),
    ];
    for (deal, by_seat, dealer) in states {
        let mut balances = [0; MAX_PLAYERS];
        balances[..4].copy_from_slice(&by_seat);
        let start = SessionState {
            deal,
            deals: 8,
            balances,
        };
        // Each session has its own streams, and the shares are summed: the same in any order.
        // Sessions go in runs of consecutive numbers, each run walking its streams with one
        // cursor: `block_streams` for every session would square polynomials 80,000 times, which
        // was nearly all of this test's time.
        const RUN: u64 = 500;
        let won = (0..sessions / RUN)
            .into_par_iter()
            .map(|run| {
                let mut won = [0u64; MAX_PLAYERS];
                let mut shuffler = Shuffler::new(&profile, players);
                let mut cursor = napsim::rng::StreamCursor::new(900 + deal as u64);
                for i in run * RUN..(run + 1) * RUN {
                    let (mut deal_rng, mut policy_rng) = cursor.streams(i);
                    shuffler.reset();
                    let result = resume_session(
                        &profile,
                        &mut shuffler,
                        players,
                        &mut deal_rng,
                        (start, dealer, 0),
                        |state| run_deal(state, &table, &mut policy_rng),
                    );
                    for (w, share) in won.iter_mut().zip(result.win_share_420).take(players) {
                        *w += u64::from(share);
                    }
                }
                won
            })
            .reduce(
                || [0u64; MAX_PLAYERS],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        // The model's state: balances by position in this deal, the deals to come.
        let mut by_position = [0; MAX_PLAYERS];
        for (position, slot) in by_position.iter_mut().enumerate().take(players) {
            *slot = by_seat[(dealer + 1 + position) % players];
        }
        let left = (9 - deal) as usize;
        let chances = model.win_chances(&by_position, left);
        // Sampled futures add their own error: at most 0.5 / sqrt(futures) (a share's spread
        // is at most a half).
        let futures_se = if model.is_exact(left) {
            0.0
        } else {
            0.5 / (napsim::eval::equity::FUTURES as f64).sqrt()
        };
        for seat in 0..players {
            let played = won[seat] as f64 / 420.0 / sessions as f64;
            let predicted = chances[(seat + players - dealer - 1) % players];
            let se = (played * (1.0 - played) / sessions as f64 + futures_se * futures_se).sqrt();
            assert!(
                (played - predicted).abs() < 3.0 * se.max(1e-3),
                "deal {deal}, {by_seat:?}, seat {seat}: played {played:.4}, predicted {predicted:.4}, se {se:.4}"
            );
        }
    }
}

#[test]
fn the_heading_names_card_sets_and_sessions_as_the_table_counts_them() {
    for (duplicate, players, heading) in [
        (
            true,
            "3",
            "10 card sets, duplicate: 3 rotations each, 30 sessions",
        ),
        (false, "4", "10 card sets: one session each"),
    ] {
        let mut args = vec![
            "tournament",
            "--entrant",
            "a=threshold/heuristic",
            "--entrant",
            "b=threshold/random",
            "--sessions",
            "10",
            "--players",
            players,
            "--seed",
            "3",
            "--quiet",
        ];
        if !duplicate {
            args.push("--no-duplicate");
        }
        let text = stdout(&args);
        assert!(text.lines().next().unwrap().contains(heading), "{text}");
        // The table's sessions column counts the same sessions.
        let sessions = if duplicate { "30" } else { "10" };
        let row = text.lines().find(|l| l.starts_with("a ")).unwrap();
        assert_eq!(row.split_whitespace().nth(1), Some(sessions), "{text}");
    }
}
