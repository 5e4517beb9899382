//! Process-wide state: the library keeps none beyond the few process-level jobs listed here,
//! each with its reason. A new mutable `static` or `thread_local!` anywhere in `src/` fails
//! this test until it is listed (and ARCHITECTURE.md says why).

use std::path::Path;

/// (file, name, why): the mutable statics and thread-locals allowed.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "solver/mod.rs",
        "THREAD_SOLVER",
        "the per-thread solver and its table: speed, never a result",
    ),
    (
        "bots/pimc/mod.rs",
        "STORAGE",
        "PIMC's per-thread buffers for a decision's worlds, overwritten by each decision: \
         no allocation per decision, never a result",
    ),
];

/// Types that make a static mutable.
const MUTABLE: &[&str] = &[
    "Mutex", "Atomic", "OnceLock", "Once", "Cell", "RwLock", "Lazy",
];

/// Every mutable static and thread-local in `src/`: (file relative to `src/`, name).
fn mutable_statics() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    crate::common::rust_files(&src, &mut files);
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.strip_prefix(&src).unwrap().display().to_string();
        let mut in_thread_local = false;
        for line in text.lines() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if code.starts_with("thread_local!") {
                in_thread_local = true;
                continue;
            }
            // `static`, after any visibility (`pub`, `pub(crate)`, `pub(super)`...).
            let unqualified = match code.strip_prefix("pub") {
                Some(after) if after.starts_with('(') => {
                    after.split_once(") ").map_or(code, |(_, rest)| rest)
                }
                Some(after) => after.trim_start(),
                None => code,
            };
            let Some(rest) = unqualified.strip_prefix("static ") else {
                if in_thread_local && code.starts_with('}') {
                    in_thread_local = false;
                }
                continue;
            };
            let name = rest.split([':', ' ']).next().unwrap().to_string();
            if in_thread_local || MUTABLE.iter().any(|t| rest.contains(t)) {
                found.push((file.clone(), name));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_mutable_static_or_thread_local_beyond_the_listed_process_level_jobs() {
    let found = mutable_statics();
    for (file, name) in &found {
        assert!(
            ALLOWED.iter().any(|(f, n, _)| f == file && n == name),
            "src/{file}: `{name}` is process-wide mutable state not listed in tests/engine/statics.rs"
        );
    }
    // The scan sees what it should: the listed ones are there (a scan that finds nothing
    // would pass anything).
    for (file, name, _) in ALLOWED {
        assert!(
            found.iter().any(|(f, n)| f == file && n == name),
            "src/{file}: `{name}` is listed but gone: take it off the list"
        );
    }
    // The external bots belong to their pool: nothing of theirs is process-wide.
    assert!(
        found.iter().all(|(f, _)| !f.starts_with("bots/ext/")),
        "{found:?}"
    );
}
