//! `napsim hand` and the `lookahead` bid policy from the command line.

use crate::common;
use common::*;

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

#[test]
fn json_holds_every_field_and_only_json() {
    let doc = json(&[
        "hand",
        "AS KS QS 7D 2C",
        "--play",
        "heuristic",
        "--worlds",
        "500",
        "--seed",
        "4",
        "--json",
        "--quiet",
    ]);
    for key in [
        "hand",
        "players",
        "seat",
        "profile",
        "play",
        "worlds",
        "worlds_drawn",
        "seed",
        "tricks",
        "bids",
        "recommended",
    ] {
        assert!(doc.get(key).is_some(), "{key} missing from {doc}");
    }
    assert_eq!(doc["hand"], "AS KS QS 7D 2C");
    assert_eq!(doc["worlds"], 500);
    assert_eq!(doc["worlds_drawn"], 500);
    assert_eq!(doc["profile"], "heather-1875");
    let tricks: f64 = doc["tricks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!((tricks - 1.0).abs() < 1e-9);
    let bids = doc["bids"].as_array().unwrap();
    let names: Vec<&str> = bids.iter().map(|b| b["bid"].as_str().unwrap()).collect();
    assert_eq!(names, ["three", "four", "nap", "wellington"]);
    for bid in bids {
        for key in [
            "tricks_needed",
            "p_make",
            "ci95",
            "ev",
            "ev_se",
            "breakeven",
            "dd_p_make",
        ] {
            assert!(bid.get(key).is_some(), "{key} missing from {bid}");
        }
        let p = bid["p_make"].as_f64().unwrap();
        let (lo, hi) = (
            bid["ci95"][0].as_f64().unwrap(),
            bid["ci95"][1].as_f64().unwrap(),
        );
        assert!(lo <= p && p <= hi);
    }
    // A K Q of trumps: Three is certain, so it is worth 3 from each of 3 opponents.
    assert_eq!(bids[0]["p_make"], 1.0);
    assert_eq!(bids[0]["ev"], 9.0);
    assert_eq!(bids[0]["dd_p_make"], 1.0);
}

#[test]
fn csv_has_one_row_per_bid_and_no_dd_leaves_the_column_empty() {
    let text = stdout(&[
        "hand",
        "AH KH 9H 7D 2C",
        "--play",
        "heuristic",
        "--worlds",
        "300",
        "--seed",
        "4",
        "--csv",
        "--no-dd",
        "--quiet",
    ]);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    for column in [
        "others_bid",
        "tricks_0",
        "tricks_5",
        "bid",
        "p_make",
        "ci95_low",
        "ci95_high",
        "ev",
        "ev_se",
        "breakeven",
        "dd_p_make",
        "recommended",
    ] {
        assert!(header.iter().any(|h| h == column), "{column} missing");
    }
    let dd = header.iter().position(|h| h == "dd_p_make").unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    // Passing first, then one row per bid; each row holds its call's value in the auction.
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r[dd].is_empty()));
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(&rows[0][column("bid")], "pass");
    assert!(rows[0][column("p_make")].is_empty());
    let auction_ev = column("auction_ev");
    let pass_ev: f64 = rows[0][auction_ev].parse().unwrap();
    assert!(pass_ev < 0.0, "{text}");
    // Wellington cannot be called over passes: no auction value.
    assert_eq!(&rows[4][column("bid")], "wellington");
    assert!(rows[4][auction_ev].is_empty() && !rows[3][auction_ev].is_empty());
    for name in ["auction_ev_se", "diff_best", "diff_best_se", "p_contract"] {
        assert!(!rows[0][column(name)].is_empty(), "{name}");
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_whatever_the_threads() {
    let run = |threads: &str| {
        stdout(&[
            "hand",
            "QS 9S 7H 5D 3C",
            "--seat",
            "2",
            "--after",
            "pass,pass",
            "--play",
            "pimc:worlds=4",
            "--worlds",
            "150",
            "--seed",
            "8",
            "--threads",
            threads,
            "--json",
            "--quiet",
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let doc: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert!(doc["worlds_drawn"].as_u64().unwrap() > 150);
}

#[test]
fn out_writes_the_file_and_nothing_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hand.json");
    let printed = stdout(&[
        "hand",
        "AS KS QS 7D 2C",
        "--play",
        "heuristic",
        "--worlds",
        "100",
        "--seed",
        "1",
        "--json",
        "--quiet",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(printed.is_empty());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(doc["recommended"], "three");
    let meta: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("hand.json.meta.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(meta["command"], "hand");
    assert_eq!(meta["arguments"]["hand"], "AS KS QS 7D 2C");
}

#[test]
fn the_table_names_the_best_bid() {
    let text = stdout(&[
        "hand",
        "AS KS QS JS TS",
        "--play",
        "heuristic",
        "--worlds",
        "200",
        "--seed",
        "1",
        "--quiet",
    ]);
    assert!(text.contains("recommended: Nap"), "{text}");
}

#[test]
fn bad_input_exits_2_with_one_error_line() {
    let base = ["hand", "--worlds", "10", "--seed", "1", "--quiet"];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let cases: &[(&[&str], &str)] = &[
        (&["AS KS QS JS"], "needs 5 cards"),
        (&["AS KS QS JS JS"], "more than once"),
        (&["AS KS QS JS 1S"], "1S"),
        (&["AS KS QS JS 2S", "--players", "8"], "players"),
        (&["AS KS QS JS 2S", "--seat", "4"], "--seat 4"),
        (
            &["AS KS QS JS 2S", "--seat", "1", "--after", "pass,pass"],
            "exactly 1",
        ),
        (
            &["AS KS QS JS 2S", "--seat", "2", "--after", "four,three"],
            "impossible",
        ),
        (
            &["AS KS QS JS 2S", "--seat", "1", "--after", "wellington"],
            "impossible",
        ),
        (
            &["AS KS QS JS 2S", "--seat", "1", "--after", "bonaparte"],
            "not a call",
        ),
        (
            &["AS KS QS JS 2S", "--seat", "2", "--after", ",pass,pass"],
            "empty",
        ),
        (
            &[
                "AS KS QS JS 2S",
                "--seat",
                "1",
                "--after",
                "three",
                "--others-bid",
                "pass",
            ],
            "too rare",
        ),
        (
            &["AS KS QS JS 2S", "--play", "nosuch"],
            "unknown play policy",
        ),
        (
            &["AS KS QS JS 2S", "--json", "--csv"],
            "cannot be used with",
        ),
    ];
    for (extra, needle) in cases {
        let args = with(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_bad(&args, needle);
    }
    assert_bad(&["hand", "AS KS QS JS 2S", "--worlds", "0"], "at least 1");
}

#[test]
fn lookahead_bids_in_simulate() {
    let text = stdout(&[
        "simulate",
        "--deals",
        "300",
        "--seed",
        "2",
        "--bid",
        "lookahead:worlds=16",
        "--play",
        "heuristic",
        "--quiet",
        "--out",
        "-",
    ]);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let declared = header.iter().position(|h| h == "declared").unwrap();
    let total: u64 = reader
        .records()
        .map(|r| r.unwrap()[declared].parse::<u64>().unwrap())
        .sum();
    assert!(
        total > 0 && total < 300,
        "some deals declared, some passed out: {total}"
    );
}

/// `doc` without its `stopping` object: what a fixed run of as many worlds prints.
fn without_stopping(mut doc: serde_json::Value) -> serde_json::Value {
    doc.as_object_mut().unwrap().remove("stopping");
    doc
}

/// The half-widths of every bid's 95% P(make) interval, in percentage points.
fn half_widths(doc: &serde_json::Value) -> Vec<f64> {
    doc["bids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| 50.0 * (b["ci95"][1].as_f64().unwrap() - b["ci95"][0].as_f64().unwrap()))
        .collect()
}

#[test]
fn an_adaptive_run_stops_early_at_the_same_worlds_whatever_the_threads() {
    // Four leads Three, on the same worlds, by far more than 2.53 standard errors at 512.
    let base = [
        "hand",
        "AS KS 7S AH 3D",
        "--play",
        "heuristic",
        "--seed",
        "3",
    ];
    let run = |extra: &[&str]| stdout(&[&base[..], extra, &["--quiet"][..]].concat());
    let one = run(&["--json", "--threads", "1"]);
    assert_eq!(one, run(&["--json", "--threads", "2"]));
    let doc: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(doc["stopping"]["reason"], "settled", "{doc}");
    assert_eq!(doc["stopping"]["max_worlds"], 4000);
    let worlds = doc["worlds"].as_u64().unwrap();
    assert_eq!(worlds, 512);
    // The numbers are those of a run of exactly that many worlds; the text only adds a line.
    let fixed = run(&["--json", "--worlds", &worlds.to_string()]);
    let fixed: serde_json::Value = serde_json::from_str(&fixed).unwrap();
    assert!(fixed.get("stopping").is_none());
    assert_eq!(without_stopping(doc), fixed);
    let text = run(&["--threads", "2"]);
    let fixed_text = run(&["--worlds", &worlds.to_string()]);
    let (head, last) = text.trim_end().rsplit_once('\n').unwrap();
    assert_eq!(format!("{head}\n"), fixed_text);
    assert!(
        last.starts_with("stopped after 512 of at most 4000 worlds: the recommendation is settled"),
        "{last}"
    );
    let csv = run(&["--csv"]);
    assert_eq!(csv, run(&["--csv", "--worlds", "512"]));
}

#[test]
fn six_players_check_early_with_a_stricter_lead() {
    // At six players the rule is also asked after 128 and 256 worlds; Four leads by far.
    let base = [
        "hand",
        "AS KS QS JS 2H",
        "--play",
        "heuristic",
        "--seed",
        "3",
        "--quiet",
    ];
    let run = |extra: &[&str]| stdout(&[&base[..], extra].concat());
    let json = |extra: &[&str]| -> serde_json::Value {
        serde_json::from_str(&run(&[extra, &["--json"][..]].concat())).unwrap()
    };
    let doc = json(&["--players", "6", "--threads", "1"]);
    assert_eq!(doc, json(&["--players", "6", "--threads", "2"]));
    assert_eq!(doc["stopping"]["reason"], "settled", "{doc}");
    assert_eq!(doc["worlds"], 128);
    assert_eq!(
        without_stopping(doc),
        json(&["--players", "6", "--worlds", "128"])
    );
    let text = run(&["--players", "6"]);
    assert!(
        text.trim_end().ends_with(
            "stopped after 128 of at most 4000 worlds: the recommendation is settled (it leads \
             every other call by over 3.29 standard errors on the same worlds)"
        ),
        "{text}"
    );
    // At four players the first check is still at 512 worlds.
    let four = json(&["--players", "4"]);
    assert_eq!(four["worlds"], 512, "{four}");
}

#[test]
fn precision_stops_at_the_first_check_that_reaches_it() {
    // Three and Four are close: the precision stops it before the recommendation settles.
    let base = [
        "hand",
        "AC KC 8C 4C 2S",
        "--play",
        "heuristic",
        "--seed",
        "5",
        "--no-dd",
        "--json",
        "--quiet",
    ];
    let run = |extra: &[&str]| -> serde_json::Value {
        serde_json::from_str(&stdout(&[&base[..], extra].concat())).unwrap()
    };
    let mut doc = run(&["--precision", "2"]);
    assert_eq!(doc["stopping"]["reason"], "precise", "{doc}");
    // Without --worlds, at most the worlds that reach 2 points at P(make) = 1/2.
    assert_eq!(doc["stopping"]["max_worlds"], 2560);
    let worlds = doc["worlds"].as_u64().unwrap();
    assert_eq!(worlds, 1024);
    // Nap, and Wellington which plays like it, trail Four by far at the first check: dropped
    // there, so that the precision asked is that of Three and Four alone.
    let bids = doc["bids"].as_array().unwrap();
    let dropped: Vec<u64> = bids
        .iter()
        .filter_map(|b| b["dropped_after"].as_u64())
        .collect();
    assert_eq!(dropped, [512, 512], "{doc}");
    // Which blocks skipped them depends on the threads; the numbers do not.
    for threads in ["1", "3"] {
        assert_eq!(run(&["--precision", "2", "--threads", threads]), doc);
    }
    let played_on = |doc: &serde_json::Value| -> Vec<f64> {
        let bids = doc["bids"].as_array().unwrap();
        half_widths(doc)
            .into_iter()
            .zip(bids)
            .filter(|(_, b)| b.get("dropped_after").is_none())
            .map(|(h, _)| h)
            .collect()
    };
    assert_eq!(played_on(&doc).len(), 2);
    assert!(played_on(&doc).iter().all(|&h| h <= 2.0), "{doc}");
    // One check earlier, one of them was wider.
    let before = run(&["--worlds", &(worlds - 512).to_string()]);
    assert!(
        half_widths(&before)[..2].iter().any(|&h| h > 2.0),
        "{before}"
    );
    // Each bid reports what a run of exactly its worlds reports; the rest is that of the
    // run's worlds.
    let mut expected = run(&["--worlds", &worlds.to_string()]);
    for (i, bid) in bids.iter().enumerate() {
        let n = bid
            .get("dropped_after")
            .map_or(worlds, |n| n.as_u64().unwrap());
        expected["bids"][i] = run(&["--worlds", &n.to_string()])["bids"][i].clone();
        if n < worlds {
            expected["bids"][i]["dropped_after"] = n.into();
        }
    }
    // So does each call, and its difference from the best call (never dropped).
    let calls = doc["calls"].as_array().unwrap();
    for (i, call) in calls.iter().enumerate() {
        let n = call
            .get("dropped_after")
            .map_or(worlds, |n| n.as_u64().unwrap());
        let alone = run(&["--worlds", &n.to_string()])["calls"][i].clone();
        for field in ["call", "auction_ev", "auction_ev_se", "p_contract"] {
            assert_eq!(call[field], alone[field], "{field}: {call} {alone}");
        }
    }
    for doc in [&mut doc, &mut expected] {
        doc.as_object_mut().unwrap().remove("calls");
    }
    assert_eq!(without_stopping(doc), expected);
    // In the CSV, each bid's row has its own worlds; the text marks the dropped bids.
    let table = |format: &str| {
        let args = [&base[..base.len() - 2], &["--precision", "2", format][..]].concat();
        stdout(&args)
    };
    let csv = table("--csv");
    let worlds_column = csv
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|f| f == "worlds");
    let rows: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(worlds_column.unwrap()).unwrap())
        .collect();
    assert_eq!(rows, ["512", "1024", "1024", "512", "512"], "{csv}");
    let text = table("--quiet");
    let nap = text.lines().find(|l| l.starts_with("Nap ")).unwrap();
    assert!(nap.ends_with("(dropped after 512 worlds)"), "{text}");
    // --worlds caps it: the cap is a check of its own, not a multiple of 512.
    let capped = run(&["--precision", "0.5", "--worlds", "700"]);
    assert_eq!(capped["worlds"], 700);
    assert_eq!(capped["stopping"]["reason"], "max_worlds");
}

#[test]
fn an_adaptive_run_refuses_shards_and_bad_precisions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("part");
    let out = out.to_str().unwrap();
    let hand = [
        "hand",
        "AS KS QS 7D 2C",
        "--play",
        "heuristic",
        "--seed",
        "1",
    ];
    let shard = [&hand[..], &["--shard", "0/2", "--out", out][..]].concat();
    assert_bad(&shard, "cannot be split into shards");
    assert_bad(
        &[&shard[..], &["--precision", "2"][..]].concat(),
        "--worlds K",
    );
    assert!(!dir.path().join("part").exists());
    for bad in ["0", "-1", "51", "nan", "x"] {
        assert_bad(
            &[&hand[..], &["--precision", bad][..]].concat(),
            "percentage points",
        );
    }
    // A fixed number of worlds still shards.
    stdout(&[&shard[..], &["--worlds", "128", "--quiet"][..]].concat());
}

#[test]
fn the_default_play_is_the_same_whatever_the_threads() {
    // The default shares the declarer's opening lead between worlds (remembered by whichever
    // thread finds it first) and hands a misère's defence to `expert`: neither may show in
    // the output.
    let run = |threads: &str| {
        stdout(&[
            "hand",
            "TS 8S 5S 3S AH",
            "--rules",
            "pub-guide",
            "--worlds",
            "96",
            "--seed",
            "5",
            "--threads",
            threads,
            "--json",
            "--quiet",
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
    let doc: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(doc["play"], napsim::cli::HAND_DEFAULT_PLAY);
    let misere = doc["bids"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bid"] == "misere");
    assert!(misere.is_some(), "{doc}");
}

#[test]
fn a_session_s_last_deal_behind_the_leader_recommends_the_nap_that_alone_wins_it() {
    // At four players under heather-1875, the eldest at -9 and the second seat at +9 on the
    // last deal: a certain Four (+12) leaves the eldest 2 behind; only a made Nap wins.
    let hand = ["hand", "AS KS QS JS 2D", "--worlds", "1000", "--seed", "3"];
    let session = ["--session", "8/8:-9,+9,0,0", "--quiet", "--json"];
    let doc = |objective: &[&str]| {
        let args: Vec<&str> = hand
            .iter()
            .chain(&session)
            .chain(objective)
            .copied()
            .collect();
        json(&args)
    };
    let units = doc(&[]);
    assert_eq!(units["recommended"], "four", "{units}");
    assert_eq!(units["objective"], "units");
    let wins = doc(&["--objective", "wins"]);
    assert_eq!(wins["recommended"], "nap", "{wins}");
    assert_eq!(wins["objective"], "wins");
    let chance = |doc: &serde_json::Value, call: &str| {
        let calls = doc["calls"].as_array().unwrap();
        let c = calls.iter().find(|c| c["call"] == call).unwrap();
        (
            c["win_chance"].as_f64().unwrap(),
            c["win_chance_se"].as_f64().unwrap(),
        )
    };
    // The Four wins nothing; the Nap wins when it is made, unless a later seat overcalls it
    // (with a Wellington): at most its P(make).
    assert_eq!(chance(&wins, "four"), (0.0, 0.0));
    let (nap, se) = chance(&wins, "nap");
    let bids = wins["bids"].as_array().unwrap();
    let nap_make = bids.iter().find(|b| b["bid"] == "nap").unwrap()["p_make"]
        .as_f64()
        .unwrap();
    assert!(
        nap <= nap_make && nap > 0.9 * nap_make && se > 0.0,
        "{nap} {nap_make} {se}"
    );
    // Without the session, no chances are reported; the CSV has them as columns, the text a
    // P(win) column (heuristic play, for speed).
    let quick = [
        "hand",
        "AS KS QS JS 2D",
        "--worlds",
        "200",
        "--play",
        "heuristic",
        "--quiet",
    ];
    let alone: Vec<&str> = quick.iter().copied().chain(["--json"]).collect();
    assert!(json(&alone)["calls"][0].get("win_chance").is_none());
    let csv_args: Vec<&str> = quick
        .iter()
        .chain(&session[..2])
        .copied()
        .chain(["--csv"])
        .collect();
    let csv = stdout(&csv_args);
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with("win_chance,win_chance_se"),
        "{csv}"
    );
    let text_args: Vec<&str> = quick.iter().chain(&session[..2]).copied().collect();
    assert!(stdout(&text_args).contains("P(win)"));
}

#[test]
fn bad_sessions_exit_2_with_one_error_line() {
    let base = [
        "hand",
        "AS KS QS JS 2D",
        "--worlds",
        "10",
        "--seed",
        "1",
        "--quiet",
    ];
    let cases: &[(&[&str], &str)] = &[
        (&["--session", "8/8:-9,9,0"], "3 balances for 4 players"),
        (&["--session", "8/8:-9,9,1,0"], "sum to 1"),
        (&["--session", "9/8:0,0,0,0"], "deal 9 of 8"),
        (&["--session", "8-8:0,0,0,0"], "D/N:B1"),
        (&["--session", "1/8:0,0,0,0;kitty=3"], "no kitty"),
        (&["--objective", "wins"], "needs --session"),
        (
            &["--session", "1/8:0,0,0,0", "--precision", "2"],
            "leave out --precision",
        ),
        (
            &["--session", "1/8:0,0,0,0", "--as-declarer"],
            "leave out --as-declarer",
        ),
        (&["--objective", "money"], "money"),
    ];
    for (extra, needle) in cases {
        let args: Vec<&str> = base.iter().chain(extra.iter()).copied().collect();
        assert_bad(&args, needle);
    }
}

#[test]
fn the_table_says_the_default_play_in_words_and_its_spec_when_asked() {
    let run = |more: &[&str]| {
        let mut args = vec![
            "hand",
            "AH KH 9H 7D 2C",
            "--worlds",
            "64",
            "--seed",
            "1",
            "--quiet",
        ];
        args.extend_from_slice(more);
        stdout(&args)
    };
    let play_line = |text: &str| text.lines().nth(1).unwrap().to_string();
    let spec = napsim::eval::hand::DEFAULT_PLAY;
    let plain = run(&[]);
    assert!(
        play_line(&plain).starts_with("play: the default strong play (PIMC"),
        "{plain}"
    );
    assert!(!plain.contains(spec), "{plain}");
    let verbose = run(&["--verbose"]);
    assert_eq!(play_line(&verbose), format!("play: {spec}; seed 1"));
    // The rest of the table is the same.
    assert_eq!(
        plain.lines().skip(2).collect::<Vec<_>>(),
        verbose.lines().skip(2).collect::<Vec<_>>()
    );
    // Another play is named by its spec; the JSON and the CSV always name the spec.
    assert!(play_line(&run(&["--play", "heuristic"])).starts_with("play: heuristic;"));
    let doc: serde_json::Value = serde_json::from_str(&run(&["--json"])).unwrap();
    assert_eq!(doc["play"], spec);
    assert!(run(&["--csv"]).contains(spec));
}
