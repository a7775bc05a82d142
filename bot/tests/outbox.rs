//! The host's outbox: what a front end must show is recorded in the transaction of the change,
//! in order per game; refusals record nothing; product rules (the expected ply of offers and
//! resignations, one open offer per kind, the server's channels and default clock) hold in the
//! host.

mod support;

use support::{NOW, alice, bob, carol, game, host, request, snapshot};
use tafl_bot::host::{
    BoardStyle, Drawn, HostError, OfferAction, OfferEvent, OfferKind, Place, ServerSettings, Show, SideChoice,
};

/// Every pending item, oldest first, as the delivery task would see them lane by lane.
async fn pending(host: &tafl_bot::host::Host) -> Vec<Show> {
    support::drain(host, NOW).await
}

support::both! {
    async fn a_game_records_its_board_notices_and_summary_in_order() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        assert_eq!(
            pending(&host).await,
            [Show::Board { game: g.id, ply: 0 }, Show::YourMove { game: g.id, ply: 0, after_takeback: false, again: false }],
            "accepting shows the board and tells the first player"
        );
        host.play(g.id, alice().id, "d2-c2", Some(0), NOW).await.unwrap();
        host.play(g.id, bob().id, "d3-c3", None, NOW).await.unwrap();
        assert_eq!(
            pending(&host).await,
            [
                Show::Board { game: g.id, ply: 1 },
                Show::YourMove { game: g.id, ply: 1, after_takeback: false, again: false },
                Show::Board { game: g.id, ply: 2 },
                Show::YourMove { game: g.id, ply: 2, after_takeback: false, again: false },
            ]
        );
        host.resign(g.id, alice().id, Some(2), NOW).await.unwrap();
        assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 2 }, Show::Summary { game: g.id }]);
    }
}

support::both! {
    async fn a_turn_given_back_by_a_takeback_is_told_as_such() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.play(g.id, alice().id, "d2-c2", Some(0), NOW).await.unwrap();
        host.play(g.id, bob().id, "d3-c3", None, NOW).await.unwrap();
        host.takeback(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
        pending(&host).await;
        host.takeback(g.id, alice().id, OfferAction::Accept, None, NOW).await.unwrap();
        let shown = pending(&host).await;
        // Bob's move again, at ply 1: not "`d2-c2` was played", which is Alice's old move.
        let notices: Vec<&Show> = shown.iter().filter(|s| matches!(s, Show::YourMove { .. })).collect();
        assert_eq!(notices, [&Show::YourMove { game: g.id, ply: 1, after_takeback: true, again: false }], "{shown:?}");
    }
}

support::both! {
    async fn offers_and_resignations_on_an_old_board_are_refused_and_record_nothing() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.play(g.id, alice().id, "d2-c2", Some(0), NOW).await.unwrap();
        pending(&host).await;
        let before = snapshot(&host).await;
        let stale = |e: HostError| matches!(e, HostError::StaleBoard { ply: 1, expected: 0, .. });
        assert!(stale(host.resign(g.id, bob().id, Some(0), NOW).await.unwrap_err()));
        assert!(stale(host.draw(g.id, bob().id, OfferAction::Offer, Some(0), NOW).await.unwrap_err()));
        assert!(stale(host.takeback(g.id, alice().id, OfferAction::Offer, Some(0), NOW).await.unwrap_err()));
        assert_eq!(snapshot(&host).await, before, "nothing changed");
        assert!(pending(&host).await.is_empty(), "nothing to show");
        // On the current board they work, and say so.
        host.draw(g.id, bob().id, OfferAction::Offer, Some(1), NOW).await.unwrap();
        assert_eq!(
            pending(&host).await,
            [
                Show::Offer {
                    game: g.id,
                    offer: OfferKind::Draw,
                    event: OfferEvent::Offered,
                    by: bob().id,
                    notify: vec![alice().id],
                    made: Some(1),
                },
                Show::Board { game: g.id, ply: 1 },
            ]
        );
    }
}

support::both! {
    async fn the_schema_keeps_one_open_offer_per_game_and_kind() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
        let second =
            sqlx::query("INSERT INTO offers (game_id, kind, by_user, at_ply, created_at) VALUES ($1, 'draw', $2, 0, $3)")
                .bind(g.id)
                .bind(bob().id)
                .bind(NOW)
                .execute(host.db().pool())
                .await;
        assert!(second.is_err(), "a second open draw offer is refused by the schema");
        // Another kind, or once the first is answered, is fine.
        host.draw(g.id, bob().id, OfferAction::Decline, None, NOW).await.unwrap();
        host.draw(g.id, bob().id, OfferAction::Offer, None, NOW).await.unwrap();
    }
}

support::both! {
    async fn a_challenge_keeps_to_the_servers_channels_and_takes_its_default_clock() {
        let host = host().await;
        let allowed = Place { guild: 1, channel: 10, thread: None };
        let elsewhere = Place { guild: 1, channel: 11, thread: None };
        let settings = ServerSettings { threads: false, default_clock: Some("3d".parse().unwrap()), channels: vec![10] };
        host.set_server_settings(1, &settings, NOW).await.unwrap();
        let mut req = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
        req.clock = None;
        req.place = elsewhere;
        assert_eq!(host.challenge(&req, NOW).await.unwrap_err(), HostError::ChannelNotAllowed);
        req.place = allowed;
        let c = host.challenge(&req, NOW).await.unwrap();
        assert_eq!(c.clock.to_string(), "3d", "the server's default clock");
        req.clock = Some("none".parse().unwrap());
        let c = host.challenge(&req, NOW).await.unwrap();
        assert_eq!(c.clock.seconds_per_move(), None, "a clock asked for wins over the default");
        // The managers close the channel to games before the challenge is taken: refused, and
        // it stays open (to expire, or be accepted should the channel be allowed again).
        let closed = ServerSettings { channels: vec![12], ..settings };
        host.set_server_settings(1, &closed, NOW).await.unwrap();
        assert_eq!(host.accept(c.id, &bob(), NOW).await.unwrap_err(), HostError::ChannelNotAllowed);
        host.set_server_settings(1, &ServerSettings { channels: vec![10], ..closed }, NOW).await.unwrap();
        host.accept(c.id, &bob(), NOW).await.expect("allowed again");
    }
}

