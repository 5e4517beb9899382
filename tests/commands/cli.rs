//! The command line as a user meets it: outputs, determinism and errors.

use crate::common;

use std::path::Path;

use assert_cmd::Command;

fn napsim() -> Command {
    Command::cargo_bin("napsim").expect("the napsim binary")
}

/// Runs `napsim simulate` with `args` writing to `out` and returns the CSV bytes.
fn simulate_csv(dir: &Path, name: &str, args: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    napsim()
        .arg("simulate")
        .args(args)
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    std::fs::read(&out).expect("the CSV")
}

#[test]
fn simulate_is_byte_identical_across_thread_counts_and_seed_sensitive() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["--deals", "1000000", "--seed", "7"];
    let one = simulate_csv(
        dir.path(),
        "t1.csv",
        &[&base[..], &["--threads", "1"]].concat(),
    );
    let two = simulate_csv(
        dir.path(),
        "t2.csv",
        &[&base[..], &["--threads", "2"]].concat(),
    );
    assert_eq!(one, two, "1 and 2 threads must give the same bytes");
    let other = simulate_csv(dir.path(), "s8.csv", &["--deals", "1000000", "--seed", "8"]);
    assert_ne!(one, other, "another seed must give another table");
}

#[test]
fn simulate_writes_tidy_csv_and_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let csv = simulate_csv(
        dir.path(),
        "a.csv",
        &["--deals", "1_000", "--seed", "3", "--threads", "1"],
    );
    let text = String::from_utf8(csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "profile,players,bid_policy,play_policy,seed,deals,bid,tricks_needed,declared,made,\
         success_rate,ci95_low,ci95_high,ev_declarer,ev_declarer_se"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4, "one row per bid of heather-1875");
    assert!(rows[0].starts_with("heather-1875,4,threshold,heuristic,3,1000,three,3,"));
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("a.csv.meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["seed"], 3);
    assert_eq!(meta["units"], 1000);
    assert_eq!(meta["profile"], "heather-1875");
    assert!(
        meta["profile_toml"]
            .as_str()
            .unwrap()
            .contains("name = \"heather-1875\"")
    );
    assert!(meta["run"]["elapsed_seconds"].is_number());
    // The Cargo version, then the sources' id where the build knew one (see build.rs).
    let version = meta["napsim_version"].as_str().unwrap();
    assert_eq!(version, napsim::napsim_version());
    match version.split_once('+') {
        None => assert_eq!(version, env!("CARGO_PKG_VERSION")),
        Some((cargo, revision)) => {
            assert_eq!(cargo, env!("CARGO_PKG_VERSION"));
            let revision = revision.strip_prefix("src.").expect(version);
            let (id, dirty) = revision.split_at(40.min(revision.len()));
            assert!(id.len() == 40 && id.chars().all(|c| c.is_ascii_hexdigit()));
            assert!(
                dirty.is_empty()
                    || dirty.strip_prefix("-dirty.").is_some_and(|digest| {
                        digest.len() == 8 && digest.chars().all(|c| c.is_ascii_hexdigit())
                    }),
                "{version}"
            );
        }
    }
}

