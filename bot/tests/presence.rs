//! The games of a server that removed the bot: paused while it is away (nothing comes due, no
//! claim, no downtime grace), each turn given its time back when it returns, and what Discord
//! showed caught up. With an injected clock, on both databases.

mod support;

use support::{NOW, PLACE, alice, bob, carol, drain, host, move_at, request, run, snapshot, stored};
use tafl_bot::host::outbox::Show;
use tafl_bot::host::scheduler::CLAIM_WARNING;
use tafl_bot::host::{
    CLAIM_AFTER, Conclusion, Due, EndReason, Ending, GameId, GameView, Host, HostError, OfferAction, PausedGames,
    Place, ReminderKind, SideChoice, User, UserSettings,
};
use tafl_bot::present::Lang;
use tafl_bot::present::text::claimed;

const MINUTE: i64 = 60;
const HOUR: i64 = 3600;
const DAY: i64 = 86_400;
const GUILD: i64 = PLACE.guild;

/// A game of copenhagen with `clock` in `place`, alice attacking and bob defending, accepted at
/// `at`.
async fn game_in(host: &Host, place: Place, clock: &str, at: i64) -> GameView {
    let mut req = request(&alice(), Some(&bob()), "copenhagen", SideChoice::Attackers);
    req.clock = Some(clock.parse().unwrap());
    req.place = place;
    let c = host.challenge(&req, at).await.unwrap();
    host.accept(c.id, &bob(), at).await.unwrap().game
}

support::both! {
    async fn a_removal_stops_the_clock_and_the_return_gives_the_turn_its_time_back() {
        // Ticks hours apart: no downtime grace between them (that is the next test).
        let host = host().await.with_grace(1000 * DAY, HOUR);
        host.tick(NOW).await.unwrap();
        let game = game_in(&host, PLACE, "1d", NOW).await;
        move_at(&host, game.id, NOW + HOUR).await;
        assert_eq!(stored(&host, game.id, "deadline_at").await, Some(NOW + HOUR + DAY), "bob's turn");
        drain(&host, NOW).await;

        // Bob has used one hour of his day when the bot is removed: nothing comes due for ten
        // days, though his deadline passes.
        let left = NOW + 2 * HOUR;
        assert!(host.server_left(GUILD, left).await.unwrap());
        assert!(!host.server_left(GUILD, left + HOUR).await.unwrap(), "a second notice keeps the first moment");
        let listed = host.games(bob().id, false).await.unwrap();
        assert!(listed[0].paused() && !listed[0].awaits_me(), "his list says so, and no digest names it");
        let back = left + 10 * DAY;
        let found = run(&host, left, back - MINUTE, 6 * HOUR).await;
        assert!(found.is_empty(), "{found:?}");
        assert!(!host.show(game.id).await.unwrap().is_over());

        // Back: his turn began an hour before the bot left, so he has 23 hours from the return.
        assert_eq!(host.server_back(GUILD, back).await.unwrap(), [game.id]);
        assert!(host.server_back(GUILD, back + MINUTE).await.unwrap().is_empty(), "once");
        assert_eq!(stored(&host, game.id, "turn_started_at").await, Some(back - HOUR));
        assert_eq!(stored(&host, game.id, "deadline_at").await, Some(back + DAY - HOUR));
        let view = host.show(game.id).await.unwrap();
        assert_eq!(view.time_left(back), Some(DAY - HOUR));
        assert!(!host.games(bob().id, false).await.unwrap()[0].paused());
        assert_eq!(drain(&host, NOW).await, [Show::Board { game: game.id, ply: 1 }], "the board shows the new deadline");

        // The reminders and the time-out come as if the ten days had not been.
        let found = run(&host, back, back + DAY, 30 * MINUTE).await;
        let moments: Vec<(i64, &'static str)> = found
            .iter()
            .map(|(at, due)| match due {
                Due::Reminder(_) => (*at, "reminder"),
                Due::TimedOut(_) => (*at, "time-out"),
                other => panic!("{other:?}"),
            })
            .collect();
        // The first tick at or after each moment: half the day gone, a tenth of it left, none.
        let tick_at = |moment: i64| back + (moment - back + 30 * MINUTE - 1) / (30 * MINUTE) * (30 * MINUTE);
        let started = back - HOUR;
        let (halfway, last, out) = (started + DAY / 2, started + DAY - DAY / 10, started + DAY);
        let expected = [(tick_at(halfway), "reminder"), (tick_at(last), "reminder"), (tick_at(out), "time-out")];
        assert_eq!(moments, expected, "{found:?}");
    }
}

support::both! {
    async fn the_downtime_grace_leaves_paused_games_alone() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let paused = game_in(&host, PLACE, "1h", NOW).await;
        let elsewhere = Place { guild: GUILD + 1, ..PLACE };
        let playing = game_in(&host, elsewhere, "1h", NOW).await;
        host.server_left(GUILD, NOW + MINUTE).await.unwrap();

        // The bot is down for a day: the game elsewhere gets the grace hour, the paused one
        // keeps its deadline (its turn gets the whole absence back at the return).
        let after = NOW + DAY;
        let found = host.tick(after).await.unwrap();
        let graced: Vec<&Vec<GameId>> = found
            .iter()
            .filter_map(|due| match due {
                Due::Grace { games, .. } => Some(games),
                _ => None,
            })
            .collect();
        assert_eq!(graced, [&vec![playing.id]], "{found:?}");
        assert_eq!(stored(&host, paused.id, "deadline_at").await, Some(NOW + HOUR));
        host.server_back(GUILD, after).await.unwrap();
        assert_eq!(stored(&host, paused.id, "deadline_at").await, Some(after + HOUR - MINUTE));
    }
}

