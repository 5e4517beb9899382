//! `napsim review`: every card's double-dummy values agree with `napsim solve` on the same
//! position, costs are never negative, deals played by `dd` lose nothing, calls are judged, and
//! bad input is refused with one error line. Also `napsim solve --plays`.

use crate::common;

use common::{assert_bad, napsim, stdout};
use serde_json::Value;

/// Every built-in profile with the table sizes it plays.
fn profiles() -> Vec<(String, Vec<usize>)> {
    let list = stdout(&["rules", "list"]);
    list.lines()
        .map(|line| line.split_whitespace().next().unwrap().to_string())
        .map(|name| {
            let sizes = (3..=7)
                .filter(|&n| {
                    napsim()
                        .args(["--rules", &name, "deal", "--players", &n.to_string()])
                        .args(["--seed", "1"])
                        .output()
                        .unwrap()
                        .status
                        .success()
                })
                .collect();
            (name, sizes)
        })
        .collect()
}

/// `count` deals of `profile` at `players` played by `play`, as records with a contract.
fn records(profile: &str, players: usize, play: &str, count: usize, seed: u64) -> Vec<String> {
    let text = stdout(&[
        "--rules",
        profile,
        "deal",
        "--players",
        &players.to_string(),
        "--count",
        &(count * 40).to_string(),
        "--seed",
        &seed.to_string(),
        "--play",
        play,
        "--json",
    ]);
    let kept: Vec<String> = text
        .lines()
        .filter(|line| !line.contains("\"contract\":null"))
        .take(count)
        .map(String::from)
        .collect();
    assert_eq!(kept.len(), count, "{profile} {players}p: too few contracts");
    kept
}

