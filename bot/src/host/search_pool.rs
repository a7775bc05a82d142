//! A bounded pool of engine searches on threads of their own, at a lower scheduling priority
//! than everything else the bot does.
//!
//! A search is CPU work of up to a few seconds. It runs on one of the pool's own threads, made
//! once, never on the async workers nor on tokio's blocking threads (which draw the boards).
//! The pool leaves a core to the async runtime ([`SearchPool::for_machine`]: one search thread
//! per core but one), and its threads lower their own priority ([`SEARCH_NICE`]): with fifty
//! games against the bot the searches would otherwise hold every core, and a move between two
//! people would wait a quarter of a second for its share of the CPU (issue 14's load figures).
//! At a lower priority the kernel runs the runtime's threads the moment they wake, and the
//! searches take what is left; their budgets are times, so a search on a busy machine answers
//! as promptly and only sees less deep.
//!
//! Jobs waiting for a thread are served by [`Priority`] first (every waiting move someone
//! waits for, the bot's or a hint, before any position of a post-game review, which is
//! background work), then in the order of their key (for the bot's moves: when its turn began,
//! so the longest-waiting game goes first, also after a restart, whose jobs arrive in that order
//! from the database); ties go to the job submitted first. A review searches one position per
//! job, so a bot move submitted while a review runs waits at most for one position's search
//! (tens of milliseconds), never for the whole review.
//!
//! A job is a game (the position with its history, which repetition needs) and a budget; its
//! result is the engine's [`Analysis`]. Other work that needs a searcher (a review's position,
//! with its own searcher carried from position to position) is submitted as a closure with
//! [`SearchPool::submit_work`]. The pool knows nothing of hosting. Each thread keeps its
//! searcher (and its 6 MB transposition table) between jobs, so memory stays bounded however
//! many jobs wait.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use tafl_rules::Game;
use tafl_rules::engine::{Analysis, Level, Limits, Searcher};
use tokio::sync::oneshot;

/// How much lower than the rest of the process the search threads run, in nice steps. At +10
/// the kernel's weight of a search thread is a tenth of a normal thread's (110 against 1024),
/// so a woken async worker preempts a search at once and gets nine tenths of a shared core.
pub const SEARCH_NICE: i32 = 10;

/// Which waiting jobs start first: every [`Priority::Move`] before any [`Priority::Review`],
/// whatever their keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// A move someone waits for: the bot's moves (its person waits) and hints.
    Move,
    /// The positions of post-game reviews: nobody waits for them, they fill idle time.
    Review,
}

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
    /// Runs the search on the calling thread (the pool calls this on one of its search threads).
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

/// Work waiting for a search thread, whatever its result type.
trait Task: Send {
    /// Whoever submitted it no longer waits for the result.
    fn cancelled(&self) -> bool;
    /// Runs it with the thread's searcher and sends the result; `false` when it panicked (the
    /// searcher's tables may then be half written).
    fn run(self: Box<Self>, searcher: &mut Searcher) -> bool;
}

struct Work<T, F> {
    work: F,
    reply: oneshot::Sender<Result<T, PoolError>>,
}

impl<T: Send, F: FnOnce(&mut Searcher) -> T + Send> Task for Work<T, F> {
    fn cancelled(&self) -> bool {
        self.reply.is_closed()
    }

    fn run(self: Box<Self>, searcher: &mut Searcher) -> bool {
        let Work { work, reply } = *self;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(searcher))).map_err(|_| {
            tracing::error!("a search panicked");
            PoolError::Failed
        });
        let completed = result.is_ok();
        let _ = reply.send(result);
        completed
    }
}

struct Queued {
    priority: Priority,
    key: i64,
    seq: u64,
    task: Box<dyn Task>,
}

impl Queued {
    fn order(&self) -> (Priority, i64, u64) {
        (self.priority, self.key, self.seq)
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.order() == other.order()
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
        self.order().cmp(&other.order())
    }
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Reverse<Queued>>,
    seq: u64,
    /// Set when the last handle of the pool is dropped: the threads finish their job and end.
    closed: bool,
    /// Threads take no job while set (tests hold the pool still to look at its queue).
    #[cfg(test)]
    paused: bool,
}

