//! The deterministic parallel driver.
//!
//! A run of `total` units (deals, sessions...) is cut into blocks of a fixed size that does not
//! depend on the thread count. Block `k` gets its own RNG streams derived from the seed and `k`
//! only ([`crate::rng::block_streams`]) and produces an integer tally; tallies merge by integer
//! addition, whose total does not depend on the order, so they are reduced as blocks finish
//! (memory stays flat in the number of blocks). So one thread, many threads, or many
//! machines (shards) give the same tallies and therefore byte-identical output.
//!
//! [`run_controlled`] runs a subset of the blocks (a [`Shard`]), can stop at a block boundary
//! and resume from the blocks it finished ([`RunState`]): what checkpoints and shards build on.
//! [`run_adaptive`] runs the blocks in order and stops at the first of fixed block counts at
//! which a rule holds on the tally so far: the same count whatever the thread count.

mod abort;
mod adaptive;
mod blocks;

pub use abort::Abort;
pub use adaptive::{Adaptive, Checks, is_prefix, run_adaptive};
pub use blocks::{BlockRangeError, BlockSet, Shard, ShardError};

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use thiserror::Error;

use crate::rng::{SimRng, StreamCursor};

/// Where a run reports its progress and its notes (a bar on a terminal, a log, nothing): the
/// driver itself writes nothing.
pub trait Progress: Sync {
    /// The run has `total` units, `done` of them already finished (a resumed run), each called
    /// `unit` ("deals").
    fn start(&self, _total: u64, _done: u64, _unit: &str) {}
    /// `n` more units are finished.
    fn advance(&self, _n: u64) {}
    /// Something the user must hear even from a quiet run (a stop was heard), as one line.
    fn note(&self, _line: &str) {}
    /// What the run did (a shard written), as one line; a quiet run does not say it.
    fn info(&self, _line: &str) {}
    /// The run has ended.
    fn finish(&self) {}
}

/// Reports nothing.
pub struct Silent;

impl Progress for Silent {}

/// A tally that merges by (integer) addition.
pub trait Tally: Send {
    /// Adds `other` into `self`.
    fn merge(&mut self, other: Self);

    /// The units (deals, worlds, card sets) the tally counts, where it knows: partial files
    /// are checked against the blocks they claim.
    fn units(&self) -> Option<u64>;

    /// Checks the counts against each other (made never above declared, ...) and against a
    /// profile with `bids` bids: what a tally read from a file must pass before it is used.
    fn check(&self, bids: usize) -> Result<(), TallyError>;
}

/// Why a tally (read from a file) was refused: its counts disagree with each other or with the
/// profile.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TallyError {
    /// Not one entry per bid of the profile.
    #[error("{counted} bids counted, the profile has {bids}")]
    BidCount {
        /// Entries in the tally.
        counted: usize,
        /// Bids of the profile.
        bids: usize,
    },
    /// Not one paired sum per pair of bids (a hand evaluation's tally).
    #[error("{counted} paired sums counted, {bids} bids need one per pair")]
    Pairs {
        /// Paired sums in the tally.
        counted: usize,
        /// Bids of the profile.
        bids: usize,
    },
    /// Makes above the trials, or trials not each counted once by their tricks.
    #[error("the makes or tricks of {trials} evaluations do not add up")]
    Outcomes {
        /// The evaluations counted.
        trials: u64,
    },
    /// The contracts and the passed-out deals are not the deals played.
    #[error("the contracts and passed-out deals do not add up to the deals")]
    Contracts,
    /// A bid table's class with counts that do not fit the profile.
    #[error("a class's counts do not fit the profile")]
    ClassCounts,
    /// A bid table's class at a seat the table does not have.
    #[error("a class at seat {seat}, at a table of {players}")]
    SeatOutsideTable {
        /// The class's seat.
        seat: usize,
        /// Seats at the table.
        players: usize,
    },
    /// A tournament's entrants with counts that do not fit the profile.
    #[error("the entrants' counts do not fit the profile")]
    EntrantCounts,
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
    /// Set once the block's tally will be dropped (an adaptive run stopped before it): the
    /// work may then return at once, with any tally. `None`: the tally is always kept.
    pub abandoned: Option<Arc<AtomicBool>>,
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
pub fn run<T, F>(
    plan: Plan,
    threads: usize,
    progress: &dyn Progress,
    work: F,
) -> Result<T, PoolError>
where
    T: Tally + Default,
    F: Fn(Block) -> T + Sync,
{
    let never = AtomicBool::new(false);
    let work = |block| Ok::<T, std::convert::Infallible>(work(block));
    let controls = Controls {
        blocks: 0..plan.blocks(),
        threads,
        stop: &never,
    };
    let state = run_controlled(plan, &controls, RunState::default(), progress, work, |_| {
        Ok::<(), std::convert::Infallible>(())
    })
    .map_err(|e| match e {
        RunError::Pool(e) => e,
        RunError::Observer(never) => match never {},
        // The work never aborts: a failing bot inside it (a bid policy's own evaluation)
        // leaves its failure with its pool, for the run that holds this one.
        RunError::Aborted { abort, .. } => match abort {},
    })?;
    Ok(state.tally)
}

