//! Eight hosts on one `PostgreSQL` database, as eight bot processes (each its own pool and
//! process id): 200 timed games played at once, every move raced by every host, while all of
//! them run the scheduler and deliver the outbox through a fake deliverer that records what it
//! delivered. One host hangs in its deliveries while holding lanes and is then killed (its tasks
//! aborted, its claims never released); the others take its lanes over once the leases run out.
//!
//! The games' time is the test's own (the host takes `now` as an argument): the moves are
//! played at `PLAY`, then the clock steps in [`STEP`]s through the halfway reminder, the last
//! warning and the deadline of every turn, every host ticking at each step while the second
//! half of the games keep moving (and some resign) at the same moments; a last tick far later
//! times out what is left. Delivery runs on the wall clock, with a lease of [`LEASE`].
//!
//! Checked at the end: no move lost or doubled (the move list equals the game's record and the
//! moves the hosts were told they played); every reminder and time-out happened exactly once
//! (the scheduler's answers across all hosts, the outbox, and the games agree, and the games
//! nobody moved during the steps got exactly their two reminders and their time-out); every
//! outbox item was delivered exactly once, lane by lane in order and never two of a lane at
//! once; the killed host's lanes were delivered by the others after it died.
//!
//! Without `PostgreSQL` the test is skipped with one line (except under `CI=true`). It prints
//! its seed (`TAFL_SEED=n` repeats a run) and its figures.

mod support;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use support::{NOW, PLACE, Rng};
use tafl_bot::host::{
    ChallengeRequest, Clock, Due, EndReason, Host, HostError, Pending, ReminderKind, Show, SideChoice, User,
};
use tokio::task::JoinSet;

const HOSTS: usize = 8;
const GAMES: usize = 200;
/// The first half of the games is played only before the clock steps (and is then timed out
/// exactly on schedule); the second half moves during the steps too.
const STEADY: usize = GAMES / 2;
const PER_MOVE: i64 = 3600;
/// Shorter than the bot's 30 s so that the takeover comes sooner, long enough that a live host
/// renews in time on this loaded 2-core machine (a renewal must get through within half the
/// lease; under load average 11, renewals sent lane by lane through the host's busy pool did
/// not, which is why they are now one statement per process on a connection of its own).
const LEASE: Duration = Duration::from_secs(10);
/// The host that hangs and is killed.
const KILLED: usize = HOSTS - 1;
/// The lanes it claims before the other hosts begin to deliver.
const KILLED_HEAD_START: usize = 10;
/// Every move of the first phase is played at this moment of game time.
const PLAY: i64 = NOW + 2;
/// The scheduler's steps of game time: 13 steps of 300 s pass the halfway point (1800 s), the
/// last warning (3240 s) and the deadline (3600 s) of every turn begun at `PLAY`.
const STEP: i64 = 300;
const STEPS: i64 = 13;
/// The steps at which the moving games play their next move, racing the ticks.
const MOVING_STEPS: std::ops::RangeInclusive<i64> = 6..=9;
/// The step at which every fourth moving game is resigned, by every host at once.
const RESIGN_STEP: i64 = 7;
/// Far past every deadline: the last ticks time out every game still going.
const LAST: i64 = NOW + 100_000;

