//! Shards and `napsim merge`: N shard processes and a merge write the same bytes as one
//! process, for every long-running command; parts that do not belong together are refused.

use crate::common;

use std::path::{Path, PathBuf};

use common::{assert_bad, napsim, scaled, stdout_in as ok};

/// Runs `command` as `count` shards in `dir` (`part-I.json`) and returns the part names.
fn shards(dir: &Path, command: &[&str], count: u64) -> Vec<String> {
    (0..count)
        .map(|i| {
            let part = format!("part-{i}.json");
            let shard = format!("{i}/{count}");
            let mut args = command.to_vec();
            args.extend(["--shard", &shard, "--out", &part, "--quiet"]);
            let stdout = ok(dir, &args);
            assert!(stdout.is_empty(), "a shard prints nothing: {stdout}");
            part
        })
        .collect()
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The manifest without its `run` object (how the copy was computed).
fn identity_of(dir: &Path, output: &str) -> serde_json::Value {
    let mut meta: serde_json::Value =
        serde_json::from_slice(&read(dir, &format!("{output}.meta.json"))).unwrap();
    let run = meta.as_object_mut().unwrap().remove("run");
    assert!(run.is_some(), "a manifest records how it was computed");
    meta
}

/// Asserts that `files` are byte-identical between the single run and the merge, and that
/// both manifests (of `main`) describe the same run.
fn assert_same(dir: &Path, single: &[&str], merged: &[&str], main: usize) {
    for (a, b) in single.iter().zip(merged) {
        assert!(read(dir, a) == read(dir, b), "{a} and {b} differ");
    }
    assert_eq!(
        identity_of(dir, single[main]),
        identity_of(dir, merged[main])
    );
}

#[test]
fn four_simulate_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deals = scaled(600_000);
    let command = [
        "simulate",
        "--players",
        "5",
        "--deals",
        &deals,
        "--seed",
        "11",
    ];
    let mut single = command.to_vec();
    single.extend(["--out", "single.csv", "--quiet", "--threads", "2"]);
    ok(d, &single);
    let parts = shards(d, &command, 4);
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    merge.extend(["--out", "merged.csv"]);
    let summary = ok(d, &merge);
    assert!(summary.contains(&format!("{deals} deals")), "{summary}");
    assert_same(d, &["single.csv"], &["merged.csv"], 0);
    // Any order of the parts, and one thread per shard, give the same bytes.
    let reversed: Vec<&str> = std::iter::once("merge")
        .chain(parts.iter().rev().map(String::as_str))
        .chain(["--out", "reversed.csv"])
        .collect();
    ok(d, &reversed);
    assert!(read(d, "single.csv") == read(d, "reversed.csv"));
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(d, "merged.csv.meta.json")).unwrap();
    assert_eq!(manifest["run"]["merged_parts"].as_array().unwrap().len(), 4);
}

#[test]
fn four_tournament_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sets = scaled(2_000);
    let command = [
        "--rules",
        "pub-guide",
        "tournament",
        "--entrant",
        "a=threshold/heuristic",
        "--entrant",
        "b=always:bid=three/random",
        "--entrant",
        "c=threshold/random",
        "--sessions",
        &sets,
        "--seed",
        "3",
    ];
    let mut single = command.to_vec();
    single.extend([
        "--out",
        "single.csv",
        "--pairs",
        "single-pairs.csv",
        "--markdown",
        "single.md",
        "--quiet",
    ]);
    ok(d, &single);
    let parts = shards(d, &command, 4);
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    merge.extend([
        "--out",
        "merged.csv",
        "--pairs",
        "merged-pairs.csv",
        "--markdown",
        "merged.md",
    ]);
    ok(d, &merge);
    assert_same(
        d,
        &["single.csv", "single-pairs.csv", "single.md"],
        &["merged.csv", "merged-pairs.csv", "merged.md"],
        0,
    );
}

