//! Summaries, ratings, leaderboards and profiles through the host, on a real database file:
//! a summary for a game ending in each reason checked field by field; ratings that change only
//! for counted games, in both scopes, in the transaction that ends the game.

mod support;

use std::process::Command;

use support::{NOW, PLACE, alice, bob, carol, find_game, host, request, said, snapshot};
use tafl_bot::host::{
    Conclusion, EndReason, Ending, GameView, Host, HostError, OfferAction, Place, PlayerResult, Scope, SideChoice,
    SideRecord, Streak, Summary, User,
};
use tafl_rules::otn::{GameRecord, RecordEnd};
use tafl_rules::{MoveText, Reason, Side, Square, Status, Variant};

/// Seconds between two plies in these games, so durations are known.
const PLY_SECONDS: i64 = 60;
/// Legal opening plies of Brandubh that capture nothing (the local console's repetition test).
const SHUFFLE: [&str; 4] = ["a4-a5", "d5-e5", "a5-a4", "e5-d5"];

/// Starts a game of `variant` at `place` with `attacker` against `defender`, created at `at`.
async fn game_between(host: &Host, variant: &str, attacker: &User, defender: &User, place: Place, at: i64) -> GameView {
    let mut req = request(attacker, Some(defender), variant, SideChoice::Attackers);
    req.place = place;
    let challenge = host.challenge(&req, at).await.unwrap();
    host.accept(challenge.id, defender, at).await.unwrap().game
}

/// Plays `moves` in turn from ply 0, ply n at `start + n * PLY_SECONDS`; returns the time of
/// the last.
async fn play_all<S: AsRef<str>>(host: &Host, game: &GameView, moves: &[S], start: i64) -> i64 {
    let mut at = start;
    for (n, mv) in moves.iter().enumerate() {
        at = start + (n as i64 + 1) * PLY_SECONDS;
        let side = if n % 2 == 0 { Side::Attackers } else { Side::Defenders };
        host.play(game.id, game.player(side).id, mv.as_ref(), Some(n), at).await.unwrap();
    }
    at
}

/// Pieces captured by (attackers, defenders), counted from the moves' written captures
/// (`e1-e3xe2/e4`), independently of the host.
fn captures_in_notation<S: AsRef<str>>(moves: &[S]) -> (usize, usize) {
    let mut counts = (0, 0);
    for (n, mv) in moves.iter().enumerate() {
        let taken = mv.as_ref().split_once('x').map_or(0, |(_, caps)| caps.split('/').count());
        if n % 2 == 0 {
            counts.0 += taken;
        } else {
            counts.1 += taken;
        }
    }
    counts
}

fn destination(notation: &str) -> Square {
    notation.parse::<MoveText>().unwrap().mv.to
}

/// The ratings tables as text, to prove that something changed none of them.
async fn ratings_snapshot(host: &Host) -> String {
    let pool = host.db().pool();
    let mut out = String::new();
    for sql in [
        // Portable SQL (string_agg, values cast to text), as in `support::snapshot`.
        "SELECT string_agg(CAST(user_id AS TEXT) || '|' || family || '|' || CAST(scope AS TEXT) || '|' || CAST(rating AS TEXT) \
         || '|' || CAST(deviation AS TEXT) || '|' || CAST(games AS TEXT), ';' ORDER BY user_id, family, scope) FROM ratings",
        "SELECT string_agg(CAST(game_id AS TEXT) || '|' || CAST(user_id AS TEXT) || '|' || CAST(scope AS TEXT) || '|' \
         || CAST(rating_after AS TEXT), ';' ORDER BY game_id, user_id, scope) FROM rating_changes",
    ] {
        let row: Option<String> = sqlx::query_scalar(sql).fetch_one(pool).await.unwrap();
        out.push_str(&row.unwrap_or_default());
        out.push('\n');
    }
    out
}

/// Checks what every finished summary must say: plies, full moves, captures from the notation,
/// duration from creation to the last action, and the winner.
fn check_common(summary: &Summary, moves: &[String], created: i64, finished: i64, winner: Option<Side>) {
    assert_eq!(summary.plies, moves.len());
    assert_eq!(summary.full_moves, moves.len().div_ceil(2));
    let recorded: Vec<String> = summary.record.moves().iter().map(|m| m.text().to_string()).collect();
    assert_eq!(&recorded, moves, "the summary's game is the game played");
    let (by_attackers, by_defenders) = captures_in_notation(moves);
    assert_eq!(summary.captured_by_attackers, by_attackers);
    assert_eq!(summary.captured_by_defenders, by_defenders);
    assert_eq!(summary.created_at, created);
    assert_eq!(summary.finished_at, Some(finished));
    assert_eq!(summary.duration, Some(finished - created));
    assert_eq!(summary.winner(), winner);
    assert_eq!(summary.game.attacker, alice());
    assert_eq!(summary.game.defender, bob());
}

