//! Runs that may stop early: blocks started in order, merged in order, and a stopping rule
//! checked on the tally of the first blocks at fixed block counts.
//!
//! The tally after the first k blocks is the tally of a run of those k blocks alone (each block
//! has its own streams), and the rule sees it only at the checks, in order, so where a run stops
//! depends on the seed alone: not on the thread count, nor on which block finished first.
//! Blocks finished beyond the stop are dropped.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::{Block, BlockSet, Controls, Plan, PoolError, Progress, RunError, RunState, Tally};
use crate::rng::StreamCursor;

/// When an adaptive run may stop.
pub struct Checks<'a, T> {
    /// Blocks between two checks; the run's last block is a check too.
    pub every: u64,
    /// Whether the run may stop with this tally of its first blocks. It may also change the
    /// tally (what it records there is the same whether or not the run was resumed at that
    /// check): `napsim hand` marks there the bids it stops playing.
    pub stop: &'a (dyn Fn(&mut T) -> bool + Sync),
}

/// How an adaptive run ended: its state (always the first blocks of the run), and whether the
/// rule stopped it. Neither stopped nor holding every block: it was interrupted.
pub struct Adaptive<T> {
    /// The first blocks and their merged tally.
    pub state: RunState<T>,
    /// The rule held at the last of them.
    pub stopped: bool,
}

/// Whether `done` is the first blocks of a run (`0..k`, or none): the only state an adaptive
/// run is in, and so the only one it resumes from.
pub fn is_prefix(done: &BlockSet) -> bool {
    done.is_empty() || done.is_exactly(&(0..done.len()))
}

/// What the workers share, under one lock.
struct Shared<T, O, E, A> {
    state: RunState<T>,
    /// The first block not yet merged.
    frontier: u64,
    /// Blocks finished beyond the frontier, waiting for the ones before them.
    waiting: BTreeMap<u64, T>,
    observe: O,
    failure: Option<E>,
    /// The first block that aborted the run, and why.
    aborted: Option<(u64, A)>,
    stopped: bool,
}

/// Runs `plan`'s blocks from the first not in `state` (which must hold blocks `0..k` and no
/// other), starting them in order on `controls.threads` threads and merging them in order. After
/// each merge `observe` sees the state (this is where checkpoints are saved); at every
/// `checks.every`-th block and at the last one the rule is asked, and the run ends when it
/// holds. A set stop flag, or an error from `observe`, ends the run after the running blocks,
/// keeping the first blocks finished.
pub fn run_adaptive<T, F, O, E, A>(
    plan: Plan,
    controls: &Controls,
    state: RunState<T>,
    progress: &dyn Progress,
    work: F,
    checks: Checks<T>,
    observe: O,
) -> Result<Adaptive<T>, RunError<E, T, A>>
where
    T: Tally + Default,
    F: Fn(Block) -> Result<T, A> + Sync,
    A: Send,
    O: FnMut(&RunState<T>) -> Result<(), E> + Send,
    E: Send,
{
    let end = controls.blocks.end;
    let frontier = state.done.len();
    assert!(
        controls.blocks.start == 0 && is_prefix(&state.done),
        "an adaptive run covers the whole run and resumes from its first blocks"
    );
    let is_check = |k: u64| k > 0 && (k.is_multiple_of(checks.every) || k == end);
    // A resumed run that had stopped stops again, with nothing to run.
    let mut state = state;
    let stopped = is_check(frontier) && (checks.stop)(&mut state.tally);
    let next = AtomicU64::new(frontier);
    // Set when the run ends early: no block starts, and the blocks under way may give up.
    let halt = Arc::new(AtomicBool::new(stopped));
    let shared = Mutex::new(Shared {
        state,
        frontier,
        waiting: BTreeMap::new(),
        observe,
        failure: None,
        aborted: None,
        stopped,
    });
    let worker = || {
        let mut cursor = StreamCursor::new(plan.seed);
        loop {
            if halt.load(Ordering::Relaxed) || controls.stop.load(Ordering::Relaxed) {
                return;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= end {
                return;
            }
            let (deal_rng, policy_rng) = cursor.streams(index);
            let tally = work(Block {
                index,
                len: plan.block_len(index),
                deal_rng,
                policy_rng,
                abandoned: Some(Arc::clone(&halt)),
            });
            // A panic in another worker poisons the lock; the scope re-raises that panic.
            let Ok(mut guard) = shared.lock() else {
                return;
            };
            let tally = match tally {
                Ok(tally) => tally,
                Err(abort) => {
                    halt.store(true, Ordering::Relaxed);
                    // Of the blocks that aborted, the lowest is reported.
                    if guard.aborted.as_ref().is_none_or(|(k, _)| index < *k) {
                        guard.aborted = Some((index, abort));
                    }
                    return;
                }
            };
            if guard.stopped || guard.failure.is_some() {
                return;
            }
            guard.waiting.insert(index, tally);
            if merge_ready(&mut guard, &plan, progress, &is_check, &checks) {
                halt.store(true, Ordering::Relaxed);
            }
        }
    };
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..controls.threads.max(1) {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, worker);
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    return Err(PoolError {
                        threads: controls.threads,
                        message: e.to_string(),
                    });
                }
            }
        }
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Ok(())
    })?;
    let shared = shared
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    progress.finish();
    if let Some((block, abort)) = shared.aborted {
        return Err(RunError::Aborted {
            block,
            abort,
            state: Box::new(shared.state),
        });
    }
    match shared.failure {
        Some(e) => Err(RunError::Observer(e)),
        None => Ok(Adaptive {
            state: shared.state,
            stopped: shared.stopped,
        }),
    }
}