support::both! {
    async fn boards_coalesce_and_a_board_left_behind_is_redrawn() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 900, Some(Drawn::at(0)), host.pending_board(g.id).await.unwrap(), BoardStyle::default(), NOW).await.unwrap();
        host.play(g.id, alice().id, "d2-c2", None, NOW).await.unwrap();
        host.play(g.id, bob().id, "d3-c3", None, NOW).await.unwrap();
        // One drawing at ply 2, read after both moves, covers both board items.
        let covers = host.pending_board(g.id).await.unwrap();
        host.board_shown(g.id, 900, Drawn::at(2), covers, NOW).await.unwrap();
        let left: Vec<Show> = pending(&host).await;
        assert!(!left.iter().any(|s| matches!(s, Show::Board { .. })), "{left:?}");
        // A drawing that lost a race (it shows ply 1 while the game is at 2) records a new board.
        host.board_shown(g.id, 900, Drawn::at(1), None, NOW).await.unwrap();
        assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 2 }]);
        // A board that shows another ply with nothing pending (a crash) is found and redrawn.
        sqlx::query("UPDATE board_messages SET shown_ply = 0 WHERE game_id = $1")
            .bind(g.id)
            .execute(host.db().pool())
            .await
            .unwrap();
        assert_eq!(host.redraw_stale_boards(NOW).await.unwrap(), 1);
        assert_eq!(host.redraw_stale_boards(NOW).await.unwrap(), 0, "once");
        assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 2 }]);
    }
}

support::both! {
    async fn a_finished_games_board_is_checked_for_a_day_after_its_end() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 900, Some(Drawn::at(0)), host.pending_board(g.id).await.unwrap(), BoardStyle::default(), NOW).await.unwrap();
        host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
        pending(&host).await;
        let behind = || async {
            sqlx::query("UPDATE board_messages SET shown_ply = 5 WHERE game_id = $1")
                .bind(g.id)
                .execute(host.db().pool())
                .await
                .unwrap();
        };
        behind().await;
        let day = tafl_bot::host::outbox::RECENTLY_FINISHED_SECS;
        assert_eq!(day, 86_400);
        assert_eq!(host.redraw_stale_boards(NOW + day).await.unwrap(), 1, "finished a day ago: redrawn");
        assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 0 }]);
        behind().await;
        assert_eq!(host.redraw_stale_boards(NOW + day + 1).await.unwrap(), 0, "finished over a day ago: left");
    }
}

support::both! {
    async fn an_item_given_up_stays_in_the_outbox_and_its_lane_goes_on() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let head = host.outbox_head(&format!("game:{}", g.id), NOW).await.unwrap().unwrap();
        assert_eq!(head.show, Show::Board { game: g.id, ply: 0 });
        assert_eq!(host.delivery_failed(head.id, "500", NOW * 1000 + 100).await.unwrap(), 1);
        let again = host.outbox_head(&head.lane, NOW).await.unwrap().unwrap();
        assert_eq!((again.id, again.attempts, again.not_before_ms), (head.id, 1, NOW * 1000 + 100));
        host.give_up(head.id, "403 Missing Permissions", NOW).await.unwrap();
        let next = host.outbox_head(&head.lane, NOW).await.unwrap().unwrap();
        assert_eq!(next.show, Show::YourMove { game: g.id, ply: 0, after_takeback: false, again: false });
        let counts = host.outbox_counts().await.unwrap();
        assert!(counts.contains(&("given_up".to_owned(), 1)), "{counts:?}");
        // Only the challenge's players appear in the items; a stranger's refusal adds none.
        assert!(host.resign(g.id, carol().id, None, NOW).await.is_err());
        assert_eq!(host.outbox_head(&head.lane, NOW).await.unwrap().unwrap().id, next.id);
    }
}

support::both! {
    async fn a_late_failure_from_a_process_that_lost_its_lane_leaves_a_delivered_item_as_it_is() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let head = host.outbox_head(&format!("game:{}", g.id), NOW).await.unwrap().unwrap();
        // Another process took the lane over and delivered the item; the first one's try then
        // fails, late, and it reports so.
        host.delivered(head.id, Some(900), NOW).await.unwrap();
        host.trying(&head, Some("{}"), NOW * 1000).await.unwrap();
        assert_eq!(host.delivery_failed(head.id, "500", NOW * 1000 + 100).await.unwrap(), 0);
        host.give_up(head.id, "403 Missing Permissions", NOW).await.unwrap();
        let row: (String, i64, i64, Option<String>) =
            sqlx::query_as("SELECT state, attempts, CASE WHEN tried THEN 1 ELSE 0 END, last_error FROM outbox WHERE id = $1")
                .bind(head.id)
                .fetch_one(host.db().pool())
                .await
                .unwrap();
        assert_eq!(row, ("done".to_owned(), 0, 0, None));
    }
}

support::both! {
    async fn a_try_keeps_what_it_said_and_when_it_was_first_made_and_messages_know_their_items() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let lane = format!("game:{}", g.id);
        let head = host.outbox_head(&lane, NOW).await.unwrap().unwrap();
        assert_eq!((head.tried, head.tried_said.clone(), head.tried_at_ms), (false, None, None));
        host.trying(&head, Some("first words"), NOW * 1000).await.unwrap();
        let tried = host.outbox_head(&lane, NOW).await.unwrap().unwrap();
        assert_eq!((tried.tried, tried.tried_said.as_deref(), tried.tried_at_ms), (true, Some("first words"), Some(NOW * 1000)));
        // A later try that says something else keeps its words, and the first try's time: no
        // message of the item is older.
        host.trying(&tried, Some("other words"), NOW * 1000 + 500).await.unwrap();
        let again = host.outbox_head(&lane, NOW).await.unwrap().unwrap();
        assert_eq!((again.tried_said.as_deref(), again.tried_at_ms), (Some("other words"), Some(NOW * 1000)));

        // A message recorded for one item is another's to every other item.
        host.delivered(head.id, Some(900), NOW).await.unwrap();
        let next = host.outbox_head(&lane, NOW).await.unwrap().unwrap();
        assert_ne!(next.id, head.id);
        assert!(host.message_of_another(&next, 900).await.unwrap());
        assert!(!host.message_of_another(&head, 900).await.unwrap(), "its own");
        assert!(!host.message_of_another(&next, 901).await.unwrap(), "nobody's");
    }
}

support::both! {
    async fn a_board_discord_refused_for_good_is_not_asked_for_again_at_every_tick() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 900, Some(Drawn::at(0)), host.pending_board(g.id).await.unwrap(), BoardStyle::default(), NOW).await.unwrap();
        pending(&host).await;
        host.play(g.id, alice().id, "d2-c2", None, NOW).await.unwrap();
        // The board edit is refused for good (the bot lost access to the channel).
        let head = host.outbox_head(&format!("game:{}", g.id), NOW).await.unwrap().unwrap();
        assert_eq!(head.show, Show::Board { game: g.id, ply: 1 });
        host.give_up(head.id, "403 Missing Access", NOW).await.unwrap();
        pending(&host).await;
        // The board is behind its game, but the sweep leaves it for an hour, then tries again.
        let rest = tafl_bot::host::outbox::GIVEN_UP_REST_SECS;
        for now in [NOW, NOW + 20, NOW + rest - 1] {
            assert_eq!(host.redraw_stale_boards(now).await.unwrap(), 0, "at {now}");
        }
        assert_eq!(host.redraw_stale_boards(NOW + rest + 1).await.unwrap(), 1);
        assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 1 }]);
    }
}