/// Reviews `record` (cards only) and returns the JSON objects of its lines.
fn review(profile: &str, record: &str) -> Vec<Value> {
    let out = napsim()
        .args(["--rules", profile, "review", "-", "--json", "--worlds", "0"])
        .args(["--choice", "heuristic"])
        .write_stdin(record.to_string() + "\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{record}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The hands at the start of the play (after purchases, a spare hand or the floater), rotated
/// so that the declarer is seat 0, and the rotation's offset.
fn hands_for_solve(record: &Value) -> (String, usize) {
    let players = record["players"].as_u64().unwrap() as usize;
    let declarer = record["contract"]["declarer"].as_u64().unwrap() as usize;
    let mut hands: Vec<Vec<String>> = record["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().split(' ').map(String::from).collect())
        .collect();
    for exchange in record["exchanges"].as_array().into_iter().flatten() {
        let seat = exchange["seat"].as_u64().unwrap() as usize;
        let words = |key: &str| -> Vec<String> {
            exchange[key]
                .as_str()
                .unwrap()
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        hands[seat].retain(|c| !words("discarded").contains(c));
        hands[seat].extend(words("received"));
    }
    let rotated: Vec<String> = (0..players)
        .map(|i| hands[(declarer + i) % players].join(" "))
        .collect();
    (rotated.join("/"), declarer)
}

#[test]
fn double_dummy_values_agree_with_solve_at_every_card_of_every_profile() {
    for (profile, sizes) in profiles() {
        for players in sizes {
            let record = &records(&profile, players, "heuristic", 1, players as u64)[0];
            let parsed: Value = serde_json::from_str(record).unwrap();
            let (deal, declarer) = hands_for_solve(&parsed);
            let bid = parsed["contract"]["bid"].as_str().unwrap().to_string();
            let mut solve_args = vec![
                "--rules".to_string(),
                profile.clone(),
                "solve".to_string(),
                deal,
                "--bid".to_string(),
                bid,
                "--json".to_string(),
            ];
            // A named trump (the declarer chose it before the lead) is given to solve.
            let probe = napsim().args(&solve_args).output().unwrap();
            if String::from_utf8_lossy(&probe.stderr).contains("give --trump") {
                solve_args.push("--trump".into());
                solve_args.push(parsed["trump"].as_str().unwrap().into());
            }
            let lines = review(&profile, record);
            let cards: Vec<&Value> = lines.iter().filter(|l| l["type"] == "card").collect();
            assert!(!cards.is_empty(), "{profile} {players}p: no card reviewed");
            let mut played: Vec<String> = Vec::new();
            for card in cards {
                let (before, after) = (&card["dd_before"], &card["dd_after"]);
                let cost = card["cost"].as_i64().unwrap();
                assert!(cost >= 0, "{profile} {players}p: negative cost {card}");
                assert_eq!(
                    cost,
                    (before.as_i64().unwrap() - after.as_i64().unwrap()).abs()
                );
                let mut args = solve_args.clone();
                if !played.is_empty() {
                    args.push("--plays".into());
                    args.push(played.join(" "));
                }
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let mut solved: Value = serde_json::from_str(&stdout(&args)).unwrap();
                // The opening leads come as "leads", later positions as "cards".
                if played.is_empty() {
                    solved["cards"] = solved["leads"].take();
                } else {
                    let seat = card["seat"].as_u64().unwrap() as usize;
                    assert_eq!(
                        (solved["seat"].as_u64().unwrap() as usize + declarer) % players,
                        seat,
                        "{profile} {players}p after {played:?}"
                    );
                }
                let name = card["card"].as_str().unwrap();
                assert_eq!(
                    (&solved["best"], &solved["cards"][name]),
                    (before, after),
                    "{profile} {players}p after {played:?}: review {card}, solve {solved}"
                );
                let best: Vec<&str> = solved["cards"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(_, v)| **v == solved["best"])
                    .map(|(c, _)| c.as_str())
                    .collect();
                let mut reviewed: Vec<&str> = card["best"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect();
                reviewed.sort();
                assert_eq!(reviewed, best, "{profile} {players}p after {played:?}");
                played.push(name.to_string());
            }
        }
    }
}

#[test]
fn no_card_of_a_deal_played_double_dummy_costs_anything() {
    for (profile, sizes) in profiles() {
        for players in sizes {
            for record in records(&profile, players, "dd", 2, 10 + players as u64) {
                for card in review(&profile, &record)
                    .iter()
                    .filter(|l| l["type"] == "card")
                {
                    assert_eq!(
                        card["made_before"], card["made_after"],
                        "{profile} {players}p {record}: {card}"
                    );
                    assert_eq!(card["cost"], 0, "{profile} {players}p {record}: {card}");
                }
            }
        }
    }
}

/// A deal of the default profile with one costly card by each side: seat 3 declares Three and
/// leads 4H at trick 2 where AS or 5S kept its second trick; seat 2's 6C gives one back.
const HANDS: &str = "9S 8S 2S 8D JC/QS TS TH 2D 8C/QH 7H 5H 7C 6C/AS 5S KH 4H 2H";
const PLAYS: &str = "KH 2S TH 5H 4H 8D 2D 7H 6C 2H JC 8C AS 8S TS QH 7C 5S 9S QS";

fn replay_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "review",
        "--hands",
        HANDS,
        "--dealer",
        "1",
        "--calls",
        "pass,three,pass,pass",
        "--plays",
        PLAYS,
        "--eval-play",
        "heuristic",
        "--choice",
        "heuristic",
        "--worlds",
        "256",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn the_text_report_marks_costly_cards_and_judges_every_call() {
    let text = stdout(&replay_args(&[]));
    assert!(text.starts_with("Deal 1: seat 3 declares Three"), "{text}");
    let marked: Vec<&str> = text.lines().filter(|l| l.ends_with(" !")).collect();
    assert_eq!(marked.len(), 2, "{text}");
    assert!(marked[0].starts_with("2     3    4♥    2→1"), "{text}");
    assert!(marked[1].starts_with("3     2    6♣    1→2"), "{text}");
    assert!(
        text.contains("1 by the declarer, 1 by the defence"),
        "{text}"
    );

    let lines: Vec<Value> = stdout(&replay_args(&["--json"]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let calls: Vec<&Value> = lines.iter().filter(|l| l["type"] == "call").collect();
    assert_eq!(calls.len(), 4);
    assert!(
        lines[..20].iter().all(|l| l["type"] == "card"),
        "cards first"
    );
    for call in calls {
        let loss = call["loss"].as_f64().unwrap();
        assert!(loss >= 0.0, "{call}");
        // The call's value and the best call's are those of the whole auction.
        let best = call["best"].as_str().unwrap();
        if best != "pass" {
            assert_eq!(call["bids"][best]["callable"], true, "{call}");
        }
        let best_ev = call["calls"][best]["ev"].as_f64().unwrap();
        let ev = call["ev"].as_f64().unwrap();
        assert!((best_ev - ev - loss).abs() < 1e-3, "{call}");
        let made = call["call"].as_str().unwrap();
        assert_eq!(ev, call["calls"][made]["ev"].as_f64().unwrap(), "{call}");
        let values = call["calls"].as_object().unwrap();
        assert!(
            values
                .values()
                .all(|v| v["ev"].as_f64().unwrap() <= best_ev + 1e-9)
        );
        assert_eq!(call["worlds"], 256);
    }
    // The same review twice, and with one thread, is the same.
    let again = stdout(&replay_args(&["--json", "--threads", "1"]));
    assert_eq!(
        again,
        stdout(&replay_args(&["--json"])),
        "reproducible whatever the threads"
    );
}

#[test]
fn the_summary_adds_each_seats_losses() {
    let records: String = records("heather-1875", 4, "heuristic", 6, 3).join("\n") + "\n";
    let run = |extra: &[&str]| {
        let out = napsim()
            .args(["review", "-", "--worlds", "0", "--choice", "heuristic"])
            .args(extra)
            .write_stdin(records.clone())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let summary: Value = serde_json::from_str(&run(&["--summary", "--json"])).unwrap();
    let lines: Vec<Value> = run(&["--json"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(summary["deals"], 6);
    for seat in 0..4 {
        let lost: i64 = lines
            .iter()
            .filter(|l| l["seat"] == seat)
            .map(|l| l["cost"].as_i64().unwrap())
            .sum();
        assert_eq!(summary["seats"][seat]["tricks_lost"], lost, "{summary}");
    }
    assert!(run(&["--summary"]).starts_with("6 deals reviewed"));
}

#[test]
fn bad_deals_are_refused_with_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"profile\": \"heather-1875\"}\n").unwrap();
    assert_bad(
        &["review", bad.to_str().unwrap()],
        "line 1: not a deal record",
    );
    std::fs::write(&bad, "not json\n").unwrap();
    assert_bad(&["review", bad.to_str().unwrap()], "line 1");
    let mut args = replay_args(&[]);
    let plays = args.iter().position(|a| *a == PLAYS).unwrap();
    args[plays] = "KH 2S TH 5H AD";
    assert_bad(&args, "card 5 (AD by seat 3) is illegal");
    assert_bad(&["review"], "review needs deals");
    assert_bad(
        &[
            "review",
            "--hands",
            HANDS,
            "--calls",
            "pass,pass,pass,pass",
            "--plays",
            "",
            "--worlds",
            "x",
        ],
        "--worlds",
    );
}

#[test]
fn solve_values_the_cards_of_a_later_position() {
    let deal = "AS 5S KH 4H 2H/9S 8S 2S 8D JC/QS TS TH 2D 8C/QH 7H 5H 7C 6C";
    let json: Value = serde_json::from_str(&stdout(&[
        "solve",
        deal,
        "--plays",
        "KH 2S TH 5H",
        "--json",
    ]))
    .unwrap();
    // The declarer won the first trick and leads again.
    assert_eq!(json["seat"], 0);
    assert_eq!(json["best"], 2);
    assert_eq!(json["cards"]["AS"], 2);
    assert_eq!(json["cards"]["4H"], 1);
    assert_bad(
        &["solve", deal, "--plays", "KH 2S TH 5H 4H 2C"],
        "card 6 (2C) cannot be played by seat 1 there",
    );
    assert_bad(
        &["solve", deal, "--plays", "KH 2S QS"],
        "it must follow suit",
    );
}

#[test]
fn records_are_reviewed_under_the_rules_they_were_played_under() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The default profile with Three paying a hundred times as much, under its own name.
    let good = stdout(&["rules", "show"]);
    let edited = good.replacen("made = 3\nfailed = 3", "made = 300\nfailed = 300", 1);
    assert_ne!(edited, good);
    let edited_path = d.join("edited.toml");
    std::fs::write(&edited_path, &edited).unwrap();
    let edited_path = edited_path.to_str().unwrap();
    let deal = |rules: &[&str]| {
        let mut args = rules.to_vec();
        args.extend(["deal", "--seed", "1", "--count", "3", "--json"]);
        stdout(&args)
    };
    let edited_records = deal(&["--rules", edited_path]);
    let builtin_records = deal(&[]);
    // Only the edited profile's records carry its digest: the built-in's are as before.
    assert!(edited_records.contains("\"profile_digest\":\""));
    assert!(!builtin_records.contains("profile_digest"));
    let review = |rules: &[&str], records: &str| {
        let mut args = rules.to_vec();
        args.extend(["review", "-", "--json", "--worlds", "64", "--seed", "1"]);
        args.extend(["--eval-play", "heuristic", "--choice", "heuristic"]);
        napsim()
            .args(args)
            .write_stdin(records.to_string())
            .output()
            .unwrap()
    };
    // Under their own rules: the calls are valued with the hundredfold payouts.
    let own = review(&["--rules", edited_path], &edited_records);
    assert!(
        own.status.success(),
        "{}",
        String::from_utf8_lossy(&own.stderr)
    );
    let text = String::from_utf8(own.stdout).unwrap();
    let largest = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| v["auction_ev"].as_f64().or(v["ev"].as_f64()))
        .fold(0.0f64, |m, ev| m.max(ev.abs()));
    assert!(largest > 50.0, "{text}");
    // Not under the built-in rules of the same name.
    let refused = |rules: &[&str], records: &str, needle: &str| {
        let out = review(rules, records);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
    };
    refused(
        &[],
        &edited_records,
        "are not the built-in heather-1875's: give its file with --rules",
    );
    refused(
        &["--rules", edited_path],
        &builtin_records,
        "but --rules gives an edited 'heather-1875'",
    );
    // An explicit --rules of another profile is not passed over.
    refused(
        &["--rules", "pub-guide"],
        &builtin_records,
        "played under profile 'heather-1875', but --rules gives 'pub-guide'",
    );
}

#[test]
fn the_text_shows_cards_as_play_does_and_the_json_in_ascii() {
    let text = stdout(&replay_args(&[]));
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("trick seat card"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 20, "{text}");
    for row in &rows {
        let card = row.split_whitespace().nth(2).unwrap();
        assert!(card.ends_with(['♠', '♥', '♦', '♣']), "{row}");
    }
    let json = stdout(&replay_args(&["--json"]));
    let first: Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let card = first["card"].as_str().unwrap();
    assert!(card.ends_with(['S', 'H', 'D', 'C']), "{first}");
}
