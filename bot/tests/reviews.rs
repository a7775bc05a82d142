//! Post-game reviews through the host on a real database file: asked for when a game ends,
//! durable across a restart, run by the review loop, recorded once with the outbox item that
//! edits the summary, and shown in the summary's words and chart.

mod support;

use std::time::Duration;

use support::{NOW, alice, bob, find_game, game, host, request, temp_path};
use tafl_bot::host::review::{self, PLY_LIMITS};
use tafl_bot::host::search_pool::{Priority, SearchPool};
use tafl_bot::host::{Host, Place, ReviewState, Show, SideChoice};
use tafl_bot::present::Lang;
use tafl_bot::present::summary::summary_text;
use tafl_bot::store::Db;
use tafl_rules::{Game, MoveText, Position, Reason, Side, Variant};

/// Plays `moves` in the game `id` (alice the attackers, bob the defenders).
async fn play_all(host: &Host, id: i64, moves: &[String]) {
    for (n, mv) in moves.iter().enumerate() {
        let player = if n % 2 == 0 { alice() } else { bob() };
        host.play(id, player.id, mv, Some(n), NOW + 10 + n as i64).await.unwrap();
    }
}

/// The outbox items of one kind recorded for a game.
async fn items(host: &Host, game: i64, kind: &str) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM outbox WHERE lane = 'game:' || $1 AND kind = $2")
        .bind(game)
        .bind(kind)
        .fetch_one(host.db().pool())
        .await
        .unwrap()
}

fn record(moves: &[String]) -> Game {
    let mut game = Game::new(Position::new(Variant::Brandubh.rules()).unwrap());
    for mv in moves {
        game.play_text(&mv.parse::<MoveText>().unwrap()).unwrap();
    }
    game
}

support::both! {
    async fn a_game_that_ends_asks_for_its_review_and_one_in_progress_does_not() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
        play_all(&host, g.id, &moves[..2]).await;
        assert!(host.pending_reviews().await.unwrap().is_empty(), "a game in progress is not reviewed");
        assert_eq!(host.summary(g.id).await.unwrap().review, None);

        play_all_from(&host, g.id, &moves, 2).await;
        assert_eq!(host.pending_reviews().await.unwrap(), [g.id]);
        let summary = host.summary(g.id).await.unwrap();
        assert_eq!(summary.review, Some(ReviewState::Pending));
        assert!(summary.series().evaluation.is_none(), "no chart before the review");
        let words = summary_text(&summary, Lang::console("en")).description;
        assert!(words.ends_with("Engine review: in progress…"), "{words}");
        let words = summary_text(&summary, Lang::console("ru")).description;
        assert!(words.ends_with("Разбор движком: идёт…"), "{words}");
    }
}

support::both! {
    async fn a_game_that_ends_before_each_side_has_moved_is_not_reviewed() {
        let host = host().await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
        // Resigned after the first move: nothing to review, and the summary says nothing of it.
        let short = game(&host, "brandubh").await;
        play_all(&host, short.id, &moves[..1]).await;
        host.resign(short.id, bob().id, None, NOW + 20).await.unwrap();
        // Resigned after each side has moved once: reviewed.
        let counted = game(&host, "brandubh").await;
        play_all(&host, counted.id, &moves[..2]).await;
        host.resign(counted.id, alice().id, None, NOW + 20).await.unwrap();
        assert_eq!(host.pending_reviews().await.unwrap(), [counted.id]);
        let summary = host.summary(short.id).await.unwrap();
        assert_eq!(summary.review, None);
        let words = summary_text(&summary, Lang::console("en")).description;
        assert!(!words.contains("Engine review"), "{words}");
        assert_eq!(host.summary(counted.id).await.unwrap().review, Some(ReviewState::Pending));
        // A review an earlier version asked for such a game is not shown either.
        sqlx::query("INSERT INTO reviews (game_id, created_at) VALUES ($1, $2)")
            .bind(short.id)
            .bind(NOW + 20)
            .execute(host.db().pool())
            .await
            .unwrap();
        assert_eq!(host.summary(short.id).await.unwrap().review, None);
    }
}

