//! Two processes answering two clicks at once: two pools on one database (as two bot processes
//! would have), two tasks playing for the same game at the same instant, on `SQLite` (one file)
//! and on `PostgreSQL` (one database, no global writer: the game's row lock serialises them).
//! Exactly one move is applied; the other request is refused with "the board has changed".
//! And operations cancelled half-way (a dropped handler, an aborted task): applied whole or not at
//! all, and the connection they used handed back clean.

mod support;

use std::sync::Arc;

use support::{NOW, alice, bob, game, said};
use tafl_bot::host::bot::MAX_BOT_GAMES;
use tafl_bot::host::search_pool::SearchPool;
use tafl_bot::host::{BoardStyle, BotPlayer, ChallengeState, Drawn, Host, HostError, SideChoice, User};
use tokio::sync::Barrier;

const ROUNDS: usize = 60;

/// Two hosts on separate pools of one database.
async fn two_hosts() -> (Host, Host) {
    let (first, second) = support::two_dbs().await;
    (Host::new(first), Host::new(second))
}

/// Plays `a` through `one` and `b` through `two` at the same moment, for a game at `ply`.
async fn race(
    one: &Host,
    two: &Host,
    game: i64,
    a: &'static str,
    b: &'static str,
    ply: usize,
) -> [Result<String, HostError>; 2] {
    let barrier = Arc::new(Barrier::new(2));
    let spawn = |host: Host, mv: &'static str| {
        let barrier = Arc::clone(&barrier);
        tokio::spawn(async move {
            barrier.wait().await;
            host.play(game, alice().id, mv, Some(ply), NOW).await.map(|p| p.notation)
        })
    };
    let first = spawn(one.clone(), a);
    let second = spawn(two.clone(), b);
    [first.await.unwrap(), second.await.unwrap()]
}

async fn check_one_applied(host: &Host, game: i64, results: &[Result<String, HostError>; 2]) {
    let applied = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(applied, 1, "exactly one move is applied: {results:?}");
    let refused = results.iter().find_map(|r| r.as_ref().err()).unwrap();
    assert!(matches!(refused, HostError::StaleBoard { .. }), "{refused:?}");
    assert!(said(refused).starts_with("The board has changed"), "{refused}");
    let shown = host.show(game).await.unwrap();
    assert_eq!(shown.ply, 1);
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .bind(game)
        .fetch_one(host.db().pool())
        .await
        .unwrap();
    assert_eq!(moves, 1, "one row in the move list");
}

support::both! { multi_thread
    async fn the_same_move_sent_twice_at_once_through_two_pools_is_applied_once() {
        let (one, two) = two_hosts().await;
        for _ in 0..ROUNDS {
            let g = game(&one, "copenhagen").await;
            let results = race(&one, &two, g.id, "d1-d3", "d1-d3", 0).await;
            check_one_applied(&two, g.id, &results).await;
        }
    }
}

support::both! { multi_thread
    /// One interaction delivered to two processes at once (two serving one shard during a
    /// rolling deploy): exactly one of them takes it on, and a copy coming later is known too.
    async fn an_interaction_delivered_to_two_processes_at_once_is_taken_on_by_one() {
        let (one, two) = two_hosts().await;
        for round in 0..ROUNDS {
            let id = 1_300_000_000_000_000_000 + round as i64;
            let barrier = Arc::new(Barrier::new(2));
            let take = |host: &Host| {
                let (host, barrier) = (host.clone(), barrier.clone());
                tokio::spawn(async move {
                    barrier.wait().await;
                    host.take_interaction(id, NOW).await.unwrap()
                })
            };
            let (first, second) = (take(&one), take(&two));
            let taken = [first.await.unwrap(), second.await.unwrap()];
            assert_eq!(taken.iter().filter(|taken| **taken).count(), 1, "round {round}: {taken:?}");
            assert!(!two.take_interaction(id, NOW + 1).await.unwrap(), "round {round}: a later copy");
        }
    }
}

support::both! { multi_thread
    async fn two_different_moves_at_once_through_two_pools_apply_only_one() {
        let (one, two) = two_hosts().await;
        for _ in 0..ROUNDS {
            let g = game(&two, "copenhagen").await;
            let results = race(&one, &two, g.id, "d1-d3", "h1-h3", 0).await;
            check_one_applied(&one, g.id, &results).await;
            // The game goes on normally from whichever move won.
            one.play(g.id, bob().id, "f4-f3", Some(1), NOW).await.unwrap();
        }
    }
}

