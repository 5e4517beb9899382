//! `napsim play`: complete sessions driven through the JSON line protocol and replayed as text,
//! hints at a call and at a card, wrong answers, `quit` and the end of the input.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::{assert_bad, napsim, running};
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
    let (driven, ended) = drive_until(global, play, save, None);
    assert!(ended.status.success(), "{}", ended.stderr);
    driven
}

/// How a driven session's process ended.
struct Ended {
    status: std::process::ExitStatus,
    stderr: String,
}

/// [`drive`], without asking that the session succeed; with `signal`, sends that signal to
/// napsim once the first deal's result has been read.
fn drive_until(
    global: &[&str],
    play: &[&str],
    save: &std::path::Path,
    signal: Option<i32>,
) -> (Driven, Ended) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_napsim"));
    command
        .args(global)
        .arg("play")
        .args(play)
        .args(["--json", "--save", save.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = common::with_default_hangup(&mut command).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut driven = Driven {
        objects: Vec::new(),
        answers: Vec::new(),
    };
    let mut trumps = ["C", "D", "H", "S"].iter().cycle();
    let mut signalled = false;
    for line in stdout.lines() {
        if signalled {
            // Read on to the end: a closed pipe would end napsim before the signal does.
            continue;
        }
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
        let result = object["type"] == "result";
        driven.objects.push(object);
        if let (true, Some(signal)) = (result, signal) {
            // SAFETY: kill has no memory effects.
            unsafe { libc::kill(child.id() as i32, signal) };
            signalled = true;
            continue;
        }
        if let Some(answer) = answer {
            // A session that has ended (a failed bot) no longer reads.
            if writeln!(stdin, "{}", json!({"answer": answer})).is_err() {
                break;
            }
            driven.answers.push(answer);
        }
    }
    // The input stays open until napsim has ended: its end would end the session as `quit`.
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let ended = Ended {
        status: out.status,
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    (driven, ended)
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
    // Every request of deal D carries the session: D of 8, the balances of deals 1..D.
    let mut deal = 0;
    for object in &driven.objects {
        match object["type"].as_str().unwrap() {
            "deal" => deal = object["number"].as_u64().unwrap() as usize,
            "bid" | "play" => {
                let before: Vec<i64> = (0..4)
                    .map(|seat| {
                        records[..deal - 1]
                            .iter()
                            .map(|r| r["payments"][seat].as_i64().unwrap())
                            .sum()
                    })
                    .collect();
                assert_eq!(
                    object["session"],
                    json!({"deal": deal, "deals": 8, "balances": before}),
                    "{object}"
                );
            }
            _ => {}
        }
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

    // quit at the first prompt: exit 0, and no file, since no deal was finished.
    let quit_save = dir.path().join("quit.jsonl");
    let quit = text_session(&args, &["quit".to_string()], &quit_save);
    assert!(quit.contains("you quit"), "{quit}");
    assert!(
        quit.contains("no deal was finished: nothing is saved"),
        "{quit}"
    );
    assert!(!quit_save.exists());
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

#[test]
fn a_signal_during_a_session_keeps_the_finished_deals() {
    let dir = tempfile::tempdir().unwrap();
    for (signal, name) in [
        (libc::SIGINT, "int"),
        (libc::SIGTERM, "term"),
        (libc::SIGHUP, "hup"),
    ] {
        let save = dir.path().join(format!("{name}.jsonl"));
        let (driven, ended) = drive_until(
            &[],
            &["--seed", "5", "--bots", "threshold/heuristic"],
            &save,
            Some(signal),
        );
        assert_eq!(ended.status.code(), Some(130), "{name}: {}", ended.stderr);
        let results = driven.objects.iter().filter(|o| o["type"] == "result");
        assert_eq!(results.count(), 1);
        let saved = std::fs::read_to_string(&save).unwrap();
        assert_eq!(saved.lines().count(), 1, "{name}: {saved}");
        let expected = format!(
            "interrupted: the 1 finished deal is saved in {}",
            save.display()
        );
        assert_eq!(ended.stderr.trim_end(), expected, "{name}");
    }
}

#[test]
fn a_saved_session_is_never_replaced_unasked_nor_by_an_empty_one() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("kept.jsonl");
    std::fs::write(&save, "an earlier session\n").unwrap();
    let args = [
        "play",
        "--seed",
        "5",
        "--bots",
        "threshold/heuristic",
        "--deals",
        "1",
    ];
    let save_arg = ["--save", save.to_str().unwrap()];
    let out = napsim()
        .args(args)
        .args(save_arg)
        .write_stdin("quit\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("the file exists") && stderr.contains("--force"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "refused before the session starts");
    // --force, but no deal finished: the earlier session stays.
    let quit = napsim()
        .args(args)
        .args(save_arg)
        .arg("--force")
        .write_stdin("quit\n")
        .output()
        .unwrap();
    assert!(quit.status.success());
    assert_eq!(
        std::fs::read_to_string(&save).unwrap(),
        "an earlier session\n"
    );
    // --force and a finished deal: replaced.
    let (driven, ended) = drive_until(&[], &args[1..], &save, None);
    assert!(!ended.status.success(), "the session file exists");
    assert!(driven.objects.is_empty());
    let (_, ended) = drive_until(&[], &[&args[1..], &["--force"]].concat(), &save, None);
    assert!(ended.status.success(), "{}", ended.stderr);
    let saved = std::fs::read_to_string(&save).unwrap();
    assert_eq!(saved.lines().count(), 1);
    assert!(saved.starts_with('{'), "{saved}");
}

#[test]
fn an_unwritable_save_path_is_refused_before_the_session() {
    let out = napsim()
        .args([
            "play",
            "--seed",
            "5",
            "--save",
            "/proc/napsim-session.jsonl",
        ])
        .write_stdin("quit\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "refused before the session starts");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: cannot write /proc/napsim-session.jsonl"),
        "{stderr}"
    );
}

#[test]
fn a_failing_bot_ends_the_session_with_one_error_line_and_its_finished_deals_saved() {
    let dir = tempfile::tempdir().unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/misbehave.py");
    // (how, on which card request, what the error says, deals finished before it)
    let cases = [
        ("crash", "1", "exited with status 3 before answering", 0),
        ("hang", "1", "did not answer within 2 s", 0),
        ("illegal", "1", "it answered: {", 0),
        ("exit", "21", "exited with status 0 before answering", 2),
    ];
    for (how, after, said, finished) in cases {
        let tag = format!("tag-play-{how}-{}", std::process::id());
        let bots = format!("threshold/ext:cmd=(python3 {script} {how} {after} {tag})");
        let save = dir.path().join(format!("{how}.jsonl"));
        let started = std::time::Instant::now();
        let (driven, ended) = drive_until(
            &["--move-time", "2"],
            &["--seed", "5", "--bots", &bots],
            &save,
            None,
        );
        let took = started.elapsed();
        let what = format!("{how}: {}", ended.stderr);
        assert_eq!(ended.status.code(), Some(1), "{what}");
        assert_eq!(ended.stderr.lines().count(), 1, "{what}");
        assert!(
            ended.stderr.starts_with("error: bot ext:cmd=(python3 "),
            "{what}"
        );
        assert!(ended.stderr.contains(said), "{what}");
        assert!(!ended.stderr.contains("panicked"), "{what}");
        assert!(
            took < std::time::Duration::from_secs(60),
            "{what}: {took:?}"
        );
        assert!(!running(&tag), "{what}: a bot process is left");
        let results = driven.objects.iter().filter(|o| o["type"] == "result");
        assert_eq!(results.count(), finished, "{what}");
        if finished == 0 {
            assert!(ended.stderr.contains("nothing is saved"), "{what}");
            assert!(!save.exists(), "{what}");
        } else {
            let saved = std::fs::read_to_string(&save).unwrap();
            assert_eq!(saved.lines().count(), finished, "{what}");
            assert!(
                ended
                    .stderr
                    .contains(&format!("saved in {}", save.display())),
                "{what}"
            );
        }
    }
}

/// Plays a whole session through the library's step-by-step [`Game`] with a simple rule (the
/// second legal call, else the first; the highest legal card; no peek or purchase; the first
/// five cards kept; the lowest card discarded; trump named C, D, H, S in turn), asking for a
/// hint at the first call and card when `hints`; returns the answers given, as text, and the
/// game.
fn play_through<'p>(
    profile: &'p napsim::rules::Profile,
    settings: napsim::analysis::game::GameSettings,
    hints: bool,
) -> (Vec<String>, napsim::analysis::game::Game<'p>) {
    use napsim::analysis::game::{Event, Game, Question};
    let mut game = Game::new(profile, settings).unwrap();
    let mut events = Vec::new();
    let mut answers = Vec::new();
    let mut trumps = ["C", "D", "H", "S"].iter().cycle();
    let mut hinted = (false, false);
    while let Some(question) = game.advance(&mut events).unwrap() {
        let state = game.state().unwrap();
        let me = game.settings().seat;
        let text = match question {
            Question::Call => {
                if hints && !hinted.0 {
                    hinted.0 = true;
                    game.call_hint().unwrap();
                }
                let legal = game.legal_calls();
                let call = legal.get(1).unwrap_or(&legal[0]);
                call.name(profile).to_string()
            }
            Question::Card => {
                if hints && !hinted.1 {
                    hinted.1 = true;
                    assert!(!game.card_hint().unwrap().is_empty());
                }
                let state = game.state().unwrap();
                state.legal_cards().iter_desc().next().unwrap().to_string()
            }
            Question::Peek => "no".into(),
            Question::Purchase => "none".into(),
            Question::Keep => (state.hand(me) | state.spare())
                .iter_desc()
                .take(5)
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            Question::Discard => state.hand(me).iter_desc().last().unwrap().to_string(),
            Question::Trump => trumps.next().unwrap().to_string(),
        };
        let answer = game.parse_answer(&text).unwrap();
        game.answer(answer, &mut events).unwrap();
        answers.push(text);
    }
    assert!(matches!(events.last(), Some(Event::End { .. })));
    (answers, game)
}

#[test]
fn the_library_game_plays_the_session_napsim_play_plays_and_hints_change_nothing() {
    use napsim::analysis::game::GameSettings;
    let dir = tempfile::tempdir().unwrap();
    for (profile, players, seat) in [
        ("heather-1875", 4, 0),
        ("peep-nap", 4, 1),
        ("purchase-nap", 5, 2),
        ("sir-garnet", 4, 1),
        ("pub-guide", 3, 0),
    ] {
        let rules = napsim::rules::load_profile(profile).unwrap();
        let settings = GameSettings {
            deals: Some(3),
            bots: "threshold/heuristic".into(),
            hint_worlds: 64,
            threads: 1,
            ..GameSettings::new(players, seat, 11)
        };
        let (answers, game) = play_through(&rules, settings.clone(), false);
        let (_, hinted) = play_through(&rules, settings, true);
        let records = |game: &napsim::analysis::game::Game| -> Vec<napsim::report::DealRecord> {
            game.finished()
                .iter()
                .map(napsim::report::DealRecord::from_state)
                .collect()
        };
        assert_eq!(
            records(&game),
            records(&hinted),
            "{profile}: a hint moved the game"
        );
        let sum: i64 = game.balances().iter().sum();
        let kitty = records(&game).last().unwrap().kitty_after.unwrap_or(0);
        assert_eq!(sum + kitty, 0, "{profile}");
        // The same answers typed into `napsim play` play the same deals.
        let save = dir.path().join(format!("{profile}.jsonl"));
        let (p, s) = (players.to_string(), seat.to_string());
        let args = [
            "--rules",
            profile,
            "play",
            "--players",
            &p,
            "--seat",
            &s,
            "--seed",
            "11",
            "--deals",
            "3",
            "--bots",
            "threshold/heuristic",
        ];
        let out = napsim()
            .args(args)
            .args(["--save", save.to_str().unwrap()])
            .write_stdin(answers.join("\n") + "\n")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let saved: Vec<napsim::report::DealRecord> = std::fs::read_to_string(&save)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(saved, records(&game), "{profile}");
    }
}

#[test]
fn the_library_game_refuses_a_wrong_answer_and_the_question_stands() {
    use napsim::analysis::game::{Answer, Game, GameSettings, Question};
    let rules = napsim::rules::Profile::default_profile();
    let settings = GameSettings {
        deals: Some(1),
        bots: "pass/heuristic".into(),
        ..GameSettings::new(4, 0, 5)
    };
    let mut game = Game::new(&rules, settings).unwrap();
    let mut events = Vec::new();
    assert_eq!(game.advance(&mut events).unwrap(), Some(Question::Call));
    assert!(
        game.parse_answer("banana")
            .unwrap_err()
            .contains("is not a call")
    );
    // A card is not a call: refused, nothing happens.
    let card = game.state().unwrap().hand(0).first().unwrap();
    let refused = game.answer(Answer::Card(card), &mut events).unwrap_err();
    assert_eq!(refused, "the question is a call");
    assert_eq!(game.pending(), Some(Question::Call));
    let answer = game.parse_answer("three").unwrap();
    game.answer(answer, &mut events).unwrap();
    // The bots pass; the person leads: a card not held is refused.
    assert_eq!(game.advance(&mut events).unwrap(), Some(Question::Card));
    let not_held = (game.state().unwrap().pack() - game.state().unwrap().hand(0))
        .first()
        .unwrap();
    let refused = game
        .answer(Answer::Card(not_held), &mut events)
        .unwrap_err();
    assert_eq!(refused, format!("you do not hold {not_held}"));
    assert_eq!(game.pending(), Some(Question::Card));
    assert!(Game::new(&rules, GameSettings::new(4, 4, 1)).is_err());
    assert!(Game::new(&rules, GameSettings::new(9, 0, 1)).is_err());
}
