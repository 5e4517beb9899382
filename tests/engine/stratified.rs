//! `napsim bid-table --per-class`: hands drawn within their class estimate what the rows of
//! random deals estimate, and the class shares agree with the shares random deals count.

use crate::common;
use common::*;

use std::collections::HashMap;

type Row = HashMap<String, String>;

fn read_rows(path: &std::path::Path) -> Vec<Row> {
    records(&std::fs::read_to_string(path).unwrap())
}

fn num(row: &Row, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column}: {}", row[column]))
}

/// The classes with the most hands at `seat` in the rows of a random-deal table.
fn commonest(rows: &[Row], seat: &str, count: usize) -> Vec<String> {
    let mut classes: Vec<(&Row, f64)> = rows
        .iter()
        .filter(|r| r["seat"] == seat && r["bid"] == "three")
        .map(|r| (r, num(r, "hands")))
        .collect();
    classes.sort_by(|a, b| b.1.total_cmp(&a.1));
    classes
        .iter()
        .take(count)
        .map(|(r, _)| r["class"].clone())
        .collect()
}

#[test]
fn stratified_rows_and_shares_estimate_those_of_random_deals() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let deals = scaled(1_000_000);
    let per_class = scaled(40_000);
    // Every class shown (one hand is enough): the shares below need each seat's total.
    stdout(&[
        "bid-table",
        "--deals",
        &deals,
        "--dd-deals",
        "0",
        "--min-hands",
        "1",
        "--seed",
        "11",
        "--quiet",
        "--out",
        path("random.csv").to_str().unwrap(),
    ]);
    let random = read_rows(&path("random.csv"));
    // At seat 3 the three passes before it matter: its rows differ from seat 0's (for "2
    // trumps A-x, 1 void", Three 9.0% against 7.7%), which a sample ignoring them would miss.
    let mut picks = csv::Writer::from_path(path("picks.csv")).unwrap();
    picks.write_record(["seat", "class"]).unwrap();
    for seat in ["0", "3"] {
        for class in commonest(&random, seat, 3) {
            picks.write_record([seat, class.as_str()]).unwrap();
        }
    }
    picks.flush().unwrap();
    stdout(&[
        "bid-table",
        "--per-class",
        &per_class,
        "--classes",
        path("picks.csv").to_str().unwrap(),
        "--dd-deals",
        "0",
        "--seed",
        "12",
        "--quiet",
        "--out",
        path("strata.csv").to_str().unwrap(),
    ]);
    let strata = read_rows(&path("strata.csv"));
    assert_eq!(strata.len(), 6 * 4, "six classes, four bids each");
    let deals: f64 = deals.parse().unwrap();
    let per_class: f64 = per_class.parse().unwrap();
    let reaching = |seat: &str| -> f64 {
        random
            .iter()
            .filter(|r| r["seat"] == seat && r["bid"] == "three")
            .map(|r| num(r, "hands"))
            .sum()
    };
    assert_eq!(reaching("0"), deals);
    for s in &strata {
        let r = random
            .iter()
            .find(|r| r["seat"] == s["seat"] && r["class"] == s["class"] && r["bid"] == s["bid"])
            .expect("the same row in the random-deal table");
        let what = format!("seat {} {} {}", s["seat"], s["class"], s["bid"]);
        assert_eq!(num(s, "hands"), per_class, "{what}");
        let (ps, pr) = (num(s, "p_make"), num(r, "p_make"));
        let se = (ps * (1.0 - ps) / per_class + pr * (1.0 - pr) / num(r, "hands")).sqrt();
        assert!(
            (ps - pr).abs() <= 3.5 * se + 1e-9,
            "{what}: P(make) {ps} against {pr}"
        );
        let se = num(s, "ev_se").hypot(num(r, "ev_se"));
        let (es, er) = (num(s, "ev"), num(r, "ev"));
        assert!(
            (es - er).abs() <= 3.5 * se + 1e-9,
            "{what}: EV {es} against {er}"
        );
        // The share: exact at seat 0 against a binomial count; estimated at seat 3 (its
        // relative error at these sizes is under 1.5%) against the count among the hands that
        // reached the seat.
        let total = reaching(&s["seat"]);
        let counted = num(r, "hands") / total;
        let share = num(s, "class_share");
        let mut se = counted * (1.0 - counted) / total;
        if s["seat"] != "0" {
            se += (0.015 * share).powi(2);
        }
        assert!(
            (share - counted).abs() <= 3.5 * se.sqrt(),
            "{what}: share {share} against {counted} counted"
        );
    }
}

#[test]
fn the_share_of_a_class_at_seat_0_is_its_exact_count_over_every_hand() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    // A-K-Q-J-T of one suit: four hands of 2,598,960.
    std::fs::write(&list, "# the strongest hand\n5 trumps A-K-Q-J-T, 3 voids\n").unwrap();
    let out = stdout(&[
        "bid-table",
        "--per-class",
        "50",
        "--classes",
        list.to_str().unwrap(),
        "--players",
        "3",
        "--seed",
        "1",
        "--quiet",
        "--out",
        "-",
    ]);
    let rows = records(&out);
    assert_eq!(rows.len(), 3 * 4, "three seats, four bids");
    for row in rows.iter().filter(|r| r["seat"] == "0") {
        assert_eq!(num(row, "class_share"), 4.0 / 2_598_960.0);
        assert_eq!(num(row, "p_make"), 1.0);
        assert_eq!(num(row, "dd_p_make"), 1.0);
    }
}

#[test]
fn bad_class_requests_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "6 trumps A-K-Q-J-T-9\n").unwrap();
    let list = list.to_str().unwrap();
    assert_bad(
        &["bid-table", "--per-class", "10", "--classes", list],
        "no hand has the class '6 trumps A-K-Q-J-T-9' under --by classes",
    );
    let seats = dir.path().join("seats.csv");
    std::fs::write(&seats, "seat,class\n5,2 trumps x-x\n").unwrap();
    assert_bad(
        &[
            "bid-table",
            "--per-class",
            "10",
            "--classes",
            seats.to_str().unwrap(),
        ],
        "seat 5 is not at a table of 4 players",
    );
    assert_bad(&["bid-table", "--classes", list], "required arguments");
    assert_bad(
        &["bid-table", "--per-class", "10", "--plot", "x.svg"],
        "cannot be used with",
    );
    assert_bad(&["bid-table", "--per-class", "0"], "at least 1");
    assert_bad(
        &[
            "bid-table",
            "--per-class",
            "10",
            "--classes",
            "/no/such/file",
        ],
        "--classes /no/such/file",
    );
}
