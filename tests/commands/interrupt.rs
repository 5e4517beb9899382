//! Interruption and resumption: SIGINT or SIGTERM stops a run at a block boundary, saves a
//! checkpoint, exits 130 and leaves no output file; the same command plus `--resume` ends with
//! the bytes of an uninterrupted run.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{assert_bad, napsim, stdout_in as ok};

/// Starts napsim in `dir` with `args`, in the background.
fn spawn(dir: &Path, args: &[&str]) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_napsim"));
    command
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    common::with_default_hangup(&mut command).spawn().unwrap()
}

/// Waits until `path` exists (the run's first checkpoint).
fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no checkpoint at {} after a minute",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` (`-INT`, `-TERM`) to `child`.
fn send(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Deals for a run long enough to interrupt (a few seconds on two cores).
fn deals() -> String {
    if cfg!(debug_assertions) {
        "4000000"
    } else {
        "8000000"
    }
    .to_string()
}

/// Half of [`deals`], for a run on one thread: as long a wait for the signal, half the work
/// (each such run is played again whole to compare, so the work counts twice).
fn deals_one_thread() -> String {
    (deals().parse::<u64>().unwrap() / 2).to_string()
}

#[test]
fn sigint_saves_a_checkpoint_and_resuming_gives_the_uninterrupted_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deals = deals();
    let command = ["simulate", "--deals", &deals, "--seed", "21", "--quiet"];
    let with = |extra: &[&'static str]| -> Vec<String> {
        command.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let args = with(&[
        "--out",
        "run.csv",
        "--checkpoint",
        "run.ckpt",
        "--checkpoint-every",
        "0.2",
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let child = spawn(d, &args);
    wait_for(&d.join("run.ckpt"));
    send(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted after") && stderr.contains("--resume run.ckpt"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    // No output, partial or whole; the checkpoint holds part of the run.
    assert!(!d.join("run.csv").exists());
    assert!(!d.join("run.csv.meta.json").exists());
    let checkpoint: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("run.ckpt")).unwrap()).unwrap();
    let done: u64 = checkpoint["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[1].as_u64().unwrap() - r[0].as_u64().unwrap())
        .sum();
    let blocks = checkpoint["identity"]["units"]
        .as_u64()
        .unwrap()
        .div_ceil(65536);
    assert!(done > 0 && done < blocks, "{done} of {blocks} blocks done");

    // The original command plus --resume finishes the run.
    let mut resumed = args.clone();
    resumed.extend(["--resume", "run.ckpt"]);
    let summary = ok(d, &resumed);
    ok(
        d,
        &with(&["--out", "uninterrupted.csv"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(
        std::fs::read(d.join("run.csv")).unwrap()
            == std::fs::read(d.join("uninterrupted.csv")).unwrap()
    );
    assert!(summary.contains(&format!("{deals} deals")), "{summary}");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("run.csv.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["units"].as_u64(), Some(deals.parse().unwrap()));
}

#[test]
fn sigterm_stops_a_shard_which_resumes_from_its_default_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Twice as many deals: the shard runs half of them, on one thread.
    let deals: String = (deals_one_thread().parse::<u64>().unwrap() * 2).to_string();
    let args = [
        "simulate",
        "--deals",
        &deals,
        "--seed",
        "5",
        "--shard",
        "1/2",
        "--out",
        "part.json",
        "--quiet",
        "--threads",
        "1",
    ];
    let child = spawn(d, &args);
    // Without --checkpoint nothing is saved before the stop: wait until the run is under way.
    std::thread::sleep(Duration::from_millis(500));
    send(&child, "-TERM");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(!d.join("part.json").exists());
    // Saved beside the output, under a name that holds a digest of the run.
    let saved = stderr
        .split("--resume ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no resume hint: {stderr}"))
        .to_string();
    assert!(
        saved.starts_with("part.json") && saved.ends_with(".checkpoint"),
        "{saved}"
    );
    // Running the command again without --resume would start from scratch: refused.
    let refused = napsim().current_dir(d).args(args).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains(&format!("--resume {saved}")));
    let mut resumed = args.to_vec();
    resumed.extend(["--resume", &saved]);
    ok(d, &resumed);
    // The resumed shard equals an uninterrupted one, tally for tally.
    let mut again = args.to_vec();
    again[8] = "again.json";
    std::fs::remove_file(d.join(&saved)).unwrap();
    ok(d, &again);
    let tally = |name: &str| -> serde_json::Value {
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join(name)).unwrap()).unwrap();
        serde_json::json!([v["tally"], v["done"], v["identity"]])
    };
    assert_eq!(tally("part.json"), tally("again.json"));
}

#[test]
fn damaged_or_foreign_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = ["simulate", "--deals", "200000", "--seed", "3", "--quiet"];
    let mut save = run.to_vec();
    save.extend(["--checkpoint", "c.json"]);
    ok(d, &save);
    let checkpoint = d.join("c.json");
    let text = std::fs::read_to_string(&checkpoint).unwrap();
    let resume = |path: &Path, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = run.iter().map(|s| s.to_string()).collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        args.extend(["--resume".to_string(), path.display().to_string()]);
        args
    };
    let check = |path: &Path, extra: &[&str], needle: &str| {
        let args = resume(path, extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_bad(&args, needle);
    };
    // Another run's arguments.
    check(
        &checkpoint,
        &["--players", "5"],
        "arguments.players is 4 there, 5 here",
    );
    check(
        &checkpoint,
        &["--rules", "pub-guide"],
        "profile is \"heather-1875\" there",
    );
    // Damaged files.
    let damaged = d.join("damaged.json");
    for (content, needle) in [
        (text[..text.len() / 2].to_string(), "not a napsim partial"),
        ("[1, 2, 3]".to_string(), "not a napsim partial"),
        (
            text.replace("\"tally\":{\"deals\"", "\"tally\":{\"dealz\""),
            "tally does not decode",
        ),
        (
            text.replace("\"done\":[[0,", "\"done\":[[9,"),
            "empty or reversed",
        ),
        (
            text.replace("\"format_version\":1", "\"format_version\":2"),
            "format 2",
        ),
    ] {
        std::fs::write(&damaged, content).unwrap();
        check(&damaged, &[], needle);
    }
    check(&d.join("missing.json"), &[], "cannot read");
}

/// A run that is killed if the test ends before it does (a failed assertion must not leave a
/// quadrillion-world run behind).
struct Running(Option<Child>);

impl Running {
    fn child(&self) -> &Child {
        self.0.as_ref().expect("still running")
    }

    /// Waits for the run to exit, failing if it is still running after `bound` (a liveness
    /// bound: generous, so that a loaded machine cannot fail it; a run that does not stop never
    /// exits).
    fn exits_within(mut self, bound: Duration, what: &str) -> std::process::Output {
        let start = Instant::now();
        let child = self.0.as_mut().expect("still running");
        while child.try_wait().unwrap().is_none() {
            assert!(
                start.elapsed() < bound,
                "{what}: still running {bound:?} after the signal"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        self.0.take().unwrap().wait_with_output().unwrap()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The blocks a checkpoint holds, as `[start, end)` pairs, and the units it has tallied.
fn checkpoint_progress(path: &Path) -> (Vec<(u64, u64)>, u64) {
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let done = saved["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap()))
        .collect();
    (done, saved["tally"]["worlds"].as_u64().unwrap())
}

#[test]
fn a_run_of_a_quadrillion_worlds_stops_at_once_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "hand",
        "AS KS QS JS TS",
        "--worlds",
        "1e15",
        "--play",
        "heuristic",
        "--seed",
        "7",
        "--threads",
        "2",
        "--quiet",
        "--checkpoint",
        "big.ckpt",
        "--checkpoint-every",
        "0.2",
    ];
    let checkpoint = d.join("big.ckpt");
    let run = Running(Some(spawn(d, &args)));
    wait_for(&checkpoint);
    send(run.child(), "-INT");
    let out = run.exits_within(Duration::from_secs(20), "SIGINT");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("of 1000000000000000 worlds"), "{stderr}");
    let (first, worlds) = checkpoint_progress(&checkpoint);
    assert!(worlds > 0, "{first:?}");

    // Resumed, it goes on from there (and stops again as quickly, on SIGTERM this time).
    let mut resumed = args.to_vec();
    resumed.extend(["--resume", "big.ckpt"]);
    let run = Running(Some(spawn(d, &resumed)));
    let start = Instant::now();
    while checkpoint_progress(&checkpoint).1 == worlds {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the resumed run saved no progress in a minute"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    send(run.child(), "-TERM");
    let out = run.exits_within(Duration::from_secs(20), "SIGTERM");
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (second, more) = checkpoint_progress(&checkpoint);
    assert!(more > worlds, "{worlds} then {more}");
    // Every block done before is still done.
    for (start, end) in first {
        assert!(
            second.iter().any(|&(s, e)| s <= start && end <= e),
            "[{start}, {end}) lost: {second:?}"
        );
    }
}

/// `args` run with SIGHUP ignored (as `nohup` leaves it), through the shell.
fn spawn_ignoring_hangup(dir: &Path, args: &[&str]) -> Child {
    let mut script = String::from("trap '' HUP; exec \"$0\"");
    for i in 1..=args.len() {
        script += &format!(" \"${{{i}}}\"");
    }
    Command::new("sh")
        .current_dir(dir)
        .args(["-c", &script, env!("CARGO_BIN_EXE_napsim")])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn sighup_stops_a_run_like_sigterm_even_when_stderr_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deals = deals_one_thread();
    let args = [
        "simulate",
        "--deals",
        &deals,
        "--seed",
        "4",
        "--out",
        "run.csv",
        "--checkpoint",
        "run.ckpt",
        "--checkpoint-every",
        "0.2",
        "--threads",
        "1",
    ];
    let mut child = spawn(d, &args);
    // The terminal has gone: nobody reads stderr any more.
    drop(child.stderr.take());
    let run = Running(Some(child));
    wait_for(&d.join("run.ckpt"));
    send(run.child(), "-HUP");
    let out = run.exits_within(Duration::from_secs(60), "SIGHUP");
    assert_eq!(out.status.code(), Some(130));
    assert!(!d.join("run.csv").exists());
    // The checkpoint resumes to the uninterrupted bytes.
    let mut resumed = args.to_vec();
    resumed.extend(["--resume", "run.ckpt"]);
    ok(d, &resumed);
    let mut again = args[..5].to_vec();
    again.extend(["--out", "again.csv"]);
    ok(d, &again);
    assert!(
        std::fs::read(d.join("run.csv")).unwrap() == std::fs::read(d.join("again.csv")).unwrap()
    );
}

#[test]
fn under_nohup_sighup_is_ignored_and_a_gone_stderr_loses_only_the_messages() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The summary goes to stderr when the CSV goes to stdout: writing it must not panic.
    let args = ["simulate", "--deals", "300000", "--seed", "4", "--out", "-"];
    let mut child = spawn_ignoring_hangup(d, &args);
    drop(child.stderr.take());
    std::thread::sleep(Duration::from_millis(300));
    send(&child, "-HUP");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(csv, ok(d, &args));
}

#[test]
fn an_adaptive_run_saves_its_first_blocks_and_resumes_to_the_same_stop() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A second Four, played and paid as the first: Four, the best bid, never leads it, so
    // only the precision (or the cap) stops the run. The other seats always pass, so that in
    // the auction view too the two Fours are worth the same in every world (with later seats
    // bidding, only the first Four can be overcalled by the second).
    let toml = ok(d, &["rules", "show", "heather-1875"])
        .replacen("name = \"heather-1875\"", "name = \"twin-fours\"", 1)
        .replacen(
            "[[bids]]\n# \"Nap",
            "[[bids]]\nname = \"four-again\"\nlabel = \"Four again\"\ntricks = 4\nmade = 4\n\
             failed = 4\n\n[[bids]]\n# \"Nap",
            1,
        );
    std::fs::write(d.join("twin.toml"), toml).unwrap();
    let command = [
        "--rules",
        "twin.toml",
        "hand",
        "AS KS 7S AH 3D",
        "--play",
        "heuristic",
        "--precision",
        "0.05",
        "--worlds",
        "2000000",
        "--no-dd",
        "--others-bid",
        "pass",
        "--seed",
        "3",
        "--json",
        "--quiet",
    ];
    let with = |extra: &[&'static str]| -> Vec<String> {
        command.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let args = with(&[
        "--out",
        "run.json",
        "--checkpoint",
        "run.ckpt",
        "--checkpoint-every",
        "0.2",
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let child = spawn(d, &args);
    wait_for(&d.join("run.ckpt"));
    send(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    // The checkpoint holds the first blocks of the run, and only those.
    let checkpoint: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("run.ckpt")).unwrap()).unwrap();
    let done = checkpoint["done"].as_array().unwrap();
    assert_eq!(done.len(), 1, "{done:?}");
    assert_eq!(done[0][0], 0);
    assert!(done[0][1].as_u64().unwrap() < 2_000_000 / 64);
    // Beyond the first check: the bids that trail Four are dropped, and the checkpoint says
    // which (the resumed run must not play them).
    if done[0][1].as_u64().unwrap() > 512 / 64 {
        let dropped = checkpoint["tally"]["dropped"].as_array().unwrap();
        assert!(dropped.contains(&true.into()), "{dropped:?}");
    }

    let mut resumed = args.clone();
    resumed.extend(["--resume", "run.ckpt"]);
    ok(d, &resumed);
    let whole = with(&["--out", "uninterrupted.json"]);
    ok(d, &whole.iter().map(String::as_str).collect::<Vec<_>>());
    let run = std::fs::read_to_string(d.join("run.json")).unwrap();
    assert_eq!(
        run,
        std::fs::read_to_string(d.join("uninterrupted.json")).unwrap()
    );
    let doc: serde_json::Value = serde_json::from_str(&run).unwrap();
    assert_ne!(doc["stopping"]["reason"], "settled", "{doc}");
    let bids = doc["bids"].as_array().unwrap();
    assert!(
        bids.iter().any(|b| b.get("dropped_after").is_some()),
        "{doc}"
    );
    assert!(
        bids[1].get("dropped_after").is_none(),
        "Four is played to the end: {doc}"
    );
    // Resuming the finished run's checkpoint stops again at once, with the same bytes.
    let again = with(&["--out", "again.json", "--resume", "run.ckpt"]);
    ok(d, &again.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run, std::fs::read_to_string(d.join("again.json")).unwrap());
}

#[test]
fn an_interrupted_optimize_resumes_its_round_to_the_uninterrupted_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The signal must land while a round is under way. A loaded machine can delay it past the
    // end of a short run (then the run succeeds): the next size up is tried, so the test never
    // depends on the machine's speed.
    let sizes: &[&str] = if cfg!(debug_assertions) {
        &["10000", "30000", "100000"]
    } else {
        &["30000", "100000", "300000"]
    };
    let command_of = |deals: &'static str| {
        [
            "optimize",
            "--players",
            "4",
            "--play",
            "heuristic",
            "--deals",
            deals,
            "--rounds",
            "2",
            "--held-out",
            deals,
            "--seed",
            "35",
            "--quiet",
        ]
    };
    let checkpointed = |command: &[&'static str]| {
        let mut args = command.to_vec();
        args.extend([
            "--out",
            "s.json",
            "--checkpoint",
            "run.ckpt",
            "--checkpoint-every",
            "0.1",
        ]);
        args
    };
    let (command, args) = sizes
        .iter()
        .find_map(|&deals| {
            let command = command_of(deals);
            let args = checkpointed(&command);
            for file in ["s.json", "s.md", "run.ckpt", "run.ckpt.phase"] {
                let _ = std::fs::remove_file(d.join(file));
            }
            let child = spawn(d, &args);
            // The round under way saves its blocks beside the run's state.
            wait_for(&d.join("run.ckpt.phase"));
            send(&child, "-INT");
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.code() == Some(0) && deals != *sizes.last().unwrap() {
                return None;
            }
            assert_eq!(out.status.code(), Some(130), "{stderr}");
            assert!(
                stderr.contains("interrupted") && stderr.contains("--resume run.ckpt"),
                "{stderr}"
            );
            Some((command, args))
        })
        .expect("the last size is interrupted or fails");
    assert!(!d.join("s.json").exists() && !d.join("s.md").exists());
    let mut resumed = args.clone();
    resumed.extend(["--resume", "run.ckpt"]);
    ok(d, &resumed);
    let mut whole = command.to_vec();
    whole.extend(["--out", "whole.json"]);
    ok(d, &whole);
    assert!(
        std::fs::read(d.join("s.json")).unwrap() == std::fs::read(d.join("whole.json")).unwrap()
    );
    // A finished run's kept state resumes to the same file again, and a checkpoint of another
    // run is refused.
    let mut other = command.to_vec();
    other.extend(["--out", "t.json", "--resume", "run.ckpt"]);
    let other: Vec<String> = other
        .iter()
        .map(|a| {
            if *a == "35" {
                "36".to_string()
            } else {
                a.to_string()
            }
        })
        .collect();
    let out = napsim().current_dir(d).args(&other).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("saved by a different run"));
    // An edited checkpoint (one cell's call changed) is refused, not resumed into another
    // strategy.
    let saved = std::fs::read_to_string(d.join("run.ckpt")).unwrap();
    let edited = saved.replacen("\"call\":\"pass\"", "\"call\":\"three\"", 1);
    assert_ne!(edited, saved);
    std::fs::write(d.join("edited.ckpt"), edited).unwrap();
    let mut resumed = args.clone();
    resumed.extend(["--resume", "edited.ckpt"]);
    let out = napsim().current_dir(d).args(&resumed).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a damaged or edited checkpoint"),
        "{stderr}"
    );
}

