//! Two processes answering two clicks at once: two pools on one database file (as two bot
//! processes would have), two tasks playing for the same game at the same instant. Exactly one
//! move is applied; the other request is refused with "the board has changed".

mod support;

use std::sync::Arc;

use support::{NOW, alice, bob, game, said, temp_path};
use tafl_bot::host::{ChallengeState, Host, HostError};
use tafl_bot::store::Db;
use tokio::sync::Barrier;

const ROUNDS: usize = 60;

/// Two hosts on separate pools of one file.
async fn two_hosts() -> (Host, Host) {
    let path = temp_path("race");
    let first = Host::new(Db::open_file(&path).await.unwrap());
    let second = Host::new(Db::open_file(&path).await.unwrap());
    (first, second)
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
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = ?")
        .bind(game)
        .fetch_one(host.db().pool())
        .await
        .unwrap();
    assert_eq!(moves, 1, "one row in the move list");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_move_sent_twice_at_once_through_two_pools_is_applied_once() {
    let (one, two) = two_hosts().await;
    for _ in 0..ROUNDS {
        let g = game(&one, "copenhagen").await;
        let results = race(&one, &two, g.id, "d1-d3", "d1-d3", 0).await;
        check_one_applied(&two, g.id, &results).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
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
    let stored: Vec<String> = sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = ? ORDER BY ply")
        .bind(g.id)
        .fetch_all(one.db().pool())
        .await
        .unwrap();
    assert_eq!(&stored, moves.as_ref());
    assert!(one.show(g.id).await.unwrap().ending.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
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