support::both! {
    async fn a_turn_begun_while_the_bot_is_away_gets_all_of_its_time() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        let game = game_in(&host, PLACE, "1d", NOW).await;
        host.server_left(GUILD, NOW + HOUR).await.unwrap();
        // Alice moves by game id from elsewhere while the bot is away: the game goes on.
        let moved = NOW + 3 * DAY;
        move_at(&host, game.id, moved).await;
        assert_eq!(stored(&host, game.id, "deadline_at").await, Some(moved + DAY));
        assert!(run(&host, moved, moved + 5 * DAY, 6 * HOUR).await.is_empty(), "still paused");
        let back = NOW + 10 * DAY;
        host.server_back(GUILD, back).await.unwrap();
        assert_eq!(stored(&host, game.id, "turn_started_at").await, Some(back));
        assert_eq!(stored(&host, game.id, "deadline_at").await, Some(back + DAY));
    }
}

support::both! {
    async fn an_untimed_game_cannot_be_claimed_while_paused_and_its_wait_resumes_at_the_return() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        let game = game_in(&host, PLACE, "none", NOW).await;
        let since = NOW + HOUR;
        move_at(&host, game.id, since).await;
        let left = since + 10 * DAY;
        host.server_left(GUILD, left).await.unwrap();
        let refused = host.claim(game.id, alice().id, left + CLAIM_AFTER - 1).await.unwrap_err();
        assert_eq!(refused, HostError::ClaimPaused { id: game.id, claimable_at: left + CLAIM_AFTER });
        assert!(run(&host, left, left + 30 * DAY, DAY).await.is_empty(), "no claim notice either");

        // Back after 30 days: bob's ten days before the removal count, the 30 away do not.
        let back = left + 30 * DAY;
        host.server_back(GUILD, back).await.unwrap();
        let claimable_at = back + CLAIM_AFTER - 10 * DAY;
        let early = host.claim(game.id, alice().id, claimable_at - 1).await.unwrap_err();
        assert!(matches!(early, HostError::ClaimTooSoon { claimable_at: at, .. } if at == claimable_at), "{early:?}");
        let listed = host.games(alice().id, false).await.unwrap();
        assert_eq!(listed[0].claimable_at, Some(claimable_at), "the list agrees with the claim");
        let found = run(&host, back, claimable_at, DAY / 2).await;
        let warned_at = claimable_at - CLAIM_WARNING;
        assert!(
            matches!(found.as_slice(), [(warned, Due::Reminder(r)), (at, Due::Claimable(_))]
                if *warned == warned_at && r.kind == ReminderKind::ClaimWarning && *at == claimable_at),
            "bob warned, then alice told: {found:?}"
        );
        host.claim(game.id, alice().id, claimable_at).await.unwrap();
    }
}

