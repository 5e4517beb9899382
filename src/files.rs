//! Files: atomic writes (a temporary file beside the target, renamed once written, so an
//! interrupted run never leaves a truncated table), the checks made before a run that will write
//! (a directory in the way, a file named twice), and digests of files.
//!
//! **Architecture invariant:** a file is never written in place. Missing folders above an output
//! are created when it is written, not before.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether `path` names something other than a regular file or a link to one (a device such
/// as `/dev/stdout`, a pipe): such outputs are written directly and get no manifest beside them.
pub fn is_special_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, flushed, then renamed. A
/// symbolic link is followed (its target is replaced, not the link); a device or pipe is
/// written directly.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_all_atomic(&[(path, bytes)]).map_err(|(_, e)| e)
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

/// Writes several files as one: every regular file is first written in full to a temporary
/// file beside it, and only when all of them are written are they renamed into place, so a
/// failure (a full disk, a directory in the way) leaves none of them. Missing folders above a
/// file are created, and removed again on a failure. Devices and pipes are written directly,
/// before the renames. The error names the file that failed.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<(), (PathBuf, std::io::Error)> {
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
    for (i, (tmp, target)) in staged.iter().enumerate() {
        if let Err(e) = std::fs::rename(tmp, target) {
            // Folders that now hold a renamed file are not empty, and stay.
            discard(&staged[i..], &created);
            return Err((target.clone(), e));
        }
    }
    Ok(())
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

/// An output that cannot be written, found before the run.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {problem}", path.display())]
pub struct Unwritable {
    /// The output.
    pub path: PathBuf,
    /// Why not.
    pub problem: String,
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