#[test]
fn simulate_prints_a_summary_and_csv_to_stdout_on_request() {
    napsim()
        .args(["simulate", "--deals", "1e3", "--seed", "1", "--quiet"])
        .assert()
        .success()
        .stdout(predicates::str::contains("passed out"));
    let out = napsim()
        .args([
            "simulate", "--deals", "2000", "--seed", "1", "--quiet", "--out", "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("profile,players,"),
        "stdout holds only the CSV: {stdout}"
    );
    assert_eq!(stdout.lines().count(), 5);
}

#[test]
fn omitted_seed_is_chosen_printed_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let run = napsim()
        .args(["simulate", "--deals", "100", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8(run.stderr).unwrap();
    let seed: u64 = stderr
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed in {stderr}"));
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.csv.meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["seed"], seed);
}

#[test]
fn deal_json_has_the_documented_fields() {
    let out = napsim()
        .args([
            "deal",
            "--json",
            "--count",
            "3",
            "--seed",
            "5",
            "--bid",
            "always:bid=three",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        // The full field list is checked by tests/engine/rules_checker.rs.
        assert!(
            rec["auction"].is_array() && rec["tricks"].is_array(),
            "{line}"
        );
        assert_eq!(rec["contract"]["bid"], "three");
        assert_eq!(rec["contract"]["tricks"], 3);
    }
}

#[test]
fn deal_narrates_for_people_and_replays_fixed_hands() {
    napsim()
        .args([
            "deal",
            "--seed",
            "1",
            "--dealer",
            "3",
            "--bid",
            "always:bid=four",
            "--hands",
            "AC KC QC JC TC/AS KS QS JS TS/AH KH QH JH TH/AD KD QD JD TD",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("contract: Four by seat 0"))
        .stdout(predicates::str::contains("payments:"));
}

#[test]
fn rules_list_and_show_round_trip_through_a_file() {
    napsim()
        .args(["rules", "list"])
        .assert()
        .success()
        .stdout(predicates::str::contains("heather-1875"));
    let shown = napsim()
        .args(["rules", "show", "heather-1875"])
        .output()
        .unwrap();
    assert!(shown.status.success());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.toml");
    std::fs::write(&file, &shown.stdout).unwrap();
    let args = ["deal", "--json", "--count", "50", "--seed", "9"];
    let builtin = napsim().args(args).output().unwrap().stdout;
    let from_file = napsim()
        .args(args)
        .arg("--rules")
        .arg(&file)
        .output()
        .unwrap()
        .stdout;
    assert!(!builtin.is_empty());
    assert_eq!(
        builtin, from_file,
        "a shown profile saved to a file plays identically"
    );
}

/// Runs napsim with `args` and asserts exit status 2, one `error:` line naming `needle`, and
/// no panic.
fn assert_bad_input(args: &[&str], needle: &str) {
    let out = napsim().args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors.len(),
        1,
        "{args:?}: one error line expected in {stderr}"
    );
    assert!(
        errors[0].contains(needle),
        "{args:?}: '{needle}' not in {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
}

const GOOD_HANDS: &str = "AC KC QC JC TC/AS KS QS JS TS/AH KH QH JH TH/AD KD QD JD TD";

#[test]
fn bad_input_exits_2_with_one_error_line() {
    let bad_card = GOOD_HANDS.replace("TD", "ZZ");
    assert_bad_input(&["deal", "--hands", &bad_card], "'ZZ'");
    let duplicate = GOOD_HANDS.replace("TD", "AS");
    assert_bad_input(&["deal", "--hands", &duplicate], "AS");
    let four_cards = GOOD_HANDS.replace(" TD", "");
    assert_bad_input(&["deal", "--hands", &four_cards], "has 4");
    assert_bad_input(&["deal", "--hands", "AC KC QC JC TC"], "hands");
    assert_bad_input(&["simulate", "--players", "11"], "11 players");
    assert_bad_input(&["simulate", "--players", "2"], "3 to 7");
    assert_bad_input(&["deal", "--players", "8"], "3 to 7");
    assert_bad_input(&["simulate", "--play", "genius"], "heuristic");
    assert_bad_input(&["simulate", "--bid", "threshold:five=3"], "five");
    assert_bad_input(&["simulate", "--bid", "threshold:three=lots"], "lots");
    assert_bad_input(&["simulate", "--bid", "always"], "bid");
    assert_bad_input(
        &["simulate", "--bid", "always:bid=wellington"],
        "wellington",
    );
    assert_bad_input(&["simulate", "--bid", "threshold:three=(6"], "malformed");
    assert_bad_input(&["simulate", "--rules", "napoleon-1815"], "heather-1875");
    assert_bad_input(&["simulate", "--deals", "0"], "at least 1");
    assert_bad_input(&["simulate", "--deals", "many"], "1e6");
    assert_bad_input(&["simulate", "--threads", "0"], "at least 1");
    assert_bad_input(&["deal", "--dealer", "4"], "--dealer");
    assert_bad_input(&["rules", "show", "nope"], "nope");
}

#[test]
fn bad_profile_files_exit_2_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let good = napsim().args(["rules", "show"]).output().unwrap().stdout;
    let good = String::from_utf8(good).unwrap();
    let cases = [
        (
            "malformed.toml",
            "name = \"x\"\n[table\n".to_string(),
            "malformed.toml",
        ),
        (
            "unknown.toml",
            good.replace("[table]", "[table]\nseats = 4"),
            "seats",
        ),
        (
            "missing.toml",
            good.replace("min_cut_packet = 1", ""),
            "min_cut_packet",
        ),
        (
            "negative.toml",
            good.replace("made = 4", "made = -4"),
            "bids[1].made",
        ),
        (
            "order.toml",
            good.replace("only_over = \"nap\"", "only_over = \"blucher\""),
            "bids[3].only_over",
        ),
        (
            "small.toml",
            good.replace("lowest_rank = \"2\"", "lowest_rank = \"9\""),
            "table.max_players",
        ),
        // Eight players are more than napsim seats; six on 28 cards need 30.
        (
            "eight.toml",
            good.replace("max_players = 7", "max_players = 8"),
            "table.max_players: must be at most 7",
        ),
        (
            "six-on-28.toml",
            good.replace("lowest_rank = \"2\"", "lowest_rank = \"8\""),
            "6 players need 30 cards but the pack has 28",
        ),
        // Values that would overflow the engine's arithmetic.
        (
            "overflow-batches.toml",
            good.replace("batches = [3, 2]", "batches = [4294967295, 6]"),
            "deal.batches",
        ),
        (
            "huge-payout.toml",
            good.replace("made = 5", "made = 9223372036854775807"),
            "bids[2].made: must be at most 1000000",
        ),
        // Wellington enabled while Nap is not.
        (
            "no-nap.toml",
            good.replace("name = \"nap\"", "name = \"five\""),
            "bids[3].only_over: 'nap' is not a lower bid",
        ),
        // A misère that claims a trump when the profile's option says none.
        (
            "misere-trump.toml",
            good.replace(
                "[[bids]]\n# \"Three",
                "[[bids]]\nname = \"misere\"\nlabel = \"Misère\"\nkind = \"misere\"\ntrump = \"first-lead\"\nmade = 3\nfailed = 3\n\n[[bids]]\n# \"Three",
            ),
            "bids[0].trump: a misère has no trump",
        ),
    ];
    for (name, text, needle) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        assert_bad_input(&["simulate", "--deals", "10", "--rules", path], needle);
    }
    assert_bad_input(
        &["simulate", "--rules", "/nonexistent/x.toml"],
        "cannot read",
    );
}

#[test]
fn unwritable_output_is_a_runtime_error_and_leaves_no_file() {
    // Below a device: no folder can be made there.
    let out = napsim()
        .args(["simulate", "--deals", "10", "--out", "/dev/null/new/x.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("error: cannot write /dev/null/new/x.csv: /dev/null is not a directory"),
        "{stderr}"
    );
}

#[test]
fn missing_folders_above_every_output_are_created() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = napsim()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
    };
    let sim = ["simulate", "--deals", "70000", "--seed", "1", "--quiet"];
    let with = |more: &[&'static str]| [&sim[..], more].concat();
    run(&with(&[
        "--out",
        "a/b/sim.csv",
        "--checkpoint",
        "c/d/sim.ckpt",
    ]));
    run(&with(&["--shard", "0/2", "--out", "parts/x/p0.json"]));
    run(&with(&["--shard", "1/2", "--out", "parts/y/p1.json"]));
    run(&[
        "merge",
        "parts/x/p0.json",
        "parts/y/p1.json",
        "--out",
        "merged/m.csv",
    ]);
    run(&[
        "bid-table",
        "--deals",
        "1000",
        "--seed",
        "1",
        "--quiet",
        "--out",
        "t/csv/t.csv",
        "--markdown",
        "t/md/t.md",
        "--plot",
        "t/svg/t.svg",
    ]);
    run(&[
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
        "--out",
        "r/e.csv",
        "--pairs",
        "r/p/p.csv",
        "--markdown",
        "r/m/t.md",
    ]);
    run(&[
        "hand",
        "AS KS QS JS TS",
        "--worlds",
        "10",
        "--play",
        "heuristic",
        "--seed",
        "1",
        "--json",
        "--out",
        "h/i/h.json",
    ]);
    for file in [
        "a/b/sim.csv",
        "a/b/sim.csv.meta.json",
        "c/d/sim.ckpt",
        "parts/x/p0.json",
        "parts/y/p1.json",
        "merged/m.csv",
        "merged/m.csv.meta.json",
        "t/csv/t.csv",
        "t/csv/t.csv.meta.json",
        "t/md/t.md",
        "t/svg/t.svg",
        "r/e.csv",
        "r/e.csv.meta.json",
        "r/p/p.csv",
        "r/m/t.md",
        "h/i/h.json",
        "h/i/h.json.meta.json",
    ] {
        assert!(dir.path().join(file).is_file(), "{file} was not written");
    }
    let read = |file: &str| std::fs::read(dir.path().join(file)).unwrap();
    assert_eq!(read("merged/m.csv"), read("a/b/sim.csv"));
}

#[test]
fn every_profile_simulates_and_deals_at_every_table_size() {
    let list = napsim().args(["rules", "list"]).output().unwrap();
    let names: Vec<String> = String::from_utf8(list.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    for name in ["heather-1875", "rulebook", "pub-guide", "encyclopedia"] {
        assert!(names.iter().any(|n| n == name), "rules list lacks {name}");
    }
    for name in &names {
        let profile = napsim::rules::Profile::builtin(name).unwrap();
        for players in profile.min_players()..=profile.max_players() {
            let n = players.to_string();
            napsim()
                .args([
                    "--rules", name, "simulate", "--deals", "3000", "--seed", "1", "--quiet",
                ])
                .args(["--players", &n])
                .assert()
                .success();
            let out = napsim()
                .args([
                    "--rules", name, "deal", "--json", "--count", "20", "--seed", "2",
                ])
                .args(["--players", &n])
                .output()
                .unwrap();
            assert!(out.status.success(), "{name} at {players}");
            let text = String::from_utf8(out.stdout).unwrap();
            for line in text.lines() {
                let rec: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(rec["profile"], name.as_str());
                let total: i64 = rec["payments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_i64().unwrap())
                    .sum();
                let kitty_change = rec["kitty_after"].as_i64().unwrap_or(0)
                    - rec["kitty_before"].as_i64().unwrap_or(0);
                assert_eq!(
                    total + kitty_change,
                    0,
                    "{name}: payments and kitty balance"
                );
            }
        }
        let too_many = (profile.max_players() + 1).to_string();
        assert_bad_input(
            &["--rules", name, "simulate", "--players", &too_many],
            "players",
        );
    }
}

#[test]
fn every_shown_profile_plays_identically_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for (name, _) in napsim::rules::BUILTIN {
        let shown = napsim()
            .args(["rules", "show", name])
            .output()
            .unwrap()
            .stdout;
        let file = dir.path().join(format!("copy-of-{name}.toml"));
        std::fs::write(&file, shown).unwrap();
        let args = ["deal", "--json", "--count", "30", "--seed", "4"];
        let builtin = napsim()
            .args(["--rules", name])
            .args(args)
            .output()
            .unwrap()
            .stdout;
        let copy = napsim()
            .arg("--rules")
            .arg(&file)
            .args(args)
            .output()
            .unwrap()
            .stdout;
        assert_eq!(builtin, copy, "{name}");
    }
}

#[test]
fn deal_replays_a_real_game_and_settles_a_revoke_as_the_profile_says() {
    let hands = "AC KC QC JC TC/AS KS QS 2H 2D/AH KH QH JH TH/AD KD QD JD 9C";
    let revoke = [
        "deal",
        "--hands",
        hands,
        "--calls",
        "pass,four,pass,pass",
        "--plays",
        "AS TH JD TC 2D JH 9C",
    ];
    let out = napsim()
        .args(["--rules", "encyclopedia"])
        .args(revoke)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success());
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["payments"], serde_json::json!([0, 12, 0, -12]));
    assert_eq!(
        rec["revoke"],
        serde_json::json!({"seat": 3, "card": "9C", "trick": ["2D", "JH"]})
    );
    // Without a revoke rule the same card is refused.
    assert_bad_input(&revoke, "must follow suit");
    // A complete legal game is scored.
    let full = "AS TH JD TC KS JH QD JC QS QH KD QC 2H AH AD KC KH 9C AC 2D";
    let out = napsim()
        .args([
            "deal",
            "--json",
            "--hands",
            hands,
            "--calls",
            "pass,four,pass,pass",
            "--plays",
            full,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["declarer_tricks"], 3);
    assert_eq!(rec["payments"], serde_json::json!([4, -12, 4, 4]));
    // Replays of these hands that must be refused: (calls, plays, what the error names).
    let refused = [
        ("pass,four,pass", "AS", "one call per seat"),
        ("pass,five,pass,pass", "AS", "'five'"),
        ("pass,four,three,pass", "AS", "call 3"),
        ("pass,four,pass,pass", "AS TH", "ends after 2 cards"),
        ("pass,four,pass,pass", "KH", "does not hold"),
    ];
    for (calls, plays, needle) in refused {
        assert_bad_input(
            &["deal", "--hands", hands, "--calls", calls, "--plays", plays],
            needle,
        );
    }
    assert_bad_input(
        &["deal", "--calls", "pass,four,pass,pass", "--plays", "AS"],
        "required",
    );
    let peep_hands = "AS KS QS JS TS/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC";
    assert_bad_input(
        &[
            "--rules",
            "peep-nap",
            "deal",
            "--hands",
            peep_hands,
            "--calls",
            "nap-without-floater,pass,pass,pass",
            "--plays",
            "AS",
        ],
        "--floater",
    );
}

#[test]
fn reduced_packs_play_and_refuse_cards_outside_the_pack() {
    let file = "tests/data/profiles/rulebook-doubled-reduced.toml";
    for (players, cards) in [(3, 24), (4, 28), (5, 32)] {
        let n = players.to_string();
        let out = napsim()
            .args([
                "--rules",
                file,
                "deal",
                "--json",
                "--count",
                "30",
                "--seed",
                "3",
                "--players",
                &n,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let lowest = match cards {
            24 => '9',
            28 => '8',
            _ => '7',
        };
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let rec: serde_json::Value = serde_json::from_str(line).unwrap();
            for hand in rec["hands"].as_array().unwrap() {
                for card in hand.as_str().unwrap().split(' ') {
                    let rank = card.chars().next().unwrap();
                    assert!(
                        "AKQJT98765432".find(rank) <= "AKQJT98765432".find(lowest),
                        "{card} outside the {cards}-card pack"
                    );
                }
            }
        }
    }
    let hands = "AS KS QS JS TS/AH KH QH JH 2H/AD KD QD JD TD/AC KC QC JC TC";
    assert_bad_input(
        &["--rules", file, "deal", "--hands", hands],
        "2H is not in the pack",
    );
    assert_bad_input(
        &["--rules", "peep-nap", "deal", "--hands", hands],
        "2H is not in the pack",
    );
    assert_bad_input(&["--rules", file, "simulate", "--players", "6"], "3 to 5");
}

/// Runs a replay and returns its JSON record.
fn replay_record(args: &[&str]) -> serde_json::Value {
    let out = napsim().args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Three real games the replay once refused or misread (issue 18).
#[test]
fn replays_accept_every_legal_game() {
    // Peep Nap Wellington: 9S and 9C tie for the lowest non-trump card, so either may lead.
    let wellington = |lead: &str, rest: &str| {
        napsim()
            .args([
                "--rules",
                "peep-nap",
                "deal",
                "--players",
                "4",
                "--hands",
                "AH KH QH 9S 9C/AS KS QS JS TS/AD KD QD JD TD/AC KC QC JC TC",
                "--calls",
                "wellington-without-floater,pass,pass,pass",
                "--trump",
                "H",
                "--floater",
                "JH",
                "--json",
                "--plays",
                &format!("{lead} {rest}"),
            ])
            .output()
            .unwrap()
    };
    let out = wellington(
        "9S",
        "AS TD TC KS KD KC QH AH QS QD QC KH JS JD JC 9C TS AD AC",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["tricks"][0]["cards"][0], "9S");
    assert_eq!(rec["declarer_tricks"], 3);
    let out = wellington(
        "9C",
        "TS TD TC KC QH KS KD AH QS QD QC KH JS JD JC 9S AS AD AC",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A higher card is still refused as the opening lead.
    let out = wellington("KH", "AS TD TC");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("card 1 (KH by seat 0) is illegal"));

    // Purchase Nap: seat 1 pays the stake and discards nothing; it is charged and recorded.
    let purchase = |extra: &[&str]| {
        let mut args = vec![
            "--rules",
            "purchase-nap",
            "deal",
            "--hands",
            "AS KS QS 2H 2D/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
            "--buy",
            "0:2H 2D>JS TS",
            "--kitty",
            "7",
            "--calls",
            "nap,pass,pass,pass",
            "--plays",
            "AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC",
        ];
        args.extend_from_slice(extra);
        replay_record(&args)
    };
    assert_eq!(
        purchase(&[])["payments"],
        serde_json::json!([22, -5, -5, -5])
    );
    let rec = purchase(&["--buy", "1:>"]);
    // Nap 5 from each, the pool of 7 + 1 + 1, less seat 0's own stake; seat 1 also paid 1.
    assert_eq!(rec["payments"], serde_json::json!([23, -6, -5, -5]));
    assert_eq!(rec["kitty_after"], 0);
    assert_eq!(rec["exchanges"][1]["seat"], 1);
    assert_eq!(rec["exchanges"][1]["discarded"], "");
    let narration = napsim()
        .args([
            "--rules",
            "purchase-nap",
            "deal",
            "--hands",
            "AS KS QS 2H 2D/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
            "--buy",
            "1:>",
            "--calls",
            "pass,pass,pass,pass",
            "--plays",
            "",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&narration.stdout).contains("seat 1 buys: paid, gave up nothing"),
        "{}",
        String::from_utf8_lossy(&narration.stderr)
    );

    // Wellington with no Nap before it: the reason names both bids.
    assert_bad_input(
        &[
            "deal",
            "--hands",
            GOOD_HANDS,
            "--calls",
            "wellington,pass,pass,pass",
            "--plays",
            "",
        ],
        "call 1 ('wellington' by seat 0) is illegal: Wellington may only overcall a Nap",
    );
    assert_bad_input(
        &[
            "hand",
            "AS KS QS JS TS",
            "--seat",
            "1",
            "--after",
            "wellington",
        ],
        "Wellington may only overcall a Nap",
    );
}

#[test]
fn replays_cover_floater_purchase_and_spare_hand_profiles() {
    let all_five = "AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC";
    // Peep Nap: two peeks, Bonaparte with the floater (discarding 9H), the lowest trump led.
    let rec = replay_record(&[
        "--rules",
        "peep-nap",
        "deal",
        "--hands",
        "AS KS 9S 9H TD/AH KH QH JH TH/AD KD QD JD 9D/AC KC QC JC TC",
        "--floater",
        "QS",
        "--peeks",
        "0,2",
        "--kitty",
        "6",
        "--discard",
        "9H",
        "--calls",
        "bonaparte-with-floater,pass,pass,pass",
        "--plays",
        "9S AH AD AC AS KH KD KC KS QH QD QC QS JH JD JC TD TH 9D TC",
    ]);
    // Ante 1 and peek 1 each for seats 0 and 2; Bonaparte 10 from each and the kitty (6+4+2).
    assert_eq!(rec["payments"], serde_json::json!([40, -11, -12, -11]));
    assert_eq!(
        (rec["kitty_before"].clone(), rec["kitty_after"].clone()),
        (6.into(), 0.into())
    );
    assert_eq!(rec["peeks"], serde_json::json!([0, 2]));
    // Peep Nap Wellington: the declarer names spades and must lead its lowest non-trump.
    let rec = replay_record(&[
        "--rules",
        "peep-nap",
        "deal",
        "--hands",
        "AS KS 9S 9H TD/AH KH QH JH TH/AD KD QD JD 9D/AC KC QC JC TC",
        "--floater",
        "QS",
        "--trump",
        "S",
        "--calls",
        "nap-with-floater,wellington-without-floater,pass,pass",
        "--plays",
        "TH 9D TC 9H AH AD AC AS KS KH KD KC 9S QH QD QC TD JH JD JC",
    ]);
    assert_eq!(rec["trump"], "S");
    assert_eq!(rec["declarer_tricks"], 1);
    // Purchase Nap: seat 0 buys JS TS for 2H 2D and makes Nap, taking the pool.
    let rec = replay_record(&[
        "--rules",
        "purchase-nap",
        "deal",
        "--hands",
        "AS KS QS 2H 2D/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
        "--buy",
        "0:2H 2D>JS TS",
        "--kitty",
        "7",
        "--calls",
        "nap,pass,pass,pass",
        "--plays",
        all_five,
    ]);
    assert_eq!(rec["payments"], serde_json::json!([22, -5, -5, -5]));
    assert_eq!(rec["kitty_after"], 0);
    assert_eq!(rec["exchanges"][0]["received"], "JS TS");
    // Sir Garnet: seat 0 takes the spare hand and keeps the top spades.
    let rec = replay_record(&[
        "--rules",
        "sir-garnet",
        "deal",
        "--hands",
        "AS KS 2H 3D 4C/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
        "--spare",
        "QS JS TS 9S 8S",
        "--keep",
        "AS KS QS JS TS",
        "--calls",
        "take-spare,pass,pass,pass",
        "--plays",
        all_five,
    ]);
    assert_eq!(rec["payments"], serde_json::json!([15, -5, -5, -5]));
    // What a profile needs and what it does not have are both refused.
    let peep = [
        "--rules",
        "peep-nap",
        "deal",
        "--hands",
        "AS KS 9S 9H TD/AH KH QH JH TH/AD KD QD JD 9D/AC KC QC JC TC",
    ];
    assert_bad_input(
        &[
            &peep[..],
            &[
                "--calls",
                "nap-without-floater,pass,pass,pass",
                "--plays",
                "AS",
            ],
        ]
        .concat(),
        "--floater",
    );
    assert_bad_input(
        &[
            &peep[..],
            &[
                "--floater",
                "QS",
                "--calls",
                "nap-with-floater,pass,pass,pass",
                "--plays",
                "AS",
            ],
        ]
        .concat(),
        "--discard",
    );
    assert_bad_input(
        &[
            &peep[..],
            &[
                "--floater",
                "AS",
                "--calls",
                "pass,pass,pass,pass",
                "--plays",
                "",
            ],
        ]
        .concat(),
        "AS",
    );
    assert_bad_input(
        &[
            "deal",
            "--hands",
            "AS KS QS JS TS/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
            "--floater",
            "2C",
            "--calls",
            "pass,pass,pass,pass",
            "--plays",
            "",
        ],
        "no floater",
    );
    assert_bad_input(
        &[
            "--rules",
            "sir-garnet",
            "deal",
            "--hands",
            "AS KS 2H 3D 4C/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
            "--spare",
            "QS JS TS 9S 8S",
            "--calls",
            "take-spare,pass,pass,pass",
            "--plays",
            all_five,
        ],
        "--keep",
    );
    assert_bad_input(
        &[
            "--rules",
            "purchase-nap",
            "deal",
            "--hands",
            "AS KS QS 2H 2D/AH KH QH JH TH/AD KD QD JD TD/AC KC QC JC TC",
            "--buy",
            "0:2H>JS TS",
            "--calls",
            "nap,pass,pass,pass",
            "--plays",
            all_five,
        ],
        "as many cards",
    );
}

#[test]
fn optimize_finds_a_strategy_that_the_tuned_bidder_plays() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| run_in(d, args);
    let optimize = [
        "optimize",
        "--players",
        "3",
        "--play",
        "heuristic",
        "--deals",
        "40000",
        "--rounds",
        "2",
        "--held-out",
        "40000",
        "--min-hands",
        "100",
        "--seed",
        "4",
        "--out",
        "s.json",
        "--quiet",
    ];
    let out = run(&optimize);
    assert!(String::from_utf8_lossy(&out.stderr).contains("strategy: "));
    let file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("s.json")).unwrap()).unwrap();
    let rounds = file["found"]["rounds"].as_array().unwrap();
    assert!(!rounds.is_empty() && rounds.len() <= 2);
    assert!(
        rounds[0]["changed"].as_u64().unwrap() > 0,
        "the first round changes cells"
    );
    assert!(rounds[0]["gain_per_deal"].as_f64().unwrap() > 0.0);
    assert!(!file["cells"].as_array().unwrap().is_empty());
    assert!(file["found"]["exploitability"]["per_session"].is_number());
    let markdown = std::fs::read_to_string(d.join("s.md")).unwrap();
    for heading in [
        "# Bidding strategy",
        "## Rounds",
        "## Exploitability",
        "### Seat 0",
    ] {
        assert!(markdown.contains(heading), "{heading}");
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("s.json.meta.json")).unwrap()).unwrap();
    let reproduce = meta["reproduce"].as_str().unwrap();
    assert!(
        reproduce.contains("optimize --players 3 --play heuristic"),
        "{reproduce}"
    );
    assert_eq!(
        meta["outcome"]["cells"],
        file["cells"].as_array().unwrap().len()
    );
    // The file plays as a bid policy, and not as the threshold bidder it started from.
    let simulate = |bid: &str| {
        let args = [
            "simulate",
            "--players",
            "3",
            "--deals",
            "20000",
            "--seed",
            "1",
            "--bid",
            bid,
        ];
        String::from_utf8(run(&args).stdout).unwrap()
    };
    let tuned = simulate("tuned:file=(s.json)");
    assert!(tuned.contains("20000 deals"));
    assert_ne!(tuned, simulate("threshold"));

    // Under a profile with a Misère: classes that see its low cards, cells by the bid to beat.
    let pub_guide = [
        "--rules",
        "pub-guide",
        "optimize",
        "--players",
        "4",
        "--play",
        "heuristic",
        "--deals",
        "20000",
        "--rounds",
        "1",
        "--by",
        "classes-misere",
        "--history",
        "highest",
        "--seed",
        "4",
        "--out",
        "m.json",
        "--quiet",
    ];
    run(&pub_guide);
    let file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("m.json")).unwrap()).unwrap();
    assert_eq!(file["history"], "highest");
    let cells = file["cells"].as_array().unwrap();
    assert!(
        cells
            .iter()
            .all(|c| c["calls"].as_array().unwrap().len() <= 1)
    );
    assert!(
        cells
            .iter()
            .any(|c| c["class"].as_str().unwrap().contains("; low cards"))
    );
    let markdown = std::fs::read_to_string(d.join("m.md")).unwrap();
    assert!(markdown.contains("to beat\n"), "{markdown}");
    assert!(
        markdown.contains("--by classes-misere --history highest --deals 20000"),
        "the reproduce command names the history: {markdown}"
    );
    let played = run(&[
        "--rules",
        "pub-guide",
        "simulate",
        "--players",
        "4",
        "--deals",
        "2000",
        "--bid",
        "tuned:file=(m.json)",
    ]);
    assert!(String::from_utf8_lossy(&played.stdout).contains("2000 deals"));
}