/// Delivers every pending item as the delivery task would, the notices and summaries as the
/// messages `posted` (channel 2), and returns what was delivered.
async fn deliver_as(host: &tafl_bot::host::Host, posted: i64) -> Vec<Show> {
    let mut shown = Vec::new();
    for head in host.outbox_heads(NOW).await.unwrap() {
        let mut next = Some(head);
        while let Some(item) = next {
            match item.show {
                Show::YourMove { game, .. } => {
                    host.notice_posted(item.id, game, 2, posted, Some(posted), NOW).await.unwrap();
                }
                Show::Summary { game } => host.notice_posted(item.id, game, 2, posted, None, NOW).await.unwrap(),
                _ => host.delivered(item.id, None, NOW).await.unwrap(),
            }
            shown.push(item.show.clone());
            next = host.outbox_head(&item.lane, NOW).await.unwrap();
        }
    }
    shown
}

support::both! {
    async fn a_finished_game_has_its_last_your_move_notice_deleted_once_the_summary_is_posted() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 800, Some(Drawn::at(0)), None, BoardStyle::default(), NOW).await.unwrap();
        assert!(deliver_as(&host, 801).await.contains(&Show::YourMove { game: g.id, ply: 0, after_takeback: false, again: false }));
        assert_eq!(host.board_message(g.id).await.unwrap().unwrap().notice_id, Some(801));
        host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
        let shown = deliver_as(&host, 802).await;
        let summary = shown.iter().position(|show| *show == Show::Summary { game: g.id }).expect("the summary");
        // Right after the summary, in the game's lane: the notice goes.
        assert_eq!(shown[summary + 1..], [Show::Delete { game: g.id, channel: 2, message: 801 }], "{shown:?}");
        assert_eq!(host.board_message(g.id).await.unwrap().unwrap().notice_id, None);
    }
}

support::both! {
    async fn a_summary_with_no_notice_before_it_deletes_nothing() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 800, Some(Drawn::at(0)), None, BoardStyle::default(), NOW).await.unwrap();
        pending(&host).await;
        host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
        let shown = deliver_as(&host, 802).await;
        assert!(shown.contains(&Show::Summary { game: g.id }), "{shown:?}");
        assert!(!shown.iter().any(|show| matches!(show, Show::Delete { .. })), "{shown:?}");
    }
}

support::both! {
    async fn a_digest_that_comes_due_is_recorded_for_its_reader() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        pending(&host).await;
        let settings = tafl_bot::host::UserSettings { digest: true, ..Default::default() };
        host.set_user_settings(&alice(), &settings, NOW).await.unwrap();
        // A day later (ticks every few minutes, as the bot does), Alice is to move in game g.
        let mut now = NOW;
        while now < NOW + 25 * 3600 {
            host.tick(now).await.unwrap();
            now += 20 * 60;
        }
        let items = pending(&host).await;
        assert!(items.contains(&Show::Digest { user: alice().id }), "{items:?} (game {})", g.id);
        assert!(!items.contains(&Show::Digest { user: bob().id }), "{items:?}");
    }
}

support::both! {
    async fn a_front_end_that_delivers_nothing_can_empty_the_outbox() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.play(g.id, alice().id, "d2-c2", Some(0), NOW).await.unwrap();
        assert!(!host.outbox_heads(NOW).await.unwrap().is_empty());
        host.discard_outbox().await.unwrap();
        assert_eq!(host.outbox_counts().await.unwrap(), []);
    }
}

support::both! {
    async fn delivered_items_go_after_a_week_but_summaries_and_undelivered_items_stay() {
        use tafl_bot::host::outbox::DELIVERED_KEPT_SECS;
        let host = host().await;
        let g = game(&host, "brandubh").await;
        // More delivered items than one batch deletes (each delivered before the next is asked
        // for: a request while one is pending joins it).
        for _ in 0..600 {
            host.request_board(g.id, alice().id, NOW).await.unwrap();
            pending(&host).await;
        }
        host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
        // A finished game's board is not asked for again: the items below are another game's.
        let other = game(&host, "brandubh").await;
        deliver_as(&host, 802).await;
        host.request_board(other.id, bob().id, NOW).await.unwrap();
        let head = host.outbox_head(&format!("game:{}", other.id), NOW).await.unwrap().unwrap();
        host.give_up(head.id, "403 Missing Permissions", NOW).await.unwrap();
        host.request_board(other.id, bob().id, NOW).await.unwrap();
        let count = |counts: &[(String, i64)], state: &str| {
            counts.iter().find(|(s, _)| s == state).map_or(0, |&(_, n)| n)
        };
        let before = host.outbox_counts().await.unwrap();
        assert!(count(&before, "done") > 600, "{before:?}");
        assert_eq!((count(&before, "pending"), count(&before, "given_up")), (1, 1), "{before:?}");

        // A week to the second after delivery, nothing is old enough yet.
        assert_eq!(host.prune_outbox(NOW + DELIVERED_KEPT_SECS).await.unwrap(), 0);
        assert_eq!(host.outbox_counts().await.unwrap(), before);
        let pruned = host.prune_outbox(NOW + DELIVERED_KEPT_SECS + 1).await.unwrap();
        assert_eq!(pruned, (count(&before, "done") - 1) as u64);
        let after = host.outbox_counts().await.unwrap();
        assert_eq!(
            after,
            [("done".to_owned(), 1), ("given_up".to_owned(), 1), ("pending".to_owned(), 1)],
            "only the summary, the given-up item and the pending one are left"
        );
        // The review can still find the summary it edits, and the lane goes on.
        assert_eq!(host.summary_message(g.id).await.unwrap(), Some(802));
        assert_eq!(host.outbox_head(&head.lane, NOW).await.unwrap().unwrap().show, Show::NewBoard { game: other.id, by: bob().id });
        assert_eq!(host.prune_outbox(NOW + 2 * DELIVERED_KEPT_SECS).await.unwrap(), 0);
    }
}

/// Delivers the item at the head of game `game`'s lane: its board, drawn.
async fn deliver_board(host: &tafl_bot::host::Host, game: i64) {
    let board = host.outbox_head(&format!("game:{game}"), NOW).await.unwrap().unwrap();
    host.delivered(board.id, None, NOW).await.unwrap();
}