support::both! { multi_thread
    async fn many_racing_requests_on_one_game_never_apply_two_moves_for_one_ply() {
        let (one, two) = two_hosts().await;
        let g = game(&one, "copenhagen").await;
        // Both hosts keep trying the whole game's moves in order, each request with the ply it saw;
        // every ply ends up with exactly one move.
        let moves = support::find_game(tafl_rules::Variant::Copenhagen, tafl_rules::Reason::KingEscaped, 400);
        let moves = Arc::new(moves);
        let mut tasks = Vec::new();
        for host in [one.clone(), two.clone()] {
            let moves = Arc::clone(&moves);
            let id = g.id;
            tasks.push(tokio::spawn(async move {
                let mut applied = 0;
                loop {
                    let ply = host.show(id).await.unwrap().ply;
                    if ply == moves.len() {
                        return applied;
                    }
                    let user = if ply % 2 == 0 { alice().id } else { bob().id };
                    match host.play(id, user, &moves[ply], Some(ply), NOW).await {
                        Ok(_) => applied += 1,
                        // The other host played this ply, or the last one.
                        Err(HostError::StaleBoard { .. } | HostError::GameOver { .. }) => {}
                        Err(other) => panic!("unexpected refusal: {other}"),
                    }
                }
            }));
        }
        let mut total = 0;
        for task in tasks {
            total += task.await.unwrap();
        }
        assert_eq!(total, moves.len(), "every ply applied exactly once between the two");
        let stored: Vec<String> = sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(g.id)
            .fetch_all(one.db().pool())
            .await
            .unwrap();
        assert_eq!(&stored, moves.as_ref());
        assert!(one.show(g.id).await.unwrap().ending.is_some());
    }
}

support::both! { multi_thread
    async fn two_people_accepting_one_open_challenge_at_once_start_one_game() {
        let (one, two) = two_hosts().await;
        for round in 0..ROUNDS {
            let c = one
                .challenge(&support::request(&alice(), None, "brandubh", tafl_bot::host::SideChoice::Random), NOW)
                .await
                .unwrap();
            let barrier = Arc::new(Barrier::new(2));
            let spawn = |host: Host, user: tafl_bot::host::User| {
                let barrier = Arc::clone(&barrier);
                tokio::spawn(async move {
                    barrier.wait().await;
                    host.accept(c.id, &user, NOW).await.map(|a| a.game.id)
                })
            };
            let first = spawn(one.clone(), bob());
            let second = spawn(two.clone(), support::carol());
            let results = [first.await.unwrap(), second.await.unwrap()];
            assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "{results:?}");
            let refused = results.iter().find_map(|r| r.as_ref().err()).unwrap();
            assert_eq!(refused, &HostError::ChallengeClosed { id: c.id, state: ChallengeState::Accepted });
            let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games").fetch_one(one.db().pool()).await.unwrap();
            assert_eq!(games, round as i64 + 1, "one game per challenge");
        }
    }
}

support::both! { multi_thread
    async fn a_resignation_racing_a_move_leaves_a_consistent_finished_game() {
        let (one, two) = two_hosts().await;
        for _ in 0..ROUNDS {
            let g = game(&one, "copenhagen").await;
            let barrier = Arc::new(Barrier::new(2));
            let (b1, b2) = (Arc::clone(&barrier), Arc::clone(&barrier));
            let (h1, h2) = (one.clone(), two.clone());
            let mover = tokio::spawn(async move {
                b1.wait().await;
                h1.play(g.id, alice().id, "d1-d3", Some(0), NOW).await.map(|_| ())
            });
            let resigner = tokio::spawn(async move {
                b2.wait().await;
                h2.resign(g.id, bob().id, None, NOW).await.map(|_| ())
            });
            let (move_result, resign_result) = (mover.await.unwrap(), resigner.await.unwrap());
            assert!(resign_result.is_ok(), "a resignation always lands: {resign_result:?}");
            match move_result {
                Ok(()) => assert_eq!(one.show(g.id).await.unwrap().ply, 1),
                Err(HostError::GameOver { .. }) => assert_eq!(one.show(g.id).await.unwrap().ply, 0),
                Err(other) => panic!("unexpected refusal: {other}"),
            }
            assert!(two.show(g.id).await.unwrap().is_over());
        }
    }
}