/// Runs napsim in `dir` with `args`, which must succeed.
fn run_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let out = napsim().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn optimize_by_classes_rated_fits_a_misere_rating_that_the_tuned_bidder_plays() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(
        d,
        &[
            "--rules",
            "pub-guide",
            "optimize",
            "--players",
            "4",
            "--play",
            "heuristic",
            "--deals",
            "20000",
            "--rounds",
            "1",
            "--by",
            "classes-rated",
            "--history",
            "highest",
            "--rating-deals",
            "30000",
            "--seed",
            "4",
            "--out",
            "r.json",
            "--quiet",
        ],
    );
    let text = std::fs::read_to_string(d.join("r.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    // A Misère declared from each seat while the others pass always stands.
    let rating = &file["rating"];
    assert_eq!(rating["hands"], 4 * 30000);
    let made = rating["made"].as_u64().unwrap();
    assert!(made > 0 && made < 4 * 30000, "{rating}");
    let weights: Vec<f64> = rating["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_f64().unwrap())
        .collect();
    assert_eq!(weights.len(), 92);
    // Features 0 and 12: a singleton deuce and a singleton ace. The deuce can always be
    // played under, the ace wins the trick its suit is led to.
    assert!(weights[0] > weights[12] + 0.1, "{weights:?}");
    let cells = file["cells"].as_array().unwrap();
    assert!(
        cells
            .iter()
            .any(|c| c["class"].as_str().unwrap().contains("; Misère rated "))
    );
    let markdown = std::fs::read_to_string(d.join("r.md")).unwrap();
    assert!(
        markdown.contains("The Misère rating that bands the classes was fitted to 120000 Misères")
    );
    assert!(markdown.contains("--by classes-rated --history highest --rating-deals 30000"));
    let simulate = |file: &str| {
        napsim()
            .current_dir(d)
            .args(["--rules", "pub-guide", "simulate", "--players", "4"])
            .args(["--deals", "2000", "--seed", "1"])
            .arg("--bid")
            .arg(format!("tuned:file=({file})"))
            .output()
            .unwrap()
    };
    let played = simulate("r.json");
    assert!(played.status.success());
    assert!(String::from_utf8_lossy(&played.stdout).contains("2000 deals"));
    // Without its rating the classes cannot be told: the file is refused, and so is a rating
    // beside classes it does not band.
    let mut unrated = file.clone();
    unrated.as_object_mut().unwrap().remove("rating");
    std::fs::write(d.join("unrated.json"), unrated.to_string()).unwrap();
    let refused = simulate("unrated.json");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unrated.json") && stderr.contains("needs its misère rating"),
        "{stderr}"
    );
    let mut other = file.clone();
    other["by"] = "classes-misere".into();
    other["cells"] = serde_json::json!([]);
    std::fs::write(d.join("other.json"), other.to_string()).unwrap();
    let refused = simulate("other.json");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bands only classes-rated"), "{stderr}");
    // Another run may start from the strategy: its cells keep the rating they were found by.
    let again = run_in(
        d,
        &[
            "--rules",
            "pub-guide",
            "optimize",
            "--players",
            "4",
            "--play",
            "heuristic",
            "--deals",
            "10000",
            "--rounds",
            "1",
            "--by",
            "classes-rated",
            "--history",
            "highest",
            "--start",
            "r.json",
            "--seed",
            "5",
            "--out",
            "again.json",
        ],
    );
    assert!(!String::from_utf8_lossy(&again.stderr).contains("misère rating:"));
    let continued: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("again.json")).unwrap()).unwrap();
    assert_eq!(continued["rating"], file["rating"]);
    // A profile without a Misère has nothing to rate.
    assert_bad_input(
        &[
            "optimize",
            "--players",
            "4",
            "--by",
            "classes-rated",
            "--out",
            "x.json",
            "--quiet",
        ],
        "does not have",
    );
}