/// Merges the blocks waiting at the frontier, in order, asking the rule at each check; true
/// when the run must end (the rule held, or the observer failed).
fn merge_ready<T: Tally, O, E, A>(
    shared: &mut Shared<T, O, E, A>,
    plan: &Plan,
    progress: &dyn Progress,
    is_check: &dyn Fn(u64) -> bool,
    checks: &Checks<T>,
) -> bool
where
    O: FnMut(&RunState<T>) -> Result<(), E>,
{
    while let Some(tally) = shared.waiting.remove(&shared.frontier) {
        let index = shared.frontier;
        shared.state.tally.merge(tally);
        shared.state.done.insert(index);
        shared.frontier += 1;
        progress.advance(plan.block_len(index));
        if let Err(e) = (shared.observe)(&shared.state) {
            shared.failure = Some(e);
            return true;
        }
        if is_check(shared.frontier) && (checks.stop)(&mut shared.state.tally) {
            shared.stopped = true;
            shared.waiting.clear();
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Silent, TallyError};

    /// The blocks merged, in order, and the sum of their first draws.
    #[derive(Debug, Default, PartialEq, Eq)]
    struct Seen(Vec<u64>, u64);

    impl Tally for Seen {
        fn merge(&mut self, other: Seen) {
            self.0.extend(other.0);
            self.1 = self.1.wrapping_add(other.1);
        }
        fn units(&self) -> Option<u64> {
            None
        }
        fn check(&self, _: usize) -> Result<(), TallyError> {
            Ok(())
        }
    }

    fn run(threads: usize, state: RunState<Seen>, stop_at: u64) -> Adaptive<Seen> {
        let plan = Plan {
            total: 64 * 10,
            block_size: 64,
            seed: 5,
        };
        let never = AtomicBool::new(false);
        let controls = Controls {
            blocks: 0..plan.blocks(),
            threads,
            stop: &never,
        };
        let stop = move |t: &mut Seen| t.0.len() as u64 >= stop_at;
        let checks = Checks {
            every: 3,
            stop: &stop,
        };
        let work = |mut b: Block| {
            // Later blocks finish first, to shuffle the arrival order.
            std::thread::sleep(std::time::Duration::from_millis(10 - b.index));
            Ok::<_, super::super::Abort>(Seen(
                vec![b.index],
                crate::rng::next_u64(&mut b.policy_rng),
            ))
        };
        run_adaptive(plan, &controls, state, &Silent, work, checks, |_| {
            Ok::<(), ()>(())
        })
        .unwrap()
    }

    #[test]
    fn stops_at_the_first_check_that_holds_whatever_the_threads() {
        for threads in [1, 2, 5] {
            let done = run(threads, RunState::default(), 4);
            assert!(done.stopped);
            assert_eq!(done.state.tally.0, vec![0, 1, 2, 3, 4, 5], "{threads}");
            assert!(done.state.done.is_exactly(&(0..6)));
            let all = run(threads, RunState::default(), 100);
            assert!(!all.stopped);
            assert_eq!(all.state.tally.0, (0..10).collect::<Vec<_>>());
        }
        // The tally of the first six blocks, resumed from three, is the same.
        let first = run(2, RunState::default(), 3);
        assert_eq!(first.state.tally.0.len(), 3);
        let resumed = run(2, first.state, 4);
        assert_eq!(resumed.state, run(1, RunState::default(), 4).state);
    }
}
