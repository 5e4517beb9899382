//! What the command-line tests share: running the binary and checking how it failed.
// Each test crate uses its own subset.
#![allow(dead_code)]

use assert_cmd::Command;

/// The napsim binary.
pub fn napsim() -> Command {
    Command::cargo_bin("napsim").expect("the napsim binary")
}

/// Runs napsim with `args`, asserts success and returns stdout.
pub fn stdout(args: &[&str]) -> String {
    let out = napsim().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Exit status 2, exactly one `error:` line containing `needle`, no panic, nothing on stdout.
pub fn assert_bad(args: &[&str], needle: &str) {
    let out = napsim().args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    assert!(
        errors[0].contains(needle),
        "{args:?}: '{needle}' not in {stderr}"
    );
    assert!(!stderr.contains("panicked"));
    assert!(out.stdout.is_empty());
}

/// `n`, or a tenth of it in debug builds (the checked test profile), as an argument.
pub fn scaled(n: u64) -> String {
    (if cfg!(debug_assertions) { n / 10 } else { n }).to_string()
}

/// The rows of a CSV text, each as a map from column name to value.
pub fn records(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .map(String::from)
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}
