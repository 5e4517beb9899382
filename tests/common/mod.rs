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
    success(napsim(), args)
}

/// Runs napsim in `dir` with `args`, asserts success and returns stdout.
pub fn stdout_in(dir: &std::path::Path, args: &[&str]) -> String {
    let mut command = napsim();
    command.current_dir(dir);
    success(command, args)
}

fn success(mut command: Command, args: &[&str]) -> String {
    let out = command.args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Exit status 2, exactly one `error:` line containing `needle`, no panic, nothing on stdout
/// (napsim's own refusals and clap's usage errors alike).
pub fn assert_bad(args: &[&str], needle: &str) {
    let out = napsim().args(args).output().unwrap();
    if let Some(problem) = refusal_problem(&out, Refusal::Usage, needle) {
        panic!("{args:?}: {problem}");
    }
}

/// How napsim is expected to refuse a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Bad input found by napsim: exit 2 and stderr one line, `error: ...`.
    Input,
    /// A usage error found by clap: exit 2, stderr starting `error: ...` (clap adds a usage
    /// hint on further lines, none of them another `error:`).
    Usage,
    /// A runtime failure such as an unwritable path: exit 1 and stderr one line, `error: ...`.
    Runtime,
}

/// What is wrong with `out` as a refusal of kind `refusal` whose `error:` line names `needle`
/// (also: no panic, nothing on stdout); `None` when it is right.
pub fn refusal_problem(
    out: &std::process::Output,
    refusal: Refusal,
    needle: &str,
) -> Option<String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = if refusal == Refusal::Runtime { 1 } else { 2 };
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    let problem = if stderr.contains("panicked") {
        "it panicked".to_string()
    } else if out.status.code() != Some(code) {
        format!("exit status {:?}, not {code}", out.status.code())
    } else if !out.stdout.is_empty() {
        format!(
            "stdout is not empty: {:?}",
            String::from_utf8_lossy(&out.stdout)
        )
    } else if !stderr.starts_with("error: ") || errors.len() != 1 {
        "stderr is not one `error:` message".to_string()
    } else if refusal != Refusal::Usage && stderr.lines().count() != 1 {
        "stderr is more than the one `error:` line".to_string()
    } else if !errors[0].contains(needle) {
        format!("the error does not name '{needle}'")
    } else {
        return None;
    };
    Some(format!("{problem}; stderr: {stderr}"))
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

/// Whether a process whose command line holds `tag` is still running (the tests tag the bots
/// they start, to check that none is left).
pub fn running(tag: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline"))
            .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(tag))
    })
}

/// Starts `command` with SIGHUP at its default, as a terminal leaves it, even when the tests
/// themselves run under `nohup` (napsim keeps ignoring a SIGHUP that was ignored when it
/// started).
pub fn with_default_hangup(command: &mut std::process::Command) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure only calls signal(2), which is
    // async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_DFL);
            Ok(())
        })
    }
}

/// Every `.rs` file under `dir`, into `out` (for the tests that read the library's source).
pub fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