/// On `PostgreSQL` a game's row lock serialises the operations on that game only: while one
/// transaction holds game A, a move in A from another process waits for it, and a move in game B
/// goes through at once (on `SQLite` every writer waits for the one write lock).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_locks_one_game_not_the_database() {
    Box::pin(support::on(support::Backend::Postgres, async {
        let (one, two) = two_hosts().await;
        assert_eq!(one.db().backend(), support::Backend::Postgres);
        let a = game(&one, "copenhagen").await;
        let b = game(&one, "copenhagen").await;
        let mut holder = one.db().begin_write().await.unwrap();
        tafl_bot::store::games::lock(&mut holder, a.id).await.unwrap();
        let waiting = {
            let two = two.clone();
            tokio::spawn(async move { two.play(a.id, alice().id, "d1-d3", Some(0), NOW).await })
        };
        // Game B is not held up by game A's lock.
        let other =
            tokio::time::timeout(std::time::Duration::from_secs(5), two.play(b.id, alice().id, "d1-d3", Some(0), NOW))
                .await
                .expect("a move in another game does not wait");
        assert_eq!(other.unwrap().notation, "d1-d3");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(!waiting.is_finished(), "the move in the locked game waits for the lock");
        assert_eq!(two.show(a.id).await.unwrap().ply, 0);
        holder.commit().await.unwrap();
        let played =
            tokio::time::timeout(std::time::Duration::from_secs(5), waiting).await.expect("it goes on").unwrap();
        assert_eq!(played.unwrap().notation, "d1-d3");
        assert_eq!(one.show(a.id).await.unwrap().ply, 1);
    }))
    .await;
}

/// On `PostgreSQL` board items recorded by two transactions of one game are committed in the
/// order of their ids. A drawing of the board covers the items up to the newest it saw, so an
/// older id committed after a newer one would be covered by a drawing that never saw its
/// change: here a transaction that holds the game (as a move or an offer does) has recorded an
/// item, while another process records that the board shows a ply the game is not at, which
/// records an item of its own. That one used to take no lock and commit first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_drawing_never_covers_a_board_item_it_did_not_see() {
    use tafl_bot::store::outbox::{ServerOf, insert};
    Box::pin(support::on(support::Backend::Postgres, async {
        let (one, two) = two_hosts().await;
        let a = game(&one, "brandubh").await;
        // The board message shows the start, every board item so far done.
        one.replace_board(
            a.id,
            2,
            900,
            Some(Drawn::at(0)),
            one.pending_board(a.id).await.unwrap(),
            BoardStyle::default(),
            NOW,
        )
        .await
        .unwrap();
        assert_eq!(one.pending_board(a.id).await.unwrap(), None);
        let mut holder = one.db().begin_write().await.unwrap();
        tafl_bot::store::games::lock(&mut holder, a.id).await.unwrap();
        let show = serde_json::to_string(&tafl_bot::host::Show::Board { game: a.id, ply: 0 }).unwrap();
        let lane = tafl_bot::host::outbox::game_lane(a.id);
        let held = insert(&mut holder, &lane, "board", &show, ServerOf::Game(a.id), NOW).await.unwrap();
        let other = {
            let two = two.clone();
            tokio::spawn(async move { two.board_shown(a.id, 900, Drawn::at(5), None, NOW).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        // A delivery reads the board to draw it now, the held transaction still open.
        let covers = one.pending_board(a.id).await.unwrap();
        holder.commit().await.unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(5), other).await.expect("it goes on").unwrap().unwrap();
        one.board_shown(a.id, 900, Drawn::at(0), covers, NOW).await.unwrap();
        // The held item's change was not in that drawing: it is still to be shown.
        let state: String = sqlx::query_scalar("SELECT state FROM outbox WHERE id = $1")
            .bind(held)
            .fetch_one(one.db().pool())
            .await
            .unwrap();
        assert_eq!(state, "pending", "covers {covers:?}, held item {held}");
    }))
    .await;
}

/// On `PostgreSQL` an operation ended by a deadlock is run again, whole, and succeeds: here an
/// acceptance holds the challenge's lock and waits for the accepting person's row, which another
/// transaction holds while it waits for the challenge. `PostgreSQL` ends the acceptance (it has
/// waited longest); the host runs it again once the other transaction is done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_an_operation_ended_by_a_deadlock_is_run_again() {
    use std::time::Duration;
    support::on(support::Backend::Postgres, async {
        let (one, two) = two_hosts().await;
        one.remember_user(&bob(), NOW).await.unwrap();
        let c = one
            .challenge(
                &support::request(&alice(), Some(&bob()), "brandubh", tafl_bot::host::SideChoice::Attackers),
                NOW,
            )
            .await
            .unwrap();
        let mut holder = one.db().begin_write().await.unwrap();
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1")
            .bind(bob().id)
            .execute(&mut **holder)
            .await
            .unwrap();
        let accepting = tokio::spawn(async move { two.accept(c.id, &bob(), NOW).await });
        // The acceptance now holds the challenge and waits for bob's row.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!accepting.is_finished());
        // The cycle: PostgreSQL's deadlock check (after deadlock_timeout, 1 s) ends the acceptance.
        tokio::time::timeout(
            Duration::from_secs(10),
            sqlx::query("SELECT id FROM challenges WHERE id = $1 FOR UPDATE").bind(c.id).execute(&mut **holder),
        )
        .await
        .expect("the deadlock is broken")
        .unwrap();
        holder.commit().await.unwrap();
        let accepted = tokio::time::timeout(Duration::from_secs(10), accepting).await.expect("it ends").unwrap();
        let accepted = accepted.expect("the acceptance was run again and succeeded");
        assert_eq!(one.challenge_by_id(c.id).await.unwrap().state, ChallengeState::Accepted);
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games").fetch_one(one.db().pool()).await.unwrap();
        assert_eq!(games, 1, "one game, from the second run: {accepted:?}");
    })
    .await;
}