#[test]
fn signals_during_the_final_write_neither_lose_the_result_nor_leave_a_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = [
        "tournament",
        "--entrant",
        "a=threshold/heuristic",
        "--entrant",
        "b=pass/heuristic",
        "--sessions",
        "20",
        "--seed",
        "1",
        "--quiet",
    ];
    // The result as a run undisturbed writes it.
    let mut plain = run.to_vec();
    plain.extend(["--out", "plain.csv", "--markdown", "plain.md"]);
    ok(d, &plain);
    // A named pipe as --markdown: the final write (the CSV staged in a temporary file, then the
    // pipe, then the renames) waits there until the pipe is read, as long as the test wants.
    let fifo = d.join("out.md");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads a valid C string.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let mut args = run.to_vec();
    args.extend(["--out", "out.csv", "--markdown", "out.md"]);
    let child = spawn(d, &args);
    let start = Instant::now();
    let staged = || {
        std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains(".tmp-"))
    };
    while !staged() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no write under way"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    send(&child, "-TERM");
    std::thread::sleep(Duration::from_millis(200));
    send(&child, "-TERM");
    std::thread::sleep(Duration::from_millis(200));
    // Still writing: read what it writes (a napsim that quit has no pipe open: then the
    // read finds nothing, rather than waiting for ever).
    let written = read_pipe(&fifo);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("napsim: finishing the file being written\n")
            && stderr.contains("napsim: finishing the file being written, then quitting"),
        "{stderr}"
    );
    assert_eq!(written, std::fs::read(d.join("plain.md")).unwrap());
    assert_eq!(
        std::fs::read(d.join("out.csv")).unwrap(),
        std::fs::read(d.join("plain.csv")).unwrap()
    );
    assert!(!staged(), "a temporary file is left");
}

/// What a writer writes to the named pipe `path` until it closes it; empty when no writer opens
/// it within twenty seconds (generous: a loaded machine may be slow to open it).
fn read_pipe(path: &Path) -> Vec<u8> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut pipe = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .unwrap();
    let (mut written, mut chunk) = (Vec::new(), [0u8; 4096]);
    let start = Instant::now();
    loop {
        match pipe.read(&mut chunk) {
            // No writer: not yet (it is opening the pipe), or no more.
            Ok(0) if !written.is_empty() || start.elapsed() > Duration::from_secs(20) => {
                return written;
            }
            Ok(0) => std::thread::sleep(Duration::from_millis(10)),
            Ok(n) => written.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("reading the pipe: {e}"),
        }
    }
}