#[test]
fn bid_table_thresholds_and_hand_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A bid table with every output, in three shards.
    let command = [
        "bid-table",
        "--players",
        "3",
        "--deals",
        "5000",
        "--dd-deals",
        "1500",
        "--by",
        "coarse",
        "--min-hands",
        "50",
        "--seed",
        "2",
    ];
    let mut single = command.to_vec();
    single.extend([
        "--out",
        "single.csv",
        "--markdown",
        "single.md",
        "--plot",
        "single.svg",
        "--quiet",
    ]);
    ok(d, &single);
    let parts = shards(d, &command, 3);
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    merge.extend([
        "--out",
        "merged.csv",
        "--markdown",
        "merged.md",
        "--plot",
        "merged.svg",
    ]);
    ok(d, &merge);
    assert_same(
        d,
        &["single.csv", "single.md", "single.svg"],
        &["merged.csv", "merged.md", "merged.svg"],
        0,
    );

    // A threshold sweep in two shards.
    let command = [
        "thresholds",
        "--deals",
        "6000",
        "--seed",
        "4",
        "--seat",
        "1",
    ];
    let mut single = command.to_vec();
    single.extend(["--out", "t-single.csv", "--quiet"]);
    let single_text = ok(d, &single);
    let parts = shards(d, &command, 2);
    let merged_text = ok(d, &["merge", &parts[0], &parts[1], "--out", "t-merged.csv"]);
    assert_eq!(single_text, merged_text);
    assert_same(d, &["t-single.csv"], &["t-merged.csv"], 0);

    // A hand evaluation (JSON, conditioned on a call) in five shards, more than its blocks.
    let command = [
        "hand",
        "AS KS QS 7D 2C",
        "--seat",
        "1",
        "--after",
        "pass",
        "--play",
        "heuristic",
        "--worlds",
        "200",
        "--json",
        "--seed",
        "8",
    ];
    let mut single = command.to_vec();
    single.extend(["--out", "hand.json", "--quiet"]);
    ok(d, &single);
    let parts = shards(d, &command, 5);
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    // Without --out, the merge prints what the single run would print.
    let printed = ok(d, &merge);
    assert_eq!(printed.as_bytes(), read(d, "hand.json"));
}

/// Writes shard parts of a small simulation into `dir` and returns their paths.
fn small_parts(dir: &Path, seed: &str, deals: &str, count: u64) -> Vec<PathBuf> {
    let command = ["simulate", "--deals", deals, "--seed", seed];
    shards(dir, &command, count)
        .into_iter()
        .map(|p| dir.join(p))
        .collect()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn parts_that_do_not_belong_together_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = tempfile::tempdir().unwrap();
    let parts = small_parts(a.path(), "1", "300000", 3);
    let [p0, p1, p2] = [
        path_str(&parts[0]),
        path_str(&parts[1]),
        path_str(&parts[2]),
    ];
    let out = d.join("m.csv");
    let out = path_str(&out);
    assert_bad(&["merge", p0, p2, "--out", out], "shard 1/3 is missing");
    assert_bad(
        &["merge", p0, p1, p1, p2, "--out", out],
        "shard 1/3 is given twice",
    );
    // Another seed, another deal count.
    let b = tempfile::tempdir().unwrap();
    let other_seed = small_parts(b.path(), "2", "300000", 3);
    assert_bad(
        &["merge", p0, path_str(&other_seed[1]), p2, "--out", out],
        "seed is 2 there, 1 in",
    );
    let c = tempfile::tempdir().unwrap();
    let other_deals = small_parts(c.path(), "1", "400000", 3);
    assert_bad(
        &["merge", p0, p1, path_str(&other_deals[2]), "--out", out],
        "arguments.deals is 400000 there, 300000 in",
    );
    // Another split.
    let e = tempfile::tempdir().unwrap();
    let halves = small_parts(e.path(), "1", "300000", 2);
    assert_bad(
        &["merge", p0, path_str(&halves[1]), "--out", out],
        "same --shard I/N split",
    );
    // Another profile, another version: edit a part.
    let text = std::fs::read_to_string(p1).unwrap();
    let edited = d.join("edited.json");
    let edited_path = path_str(&edited);
    std::fs::write(
        &edited,
        text.replace("\"profile\":\"heather-1875\"", "\"profile\":\"pub-guide\""),
    )
    .unwrap();
    assert_bad(
        &["merge", p0, edited_path, p2, "--out", out],
        "profile is \"pub-guide\" there",
    );
    std::fs::write(
        &edited,
        text.replace("\"napsim_version\":\"", "\"napsim_version\":\"9."),
    )
    .unwrap();
    assert_bad(
        &["merge", p0, edited_path, p2, "--out", out],
        "napsim_version is \"9.",
    );
    // Every part from another revision of the same Cargo version: refused, both named.
    let ours = napsim::napsim_version();
    let theirs = format!("{}+{}", env!("CARGO_PKG_VERSION"), "0".repeat(40));
    let f = tempfile::tempdir().unwrap();
    let others: Vec<String> = [p0, p1, p2]
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let text = std::fs::read_to_string(part).unwrap().replace(
                &format!("\"napsim_version\":\"{ours}\""),
                &format!("\"napsim_version\":\"{theirs}\""),
            );
            let path = f.path().join(format!("other-{i}.json"));
            std::fs::write(&path, text).unwrap();
            path.display().to_string()
        })
        .collect();
    assert_bad(
        &["merge", &others[0], &others[1], &others[2], "--out", out],
        &format!("written by napsim {theirs}, this is napsim {ours}"),
    );
    // Outputs the command does not have.
    assert_bad(
        &["merge", p0, p1, p2, "--plot", "x.svg"],
        "--plot does not apply to simulate results",
    );
    // Nothing was written by any refusal.
    assert!(!Path::new(out).exists());
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 1);
}

