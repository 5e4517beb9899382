//! The deterministic parallel driver.
//!
//! A run of `total` units (deals, sessions...) is cut into blocks of a fixed size that does not
//! depend on the thread count. Block `k` gets its own RNG streams derived from the seed and `k`
//! only ([`crate::rng::block_streams`]) and produces an integer tally; tallies merge by integer
//! addition, whose total does not depend on the order, so they are reduced as blocks finish
//! (memory stays flat in the number of blocks). So one thread, many threads, or (later) many
//! machines give the same tallies and therefore byte-identical output.

mod progress;

pub use progress::Progress;

use rayon::prelude::*;

use crate::rng::{SimRng, StreamCursor};

/// A tally that merges by (integer) addition.
pub trait Tally: Send {
    /// Adds `other` into `self`.
    fn merge(&mut self, other: Self);
}

/// How a run is cut into blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Units in the whole run.
    pub total: u64,
    /// Units per block (the last block may be shorter).
    pub block_size: u64,
    /// The run's seed.
    pub seed: u64,
}

impl Plan {
    /// Number of blocks.
    pub fn blocks(&self) -> u64 {
        self.total.div_ceil(self.block_size)
    }

    /// Units in block `k`.
    pub fn block_len(&self, k: u64) -> u64 {
        self.block_size.min(self.total - k * self.block_size)
    }
}

/// The inputs of one block's work.
pub struct Block {
    /// The block's index.
    pub index: u64,
    /// Units to produce.
    pub len: u64,
    /// The stream for cards.
    pub deal_rng: SimRng,
    /// The stream for policies.
    pub policy_rng: SimRng,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {threads} worker threads: {message}")]
pub struct PoolError {
    threads: usize,
    message: String,
}

/// Runs every block of `plan` on `threads` threads and merges the tallies (in whatever order
/// blocks finish: addition of integers gives the same total in any order).
/// `work` must be a pure function of its [`Block`]. `progress` advances by each block's length.
pub fn run<T, F>(plan: Plan, threads: usize, progress: &Progress, work: F) -> Result<T, PoolError>
where
    T: Tally + Default,
    F: Fn(Block) -> T + Sync,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PoolError {
            threads,
            message: e.to_string(),
        })?;
    // Tallies are integers merged by addition, which does not depend on the order: reducing
    // as blocks finish keeps a handful of tallies alive instead of one per block.
    let total = pool.install(|| {
        (0..plan.blocks())
            .into_par_iter()
            // Each job of the split range runs its blocks in order, so a cursor per job mostly
            // steps from one block's streams to the next.
            .map_init(
                || StreamCursor::new(plan.seed),
                |cursor, index| {
                    let (deal_rng, policy_rng) = cursor.streams(index);
                    let len = plan.block_len(index);
                    let tally = work(Block {
                        index,
                        len,
                        deal_rng,
                        policy_rng,
                    });
                    progress.advance(len);
                    tally
                },
            )
            .reduce(T::default, |mut a, b| {
                a.merge(b);
                a
            })
    });
    progress.finish();
    Ok(total)
}