support::both! {
    async fn a_return_during_the_bots_downtime_does_not_bring_an_untimed_claim_forward() {
        // Default downtime and grace: the bot is down while the server takes it back.
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let game = game_in(&host, PLACE, "none", NOW).await;
        // A timed game elsewhere, whose deadline passes while the bot is down: the grace shows.
        let elsewhere = game_in(&host, Place { guild: GUILD + 1, ..PLACE }, "1h", NOW).await;
        let turn = NOW + HOUR;
        move_at(&host, game.id, turn).await;
        let left = NOW + 2 * HOUR;
        host.server_left(GUILD, left).await.unwrap();
        // Five days later the bot connects again; the server's return is written before the
        // scheduler's first tick, which then finds the downtime and gives its grace.
        let back = NOW + 5 * DAY;
        host.server_back(GUILD, back).await.unwrap();
        let found = host.tick(back + 1).await.unwrap();
        assert!(found.iter().any(|due| matches!(due, Due::Grace { games, .. } if games == &[elsewhere.id])), "{found:?}");
        // Bob's hour before the removal counts; the days away and the grace do not bring the
        // claim forward: it is two weeks after his turn, less that hour, from the return.
        let claimable_at = back + CLAIM_AFTER - (left - turn);
        assert_eq!(host.games(alice().id, false).await.unwrap()[0].claimable_at, Some(claimable_at));
        let early = host.claim(game.id, alice().id, back + 2 * HOUR).await.unwrap_err();
        assert!(matches!(early, HostError::ClaimTooSoon { claimable_at: at, .. } if at == claimable_at), "{early:?}");
        let found = run(&host, back + 2, back + 2 * DAY, HOUR).await;
        assert!(found.iter().all(|(_, due)| !matches!(due, Due::Claimable(_))), "{found:?}");
    }
}