/// A Brandubh game (its board posted first, with `board`) where Alice has moved, her move's
/// board was drawn, and Bob's "your move" notice was refused for good.
async fn bobs_notice_refused(host: &tafl_bot::host::Host, board: bool) -> tafl_bot::host::GameView {
    let g = game(host, "brandubh").await;
    if board {
        host.replace_board(g.id, 2, 800, Some(Drawn::at(0)), None, BoardStyle::default(), NOW).await.unwrap();
    }
    deliver_as(host, 801).await;
    host.play(g.id, alice().id, "d2-c2", Some(0), NOW).await.unwrap();
    deliver_board(host, g.id).await;
    refuse(host, g.id, &Show::YourMove { game: g.id, ply: 1, after_takeback: false, again: false }, NOW).await;
    g
}

/// Gives up the head of game `game`'s lane, which must be `expected`, as the delivery does when
/// Discord refuses it for good; delivers the rest of the lane.
async fn refuse(host: &tafl_bot::host::Host, game: i64, expected: &Show, now: i64) {
    let lane = format!("game:{game}");
    let head = host.outbox_head(&lane, now).await.unwrap().unwrap();
    assert_eq!(&head.show, expected);
    host.give_up(head.id, "Discord request failed: Missing Permissions", now).await.unwrap();
}

support::both! {
    async fn a_notice_discord_refused_is_told_again_once_after_its_rest() {
        use tafl_bot::host::outbox::GIVEN_UP_REST_SECS as REST;
        let host = host().await;
        // The board is drawn, and Bob's notice refused: the bot may no longer post there.
        let g = bobs_notice_refused(&host, true).await;
        for now in [NOW, NOW + 20, NOW + REST - 1, NOW + REST] {
            assert_eq!(host.retell_refused(now).await.unwrap(), 0, "resting at {now}");
        }
        assert_eq!(host.retell_refused(NOW + REST + 1).await.unwrap(), 1);
        assert_eq!(host.retell_refused(NOW + REST + 2).await.unwrap(), 0, "recorded once");
        let again = Show::YourMove { game: g.id, ply: 1, after_takeback: false, again: true };
        // Refused again: tried again after another rest.
        refuse(&host, g.id, &again, NOW + REST + 2).await;
        assert_eq!(host.retell_refused(NOW + 2 * REST).await.unwrap(), 0, "resting");
        assert_eq!(host.retell_refused(NOW + 2 * REST + 3).await.unwrap(), 1);
        // Posted (Alice's notice, the one before, goes): Bob was told, and is not told again.
        assert_eq!(deliver_as(&host, 802).await, [again, Show::Delete { game: g.id, channel: 2, message: 801 }]);
        assert_eq!(host.board_message(g.id).await.unwrap().unwrap().notice_id, Some(802));
        assert_eq!(host.retell_refused(NOW + 10 * REST).await.unwrap(), 0, "told once");
    }
}

support::both! {
    async fn a_refused_notice_of_a_turn_that_is_over_is_not_told() {
        use tafl_bot::host::outbox::GIVEN_UP_REST_SECS as REST;
        let host = host().await;
        let g = bobs_notice_refused(&host, false).await;
        // Bob moved anyway (by game id, from another channel): Alice's notice is the one owed.
        host.play(g.id, bob().id, "d3-c3", Some(1), NOW).await.unwrap();
        deliver_as(&host, 802).await;
        assert_eq!(host.retell_refused(NOW + 2 * REST).await.unwrap(), 0, "the game moved on");
        // Alice's refused in turn, then she resigns: a game over tells nobody to move.
        host.play(g.id, alice().id, "c2-c1", Some(2), NOW).await.unwrap();
        deliver_board(&host, g.id).await;
        refuse(&host, g.id, &Show::YourMove { game: g.id, ply: 3, after_takeback: false, again: false }, NOW).await;
        host.resign(g.id, bob().id, Some(3), NOW).await.unwrap();
        deliver_as(&host, 803).await;
        assert_eq!(host.retell_refused(NOW + 2 * REST).await.unwrap(), 0, "the game is over");
    }
}

support::both! {
    async fn a_player_to_move_who_got_the_board_they_asked_for_since_is_not_told_again() {
        use tafl_bot::host::outbox::GIVEN_UP_REST_SECS as REST;
        let host = host().await;
        let g = bobs_notice_refused(&host, true).await;
        // Alice's board posted anew tells Bob nothing; his own does.
        host.request_board(g.id, alice().id, NOW + 1).await.unwrap();
        deliver_as(&host, 802).await;
        assert_eq!(host.retell_refused(NOW + REST + 1).await.unwrap(), 1, "Alice asked");
        deliver_as(&host, 803).await;
        // The game's channel is deleted, and Bob's next notice given up for it; Bob moves the game
        // to another channel by asking for its board there: he is not told what he knows.
        host.play(g.id, bob().id, "d3-c3", Some(1), NOW + REST + 2).await.unwrap();
        host.play(g.id, alice().id, "c2-c1", Some(2), NOW + REST + 3).await.unwrap();
        host.channel_deleted(2, NOW + REST + 3).await.unwrap();
        let notice = Show::YourMove { game: g.id, ply: 3, after_takeback: false, again: false };
        let lane = format!("game:{}", g.id);
        while let Some(head) = host.outbox_head(&lane, NOW + REST + 3).await.unwrap() {
            if head.show == notice {
                host.give_up(head.id, "the game's channel was deleted", NOW + REST + 3).await.unwrap();
            } else {
                host.delivered(head.id, None, NOW + REST + 3).await.unwrap();
            }
        }
        let here = Place { guild: support::PLACE.guild, channel: 5, thread: None };
        host.request_board_at(g.id, bob().id, Some(here), NOW + 3 * REST).await.unwrap();
        let asked = host.outbox_head(&lane, NOW + 3 * REST).await.unwrap().unwrap();
        assert_eq!(asked.show, Show::NewBoard { game: g.id, by: bob().id });
        host.delivered(asked.id, Some(804), NOW + 3 * REST).await.unwrap();
        assert_eq!(host.retell_refused(NOW + 5 * REST).await.unwrap(), 0, "Bob asked");
    }
}

