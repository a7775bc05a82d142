//! The host's outbox: what a front end must show is recorded in the transaction of the change,
//! in order per game; refusals record nothing; product rules (the expected ply of offers and
//! resignations, one open offer per kind, the server's channels and default clock) hold in the
//! host.

mod support;

use support::{NOW, alice, bob, carol, game, host, request, snapshot};
use tafl_bot::host::{HostError, OfferAction, OfferEvent, OfferKind, Place, ServerSettings, Show, SideChoice};

/// Every pending item, oldest first, as the delivery task would see them lane by lane.
async fn pending(host: &tafl_bot::host::Host) -> Vec<Show> {
    let mut all = Vec::new();
    for head in host.outbox_heads(NOW).await.unwrap() {
        let mut lane = Vec::new();
        // Drain the lane in order, marking each delivered.
        let mut next = Some(head);
        while let Some(item) = next {
            lane.push(item.show.clone());
            host.delivered(item.id, None, NOW).await.unwrap();
            next = host.outbox_head(&item.lane, NOW).await.unwrap();
        }
        all.extend(lane);
    }
    all
}

#[tokio::test]
async fn a_game_records_its_board_notices_and_summary_in_order() {
    let host = host().await;
    let g = game(&host, "brandubh").await;
    assert_eq!(
        pending(&host).await,
        [Show::Board { game: g.id, ply: 0 }, Show::YourMove { game: g.id, ply: 0 }],
        "accepting shows the board and tells the first player"
    );
    host.play(g.id, alice().id, "d2-c2", Some(0), NOW).await.unwrap();
    host.play(g.id, bob().id, "d3-c3", None, NOW).await.unwrap();
    assert_eq!(
        pending(&host).await,
        [
            Show::Board { game: g.id, ply: 1 },
            Show::YourMove { game: g.id, ply: 1 },
            Show::Board { game: g.id, ply: 2 },
            Show::YourMove { game: g.id, ply: 2 },
        ]
    );
    host.resign(g.id, alice().id, Some(2), NOW).await.unwrap();
    assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 2 }, Show::Summary { game: g.id }]);
}

#[tokio::test]
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
                notify: vec![alice().id]
            },
            Show::Board { game: g.id, ply: 1 },
        ]
    );
}

#[tokio::test]
async fn the_schema_keeps_one_open_offer_per_game_and_kind() {
    let host = host().await;
    let g = game(&host, "brandubh").await;
    host.draw(g.id, alice().id, OfferAction::Offer, None, NOW).await.unwrap();
    let second =
        sqlx::query("INSERT INTO offers (game_id, kind, by_user, at_ply, created_at) VALUES (?, 'draw', ?, 0, ?)")
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

#[tokio::test]
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
}

#[tokio::test]
async fn boards_coalesce_and_a_board_left_behind_is_redrawn() {
    let host = host().await;
    let g = game(&host, "brandubh").await;
    host.replace_board(g.id, 2, 900, Some(0), host.pending_board(g.id).await.unwrap(), NOW).await.unwrap();
    host.play(g.id, alice().id, "d2-c2", None, NOW).await.unwrap();
    host.play(g.id, bob().id, "d3-c3", None, NOW).await.unwrap();
    // One drawing at ply 2, read after both moves, covers both board items.
    let covers = host.pending_board(g.id).await.unwrap();
    host.board_shown(g.id, 900, 2, covers, NOW).await.unwrap();
    let left: Vec<Show> = pending(&host).await;
    assert!(!left.iter().any(|s| matches!(s, Show::Board { .. })), "{left:?}");
    // A drawing that lost a race (it shows ply 1 while the game is at 2) records a new board.
    host.board_shown(g.id, 900, 1, None, NOW).await.unwrap();
    assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 2 }]);
    // A board that shows another ply with nothing pending (a crash) is found and redrawn.
    sqlx::query("UPDATE board_messages SET shown_ply = 0 WHERE game_id = ?")
        .bind(g.id)
        .execute(host.db().pool())
        .await
        .unwrap();
    assert_eq!(host.redraw_stale_boards(NOW).await.unwrap(), 1);
    assert_eq!(host.redraw_stale_boards(NOW).await.unwrap(), 0, "once");
    assert_eq!(pending(&host).await, [Show::Board { game: g.id, ply: 2 }]);
}

#[tokio::test]
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
    assert_eq!(next.show, Show::YourMove { game: g.id, ply: 0 });
    let counts = host.outbox_counts().await.unwrap();
    assert!(counts.contains(&("given_up".to_owned(), 1)), "{counts:?}");
    // Only the challenge's players appear in the items; a stranger's refusal adds none.
    assert!(host.resign(g.id, carol().id, None, NOW).await.is_err());
    assert_eq!(host.outbox_head(&head.lane, NOW).await.unwrap().unwrap().id, next.id);
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

#[tokio::test]
async fn a_finished_game_has_its_last_your_move_notice_deleted_once_the_summary_is_posted() {
    let host = host().await;
    let g = game(&host, "brandubh").await;
    host.replace_board(g.id, 2, 800, Some(0), None, NOW).await.unwrap();
    assert!(deliver_as(&host, 801).await.contains(&Show::YourMove { game: g.id, ply: 0 }));
    assert_eq!(host.board_message(g.id).await.unwrap().unwrap().notice_id, Some(801));
    host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
    let shown = deliver_as(&host, 802).await;
    let summary = shown.iter().position(|show| *show == Show::Summary { game: g.id }).expect("the summary");
    // Right after the summary, in the game's lane: the notice goes.
    assert_eq!(shown[summary + 1..], [Show::Delete { game: g.id, channel: 2, message: 801 }], "{shown:?}");
    assert_eq!(host.board_message(g.id).await.unwrap().unwrap().notice_id, None);
}

#[tokio::test]
async fn a_summary_with_no_notice_before_it_deletes_nothing() {
    let host = host().await;
    let g = game(&host, "brandubh").await;
    host.replace_board(g.id, 2, 800, Some(0), None, NOW).await.unwrap();
    pending(&host).await;
    host.resign(g.id, alice().id, Some(0), NOW).await.unwrap();
    let shown = deliver_as(&host, 802).await;
    assert!(shown.contains(&Show::Summary { game: g.id }), "{shown:?}");
    assert!(!shown.iter().any(|show| matches!(show, Show::Delete { .. })), "{shown:?}");
}

#[tokio::test]
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

#[tokio::test]
async fn a_front_end_that_delivers_nothing_can_empty_the_outbox() {
    let host = host().await;
    let g = game(&host, "brandubh").await;
    host.play(g.id, alice().id, "d2-c2", Some(0), NOW).await.unwrap();
    assert!(!host.outbox_heads(NOW).await.unwrap().is_empty());
    host.discard_outbox().await.unwrap();
    assert_eq!(host.outbox_counts().await.unwrap(), []);
}