support::both! {
    async fn after_two_weeks_away_either_player_may_end_a_paused_game_without_a_result() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        // A rated game well under way, timed, and alice to move: nobody could win it by claim.
        let game = game_in(&host, PLACE, "3d", NOW).await;
        for ply in 0..4 {
            move_at(&host, game.id, NOW + ply).await;
        }
        let untimed = game_in(&host, PLACE, "none", NOW).await;
        let mut req = request(&alice(), None, "copenhagen", SideChoice::Attackers);
        req.clock = Some("none".parse().unwrap());
        let against_bot = host.challenge_bot(&req, 1, true, NOW).await.unwrap();
        // Bob has offered a draw, and the bot has a move to make when the server removes it.
        host.draw(game.id, bob().id, OfferAction::Offer, None, NOW + 10).await.unwrap();
        move_at(&host, against_bot.id, NOW + 10).await;
        assert_eq!(stored(&host, against_bot.id, "bot_turn_at").await, Some(NOW + 10));
        drain(&host, NOW).await;
        let left = NOW + HOUR;
        host.server_left(GUILD, left).await.unwrap();

        let before = snapshot(&host).await;
        let early = host.claim(game.id, bob().id, left + CLAIM_AFTER - 1).await.unwrap_err();
        assert_eq!(early, HostError::ClaimPaused { id: game.id, claimable_at: left + CLAIM_AFTER });
        assert_eq!(snapshot(&host).await, before, "a refusal changes nothing");
        let listed = host.games(alice().id, false).await.unwrap();
        assert!(listed.iter().all(|g| g.paused() && !g.may_end_paused(left + CLAIM_AFTER - 1)));
        assert!(listed.iter().all(|g| g.may_end_paused(left + CLAIM_AFTER)), "the list says so when it may");

        // The player waiting, the player to move, and a game against the bot: each ends without
        // a result, and no rating moves.
        let at = left + CLAIM_AFTER;
        let stranger = host.claim(game.id, carol().id, at).await.unwrap_err();
        assert_eq!(stranger, HostError::NotAPlayer(game.id), "only its players may end it");
        for (id, user) in [(game.id, bob().id), (untimed.id, alice().id), (against_bot.id, alice().id)] {
            let ended = host.claim(id, user, at).await.unwrap();
            assert_eq!(ended.game.ending, Some(Ending { winner: None, reason: EndReason::BotRemoved }), "game {id}");
            assert_eq!(stored(&host, id, "next_due_at").await, None);
            // The answer blames nobody, whoever was to move and however far the game went.
            assert_eq!(
                claimed(&ended.game, Lang::discord(None)),
                format!(
                    "Game #{id} is over: the bot has been away from its server for 14 days or more, so the game \
                     ends without a result and without a rating."
                )
            );
            assert_eq!(
                claimed(&ended.game, Lang::discord(Some("ru"))),
                format!(
                    "Партия №{id} окончена: бота нет на её сервере уже 14 дней или больше, поэтому она без \
                     результата и без рейтинга."
                )
            );
        }
        assert!(host.leaderboard("copenhagen", None, 10, NOW + 86_400).await.unwrap().entries.is_empty(), "nobody is rated");
        assert_eq!(stored(&host, against_bot.id, "bot_turn_at").await, None, "the bot has no move to make");
        let open: i64 = sqlx::query_scalar("SELECT count(*) FROM offers WHERE state = 'open'")
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(open, 0, "bob's offer lapsed with the game");
        assert_eq!(host.profile(alice().id, None, NOW + 86_400).await.unwrap().games(), 0);
        let summary = host.summary(game.id).await.unwrap();
        assert_eq!(summary.conclusion, Conclusion::BotRemoved);
        let record = host.export(game.id).await.unwrap();
        assert!(record.contains("[result:?]") && record.contains("[termination:bot_removed]"), "{record}");
        // Such a record imports as it ended: without a result (on another server, to leave this
        // one's games as they are).
        let elsewhere = Place { guild: GUILD + 1, ..PLACE };
        let imported = host.import(&record, &alice(), &bob(), elsewhere, at).await.unwrap();
        assert_eq!(imported.ending, Some(Ending { winner: None, reason: EndReason::BotRemoved }));
        assert!(summary.rating_changes.is_empty());
        assert!(host.games(alice().id, false).await.unwrap().is_empty(), "no game is left open");
        let again = host.claim(game.id, alice().id, at + 1).await.unwrap_err();
        assert!(matches!(again, HostError::GameOver { .. }), "{again:?}");

        // What the endings would show waits for the bot's return, and then comes.
        assert!(host.claim_lanes((at + 1) * 1000, 100).await.unwrap().is_empty());
        host.server_back(GUILD, at + DAY).await.unwrap();
        let shown = drain(&host, at + DAY).await;
        for id in [game.id, untimed.id, against_bot.id] {
            assert!(shown.contains(&Show::Summary { game: id }), "{id}: {shown:?}");
        }
    }
}

