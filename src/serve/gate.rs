//! How many evaluations run at once: a request takes a place, waits in a bounded queue for one,
//! or is told the server is busy.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::api::ApiError;

/// The places for evaluations and the queue before them.
pub(super) struct Gate {
    places: Arc<Semaphore>,
    running: usize,
    waiting: Arc<AtomicUsize>,
    max_waiting: usize,
}

/// A place taken: the evaluation may run until it is dropped.
pub(super) struct Place {
    _permit: OwnedSemaphorePermit,
}

/// Counts a request in the queue while it waits (dropped with the request if its client goes
/// away while it waits).
struct InQueue(Arc<AtomicUsize>);

impl Drop for InQueue {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Gate {
    /// `running` places, and a queue of `max_waiting`.
    pub(super) fn new(running: usize, max_waiting: usize) -> Gate {
        Gate {
            places: Arc::new(Semaphore::new(running.max(1))),
            running: running.max(1),
            waiting: Arc::new(AtomicUsize::new(0)),
            max_waiting,
        }
    }

    /// A place, at once or once one is free; `503 busy` when the queue is full.
    pub(super) async fn enter(&self) -> Result<Place, ApiError> {
        if let Ok(permit) = Arc::clone(&self.places).try_acquire_owned() {
            return Ok(Place { _permit: permit });
        }
        let queued = self.waiting.fetch_add(1, Ordering::SeqCst);
        let in_queue = InQueue(Arc::clone(&self.waiting));
        if queued >= self.max_waiting {
            return Err(ApiError::busy(format!(
                "busy: {} evaluations are running and {} waiting; try again shortly",
                self.running, self.max_waiting
            )));
        }
        let permit = Arc::clone(&self.places)
            .acquire_owned()
            .await
            .map_err(|_| ApiError::busy("the server is stopping"))?;
        drop(in_queue);
        Ok(Place { _permit: permit })
    }
}
