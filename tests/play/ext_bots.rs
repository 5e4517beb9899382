//! External bots (`ext:cmd=(...)`, docs/protocol.md) end to end: the shipped Python examples
//! play, deterministically whatever the thread count, and a bot that crashes, hangs, answers
//! an illegal card or no JSON ends the run with exit status 1 and one `error:` line, within the
//! move time plus a second, leaving no process behind.

use crate::common;
use common::{napsim, running};

use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn bot(script: &str, args: &str) -> String {
    format!("ext:cmd=(python3 {ROOT}/{script} {args})")
}

#[test]
fn the_example_bots_play_the_same_deals_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("t{threads}.csv"));
        let status = napsim()
            .args(["simulate", "--deals", "3000", "--seed", "11", "--quiet"])
            .args(["--threads", threads, "--out", out.to_str().unwrap()])
            .args(["--bid", &bot("bots/lowest_bot.py", "")])
            .args(["--play", &bot("bots/random_bot.py", "")])
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
        outputs.push(std::fs::read(out).unwrap());
    }
    assert_eq!(outputs[0], outputs[1]);
    // The lowest bot passes whenever it may: only the dealer, who must bid when everyone
    // passed... or nobody, in a profile that allows an all-pass deal. Either way the random
    // player made some contracts and lost others.
    let csv = String::from_utf8(outputs.remove(0)).unwrap();
    assert!(csv.lines().count() > 1, "{csv}");
}