support::both! {
    async fn a_game_that_ended_while_the_bot_was_away_gets_its_board_and_summary_at_the_return() {
        let host = host().await;
        let shown = game_in(&host, PLACE, "none", NOW).await;
        let lost = game_in(&host, PLACE, "none", NOW).await;
        let older = game_in(&host, PLACE, "none", NOW).await;
        let just_before = game_in(&host, PLACE, "none", NOW).await;
        host.resign(older.id, bob().id, None, NOW + MINUTE).await.unwrap();
        drain(&host, NOW).await;
        // One ends a moment before the removal, and Discord refuses its summary after it.
        host.resign(just_before.id, bob().id, None, NOW + HOUR - 1).await.unwrap();
        host.server_left(GUILD, NOW + HOUR).await.unwrap();
        sqlx::query("UPDATE outbox SET state = 'given_up', finished_at = $1 WHERE lane = $2 AND state = 'pending'")
            .bind(NOW + HOUR + 1)
            .bind(format!("game:{}", just_before.id))
            .execute(host.db().pool())
            .await
            .unwrap();
        // Both end by resignation from elsewhere; one summary reached Discord before the removal
        // took effect, the other was refused (given up, as a removed bot's requests are).
        host.resign(shown.id, bob().id, None, NOW + 2 * HOUR).await.unwrap();
        host.resign(lost.id, bob().id, None, NOW + 2 * HOUR).await.unwrap();
        drain(&host, NOW).await;
        sqlx::query("UPDATE outbox SET state = 'given_up' WHERE lane = $1 AND kind = 'summary'")
            .bind(format!("game:{}", lost.id))
            .execute(host.db().pool())
            .await
            .unwrap();

        let back = host.server_back(GUILD, NOW + DAY).await.unwrap();
        assert_eq!(back, [shown.id, lost.id, just_before.id], "not the game whose summary was shown before");
        let mut again = drain(&host, NOW).await;
        again.sort_by_key(|show| format!("{show:?}"));
        let expected = [
            Show::Board { game: shown.id, ply: 0 },
            Show::Board { game: lost.id, ply: 0 },
            Show::Summary { game: lost.id },
            Show::Board { game: just_before.id, ply: 0 },
            Show::Summary { game: just_before.id },
        ];
        let mut expected = expected.to_vec();
        expected.sort_by_key(|show| format!("{show:?}"));
        assert_eq!(again, expected);
    }
}

support::both! {
    async fn ready_leaves_the_servers_it_does_not_list_from_the_last_tick_and_resumes_those_it_lists() {
        let host = host().await;
        let (here, gone) = (PLACE, Place { guild: GUILD + 1, ..PLACE });
        // A server on the other of two shards: judged by that shard's READY only.
        let other_shard = Place { guild: 1 << 22, ..PLACE };
        let kept = game_in(&host, here, "1d", NOW).await;
        let paused = game_in(&host, gone, "1d", NOW).await;
        let foreign = game_in(&host, other_shard, "1d", NOW).await;
        let sharded = host.clone().with_shards(0, 1, 2);
        sharded.tick(NOW + HOUR).await.unwrap();

        // The bot comes back a day later; READY for shard 0 does not list `gone`: it was removed
        // at some point of the downtime, and its games count none of it.
        let ready = NOW + DAY;
        let listed = host.servers_listed(0, 2, &[GUILD], ready).await.unwrap();
        assert_eq!(listed.left, [gone.guild]);
        assert!(listed.resumed.is_empty());
        let left_at: Option<i64> = sqlx::query_scalar("SELECT left_at FROM servers WHERE id = $1")
            .bind(gone.guild)
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(left_at, Some(NOW + HOUR), "the shard's last tick, the last moment it was seen");
        assert_eq!(host.servers_listed(0, 2, &[GUILD], ready + 1).await.unwrap(), tafl_bot::host::Listed::default(), "once");
        let paused_now = |id: GameId| {
            let host = &host;
            async move { host.games(alice().id, false).await.unwrap().iter().any(|g| g.id == id && g.paused()) }
        };
        assert!(paused_now(paused.id).await);
        assert!(!paused_now(kept.id).await && !paused_now(foreign.id).await);

        // A later READY lists it again (the bot was invited back while it was away): resumed,
        // with the turn's time from before the last tick.
        let again = ready + DAY;
        let listed = host.servers_listed(0, 2, &[GUILD, gone.guild], again).await.unwrap();
        assert_eq!(listed, tafl_bot::host::Listed { left: vec![], resumed: vec![paused.id] });
        assert!(!paused_now(paused.id).await);
        assert_eq!(stored(&host, paused.id, "deadline_at").await, Some(NOW + DAY + (again - (NOW + HOUR))));
    }
}

