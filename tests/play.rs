//! `napsim play`: complete sessions driven through the JSON line protocol and replayed as text,
//! hints at a call and at a card, wrong answers, `quit` and the end of the input.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::{assert_bad, napsim};
use serde_json::{Value, json};

/// A session played through `--json`: every object napsim wrote and every answer sent.
struct Driven {
    objects: Vec<Value>,
    answers: Vec<String>,
}

/// Plays a session with `args` over the JSON protocol, answering each request with a simple
/// rule: the lowest bid where one may be called (else pass), the first legal card, no peek or
/// purchase, the first five cards kept, the first card discarded, trump named C, D, H, S in turn.
fn drive(global: &[&str], play: &[&str], save: &std::path::Path) -> Driven {
    let mut child = Command::new(env!("CARGO_BIN_EXE_napsim"))
        .args(global)
        .arg("play")
        .args(play)
        .args(["--json", "--save", save.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut driven = Driven {
        objects: Vec::new(),
        answers: Vec::new(),
    };
    let mut trumps = ["C", "D", "H", "S"].iter().cycle();
    for line in stdout.lines() {
        let object: Value = serde_json::from_str(&line.unwrap()).unwrap();
        let strings = |key: &str| -> Vec<String> {
            match &object[key] {
                Value::Array(items) => items.iter().map(|v| v.as_str().unwrap().into()).collect(),
                Value::String(text) => text.split_whitespace().map(String::from).collect(),
                _ => Vec::new(),
            }
        };
        let answer = match object["type"].as_str().unwrap() {
            "bid" => Some(strings("legal").get(1).cloned().unwrap_or("pass".into())),
            "play" => Some(strings("legal")[0].clone()),
            "peek" => Some("no".to_string()),
            "purchase" => Some("none".to_string()),
            "keep" => Some(strings("cards")[..5].join(" ")),
            "discard" => Some(strings("cards")[0].clone()),
            "trump" => Some(trumps.next().unwrap().to_string()),
            _ => None,
        };
        driven.objects.push(object);
        if let Some(answer) = answer {
            writeln!(stdin, "{}", json!({"answer": answer})).unwrap();
            driven.answers.push(answer);
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    driven
}

/// Runs a text session with `answers` on stdin; returns stdout.
fn text_session(play: &[&str], answers: &[String], save: &std::path::Path) -> String {
    let out = napsim()
        .arg("play")
        .args(play)
        .args(["--save", save.to_str().unwrap()])
        .write_stdin(answers.join("\n") + "\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_full_session_plays_and_saves_records_that_review_reads() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("session.jsonl");
    let driven = drive(&[], &["--seed", "5"], &save);
    let end = driven.objects.iter().find(|o| o["type"] == "end").unwrap();
    let records: Vec<Value> = std::fs::read_to_string(&save)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 8, "the profile's eight-deal session");
    // The balances are the records' payments added up.
    for seat in 0..4 {
        let paid: i64 = records
            .iter()
            .map(|r| r["payments"][seat].as_i64().unwrap())
            .sum();
        assert_eq!(end["balances"][seat], paid);
    }
    assert!(
        driven.objects.iter().any(|o| o["type"] == "play"),
        "the person played cards"
    );
    // The same answers typed as text play the same session, byte for byte.
    let text_save = dir.path().join("text.jsonl");
    let text = text_session(&["--seed", "5"], &driven.answers, &text_save);
    assert!(text.contains("session over: you "), "{text}");
    assert_eq!(
        std::fs::read(&save).unwrap(),
        std::fs::read(&text_save).unwrap()
    );
    // What was saved is reviewed.
    let review = common::stdout(&[
        "review",
        save.to_str().unwrap(),
        "--worlds",
        "0",
        "--choice",
        "heuristic",
        "--summary",
    ]);
    assert!(review.starts_with("8 deals reviewed"), "{review}");
}

/// The index in `driven.answers` of the first answer to a request that `pick` accepts, with
/// that request.
fn first_answer(driven: &Driven, pick: impl Fn(&Value) -> bool) -> (usize, Value) {
    let requests = [
        "bid", "play", "peek", "purchase", "keep", "discard", "trump",
    ];
    driven
        .objects
        .iter()
        .filter(|o| requests.contains(&o["type"].as_str().unwrap()))
        .enumerate()
        .find(|(_, o)| pick(o))
        .map(|(i, o)| (i, o.clone()))
        .expect("a request of that kind")
}

#[test]
fn hints_wrong_cards_and_quitting_leave_the_game_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--seed", "11", "--deals", "3"];
    let driven = drive(&[], &args, &dir.path().join("driven.jsonl"));
    let plain_save = dir.path().join("plain.jsonl");
    let base: Vec<String> = driven.answers.clone();
    let plain = text_session(&args, &base, &plain_save);
    assert!(plain.contains("session over"), "{plain}");

    // A card whose seat holds a card it may not play (it must follow suit).
    let (at, request) = first_answer(&driven, |o| {
        o["type"] == "play"
            && o["legal"].as_array().unwrap().len() > 1
            && o["hand"].as_str().unwrap().split(' ').count() > o["legal"].as_array().unwrap().len()
    });
    let hand: Vec<&str> = request["hand"].as_str().unwrap().split(' ').collect();
    let legal: Vec<&str> = request["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let illegal = hand.iter().find(|c| !legal.contains(c)).unwrap();
    let (first_call, _) = first_answer(&driven, |o| o["type"] == "bid");
    assert!(first_call < at);
    let mut answers = base.clone();
    // At the card: a hint, a word that is no card, a card not held, a card that does not
    // follow suit, then the card played before.
    let not_held = ["AS", "KS", "QS", "JS", "TS", "2C", "3C"]
        .into_iter()
        .find(|c| !hand.contains(c))
        .unwrap();
    for (offset, extra) in ["hint", "ZZ", not_held, illegal, "history", "hand", "help"]
        .iter()
        .enumerate()
    {
        answers.insert(at + offset, extra.to_string());
    }
    // At the first call: a hint.
    answers.insert(first_call, "hint".to_string());
    let hinted_save = dir.path().join("hinted.jsonl");
    let hinted = text_session(&args, &answers, &hinted_save);
    assert!(hinted.contains("'ZZ' is not a card"), "{hinted}");
    assert!(
        hinted.contains(&format!("you do not hold {not_held}")),
        "{hinted}"
    );
    assert!(hinted.contains("you must follow suit"), "{hinted}");
    assert!(hinted.contains("hint ("), "a call hint: {hinted}");
    assert!(hinted.contains("best: "), "{hinted}");
    assert!(hinted.contains("PIMC's share"), "a card hint: {hinted}");
    assert!(hinted.contains("your hand: "), "{hinted}");
    assert!(
        std::fs::read(&plain_save).unwrap() == std::fs::read(&hinted_save).unwrap(),
        "hints and wrong answers change nothing"
    );

    // quit at the first prompt: exit 0, nothing saved but an empty file.
    let quit_save = dir.path().join("quit.jsonl");
    let quit = text_session(&args, &["quit".to_string()], &quit_save);
    assert!(quit.contains("you quit"), "{quit}");
    assert_eq!(std::fs::read_to_string(&quit_save).unwrap(), "");
    // The end of the input stops as quit does.
    let eof = text_session(&args, &base[..1], &dir.path().join("eof.jsonl"));
    assert!(eof.contains("you quit"), "{eof}");
}

#[test]
fn every_profile_plays_through_its_extra_questions() {
    let dir = tempfile::tempdir().unwrap();
    for (profile, players) in [
        ("peep-nap", "4"),
        ("purchase-nap", "5"),
        ("sir-garnet", "4"),
        ("pub-guide", "3"),
        ("encyclopedia", "7"),
    ] {
        let save = dir.path().join(format!("{profile}.jsonl"));
        let driven = drive(
            &["--rules", profile],
            &[
                "--seed",
                "2",
                "--players",
                players,
                "--deals",
                "3",
                "--seat",
                "1",
            ],
            &save,
        );
        let records = std::fs::read_to_string(&save).unwrap();
        assert_eq!(records.lines().count(), 3, "{profile}");
        assert!(
            driven.objects.iter().any(|o| o["type"] == "end"),
            "{profile}"
        );
    }
}

#[test]
fn bad_flags_are_refused_with_one_error_line() {
    assert_bad(&["play", "--seat", "4"], "--seat 4 is not a seat");
    assert_bad(&["play", "--bots", "nonsense"], "bots");
    assert_bad(&["play", "--players", "9"], "9");
}