/// A small deterministic generator for the mutation test (no dependence on the clock).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn merging_parts_with_mutated_numbers_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let commands: [&[&str]; 4] = [
        &["simulate", "--deals", "200000", "--seed", "1"],
        &[
            "--rules",
            "peep-nap",
            "bid-table",
            "--players",
            "3",
            "--deals",
            "3000",
            "--by",
            "exact",
            "--min-hands",
            "1",
            "--seed",
            "1",
        ],
        &[
            "tournament",
            "--entrant",
            "a=threshold/heuristic",
            "--entrant",
            "b=pass/random",
            "--sessions",
            "200",
            "--seed",
            "1",
        ],
        &[
            "hand",
            "AS KS QS 7D 2C",
            "--play",
            "heuristic",
            "--worlds",
            "300",
            "--seed",
            "1",
        ],
    ];
    let mut rng = Lcg(2026);
    let mut merged = 0;
    let mut total = 0;
    for (c, command) in commands.iter().enumerate() {
        let sub = d.join(c.to_string());
        std::fs::create_dir(&sub).unwrap();
        let parts = shards(&sub, command, 2);
        let texts: Vec<String> = parts
            .iter()
            .map(|p| std::fs::read_to_string(sub.join(p)).unwrap())
            .collect();
        let cases: usize = std::env::var("NAPSIM_MUTANTS").map_or(40, |v| v.parse().unwrap());
        for case in 0..cases {
            // Change a few digits of the first part, past its identity where most numbers are.
            let mut bytes = texts[0].clone().into_bytes();
            let digits: Vec<usize> = (0..bytes.len())
                .filter(|&i| bytes[i].is_ascii_digit())
                .collect();
            for _ in 0..1 + rng.below(3) {
                let at = digits[digits.len() / 2 + rng.below(digits.len() / 2)];
                bytes[at] = b"0123456789-"[rng.below(11)];
            }
            std::fs::write(sub.join("mutant.json"), &bytes).unwrap();
            let out = napsim()
                .current_dir(&sub)
                .args(["merge", "mutant.json", &parts[1], "--out"])
                .arg(format!("m{case}.out"))
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.status.code(), Some(0 | 2)),
                "{command:?} case {case}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
            total += 1;
            if out.status.success() {
                merged += 1;
            } else {
                assert_eq!(stderr.lines().count(), 1, "{stderr}");
                assert!(!sub.join(format!("m{case}.out")).exists());
            }
        }
    }
    // Some mutations leave a valid file (a count moved between bids), most are caught.
    assert!(merged < total, "{merged} of {total}");
}