/// What the pool's threads and its handles share.
#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a job is queued or the pool closes.
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Closes the pool when the last [`SearchPool`] handle goes (the threads hold only [`Shared`]).
struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.ready.notify_all();
    }
}

/// The pool. Cheap to clone: clones share the threads and the queue.
#[derive(Clone)]
pub struct SearchPool {
    shared: Arc<Shared>,
    _owner: Arc<Owner>,
    size: usize,
}

impl std::fmt::Debug for SearchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchPool").field("size", &self.size).field("waiting", &self.waiting()).finish_non_exhaustive()
    }
}

impl SearchPool {
    /// A pool of `size` search threads (at least one), made now; it returns once every thread
    /// has lowered its priority, so no search ever runs at the normal one.
    ///
    /// # Panics
    /// If the system cannot start a thread.
    #[must_use]
    pub fn new(size: usize) -> SearchPool {
        let size = size.max(1);
        let shared = Arc::new(Shared::default());
        let (started, on_started) = std::sync::mpsc::channel();
        for n in 0..size {
            let shared = shared.clone();
            let started = started.clone();
            std::thread::Builder::new()
                .name(format!("tafl-search-{n}"))
                .spawn(move || {
                    lower_priority();
                    let _ = started.send(());
                    work(&shared);
                })
                .expect("the system starts a search thread");
        }
        for _ in 0..size {
            let _ = on_started.recv();
        }
        SearchPool { _owner: Arc::new(Owner(shared.clone())), shared, size }
    }

    /// The pool for this machine: a search thread per core but one, which is left to the async
    /// runtime (receiving interactions, writing moves, drawing boards); one on a single core.
    #[must_use]
    pub fn for_machine() -> SearchPool {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        SearchPool::new(cores.saturating_sub(1))
    }

    /// How many searches may run at once.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Jobs submitted, not yet started, and still waited for (a cancelled job stays queued
    /// until a thread comes to it and skips it).
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.shared.lock().heap.iter().filter(|queued| !queued.0.task.cancelled()).count()
    }

    /// Queues `job` at [`Priority::Move`]; lower `key`s start first. The result arrives on the
    /// returned receiver. Dropping the receiver before the job starts cancels it (a game that
    /// ended meanwhile costs no search).
    #[must_use = "dropping the receiver cancels the job"]
    pub fn submit(&self, key: i64, job: Job) -> oneshot::Receiver<Result<Option<Analysis>, PoolError>> {
        self.submit_work(Priority::Move, key, move |searcher| job.run(searcher))
    }

    /// Runs `job` at [`Priority::Move`] and waits for its result.
    pub async fn search(&self, key: i64, job: Job) -> Result<Option<Analysis>, PoolError> {
        self.submit(key, job).await.unwrap_or(Err(PoolError::Failed))
    }

    /// Queues `work`, which gets the search thread's searcher (it may use its own instead), at
    /// `priority` and `key` (see the module docs for the order). A panic in it is
    /// [`PoolError::Failed`]; dropping the receiver before it starts cancels it.
    #[must_use = "dropping the receiver cancels the work"]
    pub fn submit_work<T: Send + 'static>(
        &self,
        priority: Priority,
        key: i64,
        work: impl FnOnce(&mut Searcher) -> T + Send + 'static,
    ) -> oneshot::Receiver<Result<T, PoolError>> {
        let (reply, receiver) = oneshot::channel();
        {
            let mut queue = self.shared.lock();
            queue.seq += 1;
            let seq = queue.seq;
            queue.heap.push(Reverse(Queued { priority, key, seq, task: Box::new(Work { work, reply }) }));
        }
        self.shared.ready.notify_one();
        receiver
    }

    /// Runs `work` as [`SearchPool::submit_work`] does and waits for its result.
    pub async fn run<T: Send + 'static>(
        &self,
        priority: Priority,
        key: i64,
        work: impl FnOnce(&mut Searcher) -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        self.submit_work(priority, key, work).await.unwrap_or(Err(PoolError::Failed))
    }

    /// Keeps the threads from taking jobs until the guard is dropped.
    #[cfg(test)]
    fn pause(&self) -> Paused<'_> {
        self.shared.lock().paused = true;
        Paused(self)
    }
}