support::both! {
    async fn a_move_made_while_paused_costs_no_reserve_for_the_time_away() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        // One day per move, unused time saved up to three days.
        let game = game_in(&host, PLACE, "1d+3d", NOW).await;
        let left = NOW + 2 * HOUR;
        host.server_left(GUILD, left).await.unwrap();
        // Alice moves by game id from elsewhere five days later: charged the two hours before
        // the bot left, so 22 of her 24 hours go to her reserve.
        move_at(&host, game.id, left + 5 * DAY).await;
        assert_eq!(stored(&host, game.id, "attacker_reserve").await, Some(DAY - 2 * HOUR));
    }
}

support::both! {
    async fn what_a_left_server_would_show_waits_for_the_return_and_the_bot_does_not_play_there() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        let game = game_in(&host, PLACE, "none", NOW).await;
        let mut req = request(&alice(), None, "copenhagen", SideChoice::Attackers);
        req.clock = Some("none".parse().unwrap());
        let against_bot = host.challenge_bot(&req, 1, false, NOW).await.unwrap();
        drain(&host, NOW).await;
        host.server_left(GUILD, NOW + HOUR).await.unwrap();
        // A move by id while away: its board and notice wait, and the bot does not answer.
        move_at(&host, game.id, NOW + 2 * HOUR).await;
        move_at(&host, against_bot.id, NOW + 2 * HOUR).await;
        assert!(host.bot_turns(10).await.unwrap().is_empty(), "no search for a paused game");
        let ms = (NOW + 3 * HOUR) * 1000;
        assert!(host.claim_lanes(ms, 100).await.unwrap().is_empty(), "nothing is sent to a server the bot left");
        host.server_back(GUILD, NOW + DAY).await.unwrap();
        let turns: Vec<GameId> = host.bot_turns(10).await.unwrap().iter().map(|t| t.game_id).collect();
        assert_eq!(turns, [against_bot.id]);
        let lanes: Vec<String> = host.claim_lanes(ms, 100).await.unwrap().iter().map(|p| p.lane.clone()).collect();
        assert_eq!(lanes, [format!("game:{}", game.id), format!("game:{}", against_bot.id)], "all of it, at the return");
    }
}

/// Turns notices by DM on for `user`.
async fn wants_dms(host: &Host, user: &User) {
    let settings = UserSettings { dm_notifications: true, ..UserSettings::default() };
    host.set_user_settings(user, &settings, NOW).await.unwrap();
}

/// The ids of the games in each [`Due::PausedGames`] found, by the person told.
fn paused_told(found: &[Due]) -> Vec<(i64, Vec<GameId>)> {
    found
        .iter()
        .filter_map(|due| match due {
            Due::PausedGames(PausedGames { user, guild, games }) => {
                assert_eq!(*guild, GUILD);
                Some((user.id, games.iter().map(|g| g.id).collect()))
            }
            _ => None,
        })
        .collect()
}