support::both! { multi_thread
    async fn two_consoles_naming_new_players_at_once_give_each_its_own_id() {
        let (one, two) = support::two_dbs().await;
        // The first console holds its transaction open after making "ann"; the second makes
        // "bea" meanwhile and must not take the same id (which would rename ann to bea).
        let mut first = one.begin_write().await.unwrap();
        let ann = tafl_bot::store::users::find_or_create_local(&mut first, "ann", NOW).await.unwrap();
        let second = tokio::spawn(async move {
            let mut tx = two.begin_write().await.unwrap();
            let bea = tafl_bot::store::users::find_or_create_local(&mut tx, "bea", NOW).await.unwrap();
            let again = tafl_bot::store::users::find_or_create_local(&mut tx, "ann", NOW).await.unwrap();
            tx.commit().await.unwrap();
            (bea, again)
        });
        // Long enough for the second to reach its reads if nothing made it wait.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        first.commit().await.unwrap();
        let (bea, again) = second.await.unwrap();
        assert_ne!(ann, bea, "two players, two ids");
        assert_eq!(again, ann, "the second console finds ann's id once the first committed");
        let names: Vec<(i64, String)> = sqlx::query_as("SELECT id, name FROM users WHERE id > 0 ORDER BY id")
            .fetch_all(one.pool())
            .await
            .unwrap();
        assert_eq!(names, [(ann, "ann".to_owned()), (bea, "bea".to_owned())]);
    }
}

/// Polls `operation` up to `polls` times, letting other tasks run between, and drops it if it
/// has not finished by then: its output, or `None` when it was cancelled. Fewer polls cancel it
/// while it waits for a connection (or, on `SQLite`, for its turn to write), more while it waits
/// for the database's answers.
async fn cancel_after<T>(operation: impl std::future::Future<Output = T>, polls: usize) -> Option<T> {
    let mut operation = std::pin::pin!(operation);
    for _ in 0..polls {
        if let std::task::Poll::Ready(output) =
            std::future::poll_fn(|cx| std::task::Poll::Ready(operation.as_mut().poll(cx))).await
        {
            return Some(output);
        }
        tokio::task::yield_now().await;
    }
    None
}

/// Cancels 40 of `db`'s `begin_write`s and `begin_read`s at different points ([`cancel_after`]),
/// calling `check` with the round after each; fails if none was cancelled before it finished.
async fn cancel_begins(db: &tafl_bot::store::Db, mut check: impl AsyncFnMut(usize)) {
    let mut cancelled_in_flight = 0;
    for round in 0..40 {
        let polls = 1 + round / 2 % 10;
        let in_flight = if round % 2 == 0 {
            cancel_after(db.begin_write(), polls).await.is_none()
        } else {
            cancel_after(db.begin_read(), polls).await.is_none()
        };
        cancelled_in_flight += usize::from(in_flight);
        check(round).await;
    }
    assert!(cancelled_in_flight > 0, "no begin was cancelled before it finished");
}

