//! Long runs, as a library: one trait every long command implements ([`LongCommand`]), the
//! run's identity and partial files (shards and checkpoints, [`partial`]), the user's controls
//! ([`Controls`]: shard, checkpoint, resume, the stop flag), [`Execution`], which runs a
//! command's blocks under them, and [`merge_parts`], which adds a run's shards back together.
//!
//! **Architecture invariant:** nothing here prints or reads a clock for a result: progress and
//! notes go to the caller's [`crate::sim::Progress`], the stop is the caller's flag, and time is
//! measured only for the manifest and the checkpoint interval.

mod execute;
mod long;
mod merge;
pub mod partial;

pub use execute::{Controls, Done, Execution};
pub use long::LongCommand;
pub use merge::{Merged, decode_job, merge_parts, read_parts};
