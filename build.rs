//! Records the source revision in `NAPSIM_VERSION` (read by `napsim::napsim_version`), so that
//! parts and checkpoints of two builds of one Cargo version but different sources are told
//! apart.
//!
//! - In a git checkout (a clone or a worktree) whose top level is this package:
//!   `VERSION+src.SOURCES` where SOURCES (40 hex digits) names the contents, at HEAD, of the
//!   files the binary is built from (`src`, `configs`, `Cargo.toml`, `Cargo.lock`,
//!   `build.rs`), plus `-dirty.DIGEST` when the checkout differs from HEAD there, DIGEST naming
//!   the difference: two different uncommitted edits are two versions, and the same tree built
//!   twice is one.
//! - Content, not the commit: a commit that adds only results (or docs, scripts, tests) leaves
//!   the version as it was, so the parts of a sharded run that spans such commits still merge.
//! - Anywhere else (a crates.io package, a source tarball, no `git` program): `VERSION` alone.

use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What the binary is built from: a change in any of these may change the results.
const SOURCES: [&str; 5] = ["src", "configs", "Cargo.toml", "Cargo.lock", "build.rs"];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let version = std::env::var("CARGO_PKG_VERSION").unwrap();
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
    }
    let full = match revision(&manifest_dir) {
        Some(revision) => format!("{version}+{revision}"),
        None => version,
    };
    println!("cargo:rustc-env=NAPSIM_VERSION={full}");
}

/// `git` in `dir` with `args`: its stdout, trimmed, if it succeeded.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .current_dir(dir)
        // Never take the index lock or rewrite the index: a build only reads.
        .arg("--no-optional-locks")
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim_end().to_string())
}

/// `src.ID` (see `sources_id`), `-dirty.DIGEST` appended if the sources differ from HEAD;
/// `None` outside a git checkout of this package.
fn revision(dir: &Path) -> Option<String> {
    // Only this package's own repository: a package unpacked inside another repository (a
    // vendored copy) must not take that repository's commit.
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(dir).ok()? {
        return None;
    }
    watch_head(dir);
    let sources = sources_id(dir)?;
    let mut args = vec!["status", "--porcelain", "--untracked-files=all", "--"];
    args.extend(SOURCES);
    let changed = git(dir, &args)?;
    if changed.is_empty() {
        return Some(sources);
    }
    // The digest of the difference: the diff of tracked files and the new files' contents.
    let mut diff = vec!["diff", "--no-ext-diff", "HEAD", "--"];
    diff.extend(SOURCES);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    git(dir, &diff)?.hash(&mut hasher);
    for line in changed.lines().filter(|l| l.starts_with("??")) {
        let path = line[3..].trim_matches('"');
        path.hash(&mut hasher);
        std::fs::read(dir.join(path))
            .unwrap_or_default()
            .hash(&mut hasher);
    }
    Some(format!("{sources}-dirty.{:08x}", hasher.finish() >> 32))
}

/// `src.ID`: ID is git's object id of the listing of SOURCES at HEAD (each entry's mode, type,
/// object id and path), so it changes exactly when one of those files does.
fn sources_id(dir: &Path) -> Option<String> {
    let mut args = vec!["ls-tree", "HEAD", "--"];
    args.extend(SOURCES);
    let listing = git(dir, &args)?;
    let mut child = Command::new("git")
        .current_dir(dir)
        .args(["hash-object", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(listing.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let id = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
    (out.status.success() && !id.is_empty()).then(|| format!("src.{id}"))
}

/// Reruns the build when HEAD moves: `HEAD` itself (in a worktree, `.git` is a file naming the
/// worktree's own git directory, which `--git-dir` finds), the branch it points to and the
/// packed refs (in the common directory shared by every worktree).
fn watch_head(dir: &Path) {
    let absolute = |path: String| {
        let path = PathBuf::from(path);
        if path.is_absolute() {
            path
        } else {
            dir.join(path)
        }
    };
    let Some(git_dir) = git(dir, &["rev-parse", "--git-dir"]).map(absolute) else {
        return;
    };
    let common = git(dir, &["rev-parse", "--git-common-dir"])
        .map(absolute)
        .unwrap_or_else(|| git_dir.clone());
    let mut watched = vec![git_dir.join("HEAD"), common.join("packed-refs")];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common.join(branch));
    }
    // A missing file would rerun the build every time.
    for path in watched.into_iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
