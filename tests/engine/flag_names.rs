//! The library words its messages in its own terms: an input is named in backticks as the
//! library (and a Python caller) names it (`` `resume` ``), never as a command-line flag
//! (`--resume`); the command line turns the one into the other (`cli/flags.rs`). This test reads
//! every string literal of the library and of the Python binding and fails on a flag, except in
//! the functions that write the command line reproducing a run (`reproduce`), which are a
//! command line by definition.

use std::path::Path;

/// The string literals of `source` (plain and raw) with their byte offsets, comments and
/// character literals skipped.
fn literals(source: &str) -> Vec<(usize, &str)> {
    let bytes = source.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &source[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if let Some(raw) = raw_opening(source, i) {
            let (hashes, start) = raw;
            let close = format!("\"{}", "#".repeat(hashes));
            let end = start + source[start..].find(&close).expect("a closed raw string");
            found.push((start, &source[start..end]));
            i = end + close.len();
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            found.push((i + 1, &source[i + 1..j]));
            i = j + 1;
        } else if bytes[i] == b'\'' {
            // A character literal ('"', '\'', 'x'), or a lifetime: step over either.
            let close = source[i + 1..]
                .char_indices()
                .take(4)
                .find(|&(k, c)| c == '\'' && (k > 0 || source[i + 1..].starts_with("\\'")));
            i += match close {
                Some((k, _)) if !source[i + 1..i + 1 + k].contains(char::is_whitespace) => k + 2,
                _ => 1,
            };
        } else {
            i += 1;
        }
    }
    found
}

/// At a raw string's opening (`r"`, `r#"`, `br"`...): its hash count and where its text starts.
fn raw_opening(source: &str, i: usize) -> Option<(usize, usize)> {
    let bytes = source.as_bytes();
    if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
        return None;
    }
    let mut j = i;
    if bytes.get(j) == Some(&b'b') {
        j += 1;
    }
    if bytes.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = source[j..].bytes().take_while(|&b| b == b'#').count();
    (bytes.get(j + hashes) == Some(&b'"')).then_some((hashes, j + hashes + 1))
}

/// The function a byte offset of `source` lies in (the last `fn NAME` before it).
fn function_at(source: &str, at: usize) -> &str {
    let before = &source[..at];
    before.rfind("fn ").map_or("", |k| {
        let name = &before[k + 3..];
        &name[..name
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(0)]
    })
}

/// Each `--flag` in a literal of `source` outside `reproduce`: (line, flag).
fn flags_named(source: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (start, text) in literals(source) {
        for (k, _) in text.match_indices("--") {
            let name: String = text[k + 2..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            let letter = name.starts_with(|c: char| c.is_ascii_lowercase());
            if !letter || function_at(source, start + k) == "reproduce" {
                continue;
            }
            let line = source[..start + k].matches('\n').count() + 1;
            found.push((line, format!("--{name}")));
        }
    }
    found
}

#[test]
fn no_library_message_names_a_command_line_flag() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    crate::common::rust_files(&root.join("src"), &mut files);
    crate::common::rust_files(&root.join("python/src"), &mut files);
    let cli = root.join("src/cli");
    let mut named = Vec::new();
    let mut scanned = 0;
    for path in files {
        if path.starts_with(&cli) || path == root.join("src/main.rs") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        scanned += literals(&source).len();
        for (line, flag) in flags_named(&source) {
            let file = path.strip_prefix(root).unwrap().display();
            named.push(format!("{file}:{line}: {flag}"));
        }
    }
    assert!(
        scanned > 2000,
        "only {scanned} literals read: the scan is broken"
    );
    assert!(
        named.is_empty(),
        "library messages name flags (name the input in backticks instead):\n{}",
        named.join("\n")
    );
}

#[test]
fn the_scan_finds_a_flag_in_every_kind_of_literal_but_not_in_comments_or_reproduce() {
    let source = r####"
        // "--comment" is not code
        fn check() { Err(Error::input("--shard needs an output")) }
        fn raw() { let a = r#"give --out "FILE""#; let c = '"'; let d = "--seed 1"; }
        fn reproduce() -> String { format!("napsim --rules {} simulate") }
        fn after<'a>(x: &'a str) { let b = "a \" --trump"; let t = "|---|"; }
    "####;
    let found: Vec<String> = flags_named(source).into_iter().map(|(_, f)| f).collect();
    assert_eq!(found, ["--shard", "--out", "--seed", "--trump"]);
}
