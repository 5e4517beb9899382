//! A finished command's outputs, before they are written: files (each with its bytes), what it
//! prints on stdout and what it says on stderr.

use std::path::{Path, PathBuf};

use super::Meta;
use crate::files;

/// What a command produced: written by [`Rendered::write_files`] as one set (every file or
/// none), then its stdout and stderr text printed by the caller.
#[derive(Debug, Default)]
pub struct Rendered {
    files: Vec<(PathBuf, Vec<u8>)>,
    /// Lines for stderr once the files are written (notes, a run's summary).
    pub stderr: String,
    /// The bytes for stdout.
    pub stdout: Vec<u8>,
}

impl Rendered {
    /// Adds `bytes` for `path`.
    pub fn add(&mut self, path: &Path, bytes: Vec<u8>) {
        self.files.push((path.to_path_buf(), bytes));
    }

    /// Adds `bytes` for `path` and the run's manifest beside it (`FILE.meta.json`), except
    /// beside a device or pipe.
    pub fn add_with_meta(&mut self, path: &Path, bytes: Vec<u8>, meta: &Meta) {
        self.add(path, bytes);
        if files::is_special_file(path) {
            self.stderr += &format!(
                "note: {} is not a regular file; no manifest written beside it\n",
                path.display()
            );
        } else {
            self.add(&files::meta_path(path), meta.to_json().into_bytes());
        }
    }

    /// The files, in the order added.
    pub fn files(&self) -> impl Iterator<Item = (&Path, &[u8])> {
        self.files.iter().map(|(p, b)| (p.as_path(), b.as_slice()))
    }

    /// Writes every file (to temporary names, then renamed once all are written; an exit asked
    /// of `gate` meanwhile waits for them); the error names the file that failed.
    pub fn write_files(&self, gate: &files::WriteGate) -> Result<(), (PathBuf, std::io::Error)> {
        let files: Vec<(&Path, &[u8])> = self.files().collect();
        files::write_all_atomic(&files, gate)
    }
}