async fn play_all_from(host: &Host, id: i64, moves: &[String], from: usize) {
    for (n, mv) in moves.iter().enumerate().skip(from) {
        let player = if n % 2 == 0 { alice() } else { bob() };
        host.play(id, player.id, mv, Some(n), NOW + 10 + n as i64).await.unwrap();
    }
}

support::both! {
    async fn a_review_given_up_redraws_the_summary_without_its_pending_line() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
        play_all(&host, g.id, &moves).await;
        assert_eq!(host.summary(g.id).await.unwrap().review, Some(ReviewState::Pending));
        // The stored rules no longer read, so every try fails.
        let rules: String = sqlx::query_scalar("SELECT rules FROM games WHERE id = $1")
            .bind(g.id)
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        let set_rules = |text: String| {
            sqlx::query("UPDATE games SET rules = $1 WHERE id = $2").bind(text).bind(g.id).execute(host.db().pool())
        };
        set_rules("dim:0".to_owned()).await.unwrap();
        let pool = SearchPool::new(1);
        for _ in 0..3 {
            assert!(host.review_game(g.id, &pool, NOW).await.is_err());
        }
        assert!(host.pending_reviews().await.unwrap().is_empty(), "given up");
        // Given up in the same transaction as the item that redraws the summary, which then
        // says nothing of a review.
        assert_eq!(items(&host, g.id, "review").await, 1);
        set_rules(rules).await.unwrap();
        let summary = host.summary(g.id).await.unwrap();
        assert_eq!(summary.review, None, "{:?}", summary.review);
        let words = summary_text(&summary, Lang::console("en")).description;
        assert!(!words.contains("Engine review"), "{words}");
        // Once given up, the review is not tried again, and nothing more is recorded.
        assert_eq!(host.review_game(g.id, &pool, NOW).await.unwrap(), None);
        assert_eq!(items(&host, g.id, "review").await, 1);
    }
}

/// A review whose game cannot be read for a moment (`PostgreSQL` busy: here a lock on its players held past the
/// statement timeout) is tried again later, not counted as a game that cannot be rebuilt: three
/// such moments gave the review up for good and took its line off the summary.
#[tokio::test]
async fn a_review_is_not_given_up_for_a_database_busy_for_a_moment() {
    let Some(database) = support::postgres::database().await else { return };
    let settings =
        tafl_bot::store::PoolSettings { statement_timeout: Duration::from_millis(300), ..Default::default() };
    let host = Host::new(Db::open_with_settings(&database.url, &settings).await.expect("the database opens"));
    let g = game(&host, "brandubh").await;
    play_all(&host, g.id, &find_game(Variant::Brandubh, Reason::KingEscaped, 60)).await;
    let pool = SearchPool::new(1);
    let mut lock = host.db().pool().begin().await.unwrap();
    sqlx::query("LOCK TABLE users IN ACCESS EXCLUSIVE MODE").execute(&mut *lock).await.unwrap();
    for _ in 0..3 {
        let busy = host.review_game(g.id, &pool, NOW).await.expect_err("the game cannot be read");
        assert!(matches!(busy, tafl_bot::host::HostError::Storage(_)), "{busy:?}");
    }
    lock.rollback().await.unwrap();
    assert_eq!(host.pending_reviews().await.unwrap(), [g.id], "still pending");
    assert_eq!(items(&host, g.id, "review").await, 0, "the summary is not redrawn without its review");
    assert!(host.review_game(g.id, &pool, NOW).await.unwrap().is_some(), "reviewed once it can be read");
}

support::both! {
    async fn a_process_serving_some_shards_reviews_their_servers_games_and_others_left_waiting() {
        let host = host().await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
        let own = game(&host, "brandubh").await;
        // Discord puts a server on shard (id >> 22) % count: PLACE's server on shard 0, this one on 1.
        let mut elsewhere = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
        elsewhere.place = Place { guild: 1 << 22, channel: 3, thread: None };
        let mut others = Vec::new();
        for _ in 0..2 {
            let challenge = host.challenge(&elsewhere, NOW).await.unwrap();
            others.push(host.accept(challenge.id, &bob(), NOW + 1).await.unwrap().game.id);
        }
        for id in [own.id, others[0], others[1]] {
            play_all(&host, id, &moves).await;
        }
        // One of the other server's reviews was asked for long ago: its process may be down.
        sqlx::query("UPDATE reviews SET created_at = 0 WHERE game_id = $1")
            .bind(others[1])
            .execute(host.db().pool())
            .await
            .unwrap();
        assert_eq!(host.pending_reviews().await.unwrap(), [own.id, others[0], others[1]]);
        let sharded = host.with_shards(0, 0, 2);
        assert_eq!(sharded.pending_reviews().await.unwrap(), [own.id, others[1]]);
    }
}