/// A task cancelled while its transaction begins (an aborted delivery, a lane whose lease was
/// lost, a timeout) must not hand its connection back inside that transaction: the next
/// operation on it would run in the stale transaction, its `BEGIN` ignored with a warning, its
/// isolation not the one asked for, and after one error every statement on that connection would
/// fail until it was closed. sqlx 0.9.0 did exactly that on `PostgreSQL` (its issue 4393: the
/// depth its rollback-on-drop keys on was raised only after the `BEGIN` round trip); 0.9.1 queues
/// the rollback. Most likely what made a plain read at the end of the many-hosts test fail with
/// `HostError::Internal`, after every delivery task had been aborted (that run logged no cause;
/// the randomized test below shows the same error on 0.9.0).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_transaction_cancelled_while_it_begins_leaves_no_transaction_behind() {
    use tafl_bot::store::{Db, PoolSettings};

    /// Whether the pool's one connection is inside a transaction begun before this statement:
    /// outside one, `now()` (the transaction's start) is this statement's own start.
    async fn inside_an_old_transaction(db: &Db) -> bool {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        sqlx::query_scalar::<_, bool>("SELECT now() < statement_timestamp() - interval '10 milliseconds'")
            .fetch_one(db.pool())
            .await
            .expect("the connection answers")
    }

    Box::pin(support::on(support::Backend::Postgres, async {
        let database = support::postgres::database().await.expect("PostgreSQL was found before the test began");
        // One connection, so that the next operation gets the one the cancelled task used.
        let settings = PoolSettings { max_connections: 1, ..PoolSettings::default() };
        let db = Db::open_with_settings(&database.url, &settings).await.expect("the PostgreSQL database opens");
        cancel_begins(&db, async |round| {
            assert!(
                !inside_an_old_transaction(&db).await,
                "round {round}: the connection came back inside the cancelled task's transaction"
            );
            let mut tx = db.begin_write().await.expect("a write transaction begins on it");
            sqlx::query("SELECT 1").execute(&mut **tx).await.expect("and runs a statement");
            tx.commit().await.expect("and commits");
        })
        .await;
    }))
    .await;
}

/// The same on `SQLite`, where a connection left inside a cancelled `BEGIN IMMEDIATE` would hold
/// the file's write lock for good: every other writer, in this process or another, would wait
/// out its busy timeout and fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_transaction_cancelled_while_it_begins_leaves_no_lock_behind() {
    use tafl_bot::store::{Db, PoolSettings};

    let path = support::temp_path("cancelled-begin");
    let db = Db::open_file(&path).await.expect("the database opens");
    // Another process's handle, which gives up on a held write lock after 300 ms.
    let settings = PoolSettings { statement_timeout: std::time::Duration::from_millis(300), ..PoolSettings::default() };
    let other = Db::open_with_settings(&format!("sqlite:{}", path.display()), &settings).await.expect("it opens twice");
    cancel_begins(&db, async |round| {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let tx = other.begin_write().await.unwrap_or_else(|error| panic!("round {round}: another writer: {error}"));
        tx.commit().await.expect("commits");
        for _ in 0..2 {
            let tx = db.begin_write().await.unwrap_or_else(|error| panic!("round {round}: the same handle: {error}"));
            tx.commit().await.expect("commits");
            drop(db.begin_read().await.unwrap_or_else(|error| panic!("round {round}: a read: {error}")));
        }
    })
    .await;
}