#[test]
fn two_runs_writing_the_same_output_leave_one_whole_set() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |seed: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_napsim"))
            .current_dir(d)
            .args(["simulate", "--deals", "200", "--quiet", "--seed", seed])
            .args(["--out", "same.csv"])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    for _ in 0..150 {
        let (a, b) = (run("1"), run("2"));
        for mut child in [a, b] {
            assert!(child.wait().unwrap().success());
        }
        let csv = std::fs::read_to_string(d.join("same.csv")).unwrap();
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join("same.csv.meta.json")).unwrap()).unwrap();
        let seed = csv.lines().nth(1).unwrap().split(',').nth(4).unwrap();
        assert_eq!(
            seed,
            meta["seed"].to_string(),
            "the CSV of one run, the manifest of the other"
        );
    }
}

#[test]
fn equity_writes_its_table_chart_and_outcomes_and_a_decided_lead_is_certain() {
    use napsim::eval::equity::DealOutcomes;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    napsim()
        .current_dir(d)
        .args(["equity", "--deals", "50000", "--seed", "3", "--quiet"])
        .args(["--out", "t.csv", "--markdown", "t.md", "--plot", "t.svg"])
        .args(["--outcomes", "o.csv"])
        .assert()
        .success();
    let rows = common::records(&std::fs::read_to_string(d.join("t.csv")).unwrap());
    // Eight deals to come at most, leads -40..40 in steps of 2.
    assert_eq!(rows.len(), 8 * 41);
    let measured =
        DealOutcomes::from_csv(&std::fs::read_to_string(d.join("o.csv")).unwrap()).unwrap();
    assert_eq!(measured.deals(), 50_000);
    // The most one deal moves two balances apart: a lead beyond it wins the last deal for
    // certain, and a lead of its size or less does not.
    let swing = measured
        .outcomes()
        .iter()
        .map(|(p, _)| p[..4].iter().max().unwrap() - p[..4].iter().min().unwrap())
        .max()
        .unwrap();
    for row in rows.iter().filter(|r| r["deals_left"] == "1") {
        let lead: i64 = row["lead"].parse().unwrap();
        let chance: f64 = row["win_chance"].parse().unwrap();
        assert_eq!(row["exact"], "true");
        if lead > swing {
            assert!((chance - 1.0).abs() < 1e-9, "{row:?}");
        } else if lead > -swing {
            assert!(chance > 0.0 && chance < 1.0, "{row:?}");
        }
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("t.csv.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["command"], "equity");
    assert!(
        meta["reproduce"]
            .as_str()
            .unwrap()
            .contains("--deals 50000")
    );
    let md = std::fs::read_to_string(d.join("t.md")).unwrap();
    assert!(md.contains("| +0 | 25.0% |"), "{md}");
    assert!(
        std::fs::read_to_string(d.join("t.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    // Without an output flag the Markdown goes to stdout.
    let out = napsim()
        .args([
            "equity",
            "--players",
            "3",
            "--deals",
            "2000",
            "--seed",
            "3",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("# Session equity: heather-1875, 3 players")
    );
}

#[test]
fn equity_breakeven_says_what_make_rate_a_bid_needs_from_each_state() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    napsim()
        .current_dir(d)
        .args([
            "equity",
            "--players",
            "3",
            "--deals",
            "30000",
            "--seed",
            "8",
        ])
        .args(["--quiet", "--breakeven", "b.csv"])
        .assert()
        .success();
    let rows = common::records(&std::fs::read_to_string(d.join("b.csv")).unwrap());
    // Four bids, eight deals to come at most, leads -24..24 in steps of 2.
    assert_eq!(rows.len(), 4 * 8 * 25);
    let at = |bid: &str, deals: &str, lead: &str| -> f64 {
        let row = rows
            .iter()
            .find(|r| r["bid"] == bid && r["deals_left"] == deals && r["lead"] == lead)
            .unwrap();
        assert_eq!(row["units_breakeven"], "0.5", "{row:?}");
        row["session_breakeven"].parse().unwrap()
    };
    for row in &rows {
        let rate: f64 = row["session_breakeven"].parse().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{row:?}");
    }
    // Last deal, 24 behind each: a made Three (+6, the others -3) leaves it 15 behind, no better
    // than passing, while a made Wellington (+20, the others -10) wins, and losing it costs
    // nothing that matters.
    assert_eq!(at("three", "1", "-24"), 1.0);
    assert_eq!(at("wellington", "1", "-24"), 0.0);
    // 24 ahead of each: passing wins for certain; no bid is worth any risk.
    assert_eq!(at("three", "1", "24"), 1.0);
    // Level with one deal left: a made Three wins, a lost one loses, passing shares three
    // ways: a third. With more deals to come, the make rate needed rises towards the units'.
    assert!((at("three", "1", "0") - 1.0 / 3.0).abs() < 1e-9);
    assert!(at("three", "8", "0") > at("three", "1", "0"));
}

#[test]
fn equity_refuses_bad_input_with_one_error_line() {
    use common::assert_bad;
    assert_bad(&["equity", "--deals", "0"], "at least 1");
    assert_bad(&["equity", "--players", "9", "--deals", "10"], "players");
    assert_bad(&["equity", "--bid", "frob", "--deals", "10"], "'frob'");
}

/// `napsim completions SHELL` prints a script each shell recognises, naming every subcommand;
/// an unknown shell is a usage error.
#[test]
fn completions_are_printed_for_every_shell() {
    let subcommands = napsim::cli::Cli::command_names();
    for (shell, marker) in [
        ("bash", "complete -F _napsim"),
        ("zsh", "#compdef napsim"),
        ("fish", "complete -c napsim"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[napsim]"),
    ] {
        let out = napsim().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}: no {marker:?}");
        for name in &subcommands {
            assert!(script.contains(name.as_str()), "{shell}: {name} missing");
        }
        assert!(out.stderr.is_empty(), "{shell}");
    }
    common::assert_bad(&["completions", "tcsh"], "tcsh");
}

/// `napsim man` prints a roff manual page for section 1, with every subcommand, and
/// `--version` names the revision that a run's manifest records.
#[test]
fn the_manual_page_and_the_version_name_the_build() {
    let page = common::stdout(&["man"]);
    assert!(page.contains(".TH napsim 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS") || page.contains(".SH COMMANDS"));
    for name in napsim::cli::Cli::command_names() {
        // roff escapes hyphens.
        assert!(page.contains(&name.replace('-', "\\-")), "{name} missing");
    }
    let version = common::stdout(&["--version"]);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run.csv");
    let out_text = out.to_str().unwrap();
    common::stdout(&[
        "simulate", "--deals", "100", "--seed", "1", "--quiet", "--out", out_text,
    ]);
    let manifest = std::fs::read_to_string(dir.path().join("run.csv.meta.json")).unwrap();
    let recorded: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let recorded = recorded["napsim_version"].as_str().unwrap();
    assert_eq!(version.trim(), format!("napsim {recorded}"));
    assert!(recorded.contains('+'), "the revision: {recorded}");
}

#[test]
fn tournament_out_dash_writes_the_entrant_csv_to_stdout_as_the_file_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.csv");
    let args = [
        "tournament",
        "--entrant",
        "a=threshold/heuristic",
        "--entrant",
        "b=always:bid=three/heuristic",
        "--sessions",
        "40",
        "--seed",
        "2",
        "--quiet",
        "--out",
    ];
    let piped = napsim()
        .current_dir(dir.path())
        .args(args)
        .arg("-")
        .assert()
        .success();
    let out = piped.get_output();
    napsim().args(args).arg(&file).assert().success();
    assert_eq!(out.stdout, std::fs::read(&file).unwrap());
    // The tables go to stderr, and no file named `-` is written.
    assert!(String::from_utf8_lossy(&out.stderr).contains("paired differences"));
    assert!(!dir.path().join("-").exists());
}