#[tokio::test]
async fn a_pending_review_survives_a_restart_and_the_loop_records_it_once_with_the_summary_edit() {
    let path = temp_path("reviews");
    let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
    let id = {
        let host = Host::new(Db::open_file(&path).await.unwrap());
        let g = game(&host, "brandubh").await;
        play_all(&host, g.id, &moves).await;
        // The process stops before reviewing anything.
        host.db().close().await;
        g.id
    };

    let host = Host::new(Db::open_file(&path).await.unwrap());
    assert_eq!(host.pending_reviews().await.unwrap(), [id], "the restarted bot finds the review");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let running = tokio::spawn(review::run(host.clone(), SearchPool::new(1), Duration::from_millis(20), move || {
        let _ = tx.send(());
    }));
    tokio::time::timeout(Duration::from_mins(1), rx.recv()).await.expect("reviewed within a minute").unwrap();
    running.abort();

    let summary = host.summary(id).await.unwrap();
    let Some(ReviewState::Done(found)) = &summary.review else { panic!("{:?}", summary.review) };
    // The same review as the engine gives the record directly (a node budget is deterministic).
    let expected = review::review(&record(&moves), &PLY_LIMITS);
    assert_eq!(found, &expected);
    assert_eq!(found.evaluation.len(), moves.len() + 1);
    assert_eq!(summary.series().evaluation.map(|e| e.len()), Some(moves.len() + 1));
    // The defenders won: the last position is theirs at the cap.
    assert_eq!(found.evaluation.last(), Some(&-review::SCORE_CAP));
    let words = summary_text(&summary, Lang::console("en")).description;
    let line = words.lines().last().unwrap();
    match &found.turning_point {
        Some(t) => {
            assert_eq!(t.side, if t.ply % 2 == 1 { Side::Attackers } else { Side::Defenders });
            assert!(line.starts_with(&format!("Turning point: ply {},", t.ply)), "{line}");
            assert!(line.contains(&t.played) && line.contains(&t.better), "{line}");
            let ru = summary_text(&summary, Lang::console("ru")).description;
            assert!(ru.contains(&format!("Перелом партии: {}-й полуход", t.ply)), "{ru}");
        }
        None => assert_eq!(line, "Engine review: no move gave away the advantage."),
    }

    // One outbox item edits the summary; reviewing again finds nothing to do.
    assert_eq!(items(&host, id, "review").await, 1);
    // In the game's lane the review comes after the summary, so the summary is posted first.
    let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM outbox WHERE lane = 'game:' || $1 ORDER BY id")
        .bind(id)
        .fetch_all(host.db().pool())
        .await
        .unwrap();
    let summary = kinds.iter().position(|k| k == "summary").unwrap();
    assert_eq!(kinds.iter().position(|k| k == "review"), Some(kinds.len() - 1));
    assert!(summary < kinds.len() - 1, "{kinds:?}");
    assert_eq!(host.review_game(id, &SearchPool::new(1), NOW).await.unwrap(), None);
    assert_eq!(items(&host, id, "review").await, 1);
    assert!(host.pending_reviews().await.unwrap().is_empty());
}