#[test]
fn a_python_bot_plays_a_tournament_against_the_heuristic() {
    let out = napsim()
        .args(["tournament", "--sessions", "100", "--seed", "2", "--quiet"])
        .args([
            "--entrant",
            &format!("py=threshold/{}", bot("bots/random_bot.py", "")),
        ])
        .args(["--entrant", "h=threshold/heuristic"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // The random player loses to the heuristic: its row's balance is negative.
    let py = text.lines().find(|l| l.starts_with("py ")).expect(&text);
    let balance: f64 = py.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(balance < 0.0, "{text}");
}

/// Runs `simulate` with the misbehaving bot in mode `how` and returns its stderr, checking the
/// exit status, the single error line, the time and that no bot process is left.
fn misbehaving(how: &str, extra: &[&str]) -> String {
    let tag = format!("tag-{how}-{}", std::process::id());
    let started = Instant::now();
    let out = napsim()
        .args([
            "--move-time",
            "1",
            "simulate",
            "--deals",
            "2000",
            "--seed",
            "1",
            "--quiet",
        ])
        .args([
            "--play",
            &bot("tests/bots/misbehave.py", &format!("{how} 1 {tag}")),
        ])
        .args(extra)
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{how}: {stderr}");
    assert!(out.stdout.is_empty(), "{how}: stdout {:?}", out.stdout);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{how}: {stderr}");
    assert!(
        lines[0].starts_with("error: bot ext:cmd=(python3 "),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The request is named, with the deal's block and seed.
    assert!(
        stderr.contains("request: {") && stderr.contains("\"type\":\"play\""),
        "{stderr}"
    );
    assert!(stderr.contains("of the run with seed 1)"), "{stderr}");
    // A liveness bound, generous so that a loaded machine cannot fail it: a hanging bot sleeps
    // an hour, and only the move time (1 s) stops it sooner.
    assert!(took < Duration::from_secs(60), "{how}: {took:?}");
    assert!(!running(&tag), "{how}: a bot process is left");
    stderr
}

#[test]
fn a_bot_that_crashes_ends_the_run_with_one_error_line() {
    let e = misbehaving("crash", &[]);
    assert!(e.contains("exited with status 3 before answering"), "{e}");
}

#[test]
fn a_bot_that_hangs_is_stopped_after_the_move_time() {
    let e = misbehaving("hang", &[]);
    assert!(e.contains("did not answer within 1 s"), "{e}");
}

#[test]
fn a_bot_that_plays_an_illegal_card_ends_the_run() {
    let e = misbehaving("illegal", &[]);
    assert!(
        e.contains("is not a legal card here") && e.contains("it answered: {"),
        "{e}"
    );
}

#[test]
fn a_bot_that_answers_no_json_ends_the_run() {
    let e = misbehaving("garbage", &[]);
    assert!(
        e.contains("not a JSON object") && e.contains("this is not json"),
        "{e}"
    );
}

#[test]
fn a_bot_that_answers_twice_is_caught_at_its_stray_line() {
    let e = misbehaving("twice", &[]);
    assert!(
        e.contains("wrote a line no request asked for") && e.contains("{\"card\": "),
        "{e}"
    );
}

#[test]
fn a_bot_that_writes_a_huge_line_is_refused_at_the_limit() {
    let e = misbehaving("huge", &[]);
    assert!(e.contains("an answer line over 1 MiB"), "{e}");
}

#[test]
fn the_worlds_finished_before_a_failure_are_saved_in_the_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.checkpoint");
    let tag = format!("tag-late-{}", std::process::id());
    // One thread: the blocks of 64 worlds run in order, and the bot fails on its 20,000th
    // card, some blocks in.
    let out = napsim()
        .args([
            "hand",
            "AS KS QS 7H 2D",
            "--worlds",
            "1024",
            "--seed",
            "3",
            "--quiet",
        ])
        .args([
            "--threads",
            "1",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ])
        .args([
            "--play",
            &bot("tests/bots/misbehave.py", &format!("crash 20000 {tag}")),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("worlds finished before it are saved in"),
        "{stderr}"
    );
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&checkpoint).unwrap()).unwrap();
    // The first blocks, all of them finished, none of the failed one.
    let done = saved["done"].as_array().unwrap();
    assert_eq!(done.len(), 1, "{saved}");
    let (first, end) = (done[0][0].as_u64().unwrap(), done[0][1].as_u64().unwrap());
    assert!(first == 0 && end > 0 && end < 16, "{done:?}");
    assert!(
        stderr.contains(&format!("(block {end} of the run with seed 3)")),
        "{stderr}"
    );
    assert!(!running(&tag));
}

#[test]
fn a_bot_that_cannot_start_is_named() {
    let out = napsim()
        .args(["simulate", "--deals", "100", "--seed", "1", "--quiet"])
        .args(["--play", "ext:cmd=(/nonexistent/bot --fast)"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("could not be started: /nonexistent/bot"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_bot_spec_without_a_command_is_refused() {
    common::assert_bad(&["simulate", "--play", "ext:log=(x.log)"], "cmd");
}

#[test]
fn with_forfeit_a_failing_bot_loses_its_deals_and_the_tournament_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.csv");
    let tag = format!("tag-forfeit-{}", std::process::id());
    // The bot crashes on every 300th card it is asked for, and is started again each time.
    let py = format!(
        "py=threshold/{}",
        bot("tests/bots/misbehave.py", &format!("crash 300 {tag}"))
    );
    let run = napsim()
        .args([
            "tournament",
            "--sessions",
            "60",
            "--seed",
            "3",
            "--quiet",
            "--forfeit",
        ])
        .args(["--entrant", &py, "--entrant", "h=threshold/heuristic"])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let text = String::from_utf8(run.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("forfeits (deals lost to a failing bot): "))
        .expect(&text);
    let counts: Vec<u64> = line
        .rsplit(": ")
        .next()
        .unwrap()
        .split(", ")
        .map(|entry| entry.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(counts[0] > 0 && counts[1] == 0, "{line}");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(napsim::files::meta_path(&out)).unwrap()).unwrap();
    assert_eq!(meta["outcome"]["forfeits"]["py"], counts[0]);
    assert!(!running(&tag));
}

/// How a bot misbehaves in the command matrix, and what the error line must say of it.
const MISDEEDS: [(&str, &str, &str); 4] = [
    ("crash", "1", "exited with status 3 before answering"),
    ("hang", "1", "did not answer within 2 s"),
    ("illegal", "1", "it answered: {"),
    ("exit", "21", "exited with status 0 before answering"),
];

/// Runs napsim with `args` (where `BOT` stands for the misbehaving bot in mode `how`, delayed
/// to request `after`) and checks the failure: exit 1 (within a minute: the move time, 2 s,
/// stops a bot that would hang for an hour), one `error:` line naming the bot and `said`, no
/// panic, no process left.
fn fails_cleanly(args: &[&str], how: &str, after: &str, said: &str) {
    let tag = format!("tag-{how}-{after}-{}-{}", args[0], std::process::id());
    let spec = bot("tests/bots/misbehave.py", &format!("{how} {after} {tag}"));
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "BOT" { spec.as_str() } else { a })
        .collect();
    let started = Instant::now();
    let out = napsim()
        .args(["--move-time", "2"])
        .args(&args)
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let what = format!("{args:?}: {stderr}");
    assert_eq!(out.status.code(), Some(1), "{what}");
    assert_eq!(stderr.lines().count(), 1, "{what}");
    assert!(stderr.starts_with("error: bot ext:cmd=(python3 "), "{what}");
    assert!(stderr.contains(said), "{what}");
    assert!(!stderr.contains("panicked"), "{what}");
    // Liveness, as in `misbehaving`: a hanging bot sleeps an hour.
    assert!(took < Duration::from_secs(60), "{what}: {took:?}");
    assert!(!running(&tag), "{what}: a bot process is left");
}

#[test]
fn deal_hand_and_review_end_with_one_error_line_when_a_bot_fails() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record.jsonl");
    let deals = common::stdout(&["deal", "--count", "3", "--seed", "1", "--json"]);
    std::fs::write(&record, deals).unwrap();
    let record = record.to_str().unwrap();
    for (how, after, said) in MISDEEDS {
        fails_cleanly(
            &["deal", "--count", "5", "--seed", "1", "--play", "BOT"],
            how,
            after,
            said,
        );
        fails_cleanly(
            &["review", record, "--worlds", "0", "--choice", "BOT"],
            how,
            after,
            said,
        );
        // The earlier seat's call conditions the worlds: the bot is asked for it while the
        // worlds are drawn, before any run of blocks.
        let bid_how = format!("bid-{how}");
        let said = if how == "illegal" {
            "no-such-call"
        } else {
            said
        };
        fails_cleanly(
            &[
                "hand",
                "AS KS QS 7D 2C",
                "--seat",
                "1",
                "--after",
                "pass",
                "--others-bid",
                "BOT",
                "--play",
                "heuristic",
                "--worlds",
                "64",
                "--seed",
                "1",
                "--quiet",
            ],
            &bid_how,
            after,
            said,
        );
    }
}

#[test]
fn a_bots_children_end_with_it() {
    let e = misbehaving("spawn", &[]);
    assert!(e.contains("exited with status 3 before answering"), "{e}");
}

#[test]
fn ctrl_c_at_the_terminal_stops_a_run_with_bots_and_saves_its_checkpoint() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.checkpoint");
    let tag = format!("tag-ctrl-c-{}", std::process::id());
    // napsim leads a process group of its own, as a shell's foreground job does; the
    // terminal's Ctrl-C goes to the whole group.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_napsim"))
        .args(["simulate", "--deals", "1000000", "--seed", "1", "--quiet"])
        .args(["--checkpoint", checkpoint.to_str().unwrap()])
        .args([
            "--bid",
            &bot("tests/bots/misbehave.py", &format!("fine 1 {tag}")),
        ])
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !running(&tag) && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: kill has no memory effects.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(checkpoint.exists(), "{stderr}");
    assert!(!running(&tag), "a bot process is left");
}

#[test]
fn ctrl_c_during_a_command_outside_the_long_runs_ends_its_bots() {
    let tag = format!("tag-deal-ctrl-c-{}", std::process::id());
    // The bot hangs on its first card: napsim waits for it when the signal comes.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_napsim"))
        .args(["deal", "--count", "5", "--seed", "1", "--play"])
        .arg(bot("tests/bots/misbehave.py", &format!("hang 1 {tag}")))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !running(&tag) && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill has no memory effects.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let ended = Instant::now();
    while running(&tag) && ended.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!running(&tag), "the bot outlived napsim");
}