#[test]
fn parts_made_with_different_policy_tables_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two exact-class tables of the default profile, from different deals.
    for (name, seed) in [("a.csv", "1"), ("b.csv", "2")] {
        ok(
            d,
            &[
                "bid-table",
                "--by",
                "exact",
                "--deals",
                "20000",
                "--min-hands",
                "1",
                "--seed",
                seed,
                "--out",
                name,
                "--quiet",
            ],
        );
    }
    let command = [
        "simulate",
        "--deals",
        "200000",
        "--seed",
        "4",
        "--bid",
        "table:file=(t.csv)",
    ];
    std::fs::copy(d.join("a.csv"), d.join("t.csv")).unwrap();
    let first = shards(d, &command, 2);
    std::fs::copy(d.join("b.csv"), d.join("t.csv")).unwrap();
    let mut second = command.to_vec();
    second.extend(["--shard", "1/2", "--out", "other-1.json", "--quiet"]);
    ok(d, &second);
    let out = napsim()
        .current_dir(d)
        .args(["merge", &first[0], "other-1.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("arguments.input_files.t.csv"), "{stderr}");
    // The parts made with the same table merge.
    ok(d, &["merge", &first[0], &first[1], "--out", "m.csv"]);
}

/// The expert solves its endings over sampled worlds from the policy stream: a bid table it
/// plays gives the same bytes in one thread, two threads and three shards.
#[test]
fn an_expert_bid_table_is_the_same_whatever_the_threads_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let command = [
        "bid-table",
        "--play",
        "expert",
        "--deals",
        "3000",
        "--by",
        "coarse",
        "--min-hands",
        "20",
        "--seed",
        "4",
    ];
    assert_threads_and_shards_agree(d, &command);
}

/// A stratified bid table draws each class's hands from the block streams: one thread, two
/// threads and three shards give the same bytes, class shares included.
#[test]
fn a_stratified_bid_table_is_the_same_whatever_the_threads_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("classes.txt"),
        "2 trumps A-x, 1 void\n3 trumps A-K-x, 1 side ace, 1 void\n4 trumps A-x-x-x, 2 voids\n",
    )
    .unwrap();
    let command = [
        "bid-table",
        "--per-class",
        "700",
        "--classes",
        "classes.txt",
        "--dd-deals",
        "50",
        "--seed",
        "8",
    ];
    assert_threads_and_shards_agree(d, &command);
    assert!(
        String::from_utf8(read(d, "single-1.csv"))
            .unwrap()
            .contains("class_share")
    );
    // So is one that values every call in the whole auction too.
    let auction = [&command[..], &["--auction"]].concat();
    assert_threads_and_shards_agree(d, &auction);
    assert!(
        String::from_utf8(read(d, "merged.csv"))
            .unwrap()
            .contains("pass_ev")
    );
}

/// `command` (a bid table) writes the same CSV with one thread (`single-1.csv`), two threads
/// (`single-2.csv`) and three shards merged (`merged.csv`).
fn assert_threads_and_shards_agree(d: &Path, command: &[&str]) {
    for threads in ["1", "2"] {
        let mut single = command.to_vec();
        let out = format!("single-{threads}.csv");
        single.extend(["--out", &out, "--quiet", "--threads", threads]);
        ok(d, &single);
    }
    assert!(read(d, "single-1.csv") == read(d, "single-2.csv"));
    let parts = shards(d, command, 3);
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    merge.extend(["--out", "merged.csv"]);
    ok(d, &merge);
    assert_same(d, &["single-2.csv"], &["merged.csv"], 0);
}

