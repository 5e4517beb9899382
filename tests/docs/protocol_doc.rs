//! docs/protocol.md's worked exchanges are what napsim sends: each ```text block of `>` and `<`
//! lines is checked against a run of the `napsim ...` command quoted last before it, with the
//! bot replaced by a recording copy of itself (tests/bots/record.py plays as lowest_bot.py and
//! writes every line both ways).

use crate::common;
use common::napsim;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `text` split at spaces, a double-quoted part kept whole (without its quotes).
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').expect("a closing quote");
            words.push(quoted[..end].to_string());
            rest = quoted[end + 1..].trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            words.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    words
}

/// The exchanges of the doc: (the command quoted before the block, the block's lines).
fn exchanges(doc: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let mut command = None;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("```text") {
            let block: Vec<String> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .map(str::to_string)
                .collect();
            if block.first().is_some_and(|l| l.starts_with("> ")) {
                let quoted: &String = command.as_ref().expect("a command before the exchange");
                found.push((quoted.clone(), block));
            }
            continue;
        }
        for span in line.split('`').skip(1).step_by(2) {
            if let Some(args) = span.strip_prefix("napsim ") {
                command = Some(args.to_string());
            }
        }
    }
    found
}

#[test]
fn the_worked_exchanges_are_what_napsim_sends() {
    let doc = std::fs::read_to_string(format!("{ROOT}/docs/protocol.md")).unwrap();
    let found = exchanges(&doc);
    assert_eq!(found.len(), 2, "the doc's two exchanges");
    for (command, block) in found {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("exchange.txt");
        let recorder = format!(
            "python3 {ROOT}/tests/bots/record.py {}",
            record.to_str().unwrap()
        );
        let args: Vec<String> = shell_words(&command)
            .into_iter()
            .map(|a| a.replace("python3 bots/lowest_bot.py", &recorder))
            .collect();
        assert!(args.iter().any(|a| a.contains("record.py")), "{command}");
        let out = napsim().args(&args).output().unwrap();
        assert!(out.status.success(), "{command}: {out:?}");
        let recorded = std::fs::read_to_string(&record).unwrap();
        let recorded: Vec<&str> = recorded.lines().collect();
        assert!(recorded.len() >= block.len(), "{command}: {recorded:?}");
        for (i, line) in block.iter().enumerate() {
            assert_eq!(
                line,
                recorded[i],
                "{command}: line {} of the exchange",
                i + 1
            );
        }
    }
}

#[test]
fn the_recording_bot_plays_as_the_example_it_stands_for() {
    // The same deals, the same results: so the doc's exchanges are lowest_bot.py's.
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("r.txt");
    let run = |bot: String| {
        napsim()
            .args([
                "simulate",
                "--deals",
                "300",
                "--seed",
                "5",
                "--quiet",
                "--threads",
                "1",
            ])
            .args(["--bid", "threshold", "--play", &bot])
            .output()
            .unwrap()
            .stdout
    };
    let lowest = run(format!("ext:cmd=(python3 {ROOT}/bots/lowest_bot.py)"));
    let recording = run(format!(
        "ext:cmd=(python3 {ROOT}/tests/bots/record.py {})",
        record.to_str().unwrap()
    ));
    let strip = |text: Vec<u8>| {
        String::from_utf8(text)
            .unwrap()
            .lines()
            .filter(|l| !l.contains("deals/s") && !l.contains("ext:cmd"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(lowest), strip(recording));
}
