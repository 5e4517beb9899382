//! Every command refuses bad input the same way: exit status 2 (1 for a path it cannot write)
//! with one `error:` line that names what was wrong, nothing on stdout, and no file written.
//!
//! Each command's cases are a table; every case runs in a fresh empty directory (outputs are
//! asked for there), and a test reports every case that went wrong, not just the first.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{Refusal, napsim, refusal_problem};

/// One command line and how it must be refused.
struct Case {
    args: Vec<String>,
    refusal: Refusal,
    /// A substring of the `error:` line: the offending token, key, flag or path.
    needle: String,
}

fn case(refusal: Refusal, args: &[impl AsRef<str>], needle: &str) -> Case {
    Case {
        args: args.iter().map(|a| a.as_ref().to_string()).collect(),
        refusal,
        needle: needle.to_string(),
    }
}

/// Bad input napsim finds itself.
fn input(args: &[impl AsRef<str>], needle: &str) -> Case {
    case(Refusal::Input, args, needle)
}

/// A usage error clap finds (a value its parser refuses, a missing or conflicting flag).
fn usage(args: &[impl AsRef<str>], needle: &str) -> Case {
    case(Refusal::Usage, args, needle)
}

/// A path that cannot be written: exit 1.
fn runtime(args: &[impl AsRef<str>], needle: &str) -> Case {
    case(Refusal::Runtime, args, needle)
}

/// `base` followed by `more`.
fn with(base: &[impl AsRef<str>], more: &[impl AsRef<str>]) -> Vec<String> {
    base.iter()
        .map(|a| a.as_ref().to_string())
        .chain(more.iter().map(|a| a.as_ref().to_string()))
        .collect()
}

/// `base` with `flag` given `value`: in place of its value in `base`, or added.
fn set(base: &[impl AsRef<str>], flag: &str, value: &str) -> Vec<String> {
    let mut args = with(base, &[""; 0]);
    match args.iter().position(|a| a == flag) {
        Some(i) => args[i + 1] = value.to_string(),
        None => args.extend([flag.to_string(), value.to_string()]),
    }
    args
}

/// `--entrant` before each of `entrants`.
fn entrants(entrants: &[&str]) -> Vec<String> {
    entrants
        .iter()
        .flat_map(|e| ["--entrant".to_string(), e.to_string()])
        .collect()
}

/// Every regular file and directory under `dir`, with file sizes.
fn listing(dir: &Path) -> BTreeMap<PathBuf, Option<u64>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.insert(path.clone(), None);
            out.extend(listing(&path));
        } else {
            out.insert(path.clone(), Some(path.metadata().unwrap().len()));
        }
    }
    out
}