// ----- a summary for each way a game ends -----

support::both! {
    async fn an_escape_is_summarised_with_the_corner_reached_and_both_scopes_ratings() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 200);
        let end = play_all(&host, &g, &moves, NOW).await;
        let s = host.summary(g.id).await.unwrap();
        check_common(&s, &moves, NOW, end, Some(Side::Defenders));
        let at = destination(moves.last().unwrap());
        assert_eq!(s.conclusion, Conclusion::KingEscaped { at });
        assert!(["a1", "a7", "g1", "g7"].contains(&at.to_string().as_str()), "the king escapes to a corner, not {at}");
        // Global first, then the server; the attacker first within each.
        let changes: Vec<(i64, Scope, f64)> = s.rating_changes.iter().map(|c| (c.user.id, c.scope, c.before)).collect();
        assert_eq!(
            changes,
            vec![
                (alice().id, Scope::Global, 1500.0),
                (bob().id, Scope::Global, 1500.0),
                (alice().id, Scope::Server(PLACE.guild), 1500.0),
                (bob().id, Scope::Server(PLACE.guild), 1500.0),
            ]
        );
        for change in &s.rating_changes {
            assert_eq!(change.family, "seed-001");
            let won = change.user == bob();
            assert_eq!(change.after > change.before, won, "{change:?}");
            assert!(change.deviation_after < change.deviation_before);
        }
    }
}

support::both! {
    async fn a_captured_king_is_summarised_with_the_square_where_he_fell() {
        let host = host().await;
        let g = game_between(&host, "tablut", &alice(), &bob(), PLACE, NOW).await;
        let moves = find_game(Variant::Tablut, Reason::KingCaptured, 300);
        let end = play_all(&host, &g, &moves, NOW).await;
        let s = host.summary(g.id).await.unwrap();
        check_common(&s, &moves, NOW, end, Some(Side::Attackers));
        let Conclusion::KingCaptured { at } = s.conclusion else { panic!("{:?}", s.conclusion) };
        assert_eq!(at, s.game.position.king());
        let last = destination(moves.last().unwrap());
        let distance = at.file().abs_diff(last.file()) + at.rank().abs_diff(last.rank());
        assert_eq!(distance, 1, "the capturing attacker landed next to the king at {at}");
    }
}

support::both! {
    async fn an_exit_fort_is_summarised_with_the_kings_square_on_the_edge() {
        let host = host().await;
        let g = game_between(&host, "copenhagen", &alice(), &bob(), PLACE, NOW).await;
        let moves = find_game(Variant::Copenhagen, Reason::ExitFort, 300);
        let end = play_all(&host, &g, &moves, NOW).await;
        let s = host.summary(g.id).await.unwrap();
        check_common(&s, &moves, NOW, end, Some(Side::Defenders));
        let Conclusion::ExitFort { at } = s.conclusion else { panic!("{:?}", s.conclusion) };
        assert_eq!(at, s.game.position.king());
        assert!([0, 10].contains(&at.file()) || [0, 10].contains(&at.rank()), "the fort's king is on the edge, not {at}");
        assert_eq!(s.rating_changes[0].family, "copenhagen");
    }
}

support::both! {
    async fn a_repetition_draw_is_summarised_and_leaves_equal_newcomers_at_their_rating() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        let moves: Vec<String> = SHUFFLE.iter().chain(SHUFFLE.iter()).map(|m| (*m).to_owned()).collect();
        let end = play_all(&host, &g, &moves, NOW).await;
        let s = host.summary(g.id).await.unwrap();
        check_common(&s, &moves, NOW, end, None);
        assert_eq!(s.conclusion, Conclusion::Repetition);
        assert_eq!(s.game.ending, Some(Ending { winner: None, reason: EndReason::Board(Reason::Repetition) }));
        assert_eq!((s.captured_by_attackers, s.captured_by_defenders), (0, 0));
        assert_eq!(s.rating_changes.len(), 4);
        for change in &s.rating_changes {
            assert!((change.after - 1500.0).abs() < 1e-9, "{change:?}");
            assert!(change.deviation_after < change.deviation_before, "a game makes the rating surer");
        }
    }
}

