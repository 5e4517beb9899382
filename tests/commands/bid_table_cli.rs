//! `napsim bid-table` and the `table` bid policy.

use crate::common;
use common::*;

use napsim::bots::bid_policy;
use napsim::cards::{CardSet, parse_hand};
use napsim::game::{Call, DealState};
use napsim::policy::BidView;
use napsim::rng::base_rng;
use napsim::rules::Profile;

type Rows = Vec<csv::StringRecord>;

fn read_csv(path: &std::path::Path) -> (csv::StringRecord, Rows) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    (header, reader.records().map(Result::unwrap).collect())
}

fn column(header: &csv::StringRecord, name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

/// Every distinct hand an exact class label stands for: each assignment of suits to its parts.
fn hands_of_label(label: &str) -> Vec<String> {
    let parts: Vec<&str> = label.split('.').collect();
    let mut hands = std::collections::BTreeSet::new();
    let suits = ['S', 'H', 'D', 'C'];
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let order = [a, b, c, d];
                    if (0..4).any(|i| order[i + 1..].contains(&order[i])) {
                        continue;
                    }
                    let mut cards: Vec<String> = parts
                        .iter()
                        .zip(order)
                        .flat_map(|(ranks, s)| {
                            ranks.chars().map(move |r| format!("{r}{}", suits[s]))
                        })
                        .collect();
                    cards.sort();
                    hands.insert(cards.join(" "));
                }
            }
        }
    }
    hands.into_iter().collect()
}

#[test]
fn the_csv_has_the_tidy_columns_and_reproduces_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let files = |name: &str| {
        (
            dir.path().join(format!("{name}.csv")),
            dir.path().join(format!("{name}.md")),
        )
    };
    let deals = scaled(20_000);
    for (name, threads) in [("a", "1"), ("b", "2")] {
        let (csv, md) = files(name);
        stdout(&[
            "bid-table",
            "--deals",
            &deals,
            "--dd-deals",
            "2000",
            "--seed",
            "5",
            "--min-hands",
            "20",
            "--threads",
            threads,
            "--quiet",
            "--out",
            csv.to_str().unwrap(),
            "--markdown",
            md.to_str().unwrap(),
        ]);
    }
    let (a_csv, a_md) = files("a");
    let (b_csv, b_md) = files("b");
    assert_eq!(
        std::fs::read(&a_csv).unwrap(),
        std::fs::read(&b_csv).unwrap()
    );
    assert_eq!(std::fs::read(&a_md).unwrap(), std::fs::read(&b_md).unwrap());
    let (header, rows) = read_csv(&a_csv);
    let wanted = "profile,players,seat,class,bid,hands,p_make,ci95_low,ci95_high,ev,ev_se,breakeven,dd_p_make,best_bid";
    for name in wanted.split(',') {
        column(&header, name);
    }
    assert!(!rows.is_empty());
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("a.csv.meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["seed"], 5);
    let command = meta["reproduce"].as_str().unwrap();
    assert!(std::fs::read_to_string(&a_md).unwrap().contains(command));
    // Seat 0 is always counted; later seats only after passes, so they count fewer hands.
    let (seat, hands, bid) = (
        column(&header, "seat"),
        column(&header, "hands"),
        column(&header, "bid"),
    );
    let total = |s: &str| -> u64 {
        rows.iter()
            .filter(|r| &r[seat] == s && &r[bid] == "three")
            .map(|r| r[hands].parse::<u64>().unwrap())
            .sum()
    };
    assert!(total("3") < total("0"));
}