#[cfg(test)]
struct Paused<'a>(&'a SearchPool);

#[cfg(test)]
impl Drop for Paused<'_> {
    fn drop(&mut self) {
        self.0.shared.lock().paused = false;
        self.0.shared.ready.notify_all();
    }
}

/// A search thread: runs the first job of the queue until the pool closes. Its searcher is made
/// at its first job and kept.
fn work(shared: &Shared) {
    let mut searcher: Option<Searcher> = None;
    loop {
        let queued = {
            let mut queue = shared.lock();
            loop {
                if queue.closed {
                    return;
                }
                #[cfg(test)]
                let paused = queue.paused;
                #[cfg(not(test))]
                let paused = false;
                if !paused && let Some(Reverse(queued)) = queue.heap.pop() {
                    if queued.task.cancelled() {
                        continue;
                    }
                    break queued;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let engine = searcher.get_or_insert_with(Searcher::default);
        if !queued.task.run(engine) {
            // Its tables may be half written: the next job gets a fresh searcher.
            searcher = None;
        }
    }
}

/// Lowers the calling thread's scheduling priority by [`SEARCH_NICE`]. On Linux a thread has a
/// nice value of its own, set through its thread id; elsewhere the threads keep the process's.
/// A failure (a sandbox forbidding it) is logged and the thread searches at normal priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getpriority_process, setpriority_process};
        let thread = Some(rustix::thread::gettid());
        let lowered = getpriority_process(thread)
            .and_then(|current| setpriority_process(thread, (current + SEARCH_NICE).min(19)));
        if let Err(error) = lowered {
            tracing::warn!(%error, "could not lower a search thread's priority");
        }
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
    async fn waiting_jobs_start_in_the_order_of_their_keys() {
        let pool = SearchPool::new(1);
        let paused = pool.pause();
        let mut receivers = Vec::new();
        for key in [5, 4, 3, 2, 1, 1] {
            receivers.push(pool.submit(key, Job { game: brandubh(), budget: Budget::Limits(Limits::depth(1)) }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert_eq!(pool.waiting(), 6, "nothing starts while the pool is held");
        // The order the threads take jobs in: `work` pops the queue's heap, as done here.
        let mut order = Vec::new();
        while let Some(Reverse(queued)) = pool.shared.lock().heap.pop() {
            order.push((queued.key, queued.seq));
        }
        assert_eq!(
            order,
            vec![(1, 5), (1, 6), (2, 4), (3, 3), (4, 2), (5, 1)],
            "the lowest key first, whatever the order of submission; ties in the order submitted"
        );
        drop(paused);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_waiting_bot_move_starts_before_every_waiting_review_position_whatever_their_keys() {
        let pool = SearchPool::new(1);
        let started = Arc::new(Mutex::new(Vec::new()));
        let record = |name: &'static str| {
            let started = started.clone();
            move |searcher: &mut Searcher| {
                started.lock().unwrap().push(name);
                searcher.analyse(&brandubh(), &Limits::depth(1)).map(|a| a.best)
            }
        };
        let paused = pool.pause();
        // Reviews of older games (lower keys) queued first, then two bot moves and a hint.
        let reviews = [
            pool.submit_work(Priority::Review, 1, record("review 1")),
            pool.submit_work(Priority::Review, 2, record("review 2")),
        ];
        let moves = [
            pool.submit_work(Priority::Move, 500, record("move at 500")),
            pool.submit_work(Priority::Move, 100, record("move at 100")),
        ];
        drop(paused);
        for receiver in moves.into_iter().chain(reviews) {
            assert!(receiver.await.expect("answered").expect("completed").is_some());
        }
        assert_eq!(*started.lock().unwrap(), ["move at 100", "move at 500", "review 1", "review 2"]);

        // A move submitted while a review position runs starts before the review's next one.
        let started = Arc::new(Mutex::new(Vec::new()));
        let (running, on_running) = std::sync::mpsc::channel::<()>();
        let (release, on_release) = std::sync::mpsc::channel::<()>();
        let first = {
            let started = started.clone();
            pool.submit_work(Priority::Review, 1, move |_: &mut Searcher| {
                started.lock().unwrap().push("review position 1");
                running.send(()).unwrap();
                on_release.recv().unwrap();
            })
        };
        on_running.recv().unwrap();
        let next = {
            let started = started.clone();
            pool.submit_work(Priority::Review, 1, move |_: &mut Searcher| {
                started.lock().unwrap().push("review position 2");
            })
        };
        let bot = {
            let started = started.clone();
            pool.submit_work(Priority::Move, i64::MAX, move |_: &mut Searcher| {
                started.lock().unwrap().push("bot move");
            })
        };
        release.send(()).unwrap();
        for receiver in [first, next, bot] {
            receiver.await.expect("answered").expect("completed");
        }
        assert_eq!(*started.lock().unwrap(), ["review position 1", "bot move", "review position 2"]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn work_that_panics_fails_alone_and_the_pool_goes_on() {
        let pool = SearchPool::new(1);
        let failed = pool.run(Priority::Review, 0, |_: &mut Searcher| -> u8 { panic!("a broken review") }).await;
        assert_eq!(failed, Err(PoolError::Failed));
        let job = Job { game: brandubh(), budget: Budget::Limits(Limits::depth(1)) };
        assert!(pool.search(0, job).await.expect("the next job completes").is_some());
    }

    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn search_threads_run_at_a_lower_priority_than_the_rest_of_the_process() {
        let pool = SearchPool::new(2);
        pool.search(0, Job { game: brandubh(), budget: Budget::Limits(Limits::depth(1)) }).await.expect("searched");
        // The nice value is field 19 of /proc/self/task/TID/stat (after the parenthesised name).
        let nice_of = |task: &std::path::Path| -> Option<i32> {
            let stat = std::fs::read_to_string(task.join("stat")).ok()?;
            let after_name = &stat[stat.rfind(')')? + 2..];
            after_name.split_whitespace().nth(16)?.parse().ok()
        };
        let normal = nice_of(std::path::Path::new("/proc/thread-self")).expect("this thread's nice value");
        let lowered = (normal + SEARCH_NICE).min(19);
        // Every search thread of the process: this pool's, and other tests' pools too. A pool
        // being made by another test at this moment has threads that exist, named, a moment
        // before they lower their priority (`new` returns only after they have), so a thread
        // still at the normal priority is looked at again for up to a second before it counts.
        let searchers = |wrong_only: bool| -> Vec<(std::path::PathBuf, i32)> {
            let mut found = Vec::new();
            for task in std::fs::read_dir("/proc/self/task").expect("the process's threads") {
                let task = task.expect("a thread").path();
                // A thread of a pool just dropped may be gone by now.
                let Ok(name) = std::fs::read_to_string(task.join("comm")) else { continue };
                let Some(nice) = nice_of(&task) else { continue };
                if name.starts_with("tafl-search-") && (!wrong_only || nice != lowered) {
                    found.push((task, nice));
                }
            }
            found
        };
        assert!(searchers(false).len() >= 2, "this pool's two threads at least: {:?}", searchers(false));
        let mut wrong = searchers(true);
        for _ in 0..20 {
            if wrong.is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            wrong = searchers(true);
        }
        assert!(wrong.is_empty(), "search threads not {SEARCH_NICE} steps nicer than {normal}: {wrong:?}");
        drop(pool);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancelled_job_is_not_searched() {
        let pool = SearchPool::new(1);
        let searched = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let paused = pool.pause();
        let first = pool.submit(0, Job { game: brandubh(), budget: Budget::Limits(Limits::depth(1)) });
        let flag = searched.clone();
        drop(pool.submit_work(Priority::Move, 1, move |_| flag.store(true, std::sync::atomic::Ordering::SeqCst)));
        let last = pool.submit(2, Job { game: brandubh(), budget: Budget::Limits(Limits::depth(1)) });
        drop(paused);
        first.await.expect("answered").expect("searched");
        // The one thread takes jobs in key order, so once the last job is answered it has passed
        // over the cancelled one: no waiting for a timer.
        last.await.expect("answered").expect("searched");
        assert!(!searched.load(std::sync::atomic::Ordering::SeqCst), "the cancelled job ran");
        assert_eq!(pool.waiting(), 0);
    }
}