support::both! {
    async fn a_summary_discord_refused_is_posted_again_once_within_a_day_of_the_end() {
        use tafl_bot::host::outbox::{GIVEN_UP_REST_SECS as REST, RECENTLY_FINISHED_SECS as DAY};
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 800, Some(Drawn::at(0)), None, BoardStyle::default(), NOW).await.unwrap();
        deliver_as(&host, 801).await;
        host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
        deliver_board(&host, g.id).await;
        refuse(&host, g.id, &Show::Summary { game: g.id }, NOW).await;
        assert_eq!(host.retell_refused(NOW + REST - 1).await.unwrap(), 0, "resting");
        assert_eq!(host.retell_refused(NOW + REST + 1).await.unwrap(), 1);
        assert_eq!(host.retell_refused(NOW + REST + 2).await.unwrap(), 0, "recorded once");
        refuse(&host, g.id, &Show::Summary { game: g.id }, NOW + REST + 2).await;
        assert_eq!(host.retell_refused(NOW + 2 * REST + 3).await.unwrap(), 1, "refused again: tried after a rest");
        assert_eq!(deliver_as(&host, 802).await, [Show::Summary { game: g.id }, Show::Delete { game: g.id, channel: 2, message: 801 }]);
        assert_eq!(host.retell_refused(NOW + 4 * REST).await.unwrap(), 0, "posted once");

        // Another game's summary refused for over a day is left: its game is long over.
        let other = game(&host, "brandubh").await;
        deliver_as(&host, 803).await;
        host.resign(other.id, alice().id, Some(0), NOW).await.unwrap();
        deliver_board(&host, other.id).await;
        refuse(&host, other.id, &Show::Summary { game: other.id }, NOW).await;
        assert_eq!(host.retell_refused(NOW + DAY + 1).await.unwrap(), 0);
    }
}

support::both! {
    async fn what_the_bot_left_or_whose_channel_is_gone_is_not_told_again() {
        use tafl_bot::host::outbox::GIVEN_UP_REST_SECS as REST;
        let host = host().await;
        bobs_notice_refused(&host, false).await;
        host.server_left(support::PLACE.guild, NOW).await.unwrap();
        assert_eq!(host.retell_refused(NOW + 2 * REST).await.unwrap(), 0, "the bot left the server");
        host.server_back(support::PLACE.guild, NOW + 2 * REST).await.unwrap();
        deliver_as(&host, 802).await;
        host.channel_deleted(support::PLACE.channel, NOW + 2 * REST).await.unwrap();
        deliver_as(&host, 803).await;
        assert_eq!(host.retell_refused(NOW + 4 * REST).await.unwrap(), 0, "the channel is gone");
    }
}

support::both! {
    async fn a_refusal_given_up_again_is_told_apart_from_a_new_one() {
        use tafl_bot::host::outbox::REPEATED_REFUSAL_SECS as DAY;
        let host = host().await;
        let g = game(&host, "brandubh").await;
        let lane = format!("game:{}", g.id);
        let refused = "Discord request failed: Missing Permissions";
        let refuse_head = |error: &'static str, now: i64| {
            let (host, lane) = (&host, &lane);
            async move {
                let head = host.outbox_head(lane, now).await.unwrap().unwrap();
                let given_up = host.give_up(head.id, error, now).await.unwrap().expect("pending until now");
                assert_eq!(host.give_up(head.id, error, now).await.unwrap(), None, "no longer pending");
                (head.show, given_up)
            }
        };
        let (board, first) = refuse_head(refused, NOW).await;
        assert_eq!(board, Show::Board { game: g.id, ply: 0 });
        assert_eq!((first.guild, first.repeated), (Some(support::PLACE.guild), false));
        // The notice is another kind of item: a refusal of its own.
        let (notice, given_up) = refuse_head(refused, NOW).await;
        assert!(matches!(notice, Show::YourMove { .. }) && !given_up.repeated, "{notice:?}");
        // The next board refused alike an hour later is the same refusal; the next notice,
        // refused for another reason, is not.
        host.play(g.id, alice().id, "d2-c2", Some(0), NOW + 3_600).await.unwrap();
        assert!(refuse_head(refused, NOW + 3_600).await.1.repeated);
        assert!(!refuse_head("Discord request failed: Unknown Message", NOW + 3_600).await.1.repeated);
        // Over a day after the last, it is told as new again.
        host.play(g.id, bob().id, "d3-c3", Some(1), NOW + 3_601 + DAY).await.unwrap();
        assert!(!refuse_head(refused, NOW + 3_601 + DAY).await.1.repeated);
    }
}

// ----- claims: one process per lane, with a lease -----

/// Two hosts on one database, as two processes with their own ids would have.
async fn two_processes() -> (tafl_bot::host::Host, tafl_bot::host::Host) {
    let (first, second) = support::two_dbs().await;
    (tafl_bot::host::Host::new(first).with_process_id("one"), tafl_bot::host::Host::new(second).with_process_id("two"))
}

/// The lease, in milliseconds, as the claims count it.
const LEASE_MS: i64 = tafl_bot::host::outbox::OUTBOX_LEASE.as_millis() as i64;

/// Unix milliseconds at the tests' `NOW`.
const T: i64 = NOW * 1000;

fn lanes(items: &[tafl_bot::host::Pending]) -> Vec<String> {
    let mut lanes: Vec<String> = items.iter().map(|item| item.lane.clone()).collect();
    lanes.sort();
    lanes
}

support::both! {
    async fn a_lane_is_claimed_by_one_process_until_its_lease_runs_out() {
        let (one, two) = two_processes().await;
        let first = game(&one, "brandubh").await;
        let second = game(&one, "brandubh").await;
        let all = lanes(&one.outbox_heads(NOW).await.unwrap());
        assert!(all.contains(&format!("game:{}", first.id)) && all.contains(&format!("game:{}", second.id)), "{all:?}");
        // One process takes the oldest lane, the other every other one; neither takes a lane twice.
        let mine = one.claim_lanes(T, 1).await.unwrap();
        assert_eq!(mine.len(), 1);
        let theirs = two.claim_lanes(T, 100).await.unwrap();
        assert_eq!(theirs.len(), all.len() - 1);
        assert!(!lanes(&theirs).contains(&mine[0].lane), "{theirs:?}");
        assert_eq!(one.claim_lanes(T, 100).await.unwrap(), []);
        assert_eq!(two.claim_lanes(T, 100).await.unwrap(), []);
        // Its first item delivered, the lane is still the holder's, though its head changed.
        let lane = mine[0].lane.clone();
        one.delivered(mine[0].id, None, NOW).await.unwrap();
        let next = one.outbox_head(&lane, NOW).await.unwrap().expect("a lane of a new game has a second item");
        assert_eq!(two.claim_lanes(T + LEASE_MS - 1, 100).await.unwrap(), [], "not before the lease ends");
        // The holder is gone without releasing: when the lease ends, the other process takes the
        // lane over, from the item the holder did not deliver.
        // (Its own lanes' leases ended too: it takes them again.)
        let taken = two.claim_lanes(T + LEASE_MS, 100).await.unwrap();
        assert_eq!(taken.iter().filter(|item| item.lane == lane).map(|item| item.id).collect::<Vec<_>>(), [next.id]);
        assert_eq!(lanes(&taken), all);
        assert!(!one.renew_lane(&lane, T + LEASE_MS + 1).await.unwrap(), "a lost claim is not renewed");
        one.release_lane(&lane, T + LEASE_MS + 1).await.unwrap();
        let claims = one.outbox_claims().await.unwrap();
        assert!(claims.contains(&(lane.clone(), "two".to_owned(), T + 2 * LEASE_MS)), "{claims:?}");
        assert!(claims.iter().all(|(_, by, _)| by == "two"), "{claims:?}");
        // Released, it is free at once.
        two.release_lane(&lane, T + LEASE_MS + 1).await.unwrap();
        let again = one.claim_lanes(T + LEASE_MS + 2, 100).await.unwrap();
        assert_eq!(again.iter().map(|item| item.id).collect::<Vec<_>>(), [next.id]);
    }
}