#[test]
fn a_class_row_agrees_with_napsim_hand_on_that_class() {
    // Peep Nap at three players plays a 20-card pack, so exact classes are common enough.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("exact.csv");
    stdout(&[
        "--rules",
        "peep-nap",
        "bid-table",
        "--players",
        "3",
        "--by",
        "exact",
        "--deals",
        &scaled(300_000),
        "--dd-deals",
        "0",
        "--min-hands",
        "1",
        "--seed",
        "9",
        "--quiet",
        "--out",
        csv.to_str().unwrap(),
    ]);
    let (header, rows) = read_csv(&csv);
    let (seat, class, hands, p, bid) = (
        column(&header, "seat"),
        column(&header, "class"),
        column(&header, "hands"),
        column(&header, "p_make"),
        column(&header, "bid"),
    );
    // The seat-0 class whose least certain bid is closest to even, among well-filled ones.
    let min_hands = if cfg!(debug_assertions) { 30 } else { 300 };
    let chosen = rows
        .iter()
        .filter(|r| &r[seat] == "0" && r[hands].parse::<u64>().unwrap() >= min_hands)
        .min_by(|a, b| {
            let d = |r: &csv::StringRecord| (r[p].parse::<f64>().unwrap() - 0.5).abs();
            d(a).total_cmp(&d(b))
        })
        .expect("a well-filled class");
    let label = chosen[class].to_string();
    let n_table: f64 = chosen[hands].parse().unwrap();
    // A class pools every renaming of its suits, equally likely in a deal; the heuristic
    // breaks ties by suit order, so each renaming is evaluated and the results averaged.
    let renamings = hands_of_label(&label);
    let per_hand = if cfg!(debug_assertions) {
        2_000
    } else {
        20_000
    };
    let evaluated: Vec<serde_json::Value> = renamings
        .iter()
        .map(|cards| {
            serde_json::from_str(&stdout(&[
                "--rules",
                "peep-nap",
                "hand",
                cards,
                "--players",
                "3",
                "--play",
                "heuristic",
                "--worlds",
                &per_hand.to_string(),
                "--no-dd",
                "--seed",
                "2",
                "--json",
                "--quiet",
            ]))
            .unwrap()
        })
        .collect();
    let n_hand = (per_hand * renamings.len()) as f64;
    for row in rows.iter().filter(|r| &r[seat] == "0" && r[class] == label) {
        let ps: Vec<f64> = evaluated
            .iter()
            .map(|doc| {
                doc["bids"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|b| b["bid"] == row[bid])
                    .unwrap()["p_make"]
                    .as_f64()
                    .unwrap()
            })
            .collect();
        let pt = row[p].parse::<f64>().unwrap();
        let ph = ps.iter().sum::<f64>() / ps.len() as f64;
        let var_hand = ps.iter().map(|p| p * (1.0 - p)).sum::<f64>() / ps.len() as f64 / n_hand;
        let se = (pt * (1.0 - pt) / n_table + var_hand).sqrt().max(1e-3);
        assert!(
            (pt - ph).abs() <= 3.5 * se,
            "class {label}, {}: table {pt} vs hand {ph} (se {se})",
            &row[bid]
        );
    }
}

#[test]
fn the_table_policy_bids_from_an_exact_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    let header = "profile,players,seat,class,bid,tricks_needed,hands,p_make,ci95_low,ci95_high,ev,ev_se,breakeven,dd_hands,dd_p_make,best_bid";
    let rows = [
        "heather-1875,4,0,AKQJT,three,3,10,1,0.7,1,9,0,0.5,0,,nap",
        "heather-1875,4,0,AKQJT,four,4,10,1,0.7,1,12,0,0.5,0,,nap",
        "heather-1875,4,0,AKQJT,nap,5,10,1,0.7,1,15,0,0.5,0,,nap",
        "heather-1875,4,0,AKQJT,wellington,5,10,1,0.7,1,30,0,0.5,0,,nap",
        "heather-1875,4,0,AK.Q.J.T,three,3,10,0.4,0.1,0.7,-1,0,0.5,0,,pass",
    ];
    std::fs::write(&path, format!("{header}\n{}\n", rows.join("\n"))).unwrap();
    let profile = Profile::default_profile();
    let spec = format!("table:file=({})", path.display());
    let policy = bid_policy(&spec, &profile).unwrap();
    let threshold = bid_policy("threshold", &profile).unwrap();
    let call_for = |policy: &dyn napsim::policy::BidPolicy, cards: &str| {
        let others = ["2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 7C"];
        let hands: Vec<CardSet> = std::iter::once(cards)
            .chain(others)
            .map(|h| parse_hand(h, 5).unwrap())
            .collect();
        let state = DealState::new(&profile, 3, &hands);
        policy.call(&BidView::new(&state), &mut base_rng(1))
    };
    // Wellington has the best EV but is not callable first: Nap is the best legal bid.
    let nap = Call::Bid(profile.bid_id("nap").unwrap());
    assert_eq!(call_for(policy.as_ref(), "AD KD QD JD TD"), nap);
    // A class whose every bid loses: pass, where the threshold bidder would bid.
    assert_eq!(call_for(policy.as_ref(), "AS KS QH JD TC"), Call::Pass);
    // A class the table lacks: the threshold policy's call.
    for hand in ["AS KS QS 7D 8C", "9S 8S 7H 8D 9C"] {
        assert_eq!(
            call_for(policy.as_ref(), hand),
            call_for(threshold.as_ref(), hand)
        );
    }
    // And it runs in a simulation.
    let out = stdout(&[
        "simulate", "--deals", "2000", "--seed", "1", "--bid", &spec, "--quiet",
    ]);
    assert!(out.contains("table:file="));
}

