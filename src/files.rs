//! Files: atomic writes (a temporary file beside the target, renamed once written, so an
//! interrupted run never leaves a truncated table), the checks made before a run that will write
//! (a directory in the way, a file named twice), and digests of files.
//!
//! **Architecture invariant:** a file is never written in place. Missing folders above an output
//! are created when it is written, not before.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Whether `path` names something other than a regular file or a link to one (a device such
/// as `/dev/stdout`, a pipe): such outputs are written directly and get no manifest beside them.
pub fn is_special_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, flushed, then renamed. A
/// symbolic link is followed (its target is replaced, not the link); a device or pipe is
/// written directly.
pub fn write_atomic(path: &Path, bytes: &[u8], gate: &WriteGate) -> std::io::Result<()> {
    write_all_atomic(&[(path, bytes)], gate).map_err(|(_, e)| e)
}

/// The file `path` names, for comparing paths: its directory resolved (`.`, `..`, links) and
/// its name. A directory that does not exist yet is resolved through its nearest existing
/// ancestor, the missing folders below it taken as written; `path` as given when even that fails.
pub fn resolve(path: &Path) -> PathBuf {
    let Some(name) = path.file_name() else {
        return path.to_path_buf();
    };
    let mut dir = parent_dir(path);
    let mut missing = Vec::new();
    loop {
        if let Ok(real) = dir.canonicalize() {
            let mut resolved = real;
            resolved.extend(missing.iter().rev());
            resolved.push(name);
            return resolved;
        }
        match dir.file_name() {
            Some(folder) => {
                missing.push(folder);
                dir = parent_dir(dir);
            }
            None => return path.to_path_buf(),
        }
    }
}

/// The directory holding `path`: its parent, or `.` for a bare name.
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Whether `a` and `b` name the same file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    a == b || resolve(a) == resolve(b)
}

/// The writes of one program, and an exit that waits for them: a signal handler asks for the
/// exit ([`WriteGate::exit_after_writes`]) and the last write under way carries it out, so that
/// neither a finished result nor a temporary file is left half-written. The command line makes
/// one and hands it to everything that writes; a library caller that never asks for an exit
/// can use [`WriteGate::default`]. Cloning shares it.
#[derive(Clone, Default)]
pub struct WriteGate(Arc<GateState>);

#[derive(Default)]
struct GateState {
    /// Writes under way.
    under_way: AtomicUsize,
    /// Set once the exit is asked for.
    exit_asked: AtomicBool,
    /// Set by the one thread that carries the exit out.
    exiting: AtomicBool,
    /// How the exit is carried out ([`WriteGate::set_exit`]).
    exit: OnceLock<Box<dyn Fn() + Send + Sync>>,
}

impl std::fmt::Debug for WriteGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteGate")
            .field("under_way", &self.0.under_way.load(Ordering::SeqCst))
            .field("exit_asked", &self.0.exit_asked.load(Ordering::SeqCst))
            .finish()
    }
}

impl WriteGate {
    /// Sets how the process exits when an exit asked for during a write is carried out, after
    /// the last write under way (the command line ends its bots and exits with its interrupted
    /// status; should `exit` return, the process exits with 130 all the same). The first call
    /// sets it.
    pub fn set_exit(&self, exit: impl Fn() + Send + Sync + 'static) {
        let _ = self.0.exit.set(Box::new(exit));
    }

    /// Whether a write is under way. Safe in a signal handler.
    pub fn writes_under_way(&self) -> bool {
        self.0.under_way.load(Ordering::SeqCst) > 0
    }

    /// Asks for the exit: false when no write is under way (the caller exits now), true when
    /// one is (the last one to finish exits, and no new write starts). Safe in a signal
    /// handler: atomics only. A second ask (a third Ctrl-C) returns false whatever is under way:
    /// a write that blocks (a pipe nobody reads) must not keep napsim alive.
    pub fn exit_after_writes(&self) -> bool {
        if self.0.exit_asked.swap(true, Ordering::SeqCst) {
            return false;
        }
        self.writes_under_way()
    }

    /// The exit asked for during writes, carried out once: a second thread to get here waits
    /// for the first to end the process.
    fn exit(&self) -> ! {
        if self.0.exiting.swap(true, Ordering::SeqCst) {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        }
        if let Some(exit) = self.0.exit.get() {
            exit();
        }
        std::process::exit(130)
    }

    /// One write under way, counted while it lives.
    fn start(&self) -> WriteUnderWay<'_> {
        let state = &self.0;
        state.under_way.fetch_add(1, Ordering::SeqCst);
        if state.exit_asked.load(Ordering::SeqCst) {
            // The exit was asked for while another write was under way: that one exits when
            // it is done (or, if it has just finished, this one does). No new file is started.
            if state.under_way.fetch_sub(1, Ordering::SeqCst) == 1 {
                self.exit();
            }
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        }
        WriteUnderWay(self)
    }
}

/// One write under way ([`WriteGate::start`]).
struct WriteUnderWay<'g>(&'g WriteGate);

