//! `napsim solve` and the solver-based play policies from the command line.

use crate::common;
use common::*;

#[test]
fn solve_json_values_every_lead() {
    // Seat 0 holds the five top spades: any lead makes spades trump and takes all five.
    let deal = "AS KS QS JS TS/2H 3H 4H 5H 6H/2D 3D 4D 5D 6D/2C 3C 4C 5C 6C";
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["solve", deal, "--json"])).unwrap();
    assert_eq!(json["best"], 5);
    let leads = json["leads"].as_object().unwrap();
    assert_eq!(leads.len(), 5);
    assert!(leads.values().all(|v| v == 5));
    assert!(
        leads.contains_key("TS"),
        "cards written rank then suit, T for ten"
    );

    // A misère with the lowest cards everywhere is safe for the declarer.
    let deal = "2S 2H 2D 2C 3S/AS KS QS JS TS/AH KH QH JH TH/AD KD QD JD TD";
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["solve", deal, "--misere", "--json"])).unwrap();
    assert_eq!(json["best"], 0);

    // An ending of two cards each: leading the ace (spades trump) wins one trick and the 2H
    // loses; leading the 2H (hearts trump) loses, and the ace wins later.
    let text = stdout(&["solve", "AS 2H/KS 3H/QS 4H"]);
    assert!(text.contains("best: 1 trick\n"), "{text}");
    let text = stdout(&["solve", "AS AH/KS 3H/QS 4H"]);
    assert!(text.contains("best: 2 tricks\n"), "{text}");
}

#[test]
fn solve_knows_the_lead_rules_of_the_bid() {
    // Bonaparte (Peep Nap: the lowest trump led) allows one lead per suit.
    // (Peep Nap plays with the 24 cards from the nine up at four players.)
    let deal = "AS KS QS 9S AH/KH QH JH TH 9H/AD KD QD JD TD/AC KC QC JC TC";
    // The opening leads `solve --json` values under Peep Nap with `extra` arguments.
    let leads = |extra: &[&str]| -> Vec<String> {
        let args = [&["--rules", "peep-nap", "solve", deal, "--json"], extra].concat();
        let json: serde_json::Value = serde_json::from_str(&stdout(&args)).unwrap();
        json["leads"].as_object().unwrap().keys().cloned().collect()
    };
    assert_eq!(leads(&["--bid", "bonaparte-without-floater"]), ["9S", "AH"]);
    // Peep Nap's Wellington names trump and leads the lowest side card.
    let wellington = ["--bid", "wellington-with-floater", "--trump", "S"];
    assert_eq!(leads(&wellington), ["AH"]);
}