support::both! {
    async fn no_legal_move_is_summarised_with_the_side_left_without_one() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        let moves = find_game(Variant::Brandubh, Reason::NoMoves, 300);
        let end = play_all(&host, &g, &moves, NOW).await;
        let s = host.summary(g.id).await.unwrap();
        let Conclusion::NoMoves { side } = s.conclusion else { panic!("{:?}", s.conclusion) };
        check_common(&s, &moves, NOW, end, Some(side.opponent()));
        assert_eq!(side, s.game.position.to_move());
        assert!(!s.game.position.has_legal_move());
    }
}

support::both! {
    async fn a_resignation_is_summarised_with_who_resigned() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        let moves: Vec<String> = SHUFFLE[..3].iter().map(|m| (*m).to_owned()).collect();
        let end = play_all(&host, &g, &moves, NOW).await + 5;
        host.resign(g.id, bob().id, None, end).await.unwrap();
        let s = host.summary(g.id).await.unwrap();
        check_common(&s, &moves, NOW, end, Some(Side::Attackers));
        assert_eq!(s.conclusion, Conclusion::Resignation { side: Some(Side::Defenders) });
        assert_eq!(s.rating_changes.len(), 4, "three plies are enough to be rated");
    }
}

support::both! {
    async fn a_loss_on_time_is_summarised_with_who_ran_out() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        let moves: Vec<String> = SHUFFLE[..2].iter().map(|m| (*m).to_owned()).collect();
        let end = play_all(&host, &g, &moves, NOW).await + 86_400;
        host.time_out(g.id, end).await.unwrap();
        let s = host.summary(g.id).await.unwrap();
        check_common(&s, &moves, NOW, end, Some(Side::Defenders));
        assert_eq!(s.conclusion, Conclusion::Time { side: Some(Side::Attackers) });
        assert_eq!(s.rating_changes.len(), 4);
    }
}

support::both! {
    async fn a_draw_by_agreement_is_summarised() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        let moves: Vec<String> = SHUFFLE[..2].iter().map(|m| (*m).to_owned()).collect();
        let end = play_all(&host, &g, &moves, NOW).await + 7;
        host.draw(g.id, alice().id, OfferAction::Offer, None, end - 1).await.unwrap();
        host.draw(g.id, bob().id, OfferAction::Accept, None, end).await.unwrap();
        let s = host.summary(g.id).await.unwrap();
        check_common(&s, &moves, NOW, end, None);
        assert_eq!(s.conclusion, Conclusion::Agreement);
    }
}

support::both! {
    async fn an_imported_encirclement_is_summarised_but_not_rated() {
        let host = host().await;
        let before = ratings_snapshot(&host).await;
        let rules = tafl_rules::otn::rules_string(&Variant::SeaBattle9.rules());
        // The king inside a ring of attackers whose gap at e3 leads out through e2, which e1-e2 closes.
        let record = format!(
            "[result:1]\n[position:/4t4/9/3t1t3/2t3t2/2t1K1t2/2t3t2/3ttt3/9/9/]\n[to-move:attackers]\n[rules:{rules}]\n1. e1-e2\n"
        );
        let imported = host.import(&record, &alice(), &bob(), PLACE, NOW).await.unwrap();
        let s = host.summary(imported.id).await.unwrap();
        assert_eq!(s.conclusion, Conclusion::Encirclement);
        assert_eq!(s.winner(), Some(Side::Attackers));
        assert_eq!((s.plies, s.full_moves), (1, 1));
        assert!(s.game.imported);
        assert!(s.rating_changes.is_empty());
        assert_eq!(ratings_snapshot(&host).await, before, "imported games are never rated");
    }
}

support::both! {
    async fn a_running_game_is_summarised_as_in_progress() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &g, &SHUFFLE[..1], NOW).await;
        let s = host.summary(g.id).await.unwrap();
        assert_eq!(s.conclusion, Conclusion::InProgress { to_move: Side::Defenders });
        assert_eq!((s.plies, s.full_moves), (1, 1));
        assert_eq!((s.finished_at, s.duration), (None, None));
        assert_eq!(s.created_at, NOW);
        assert!(s.rating_changes.is_empty());
        assert_eq!(host.summary(9999).await.unwrap_err(), HostError::NoSuchGame(9999));
    }
}

// ----- which games are rated -----

