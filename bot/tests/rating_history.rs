//! What the profile and leaderboard cards plot, through the host on a real database file: a
//! player's rating history per family (`Host::rating_history`) and the leaderboard's sparklines
//! (`Host::rating_trends`), checked against the rating changes each game recorded.

mod support;

use support::{NOW, PLACE, alice, bob, carol, host, request};
use tafl_bot::host::{GameView, Host, Scope, SideChoice, User};
use tafl_rules::{Side, Variant};

/// Plays a rated game of `variant`: `attacker` against `defender`, two quiet plies, then
/// `loser` resigns. Returns the game and the time it ended.
async fn rated_game(host: &Host, variant: Variant, attacker: &User, defender: &User, loser: Side, at: i64) -> GameView {
    let challenge =
        host.challenge(&request(attacker, Some(defender), variant.id(), SideChoice::Attackers), at).await.unwrap();
    let game = host.accept(challenge.id, defender, at).await.unwrap().game;
    // Two plies, so the game counts: the first legal move of each side.
    for (n, side) in [Side::Attackers, Side::Defenders].into_iter().enumerate() {
        let view = host.show(game.id).await.unwrap();
        let mv = view.position.legal_moves()[0];
        host.play(game.id, game.player(side).id, &mv.to_string(), Some(n), at + 1 + n as i64).await.unwrap();
    }
    host.resign(game.id, game.player(loser).id, Some(2), at + 10).await.unwrap();
    host.show(game.id).await.unwrap()
}

/// The global rating `user` had after `game`, as its summary recorded.
async fn rating_after(host: &Host, game: &GameView, user: &User) -> (f64, f64) {
    let summary = host.summary(game.id).await.unwrap();
    let change = summary
        .rating_changes
        .iter()
        .find(|c| c.scope == Scope::Global && c.user.id == user.id)
        .expect("a rated game records both players' changes");
    (change.after, change.deviation_after)
}

support::both! {
    async fn a_rating_history_lists_each_familys_games_oldest_first_with_the_most_played_variants() {
        let host = host().await;
        let (a, b) = (alice(), bob());
        let mut brandubh = Vec::new();
        let mut at = NOW;
        for loser in [Side::Defenders, Side::Attackers, Side::Defenders] {
            brandubh.push(rated_game(&host, Variant::Brandubh, &a, &b, loser, at).await);
            at += 100;
        }
        let copenhagen = rated_game(&host, Variant::Copenhagen, &b, &a, Side::Attackers, at).await;

        let history = host.rating_history(a.id, None).await.unwrap();
        // Families with the most games first; points numbered by the player's rated games overall.
        let families: Vec<(&str, usize)> = history.families.iter().map(|f| (f.family.as_str(), f.points.len())).collect();
        assert_eq!(families, [(Variant::Brandubh.family(), 3), (Variant::Copenhagen.family(), 1)]);
        let numbers: Vec<u32> = history.families[0].points.iter().map(|p| p.number).collect();
        assert_eq!(numbers, [1, 2, 3]);
        assert_eq!(history.families[1].points[0].number, 4);
        for (point, game) in history.families[0].points.iter().zip(&brandubh) {
            assert_eq!((point.rating, point.deviation), rating_after(&host, game, &a).await);
        }
        let point = history.families[1].points[0];
        assert_eq!((point.rating, point.deviation), rating_after(&host, &copenhagen, &a).await);
        // Alice won the first and third Brandubh games (as the attackers) and lost the second.
        let ratings: Vec<f64> = history.families[0].points.iter().map(|p| p.rating).collect();
        assert!(ratings[0] > 1500.0 && ratings[1] < ratings[0] && ratings[2] > ratings[1], "{ratings:?}");
        assert_eq!(history.variants, [("brandubh".to_owned(), 3), ("copenhagen".to_owned(), 1)]);

        // The game's server holds the same games; another server and a newcomer have none.
        let server = host.rating_history(a.id, Some(PLACE.guild)).await.unwrap();
        assert_eq!(server.families.iter().map(|f| f.points.len()).collect::<Vec<_>>(), [3, 1]);
        assert_eq!(server.variants, history.variants);
        let elsewhere = host.rating_history(a.id, Some(PLACE.guild + 1)).await.unwrap();
        assert!(elsewhere.families.is_empty() && elsewhere.variants.is_empty());
        let newcomer = host.rating_history(carol().id, None).await.unwrap();
        assert!(newcomer.families.is_empty() && newcomer.variants.is_empty());
    }
}

support::both! {
    async fn rating_trends_give_each_leaderboard_entry_its_last_ratings_oldest_first() {
        let host = host().await;
        let (a, b, c) = (alice(), bob(), carol());
        let mut at = NOW;
        let mut games = Vec::new();
        for (attacker, defender, loser) in
            [(&a, &b, Side::Defenders), (&a, &c, Side::Defenders), (&b, &c, Side::Attackers), (&a, &b, Side::Attackers)]
        {
            games.push(rated_game(&host, Variant::Brandubh, attacker, defender, loser, at).await);
            at += 100;
        }
        // A game in another family is no part of the Brandubh trends.
        rated_game(&host, Variant::Copenhagen, &a, &b, Side::Defenders, at).await;

        let board = host.leaderboard(Variant::Brandubh.family(), None, 10, NOW + 86_400).await.unwrap();
        assert_eq!(board.entries.len(), 3);
        let trends = host.rating_trends(&board, 2).await.unwrap();
        assert_eq!(trends.len(), board.entries.len());
        for (entry, trend) in board.entries.iter().zip(&trends) {
            // Every rated Brandubh game of the entry, oldest first, from the summaries.
            let mut all = Vec::new();
            for game in &games {
                if game.attacker.id == entry.user.id || game.defender.id == entry.user.id {
                    all.push(rating_after(&host, game, &entry.user).await.0);
                }
            }
            let last_two = all[all.len().saturating_sub(2)..].to_vec();
            assert_eq!(trend, &last_two, "{}", entry.user.name);
            // The newest point is the rating the leaderboard shows.
            assert_eq!(trend.last().copied(), Some(entry.rating.rating));
        }
        // Alice played three Brandubh games: asking for more points than there are gives them all.
        let alice_row = board.entries.iter().position(|e| e.user.id == a.id).unwrap();
        let everything = host.rating_trends(&board, 50).await.unwrap();
        assert_eq!(everything[alice_row].len(), 3);
        // Zero points still draws a line of one.
        let one = host.rating_trends(&board, 0).await.unwrap();
        assert!(one.iter().all(|t| t.len() == 1), "{one:?}");
        // The server's board has the same trends; an empty board has none.
        let server = host.leaderboard(Variant::Brandubh.family(), Some(PLACE.guild), 10, NOW + 86_400).await.unwrap();
        assert_eq!(host.rating_trends(&server, 2).await.unwrap(), trends);
        let empty = host.leaderboard(Variant::SeaBattle9.family(), None, 10, NOW + 86_400).await.unwrap();
        assert!(host.rating_trends(&empty, 5).await.unwrap().is_empty());
    }
}