impl Drop for WriteUnderWay<'_> {
    fn drop(&mut self) {
        let state = &(self.0).0;
        if state.under_way.fetch_sub(1, Ordering::SeqCst) == 1
            && state.exit_asked.load(Ordering::SeqCst)
        {
            self.0.exit();
        }
    }
}

/// Writes several files as one: every regular file is first written in full to a temporary
/// file beside it, and only when all of them are written are they renamed into place, so a
/// failure (a full disk, a directory in the way) leaves none of them. Missing folders above a
/// file are created, and removed again on a failure. Devices and pipes are written directly,
/// before the renames. The error names the file that failed. An exit asked for meanwhile (a
/// second Ctrl-C) waits, through `gate`, until the files are in place
/// ([`WriteGate::exit_after_writes`]).
pub fn write_all_atomic(
    files: &[(&Path, &[u8])],
    gate: &WriteGate,
) -> Result<(), (PathBuf, std::io::Error)> {
    let _under_way = gate.start();
    for (i, (path, _)) in files.iter().enumerate() {
        if files[..i].iter().any(|(other, _)| same_file(other, path)) {
            let e = std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "it is named for two outputs",
            );
            return Err((path.to_path_buf(), e));
        }
    }
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::with_capacity(files.len());
    // The folders this write created, outermost first.
    let mut created: Vec<PathBuf> = Vec::new();
    let discard = |staged: &[(PathBuf, PathBuf)], created: &[PathBuf]| {
        for (tmp, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
        remove_empty_dirs(created);
    };
    for (i, (path, bytes)) in files.iter().enumerate() {
        if is_special_file(path) {
            continue;
        }
        match stage(path, bytes, i, &mut created) {
            Ok(pair) => staged.push(pair),
            Err(e) => {
                discard(&staged, &created);
                return Err((path.to_path_buf(), e));
            }
        }
    }
    for (path, bytes) in files.iter().filter(|(p, _)| is_special_file(p)) {
        let result = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut file| file.write_all(bytes).and_then(|()| file.flush()));
        if let Err(e) = result {
            discard(&staged, &created);
            return Err((path.to_path_buf(), e));
        }
    }
    // Another napsim writing a set to the same folders waits here until this set is in place
    // (and this one for it): the files of one set are never mixed with another's.
    let _locks = lock_dirs(staged.iter().map(|(_, target)| parent_dir(target)));
    for (i, (tmp, target)) in staged.iter().enumerate() {
        if let Err(e) = std::fs::rename(tmp, target) {
            // Folders that now hold a renamed file are not empty, and stay.
            discard(&staged[i..], &created);
            return Err((target.clone(), e));
        }
    }
    Ok(())
}

/// Exclusive `flock(2)` locks on the folders `dirs`, taken in one order (their resolved paths,
/// sorted) so that two writers cannot deadlock; released when the files are dropped. A folder
/// that cannot be opened or locked is passed over: the lock guards against a rare mix, and
/// must never stop a write.
fn lock_dirs<'a>(dirs: impl Iterator<Item = &'a Path>) -> Vec<std::fs::File> {
    let mut resolved: Vec<PathBuf> = dirs.map(|d| d.canonicalize().unwrap_or(d.into())).collect();
    resolved.sort();
    resolved.dedup();
    resolved
        .iter()
        .filter_map(|dir| std::fs::File::open(dir).ok())
        .filter(lock_exclusive)
        .collect()
}

/// Takes an exclusive `flock(2)` lock on `file` (a folder); false when it cannot.
#[cfg(unix)]
fn lock_exclusive(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor the caller owns.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) == 0 }
}

/// Without `flock(2)` no folder is locked (the lock only guards against a rare mix).
#[cfg(not(unix))]
fn lock_exclusive(_: &std::fs::File) -> bool {
    false
}

/// Creates the folders missing above a file in `dir`, outermost first, adding each one it
/// created to `created`.
fn create_missing_dirs(dir: &Path, created: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let missing: Vec<&Path> = dir
        .ancestors()
        .filter(|d| !d.as_os_str().is_empty())
        .take_while(|d| std::fs::symlink_metadata(d).is_err())
        .collect();
    for dir in missing.into_iter().rev() {
        match std::fs::create_dir(dir) {
            Ok(()) => created.push(dir.to_path_buf()),
            // Made meanwhile by another process, or `x/..` once `x` exists.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Removes the folders of `created` (outermost first) that are empty, innermost first.
fn remove_empty_dirs(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        let _ = std::fs::remove_dir(dir);
    }
}

/// Writes `bytes` to a temporary file beside `path` (the target of a symbolic link), named
/// with the process and `index` so that no two staged files share one, creating missing folders
/// above it (recorded in `created`), and returns (temporary, final) paths.
fn stage(
    path: &Path,
    bytes: &[u8],
    index: usize,
    created: &mut Vec<PathBuf>,
) -> std::io::Result<(PathBuf, PathBuf)> {
    let target = if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        let link = std::fs::read_link(path)?;
        match path.parent() {
            Some(dir) if link.is_relative() => dir.join(link),
            _ => link,
        }
    } else {
        path.to_path_buf()
    };
    if target.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a directory",
        ));
    }
    let dir = parent_dir(&target).to_path_buf();
    create_missing_dirs(&dir, created)?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let tmp = dir.join(format!(".{name}.tmp-{}-{index}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    match result {
        Ok(()) => Ok((tmp, target)),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The path of the manifest written beside `output`: its full path plus `.meta.json`.
pub fn meta_path(output: &Path) -> std::path::PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".meta.json");
    name.into()
}