#[test]
fn bad_input_exits_2() {
    assert_bad(&["bid-table", "--by", "suits"], "invalid value");
    assert_bad(&["bid-table", "--players", "9"], "players");
    assert_bad(&["bid-table", "--deals", "0"], "at least 1");
    assert_bad(&["bid-table", "--play", "nosuch"], "unknown play policy");
    assert_bad(
        &["simulate", "--bid", "table:file=(/nonexistent/t.csv)"],
        "cannot read",
    );
    assert_bad(
        &["simulate", "--bid", "table"],
        "needs the parameter 'file'",
    );
}

#[test]
fn a_table_with_no_class_shown_is_a_csv_with_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.csv");
    let empty = dir.path().join("empty.csv");
    let run = |out: &std::path::Path, min_hands: &str| {
        common::stdout(&[
            "bid-table",
            "--deals",
            "300",
            "--seed",
            "1",
            "--quiet",
            "--min-hands",
            min_hands,
            "--out",
            out.to_str().unwrap(),
        ]);
    };
    run(&full, "1");
    run(&empty, "1000000");
    let full = std::fs::read_to_string(full).unwrap();
    let empty = std::fs::read_to_string(empty).unwrap();
    assert!(full.lines().count() > 1);
    assert_eq!(empty, format!("{}\n", full.lines().next().unwrap()));
}

#[test]
fn the_auction_view_values_every_call_and_the_dealer_seat_exactly_as_declarer() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let path = dir.path().join(name);
        let mut args = vec![
            "bid-table",
            "--deals",
            "3000",
            "--seed",
            "5",
            "--min-hands",
            "20",
            "--by",
            "coarse",
            "--out",
            path.to_str().unwrap(),
        ];
        args.extend(extra);
        stdout_in(dir.path(), &args);
        path
    };
    let plain = run("plain.csv", &[]);
    let md = dir.path().join("auction.md");
    let auction = run(
        "auction.csv",
        &["--auction", "--markdown", md.to_str().unwrap()],
    );
    let (plain_header, plain_rows) = read_csv(&plain);
    let (header, rows) = read_csv(&auction);
    // The declarer columns are those of the table without --auction, value for value.
    assert_eq!(rows.len(), plain_rows.len());
    for (a, p) in rows.iter().zip(&plain_rows) {
        for (i, name) in plain_header.iter().enumerate() {
            assert_eq!(a[column(&header, name)], p[i], "{name}");
        }
    }
    let (seat, bid, ev) = (
        column(&header, "seat"),
        column(&header, "bid"),
        column(&header, "ev"),
    );
    let (auction_ev, pass_ev) = (column(&header, "auction_ev"), column(&header, "pass_ev"));
    let (vs_pass, best_call) = (column(&header, "vs_pass"), column(&header, "best_call"));
    let number = |r: &csv::StringRecord, i: usize| -> f64 { r[i].parse().unwrap() };
    let mut eldest_pass = Vec::new();
    for r in &rows {
        if &r[bid] == "wellington" {
            // Only over a Nap: not callable after passes, no value in the auction.
            assert!(r[auction_ev].is_empty() && r[vs_pass].is_empty());
            continue;
        }
        if &r[seat] == "3" {
            // The dealer speaks last: a bid stands, and passing passes the deal out.
            assert_eq!(number(r, auction_ev), number(r, ev), "{r:?}");
            assert_eq!(number(r, pass_ev), 0.0);
            assert!((number(r, vs_pass) - number(r, ev)).abs() < 1e-9);
        }
        if &r[seat] == "0" {
            eldest_pass.push(number(r, pass_ev));
        }
        assert!(!r[best_call].is_empty());
    }
    // At the eldest seat later seats declare and, on average, win: passing costs.
    let mean = eldest_pass.iter().sum::<f64>() / eldest_pass.len() as f64;
    assert!(mean < -0.2, "{mean}");
    // The Markdown shows the pass column and the best call beside the declarer's best.
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("| class | hands | pass | Three |"), "{text}");
    assert!(text.contains("(declarer: "), "{text}");
    assert!(
        text.contains("--min-hands 20 --auction`"),
        "the command reproduces it: {text}"
    );
}