support::both! {
    async fn games_ended_before_ply_two_are_not_rated_and_ply_two_is() {
        let host = host().await;
        let g0 = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        host.resign(g0.id, alice().id, None, NOW).await.unwrap();
        let g1 = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &g1, &SHUFFLE[..1], NOW).await;
        host.time_out(g1.id, NOW + 86_400).await.unwrap();
        assert_eq!(ratings_snapshot(&host).await, "\n\n", "no game before ply 2 is rated");
        assert!(host.summary(g0.id).await.unwrap().rating_changes.is_empty());
        assert!(host.summary(g1.id).await.unwrap().rating_changes.is_empty());
        let g2 = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &g2, &SHUFFLE[..2], NOW).await;
        host.resign(g2.id, alice().id, None, NOW + 500).await.unwrap();
        assert_eq!(host.summary(g2.id).await.unwrap().rating_changes.len(), 4);
        let profile = host.profile(alice().id, None, NOW + 86_400).await.unwrap();
        assert_eq!(profile.games(), 1);
        assert_eq!(profile.ratings[0].games, 1);
    }
}

support::both! {
    /// A resignation or an agreed draw before each side had moved keeps its result (only a
    /// timeout or an abandonment that early is aborted), but is not rated: its summary says
    /// why it has no rating line, while an aborted game's conclusion already says "no rating".
    async fn a_result_before_each_side_moved_is_summarised_as_not_rated_and_why() {
        use tafl_bot::present::{Lang, summary::summary_text};
        let host = host().await;
        let resigned = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        host.resign(resigned.id, alice().id, None, NOW + 5).await.unwrap();
        let drawn = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &drawn, &SHUFFLE[..1], NOW).await;
        host.draw(drawn.id, bob().id, OfferAction::Offer, None, NOW + 100).await.unwrap();
        host.draw(drawn.id, alice().id, OfferAction::Accept, None, NOW + 101).await.unwrap();
        let timed_out = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &timed_out, &SHUFFLE[..1], NOW).await;
        host.time_out(timed_out.id, NOW + 86_400).await.unwrap();
        assert_eq!(ratings_snapshot(&host).await, "\n\n", "none of them is rated");

        let (english, russian) = (Lang::console("en"), Lang::console("ru"));
        for (game, winner) in [(&resigned, Some(Side::Defenders)), (&drawn, None)] {
            let s = host.summary(game.id).await.unwrap();
            assert!(s.game.ending.is_some_and(Ending::has_result), "the result is kept: {:?}", s.game.ending);
            assert_eq!(s.winner(), winner);
            assert!(s.ended_too_soon_to_rate && s.rating_changes.is_empty());
            let en = summary_text(&s, english).description;
            assert!(en.contains("\nNot rated: the game ended before each side had moved."), "{en}");
            let ru = summary_text(&s, russian).description;
            assert!(
                ru.contains("\nНа рейтинг не влияет: партия окончена до того, как обе стороны сделали ход."),
                "{ru}"
            );
        }
        let aborted = host.summary(timed_out.id).await.unwrap();
        assert_eq!(aborted.conclusion, Conclusion::Aborted);
        assert!(!aborted.ended_too_soon_to_rate, "its conclusion says it has no rating");
        let en = summary_text(&aborted, english).description;
        assert!(!en.contains("Not rated"), "said once: {en}");

        let rated = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &rated, &SHUFFLE[..2], NOW).await;
        host.resign(rated.id, alice().id, None, NOW + 500).await.unwrap();
        let s = host.summary(rated.id).await.unwrap();
        assert!(!s.ended_too_soon_to_rate && s.rating_changes.len() == 4);
        assert!(!summary_text(&s, english).description.contains("Not rated"));
    }
}

support::both! {
    async fn a_refused_move_or_ending_changes_no_rating() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &g, &SHUFFLE[..2], NOW).await;
        let before = (snapshot(&host).await, ratings_snapshot(&host).await);
        let refusals = [
            host.play(g.id, alice().id, "a4-a9", None, NOW).await.unwrap_err(),
            host.play(g.id, bob().id, "a4-a5", None, NOW).await.unwrap_err(),
            host.resign(g.id, carol().id, None, NOW).await.unwrap_err(),
            host.draw(g.id, carol().id, OfferAction::Accept, None, NOW).await.unwrap_err(),
        ];
        assert!(matches!(refusals[2], HostError::NotAPlayer(_)), "{:?}", refusals[2]);
        assert_eq!((snapshot(&host).await, ratings_snapshot(&host).await), before);
        host.resign(g.id, bob().id, None, NOW + 300).await.unwrap();
        let rated = ratings_snapshot(&host).await;
        assert_ne!(rated, before.1);
        // A finished game refuses everything, and is never rated twice.
        assert!(matches!(host.resign(g.id, alice().id, None, NOW).await, Err(HostError::GameOver { .. })));
        assert!(matches!(host.time_out(g.id, NOW).await, Err(HostError::GameOver { .. })));
        let ending = Ending { winner: Some(Side::Defenders), reason: EndReason::Time };
        assert!(matches!(host.finish(g.id, ending, NOW).await, Err(HostError::GameOver { .. })));
        assert_eq!(ratings_snapshot(&host).await, rated);
    }
}