#[test]
fn a_tournament_tells_a_bot_where_each_deal_stands_in_its_session() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("requests.txt");
    let recorder = bot("tests/bots/record.py", record.to_str().unwrap());
    let out = napsim()
        .args(["tournament", "--sessions", "3", "--seed", "4", "--quiet"])
        .args(["--threads", "1", "--players", "3"])
        .args(["--entrant", &format!("rec={recorder}/heuristic")])
        .args(["--entrant", "h=threshold/heuristic"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let requests: Vec<serde_json::Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("> "))
        .map(|line| serde_json::from_str(line).unwrap())
        .filter(|request: &serde_json::Value| request["type"] == "bid")
        .collect();
    assert!(!requests.is_empty());
    let mut deals_seen = std::collections::BTreeSet::new();
    for request in &requests {
        let session = &request["session"];
        assert_eq!(session["deals"], 8, "{request}");
        let deal = session["deal"].as_u64().unwrap();
        let balances: Vec<i64> = session["balances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_i64().unwrap())
            .collect();
        assert_eq!(balances.len(), 3, "{request}");
        // heather-1875 has no kitty: the balances sum to zero, and start at zero.
        assert_eq!(balances.iter().sum::<i64>(), 0, "{request}");
        if deal == 1 {
            assert_eq!(balances, [0, 0, 0], "{request}");
        }
        deals_seen.insert(deal);
    }
    // The bot bid in every deal of its sessions, so it saw every deal number, and some deal
    // after the first found the balances moved (many deals at three are passed out).
    assert_eq!(deals_seen, (1..=8).collect());
    assert!(
        requests.iter().any(|r| r["session"]["balances"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b != 0)),
        "the balances never moved"
    );
}

/// How many processes carry `tag` in their command line.
fn count_running(tag: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|entry| {
            std::fs::read(entry.path().join("cmdline"))
                .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(tag))
        })
        .count()
}