#[test]
fn optimize_phases_are_the_same_whatever_the_threads_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plain = [
        "optimize",
        "--players",
        "4",
        "--play",
        "heuristic",
        "--deals",
        "12000",
        "--rounds",
        "2",
        "--held-out",
        "12000",
        "--min-hands",
        "100",
        "--seed",
        "6",
    ];
    same_phases(d, &plain, 3);
    // Classes banded by a Misère rating: the rating is a phase of its own before the rounds.
    let rated = [
        "optimize",
        "--rules",
        "pub-guide",
        "--players",
        "4",
        "--play",
        "heuristic",
        "--by",
        "classes-rated",
        "--rating-deals",
        "9000",
        "--deals",
        "8000",
        "--rounds",
        "1",
        "--seed",
        "6",
    ];
    same_phases(d, &rated, 3);
}

/// Runs the optimiser `command` whole with one and two threads, and phase by phase in shards
/// merged (at most `phases` phases): the same strategy file every way.
fn same_phases(d: &Path, command: &[&str], phases: usize) {
    for threads in ["1", "2"] {
        let out = format!("single-{threads}.json");
        let mut single = command.to_vec();
        single.extend(["--out", &out, "--quiet", "--threads", threads]);
        ok(d, &single);
    }
    assert!(read(d, "single-1.json") == read(d, "single-2.json"));
    // Phase by phase, as the Slurm scripts run them: shards of the next phase of the file so
    // far, merged into the next file, until the run is finished.
    let mut start = "threshold".to_string();
    for phase in 1.. {
        let mut next = command.to_vec();
        next.extend(["--start", &start]);
        let parts = shards(d, &next, 3);
        let merged = format!("phase-{phase}.json");
        let mut merge = vec!["merge"];
        merge.extend(parts.iter().map(String::as_str));
        merge.extend(["--out", &merged]);
        ok(d, &merge);
        start = merged;
        let file: serde_json::Value = serde_json::from_slice(&read(d, &start)).unwrap();
        if file["found"]["exploitability"].is_object() {
            break;
        }
        assert!(phase <= phases, "at most {phases} phases");
    }
    assert!(
        read(d, "single-1.json") == read(d, &start),
        "the shards' file is the single run's"
    );
    let last = d.join(&start).display().to_string();
    let late = d.join("late.json").display().to_string();
    let mut finished = command.to_vec();
    finished.extend(["--start", &last, "--shard", "0/2", "--out", &late]);
    assert_bad(&finished, "the run is finished");
}

#[test]
fn an_equity_table_and_its_outcomes_are_the_same_whatever_the_threads_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let deals = scaled(300_000);
    let command = ["equity", "--players", "3", "--deals", &deals, "--seed", "8"];
    assert_threads_and_shards_agree(d, &command);
    // The extra outputs too: from one run, and from the merge of its shards.
    let outputs = [
        ("--markdown", "md"),
        ("--plot", "svg"),
        ("--outcomes", "csv"),
        ("--breakeven", "be.csv"),
    ];
    let extras = |prefix: &str| {
        outputs
            .iter()
            .flat_map(|(flag, ext)| [flag.to_string(), format!("{prefix}.{ext}")])
            .collect::<Vec<_>>()
    };
    let mut single: Vec<String> = command.iter().map(|s| s.to_string()).collect();
    single.extend(["--quiet".into(), "--threads".into(), "2".into()]);
    single.extend(extras("single"));
    ok(d, &single.iter().map(String::as_str).collect::<Vec<_>>());
    let parts = shards(d, &command, 2);
    let mut merge: Vec<String> = vec!["merge".into()];
    merge.extend(parts);
    merge.extend(extras("merged"));
    ok(d, &merge.iter().map(String::as_str).collect::<Vec<_>>());
    for (_, ext) in outputs {
        let (a, b) = (format!("single.{ext}"), format!("merged.{ext}"));
        assert!(read(d, &a) == read(d, &b), "{a} and {b} differ");
    }
}