#[tokio::test]
async fn ratings_are_written_in_the_transaction_that_ends_the_game() {
    let host = host().await;
    let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
    let moves = find_game(Variant::Brandubh, Reason::KingEscaped, 200);
    let (last, rest) = moves.split_last().unwrap();
    play_all(&host, &g, rest, NOW).await;
    // Make the rating write fail: the final move must fail with it, leaving the game going.
    let pool = host.db().pool();
    sqlx::query("CREATE TRIGGER refuse_rating BEFORE INSERT ON rating_changes BEGIN SELECT RAISE(ABORT, 'no'); END")
        .execute(pool)
        .await
        .unwrap();
    let before = (snapshot(&host).await, ratings_snapshot(&host).await);
    let to_move = g.player(if rest.len() % 2 == 0 { Side::Attackers } else { Side::Defenders }).id;
    let error = host.play(g.id, to_move, last, Some(rest.len()), NOW + 10_000).await.unwrap_err();
    assert_eq!(error, HostError::Internal);
    assert_eq!((snapshot(&host).await, ratings_snapshot(&host).await), before, "nothing of the ending was kept");
    assert!(host.show(g.id).await.unwrap().ending.is_none());
    sqlx::query("DROP TRIGGER refuse_rating").execute(pool).await.unwrap();
    let played = host.play(g.id, to_move, last, Some(rest.len()), NOW + 10_000).await.unwrap();
    assert!(played.game.is_over());
    assert_eq!(host.summary(g.id).await.unwrap().rating_changes.len(), 4);
}

support::both! {
    async fn ratings_are_kept_globally_and_per_server_and_the_console_has_only_global_ones() {
        let host = host().await;
        let server = |guild| Place { guild, channel: 2, thread: None };
        for (guild, at) in [(1, NOW), (2, NOW + 1_000), (0, NOW + 2_000)] {
            let g = game_between(&host, "fetlar", &alice(), &bob(), server(guild), at).await;
            let opening = find_game(Variant::Fetlar, Reason::KingEscaped, 300);
            play_all(&host, &g, &opening[..2], at).await;
            host.resign(g.id, bob().id, None, at + 500).await.unwrap();
            let scopes: Vec<Scope> = host.summary(g.id).await.unwrap().rating_changes.iter().map(|c| c.scope).collect();
            let mut expected = vec![Scope::Global, Scope::Global];
            if guild != 0 {
                expected.extend([Scope::Server(guild), Scope::Server(guild)]);
            }
            assert_eq!(scopes, expected, "guild {guild}");
        }
        let global = host.leaderboard("fetlar", None, 10, NOW + 86_400).await.unwrap();
        assert_eq!(global.scope, Scope::Global);
        assert_eq!(
            global.entries.iter().map(|e| (e.user.id, e.rating.games)).collect::<Vec<_>>(),
            vec![(alice().id, 3), (bob().id, 3)]
        );
        for guild in [1, 2] {
            let board = host.leaderboard("fetlar", Some(guild), 10, NOW + 86_400).await.unwrap();
            assert_eq!(board.scope, Scope::Server(guild));
            assert_eq!(board.entries.iter().map(|e| e.rating.games).collect::<Vec<_>>(), vec![1, 1], "guild {guild}");
            // One win on the server, three globally: the global rating has gone further.
            assert!(global.entries[0].rating.rating > board.entries[0].rating.rating);
        }
        assert!(host.leaderboard("fetlar", Some(3), 10, NOW + 86_400).await.unwrap().entries.is_empty());
        assert_eq!(host.leaderboard("fetlar", Some(0), 10, NOW + 86_400).await.unwrap(), global, "guild 0 is no server");
    }
}

// ----- leaderboards and profiles -----