support::both! {
    async fn a_renewed_claim_is_kept_and_a_lane_waiting_for_a_retry_is_left_until_it_is_due() {
        let (one, two) = two_processes().await;
        let g = game(&one, "brandubh").await;
        let lane = format!("game:{}", g.id);
        let mine = one.claim_lanes(T, 100).await.unwrap();
        let head = mine.into_iter().find(|item| item.lane == lane).unwrap();
        assert!(one.renew_lane(&lane, T + LEASE_MS - 1).await.unwrap());
        assert_eq!(two.claim_lanes(T + LEASE_MS, 100).await.unwrap(), [], "renewed until T + 2 leases - 1");
        // A failed try: the holder releases the lane, which nobody takes before the retry is due.
        one.delivery_failed(head.id, "500", T + LEASE_MS + 500).await.unwrap();
        one.release_lane(&lane, T + LEASE_MS).await.unwrap();
        assert_eq!(one.next_retry_ms(T + LEASE_MS).await.unwrap(), Some(T + LEASE_MS + 500));
        assert!(!lanes(&two.claim_lanes(T + LEASE_MS + 499, 100).await.unwrap()).contains(&lane));
        let due = two.claim_lanes(T + LEASE_MS + 500, 100).await.unwrap();
        assert_eq!(due.iter().filter(|item| item.lane == lane).map(|item| item.id).collect::<Vec<_>>(), [head.id]);
        assert_eq!(one.next_retry_ms(T + LEASE_MS + 500).await.unwrap(), None);
    }
}

support::both! {
    async fn a_process_serving_shards_delivers_its_servers_items_and_anothers_only_after_a_grace() {
        use tafl_bot::host::outbox::FOREIGN_GRACE;
        let (first, second) = support::two_dbs().await;
        let zero = tafl_bot::host::Host::new(first).with_process_id("zero").with_shards(0, 0, 2);
        let one = tafl_bot::host::Host::new(second).with_process_id("one").with_shards(1, 1, 2);
        // Discord puts a server on shard `(id >> 22) % count`.
        let server_on = |shard: i64| ((1_000 + shard) << 22) | 7;
        let game_in = |guild: i64, at: i64| {
            let zero = zero.clone();
            async move {
                let mut asked = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
                asked.place = Place { guild, channel: 2, thread: None };
                let challenge = zero.challenge(&asked, at).await.unwrap();
                format!("game:{}", zero.accept(challenge.id, &bob(), at).await.unwrap().game.id)
            }
        };
        let (a, b) = (game_in(server_on(0), NOW).await, game_in(server_on(1), NOW).await);
        let taken = |items: Vec<tafl_bot::host::Pending>| lanes(&items);
        // Each process takes its own shard's game, whichever process recorded it.
        assert_eq!(taken(one.claim_lanes(T, 100).await.unwrap()), [b]);
        assert_eq!(taken(zero.claim_lanes(T, 100).await.unwrap()), std::slice::from_ref(&a));
        // Shard 0's process is gone, its lane given back undelivered: a new game of its server
        // waits for it for the grace, then goes to anyone, as the older lane already has.
        zero.release_lane(&a, T).await.unwrap();
        let c = game_in(server_on(0), NOW + 10).await;
        let grace = FOREIGN_GRACE.as_millis() as i64;
        let before = taken(one.claim_lanes((NOW + 10) * 1000 + grace - 1000, 100).await.unwrap());
        assert_eq!(before, [a], "recorded more than the grace ago");
        assert_eq!(taken(one.claim_lanes((NOW + 10) * 1000 + grace, 100).await.unwrap()), [c]);
    }
}

support::both! {
    /// The grace counts from when an item last came due, not from when it was recorded: the
    /// process of the item's shard took it, is alive, and gives the lane back while it waits
    /// out Discord's Retry-After, as `discord::delivery::run_lane` does. When the retry comes
    /// due, the item is still its own for the grace, not raced by every other process.
    async fn an_item_its_own_shards_process_is_retrying_is_not_taken_by_another_shards_process() {
        use tafl_bot::host::outbox::FOREIGN_GRACE;
        let (first, second) = support::two_dbs().await;
        let zero = tafl_bot::host::Host::new(first).with_process_id("zero").with_shards(0, 0, 2);
        let one = tafl_bot::host::Host::new(second).with_process_id("one").with_shards(1, 1, 2);
        let mut asked = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
        // Discord puts a server on shard `(id >> 22) % count`: this one on shard 0.
        asked.place = Place { guild: (1_000 << 22) | 7, channel: 2, thread: None };
        let challenge = zero.challenge(&asked, NOW).await.unwrap();
        let lane = format!("game:{}", zero.accept(challenge.id, &bob(), NOW).await.unwrap().game.id);
        let start = T + 1_000;
        let head = zero.claim_lanes(start, 100).await.unwrap().into_iter().find(|h| h.lane == lane).unwrap();
        // Discord answered 429 with Retry-After 20 s.
        let retry = start + 20_000;
        zero.delivery_failed(head.id, "429 Too Many Requests", retry).await.unwrap();
        zero.release_lane(&lane, start).await.unwrap();
        let grace = FOREIGN_GRACE.as_millis() as i64;
        // The retry comes due; the other shard's process happens to look first, and again
        // until just before the grace has passed since.
        for at in [retry, retry + grace - 1] {
            assert!(!lanes(&one.claim_lanes(at, 100).await.unwrap()).contains(&lane), "taken at {at}");
        }
        // Its own process takes it back, at once.
        let again = zero.claim_lanes(retry, 100).await.unwrap();
        assert_eq!(again.iter().filter(|h| h.lane == lane).map(|h| h.id).collect::<Vec<_>>(), [head.id]);
        // Had it been down, the lane would go to anyone once the grace had passed since the retry.
        zero.release_lane(&lane, retry).await.unwrap();
        let taken = one.claim_lanes(retry + grace, 100).await.unwrap();
        assert_eq!(taken.iter().filter(|h| h.lane == lane).map(|h| h.id).collect::<Vec<_>>(), [head.id]);
    }
}