/// Plays one deal with `play` at every seat.
fn one_deal(profile: &napsim::rules::Profile, play: &dyn napsim::policy::PlayPolicy, seed: u64) {
    let bid = napsim::bots::bid_policy("always:bid=three", profile).unwrap();
    let table = napsim::policy::Table::uniform(bid.as_ref(), play);
    let (mut deal_rng, mut policy_rng) = napsim::rng::block_streams(seed, 0);
    let dealt = napsim::game::Shuffler::new(profile, 4).deal(0, &mut deal_rng);
    let mut state = napsim::game::DealState::new(profile, 0, dealt.hands(4));
    napsim::policy::run_deal(&mut state, &table, &mut policy_rng);
    assert_eq!(state.tricks_done(), 5);
}

#[test]
fn each_pool_owns_its_bots_and_dropping_it_ends_them() {
    use napsim::bots::ext::BotPool;
    let profile = napsim::rules::Profile::default_profile();
    let tag = format!("tag-pools-{}", std::process::id());
    let spec = bot("tests/bots/misbehave.py", &format!("fine 1 {tag}"));
    let (first, second) = (BotPool::default(), BotPool::default());
    let a = napsim::bots::play_policy_in(&spec, &profile, &first).unwrap();
    let b = napsim::bots::play_policy_in(&spec, &profile, &second).unwrap();
    one_deal(&profile, a.as_ref(), 1);
    one_deal(&profile, b.as_ref(), 2);
    // One process per pool, kept between requests.
    assert_eq!(count_running(&tag), 2);
    one_deal(&profile, a.as_ref(), 3);
    assert_eq!(count_running(&tag), 2);
    // Ending one pool leaves the other's bot running; dropping the last handle ends it.
    second.shutdown();
    assert_eq!(count_running(&tag), 1);
    drop(b);
    drop(second);
    drop(first);
    assert_eq!(count_running(&tag), 1, "the policy still holds its pool");
    drop(a);
    let start = Instant::now();
    while running(&tag) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!running(&tag), "a bot outlived its pool");
}