/// The 64-bit FNV-1a hash: a stable digest to tell two versions of a file or run apart (not a
/// defence against forgery).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// How [`seal`] opens the digest field it adds as an object's last field.
const DIGEST_FIELD: &[u8] = b",\"digest\":\"";

/// Adds a digest of `json`'s content as its last field, `"digest":"<16 hex digits>"`: the
/// 64-bit FNV-1a hash of the object as it was before the field was added. `json` is one compact
/// JSON object with at least one field, optionally ending in a newline (kept). Run files that
/// napsim reads back (partial results, checkpoints) are sealed, so that a damaged or edited
/// one is refused ([`seal_matches`]) rather than read into a wrong result.
pub fn seal(mut json: Vec<u8>) -> Vec<u8> {
    let newline = json.last() == Some(&b'\n');
    if newline {
        json.pop();
    }
    debug_assert!(
        json.ends_with(b"}") && json.len() > 2,
        "a non-empty JSON object"
    );
    let digest = fnv1a64(&json);
    json.pop();
    json.extend_from_slice(DIGEST_FIELD);
    json.extend_from_slice(format!("{digest:016x}\"}}").as_bytes());
    if newline {
        json.push(b'\n');
    }
    json
}

/// Whether the bytes of a [`seal`]ed object hold their digest and it matches their content
/// (false for bytes without one, or with any byte changed since they were sealed).
pub fn seal_matches(bytes: &[u8]) -> bool {
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let bytes = &bytes[..end];
    // `,"digest":"` + 16 hex digits + `"}`.
    let tail = DIGEST_FIELD.len() + 16 + 2;
    if bytes.len() < tail + 1 || !bytes.ends_with(b"\"}") {
        return false;
    }
    let (body, field) = bytes.split_at(bytes.len() - tail);
    let Some(hex) = field
        .strip_prefix(DIGEST_FIELD)
        .and_then(|rest| std::str::from_utf8(&rest[..16]).ok())
    else {
        return false;
    };
    let Ok(digest) = u64::from_str_radix(hex, 16) else {
        return false;
    };
    let mut original = body.to_vec();
    original.push(b'}');
    fnv1a64(&original) == digest
}

/// An output that cannot be written, found before the run.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {problem}", path.display())]
pub struct Unwritable {
    /// The output.
    pub path: PathBuf,
    /// Why not.
    pub problem: String,
}

/// Checks, before a run, that a file can be created beside `path` (in its folder, if that
/// exists yet): a folder where nothing can be written (read-only, or in `/proc`) is found
/// before the work, not after it. Creates and removes one empty temporary file.
pub fn probe_writable(path: &Path) -> Result<(), Unwritable> {
    let dir = parent_dir(path);
    if !dir.is_dir() {
        return Ok(());
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let probe = dir.join(format!(".{name}.probe-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(Unwritable {
            path: path.to_path_buf(),
            problem: e.to_string(),
        }),
    }
}

/// Checks, before a run, that `path` could be written: it is not a directory and does not lie
/// below a file. Missing folders are fine: they are created when the output is written.
pub fn check_writable(path: &Path) -> Result<(), Unwritable> {
    let existing = path
        .ancestors()
        .skip(1)
        .find(|dir| !dir.as_os_str().is_empty() && std::fs::symlink_metadata(dir).is_ok());
    let problem = if path.is_dir() {
        "it is a directory".to_string()
    } else {
        match existing {
            Some(dir) if !dir.is_dir() => format!("{} is not a directory", dir.display()),
            _ => return Ok(()),
        }
    };
    Err(Unwritable {
        path: path.to_path_buf(),
        problem,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_object_matches_until_a_byte_changes() {
        let sealed = seal(b"{\"made\":3,\"units\":12}\n".to_vec());
        let text = String::from_utf8(sealed.clone()).unwrap();
        assert!(
            text.starts_with("{\"made\":3,\"units\":12,\"digest\":\""),
            "{text}"
        );
        assert!(text.ends_with("\"}\n"), "{text}");
        let value: serde_json::Value = serde_json::from_slice(&sealed).unwrap();
        assert_eq!(value["made"], 3);
        assert!(seal_matches(&sealed));
        assert!(!seal_matches(
            text.replace("\"made\":3", "\"made\":4").as_bytes()
        ));
        assert!(!seal_matches(
            text.replace("\"units\":12", "\"units\":13").as_bytes()
        ));
        assert!(!seal_matches(b"{\"made\":3,\"units\":12}\n"));
        assert!(!seal_matches(b""));
        // The digest itself edited.
        let digest_at = text.find("digest\":\"").unwrap() + 9;
        let mut edited = text.clone().into_bytes();
        edited[digest_at] = if edited[digest_at] == b'0' {
            b'1'
        } else {
            b'0'
        };
        assert!(!seal_matches(&edited));
    }
}