support::both! { multi_thread
    async fn a_review_on_the_bots_pool_lets_a_waiting_bot_move_go_first_and_still_finishes() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
        play_all(&host, g.id, &moves).await;
        // One search thread, held by a search already running.
        let pool = SearchPool::new(1);
        let (release, on_release) = std::sync::mpsc::channel::<()>();
        let (started, on_started) = tokio::sync::oneshot::channel::<()>();
        let running = pool.submit_work(Priority::Move, 0, move |_| {
            started.send(()).unwrap();
            on_release.recv().unwrap();
        });
        // Until the thread takes it, that search is itself a waiting job, and `waiting()` below
        // would count it instead of the review's position.
        on_started.await.unwrap();
        let review = tokio::spawn({
            let (host, pool) = (host.clone(), pool.clone());
            async move { host.review_game(g.id, &pool, NOW).await }
        });
        // The review's first position waits for the thread; then a bot move is asked for.
        tokio::time::timeout(Duration::from_secs(10), async {
            while pool.waiting() == 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await
        .expect("the review queues its first position");
        let bot_move = pool.submit_work(Priority::Move, NOW, {
            let pool = pool.clone();
            move |_| pool.waiting()
        });
        release.send(()).unwrap();
        running.await.unwrap().unwrap();
        assert_eq!(bot_move.await.unwrap(), Ok(1), "the bot's move ran while the review's position still waited");

        let found = review.await.unwrap().unwrap().expect("the review is recorded");
        assert_eq!(found, review::review(&record(&moves), &PLY_LIMITS), "the same review as on one thread");
        assert!(matches!(host.summary(g.id).await.unwrap().review, Some(ReviewState::Done(_))));
        assert_eq!(items(&host, g.id, "review").await, 1, "the summary is edited");
    }
}

support::both! {
    async fn a_summary_message_is_found_once_the_delivery_posted_it() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
        play_all(&host, g.id, &moves).await;
        assert_eq!(host.summary_message(g.id).await.unwrap(), None);
        let summary = host
            .outbox_heads(NOW)
            .await
            .unwrap()
            .into_iter()
            .find(|p| p.lane == format!("game:{}", g.id))
            .expect("the game's lane has items");
        // The lane's items in order: deliver them all, the summary as message 777.
        let mut head = Some(summary);
        while let Some(item) = head {
            let message = (item.show == Show::Summary { game: g.id }).then_some(777);
            host.delivered(item.id, message, NOW).await.unwrap();
            head = host.outbox_head(&item.lane, NOW).await.unwrap();
        }
        assert_eq!(host.summary_message(g.id).await.unwrap(), Some(777));
    }
}

/// A game the defenders lose by a third repetition names the move that made it, not a harmless
/// one before it. The search scored a repetition's second occurrence as the attackers' win, so
/// the evaluation jumped to its cap at plies 4 and 6 of an even game, and the review named the
/// defenders' d7-d6 at ply 4, after which they were still free to step aside (an outside review).
#[test]
fn a_game_lost_by_repetition_is_turned_at_the_move_that_repeated_for_the_third_time() {
    let mut game = Game::new(Position::new(Variant::Copenhagen.rules()).expect("a preset"));
    for mv in "a4-a3 d6-d7 a3-a4 d7-d6 a4-a3 d6-d7 a3-a4 d7-d6".split_whitespace() {
        game.play(mv.parse().expect("a move")).expect("legal");
    }
    assert_eq!(game.status().reason(), Some(Reason::Repetition), "{:?}", game.status());
    let found = review::review(&game, &PLY_LIMITS);
    let before_the_end = &found.evaluation[..found.evaluation.len() - 1];
    assert!(
        before_the_end.iter().all(|score| score.abs() < 1_000),
        "an even game until the third occurrence: {:?}",
        found.evaluation
    );
    let turning = found.turning_point.clone().expect("the game was lost by a move");
    assert_eq!((turning.ply, turning.side, turning.played.as_str()), (8, Side::Defenders, "d7-d6"), "{found:?}");
}

// ----- several processes on one PostgreSQL database: reviews of another's shards taken over -----

fn real_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// Three processes on one database, "owner", "one" and "two", serving shards 0, 1 and 2 of 3,
/// and two games that ended in server 1 (on shard 0, the owner's) whose reviews were asked for
/// long ago; `None` when `PostgreSQL` tests are skipped here.
async fn three_processes_and_two_reviews() -> Option<(support::postgres::TestDatabase, [Host; 3], [i64; 2])> {
    let (database, hosts) = support::three_processes().await?;
    let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 60);
    let mut games = Vec::new();
    for _ in 0..2 {
        let id = game(&hosts[0], "brandubh").await.id;
        play_all(&hosts[0], id, &moves).await;
        games.push(id);
    }
    // The owner is down: the reviews waited past the grace.
    sqlx::query("UPDATE reviews SET created_at = 0").execute(hosts[0].db().pool()).await.unwrap();
    Some((database, hosts, games.try_into().unwrap()))
}