#[test]
fn solve_random_reports_the_distribution_and_times() {
    let random = || -> serde_json::Value {
        let args = [
            "solve",
            "--random",
            "300",
            "--players",
            "5",
            "--seed",
            "4",
            "--json",
        ];
        serde_json::from_str(&stdout(&args)).unwrap()
    };
    let json = random();
    let counts: Vec<u64> = json["best_tricks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(counts.len(), 6);
    assert_eq!(counts.iter().sum::<u64>(), 300);
    assert!(
        json["time_us"]["max"].as_f64().unwrap() >= json["time_us"]["median"].as_f64().unwrap()
    );
    // The same seed gives the same distribution.
    let again = random();
    assert_eq!(json["best_tricks"], again["best_tricks"]);
    let text = stdout(&["solve", "--random", "50", "--seed", "1", "--misere"]);
    assert!(text.contains("misère") && text.contains("p99"), "{text}");
}

#[test]
fn bad_deals_exit_2() {
    let good = "AS KS QS JS TS/2H 3H 4H 5H 6H/2D 3D 4D 5D 6D/2C 3C 4C 5C 6C";
    assert_bad(&["solve", "AS KS QS JS TS/2H 3H 4H 5H 6H"], "2 hands");
    let eight = [good, good].join("/");
    assert_bad(&["solve", &eight], "8 hands");
    assert_bad(&["solve", &good.replace("6C", "AS")], "AS appears twice");
    assert_bad(&["solve", &good.replace(" 6C", "")], "hands must be equal");
    assert_bad(&["solve", &good.replace("6C", "ZZ")], "ZZ");
    assert_bad(
        &[
            "solve",
            "AS KS QS JS TS 9S/2H 3H 4H 5H 6H 7H/2D 3D 4D 5D 6D 7D",
        ],
        "1 to 5",
    );
    assert_bad(
        &[
            "--rules",
            "tests/data/profiles/rulebook-doubled-reduced.toml",
            "solve",
            good,
        ],
        "not in the pack",
    );
    assert_bad(&["solve", good, "--bid", "sixes"], "sixes");
    assert_bad(
        &[
            "--rules",
            "peep-nap",
            "solve",
            good,
            "--bid",
            "wellington-with-floater",
        ],
        "--trump",
    );
    assert_bad(&["solve", good, "--trump", "X"], "not a suit");
    assert_bad(&["solve", good, "--trump", "S"], "leave out --trump");
    assert_bad(&["solve", "--random", "0"], "at least 1");
    assert_bad(&["solve", "--random", "10", "--players", "9"], "3 to 7");
    assert_bad(&["simulate", "--play", "pimc:worlds=0"], "worlds");
    assert_bad(&["simulate", "--play", "pimc:depth=3"], "depth");
    assert_bad(&["simulate", "--play", "dd:x=1"], "x");
}

#[test]
fn solver_players_run_on_every_profile_and_are_reproducible() {
    let names = stdout(&["rules", "list"]);
    for name in names.lines().map(|l| l.split_whitespace().next().unwrap()) {
        for play in ["pimc:worlds=32", "dd", "ismcts:iterations=50"] {
            let args = [
                "--rules", name, "simulate", "--deals", "60", "--seed", "5", "--play", play,
                "--quiet",
            ];
            let text = stdout(&args);
            assert!(text.contains("deals in"), "{name} {play}: {text}");
        }
    }
    // Byte-identical across thread counts (the per-thread solver tables change no answer).
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str| {
        let out = dir.path().join(format!("p{threads}.csv"));
        napsim()
            .args([
                "simulate",
                "--deals",
                "3000",
                "--seed",
                "9",
                "--play",
                "pimc:worlds=8",
            ])
            .args([
                "--bid",
                "always:bid=three",
                "--quiet",
                "--threads",
                threads,
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        std::fs::read(out).unwrap()
    };
    assert_eq!(run("1"), run("2"));
}

/// The resident memory of process `pid` in kB (Linux), if it can be read.
fn resident_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_trillion_random_deals_run_in_constant_memory_until_stopped() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    // It used to abort at once, allocating room for a trillion solve times.
    /// Ends the run however the test ends: it would otherwise go on for months.
    struct KillOnDrop(std::process::Child);
    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_napsim"));
    command
        .args(["solve", "--random", "1e12", "--seed", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // A shell without job control starts background jobs with SIGINT ignored, and the child
    // would inherit that (`.ci/run &` made this test fail): give it the terminal's default.
    // SAFETY: between fork and exec only `signal`, which is async-signal-safe, is called.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut guard = KillOnDrop(command.spawn().unwrap());
    let child = &mut guard.0;
    let mut samples = Vec::new();
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            child.try_wait().unwrap().is_none(),
            "it stopped by itself: {:?}",
            child.try_wait()
        );
        samples.extend(resident_kb(child.id()));
    }
    // Solving deals costs the same memory after a moment as after two seconds.
    if let (Some(first), Some(last)) = (samples.first(), samples.last()) {
        assert!(*last < 64 * 1024, "{samples:?} kB resident");
        assert!(*last <= first + 2048, "memory grows: {samples:?} kB");
    }
    // Ctrl-C ends it (a liveness bound, not a speed test).
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "still running after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
}