/// Plays a short rated Brandubh game between `attacker` and `defender`: `winner`'s opponent
/// resigns, or a draw is agreed for `None`; it finishes at `at` plus ten plies' time.
async fn short_game(host: &Host, attacker: &User, defender: &User, winner: Option<Side>, at: i64) -> GameView {
    let g = game_between(host, "brandubh", attacker, defender, PLACE, at).await;
    play_all(host, &g, &SHUFFLE[..2], at).await;
    let at = at + 10 * PLY_SECONDS;
    if let Some(side) = winner {
        host.resign(g.id, g.player(side.opponent()).id, None, at).await.unwrap();
    } else {
        host.draw(g.id, attacker.id, OfferAction::Offer, None, at).await.unwrap();
        host.draw(g.id, defender.id, OfferAction::Accept, None, at).await.unwrap();
    }
    g
}

support::both! {
    async fn a_leaderboard_ranks_by_rating_for_a_family_named_by_any_of_its_presets() {
        let host = host().await;
        short_game(&host, &alice(), &bob(), Some(Side::Attackers), NOW).await;
        short_game(&host, &carol(), &alice(), Some(Side::Defenders), NOW + 1_000).await;
        short_game(&host, &carol(), &bob(), Some(Side::Attackers), NOW + 2_000).await;
        let board = host.leaderboard("brandubh", None, 10, NOW + 86_400).await.unwrap();
        assert_eq!(board.family, "seed-001");
        let order: Vec<(usize, i64)> = board.entries.iter().map(|e| (e.rank, e.user.id)).collect();
        assert_eq!(order, vec![(1, alice().id), (2, carol().id), (3, bob().id)]);
        assert!(board.entries.windows(2).all(|w| w[0].rating.rating > w[1].rating.rating));
        assert!(board.entries.iter().all(|e| e.rating.provisional), "two games leave a rating provisional");
        assert_eq!(host.leaderboard("tablut", None, 10, NOW + 86_400).await.unwrap(), board, "tablut is of the same family");
        assert_eq!(host.leaderboard(" Seed-001 ", None, 10, NOW + 86_400).await.unwrap(), board);
        let top = host.leaderboard("hnefatafl", None, 2, NOW + 86_400).await.unwrap();
        assert_eq!(top.entries.len(), 2);
        assert_eq!(host.leaderboard("brandubh", None, 0, NOW + 86_400).await.unwrap().entries.len(), 1, "at least one line");
        assert!(host.leaderboard("copenhagen", None, 10, NOW + 86_400).await.unwrap().entries.is_empty());
        let error = host.leaderboard("chess", None, 10, NOW + 86_400).await.unwrap_err();
        let variants = tafl_rules::Variant::ALL.map(tafl_rules::Variant::id).join(", ");
        assert_eq!(said(&error), format!("\"chess\" is not a variant; the variants are: {variants}."));
        // The pool of games against the bot is asked for with a prefix the player never typed.
        let error = host.leaderboard("bot:chess", None, 10, NOW + 86_400).await.unwrap_err();
        assert!(said(&error).starts_with("\"chess\" is not a variant"), "{}", said(&error));
        let huge = host.leaderboard(&"ж".repeat(100_000), None, 10, NOW + 86_400).await.unwrap_err();
        assert!(said(&huge).matches('ж').count() <= 32, "the input is cut: {}", said(&huge));
    }
}

support::both! {
    /// Two players with the same rating share a rank ("1, 1, 3"), as on every tournament table.
    async fn equal_ratings_share_a_rank() {
        let host = host().await;
        short_game(&host, &alice(), &bob(), None, NOW).await;
        let board = host.leaderboard("brandubh", None, 10, NOW + 86_400).await.unwrap();
        let ranks: Vec<(usize, f64)> = board.entries.iter().map(|e| (e.rank, e.rating.rating)).collect();
        assert!((ranks[0].1 - ranks[1].1).abs() < 1e-9, "both drew their only game: {ranks:?}");
        assert_eq!(ranks[0].0, ranks[1].0, "equal ratings, different ranks: {ranks:?}");
        assert_eq!(ranks[0].0, 1);
        short_game(&host, &carol(), &alice(), Some(Side::Defenders), NOW + 1_000).await;
        short_game(&host, &bob(), &carol(), None, NOW + 2_000).await;
        let board = host.leaderboard("brandubh", None, 10, NOW + 86_400).await.unwrap();
        let ranks: Vec<usize> = board.entries.iter().map(|e| e.rank).collect();
        assert_eq!(ranks, [1, 2, 3], "different ratings, different ranks: {board:?}");
    }
}