/// Everything the hosts did, as the fake Discord and the test's bookkeeping saw it.
#[derive(Debug, Default)]
struct Log {
    seq: AtomicUsize,
    /// `(sequence, host, item, lane)` of every delivery, in the order they began.
    delivered: Mutex<Vec<(usize, usize, i64, String)>>,
    /// The lanes being delivered now, by which host.
    in_flight: Mutex<HashMap<String, usize>>,
    /// Lanes in which the hanging host stopped before delivering.
    stalled: Mutex<Vec<String>>,
    failures: Mutex<Vec<String>>,
    /// What each host's ticks returned.
    dues: Mutex<Vec<(usize, Due)>>,
    /// `(game, ply, notation)` of every move a host was told it played.
    played: Mutex<Vec<(i64, usize, String)>>,
    /// The games each successful resignation ended.
    resigned: Mutex<Vec<i64>>,
    /// Per host: `(looks, lanes claimed, ms when the look in progress began or 0)` of its
    /// delivery task, for a failure's message (a host that claims nothing: starved or stuck?).
    claims: Mutex<[(usize, usize, i64); HOSTS]>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Log {
    fn fail(&self, what: String) {
        lock(&self.failures).push(what);
    }

    /// A delivery of `item` by `host` begins: its lane must not be in delivery anywhere.
    fn begin(&self, host: usize, item: &Pending) {
        if let Some(other) = lock(&self.in_flight).insert(item.lane.clone(), host) {
            self.fail(format!("lane {} delivered by hosts {other} and {host} at once", item.lane));
        }
        let seq = self.seq.fetch_add(1, Ordering::SeqCst);
        lock(&self.delivered).push((seq, host, item.id, item.lane.clone()));
    }

    fn end(&self, item: &Pending) {
        lock(&self.in_flight).remove(&item.lane);
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

/// A host's delivery task, as the Discord front end's: claims lanes, delivers each in its own
/// task while keeping its claim, releases it when the lane is empty. When `hang` is set, every
/// delivery stops for good before it posts anything (a process that hangs, then dies).
async fn deliver(host: Host, index: usize, log: Arc<Log>, hang: Arc<AtomicBool>) {
    let mut lanes = JoinSet::new();
    // The lanes this host's tasks deliver: a claim whose lease ran out while its task went on
    // may be taken again by this host, and must not start a second task.
    let running: Arc<Mutex<HashSet<String>>> = Arc::default();
    // The host to kill looks first: a game is one lane, and the others, looking 20 lanes at a
    // time, could take all 200 before its first look and leave it nothing to hold when it hangs
    // (2 of 36 runs on 5 December, with an engine match on the same 2 cores).
    while index != KILLED && lock(&log.claims)[KILLED].1 < KILLED_HEAD_START {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    loop {
        while let Some(done) = lanes.try_join_next() {
            if let Err(error) = done {
                log.fail(format!("a lane task of host {index} failed: {error}"));
            }
        }
        let claimed_at = now_ms();
        lock(&log.claims)[index].2 = claimed_at;
        let claimed = host.claim_lanes(claimed_at, 20).await;
        {
            let mut claims = lock(&log.claims);
            claims[index].0 += 1;
            claims[index].1 += claimed.as_ref().map_or(0, Vec::len);
            claims[index].2 = 0;
        }
        match claimed {
            Ok(heads) => {
                for head in heads {
                    if lock(&running).insert(head.lane.clone()) {
                        let task = deliver_lane(host.clone(), index, head, claimed_at, log.clone(), hang.clone());
                        let running = running.clone();
                        lanes.spawn(async move {
                            let lane = task.await;
                            lock(&running).remove(&lane);
                        });
                    }
                }
            }
            Err(error) => log.fail(format!("host {index} cannot claim lanes: {error}")),
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Delivers one lane from `first` on; returns the lane.
async fn deliver_lane(
    host: Host,
    index: usize,
    first: Pending,
    claimed_at: i64,
    log: Arc<Log>,
    hang: Arc<AtomicBool>,
) -> String {
    let lane = first.lane.clone();
    let work = async {
        let mut next = Some(first);
        loop {
            let item = match next.take() {
                Some(item) => item,
                None => match host.outbox_head(&lane, NOW).await {
                    Ok(Some(item)) => item,
                    Ok(None) => return,
                    Err(error) => return log.fail(format!("host {index} cannot read lane {lane}: {error}")),
                },
            };
            if hang.load(Ordering::SeqCst) {
                lock(&log.stalled).push(lane.clone());
                std::future::pending::<()>().await;
            }
            log.begin(index, &item);
            if let Err(error) = host.delivered(item.id, None, NOW).await {
                log.fail(format!("host {index} cannot record item {} delivered: {error}", item.id));
            }
            log.end(&item);
        }
    };
    tokio::select! {
        () = work => {}
        () = host.keep_lane(&lane, claimed_at) => log.fail(format!("host {index}, alive, lost lane {lane}")),
    }
    if let Err(error) = host.release_lane(&lane, now_ms()).await {
        log.fail(format!("host {index} cannot release lane {lane}: {error}"));
    }
    lane
}

/// Plays `moves` in `game` through `host` at game time `now` until the game is at ply `target`,
/// each request with the ply it believes current, as every host does at once.
async fn race_moves(
    host: Host,
    game: i64,
    players: (i64, i64),
    moves: Arc<Vec<String>>,
    target: usize,
    now: i64,
    log: Arc<Log>,
) {
    let mut ply = 0;
    while ply < target {
        let user = if ply % 2 == 0 { players.0 } else { players.1 };
        match host.play(game, user, &moves[ply], Some(ply), now).await {
            Ok(played) => {
                lock(&log.played).push((game, ply, played.notation));
                ply += 1;
            }
            // Another host played this ply: go on from where the game is.
            Err(HostError::StaleBoard { ply: current, .. }) => ply = current,
            Err(HostError::GameOver { .. }) => return,
            Err(other) => return log.fail(format!("a move in game {game} at ply {ply} was refused: {other}")),
        }
    }
}

/// Every live host ticks at `now` at once.
fn tick_all(set: &mut JoinSet<()>, hosts: &[Host], live: &[usize], now: i64, log: &Arc<Log>) {
    for &index in live {
        let (host, log) = (hosts[index].clone(), log.clone());
        set.spawn(async move {
            match host.tick(now).await {
                Ok(dues) => lock(&log.dues).extend(dues.into_iter().map(|due| (index, due))),
                Err(error) => log.fail(format!("host {index}'s tick at {now} failed: {error}")),
            }
        });
    }
}

/// Waits for every task of `set`; a task that panicked is a failure (one aborted is not: the
/// killed host's).
async fn join(set: &mut JoinSet<()>, log: &Log) {
    while let Some(done) = set.join_next().await {
        if let Err(error) = done
            && !error.is_cancelled()
        {
            log.fail(format!("a task failed: {error}"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_hosts_share_200_games_their_scheduler_and_their_outbox_and_survive_one_dying() {
    Box::pin(support::on(support::Backend::Postgres, run())).await;
}

#[allow(clippy::too_many_lines)]
async fn run() {
    // The hosts log what went wrong (a database error behind `HostError::Internal`): shown
    // with a failure.
    let _ = tracing_subscriber::fmt().with_max_level(tracing::Level::WARN).with_test_writer().try_init();
    let started = Instant::now();
    let seed = std::env::var("TAFL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| now_ms() as u64 | 1);
    println!("seed {seed} (TAFL_SEED={seed} repeats this run)");
    let mut rng = Rng(seed);

    let database = support::postgres::database().await.expect("PostgreSQL was found before the test began");
    let mut hosts = Vec::new();
    for _ in 0..HOSTS {
        let db = tafl_bot::store::Db::open(&database.url).await.expect("the PostgreSQL database opens");
        // No downtime grace: the test's clock jumps, the bot was never down.
        hosts.push(Host::new(db).with_outbox_lease(LEASE).with_grace(10 * LAST, 0));
    }
    let ids: HashSet<&str> = hosts.iter().map(Host::process_id).collect();
    assert_eq!(ids.len(), HOSTS, "every host has its own process id");
    // The scheduler's first tick, before any game: it records the tick, so later ones see no downtime.
    hosts[0].tick(NOW).await.unwrap();

    let moves = Arc::new(support::find_game(tafl_rules::Variant::Brandubh, tafl_rules::Reason::KingCaptured, 400));
    assert!(moves.len() > 2 + MOVING_STEPS.count(), "a long enough game: {moves:?}");
    let clock = Clock::per_move(PER_MOVE).unwrap();
    let mut games = Vec::new();
    let mut creating = JoinSet::new();
    for n in 0..GAMES {
        let host = hosts[n % HOSTS].clone();
        creating.spawn(async move {
            let attacker = User::new(10_000 + 2 * n as i64, &format!("a{n}"));
            let defender = User::new(10_001 + 2 * n as i64, &format!("d{n}"));
            let request = ChallengeRequest {
                challenger: attacker.clone(),
                opponent: Some(defender.clone()),
                variant: "brandubh".to_owned(),
                options: Vec::new(),
                side: SideChoice::Attackers,
                clock: Some(clock),
                place: PLACE,
            };
            let challenge = host.challenge(&request, NOW).await.unwrap();
            let game = host.accept(challenge.id, &defender, NOW + 1).await.unwrap().game;
            (n, game.id, (attacker.id, defender.id))
        });
    }
    while let Some(created) = creating.join_next().await {
        games.push(created.unwrap());
    }
    games.sort_unstable();
    // The first half: 0 to 5 plies, then left to the scheduler; the second half: 2 plies first.
    let targets: Vec<usize> = (0..GAMES).map(|n| if n < STEADY { rng.below(6) } else { 2 }).collect();
    let created = started.elapsed();

    let log = Arc::new(Log::default());
    let hang: Vec<Arc<AtomicBool>> = (0..HOSTS).map(|_| Arc::default()).collect();
    let mut delivering: Vec<_> = (0..HOSTS)
        .map(|index| tokio::spawn(deliver(hosts[index].clone(), index, log.clone(), hang[index].clone())))
        .collect();

    // Phase 1: every host plays every game's moves at once, and ticks (nothing is due yet).
    let mut playing: Vec<JoinSet<()>> = (0..HOSTS).map(|_| JoinSet::new()).collect();
    for (index, set) in playing.iter_mut().enumerate() {
        for (n, &(_, game, players)) in games.iter().enumerate() {
            set.spawn(race_moves(hosts[index].clone(), game, players, moves.clone(), targets[n], PLAY, log.clone()));
        }
        let (host, log) = (hosts[index].clone(), log.clone());
        set.spawn(async move {
            for _ in 0..20 {
                match host.tick(PLAY).await {
                    Ok(dues) => lock(&log.dues).extend(dues.into_iter().map(|due| (index, due))),
                    Err(error) => log.fail(format!("host {index}'s tick failed: {error}")),
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
    }
    // Mid-run, once it has delivered some items, one host hangs in its deliveries (holding its
    // lanes) and dies.
    let waiting = Instant::now();
    while lock(&log.delivered).iter().filter(|&&(_, host, _, _)| host == KILLED).count() < 30 {
        assert!(
            waiting.elapsed() < Duration::from_secs(30),
            "the host to kill delivered too little: {:?}, failures {:?}; per host (looks, lanes claimed, ms \
             a look in progress has taken): {:?}",
            lock(&log.delivered).iter().fold([0; HOSTS], |mut per, &(_, host, _, _)| {
                per[host] += 1;
                per
            }),
            lock(&log.failures),
            lock(&log.claims).map(|(looks, lanes, since)| (
                looks,
                lanes,
                if since == 0 { 0 } else { now_ms() - since }
            ))
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    hang[KILLED].store(true, Ordering::SeqCst);
    loop {
        let stalled = lock(&log.stalled).len();
        let busy = lock(&log.in_flight).values().any(|&host| host == KILLED);
        if stalled >= 2 && !busy {
            break;
        }
        assert!(waiting.elapsed() < Duration::from_secs(30), "the hanging host never held two lanes");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    delivering[KILLED].abort();
    playing[KILLED].abort_all();
    join(&mut playing[KILLED], &log).await;
    assert!((&mut delivering[KILLED]).await.unwrap_err().is_cancelled());
    let killed_at = log.seq.load(Ordering::SeqCst);
    let killed_id = hosts[KILLED].process_id().to_owned();
    let mut orphaned = Vec::new();
    for (lane, by, _) in hosts[0].outbox_claims().await.unwrap() {
        if by == killed_id && hosts[0].outbox_head(&lane, NOW).await.unwrap().is_some() {
            orphaned.push(lane);
        }
    }
    let killed_after = started.elapsed();
    let live: Vec<usize> = (0..HOSTS).filter(|&index| index != KILLED).collect();
    for &index in &live {
        join(&mut playing[index], &log).await;
    }
    let played_at = started.elapsed();

    // Phase 2: the clock steps; every live host ticks at each step while the second half of the
    // games moves (and some resign) at the same moments.
    for step in 1..=STEPS {
        let now = PLAY + step * STEP;
        let mut set = JoinSet::new();
        tick_all(&mut set, &hosts, &live, now, &log);
        if MOVING_STEPS.contains(&step) {
            let target = 2 + (step - MOVING_STEPS.start() + 1) as usize;
            for &(n, game, players) in &games[STEADY..] {
                for &index in &live {
                    set.spawn(race_moves(hosts[index].clone(), game, players, moves.clone(), target, now, log.clone()));
                }
                if step == RESIGN_STEP && n % 4 == 0 {
                    for &index in &live {
                        let (host, log) = (hosts[index].clone(), log.clone());
                        set.spawn(async move {
                            match host.resign(game, players.0, None, now).await {
                                Ok(_) => lock(&log.resigned).push(game),
                                Err(HostError::GameOver { .. }) => {}
                                Err(other) => log.fail(format!("a resignation in game {game} was refused: {other}")),
                            }
                        });
                    }
                }
            }
        }
        join(&mut set, &log).await;
    }
    // Phase 3: far past every deadline, twice.
    for _ in 0..2 {
        let mut set = JoinSet::new();
        tick_all(&mut set, &hosts, &live, LAST, &log);
        join(&mut set, &log).await;
    }
    let ticked_at = started.elapsed();

    // The outbox drains, the killed host's lanes included once their leases ran out.
    let pool = hosts[0].db().pool();
    let draining = Instant::now();
    loop {
        let left: i64 =
            sqlx::query_scalar("SELECT count(*) FROM outbox WHERE state <> 'done'").fetch_one(pool).await.unwrap();
        if left == 0 && lock(&log.in_flight).is_empty() {
            break;
        }
        assert!(draining.elapsed() < Duration::from_mins(1), "{left} outbox items were never delivered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for task in &delivering {
        task.abort();
    }
    let drained_at = started.elapsed();

    let failures = lock(&log.failures).clone();
    assert!(failures.is_empty(), "{} failures, the first: {:#?}", failures.len(), &failures[..failures.len().min(10)]);

    // No move lost or doubled: each game's move list is its record, the moves the hosts played,
    // each ply once.
    let played = lock(&log.played).clone();
    let mut told: BTreeMap<(i64, usize), String> = BTreeMap::new();
    for (game, ply, notation) in &played {
        assert!(told.insert((*game, *ply), notation.clone()).is_none(), "ply {ply} of game {game} was played twice");
    }
    let mut stored_moves = 0;
    for (n, &(_, game, _)) in games.iter().enumerate() {
        let view = hosts[0].show(game).await.unwrap();
        let stored: Vec<(i64, String)> =
            sqlx::query_as("SELECT ply, notation FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(game)
                .fetch_all(pool)
                .await
                .unwrap();
        let record: String =
            sqlx::query_scalar("SELECT movetext FROM games WHERE id = $1").bind(game).fetch_one(pool).await.unwrap();
        let notations: Vec<&str> = stored.iter().map(|(_, notation)| notation.as_str()).collect();
        assert_eq!(notations, record.split_whitespace().collect::<Vec<_>>(), "game {game}: moves and record");
        assert_eq!(notations, moves[..view.ply].iter().map(String::as_str).collect::<Vec<_>>(), "game {game}");
        let plies: HashSet<i64> = stored.iter().map(|(ply, _)| *ply).collect();
        assert_eq!(plies.len(), stored.len(), "game {game}: a ply stored twice");
        // Every move a host was told it played is in the list, at its ply.
        for ((_, ply), notation) in told.range((game, 0)..(game + 1, 0)) {
            assert!(*ply < view.ply, "game {game}: the move played at ply {ply} was lost");
            assert_eq!(notation, &moves[*ply], "game {game} ply {ply}");
        }
        if n < STEADY {
            assert_eq!(view.ply, targets[n], "game {game} stopped where its players stopped");
        } else {
            assert!(view.ply >= 2, "game {game}");
        }
        assert!(view.ending.is_some(), "game {game} is over");
        stored_moves += stored.len();
    }

    // Every reminder and time-out exactly once.
    let dues = lock(&log.dues).clone();
    let mut reminders: Vec<(i64, ReminderKind, usize)> = Vec::new();
    let mut timeouts: Vec<i64> = Vec::new();
    for (_, due) in &dues {
        match due {
            Due::Reminder(reminder) => reminders.push((reminder.game, reminder.kind, reminder.ply)),
            Due::TimedOut(finished) => timeouts.push(finished.game.id),
            other => panic!("nothing else comes due here: {other:?}"),
        }
    }
    reminders.sort_by_key(|&(game, kind, ply)| (game, ply, kind as u8));
    let mut unique = reminders.clone();
    unique.dedup();
    assert_eq!(unique.len(), reminders.len(), "a reminder came twice");
    timeouts.sort_unstable();
    let mut unique = timeouts.clone();
    unique.dedup();
    assert_eq!(unique.len(), timeouts.len(), "a game timed out twice");
    let items: Vec<String> = sqlx::query_scalar("SELECT item FROM outbox WHERE kind = 'reminder' ORDER BY id")
        .fetch_all(pool)
        .await
        .unwrap();
    let mut recorded: Vec<(i64, ReminderKind, usize)> = items
        .iter()
        .map(|item| match serde_json::from_str(item).unwrap() {
            Show::Reminder { game, reminder, ply, .. } => (game, reminder, ply),
            other => panic!("{other:?}"),
        })
        .collect();
    recorded.sort_by_key(|&(game, kind, ply)| (game, ply, kind as u8));
    assert_eq!(recorded, reminders, "the outbox holds the reminders the ticks returned, each once");
    let resigned = lock(&log.resigned).clone();
    let mut by_time = Vec::new();
    for &(n, game, _) in &games {
        let ending = hosts[0].show(game).await.unwrap().ending.unwrap();
        match ending.reason {
            EndReason::Time | EndReason::Aborted => by_time.push(game),
            EndReason::Resignation => assert_eq!(resigned.iter().filter(|&&g| g == game).count(), 1, "game {game}"),
            other => panic!("game {game} ended by {other:?}"),
        }
        if n < STEADY {
            let ply = targets[n];
            let mine: Vec<_> = reminders.iter().filter(|r| r.0 == game).copied().collect();
            assert_eq!(
                mine,
                [(game, ReminderKind::Halfway, ply), (game, ReminderKind::LastWarning, ply)],
                "game {game}: both reminders of its last turn, once each"
            );
            assert_eq!(ending.reason, if ply < 2 { EndReason::Aborted } else { EndReason::Time }, "game {game}");
        }
    }
    by_time.sort_unstable();
    assert_eq!(by_time, timeouts, "the games lost on time are the time-outs the ticks returned");
    // The due work was shared: the ticks of several hosts found some of it.
    let mut dues_per_host = [0usize; HOSTS];
    for (host, _) in &dues {
        dues_per_host[*host] += 1;
    }
    assert!(dues_per_host.iter().filter(|&&n| n > 0).count() >= 2, "one host did all the due work: {dues_per_host:?}");

    // Every outbox item delivered exactly once, lane by lane in order.
    let delivered = lock(&log.delivered).clone();
    let all_items: Vec<i64> = sqlx::query_scalar("SELECT id FROM outbox ORDER BY id").fetch_all(pool).await.unwrap();
    let mut ids: Vec<i64> = delivered.iter().map(|&(_, _, id, _)| id).collect();
    ids.sort_unstable();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "an item was delivered twice");
    assert_eq!(ids, all_items, "every item was delivered");
    let mut last_in_lane: HashMap<&str, i64> = HashMap::new();
    for (_, _, id, lane) in &delivered {
        if let Some(previous) = last_in_lane.insert(lane, *id) {
            assert!(previous < *id, "lane {lane}: item {id} after {previous}");
        }
    }
    // The dead host's lanes were taken over and delivered by the others.
    assert!(!orphaned.is_empty(), "the killed host held lanes with items");
    for lane in &orphaned {
        assert!(
            delivered.iter().any(|(seq, host, _, l)| l == lane && *seq >= killed_at && *host != KILLED),
            "lane {lane} of the killed host was taken over"
        );
    }
    let left = hosts[0].outbox_claims().await.unwrap();
    assert!(left.iter().all(|(lane, by, _)| *by != killed_id || !orphaned.contains(lane)), "{left:?}");

    let mut per_host = [0usize; HOSTS];
    for &(_, host, _, _) in &delivered {
        per_host[host] += 1;
    }
    println!(
        "{HOSTS} hosts, {GAMES} games: {stored_moves} moves ({} told to the hosts that played them), {} reminders, \
         {} time-outs (the ticks' finds per host {dues_per_host:?}), {} resignations; {} outbox items delivered exactly once (per host {per_host:?}); \
         host {KILLED} killed holding {} lanes with items, {} stalled deliveries, all taken over",
        played.len(),
        reminders.len(),
        timeouts.len(),
        resigned.len(),
        delivered.len(),
        orphaned.len(),
        lock(&log.stalled).len(),
    );
    println!(
        "times: games created {created:.1?}, killed at {killed_after:.1?}, moves done {played_at:.1?}, \
         ticks done {ticked_at:.1?}, outbox drained {drained_at:.1?} (lease {LEASE:?})"
    );
    drop(hosts);
    drop(database);
}