support::both! {
    async fn the_players_who_asked_for_dms_are_told_once_when_their_paused_games_may_be_ended() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        wants_dms(&host, &alice()).await;
        wants_dms(&host, &carol()).await;
        // Alice plays bob (who wants no DMs), carol and the bot there, and bob elsewhere; one
        // game there is over.
        let timed = game_in(&host, PLACE, "3d", NOW).await;
        let mut req = request(&alice(), Some(&carol()), "brandubh", SideChoice::Defenders);
        req.clock = Some("none".parse().unwrap());
        let c = host.challenge(&req, NOW).await.unwrap();
        let with_carol = host.accept(c.id, &carol(), NOW + 1).await.unwrap().game;
        let mut req = request(&alice(), None, "copenhagen", SideChoice::Attackers);
        req.clock = Some("none".parse().unwrap());
        let against_bot = host.challenge_bot(&req, 1, false, NOW + 2).await.unwrap();
        let elsewhere = game_in(&host, Place { guild: GUILD + 1, ..PLACE }, "none", NOW).await;
        let over = game_in(&host, PLACE, "none", NOW).await;
        host.resign(over.id, bob().id, None, NOW + 3).await.unwrap();
        drain(&host, NOW).await;
        let left = NOW + HOUR;
        host.server_left(GUILD, left).await.unwrap();
        let notice_at = left + CLAIM_AFTER;
        // (The untimed game elsewhere comes due first: its claim moment is an hour earlier.)
        assert_eq!(host.next_due_after(notice_at - 1).await.unwrap(), Some(notice_at), "the console's /wait finds it");

        // Nothing before the two weeks; then one DM each for alice and carol, none for bob or
        // the bot, and the lines they list are the games they may end there.
        let told = |found: Vec<Due>| paused_told(&found);
        assert_eq!(told(host.tick(notice_at - 1).await.unwrap()), []);
        let found = host.tick(notice_at).await.unwrap();
        let mut alices = vec![timed.id, with_carol.id, against_bot.id];
        alices.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(told(found), [(alice().id, alices.clone()), (carol().id, vec![with_carol.id])]);
        let listed = host.paused_games(alice().id, GUILD, notice_at).await.unwrap();
        assert!(listed.iter().all(|g| g.may_end_paused(notice_at)), "{listed:?}");
        assert!(!listed.iter().any(|g| g.id == elsewhere.id || g.id == over.id));
        assert!(host.paused_games(alice().id, GUILD, notice_at - 1).await.unwrap().is_empty(), "not endable yet");
        // Delivered by DM although the server is gone: they belong to no server.
        let mut shown = drain(&host, notice_at).await;
        shown.sort_by_key(|show| format!("{show:?}"));
        // (The game elsewhere was never warned before its claim: this host's first tick is a
        // start after downtime, which warns at once; see the scheduler's grace.)
        let (paused, others): (Vec<Show>, Vec<Show>) =
            shown.into_iter().partition(|show| matches!(show, Show::PausedGames { .. }));
        assert_eq!(
            paused,
            [Show::PausedGames { user: alice().id, guild: GUILD }, Show::PausedGames { user: carol().id, guild: GUILD }]
        );
        assert!(
            others.iter().all(|show| matches!(show, Show::Reminder { game, .. } if *game == elsewhere.id)),
            "{others:?}"
        );
        assert_eq!(told(host.tick(notice_at + DAY).await.unwrap()), [], "once");
        // Nothing more in the paused server; the game elsewhere may be claimed two days after
        // its warning.
        assert_eq!(host.next_due_after(notice_at).await.unwrap(), Some(notice_at - 1 + CLAIM_WARNING));

        // Once alice ends the game with carol, carol's list is empty: a DM still waiting for
        // Discord would say nothing.
        host.claim(with_carol.id, alice().id, notice_at + DAY).await.unwrap();
        assert!(host.paused_games(carol().id, GUILD, notice_at + DAY).await.unwrap().is_empty());
    }
}

support::both! {
    async fn a_server_that_takes_the_bot_back_within_two_weeks_sends_no_notice_and_a_new_removal_starts_again() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        wants_dms(&host, &alice()).await;
        let game = game_in(&host, PLACE, "none", NOW).await;
        host.server_left(GUILD, NOW + HOUR).await.unwrap();
        host.server_back(GUILD, NOW + DAY).await.unwrap();
        let found = run(&host, NOW + DAY, NOW + 20 * DAY, DAY).await;
        assert!(found.iter().all(|(_, due)| !matches!(due, Due::PausedGames(_))), "{found:?}");

        // Removed again: the two weeks count from the second removal.
        let again = NOW + 20 * DAY + HOUR;
        host.server_left(GUILD, again).await.unwrap();
        assert_eq!(paused_told(&host.tick(again + CLAIM_AFTER - 1).await.unwrap()), []);
        assert_eq!(paused_told(&host.tick(again + CLAIM_AFTER).await.unwrap()), [(alice().id, vec![game.id])]);
    }
}