async fn review_taken(host: &Host, game: i64) -> Option<String> {
    let mut conn = host.db().pool().acquire().await.unwrap();
    tafl_bot::store::reviews::taken(&mut conn, game).await.unwrap()
}

/// What holds a pool's thread, and lets it go when dropped.
type Holder =
    (std::sync::mpsc::Sender<()>, tokio::sync::oneshot::Receiver<Result<bool, tafl_bot::host::search_pool::PoolError>>);

/// A pool whose one thread is held until the holder is dropped, so that a review on it waits at
/// its first position.
async fn held_pool() -> (SearchPool, Holder) {
    let pool = SearchPool::new(1);
    let (release, held) = std::sync::mpsc::channel::<()>();
    let blocker = pool.submit_work(Priority::Move, i64::MIN, move |_| held.recv().is_ok());
    let start = std::time::Instant::now();
    while pool.waiting() > 0 {
        assert!(start.elapsed() < Duration::from_secs(30), "the pool's thread is held");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    (pool, (release, blocker))
}

/// Reviews `game` on `host` at `now` in a task of its own, once it holds the review's claim.
async fn reviewing(
    host: &Host,
    game: i64,
    pool: &SearchPool,
    now: i64,
) -> tokio::task::JoinHandle<Result<Option<review::Review>, tafl_bot::host::HostError>> {
    let task = tokio::spawn({
        let (host, pool) = (host.clone(), pool.clone());
        async move { host.review_game(game, &pool, now).await }
    });
    let start = std::time::Instant::now();
    while review_taken(host, game).await.as_deref() != Some(host.process_id()) {
        assert!(start.elapsed() < Duration::from_secs(30), "the review is claimed as it is taken on");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    task
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_review_taken_over_by_one_process_is_left_alone_by_the_others() {
    let Some((_database, [owner, one, two], [first, second])) = three_processes_and_two_reviews().await else {
        return;
    };
    assert_eq!(one.pending_reviews().await.unwrap(), [first, second]);
    assert_eq!(two.pending_reviews().await.unwrap(), [first, second], "both see the owner's reviews");

    let (pool, release) = held_pool().await;
    let task = reviewing(&one, first, &pool, real_now()).await;
    assert_eq!(two.pending_reviews().await.unwrap(), [second], "two leaves the first review to one");
    assert_eq!(one.pending_reviews().await.unwrap(), [first, second], "one still has its claim's review");
    assert_eq!(owner.pending_reviews().await.unwrap(), [first, second], "its own process lists it whatever the claim");
    assert_eq!(two.review_game(first, &SearchPool::new(1), real_now()).await.unwrap(), None, "nor reviews it");
    assert_eq!(review_taken(&two, first).await.as_deref(), Some("one"));

    drop(release);
    assert!(task.await.unwrap().unwrap().is_some(), "one reviews it");
    assert_eq!(review_taken(&one, first).await, None, "the claim ends with the review");
    assert_eq!(two.pending_reviews().await.unwrap(), [second]);
    assert!(two.review_game(second, &SearchPool::new(1), real_now()).await.unwrap().is_some());
    assert!(owner.pending_reviews().await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_review_whose_claim_ran_out_is_anyones_again() {
    let Some((_database, [_owner, one, two], [first, second])) = three_processes_and_two_reviews().await else {
        return;
    };
    // One took the review on two graces ago and stalled (or died): its claim ran out a grace ago.
    let grace = review::FOREIGN_REVIEW_GRACE.as_secs() as i64;
    let (pool, release) = held_pool().await;
    let stalled = reviewing(&one, first, &pool, real_now() - 2 * grace).await;
    assert_eq!(two.pending_reviews().await.unwrap(), [first, second], "the claim that ran out holds nothing");
    let (pool_two, release_two) = held_pool().await;
    let taken_over = reviewing(&two, first, &pool_two, real_now()).await;
    assert_eq!(one.pending_reviews().await.unwrap(), [second], "and one, back, leaves it to two");

    drop(release_two);
    assert!(taken_over.await.unwrap().unwrap().is_some(), "two reviews it");
    drop(release);
    assert_eq!(stalled.await.unwrap().unwrap(), None, "one's review comes too late to be recorded");
    assert_eq!(items(&two, first, "review").await, 1, "the summary is edited once");
}
