//! The README's examples, run as written: every `console` block of README.md is a transcript
//! (`$ napsim ...`, `> ` continuing a command, then what it prints, stdout and stderr together)
//! that trycmd runs in order and compares, `[..]` matching what varies from run to run (times,
//! speeds) and a line `...` any lines. `napsim` is this build's binary.
//!
//! The examples run in a fresh temporary directory (trycmd's sandbox, which it turns on when a
//! `README.out` folder sits beside the case file: so the case is a copy of README.md in a
//! temporary folder with an empty one, and a `README.in` holding the example bots and the
//! answers of the `napsim play` example), so the files
//! they write never land in the checkout and a later example can read what an earlier one
//! wrote. Failures name the copy's path; its line
//! numbers are README.md's.
//!
//! Left out, as `sh` or `text` blocks: command synopses, the shell loops and cluster scripts
//! (they need a shell, Slurm or ssh hosts) and the interrupted run (it needs a Ctrl-C;
//! `tests/commands/interrupt.rs` covers it).

use std::path::PathBuf;

/// The program `name` on the `PATH` (the README compares two files with `cmp`).
fn on_path(name: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("the README's examples need `{name}` on the PATH"))
}

#[test]
fn readme_examples_print_what_they_show() {
    let dir = tempfile::tempdir().unwrap();
    let readme = dir.path().join("README.md");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"), &readme).unwrap();
    std::fs::create_dir(dir.path().join("README.out")).unwrap();
    // The sandbox starts as a copy of `README.in`: the example bots that the README's
    // `ext:cmd=(python3 bots/...)` runs.
    let bots = dir.path().join("README.in").join("bots");
    std::fs::create_dir_all(&bots).unwrap();
    for bot in ["random_bot.py", "lowest_bot.py"] {
        let from = concat!(env!("CARGO_MANIFEST_DIR"), "/bots/").to_string() + bot;
        std::fs::copy(from, bots.join(bot)).unwrap();
    }
    // ... and the answers the `napsim play` example reads.
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/examples/play-answers.txt"),
        dir.path().join("README.in").join("answers.txt"),
    )
    .unwrap();
    trycmd::TestCases::new()
        .register_bin("napsim", trycmd::cargo::cargo_bin("napsim"))
        // trycmd skips, rather than fails, a step whose program it does not know.
        .register_bin("cmp", on_path("cmp"))
        .case(&readme)
        .run();
}

/// The README's claim of how long a close call takes, and `napsim hand --help`'s, are one
/// sentence from one measurement (the README names the command measured).
#[test]
fn the_readme_and_the_hand_help_give_one_time_for_a_close_call() {
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme =
        words(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap());
    let help = words(&crate::common::stdout(&["hand", "--help"]));
    let claim = |text: &str| {
        let start = text
            .find("a close call plays all 4,000 worlds in")
            .expect("the close call's time");
        let end = start + text[start..].find("second").expect("a time in seconds") + "second".len();
        text[start..end].to_string()
    };
    assert_eq!(claim(&readme), claim(&help));
    assert!(readme.contains("napsim hand \"6C KS 8S KD QD\" --seed 1"));
}
