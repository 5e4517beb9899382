//! Long runs: partial files (shards and checkpoints) and the run identity.

pub mod partial;