support::both! { multi_thread
    async fn processes_claiming_at_once_never_share_a_lane() {
        let (first, second) = support::two_dbs().await;
        let hosts: Vec<tafl_bot::host::Host> = (0..4)
            .map(|n| tafl_bot::host::Host::new(if n % 2 == 0 { first.clone() } else { second.clone() }).with_process_id(&format!("p{n}")))
            .collect();
        for _ in 0..30 {
            game(&hosts[0], "brandubh").await;
        }
        let all = lanes(&hosts[0].outbox_heads(NOW).await.unwrap());
        assert!(all.len() >= 30, "{}", all.len());
        let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(hosts.len()));
        let tasks: Vec<_> = hosts
            .iter()
            .cloned()
            .map(|host| {
                let barrier = barrier.clone();
                tokio::spawn(async move {
                    barrier.wait().await;
                    // Small looks, again and again, until nothing is left to take.
                    let mut taken = Vec::new();
                    loop {
                        let claimed = host.claim_lanes(T, 3).await.unwrap();
                        if claimed.is_empty() {
                            return (host.process_id().to_owned(), taken);
                        }
                        taken.extend(claimed.into_iter().map(|item| item.lane));
                    }
                })
            })
            .collect();
        let mut claimed = Vec::new();
        for task in tasks {
            let (process, taken) = task.await.unwrap();
            claimed.extend(taken.into_iter().map(|lane| (lane, process.clone())));
        }
        claimed.sort();
        let mut taken: Vec<String> = claimed.iter().map(|(lane, _)| lane.clone()).collect();
        taken.dedup();
        assert_eq!(taken.len(), claimed.len(), "a lane was taken twice: {claimed:?}");
        assert_eq!(taken, all, "every lane was taken");
        let mut holders = hosts[0].outbox_claims().await.unwrap();
        holders.sort();
        assert_eq!(holders.into_iter().map(|(lane, by, _)| (lane, by)).collect::<Vec<_>>(), claimed);
    }
}

support::both! {
    /// The grace counts from the lane's last release too. The process of the item's shard took
    /// the lane and is alive: it delivered the first item slowly (Discord's rate limit), then
    /// gave the lane back for a moment because a click holds the board, as
    /// `discord::delivery` does. The next item, recorded with the first, came due more than the
    /// grace ago, but it waited behind that item in a live process: another shard's process
    /// taking it then would edit the board while the click holds the pen.
    async fn a_lane_its_own_shards_process_gave_back_for_a_click_is_not_taken_by_another_shards_process() {
        use tafl_bot::host::outbox::FOREIGN_GRACE;
        let (first, second) = support::two_dbs().await;
        let zero = tafl_bot::host::Host::new(first).with_process_id("zero").with_shards(0, 0, 2);
        let one = tafl_bot::host::Host::new(second).with_process_id("one").with_shards(1, 1, 2);
        let mut asked = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
        // Discord puts a server on shard `(id >> 22) % count`: this one on shard 1.
        asked.place = Place { guild: (1_001 << 22) | 7, channel: 2, thread: None };
        let challenge = one.challenge(&asked, NOW).await.unwrap();
        let lane = format!("game:{}", one.accept(challenge.id, &bob(), NOW).await.unwrap().game.id);
        let head = one.claim_lanes(T + 1_000, 100).await.unwrap().into_iter().find(|h| h.lane == lane).unwrap();
        assert!(matches!(head.show, Show::Board { .. }), "{head:?}");
        let released = T + 20_000;
        one.delivered(head.id, None, released / 1000).await.unwrap();
        one.release_lane(&lane, released).await.unwrap();
        let grace = FOREIGN_GRACE.as_millis() as i64;
        // The other shard's process looks first, and again until just before the grace has
        // passed since the release.
        for at in [released, released + grace - 1] {
            assert!(!lanes(&zero.claim_lanes(at, 100).await.unwrap()).contains(&lane), "taken at {at}");
        }
        // Its own process takes it back, at once, once the click is answered.
        let again = one.claim_lanes(released + 1, 100).await.unwrap();
        let next: Vec<Show> = again.into_iter().filter(|h| h.lane == lane).map(|h| h.show).collect();
        assert!(matches!(next[..], [Show::YourMove { .. }]), "{next:?}");
        // Had it been down since, the lane would go to anyone once the grace had passed.
        one.release_lane(&lane, released + 1).await.unwrap();
        assert!(lanes(&zero.claim_lanes(released + 1 + grace, 100).await.unwrap()).contains(&lane));
        // A claim given back keeps its row for the grace; then it says no more than none, and
        // the hourly prune deletes it.
        let back = released + 1 + grace;
        zero.release_lane(&lane, back).await.unwrap();
        let rows = || async {
            sqlx::query_scalar::<_, i64>("SELECT count(*) FROM outbox_claims WHERE lane = $1")
                .bind(&lane)
                .fetch_one(zero.db().pool())
                .await
                .unwrap()
        };
        zero.prune_outbox((back + grace) / 1000).await.unwrap();
        assert_eq!(rows().await, 1, "given back less than the grace ago");
        zero.prune_outbox((back + grace) / 1000 + 1).await.unwrap();
        assert_eq!(rows().await, 0);
    }
}