support::both! {
    /// Lichess and chess.com keep provisional ratings off the top of their leaderboards: one win
    /// between two newcomers (1662?) must not rank above players established over 14 games.
    async fn a_newcomers_single_win_does_not_outrank_an_established_player() {
        use tafl_bot::present::{Lang, summary::leaderboard_text};
        let host = host().await;
        let dave = User::new(104, "dave");
        for n in 0..14 {
            short_game(&host, &alice(), &bob(), None, NOW + n * 1_000).await;
        }
        short_game(&host, &carol(), &dave, Some(Side::Attackers), NOW + 20_000).await;
        let board = host.leaderboard("brandubh", Some(PLACE.guild), 10, NOW + 21_000).await.unwrap();
        let shown: Vec<(usize, &str, i64, bool)> = board
            .entries
            .iter()
            .map(|e| (e.rank, e.user.name.as_str(), e.rating.rating.round() as i64, e.rating.provisional))
            .collect();
        assert_eq!(
            shown,
            [(1, "alice", 1500, false), (1, "bob", 1500, false), (3, "carol", 1662, true), (4, "dave", 1338, true)],
            "established ratings first, provisional ones ranked after them"
        );
        let top = host.leaderboard("brandubh", Some(PLACE.guild), 1, NOW + 21_000).await.unwrap();
        assert_eq!(top.entries[0].user, alice(), "the limit cuts after the established ratings");
        let en = leaderboard_text(&board, Lang::console("en")).description;
        assert!(en.contains("1. @bob — 1500 · games: 14\n3. @carol — 1662? · games: 1\n"), "{en}");
        assert!(
            en.ends_with("\n? — a provisional rating (few rated games, or none for a long time), ranked after the established ones."),
            "{en}"
        );
        let ru = leaderboard_text(&board, Lang::console("ru")).description;
        assert!(ru.ends_with("\n? — предварительный рейтинг (мало рейтинговых партий или давно не было ни одной); такие рейтинги идут после устоявшихся."), "{ru}");
        let established = host.leaderboard("brandubh", Some(PLACE.guild), 2, NOW + 21_000).await.unwrap();
        assert!(!leaderboard_text(&established, Lang::console("en")).description.contains('?'), "no note without one");
    }
}

support::both! {
    /// Glicko-2's deviation measures how much is known of a rating *now*: it grows while a
    /// player is away (Glickman's step 6 for each period without games), so a player back after
    /// two years is provisional again, and their rating moves quickly.
    async fn a_rating_deviation_grows_while_a_player_is_away() {
        let host = host().await;
        for n in 0..14 {
            short_game(&host, &alice(), &bob(), None, NOW + n * 1_000).await;
        }
        let last_game = NOW + 13 * 1_000 + 10 * PLY_SECONDS;
        let rating = |profile: tafl_bot::host::Profile| profile.ratings[0].clone();
        let before_break = rating(host.profile(alice().id, None, last_game).await.unwrap());
        assert!(!before_break.provisional, "{before_break:?}");
        let two_years = 2 * 365 * 86_400;
        let away = rating(host.profile(alice().id, None, last_game + two_years).await.unwrap());
        assert!(away.deviation > before_break.deviation + 50.0 && away.provisional, "{away:?}, was {before_break:?}");
        assert_eq!((away.rating, away.games), (before_break.rating, before_break.games), "only the deviation grows");
        let board = host.leaderboard("brandubh", None, 10, last_game + two_years).await.unwrap();
        assert!(board.entries.iter().all(|e| e.rating.provisional), "{board:?}");

        // Back for a game: rated from the grown deviation, as the profile shows it.
        let g = short_game(&host, &alice(), &carol(), Some(Side::Attackers), last_game + two_years).await;
        let summary = host.summary(g.id).await.unwrap();
        let change = summary.rating_changes.iter().find(|c| c.scope == Scope::Global && c.user == alice()).unwrap();
        assert!(
            (change.deviation_before - away.deviation).abs() < 0.5,
            "rated from the deviation the profile showed: {change:?}, {away:?}"
        );
        assert!(change.provisional_before());
    }
}