/// How a controlled run is carried out.
pub struct Controls<'a> {
    /// The blocks this process runs (all of them, or a shard's).
    pub blocks: Range<u64>,
    /// Worker threads.
    pub threads: usize,
    /// Once set, no further block is started; the blocks already running finish and are kept.
    pub stop: &'a AtomicBool,
}

/// Where a run stands: the blocks finished and the merged tally of exactly those blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunState<T> {
    /// The finished blocks.
    pub done: BlockSet,
    /// Their tallies, merged.
    pub tally: T,
}

/// Why a controlled run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError<E, T = (), A = Abort> {
    /// The worker pool could not start.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The observer returned an error (e.g. a checkpoint could not be written).
    #[error("{0}")]
    Observer(E),
    /// A block's work aborted the run (returned an [`Abort`]): that block is not in the
    /// state, the blocks finished before it are.
    #[error("{abort}")]
    Aborted {
        /// The block that aborted.
        block: u64,
        /// Why.
        abort: A,
        /// The blocks finished, for a checkpoint.
        state: Box<RunState<T>>,
    },
}

/// Why the iteration over the blocks ended early (a stop, or an observer's failure).
struct Stopped;

/// The blocks still to run, as sorted ranges, addressed by their position among them.
struct Pending {
    ranges: Vec<Range<u64>>,
    /// Blocks in the ranges before each range.
    before: Vec<u64>,
}

impl Pending {
    fn new(ranges: Vec<Range<u64>>) -> Pending {
        let before = ranges
            .iter()
            .scan(0, |sum, r| {
                let here = *sum;
                *sum += r.end - r.start;
                Some(here)
            })
            .collect();
        Pending { ranges, before }
    }

    /// How many blocks are left.
    fn len(&self) -> u64 {
        self.ranges.last().map_or(0, |r| {
            self.before[self.ranges.len() - 1] + (r.end - r.start)
        })
    }

    /// The `i`-th block left (`i < len()`).
    fn nth(&self, i: u64) -> u64 {
        let at = self.before.partition_point(|&b| b <= i) - 1;
        self.ranges[at].start + (i - self.before[at])
    }
}

