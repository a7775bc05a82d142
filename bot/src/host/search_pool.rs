//! A bounded pool of engine searches: one search per core, never on the async workers.
//!
//! A search is CPU work of up to a few seconds, so it runs in [`tokio::task::spawn_blocking`];
//! a semaphore with one permit per core keeps at most that many running, so fifty games
//! against the bot never take more than the machine's cores, and the async runtime (moves
//! between people, deliveries) keeps its threads. Jobs waiting for a permit are served in the
//! order of their key (for the bot's moves: when its turn began, so the longest-waiting game
//! goes first, also after a restart, whose jobs arrive in that order from the database); ties
//! go to the job submitted first.
//!
//! A job is a game (the position with its history, which repetition needs) and a budget; its
//! result is the engine's [`Analysis`]. The pool knows nothing of hosting: the bot's moves,
//! hints, and post-game analysis can all use it. Searchers (each with its 6 MB transposition
//! table) are kept between jobs, one per permit, so memory stays bounded however many jobs
//! wait.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex, PoisonError};

use tafl_rules::Game;
use tafl_rules::engine::{Analysis, Level, Limits, Searcher};
use tokio::sync::{Semaphore, oneshot};

/// What a search may spend and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Play like `level` (its time and depth, its choice rule), with `seed` for the softmax levels.
    Level { level: Level, seed: u64 },
    /// The best move within these limits.
    Limits(Limits),
}

/// One search: a game to search from its current position, and what it may spend.
#[derive(Clone, Debug)]
pub struct Job {
    pub game: Game,
    pub budget: Budget,
}

impl Job {
    /// Runs the search on the calling thread (the pool calls this on a blocking thread).
    #[must_use]
    pub fn run(&self, searcher: &mut Searcher) -> Option<Analysis> {
        match self.budget {
            Budget::Level { level, seed } => searcher.choose(&self.game, level, seed),
            Budget::Limits(limits) => searcher.analyse(&self.game, &limits),
        }
    }
}

/// Why a job has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The search thread panicked or the runtime is shutting down.
    #[error("the search did not complete")]
    Failed,
}

struct Queued {
    key: i64,
    seq: u64,
    job: Job,
    reply: oneshot::Sender<Result<Option<Analysis>, PoolError>>,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        (self.key, self.seq) == (other.key, other.seq)
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.key, self.seq).cmp(&(other.key, other.seq))
    }
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Reverse<Queued>>,
    seq: u64,
}

/// The pool. Cheap to clone: clones share the permits, the queue and the searchers.
#[derive(Clone)]
pub struct SearchPool {
    permits: Arc<Semaphore>,
    queue: Arc<Mutex<Queue>>,
    searchers: Arc<Mutex<Vec<Searcher>>>,
    size: usize,
}

impl std::fmt::Debug for SearchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchPool").field("size", &self.size).field("waiting", &self.waiting()).finish_non_exhaustive()
    }
}

impl SearchPool {
    /// A pool running at most `size` searches at once (at least one).
    #[must_use]
    pub fn new(size: usize) -> SearchPool {
        let size = size.max(1);
        SearchPool { permits: Arc::new(Semaphore::new(size)), queue: Arc::default(), searchers: Arc::default(), size }
    }

    /// One search per core of this machine.
    #[must_use]
    pub fn per_core() -> SearchPool {
        SearchPool::new(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
    }

    /// How many searches may run at once.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Jobs submitted and not yet started.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.lock_queue().heap.len()
    }

    fn lock_queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `job`; lower `key`s start first. The result arrives on the returned receiver.
    /// Dropping the receiver before the job starts cancels it (a game that ended meanwhile
    /// costs no search).
    #[must_use = "dropping the receiver cancels the job"]
    pub fn submit(&self, key: i64, job: Job) -> oneshot::Receiver<Result<Option<Analysis>, PoolError>> {
        let (reply, receiver) = oneshot::channel();
        {
            let mut queue = self.lock_queue();
            queue.seq += 1;
            let seq = queue.seq;
            queue.heap.push(Reverse(Queued { key, seq, job, reply }));
        }
        // Each submission adds one waiter for a permit; whichever waiter gets one runs the job
        // then first in the queue, so the order is the queue's, not the waiters'.
        let pool = self.clone();
        tokio::spawn(async move {
            let Ok(permit) = pool.permits.clone().acquire_owned().await else { return };
            let next = pool.lock_queue().heap.pop();
            let Some(Reverse(queued)) = next else { return };
            if queued.reply.is_closed() {
                return;
            }
            let mut searcher = pool.searchers.lock().unwrap_or_else(PoisonError::into_inner).pop().unwrap_or_default();
            let job = queued.job;
            let done = tokio::task::spawn_blocking(move || {
                let result = job.run(&mut searcher);
                (searcher, result)
            })
            .await;
            drop(permit);
            let result = match done {
                Ok((searcher, result)) => {
                    pool.searchers.lock().unwrap_or_else(PoisonError::into_inner).push(searcher);
                    Ok(result)
                }
                Err(error) => {
                    tracing::error!(%error, "a search failed");
                    Err(PoolError::Failed)
                }
            };
            let _ = queued.reply.send(result);
        });
        receiver
    }

    /// Runs `job` and waits for its result.
    pub async fn search(&self, key: i64, job: Job) -> Result<Option<Analysis>, PoolError> {
        self.submit(key, job).await.unwrap_or(Err(PoolError::Failed))
    }
}

#[cfg(test)]
mod tests {
    use tafl_rules::{Position, Variant};

    use super::*;

    fn brandubh() -> Game {
        Game::new(Position::new(Variant::Brandubh.rules()).expect("brandubh plays"))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_returns_a_legal_move_of_the_position() {
        let pool = SearchPool::new(1);
        let game = brandubh();
        let job = Job { game: game.clone(), budget: Budget::Limits(Limits::depth(2)) };
        let analysis = pool.search(0, job).await.expect("the search completes").expect("the game goes on");
        assert!(game.position().legal_moves().contains(&analysis.best));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn waiting_jobs_start_in_the_order_of_their_keys_and_never_more_than_the_permits() {
        let pool = SearchPool::new(1);
        // The only permit is held while jobs queue up in reverse key order.
        let held = pool.permits.clone().acquire_owned().await.expect("a permit");
        let mut receivers = Vec::new();
        for key in (1..=5).rev() {
            receivers.push(pool.submit(key, Job { game: brandubh(), budget: Budget::Limits(Limits::depth(1)) }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert_eq!(pool.waiting(), 5, "nothing starts without a permit");
        let keys: Vec<i64> = pool.lock_queue().heap.iter().map(|Reverse(q)| q.key).collect();
        let first = pool.lock_queue().heap.peek().map(|Reverse(q)| q.key);
        assert_eq!(first, Some(1), "the lowest key is next, whatever the order of submission: {keys:?}");
        drop(held);
        for receiver in receivers {
            receiver.await.expect("answered").expect("searched").expect("a move");
        }
        assert_eq!(pool.waiting(), 0);
        assert_eq!(pool.searchers.lock().expect("not poisoned").len(), 1, "one searcher per permit, reused");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancelled_job_is_not_searched() {
        let pool = SearchPool::new(1);
        let first = pool.submit(0, Job { game: brandubh(), budget: Budget::Limits(Limits::depth(3)) });
        drop(pool.submit(1, Job { game: brandubh(), budget: Budget::Limits(Limits::depth(1)) }));
        first.await.expect("answered").expect("searched");
        // Give the waiter of the cancelled job its permit.
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert_eq!(pool.waiting(), 0);
    }
}