support::both! { multi_thread
    /// Operations cancelled at random points (a move, a new board asked for, a delivery: a
    /// click's handler dropped, a delivery whose lease was lost, a task aborted at shutdown) are
    /// applied whole or not at all, and leave nothing
    /// behind that fails the next one: a game's moves, its record and its view agree after every
    /// cancellation, and at the end every outbox item is delivered. A randomized test: it prints
    /// its seed, and `TAFL_CANCEL_SEED=n` repeats a run. On sqlx 0.9.0 (see
    /// `postgres_a_transaction_cancelled_while_it_begins_leaves_no_transaction_behind`) a move
    /// after a cancelled one failed with an internal error in 6 runs of 10 on `PostgreSQL`
    /// (before the test asked for new boards too).
    async fn operations_cancelled_at_random_points_are_applied_whole_or_not_at_all() {
        let seed = std::env::var("TAFL_CANCEL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1
        });
        println!("cancellation test ({:?}): seed {seed} (TAFL_CANCEL_SEED={seed} repeats it)", support::backend());
        let mut rng = support::Rng(seed);
        let host = support::host().await;
        let view = game(&host, "brandubh").await;
        let moves = support::find_game(tafl_rules::Variant::Brandubh, tafl_rules::Reason::KingCaptured, 80);
        let players = [alice().id, bob().id];
        let mut cancelled = 0;
        let mut rounds = 0;
        loop {
            let current = host.show(view.id).await.unwrap_or_else(|error| panic!("seed {seed}: the game reads: {error}"));
            if current.is_over() {
                break;
            }
            let ply = current.ply;
            rounds += 1;
            assert!(rounds < 2_000, "seed {seed}: the game never ended");
            // One operation in four runs to its end; the others are dropped after 1 to 200 polls.
            let polls = if rng.below(4) == 0 { usize::MAX } else { 1 + rng.below(200) };
            let done = match rng.below(4) {
                0 | 1 => {
                    let mv = host.play(view.id, players[ply % 2], &moves[ply], Some(ply), NOW + ply as i64);
                    cancel_after(mv, polls).await.map(|played| match played {
                        // A cancelled move whose COMMIT was already sent landed meanwhile.
                        Ok(_) | Err(HostError::StaleBoard { .. }) => {}
                        Err(error) => panic!("seed {seed}: the move at ply {ply}: {error}"),
                    })
                }
                2 => cancel_after(host.request_board(view.id, players[ply % 2], NOW), polls).await.map(|asked| {
                    asked.unwrap_or_else(|error| panic!("seed {seed}: a new board: {error}"));
                }),
                _ => {
                    let deliver = async {
                        for head in host.claim_lanes(NOW * 1000, 5).await? {
                            host.delivered(head.id, None, NOW).await?;
                            host.release_lane(&head.lane, NOW * 1000).await?;
                        }
                        Ok::<(), HostError>(())
                    };
                    cancel_after(deliver, polls).await.map(|delivered| {
                        delivered.unwrap_or_else(|error| panic!("seed {seed}: a delivery: {error}"));
                    })
                }
            }
            .is_some();
            cancelled += usize::from(!done);
            // The moves and the record agree: the move was made whole or not at all. One snapshot
            // for both: a cancelled move whose COMMIT was already sent commits meanwhile.
            let mut tx = host.db().begin_read().await.unwrap_or_else(|error| panic!("seed {seed}: a read: {error}"));
            let stored: Vec<String> = sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(view.id)
                .fetch_all(&mut *tx)
                .await
                .unwrap_or_else(|error| panic!("seed {seed}: the moves read: {error}"));
            let record: String = sqlx::query_scalar("SELECT movetext FROM games WHERE id = $1")
                .bind(view.id)
                .fetch_one(&mut *tx)
                .await
                .unwrap_or_else(|error| panic!("seed {seed}: the record reads: {error}"));
            drop(tx);
            assert_eq!(stored, record.split_whitespace().collect::<Vec<_>>(), "seed {seed}: moves and record");
            assert!(stored.len() == ply || stored.len() == ply + 1, "seed {seed}: from ply {ply} to {}", stored.len());
            assert_eq!(stored, moves[..stored.len()], "seed {seed}: the moves are the game's");
            let now = host.show(view.id).await.unwrap_or_else(|error| panic!("seed {seed}: the game reads: {error}"));
            assert!(now.ply >= stored.len() && now.ply <= ply + 1, "seed {seed}: the view at ply {}", now.ply);
        }
        // Everything recorded is delivered, lanes left claimed by cancelled deliveries included
        // (their leases have run out by this later clock).
        let later = (NOW + 3_600) * 1000;
        for looks in 0.. {
            // Each look delivers at least one item, and a game of at most 80 plies records a few
            // per ply: a drain that goes on and on is an item delivered again and again.
            assert!(looks < 1_000, "seed {seed}: the outbox never drains");
            let heads = host.claim_lanes(later, 50).await.unwrap_or_else(|error| panic!("seed {seed}: claim: {error}"));
            if heads.is_empty() {
                break;
            }
            for head in heads {
                host.delivered(head.id, None, NOW).await.unwrap_or_else(|error| panic!("seed {seed}: delivered: {error}"));
                host.release_lane(&head.lane, NOW * 1000).await.unwrap_or_else(|error| panic!("seed {seed}: release: {error}"));
            }
        }
        let pending: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE state = 'pending'")
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(pending, 0, "seed {seed}: outbox items left undelivered");
        let done: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE state = 'done'")
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert!(done > 0, "seed {seed}: the game's moves recorded nothing to show");
        println!("seed {seed}: {rounds} operations, {cancelled} cancelled before they finished");
        assert!(cancelled > 0, "seed {seed}: nothing was cancelled");
    }
}