/// Runs each case in a fresh directory holding a subdirectory `dir` and a text file `file`
/// (for outputs aimed at a directory or below a file) and panics listing every case that was
/// not refused as it should have been or that left a file behind.
fn check(cases: &[Case]) {
    let mut failures = Vec::new();
    let mut failed = 0;
    for (i, c) in cases.iter().enumerate() {
        let scratch = tempfile::tempdir().unwrap();
        std::fs::create_dir(scratch.path().join("dir")).unwrap();
        std::fs::write(scratch.path().join("file"), "not a table\n1\n").unwrap();
        let before = listing(scratch.path());
        let out = napsim()
            .current_dir(scratch.path())
            .args(&c.args)
            .output()
            .unwrap();
        let mut problems: Vec<String> = refusal_problem(&out, c.refusal, &c.needle)
            .into_iter()
            .collect();
        let after = listing(scratch.path());
        let written: Vec<&PathBuf> = after
            .iter()
            .filter(|(path, size)| before.get(*path) != Some(size))
            .map(|(path, _)| path)
            .collect();
        if !written.is_empty() {
            problems.push(format!("files written: {written:?}"));
        }
        failed += usize::from(!problems.is_empty());
        for p in problems {
            failures.push(format!(
                "case {} {:?} ({:?}): {p}",
                i + 1,
                c.args,
                c.refusal
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{failed} of {} cases failed:\n{}",
        cases.len(),
        failures.join("\n")
    );
}

/// Rule profile files with one fault each, and the path of one that does not exist.
struct Profiles {
    dir: tempfile::TempDir,
}

impl Profiles {
    fn new() -> Profiles {
        let dir = tempfile::tempdir().unwrap();
        let good = common::stdout(&["rules", "show"]);
        let set = |key: &str, value: &str| {
            let line = good
                .lines()
                .find(|l| l.starts_with(&format!("{key} = ")))
                .unwrap();
            good.replacen(line, &format!("{key} = {value}"), 1)
        };
        let files = [
            (
                "syntax.toml",
                "name = \"broken\"\n[table\nmin_players = 3\n".to_string(),
            ),
            ("bad-value.toml", set("shuffle", "\"sometimes\"")),
            ("wrong-type.toml", set("min_players", "\"three\"")),
            (
                "missing-key.toml",
                good.replacen("ties = \"share\"\n", "", 1),
            ),
            (
                "unknown-key.toml",
                good.replacen("[table]\n", "[table]\nseats = 4\n", 1),
            ),
            ("too-many.toml", set("max_players", "8")),
            ("long-session.toml", set("deals", "1001")),
            ("negative.toml", good.replacen("made = 4", "made = -4", 1)),
            ("small-pack.toml", set("lowest_rank", "\"Q\"")),
            (
                "pass-bid.toml",
                good.replacen("name = \"three\"", "name = \"pass\"", 1),
            ),
        ];
        for (name, text) in &files {
            assert_ne!(text, &good, "{name} must differ from the good profile");
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        Profiles { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_string()
    }
}

const HANDS: &str = "AC KC QC JC TC/AS KS QS JS TS/AH KH QH JH TH/AD KD QD JD TD";
const CALLS: &str = "pass,pass,pass,pass";

#[test]
fn rules_show_refuses_unknown_and_broken_profiles() {
    let p = Profiles::new();
    check(&[
        input(&["rules", "show", "napoleon-1815"], "'napoleon-1815'"),
        input(&["rules", "show", &p.path("syntax.toml")], "(line 2)"),
        input(
            &["rules", "show", &p.path("bad-value.toml")],
            "deal.shuffle",
        ),
        input(
            &["--rules", &p.path("missing-key.toml"), "rules", "show"],
            "`ties`",
        ),
        input(&["rules", "show", &p.path("unknown-key.toml")], "`seats`"),
        input(&["rules", "show", &p.path("absent.toml")], "cannot read"),
        usage(&["rules", "frob"], "'frob'"),
        usage(&["rules", "show", "heather-1875", "extra"], "'extra'"),
    ]);
}

#[test]
fn deal_refuses_bad_hands_and_replays() {
    let deal = ["deal", "--seed", "1"];
    let hands = |text: &str| with(&deal, &["--hands", text]);
    let replay = |rules: &str, more: &[&str]| {
        let game = ["--hands", HANDS, "--calls", CALLS, "--plays", ""];
        with(&with(&["--rules", rules, "deal"], &game), more)
    };
    let replay_of = |calls: &str, plays: &str| {
        ["deal", "--hands", HANDS, "--calls", calls, "--plays", plays].map(String::from)
    };
    check(&[
        input(&hands(&HANDS.replace("TD", "1D")), "'1D'"),
        input(&hands(&HANDS.replace("TD", "TX")), "'TX'"),
        input(
            &hands(&HANDS.replace("KC", "AC")),
            "card AC appears more than once",
        ),
        input(
            &hands(&HANDS.replace("TD", "AS")),
            "card AS appears more than once",
        ),
        input(&hands(&HANDS.replace(" TD", "")), "has 4"),
        input(&hands(&HANDS.replace("TD", "TD 2D")), "has 6"),
        input(&hands(&HANDS[..HANDS.rfind('/').unwrap()]), "3 hands"),
        input(
            &set(&hands(HANDS), "--players", "5"),
            "4 hands separated by '/', 5 are needed",
        ),
        input(
            &with(&["--rules", "peep-nap"], &hands(&HANDS.replace("TD", "2D"))),
            "card 2D is not in the pack",
        ),
        input(&with(&deal, &["--players", "8"]), "8 players"),
        input(&with(&deal, &["--dealer", "4"]), "--dealer 4"),
        usage(&with(&deal, &["--count", "0"]), "at least 1"),
        usage(&with(&deal, &["--count", "1.5"]), "'1.5'"),
        usage(&set(&deal, "--seed", "-1"), "'-1'"),
        usage(&set(&deal, "--seed", "-1"), "from 0 to 2^64-1"),
        usage(
            &with(&deal, &["--calls", CALLS]),
            "required arguments were not provided",
        ),
        input(&replay_of("pass,frob,pass,pass", ""), "'frob'"),
        input(&replay_of("pass,pass", ""), "one call per seat (4), got 2"),
        input(
            &replay_of("four,three,pass,pass", ""),
            "call 2 ('three' by seat 1)",
        ),
        input(&replay_of("three,pass,pass,pass", "AC QX"), "'QX'"),
        input(
            &replay_of("three,pass,pass,pass", "AC"),
            "ends after 1 cards",
        ),
        input(&replay("heather-1875", &["--trump", "X"]), "--trump 'X'"),
        // What a profile's features need, missing or given to a profile without them.
        input(&replay("peep-nap", &[]), "peep-nap deals a floater"),
        input(
            &replay("heather-1875", &["--floater", "9S"]),
            "heather-1875 deals no floater",
        ),
        input(&replay("sir-garnet", &[]), "sir-garnet deals a spare hand"),
        input(
            &replay("heather-1875", &["--spare", "2C 3C 4C 5C 6C"]),
            "heather-1875 deals no spare hand",
        ),
        input(
            &replay("heather-1875", &["--buy", "1:TS>2C"]),
            "heather-1875 has no purchases",
        ),
        input(
            &replay("peep-nap", &["--floater", "2S"]),
            "card 2S is not in the pack",
        ),
        input(
            &replay("peep-nap", &["--floater", "AS"]),
            "card AS is in hand 1 and also the floater",
        ),
        input(
            &replay("heather-1875", &["--discard", "2C"]),
            "--discard applies only",
        ),
        input(
            &replay("heather-1875", &["--trump", "H"]),
            "--trump applies only",
        ),
        input(
            &replay("peep-nap", &["--floater", "9S", "--peeks", "0,9"]),
            "'9' is not a seat",
        ),
        input(
            &replay("purchase-nap", &["--buy", "2 for 3"]),
            "--buy '2 for 3'",
        ),
        usage(
            &replay("purchase-nap", &["--kitty", "2000000000"]),
            "'2000000000'",
        ),
    ]);
}

#[test]
fn simulate_refuses_bad_counts_policies_and_outputs() {
    let sim = [
        "simulate", "--deals", "10", "--seed", "1", "--quiet", "--out", "out.csv",
    ];
    let to_stdout = ["simulate", "--deals", "10", "--seed", "1", "--quiet"];
    let policy = |flag: &str, spec: &str| with(&sim, &[flag, spec]);
    check(&[
        usage(&set(&sim, "--deals", "1.5"), "'1.5'"),
        usage(
            &set(&sim, "--seed", "-1"),
            "the seed is a whole number from 0 to 2^64-1",
        ),
        usage(
            &set(&sim, "--seed", "18446744073709551616"),
            "from 0 to 2^64-1",
        ),
        usage(&set(&sim, "--deals", "0"), "at least 1"),
        usage(&set(&sim, "--deals", "1e-3"), "'1e-3'"),
        usage(&set(&sim, "--deals", "lots"), "1e6"),
        usage(&with(&sim, &["--threads", "0"]), "at least 1"),
        usage(&with(&sim, &["--threads", "1025"]), "at most 1024"),
        usage(&with(&sim, &["--threads", "two"]), "'two'"),
        input(&with(&sim, &["--players", "2"]), "2 players"),
        input(&policy("--bid", "frob"), "unknown bid policy 'frob'"),
        input(&policy("--play", "genius"), "unknown play policy 'genius'"),
        input(&policy("--play", "pimc:wrlds=3"), "no parameter 'wrlds'"),
        input(&policy("--play", "pimc:worlds=0"), "worlds=0"),
        input(&policy("--play", "ismcts:iterations=1.5"), "iterations=1.5"),
        input(&policy("--bid", "threshold:three=lots"), "three=lots"),
        input(
            &policy("--bid", "threshold:three=1,three=2"),
            "'three' is given twice",
        ),
        input(
            &policy("--bid", "lookahead:play=(pimc:worlds=3"),
            "a '(' is not closed",
        ),
        input(
            &policy("--play", "pimc:worlds=3)"),
            "a ')' has no matching '('",
        ),
        input(
            &policy("--bid", "threshold:three=(1)(2)"),
            "wrap it in parentheses",
        ),
        input(
            &policy("--bid", "lookahead:others=(always:bid=five)"),
            "five",
        ),
        input(&policy("--bid", "always:bid=wellington"), "wellington"),
        input(&policy("--bid", "table"), "needs the parameter 'file'"),
        input(
            &policy("--bid", "table:file=nowhere/t.csv"),
            "wrap it in parentheses",
        ),
        input(
            &policy("--bid", "table:file=(nowhere/t.csv)"),
            "nowhere/t.csv is not valid",
        ),
        input(
            &policy("--bid", "table:file=(file)"),
            "not a napsim bid-table CSV",
        ),
        // Missing folders are created, but not below a file, however deep.
        runtime(
            &set(&sim, "--out", "file/new/out.csv"),
            "cannot write file/new/out.csv: file is not a directory",
        ),
        runtime(
            &set(&sim, "--out", "file/out.csv"),
            "cannot write file/out.csv",
        ),
        // A refused run creates no folder for its output.
        input(
            &with(
                &set(&sim, "--out", "new/deeper/out.csv"),
                &["--players", "2"],
            ),
            "2 players",
        ),
        runtime(&with(&to_stdout, &["--out", "dir"]), "cannot write dir"),
    ]);
}

#[test]
fn solve_refuses_bad_deals_and_openings() {
    let solve = |deal: &str| ["solve".to_string(), deal.to_string()];
    let peep = |deal: &str, more: &[&str]| with(&["--rules", "peep-nap", "solve", deal], more);
    check(&[
        input(
            &solve(&HANDS[..HANDS.find("/AH").unwrap()]),
            "the deal has 2 hands",
        ),
        input(
            &solve(&HANDS.replace(" TD", "")),
            "seat 3 holds 4 cards but seat 0 holds 5",
        ),
        input(&solve(&HANDS.replace("TD", "AS")), "AS appears twice"),
        input(&solve(&HANDS.replace("TD", "ZZ")), "'ZZ'"),
        input(
            &solve(&HANDS.replace("TD", "TD 9D")),
            "seat 3 holds 6 cards",
        ),
        input(&with(&solve(HANDS), &["--bid", "frob"]), "no bid 'frob'"),
        input(&with(&solve(HANDS), &["--trump", "Z"]), "--trump 'Z'"),
        input(
            &with(&solve(HANDS), &["--trump", "S"]),
            "bid three does not name trump",
        ),
        input(
            &with(&solve(HANDS), &["--misere", "--bid", "nap"]),
            "--misere",
        ),
        input(
            &peep(HANDS, &["--bid", "wellington-without-floater"]),
            "give --trump",
        ),
        input(
            &peep(&HANDS.replace("TD", "2D"), &[]),
            "2D is not in the pack",
        ),
        input(
            &["solve", "--random", "5", "--players", "9", "--seed", "1"],
            "9 players",
        ),
        usage(&["solve", "--random", "0"], "at least 1"),
        usage(&["solve"], "required arguments were not provided"),
        usage(
            &with(&solve(HANDS), &["--random", "5"]),
            "cannot be used with",
        ),
        usage(
            &with(&solve(HANDS), &["--players", "5"]),
            "cannot be used with '--players",
        ),
        usage(
            &with(&solve(HANDS), &["--seed", "5"]),
            "cannot be used with '--seed",
        ),
    ]);
}

#[test]
fn hand_refuses_bad_hands_seats_and_calls() {
    let quick = [
        "--worlds",
        "20",
        "--play",
        "heuristic",
        "--seed",
        "1",
        "--quiet",
    ];
    let hand = |cards: &str, more: &[&str]| with(&with(&["hand", cards], &quick), more);
    let good = "AS KS QS JS TS";
    let after = |seat: &str, calls: &str| hand(good, &["--seat", seat, "--after", calls]);
    check(&[
        input(&hand("AS KS QS JS", &[]), "has 4"),
        input(&hand("AS KS QS JS 1S", &[]), "'1S'"),
        input(
            &hand("AS AS QS JS TS", &[]),
            "card AS appears more than once",
        ),
        input(
            &hand("AS KS QS JS 2S", &["--rules", "peep-nap"]),
            "2S is not in the pack",
        ),
        input(&hand(good, &["--players", "2"]), "2 players"),
        input(&hand(good, &["--seat", "4"]), "--seat 4"),
        input(&after("1", "pass,pass"), "--after gives 2 calls"),
        input(&after("2", "pass,frob"), "'frob'"),
        input(&after("2", "pass,,"), "call 2 is empty"),
        input(&after("2", "nap,three"), "'three' at seat 1"),
        input(
            &with(&after("1", "nap"), &["--others-bid", "pass"]),
            "too rare",
        ),
        input(&hand(good, &["--others-bid", "nope"]), "'nope'"),
        input(
            &set(&hand(good, &[]), "--play", "pimc:worlds=-1"),
            "worlds=-1",
        ),
        usage(&set(&hand(good, &[]), "--worlds", "1.5"), "'1.5'"),
        usage(&hand(good, &["--threads", "0"]), "at least 1"),
        usage(&hand(good, &["--json", "--csv"]), "cannot be used with"),
        runtime(
            &hand(good, &["--out", "file/new/h.txt"]),
            "cannot write file/new/h.txt: file is not a directory",
        ),
        runtime(&hand(good, &["--json", "--out", "dir"]), "cannot write dir"),
    ]);
}

#[test]
fn bid_table_refuses_bad_counts_schemes_and_outputs() {
    let table = [
        "bid-table",
        "--deals",
        "10",
        "--seed",
        "1",
        "--quiet",
        "--out",
        "t.csv",
    ];
    let bare = ["bid-table", "--deals", "10", "--seed", "1", "--quiet"];
    check(&[
        usage(&set(&table, "--deals", "1.5"), "'1.5'"),
        usage(&with(&table, &["--by", "suits"]), "'suits'"),
        usage(&with(&table, &["--min-hands", "x"]), "'x'"),
        usage(&with(&table, &["--dd-deals", "1e-1"]), "'1e-1'"),
        input(
            &with(&table, &["--play", "nope"]),
            "unknown play policy 'nope'",
        ),
        input(&with(&table, &["--players", "8"]), "8 players"),
        runtime(
            &with(&bare, &["--out", "file/new/t.csv"]),
            "cannot write file/new/t.csv",
        ),
        runtime(
            &with(&bare, &["--markdown", "file/new/t.md"]),
            "cannot write file/new/t.md",
        ),
        runtime(
            &with(&bare, &["--plot", "file/t.svg"]),
            "cannot write file/t.svg",
        ),
        runtime(&with(&bare, &["--plot", "dir"]), "cannot write dir"),
    ]);
}

#[test]
fn thresholds_refuses_bad_seats_counts_and_outputs() {
    let sweep = [
        "thresholds",
        "--deals",
        "10",
        "--seed",
        "1",
        "--quiet",
        "--out",
        "t.csv",
    ];
    check(&[
        input(&with(&sweep, &["--seat", "4"]), "--seat 4"),
        input(
            &with(&sweep, &["--players", "5", "--seat", "5"]),
            "--seat 5",
        ),
        usage(&with(&sweep, &["--seat", "first"]), "'first'"),
        usage(&set(&sweep, "--deals", "0"), "at least 1"),
        input(&with(&sweep, &["--play", "pimc:worlds=x"]), "worlds=x"),
        input(
            &with(&["--rules", "peep-nap"], &set(&sweep, "--players", "8")),
            "8 players",
        ),
        runtime(
            &set(&sweep, "--out", "file/new/t.csv"),
            "cannot write file/new/t.csv",
        ),
        runtime(&set(&sweep, "--out", "dir"), "cannot write dir"),
    ]);
}

#[test]
fn tournament_refuses_bad_entrants_and_outputs() {
    let tour = [
        "tournament",
        "--sessions",
        "2",
        "--seed",
        "1",
        "--quiet",
        "--out",
        "t.csv",
    ];
    let a = "a=threshold/heuristic";
    let two = with(&tour, &entrants(&[a, "b=pass/random"]));
    check(&[
        input(
            &with(&tour, &entrants(&[a])),
            "2 to 4 entrants at 4 players; 1 given",
        ),
        input(
            &with(&tour, &entrants(&[a, "a=pass/random"])),
            "two entrants are named 'a'",
        ),
        input(
            &with(&tour, &entrants(&[a, "b=threshold"])),
            "--entrant 'b=threshold': no '/'",
        ),
        input(
            &with(&tour, &entrants(&[a, "b c=pass/random"])),
            "'b c=pass/random': the name",
        ),
        input(
            &with(&tour, &entrants(&[a, "pass/random"])),
            "'pass/random' is not NAME=BID/PLAY",
        ),
        input(
            &with(&tour, &entrants(&[a, "b=pass/nope"])),
            "'b': unknown play policy 'nope'",
        ),
        input(
            &with(&tour, &entrants(&[a, "b=(lookahead:play=(frob))/random"])),
            "'frob'",
        ),
        input(
            &set(
                &with(&two, &entrants(&["c=pass/random", "d=pass/random"])),
                "--players",
                "3",
            ),
            "2 to 3 entrants at 3 players; 4 given",
        ),
        usage(&set(&two, "--sessions", "0"), "at least 1"),
        usage(
            &with(&two, &["--sprt", "0,1e308"]),
            "bounds too far apart or too close",
        ),
        usage(&tour, "required arguments were not provided"),
        runtime(
            &with(&two, &["--pairs", "file/new/p.csv"]),
            "cannot write file/new/p.csv",
        ),
        runtime(
            &with(&two, &["--markdown", "file/t.md"]),
            "cannot write file/t.md",
        ),
        runtime(&set(&two, "--out", "dir"), "cannot write dir"),
    ]);
}

#[test]
fn every_command_refuses_a_bad_profile_naming_the_key() {
    let p = Profiles::new();
    let hand = [
        "hand",
        "AS KS QS JS TS",
        "--worlds",
        "20",
        "--play",
        "heuristic",
        "--seed",
        "1",
    ];
    let tour = with(
        &["tournament", "--sessions", "2", "--seed", "1"],
        &entrants(&["a=pass/random", "b=pass/random"]),
    );
    let rules = |file: &str, command: &[String]| with(&["--rules", &p.path(file)], command);
    let words = |args: &[&str]| with(args, &[""; 0]);
    check(&[
        input(
            &rules(
                "syntax.toml",
                &words(&["simulate", "--deals", "10", "--seed", "1"]),
            ),
            "syntax.toml is not valid: unclosed table",
        ),
        input(
            &rules("bad-value.toml", &words(&["deal", "--seed", "1"])),
            "deal.shuffle: 'sometimes' is not accepted",
        ),
        input(
            &rules("wrong-type.toml", &words(&["solve", HANDS])),
            "invalid type: string \"three\", expected u32",
        ),
        input(
            &rules(
                "missing-key.toml",
                &words(&["solve", "--random", "5", "--seed", "1"]),
            ),
            "missing field `ties`",
        ),
        input(
            &rules("unknown-key.toml", &words(&hand)),
            "unknown field `seats`",
        ),
        input(
            &rules(
                "too-many.toml",
                &words(&["bid-table", "--deals", "10", "--out", "t.csv"]),
            ),
            "table.max_players: must be at most 7",
        ),
        input(
            &rules(
                "negative.toml",
                &words(&["thresholds", "--deals", "10", "--seed", "1"]),
            ),
            "bids[1].made",
        ),
        input(&rules("small-pack.toml", &tour), "table.max_players"),
        input(
            &rules(
                "long-session.toml",
                &words(&["equity", "--deals", "10", "--seed", "1"]),
            ),
            "session.deals: must be from 1 to 1000",
        ),
        input(
            &rules("pass-bid.toml", &words(&["deal", "--seed", "1"])),
            "bids[0].name: 'pass' is the name of a call that is not a bid",
        ),
        input(&rules("absent.toml", &tour), "cannot read rule profile"),
        input(
            &with(&["--rules", "napoleon-1815"], &hand),
            "'napoleon-1815'",
        ),
    ]);
}

/// `text` (a simulation's part) with its first bid's `made` count one lower.
fn one_made_fewer(text: &str) -> String {
    let at = text.find("\"made\":").unwrap() + "\"made\":".len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let made: u64 = digits.parse().unwrap();
    assert!(made > 0);
    format!("{}{}{}", &text[..at], made - 1, &text[at + digits.len()..])
}

/// Partial files for the shard, merge and resume cases: the good parts of two small runs, and
/// damaged or foreign copies, in a directory of their own (the cases run elsewhere).
struct Parts {
    dir: tempfile::TempDir,
}

impl Parts {
    /// A simulation of 300000 deals, seed 1, in three shards (`p0.json`..`p2.json`), the same
    /// with seed 2 (`seed2-p1.json`), a tournament shard (`t0.json`), a checkpoint of the whole
    /// simulation (`c.json`) and damaged copies of `p1.json`.
    fn new() -> Parts {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let run = |args: &[&str]| {
            let out = napsim().current_dir(d).args(args).output().unwrap();
            assert!(out.status.success(), "{args:?}");
        };
        let sim = ["simulate", "--deals", "300000", "--quiet"];
        for i in 0..3 {
            let (shard, out) = (format!("{i}/3"), format!("p{i}.json"));
            run(
                &with(&sim, &["--seed", "1", "--shard", &shard, "--out", &out])
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            );
        }
        run(&with(
            &sim,
            &["--seed", "2", "--shard", "1/3", "--out", "seed2-p1.json"],
        )
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
        run(&[
            "tournament",
            "--entrant",
            "a=threshold/random",
            "--entrant",
            "b=pass/random",
            "--sessions",
            "100",
            "--seed",
            "1",
            "--shard",
            "0/1",
            "--out",
            "t0.json",
            "--quiet",
        ]);
        // The tournament part with one entrant's tallies cut away.
        let mut short: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join("t0.json")).unwrap()).unwrap();
        short["tally"]["entrants"]
            .as_array_mut()
            .unwrap()
            .truncate(1);
        short["tally"]["pairs"].as_array_mut().unwrap().truncate(1);
        std::fs::write(d.join("t-short.json"), short.to_string()).unwrap();
        run(&with(&sim, &["--seed", "1", "--checkpoint", "c.json"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>());
        let good = std::fs::read_to_string(d.join("p1.json")).unwrap();
        let checkpoint = std::fs::read_to_string(d.join("c.json")).unwrap();
        let edits = [
            // One contract fewer made: every count still agrees with the others.
            ("edited.json", one_made_fewer(&good)),
            ("c-edited.json", one_made_fewer(&checkpoint)),
            ("truncated.json", good[..good.len() / 3].to_string()),
            ("text.json", "deals,made\n1,2\n".to_string()),
            (
                "future.json",
                good.replace("\"format_version\":1", "\"format_version\":7"),
            ),
            (
                "unfinished.json",
                good.replace("\"done\":[[1,3]]", "\"done\":[[2,3]]"),
            ),
            (
                "miscounted.json",
                good.replace("\"tally\":{\"deals\":131072", "\"tally\":{\"deals\":131073"),
            ),
            (
                "outside.json",
                good.replace("\"done\":[[1,3]]", "\"done\":[[1,4]]"),
            ),
        ];
        for (name, text) in &edits {
            assert!(text != &good && text != &checkpoint, "{name} must differ");
            std::fs::write(d.join(name), text).unwrap();
        }
        Parts { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_string()
    }
}

#[test]
fn shards_merges_and_checkpoints_refuse_bad_specs_and_files() {
    let parts = Parts::new();
    let p = |name: &str| parts.path(name);
    let sim = ["simulate", "--deals", "300000", "--seed", "1", "--quiet"];
    let shard = |spec: &str| with(&sim, &["--shard", spec, "--out", "part.json"]);
    let resume = |name: &str, more: &[&str]| with(&with(&sim, more), &["--resume", &p(name)]);
    let merge = |names: &[&str], more: &[&str]| {
        let mut args = vec!["merge".to_string()];
        args.extend(names.iter().map(|n| p(n)));
        with(&args, more)
    };
    let cases = [
        // Shard specs.
        usage(&shard("4/4"), "shards of 4 are numbered 0 to 3"),
        usage(&shard("1/0"), "N must be at least 1"),
        usage(&shard("half"), "use I/N"),
        usage(&shard("2/x"), "use I/N"),
        input(&with(&sim, &["--shard", "0/2"]), "--shard needs --out FILE"),
        input(
            &[
                "simulate", "--deals", "1000", "--shard", "0/2", "--out", "p.json",
            ],
            "--shard needs --seed",
        ),
        input(
            &[
                "bid-table",
                "--deals",
                "1000",
                "--seed",
                "1",
                "--shard",
                "0/2",
                "--out",
                "p.json",
                "--plot",
                "t.svg",
            ],
            "give --plot to `napsim merge`",
        ),
        usage(
            &with(&sim, &["--checkpoint-every", "0"]),
            "positive number of seconds",
        ),
        input(
            &with(&sim, &["--checkpoint", "x.json", "--out", "x.json"]),
            "--checkpoint and --out both name x.json",
        ),
        runtime(
            &with(&sim, &["--checkpoint", "file/new/c.json"]),
            "cannot write file/new/c.json: file is not a directory",
        ),
        // Merges.
        usage(&["merge"], "required arguments"),
        input(&merge(&["p0.json", "p2.json"], &[]), "shard 1/3 is missing"),
        input(
            &merge(&["p0.json", "p1.json", "p1.json", "p2.json"], &[]),
            "shard 1/3 is given twice",
        ),
        input(
            &merge(&["p0.json", "seed2-p1.json", "p2.json"], &[]),
            "seed is 2 there, 1 in",
        ),
        input(
            &merge(&["p0.json", "t0.json"], &[]),
            "command is \"tournament\" there",
        ),
        input(
            &merge(&["truncated.json"], &[]),
            "not a napsim partial result",
        ),
        input(&merge(&["text.json"], &[]), "not a napsim partial result"),
        input(&merge(&["missing.json"], &[]), "cannot read"),
        input(&merge(&["future.json"], &[]), "format 7"),
        input(
            &merge(&["p0.json", "unfinished.json", "p2.json"], &[]),
            "unfinished.json is unfinished: 1 of shard 1/3's 2 blocks done",
        ),
        input(
            &merge(&["p0.json", "miscounted.json", "p2.json"], &[]),
            "its tally counts 131073 units",
        ),
        input(&merge(&["outside.json"], &[]), "outside shard 1/3"),
        input(
            &merge(&["p0.json", "edited.json", "p2.json"], &[]),
            "edited.json: a damaged or edited partial file",
        ),
        // Cut by hand: the digest finds the edit before the entrant count does.
        input(
            &merge(&["t-short.json"], &[]),
            "t-short.json: a damaged or edited partial file",
        ),
        input(
            &with(
                &["--rules", "pub-guide"],
                &merge(&["p0.json", "p1.json", "p2.json"], &[]),
            ),
            "the parts were made with profile heather-1875",
        ),
        input(
            &merge(
                &["p0.json", "p1.json", "p2.json"],
                &["--out", &p("p1.json")],
            ),
            "is both an input and an output",
        ),
        input(
            &merge(&["p0.json", "p1.json", "p2.json"], &["--markdown", "m.md"]),
            "--markdown does not apply to simulate results",
        ),
        runtime(
            &merge(
                &["p0.json", "p1.json", "p2.json"],
                &["--out", "file/no/m.csv"],
            ),
            "file is not a directory",
        ),
        // Checkpoints to resume.
        input(
            &resume("truncated.json", &[]),
            "not a napsim partial result",
        ),
        input(
            &resume("c.json", &["--players", "5"]),
            "arguments.players is 4 there, 5 here",
        ),
        input(&resume("c.json", &["--bid", "pass"]), "arguments.bid"),
        input(
            &with(
                &resume("c.json", &[]),
                &["--shard", "1/3", "--out", "p.json"],
            ),
            "holds the whole run, but this command runs shard 1/3",
        ),
        input(
            &resume("p1.json", &[]),
            "holds shard 1/3, but this command runs the whole run",
        ),
        input(
            &with(
                &resume("miscounted.json", &[]),
                &["--shard", "1/3", "--out", "p.json"],
            ),
            "its tally counts 131073 units",
        ),
        input(&resume("missing.json", &[]), "cannot read"),
        input(
            &resume("c-edited.json", &[]),
            "a damaged or edited partial file",
        ),
        // Saved progress is not overwritten by a fresh start.
        input(
            &with(&sim, &["--checkpoint", &p("c.json")]),
            "already holds a saved run (300000 of 300000 units done): add --resume",
        ),
        input(
            &with(&sim, &["--checkpoint", "file"]),
            "already exists and is not a napsim checkpoint",
        ),
    ];
    check(&cases);
}

#[test]
fn a_run_that_cannot_write_one_output_writes_none() {
    let table = ["bid-table", "--deals", "1000", "--seed", "1", "--quiet"];
    let tour = [
        "tournament",
        "--entrant",
        "a=threshold/random",
        "--entrant",
        "b=pass/random",
        "--sessions",
        "20",
        "--seed",
        "1",
        "--quiet",
    ];
    let cases = [
        runtime(
            &with(&table, &["--out", "t.csv", "--plot", "dir"]),
            "cannot write dir: it is a directory",
        ),
        runtime(
            &with(
                &tour,
                &["--out", "t.csv", "--pairs", "p.csv", "--markdown", "dir"],
            ),
            "cannot write dir: it is a directory",
        ),
        runtime(
            &["simulate", "--deals", "1000", "--out", "file/x.csv"],
            "file is not a directory",
        ),
        input(
            &with(&tour, &["--out", "t.csv", "--markdown", "t.csv"]),
            "t.csv is named for two outputs",
        ),
        input(
            &with(&tour, &["--out", "t.csv", "--pairs", "./t.csv"]),
            "is named for two outputs",
        ),
        input(
            &with(&tour, &["--out", "new/t.csv", "--pairs", "./new/t.csv"]),
            "is named for two outputs",
        ),
        input(
            &with(&tour, &["--out", "t.csv", "--markdown", "t.csv.meta.json"]),
            "is named for two outputs",
        ),
        input(
            &with(
                &tour,
                &[
                    "--out",
                    "t.csv",
                    "--markdown",
                    "dir/../t.md",
                    "--pairs",
                    "t.md",
                ],
            ),
            "is named for two outputs",
        ),
        // A full disk at the last file: the others, already written to temporary files, are
        // removed rather than renamed into place.
        runtime(
            &with(
                &table,
                &[
                    "--out",
                    "t.csv",
                    "--markdown",
                    "t.md",
                    "--plot",
                    "/dev/full",
                ],
            ),
            "No space left on device",
        ),
        // The folders created for the files staged before are removed again.
        runtime(
            &with(
                &table,
                &[
                    "--out",
                    "new/deeper/t.csv",
                    "--markdown",
                    "new/t.md",
                    "--plot",
                    "/dev/full",
                ],
            ),
            "No space left on device",
        ),
        runtime(
            &[
                "simulate",
                "--deals",
                "1000",
                "--seed",
                "1",
                "--out",
                "/dev/full",
            ],
            "cannot write /dev/full",
        ),
    ];
    check(&cases);
}

/// A strategy file at `path`: heather-1875 at `players`, eldest calling `call` from two small
/// trumps, and `more` cells (seat, calls before, call) of the same class.
fn strategy_file(path: &Path, profile: &str, players: usize, more: &[(usize, &[&str], &str)]) {
    let cell = |seat: usize, calls: &[&str], call: &str| {
        serde_json::json!({"seat": seat, "calls": calls, "class": "2 trumps x-x", "key": 2,
                           "call": call, "hands": 1})
    };
    let mut cells = vec![cell(0, &[], "three")];
    cells.extend(
        more.iter()
            .map(|&(seat, calls, call)| cell(seat, calls, call)),
    );
    let body = serde_json::json!({
        "format": "napsim-strategy/1", "profile": profile, "players": players, "by": "classes",
        "play": "heuristic", "fallback": "threshold", "cells": cells,
    });
    std::fs::write(path, serde_json::to_vec(&body).unwrap()).unwrap();
}

#[test]
fn strategies_for_other_tables_or_with_illegal_cells_are_refused() {
    let files = tempfile::tempdir().unwrap();
    let path = |name: &str| files.path().join(name).display().to_string();
    strategy_file(Path::new(&path("good.json")), "heather-1875", 4, &[]);
    strategy_file(Path::new(&path("pub.json")), "pub-guide", 4, &[]);
    strategy_file(
        Path::new(&path("illegal.json")),
        "heather-1875",
        4,
        &[(1, &["nap"], "three")],
    );
    strategy_file(
        Path::new(&path("seat.json")),
        "heather-1875",
        3,
        &[(3, &["pass"; 3], "three")],
    );
    let tuned = |name: &str| format!("tuned:file=({})", path(name));
    let simulate = |players: &str, bid: &str| -> Vec<String> {
        [
            "simulate",
            "--players",
            players,
            "--deals",
            "100",
            "--seed",
            "1",
            "--bid",
            bid,
        ]
        .map(String::from)
        .to_vec()
    };
    let optimize: Vec<String> = [
        "optimize",
        "--players",
        "4",
        "--play",
        "heuristic",
        "--deals",
        "100",
        "--seed",
        "1",
        "--out",
        "s.json",
        "--quiet",
    ]
    .map(String::from)
    .to_vec();
    let good = path("good.json");
    check(&[
        input(
            &simulate("3", &tuned("good.json")),
            "table of 4 players, not 3",
        ),
        input(&simulate("3", &tuned("good.json")), &good),
        input(
            &with(
                &["--rules", "pub-guide"],
                &simulate("4", &tuned("good.json")),
            ),
            "the strategy is for profile heather-1875, not pub-guide",
        ),
        input(&simulate("4", &tuned("pub.json")), "profile pub-guide"),
        input(
            &simulate("4", &tuned("illegal.json")),
            "cell seat 1, calls before nap, class '2 trumps x-x': three is illegal there",
        ),
        input(
            &simulate("4", &tuned("illegal.json")),
            &path("illegal.json"),
        ),
        input(
            &simulate("3", &tuned("seat.json")),
            "cell seat 3, calls before pass,pass,pass",
        ),
        input(&simulate("4", &tuned("missing.json")), "cannot read it"),
        input(
            &with(
                &[
                    "tournament",
                    "--players",
                    "3",
                    "--sessions",
                    "10",
                    "--seed",
                    "1",
                ],
                &[
                    "--entrant".to_string(),
                    format!("a=({})/heuristic", tuned("good.json")),
                    "--entrant".to_string(),
                    "b=threshold/heuristic".to_string(),
                ],
            ),
            "--entrant 'a': the strategy is for a table of 4 players, not 3",
        ),
        input(
            &with(&optimize, &["--start", &path("pub.json")]),
            "profile pub-guide",
        ),
        input(
            &with(&optimize, &["--start", &path("illegal.json")]),
            "cell seat 1",
        ),
        input(
            &with(&set(&optimize, "--players", "3"), &["--start", &good]),
            "is for 4 players by classes classes, this run is for 3",
        ),
        input(
            &with(&optimize, &["--start", &good, "--history", "highest"]),
            "by classes classes and calls history, this run is for 4 players by classes classes \
             and highest history",
        ),
        usage(&with(&optimize, &["--history", "all"]), "--history"),
        input(&with(&optimize, &["--level", "1.5"]), "--level 1.5"),
        input(&with(&optimize, &["--held-out", "1"]), "--held-out"),
        input(
            &with(&optimize, &["--resume", &good]),
            "not a napsim optimize checkpoint",
        ),
        input(
            &with(&set(&optimize, "--seed", "1"), &["--shard", "0/2"])
                .into_iter()
                .filter(|a| a != "--seed" && a != "1")
                .collect::<Vec<_>>(),
            "--shard needs --seed",
        ),
        usage(&with(&optimize, &["--by", "suits"]), "--by"),
        usage(
            &optimize
                .iter()
                .filter(|a| *a != "--out" && *a != "s.json")
                .collect::<Vec<_>>(),
            "required arguments",
        ),
    ]);
}