support::both! {
    async fn a_profile_counts_results_by_side_and_the_current_streak() {
        let host = host().await;
        short_game(&host, &alice(), &bob(), Some(Side::Attackers), NOW).await; // alice wins attacking
        short_game(&host, &carol(), &alice(), Some(Side::Attackers), NOW + 1_000).await; // loses defending
        short_game(&host, &alice(), &bob(), None, NOW + 2_000).await; // draws attacking
        short_game(&host, &alice(), &carol(), Some(Side::Attackers), NOW + 3_000).await; // wins attacking
        short_game(&host, &bob(), &alice(), Some(Side::Defenders), NOW + 4_000).await; // wins defending
        let alice_profile = host.profile(alice().id, None, NOW + 86_400).await.unwrap();
        assert_eq!(alice_profile.user, alice());
        assert_eq!(alice_profile.as_attacker, SideRecord { wins: 2, losses: 0, draws: 1 });
        assert_eq!(alice_profile.as_defender, SideRecord { wins: 1, losses: 1, draws: 0 });
        assert_eq!(alice_profile.streak, Some(Streak { result: PlayerResult::Win, length: 2 }));
        assert_eq!(alice_profile.ratings.len(), 1);
        assert_eq!((alice_profile.ratings[0].family.as_str(), alice_profile.ratings[0].games), ("seed-001", 5));
        let board = host.leaderboard("brandubh", None, 10, NOW + 86_400).await.unwrap();
        assert_eq!(board.entries[0].user, alice());
        assert!((alice_profile.ratings[0].rating - board.entries[0].rating.rating).abs() < 1e-9);
        let bob_profile = host.profile(bob().id, None, NOW + 86_400).await.unwrap();
        assert_eq!(bob_profile.as_attacker, SideRecord { wins: 0, losses: 1, draws: 0 });
        assert_eq!(bob_profile.as_defender, SideRecord { wins: 0, losses: 1, draws: 1 });
        assert_eq!(bob_profile.streak, Some(Streak { result: PlayerResult::Loss, length: 1 }));
        let carol_profile = host.profile(carol().id, Some(PLACE.guild), NOW + 86_400).await.unwrap();
        assert_eq!(carol_profile.scope, Scope::Server(PLACE.guild));
        assert_eq!(carol_profile.as_attacker, SideRecord { wins: 1, losses: 0, draws: 0 });
        assert_eq!(carol_profile.as_defender, SideRecord { wins: 0, losses: 1, draws: 0 });
        let elsewhere = host.profile(alice().id, Some(999), NOW + 86_400).await.unwrap();
        assert_eq!((elsewhere.games(), elsewhere.streak, elsewhere.ratings.len()), (0, None, 0));
        let stranger = host.profile(4242, None, NOW + 86_400).await.unwrap();
        assert_eq!(stranger.user.name, "user 4242");
        assert_eq!(stranger.games(), 0);
    }
}

// ----- records -----

support::both! {
    async fn exported_records_replay_to_the_summarised_result() {
        let host = host().await;
        let g = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        let moves = find_game(Variant::Brandubh, Reason::KingCaptured, 200);
        play_all(&host, &g, &moves, NOW).await;
        let s = host.summary(g.id).await.unwrap();
        let record = GameRecord::parse(&host.export(g.id).await.unwrap()).unwrap();
        let replayed = record.replay().unwrap();
        assert_eq!(
            replayed.status(),
            Status::Finished(tafl_rules::Outcome { winner: s.winner(), reason: Reason::KingCaptured })
        );
        assert_eq!(
            replayed.position().king(),
            match s.conclusion {
                Conclusion::KingCaptured { at } => at,
                other => panic!("{other:?}"),
            }
        );
        // And through `tafl-bot replay`, as a player with the file would.
        let texts: Vec<String> = record.moves.iter().map(ToString::to_string).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_tafl-bot"))
            .args(["replay", "--variant", "brandubh", "--json"])
            .args(&texts)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        assert_eq!(last["final"], true);
        assert_eq!(last["status"], "attackers_win");
        assert_eq!(last["reason"], "king_captured");

        let resigned = game_between(&host, "brandubh", &alice(), &bob(), PLACE, NOW).await;
        play_all(&host, &resigned, &SHUFFLE[..3], NOW).await;
        host.resign(resigned.id, bob().id, None, NOW + 900).await.unwrap();
        let record = GameRecord::parse(&host.export(resigned.id).await.unwrap()).unwrap();
        assert_eq!(record.end, Some(RecordEnd::Resigned));
        assert_eq!(record.replay().unwrap().ply(), 3);
        assert_eq!(record.tag("termination"), Some("resignation"));
        assert_eq!(record.tag("result"), Some("1"));
    }
}