support::both! { multi_thread
    async fn games_against_one_level_ending_at_once_all_count_in_its_rating() {
        const PEOPLE: i64 = 8;
        let (one, two) = two_hosts().await;
        let bots = BotPlayer::new(one.clone(), SearchPool::new(1), Arc::new(|_| {}));
        let mut games = Vec::new();
        for n in 0..PEOPLE {
            let person = User::new(300 + n, &format!("p{n}"));
            let req = support::request(&person, None, "brandubh", SideChoice::Attackers);
            let g = one.challenge_bot(&req, 1, true, NOW).await.unwrap();
            let mv = one.legal_moves(g.id, person.id, "", 1).await.unwrap()[0].notation.clone();
            one.play(g.id, person.id, &mv, None, NOW).await.unwrap();
            games.push((g.id, person.id));
        }
        bots.settle(NOW).await.unwrap();
        // Everyone resigns at once, half through each pool: each game rates level 1 anew.
        let barrier = Arc::new(Barrier::new(games.len()));
        let mut resigning = Vec::new();
        for (n, &(game, person)) in games.iter().enumerate() {
            let host = if n % 2 == 0 { one.clone() } else { two.clone() };
            let barrier = Arc::clone(&barrier);
            resigning.push(tokio::spawn(async move {
                barrier.wait().await;
                host.resign(game, person, None, NOW + 1).await
            }));
        }
        for r in resigning {
            r.await.unwrap().unwrap();
        }
        let counts: Vec<i64> = sqlx::query_scalar("SELECT games FROM ratings WHERE user_id = -1 ORDER BY scope")
            .fetch_all(one.db().pool())
            .await
            .unwrap();
        assert_eq!(counts, [PEOPLE, PEOPLE], "every game counted, globally and on the server");
        // Each change starts from the rating another left (or the first's from the start): no
        // two started from the same one.
        let changes: Vec<(f64, f64)> = sqlx::query_as(
            "SELECT rating_before, rating_after FROM rating_changes WHERE user_id = -1 AND scope = 0",
        )
        .fetch_all(one.db().pool())
        .await
        .unwrap();
        assert_eq!(changes.len() as i64, PEOPLE);
        let afters: Vec<f64> = changes.iter().map(|c| c.1).collect();
        let starts = changes.iter().filter(|c| !afters.contains(&c.0)).count();
        assert_eq!(starts, 1, "one chain of changes: {changes:?}");
    }
}

support::both! { multi_thread
    async fn two_games_against_the_bot_asked_at_once_at_the_limit_start_only_one() {
        let (one, two) = two_hosts().await;
        let req = support::request(&alice(), None, "brandubh", SideChoice::Attackers);
        for _ in 1..MAX_BOT_GAMES {
            one.challenge_bot(&req, 1, false, NOW).await.unwrap();
        }
        for _ in 0..ROUNDS / 6 {
            let barrier = Arc::new(Barrier::new(2));
            let ask = |host: Host| {
                let (barrier, req) = (Arc::clone(&barrier), req.clone());
                tokio::spawn(async move {
                    barrier.wait().await;
                    host.challenge_bot(&req, 1, false, NOW).await
                })
            };
            let (first, second) = (ask(one.clone()), ask(two.clone()));
            let results = [first.await.unwrap(), second.await.unwrap()];
            let started: Vec<i64> = results.iter().filter_map(|r| r.as_ref().ok().map(|g| g.id)).collect();
            assert_eq!(started.len(), 1, "{results:?}");
            assert!(results.iter().any(|r| matches!(r, Err(HostError::TooManyBotGames(MAX_BOT_GAMES)))));
            // Back to one below the limit for the next round.
            one.resign(started[0], alice().id, None, NOW).await.unwrap();
        }
    }
}