/// Runs the blocks of `controls.blocks` not already done in `state`, merging each block's tally
/// into `state` as it arrives, and calls `observe` with the updated state after every block
/// (under the state's lock, on a worker thread: this is where a caller saves checkpoints). Returns when every block is
/// done, or, once `controls.stop` is set, when the running blocks have finished: the state then
/// holds exactly the finished blocks, so the run can be resumed from it. An error from `observe`
/// stops the run the same way and is returned.
pub fn run_controlled<T, F, O, E, A>(
    plan: Plan,
    controls: &Controls,
    state: RunState<T>,
    progress: &dyn Progress,
    work: F,
    observe: O,
) -> Result<RunState<T>, RunError<E, T, A>>
where
    T: Tally + Default,
    F: Fn(Block) -> Result<T, A> + Sync,
    A: Send,
    O: FnMut(&RunState<T>) -> Result<(), E> + Send,
    E: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(controls.threads)
        .build()
        .map_err(|e| PoolError {
            threads: controls.threads,
            message: e.to_string(),
        })?;
    let halt = AtomicBool::new(false);
    // The blocks still to run, counted from their gaps and never listed: a run may have
    // billions of blocks, and a resumed one may have done most of them.
    let todo = Pending::new(state.done.gaps(&controls.blocks));
    // Every finished block is merged into the one state under a lock, and the observer sees it
    // there: so the state always holds exactly the finished blocks. The lock is held for a
    // merge (and, rarely, a checkpoint), short beside a block's work.
    let shared = Mutex::new((state, observe, None::<E>));
    let aborted = Mutex::new(None::<(u64, A)>);
    // A stop ends the iteration (`Err`), not only each remaining block: rayon then neither
    // splits nor walks the rest of the range, which for a huge run would take hours even when
    // every block is skipped.
    let _ = pool.install(|| {
        (0..todo.len()).into_par_iter().try_for_each_init(
            // Each job of the split range runs its blocks in order, so a cursor per job mostly
            // steps from one block's streams to the next.
            || StreamCursor::new(plan.seed),
            |cursor, i| {
                if halt.load(Ordering::Relaxed) || controls.stop.load(Ordering::Relaxed) {
                    return Err(Stopped);
                }
                let index = todo.nth(i);
                let (deal_rng, policy_rng) = cursor.streams(index);
                let len = plan.block_len(index);
                let tally = work(Block {
                    index,
                    len,
                    deal_rng,
                    policy_rng,
                    abandoned: None,
                });
                let tally = match tally {
                    Ok(tally) => tally,
                    // A block that aborts while a stop is under way (a bot that died of the
                    // same signal, sent to every process) is part of the stop: its block is
                    // dropped, to be run again on resume, and the run saved as stopped.
                    Err(_) if controls.stop.load(Ordering::Relaxed) => return Err(Stopped),
                    Err(abort) => {
                        halt.store(true, Ordering::Relaxed);
                        let mut first = aborted.lock().unwrap_or_else(|e| e.into_inner());
                        // Of the blocks that aborted, the lowest is reported.
                        if first.as_ref().is_none_or(|(k, _)| index < *k) {
                            *first = Some((index, abort));
                        }
                        return Err(Stopped);
                    }
                };
                progress.advance(len);
                // A panic in another worker poisons the lock; the pool re-raises that panic.
                let Ok(mut guard) = shared.lock() else {
                    return Err(Stopped);
                };
                let (state, observe, failure) = &mut *guard;
                // Tallies are integers merged by addition, which does not depend on the order.
                state.tally.merge(tally);
                state.done.insert(index);
                if failure.is_none()
                    && let Err(e) = observe(state)
                {
                    *failure = Some(e);
                    halt.store(true, Ordering::Relaxed);
                }
                Ok(())
            },
        )
    });
    let (state, _, failure) = shared
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    progress.finish();
    if let Some((block, abort)) = aborted.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(RunError::Aborted {
            block,
            abort,
            state: Box::new(state),
        });
    }
    match failure {
        Some(e) => Err(RunError::Observer(e)),
        None => Ok(state),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_blocks_are_the_gaps_in_order() {
        let mut done = BlockSet::new();
        for k in [0, 1, 5, 6, 7, 12, 19] {
            done.insert(k);
        }
        let todo = Pending::new(done.gaps(&(0..20)));
        let listed: Vec<u64> = (0..todo.len()).map(|i| todo.nth(i)).collect();
        let expected: Vec<u64> = (0..20).filter(|&k| !done.contains(k)).collect();
        assert_eq!(listed, expected);
        assert_eq!(Pending::new(Vec::new()).len(), 0);
    }

    /// Runs `total` units in blocks of 16 on `threads` threads, each block's work `work` (given
    /// the stop flag), counting the units done.
    fn count_blocks(
        total: u64,
        threads: usize,
        work: impl Fn(Block, &AtomicBool) -> Result<Count, Abort> + Sync,
    ) -> Result<RunState<Count>, RunError<(), Count>> {
        let plan = Plan {
            total,
            block_size: 16,
            seed: 1,
        };
        let stop = AtomicBool::new(false);
        let controls = Controls {
            blocks: 0..plan.blocks(),
            threads,
            stop: &stop,
        };
        run_controlled(
            plan,
            &controls,
            RunState::<Count>::default(),
            &Silent,
            |block| work(block, &stop),
            |_| Ok::<(), ()>(()),
        )
    }

    #[test]
    fn a_stop_ends_a_huge_run_at_once() {
        // 2^60 blocks: walking them, even to skip each, would never end. Liveness, not speed:
        // the bound is a minute for what takes microseconds.
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let state = count_blocks(u64::MAX, 2, |block, stop| {
                stop.store(true, Ordering::Relaxed);
                Ok(Count(block.len))
            });
            let _ = sender.send(state.map_err(|e| format!("{e:?}")));
        });
        let state = receiver
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the run still going a minute after its stop")
            .unwrap();
        assert!(state.tally.0 > 0 && state.done.len() <= 2, "{state:?}");
    }

    #[test]
    fn a_block_that_aborts_during_a_stop_is_part_of_the_stop() {
        // Block 3's bot dies of the Ctrl-C that also set the stop: the run is stopped, with
        // the blocks before it, not failed.
        let state = count_blocks(100 * 16, 1, |block, stop| {
            if block.index == 3 {
                stop.store(true, Ordering::Relaxed);
                return Err(Abort("the bot was killed by signal 2".into()));
            }
            Ok(Count(block.len))
        })
        .expect("a stopped run, not a failed one");
        assert_eq!(state.tally, Count(3 * 16));
        assert_eq!(state.done.len(), 3);
    }

    #[derive(Debug, Default, PartialEq, Eq)]
    struct Count(u64);

    impl Tally for Count {
        fn merge(&mut self, other: Count) {
            self.0 += other.0;
        }
        fn units(&self) -> Option<u64> {
            Some(self.0)
        }
        fn check(&self, _: usize) -> Result<(), TallyError> {
            Ok(())
        }
    }
}
