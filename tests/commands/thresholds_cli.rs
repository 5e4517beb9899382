//! `napsim thresholds`.

use crate::common;
use common::*;

#[test]
fn the_sweep_marks_the_best_threshold_and_agrees_with_always_bidding() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    let deals = scaled(200_000);
    let summary = stdout(&[
        "thresholds",
        "--deals",
        &deals,
        "--seed",
        "3",
        "--quiet",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(summary.contains("Three"), "{summary}");
    let rows = records(&std::fs::read_to_string(&path).unwrap());
    let f = |r: &std::collections::HashMap<String, String>, k: &str| r[k].parse::<f64>().unwrap();
    for bid in ["three", "four", "nap", "wellington"] {
        let of_bid: Vec<_> = rows.iter().filter(|r| r["bid"] == bid).collect();
        let best: Vec<_> = of_bid.iter().filter(|r| r["best"] == "true").collect();
        assert_eq!(best.len(), 1, "{bid}");
        let top = of_bid
            .iter()
            .map(|r| f(r, "ev_per_deal"))
            .fold(f64::MIN, f64::max);
        assert_eq!(f(best[0], "ev_per_deal"), top);
        // Never bidding (the highest threshold) earns nothing; raising the threshold never
        // adds bidders.
        let last = of_bid.last().unwrap();
        assert_eq!((f(last, "bidding"), f(last, "ev_per_deal")), (0.0, 0.0));
        for pair in of_bid.windows(2) {
            assert!(f(pair[1], "bidding") <= f(pair[0], "bidding"));
        }
    }
    // Threshold 0 for Three means eldest always bids Three: the same quantity as `simulate`
    // with `always:bid=three` (its EV per declared deal), on other deals.
    let always = rows
        .iter()
        .find(|r| r["bid"] == "three" && r["threshold"] == "0")
        .unwrap();
    let sim = stdout(&[
        "simulate",
        "--deals",
        &deals,
        "--seed",
        "4",
        "--bid",
        "always:bid=three",
        "--quiet",
        "--out",
        "-",
    ]);
    let three = records(&sim)
        .into_iter()
        .find(|r| r["bid"] == "three")
        .unwrap();
    let (a, a_se) = (f(always, "ev_per_deal"), f(always, "ev_se"));
    let (b, b_se) = (f(&three, "ev_declarer"), f(&three, "ev_declarer_se"));
    assert!(
        (a - b).abs() <= 4.0 * (a_se * a_se + b_se * b_se).sqrt(),
        "{a} ± {a_se} vs {b} ± {b_se}"
    );
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let once = |threads: &str| {
        stdout(&[
            "thresholds",
            "--deals",
            &scaled(20_000),
            "--seed",
            "8",
            "--seat",
            "1",
            "--threads",
            threads,
            "--quiet",
            "--out",
            "-",
        ])
    };
    assert_eq!(once("1"), once("2"));
}

#[test]
fn in_the_whole_auction_passing_has_its_value_and_the_dealer_seat_sweeps_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let deals = scaled(100_000);
    let sweep = |extra: &[&str]| {
        let path = dir.path().join("t.csv");
        let mut args = vec!["thresholds", "--deals", &deals, "--seed", "4", "--quiet"];
        args.extend(extra);
        args.extend(["--out", path.to_str().unwrap()]);
        stdout(&args);
        records(&std::fs::read_to_string(&path).unwrap())
    };
    // The dealer speaks last: a bid stands and passing passes the deal out (worth 0), so every
    // row is the declarer view's, but Wellington's, which can only overcall.
    let declarer = sweep(&["--seat", "3"]);
    let auction = sweep(&["--seat", "3", "--auction"]);
    let callable: Vec<_> = declarer
        .iter()
        .filter(|r| r["bid"] != "wellington")
        .cloned()
        .collect();
    assert_eq!(auction, callable);
    // At the eldest seat passing costs: never bidding is worth passing's value, below 0, and
    // Three's bar comes down.
    let eldest = sweep(&["--auction"]);
    let f = |r: &std::collections::HashMap<String, String>, k: &str| r[k].parse::<f64>().unwrap();
    let threes: Vec<_> = eldest.iter().filter(|r| r["bid"] == "three").collect();
    let never = threes.last().unwrap();
    assert_eq!(f(never, "bidding"), 0.0);
    assert!(
        f(never, "ev_per_deal") + 3.0 * f(never, "ev_se") < 0.0,
        "{never:?}"
    );
    let best = |rows: &[std::collections::HashMap<String, String>]| {
        rows.iter()
            .find(|r| r["bid"] == "three" && r["best"] == "true")
            .map(|r| f(r, "threshold"))
            .unwrap()
    };
    assert!(
        best(&eldest) <= best(&sweep(&[])),
        "the bar for Three only comes down"
    );
    assert!(eldest.iter().all(|r| r["bid"] != "wellington"));
}

#[test]
fn a_bid_that_can_only_overcall_is_marked_with_the_bid_it_must_overcall() {
    let text = stdout(&["thresholds", "--deals", "2000", "--seed", "1", "--quiet"]);
    let row = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name}: {text}"))
            .to_string()
    };
    assert!(
        row("Wellington").starts_with("Wellington (over Nap) "),
        "{text}"
    );
    assert!(row("Nap").starts_with("Nap "), "{text}");
    assert!(row("Four").starts_with("Four "), "{text}");
    assert!(
        text.contains("A bid marked (over X) can only overcall X"),
        "{text}"
    );
    // A profile with no such bid (Peep Nap) says nothing of them.
    let plain = stdout(&[
        "--rules",
        "peep-nap",
        "thresholds",
        "--deals",
        "2000",
        "--seed",
        "1",
        "--quiet",
    ]);
    assert!(
        !plain.contains("(over ") && !plain.contains("A bid marked"),
        "{plain}"
    );
}