support::both! { multi_thread
    async fn a_kept_lane_stays_with_its_process_and_is_taken_over_once_its_keeper_stops() {
        use std::time::Duration;
        let (first, second) = support::two_dbs().await;
        let lease = Duration::from_millis(600);
        let one = tafl_bot::host::Host::new(first).with_process_id("one").with_outbox_lease(lease);
        let two = tafl_bot::host::Host::new(second).with_process_id("two").with_outbox_lease(lease);
        let g = game(&one, "brandubh").await;
        let lane = format!("game:{}", g.id);
        let now_ms = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        let claimed_at = now_ms();
        assert!(lanes(&one.claim_lanes(claimed_at, 100).await.unwrap()).contains(&lane));
        let keeper = {
            let (one, lane) = (one.clone(), lane.clone());
            tokio::spawn(async move { one.keep_lane(&lane, claimed_at).await })
        };
        // Three leases later the lane is still kept.
        tokio::time::sleep(lease * 3).await;
        assert!(!lanes(&two.claim_lanes(now_ms(), 100).await.unwrap()).contains(&lane));
        assert!(!keeper.is_finished());
        // The keeper stops (its process died): the other process takes the lane once the lease ran out.
        keeper.abort();
        let stopped = std::time::Instant::now();
        let taken = loop {
            if lanes(&two.claim_lanes(now_ms(), 100).await.unwrap()).contains(&lane) {
                break stopped.elapsed();
            }
            assert!(stopped.elapsed() < lease * 4, "the lane was never taken over");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert!(taken >= lease / 2, "not taken before the lease could run out ({taken:?})");
        // A keeper whose lane was taken over returns (its delivery must stop).
        tokio::time::timeout(lease * 2, one.keep_lane(&lane, now_ms())).await.expect("the keeper sees that it lost the lane");
    }
}

support::both! { multi_thread
    async fn many_lanes_kept_at_once_are_all_renewed() {
        use std::time::Duration;
        let (first, second) = support::two_dbs().await;
        let lease = Duration::from_millis(900);
        let one = tafl_bot::host::Host::new(first).with_process_id("one").with_outbox_lease(lease);
        let two = tafl_bot::host::Host::new(second).with_process_id("two").with_outbox_lease(lease);
        for _ in 0..25 {
            game(&one, "brandubh").await;
        }
        let now_ms = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        let claimed_at = now_ms();
        let kept = lanes(&one.claim_lanes(claimed_at, 100).await.unwrap());
        assert!(kept.len() >= 25, "{}", kept.len());
        let keepers: Vec<_> = kept
            .iter()
            .map(|lane| {
                let (one, lane) = (one.clone(), lane.clone());
                tokio::spawn(async move { one.keep_lane(&lane, claimed_at).await })
            })
            .collect();
        // Four leases later every lane is still kept, and nobody else could take one.
        for _ in 0..8 {
            tokio::time::sleep(lease / 2).await;
            assert_eq!(two.claim_lanes(now_ms(), 100).await.unwrap(), []);
        }
        assert!(keepers.iter().all(|keeper| !keeper.is_finished()), "a keeper lost its lane");
        let claims = one.outbox_claims().await.unwrap();
        assert_eq!(claims.len(), kept.len());
        assert!(claims.iter().all(|(_, by, until)| by == "one" && *until > now_ms()), "{claims:?}");
        for keeper in keepers {
            keeper.abort();
        }
    }
}

support::both! { multi_thread
    /// README: "A process whose renewal does not get through 5 s before its lease ends ... stops
    /// delivering that lane before anyone else may take it": also when the renewals fail at
    /// once (an error) rather than hang. Those used to be tried again a third of a lease later
    /// each, past the margin (a sixth of the lease) and up to the lease's end.
    async fn a_keeper_whose_renewals_fail_at_once_stops_a_margin_before_its_lease_ends() {
        use std::time::Duration;
        let lease = Duration::from_secs(3);
        let margin = (lease / 6).as_millis() as i64;
        let one = host().await.with_process_id("one").with_outbox_lease(lease);
        let g = game(&one, "brandubh").await;
        let lane = format!("game:{}", g.id);
        let now_ms = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        let claimed_at = now_ms();
        assert!(lanes(&one.claim_lanes(claimed_at, 100).await.unwrap()).contains(&lane));
        let first_lease = claimed_at + lease.as_millis() as i64;
        let keeper = {
            let (one, lane) = (one.clone(), lane.clone());
            tokio::spawn(async move {
                one.keep_lane(&lane, claimed_at).await;
                now_ms()
            })
        };
        // The first renewal gets through; every one after it fails at once.
        let lease_of = || async {
            let claims = one.outbox_claims().await.unwrap();
            claims.into_iter().find(|(held, _, _)| *held == lane).map(|(_, _, until)| until).unwrap()
        };
        let renewed = loop {
            let until = lease_of().await;
            if until > first_lease {
                break until;
            }
            assert!(now_ms() < first_lease, "the first renewal never got through");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let refusal: &[&'static str] = match support::backend() {
            support::Backend::Sqlite => &[
                "CREATE TRIGGER refuse_renewal BEFORE UPDATE ON outbox_claims BEGIN SELECT RAISE(ABORT, 'no renewal'); END",
            ],
            support::Backend::Postgres => &[
                "CREATE FUNCTION refuse_renewal() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'no renewal'; END $$",
                "CREATE TRIGGER refuse_renewal BEFORE UPDATE ON outbox_claims FOR EACH ROW \
                 EXECUTE FUNCTION refuse_renewal()",
            ],
        };
        for &statement in refusal {
            sqlx::query(statement).execute(one.db().pool()).await.unwrap();
        }
        let stopped = tokio::time::timeout(lease * 2, keeper).await.expect("the keeper stops").unwrap();
        assert_eq!(lease_of().await, renewed, "no renewal got through since");
        // It stops at `renewed - margin`; half the margin is left for the timer and a busy
        // machine (it used to stop a whole margin later, at the lease's end).
        assert!(
            stopped <= renewed - margin / 2,
            "the delivery went on {} ms into the margin of {margin} ms",
            stopped - (renewed - margin)
        );
    }
}

// A game's final board whose edit Discord refused for good (its thread locked, a moment without
// access) used never to be repaired: the sweep rested it for an hour and looked at finished
// games for an hour only, and compared only the ply, which an ending without a move (here a
// resignation) keeps. The board showed the game going on, with its controls, for ever.
support::both! {
    async fn a_finished_games_final_board_refused_once_is_redrawn_after_the_rest() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 900, Some(Drawn::at(0)), host.pending_board(g.id).await.unwrap(), BoardStyle::default(), NOW).await.unwrap();
        pending(&host).await;
        host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
        let head = host.outbox_head(&format!("game:{}", g.id), NOW).await.unwrap().unwrap();
        assert_eq!(head.show, Show::Board { game: g.id, ply: 0 });
        host.give_up(head.id, "403 Thread is locked", NOW).await.unwrap();
        pending(&host).await;
        let rest = tafl_bot::host::outbox::GIVEN_UP_REST_SECS;
        assert_eq!(host.redraw_stale_boards(NOW + rest - 1).await.unwrap(), 0, "resting");
        let mut redrawn = 0;
        for now in [NOW + rest + 1, NOW + rest + 60, NOW + 2 * rest] {
            redrawn += host.redraw_stale_boards(now).await.unwrap();
        }
        assert_eq!(redrawn, 1, "the final board is drawn again once its rest is over");
        assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 0 }]);
        // Shown at last, it is left alone.
        host.board_shown(g.id, 900, Drawn { ply: 0, over: true }, None, NOW + 2 * rest).await.unwrap();
        assert_eq!(host.redraw_stale_boards(NOW + 3 * rest).await.unwrap(), 0);
        assert_eq!(pending(&host).await, []);
    }
}

// A board drawn before the game ended at the same ply (a click racing a resignation) is found
// behind its game when it is recorded, as one drawn at another ply is.
support::both! {
    async fn a_board_drawn_before_an_ending_without_a_move_is_drawn_again() {
        let host = host().await;
        let g = game(&host, "brandubh").await;
        host.replace_board(g.id, 2, 900, Some(Drawn::at(0)), host.pending_board(g.id).await.unwrap(), BoardStyle::default(), NOW).await.unwrap();
        pending(&host).await;
        host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
        pending(&host).await;
        host.board_shown(g.id, 900, Drawn::at(0), None, NOW).await.unwrap();
        assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 0 }]);
    }
}
