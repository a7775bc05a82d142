//! Correspondence play in the host, with an injected clock (no sleeping): settings, clocks on
//! games, reminders, time-outs, the daily digest, grace after downtime, and several schedulers
//! on one database.

mod support;

use std::sync::Arc;

use support::{Backend, NOW, PLACE, alice, bob, carol, host, move_at, request, run, snapshot, stored, temp_path};
use tafl_bot::host::outbox::Show;
use tafl_bot::host::scheduler::{CLAIM_WARNING, MAX_DIGEST_GAMES};
use tafl_bot::host::{
    Awaiting, CLAIM_AFTER, ChallengeState, Claimable, Clock, Conclusion, Due, EndReason, Ending, GameId, GameView,
    Host, HostError, OfferAction, OfferOutcome, Place, ReminderKind, ServerChange, ServerSettings, SettingsInForce,
    SettingsPlace, SideChoice, UserId, UserSettings,
};
use tafl_bot::local::Session;
use tafl_bot::store::Db;
use tafl_render::{Orientation, Theme};
use tafl_rules::Side;
use tokio::sync::Barrier;

// ----- settings -----

support::both! {
    async fn user_settings_default_until_set_and_then_read_back() {
        let host = host().await;
        assert_eq!(host.user_settings(alice().id).await.unwrap(), UserSettings::default(), "never seen");
        let settings = UserSettings {
            dm_notifications: true,
            digest: true,
            orientation: Orientation::Flipped,
            theme: Theme::HighContrast,
        };
        host.set_user_settings(&alice(), &settings, NOW).await.unwrap();
        assert_eq!(host.user_settings(alice().id).await.unwrap(), settings);
        assert_eq!(host.user_settings(bob().id).await.unwrap(), UserSettings::default(), "bob's are his own");
        let changed = UserSettings { digest: false, ..settings };
        host.set_user_settings(&alice(), &changed, NOW + 1).await.unwrap();
        assert_eq!(host.user_settings(alice().id).await.unwrap(), changed);
    }
}

support::both! {
    async fn one_settings_command_saves_the_servers_and_the_persons_settings_all_or_nothing() {
        let host = host().await;
        let guild = PLACE.guild;
        let server = |language: Option<Option<String>>, refuse: bool| {
            SettingsPlace::Server {
                guild,
                change: Some(ServerChange {
                    change: move |current: &ServerSettings| {
                        if refuse {
                            return Err("refused".to_owned());
                        }
                        Ok(ServerSettings { threads: !current.threads, channels: vec![9, 7, 9], ..current.clone() })
                    },
                    language,
                }),
            }
        };
        let digest_on = |current: UserSettings| UserSettings { digest: true, ..current };
        let alice = alice();

        // A refusal of the server's change saves nothing, the person's change included.
        let before = snapshot(&host).await;
        let refused = host.change_settings(&alice, server(Some(Some("ru".into())), true), Some(digest_on), NOW);
        let refused = refused.await.unwrap();
        assert_eq!(refused, Err("refused".to_owned()));
        support::no_lock_left(&host, &refused).await;
        assert_eq!(snapshot(&host).await, before, "a refusal changes nothing");

        // A failure at the last write (the server's language) saves nothing either.
        let trigger: &[&str] = match host.db().backend() {
            Backend::Sqlite => &["CREATE TRIGGER refuse_language BEFORE UPDATE OF language ON servers \
                                  BEGIN SELECT RAISE(ABORT, 'the disk fails'); END"],
            Backend::Postgres => &[
                "CREATE FUNCTION refuse_language() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'the disk fails'; END $$",
                "CREATE TRIGGER refuse_language BEFORE UPDATE OF language ON servers FOR EACH ROW \
                 EXECUTE FUNCTION refuse_language()",
            ],
        };
        for statement in trigger {
            sqlx::query(*statement).execute(host.db().pool()).await.unwrap();
        }
        // The server's row must exist for the UPDATE (the upsert's conflict path) to fire.
        host.set_server_settings(guild, &ServerSettings::default(), NOW).await.unwrap();
        let before = snapshot(&host).await;
        let failed = host.change_settings(&alice, server(Some(Some("ru".into())), false), Some(digest_on), NOW + 1);
        let failed = failed.await.expect_err("the trigger fails the change");
        support::no_lock_left(&host, &failed).await;
        assert_eq!(snapshot(&host).await, before, "a failure part way changes nothing");
        let drop: &str = match host.db().backend() {
            Backend::Sqlite => "DROP TRIGGER refuse_language",
            Backend::Postgres => "DROP TRIGGER refuse_language ON servers",
        };
        sqlx::query(drop).execute(host.db().pool()).await.unwrap();

        // Then all of it is saved together, and what the answer shows is read in the same
        // transaction.
        let shown = host
            .change_settings(&alice, server(Some(Some("ru".into())), false), Some(digest_on), NOW + 2)
            .await
            .unwrap()
            .unwrap();
        let (server_now, language_now) = shown.server.clone().expect("used in a server");
        assert_eq!((server_now.threads, server_now.channels.clone()), (true, vec![7, 9]), "sorted, no repeats");
        assert_eq!(host.server_settings(guild).await.unwrap(), server_now);
        assert_eq!(language_now.chosen.as_deref(), Some("ru"));
        assert_eq!(host.server_language(guild).await.unwrap(), language_now);
        assert!(shown.personal.digest && host.user_settings(alice.id).await.unwrap().digest);
        assert_eq!(stored_user(&host, alice.id, "digest_due_at").await, Some(NOW + 2 + DAY));
        // Asking nothing shows the same.
        let unchanged = SettingsPlace::Server { guild, change: None::<ServerChange<Refused>> };
        let viewed = host.change_settings(&alice, unchanged, None::<Unchanged>, NOW + 3).await.unwrap().unwrap();
        assert_eq!(viewed, shown);
        // Back to the server's own language, the person's settings left alone.
        let shown = host.change_settings(&alice, server(Some(None), false), None::<Unchanged>, NOW + 4);
        let shown = shown.await.unwrap().unwrap();
        assert_eq!(shown.server.expect("used in a server").1.chosen, None);
        assert_eq!(host.server_language(guild).await.unwrap().chosen, None);
        assert!(shown.personal.digest && host.user_settings(alice.id).await.unwrap().digest);
        // In direct messages only the person's settings are shown.
        let dm = SettingsPlace::Dm::<Refused>;
        let in_dm = host.change_settings(&alice, dm, None::<Unchanged>, NOW + 5).await.unwrap().unwrap();
        assert_eq!(in_dm, SettingsInForce { personal: shown.personal, server: None });
    }
}

/// A server's change of settings, where none is given.
type Refused = fn(&ServerSettings) -> Result<ServerSettings, String>;

/// A person's change of settings, where none is given.
type Unchanged = fn(UserSettings) -> UserSettings;

async fn stored_user(host: &Host, user: UserId, column: &str) -> Option<i64> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {column} FROM users WHERE id = $1")))
        .bind(user)
        .fetch_one(host.db().pool())
        .await
        .unwrap()
}

support::both! {
    async fn stored_settings_with_unknown_or_damaged_keys_still_load() {
        let host = host().await;
        host.set_user_settings(&alice(), &UserSettings::default(), NOW).await.unwrap();
        sqlx::query("UPDATE users SET settings = $1 WHERE id = $2")
            .bind(r#"{"digest":true,"theme":"neon","future_key":[1,2,3]}"#)
            .bind(alice().id)
            .execute(host.db().pool())
            .await
            .unwrap();
        assert_eq!(host.user_settings(alice().id).await.unwrap(), UserSettings { digest: true, ..UserSettings::default() });
        sqlx::query("UPDATE users SET settings = 'garbage' WHERE id = $1")
            .bind(alice().id)
            .execute(host.db().pool())
            .await
            .unwrap();
        assert_eq!(host.user_settings(alice().id).await.unwrap(), UserSettings::default());
    }
}

support::both! {
    async fn server_settings_default_until_set_and_keep_channels_sorted_once() {
        let host = host().await;
        assert_eq!(host.server_settings(7).await.unwrap(), ServerSettings::default());
        let clock: Clock = "3d+7d".parse().unwrap();
        let settings = ServerSettings { threads: true, default_clock: Some(clock), channels: vec![30, 10, 30] };
        host.set_server_settings(7, &settings, NOW).await.unwrap();
        let stored = host.server_settings(7).await.unwrap();
        assert_eq!(stored, ServerSettings { threads: true, default_clock: Some(clock), channels: vec![10, 30] });
        assert!(stored.allows(10) && !stored.allows(20));
        assert_eq!(host.server_settings(8).await.unwrap(), ServerSettings::default(), "another server");
    }
}

support::both! {
    async fn too_many_channels_are_refused_and_change_nothing() {
        let host = host().await;
        host.set_server_settings(7, &ServerSettings { threads: true, ..ServerSettings::default() }, NOW).await.unwrap();
        let before = snapshot(&host).await;
        let settings = ServerSettings { channels: (1..=101).collect(), ..ServerSettings::default() };
        let error = host.set_server_settings(7, &settings, NOW + 1).await.unwrap_err();
        assert_eq!(error, HostError::TooManyChannels { max: 100 });
        assert_eq!(snapshot(&host).await, before);
        assert!(host.server_settings(7).await.unwrap().threads, "the old settings stay");
    }
}

// ----- clocks in games -----

const MINUTE: i64 = 60;
const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// A game of copenhagen with `clock`, alice attacking and bob defending, accepted at `at`.
async fn timed_game(host: &Host, clock: &str, at: i64) -> GameView {
    timed_game_in(host, clock, PLACE.guild, at).await
}

/// Alice (attackers) against Bob in `guild`, with `clock`.
async fn timed_game_in(host: &Host, clock: &str, guild: i64, at: i64) -> GameView {
    let mut req = request(&alice(), Some(&bob()), "copenhagen", SideChoice::Attackers);
    req.clock = Some(clock.parse().unwrap());
    req.place = Place { guild, ..PLACE };
    let c = host.challenge(&req, at).await.unwrap();
    host.accept(c.id, &bob(), at).await.unwrap().game
}

fn reminders(found: &[(i64, Due)]) -> Vec<(i64, ReminderKind, UserId)> {
    found
        .iter()
        .filter_map(|(at, due)| match due {
            Due::Reminder(r) => Some((*at, r.kind, r.player.id)),
            _ => None,
        })
        .collect()
}

fn timeouts(found: &[(i64, Due)]) -> Vec<(i64, GameId, Option<Ending>)> {
    found
        .iter()
        .filter_map(|(at, due)| match due {
            Due::TimedOut(f) => Some((*at, f.game.id, f.game.ending)),
            _ => None,
        })
        .collect()
}

support::both! {
    async fn accepting_sets_the_first_deadline_and_each_move_the_next() {
        let host = host().await;
        let g = timed_game(&host, "1d", NOW).await;
        assert_eq!(g.deadline_at, Some(NOW + DAY));
        assert_eq!(g.time_left(NOW + HOUR), Some(DAY - HOUR));
        let list = host.games(alice().id, false).await.unwrap();
        assert_eq!(list[0].deadline_at, Some(NOW + DAY), "the games list shows it too");
        assert_eq!(list[0].clock.to_string(), "1d");
        let after = move_at(&host, g.id, NOW + 5 * HOUR).await;
        assert_eq!(after.deadline_at, Some(NOW + 5 * HOUR + DAY), "bob's turn: a full day from alice's move");
        assert_eq!(host.show(g.id).await.unwrap().deadline_at, Some(NOW + 5 * HOUR + DAY), "stored");
        assert_eq!(host.games(bob().id, false).await.unwrap()[0].deadline_at, Some(NOW + 5 * HOUR + DAY));
    }
}

support::both! {
    async fn an_untimed_game_has_no_deadline_and_comes_due_only_once_it_may_be_claimed() {
        // Ticks days apart: no downtime grace between them.
        let host = host().await.with_grace(1000 * DAY, HOUR);
        let g = timed_game(&host, "none", NOW).await;
        assert_eq!(g.deadline_at, None);
        assert!(g.clock.is_untimed());
        move_at(&host, g.id, NOW + 10).await;
        let found = run(&host, NOW, NOW + 400 * DAY, 5 * DAY).await;
        let [(_, Due::Claimable(told))] = found.as_slice() else { panic!("one notice, nothing else: {found:?}") };
        assert_eq!((told.claimant.id, told.absent.id), (alice().id, bob().id));
        assert!(!host.show(g.id).await.unwrap().is_over(), "never lost on time");
    }
}

support::both! {
    async fn finishing_a_game_clears_its_deadline_and_nothing_fires_afterwards() {
        let host = host().await;
        let g = timed_game(&host, "1h", NOW).await;
        move_at(&host, g.id, NOW + MINUTE).await;
        let finished = host.resign(g.id, bob().id, None, NOW + 2 * MINUTE).await.unwrap();
        assert_eq!(finished.game.deadline_at, None);
        assert_eq!(stored(&host, g.id, "deadline_at").await, None);
        assert_eq!(stored(&host, g.id, "next_due_at").await, None);
        assert!(run(&host, NOW, NOW + 3 * HOUR, MINUTE).await.is_empty());
    }
}

support::both! {
    async fn reminders_and_the_time_out_fire_once_each_at_their_moment() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h", NOW).await;
        move_at(&host, g.id, NOW + 10 * MINUTE).await;
        move_at(&host, g.id, NOW + 20 * MINUTE).await;
        // Alice's turn began at +20 min: halfway at +50 min, last warning with 6 minutes left
        // (a tenth of an hour) at +74 min, time out at +80 min.
        let start = NOW + 20 * MINUTE;
        assert!(run(&host, NOW, start + 30 * MINUTE - 30, 30).await.is_empty());
        assert!(host.tick(start + 30 * MINUTE - 1).await.unwrap().is_empty(), "not a second early");
        let found = run(&host, start + 30 * MINUTE, start + 3 * HOUR, 30).await;
        assert_eq!(
            reminders(&found),
            vec![
                (start + 30 * MINUTE, ReminderKind::Halfway, alice().id),
                (start + 54 * MINUTE, ReminderKind::LastWarning, alice().id)
            ]
        );
        let ending = Ending { winner: Some(Side::Defenders), reason: EndReason::Time };
        assert_eq!(timeouts(&found), vec![(start + HOUR, g.id, Some(ending))]);
        assert_eq!(found.len(), 3, "nothing else: {found:?}");
        let Due::Reminder(reminder) = &found[0].1 else { panic!() };
        assert_eq!(reminder.deadline_at, start + HOUR);
        assert_eq!((reminder.place, reminder.opponent.id, reminder.ply, reminder.dm), (PLACE, bob().id, 2, false));
        let shown = host.show(g.id).await.unwrap();
        assert_eq!(shown.ending, Some(ending));
        let loser: Option<i64> = stored(&host, g.id, "loser_id").await;
        assert_eq!(loser, Some(alice().id));
    }
}

support::both! {
    async fn a_move_resets_the_reminders_of_the_next_turn() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h", NOW).await;
        let found = run(&host, NOW, NOW + 40 * MINUTE, MINUTE).await;
        assert_eq!(reminders(&found), vec![(NOW + 30 * MINUTE, ReminderKind::Halfway, alice().id)]);
        move_at(&host, g.id, NOW + 40 * MINUTE).await;
        let found = run(&host, NOW + 41 * MINUTE, NOW + 40 * MINUTE + 59 * MINUTE, MINUTE).await;
        assert_eq!(
            reminders(&found),
            vec![
                (NOW + 70 * MINUTE, ReminderKind::Halfway, bob().id),
                (NOW + 94 * MINUTE, ReminderKind::LastWarning, bob().id)
            ]
        );
        assert!(timeouts(&found).is_empty());
    }
}

support::both! {
    async fn a_late_tick_sends_only_the_last_warning() {
        // A tick that comes after both reminder moments (but within the downtime threshold of the
        // previous one) sends the last warning alone.
        let host = host().await.with_grace(DAY, HOUR);
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h", NOW).await;
        let found = run(&host, NOW + 55 * MINUTE, NOW + 70 * MINUTE, 5 * MINUTE).await;
        assert_eq!(reminders(&found), vec![(NOW + 55 * MINUTE, ReminderKind::LastWarning, alice().id)]);
        assert_eq!(timeouts(&found).len(), 1);
        assert_eq!(timeouts(&found)[0].1, g.id);
    }
}

support::both! {
    async fn reminders_say_whether_the_player_wants_a_dm() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        host.set_user_settings(&alice(), &UserSettings { dm_notifications: true, ..UserSettings::default() }, NOW)
            .await
            .unwrap();
        timed_game(&host, "1h", NOW).await;
        let found = run(&host, NOW, NOW + 30 * MINUTE, MINUTE).await;
        let [(_, Due::Reminder(reminder))] = found.as_slice() else { panic!("{found:?}") };
        assert!(reminder.dm);
    }
}

support::both! {
    async fn a_game_without_a_move_is_aborted_not_lost() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h", NOW).await;
        let found = run(&host, NOW, NOW + 2 * HOUR, MINUTE).await;
        let aborted = Ending { winner: None, reason: EndReason::Aborted };
        assert_eq!(timeouts(&found), vec![(NOW + HOUR, g.id, Some(aborted))]);
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(g.id)
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(status, "aborted");
        assert_eq!(stored(&host, g.id, "loser_id").await, None, "nobody lost");
        assert_eq!(aborted.reason, EndReason::Aborted, "an aborted game has no winner and no rating");
        assert!(host.export(g.id).await.unwrap().contains("[result:?]"), "no result in the record");
    }
}

support::both! {
    async fn a_game_with_one_move_is_aborted_and_with_two_it_is_lost_on_time() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let one = timed_game(&host, "1h", NOW).await;
        move_at(&host, one.id, NOW + MINUTE).await;
        let two = timed_game(&host, "1h", NOW).await;
        move_at(&host, two.id, NOW + MINUTE).await;
        move_at(&host, two.id, NOW + 2 * MINUTE).await;
        let found = run(&host, NOW, NOW + 2 * HOUR, MINUTE).await;
        assert_eq!(
            timeouts(&found),
            vec![
                (NOW + 61 * MINUTE, one.id, Some(Ending { winner: None, reason: EndReason::Aborted })),
                (NOW + 62 * MINUTE, two.id, Some(Ending { winner: Some(Side::Defenders), reason: EndReason::Time })),
            ]
        );
    }
}

support::both! {
    async fn a_reserve_clock_banks_unused_time_up_to_its_cap_and_pays_overtime_from_it() {
        let host = host().await;
        let g = timed_game(&host, "1h+90m", NOW).await;
        assert_eq!(g.deadline_at, Some(NOW + HOUR), "the reserve starts empty");
        // Alice moves after 10 minutes: 50 saved. Bob's turn is a plain hour (his reserve is empty).
        let v = move_at(&host, g.id, NOW + 10 * MINUTE).await;
        assert_eq!((v.attacker_reserve, v.defender_reserve), (50 * MINUTE, 0));
        assert_eq!(v.deadline_at, Some(NOW + 10 * MINUTE + HOUR));
        // Bob uses 59 minutes: 1 saved. Alice's turn: an hour plus her 50 minutes.
        let t = NOW + 69 * MINUTE;
        let v = move_at(&host, g.id, t).await;
        assert_eq!((v.attacker_reserve, v.defender_reserve), (50 * MINUTE, MINUTE));
        assert_eq!(v.deadline_at, Some(t + HOUR + 50 * MINUTE));
        // Alice thinks 90 minutes: 30 past the hour come from her reserve.
        let t = t + 90 * MINUTE;
        let v = move_at(&host, g.id, t).await;
        assert_eq!(v.attacker_reserve, 20 * MINUTE);
        assert_eq!(v.deadline_at, Some(t + HOUR + MINUTE), "bob's turn has his minute");
        // Quick moves save up, but never past the 90-minute cap.
        let mut t = t;
        for _ in 0..6 {
            t += MINUTE;
            move_at(&host, g.id, t).await;
        }
        let v = host.show(g.id).await.unwrap();
        assert_eq!((v.attacker_reserve, v.defender_reserve), (90 * MINUTE, 90 * MINUTE));
        assert_eq!(v.deadline_at, Some(t + HOUR + 90 * MINUTE));
    }
}

support::both! {
    async fn a_reserve_turn_times_out_only_when_the_reserve_is_spent_too() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h+1h", NOW).await;
        move_at(&host, g.id, NOW + MINUTE).await; // alice saves 59 minutes
        move_at(&host, g.id, NOW + 2 * MINUTE).await; // bob saves 59 minutes
        let start = NOW + 2 * MINUTE;
        let found = run(&host, start, start + 3 * HOUR, MINUTE).await;
        let ending = Ending { winner: Some(Side::Defenders), reason: EndReason::Time };
        assert_eq!(timeouts(&found), vec![(start + HOUR + 59 * MINUTE, g.id, Some(ending))]);
    }
}

support::both! {
    async fn an_accepted_takeback_gives_the_player_to_move_a_fresh_turn() {
        let host = host().await;
        let g = timed_game(&host, "1h", NOW).await;
        move_at(&host, g.id, NOW + 10 * MINUTE).await;
        move_at(&host, g.id, NOW + 20 * MINUTE).await;
        host.takeback(g.id, alice().id, OfferAction::Offer, None, NOW + 25 * MINUTE).await.unwrap();
        let outcome = host.takeback(g.id, bob().id, OfferAction::Accept, None, NOW + 30 * MINUTE).await.unwrap();
        let OfferOutcome::Accepted { game, plies_taken_back, .. } = outcome else { panic!("{outcome:?}") };
        assert_eq!((plies_taken_back, game.ply), (2, 0));
        assert_eq!(game.deadline_at, Some(NOW + 30 * MINUTE + HOUR), "alice to move, a full hour from the takeback");
        assert_eq!(host.show(g.id).await.unwrap().deadline_at, game.deadline_at);
        assert_eq!(stored(&host, g.id, "reminders_sent").await, Some(0));
    }
}

// ----- several schedulers, restarts, downtime -----

support::both! {
    async fn a_tick_that_finds_nothing_due_changes_no_game() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        timed_game(&host, "1d", NOW).await;
        let before = snapshot(&host).await;
        assert!(host.tick(NOW + MINUTE).await.unwrap().is_empty());
        let after = snapshot(&host).await;
        // Only the scheduler's own row (the last line) moved on.
        let (before, after): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
        assert_eq!(before[..before.len() - 1], after[..after.len() - 1]);
        assert_eq!(
            (before.last(), after.last()),
            (Some(&NOW.to_string().as_str()), Some(&(NOW + MINUTE).to_string().as_str()))
        );
    }
}

#[tokio::test]
async fn a_restart_after_a_long_outage_gives_a_grace_hour_before_anyone_loses_on_time() {
    let path = temp_path("outage");
    let host = Host::new(Db::open_file(&path).await.unwrap());
    host.tick(NOW).await.unwrap();
    let short = timed_game(&host, "1h", NOW).await; // due at +1h, passes during the outage
    move_at(&host, short.id, NOW + MINUTE).await;
    move_at(&host, short.id, NOW + 2 * MINUTE).await;
    let soon = timed_game(&host, "3h30m", NOW).await; // due at +3h30, just after the restart
    let long = timed_game(&host, "1d", NOW).await; // due long after the grace
    host.db().close().await;

    // The bot comes back three hours later.
    let restart = NOW + 3 * HOUR;
    let host = Host::new(Db::open_file(&path).await.unwrap());
    let first = host.tick(restart).await.unwrap();
    let grace: Vec<_> = first
        .iter()
        .filter_map(|d| if let Due::Grace { until, games } = d { Some((*until, games.clone())) } else { None })
        .collect();
    assert_eq!(grace, vec![(restart + HOUR, vec![short.id, soon.id])]);
    assert!(timeouts(&first.into_iter().map(|d| (restart, d)).collect::<Vec<_>>()).is_empty(), "nobody lost yet");
    assert_eq!(host.show(short.id).await.unwrap().deadline_at, Some(restart + HOUR), "the new deadline is shown");
    assert_eq!(host.show(soon.id).await.unwrap().deadline_at, Some(restart + HOUR));
    assert_eq!(host.show(long.id).await.unwrap().deadline_at, Some(NOW + DAY), "untouched");

    // Ticking on normally: both lose (or abort) at the end of the grace hour, not before.
    let found = run(&host, restart + MINUTE, restart + 2 * HOUR, MINUTE).await;
    assert_eq!(
        timeouts(&found),
        vec![
            (restart + HOUR, short.id, Some(Ending { winner: Some(Side::Defenders), reason: EndReason::Time })),
            (restart + HOUR, soon.id, Some(Ending { winner: None, reason: EndReason::Aborted })),
        ]
    );
    // The last warning came within the grace hour, once per game.
    let warnings: Vec<_> = reminders(&found).into_iter().filter(|r| r.1 == ReminderKind::LastWarning).collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings.iter().all(|w| w.0 > restart && w.0 < restart + HOUR));
    assert!(!host.show(long.id).await.unwrap().is_over());
}

/// A game of copenhagen with a clock of one hour in `guild`, accepted at `at`, with a move of
/// each a minute apart: alice's turn, due at `at + 2 * MINUTE + HOUR`.
async fn hour_game_in(host: &Host, guild: i64, at: i64) -> GameView {
    let mut req = request(&alice(), Some(&bob()), "copenhagen", SideChoice::Attackers);
    req.clock = Some("1h".parse().unwrap());
    req.place = tafl_bot::host::Place { guild, ..PLACE };
    let c = host.challenge(&req, at).await.unwrap();
    let game = host.accept(c.id, &bob(), at).await.unwrap().game;
    move_at(host, game.id, at + MINUTE).await;
    move_at(host, game.id, at + 2 * MINUTE).await
}

fn graces(found: &[Due]) -> Vec<(i64, Vec<GameId>)> {
    found
        .iter()
        .filter_map(|due| if let Due::Grace { until, games } = due { Some((*until, games.clone())) } else { None })
        .collect()
}

support::both! {
    async fn a_process_with_shards_ticks_their_games_only_and_a_shard_back_from_downtime_gets_the_grace() {
        let (first, second) = support::two_dbs().await;
        let zero = Host::new(first).with_shards(0, 0, 2);
        let one = Host::new(second).with_shards(1, 1, 2);
        // Discord puts a server on shard `(id >> 22) % count`.
        let (on_zero, on_one) = (PLACE.guild, 1_i64 << 22);
        zero.tick(NOW).await.unwrap();
        one.tick(NOW).await.unwrap();
        let here = hour_game_in(&zero, on_zero, NOW).await;
        let there = hour_game_in(&zero, on_one, NOW).await;

        // Shard 1's process is down for a day (its players cannot click): shard 0's scheduler
        // times out its own game only; the other waits, with its deadline.
        let found = run(&zero, NOW + 2 * MINUTE, NOW + DAY, 2 * MINUTE).await;
        let lost = Some(Ending { winner: Some(Side::Defenders), reason: EndReason::Time });
        assert_eq!(timeouts(&found), [(NOW + 2 * MINUTE + HOUR, here.id, lost)], "{found:?}");
        assert!(graces(&found.iter().map(|(_, due)| due.clone()).collect::<Vec<_>>()).is_empty());
        assert_eq!(stored(&zero, there.id, "deadline_at").await, Some(NOW + 2 * MINUTE + HOUR));

        // Back: its shard last ticked a day ago, so its game gets the grace hour.
        let back = NOW + DAY + MINUTE;
        let found = one.tick(back).await.unwrap();
        assert_eq!(graces(&found), [(back + HOUR, vec![there.id])]);
        let found = run(&one, back + MINUTE, back + 2 * HOUR, MINUTE).await;
        assert_eq!(timeouts(&found), [(back + HOUR, there.id, lost)], "{found:?}");
    }
}

support::both! {
    async fn a_shard_new_to_its_count_gets_the_grace_once_and_then_per_its_own_ticks() {
        let (first, second) = support::two_dbs().await;
        let alone = Host::new(first);
        alone.tick(NOW).await.unwrap();
        let (on_zero, on_one) = (PLACE.guild, 1_i64 << 22);
        let zero = hour_game_in(&alone, on_zero, NOW).await;
        let one = hour_game_in(&alone, on_one, NOW).await;
        // The bot is now run with two shards: nobody knows how long a shard new to its count
        // waited, so its games get the grace (once; they are due within the hour anyway).
        let sharded = Host::new(second).with_shards(0, 1, 2);
        let at = NOW + 5 * MINUTE;
        assert_eq!(graces(&sharded.tick(at).await.unwrap()), [(at + HOUR, vec![zero.id, one.id])]);
        let ticks: Vec<(i64, i64)> =
            sqlx::query_as("SELECT shard, last_tick_at FROM shard_ticks WHERE shard_count = 2 ORDER BY shard")
                .fetch_all(sharded.db().pool())
                .await
                .unwrap();
        assert_eq!(ticks, [(0, at), (1, at)]);
        // The unsharded process keeps the bot's last tick fresh; the shards judge by their own.
        alone.tick(NOW + DAY).await.unwrap();
        let back = NOW + DAY + MINUTE;
        assert_eq!(graces(&sharded.tick(back).await.unwrap()), [(back + HOUR, vec![zero.id, one.id])], "one run");
        assert!(graces(&sharded.tick(back + MINUTE).await.unwrap()).is_empty());
    }
}

support::both! {
    async fn ticks_close_together_give_no_grace() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h", NOW).await;
        let found = run(&host, NOW, NOW + 2 * HOUR, 9 * MINUTE).await;
        assert!(found.iter().all(|(_, d)| !matches!(d, Due::Grace { .. })));
        // The time-out comes at the first tick at or after the deadline (+63 min with this step).
        assert_eq!(
            timeouts(&found),
            vec![(NOW + 63 * MINUTE, g.id, Some(Ending { winner: None, reason: EndReason::Aborted }))]
        );
    }
}

support::both! {
    async fn a_slow_clock_elsewhere_does_not_make_the_scheduler_give_the_grace_again() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h", NOW).await;
        // Another process, its clock 20 minutes behind, ticks; then this one ticks on time.
        let slow = Host::new(host.db().clone());
        slow.tick(NOW - 20 * MINUTE).await.unwrap();
        slow.tick(NOW - 19 * MINUTE).await.unwrap();
        let found = run(&host, NOW + MINUTE, NOW + 2 * HOUR, MINUTE).await;
        assert!(found.iter().all(|(_, d)| !matches!(d, Due::Grace { .. })), "no downtime was seen");
        assert_eq!(timeouts(&found), vec![(NOW + HOUR, g.id, Some(Ending { winner: None, reason: EndReason::Aborted }))]);
    }
}

support::both! {
    /// After the machine's clock steps back (NTP correcting a clock that ran ahead, e.g. an RTC
    /// kept in local time, +3 h in Moscow, at boot), the last tick recorded lies in the future:
    /// an outage shorter than the step must still be seen as one. README: "After an outage
    /// nobody loses on time because the bot was down".
    async fn after_the_clock_steps_back_an_outage_still_gets_the_grace() {
        let host = host().await; // 10 minutes make downtime, 1 hour of grace
        // The clock ran three hours ahead at the bot's start; NTP steps it back.
        host.tick(NOW + 3 * HOUR).await.unwrap();
        let g = timed_game(&host, "1h", NOW).await;
        move_at(&host, g.id, NOW + MINUTE).await;
        move_at(&host, g.id, NOW + 2 * MINUTE).await; // alice's turn, out at NOW + 62 min
        assert!(run(&host, NOW, NOW + 20 * MINUTE, MINUTE).await.is_empty());
        // The bot is down from NOW + 20 min to NOW + 2 h: 100 minutes, alice's deadline inside.
        let found = host.tick(NOW + 2 * HOUR).await.unwrap();
        assert!(!found.iter().any(|d| matches!(d, Due::TimedOut(_))), "alice lost on time for the bot's outage: {found:?}");
        assert_eq!(graces(&found), [(NOW + 3 * HOUR, vec![g.id])]);

        // The step across a restart: the new process finds its predecessor's last tick, taken
        // by the clock that ran ahead, in its future, and cannot tell how long the bot was away.
        let before = support::host().await;
        before.tick(NOW + 3 * HOUR).await.unwrap();
        let g = timed_game(&before, "1h", NOW).await;
        move_at(&before, g.id, NOW + MINUTE).await;
        move_at(&before, g.id, NOW + 2 * MINUTE).await;
        let after = Host::new(before.db().clone());
        let found = after.tick(NOW + 2 * HOUR).await.unwrap();
        assert_eq!(graces(&found), [(NOW + 3 * HOUR, vec![g.id])], "{found:?}");
        // Once: ticking on, the clock is trusted again and the grace hour runs out.
        let found = run(&after, NOW + 2 * HOUR + MINUTE, NOW + 3 * HOUR, MINUTE).await;
        assert!(found.iter().all(|(_, d)| !matches!(d, Due::Grace { .. })), "{found:?}");
        assert_eq!(timeouts(&found).len(), 1, "{found:?}");
    }
}

support::both! {
    /// Deadlines to the second, reserves never negative nor past their cap, clocks that jump
    /// backwards between ticks, a move "before" its turn began.
    async fn a_deadline_holds_to_its_second_and_clocks_that_jump_harm_nobody() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "1h+30m", NOW).await;
        move_at(&host, g.id, NOW + MINUTE).await;
        let v = move_at(&host, g.id, NOW + 2 * MINUTE).await;
        let deadline = v.deadline_at.unwrap();
        assert_eq!(deadline, NOW + 2 * MINUTE + HOUR + 30 * MINUTE);
        // A tick a second before: the last warning, no time-out.
        let found = host.tick(deadline - 1).await.unwrap();
        assert!(found.iter().all(|d| !matches!(d, Due::TimedOut(_))), "{found:?}");
        // A move exactly at the deadline, before the tick: counts; reserve spent to zero.
        let v = move_at(&host, g.id, deadline).await;
        assert_eq!(v.attacker_reserve, 0);
        assert!(!v.is_over());
        // Clock jumps back two hours between ticks: nothing panics, nothing times out.
        let back = deadline - 2 * HOUR;
        let found = host.tick(back).await.unwrap();
        assert!(found.is_empty(), "{found:?}");
        // A move "before" its turn began (clock behind): saves the whole turn, capped.
        let v = move_at(&host, g.id, back + MINUTE).await;
        assert_eq!(v.defender_reserve, 30 * MINUTE);
        // Forward jump past the downtime: grace, no time-out.
        let found = host.tick(deadline + 5 * HOUR).await.unwrap();
        assert!(found.iter().any(|d| matches!(d, Due::Grace { .. })), "{found:?}");
        assert!(found.iter().all(|d| !matches!(d, Due::TimedOut(_))), "{found:?}");
    }
}

support::both! {
    /// A reminder held up in the outbox (Discord failing while the gateway is up, or the bot
    /// down) is delivered as it stands then: a halfway reminder is dropped once the turn's last
    /// warning was recorded (two pings at once, one saying half the time is left), every reminder
    /// once its game moved on or ended or its moment passed, and the moment it names is the one
    /// the grace after downtime left, for a claim warning as for a deadline.
    async fn a_reminder_held_up_is_delivered_as_it_stands_or_not_at_all() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let g = hour_game_in(&host, PLACE.guild, NOW).await; // alice's turn, out at NOW + 62 min
        let deadline = NOW + 62 * MINUTE;
        let stands = |kind, ply, at| host.reminder_stands(g.id, kind, (ply, None), at);
        let found = run(&host, NOW + MINUTE, NOW + 40 * MINUTE, MINUTE).await;
        assert_eq!(reminders(&found).len(), 1, "{found:?}");
        assert_eq!(stands(ReminderKind::Halfway, 2, NOW + 40 * MINUTE).await.unwrap(), Some(deadline), "still true");
        assert_eq!(stands(ReminderKind::Halfway, 1, NOW + 40 * MINUTE).await.unwrap(), None, "another turn's");
        let found = run(&host, NOW + 41 * MINUTE, NOW + 60 * MINUTE, MINUTE).await;
        assert_eq!(reminders(&found), [(NOW + 56 * MINUTE, ReminderKind::LastWarning, alice().id)]);
        assert_eq!(stands(ReminderKind::Halfway, 2, NOW + 60 * MINUTE).await.unwrap(), None, "superseded");
        assert_eq!(stands(ReminderKind::LastWarning, 2, NOW + 60 * MINUTE).await.unwrap(), Some(deadline));
        assert_eq!(stands(ReminderKind::LastWarning, 2, deadline).await.unwrap(), None, "the moment passed");
        // The bot is down across the deadline: the grace moves it, and the warning names that.
        let back = NOW + 3 * HOUR;
        host.tick(back).await.unwrap();
        assert_eq!(stands(ReminderKind::LastWarning, 2, back).await.unwrap(), Some(back + HOUR));
        host.resign(g.id, alice().id, None, back + 1).await.unwrap();
        assert_eq!(stands(ReminderKind::LastWarning, 2, back + 1).await.unwrap(), None, "the game is over");

        // A claim warning held up across an outage names the moment the grace left.
        let host = support::host().await.with_grace(DAY, HOUR);
        let game = timed_game(&host, "none", NOW).await;
        move_at(&host, game.id, NOW + MINUTE).await;
        let since = NOW + 2 * MINUTE;
        move_at(&host, game.id, since).await; // alice's untimed turn
        let warned_at = since + CLAIM_AFTER - CLAIM_WARNING;
        let found = run(&host, NOW, warned_at + 12 * HOUR, 12 * HOUR).await;
        let recorded = found.iter().find_map(|(_, due)| match due {
            Due::Reminder(r) if r.kind == ReminderKind::ClaimWarning => Some(r.deadline_at),
            _ => None,
        });
        assert_eq!(recorded, Some(since + CLAIM_AFTER), "{found:?}");
        let back = since + CLAIM_AFTER + DAY;
        host.tick(back).await.unwrap();
        let stood = host.reminder_stands(game.id, ReminderKind::ClaimWarning, (2, None), back).await.unwrap();
        assert_eq!(stood, Some(back + HOUR), "the claim's moment after the grace");
        assert_eq!(host.reminder_stands(game.id, ReminderKind::ClaimWarning, (2, None), back + HOUR).await.unwrap(), None);
    }
}

/// The turn each reminder or claim notice of `game` in the outbox was recorded for, by kind:
/// `(kind, ply, turn)`, with `None` as the kind of a claim notice.
async fn recorded_turns(host: &Host, game: GameId, now: i64) -> Vec<(Option<ReminderKind>, usize, Option<i64>)> {
    support::drain(host, now)
        .await
        .into_iter()
        .filter_map(|show| match show {
            Show::Reminder { game: g, reminder, ply, turn, .. } if g == game => Some((Some(reminder), ply, turn)),
            Show::Claimable { game: g, ply, turn, .. } if g == game => Some((None, ply, turn)),
            _ => None,
        })
        .collect()
}

/// Alice takes back Bob's turn at ply 1 (with his consent) at `at` and plays again a minute
/// later: the game is back at ply 1, in a new turn of Bob's.
async fn take_back_and_move_again(host: &Host, game: GameId, at: i64) -> GameView {
    host.takeback(game, alice().id, OfferAction::Offer, None, at).await.unwrap();
    let outcome = host.takeback(game, bob().id, OfferAction::Accept, None, at).await.unwrap();
    assert!(matches!(outcome, OfferOutcome::Accepted { plies_taken_back: 1, .. }), "{outcome:?}");
    let again = move_at(host, game, at + MINUTE).await;
    assert_eq!(again.ply, 1);
    again
}

support::both! {
    /// Processes must run with one shard count: under two, the servers of some shards fall on no
    /// process (nobody's scheduler times their games out) and are served by nobody without a
    /// word. Each process sees the other's count once it has ticked, until it is 10 minutes old.
    async fn processes_with_different_shard_counts_see_each_others_count() {
        let (first, second) = support::two_dbs().await;
        let two = Host::new(first).with_shards(0, 0, 2);
        let three = Host::new(second).with_shards(1, 2, 3);
        assert_eq!(two.other_shard_counts(NOW).await.unwrap(), Vec::<i64>::new(), "nobody ticked yet");
        two.tick(NOW).await.unwrap();
        assert_eq!(three.other_shard_counts(NOW).await.unwrap(), [2]);
        assert_eq!(two.other_shard_counts(NOW).await.unwrap(), Vec::<i64>::new(), "its own count");
        three.tick(NOW + MINUTE).await.unwrap();
        assert_eq!(two.other_shard_counts(NOW + MINUTE).await.unwrap(), [3]);
        let same = Host::new(support::db().await).with_shards(1, 1, 2);
        assert_eq!(same.other_shard_counts(NOW).await.unwrap(), Vec::<i64>::new(), "another database");
        let later = NOW + MINUTE + 11 * MINUTE;
        two.tick(later).await.unwrap();
        assert_eq!(two.other_shard_counts(later).await.unwrap(), Vec::<i64>::new(), "the other count stopped");
        assert_eq!(three.other_shard_counts(later).await.unwrap(), [2], "while the first goes on");
        assert_eq!(Host::new(support::db().await).other_shard_counts(NOW).await.unwrap(), Vec::<i64>::new());
    }
}

/// Ticks `hosts` in turn, 20 s apart each round (a few seconds between them), from `from` up to
/// `to`; returns the first moment each was found serving a shard another process serves too.
async fn tick_rounds(hosts: &[&Host], from: i64, to: i64) -> Vec<Option<(i64, Vec<u32>, i64)>> {
    let mut reported = vec![None; hosts.len()];
    for round in (from..=to).step_by(20) {
        for (i, host) in hosts.iter().enumerate() {
            let at = round + 7 * i as i64;
            host.tick(at).await.unwrap();
            if reported[i].is_none() {
                reported[i] = host.shards_served_twice(at).map(|(shards, since)| (at, shards, since));
            }
        }
    }
    reported
}

support::both! {
    /// Shard ranges must not overlap: a shard served by two processes has its bot turns searched
    /// and its games reviewed by both, and nothing else shows it. A process reports a shard of
    /// its range that another process ticked too at each of its ticks for 10 minutes, and not
    /// the moment's overlap of a rolling deployment.
    async fn a_shard_ticked_by_two_processes_for_ten_minutes_is_reported_and_a_deployments_overlap_is_not() {
        let (first, second) = support::two_dbs().await;
        let zero = Host::new(first.clone()).with_shards(0, 0, 2).with_process_id("zero");
        let one = Host::new(second.clone()).with_shards(1, 1, 2).with_process_id("one");
        let quiet = tick_rounds(&[&zero, &one], NOW, NOW + 20 * MINUTE).await;
        assert_eq!(quiet, [None, None], "ranges of their own");

        // A process for shards 0-1 joins, for good.
        let start = NOW + 21 * MINUTE;
        let both = Host::new(second.clone()).with_shards(0, 1, 2).with_process_id("both");
        let found = tick_rounds(&[&zero, &both, &one], start, start + 15 * MINUTE).await;
        // `zero` first sees `both`'s name at its second tick of the overlap, `both` (which had
        // never ticked before) at its second tick too: ten minutes after, each reports it.
        assert_eq!(found[0], Some((start + 20 + 10 * MINUTE, vec![0], start + 20)));
        assert_eq!(found[1], Some((start + 27 + 10 * MINUTE, vec![0, 1], start + 27)));
        assert!(found[2].is_some(), "{found:?}");

        // `both` stops: `zero`'s next tick still finds its name from its last tick; the one
        // after finds `zero`'s own, and the report ends.
        let after = start + 16 * MINUTE;
        let over = tick_rounds(&[&zero, &one], after, after + 20).await;
        assert_eq!(over[0], Some((after, vec![0], start + 20)));
        assert_eq!(zero.shards_served_twice(after + 20), None);

        // A rolling deployment of `zero`: the new process runs beside the old one for five
        // minutes, then alone. Neither reports anything.
        let deploy = after + 2 * MINUTE;
        let new = Host::new(first).with_shards(0, 0, 2).with_process_id("zero, deployed again");
        let moment = tick_rounds(&[&zero, &new, &one], deploy, deploy + 5 * MINUTE).await;
        assert_eq!(moment, [None, None, None]);
        let alone = tick_rounds(&[&new, &one], deploy + 5 * MINUTE + 20, deploy + 30 * MINUTE).await;
        assert_eq!(alone, [None, None]);
    }
}

support::both! {
    /// A takeback and a new move bring a game back to the same ply in a new turn with all its
    /// time: a halfway reminder or last warning of the old turn, held up in the outbox (Discord
    /// failing, the lane's process dead), told Bob half his time was gone on a full hour.
    async fn a_reminder_of_a_turn_taken_back_does_not_stand_for_the_next_turn_at_the_same_ply() {
        for (kind, reminded_by) in [(ReminderKind::Halfway, 32), (ReminderKind::LastWarning, 56)] {
            let host = host().await.with_grace(1000 * DAY, HOUR);
            host.tick(NOW).await.unwrap();
            let g = timed_game(&host, "1h", NOW).await;
            move_at(&host, g.id, NOW + MINUTE).await; // Bob's turn at ply 1, out at NOW + 61 min
            run(&host, NOW + 2 * MINUTE, NOW + reminded_by * MINUTE, MINUTE).await;
            let recorded = recorded_turns(&host, g.id, NOW + reminded_by * MINUTE).await;
            let old_turn = recorded.iter().find(|(k, ..)| *k == Some(kind)).map(|(_, ply, turn)| (*ply, *turn));
            assert_eq!(old_turn, Some((1, Some(NOW + MINUTE))), "{recorded:?}");
            let at = NOW + (reminded_by + 1) * MINUTE;
            let again = take_back_and_move_again(&host, g.id, at).await;
            assert_eq!(again.deadline_at, Some(at + MINUTE + HOUR), "a full hour");
            let stands = host.reminder_stands(g.id, kind, old_turn.unwrap(), at + MINUTE).await.unwrap();
            assert_eq!(stands, None, "the {kind:?} of the turn taken back");
            let new_turn = (1, Some(at + MINUTE));
            let stands = host.reminder_stands(g.id, kind, new_turn, at + MINUTE).await.unwrap();
            assert_eq!(stands, Some(at + MINUTE + HOUR), "one of the new turn would stand");
        }
    }
}

support::both! {
    /// The same for the notice that an untimed game may be claimed: held up and posted after a
    /// takeback and a new move, it told Alice she could claim a game `/tafl claim` refused.
    async fn a_claim_notice_of_a_turn_taken_back_does_not_stand_for_the_next_turn_at_the_same_ply() {
        let host = host().await.with_grace(1000 * DAY, HOUR);
        host.tick(NOW).await.unwrap();
        let g = timed_game(&host, "none", NOW).await;
        move_at(&host, g.id, NOW + MINUTE).await; // Bob's untimed turn at ply 1
        run(&host, NOW + 2 * MINUTE, NOW + 15 * DAY, DAY).await;
        let recorded = recorded_turns(&host, g.id, NOW + 15 * DAY).await;
        let notice = recorded.iter().find(|(k, ..)| k.is_none()).map(|(_, ply, turn)| (*ply, *turn));
        assert_eq!(notice, Some((1, Some(NOW + MINUTE))), "{recorded:?}");
        assert!(host.claim_notice_stands(g.id, notice.unwrap()).await.unwrap(), "before the takeback");
        let at = NOW + 15 * DAY + HOUR;
        take_back_and_move_again(&host, g.id, at).await;
        assert!(!host.claim_notice_stands(g.id, notice.unwrap()).await.unwrap(), "the notice of the old turn");
        let claim = host.claim(g.id, alice().id, at + 2 * MINUTE).await;
        assert!(matches!(claim, Err(HostError::ClaimTooSoon { .. })), "{claim:?}");
    }
}

support::both! {
    async fn a_timed_game_that_cannot_be_rebuilt_does_not_hold_up_the_others() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let damaged = timed_game(&host, "1h", NOW).await;
        let sound = timed_game(&host, "1h", NOW + 1).await;
        sqlx::query("UPDATE games SET rules = 'dim:0' WHERE id = $1")
            .bind(damaged.id)
            .execute(host.db().pool())
            .await
            .unwrap();
        // Both run out; the damaged game, due first, heads the batch.
        let found = run(&host, NOW + MINUTE, NOW + 2 * HOUR, MINUTE).await;
        let aborted = Some(Ending { winner: None, reason: EndReason::Aborted });
        assert_eq!(timeouts(&found), vec![(NOW + HOUR + MINUTE, sound.id, aborted)]);
        assert_eq!(stored(&host, damaged.id, "next_due_at").await, None, "no longer due");
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(damaged.id)
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(status, "ongoing", "left as it was, for an operator to look at");
    }
}

/// What two schedulers on one database find when they tick at `at` at the same instant.
async fn tick_together(one: &Host, two: &Host, at: i64) -> Vec<Due> {
    let barrier = Arc::new(Barrier::new(2));
    let spawn = |host: Host| {
        let barrier = Arc::clone(&barrier);
        tokio::spawn(async move {
            barrier.wait().await;
            host.tick(at).await.unwrap()
        })
    };
    let (a, b) = (spawn(one.clone()), spawn(two.clone()));
    a.await.unwrap().into_iter().chain(b.await.unwrap()).collect()
}

/// A key naming one due item, to find duplicates.
fn key(due: &Due) -> String {
    match due {
        Due::Reminder(r) => format!("reminder {} {:?} {}", r.game, r.kind, r.deadline_at),
        Due::TimedOut(f) => format!("timeout {}", f.game.id),
        Due::ChallengeExpired(c) => format!("challenge {}", c.id),
        Due::Digest(d) => format!("digest {}", d.user.id),
        Due::Grace { until, .. } => format!("grace {until}"),
        Due::Claimable(c) => format!("claimable {}", c.game),
        Due::Claimed(f) => format!("claimed {}", f.game.id),
        Due::PausedGames(p) => format!("paused {} {}", p.guild, p.user.id),
    }
}

support::both! { multi_thread
    async fn two_schedulers_on_one_database_never_return_the_same_item() {
        let (one, two) = support::two_dbs().await;
        let one = Host::new(one).with_grace(1000 * DAY, HOUR);
        let two = Host::new(two).with_grace(1000 * DAY, HOUR);
        one.tick(NOW).await.unwrap();
        let dms = UserSettings { dm_notifications: true, ..UserSettings::default() };
        one.set_user_settings(&alice(), &dms, NOW).await.unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut expected = 0;
        for round in 0..40 {
            let base = NOW + round * DAY;
            let g = timed_game(&one, "1h", base).await;
            move_at(&two, g.id, base + MINUTE).await;
            move_at(&one, g.id, base + 2 * MINUTE).await;
            // Expires at the last tick of the round.
            let _open = one.challenge(&request(&carol(), None, "brandubh", SideChoice::Random), base - 1).await.unwrap();
            // A server of its own removed the bot two weeks before the first tick of the round.
            let mut req = request(&alice(), Some(&bob()), "brandubh", SideChoice::Attackers);
            req.place = Place { guild: 1000 + round, ..PLACE };
            let c = one.challenge(&req, base).await.unwrap();
            one.accept(c.id, &bob(), base).await.unwrap();
            one.server_left(1000 + round, base + 30 * MINUTE - CLAIM_AFTER).await.unwrap();
            // Both schedulers tick at the same instants through the turn: halfway, last warning,
            // the time-out, the challenge's expiry and alice's DM about the paused game must each
            // come out exactly once.
            for at in [base + 32 * MINUTE, base + 56 * MINUTE, base + 62 * MINUTE, base + DAY - 1] {
                for due in tick_together(&one, &two, at).await {
                    assert!(seen.insert(key(&due)), "returned twice: {}", key(&due));
                }
            }
            expected += 5;
            assert_eq!(seen.len(), expected, "round {round}: {seen:?}");
        }
    }
}

support::both! { multi_thread
    async fn a_move_racing_the_time_out_either_lands_in_time_or_is_refused_as_too_late() {
        let (one, two) = support::two_dbs().await;
        let one = Host::new(one).with_grace(1000 * DAY, HOUR);
        let two = Host::new(two).with_grace(1000 * DAY, HOUR);
        one.tick(NOW).await.unwrap();
        let (mut in_time, mut timed_out) = (0, 0);
        for round in 0..40 {
            let base = NOW + round * DAY;
            let g = timed_game(&one, "1h", base).await;
            move_at(&one, g.id, base + MINUTE).await;
            move_at(&one, g.id, base + 2 * MINUTE).await;
            let deadline = base + 2 * MINUTE + HOUR;
            // Alice's move and the scheduler's tick arrive at the deadline together.
            let choices = two.legal_moves(g.id, alice().id, "", 500).await.unwrap();
            let notation = choices.last().unwrap().notation.clone();
            let barrier = Arc::new(Barrier::new(2));
            let (b1, b2) = (Arc::clone(&barrier), Arc::clone(&barrier));
            let (h1, h2) = (one.clone(), two.clone());
            let ticker = tokio::spawn(async move {
                b1.wait().await;
                h1.tick(deadline).await.unwrap()
            });
            let mover = tokio::spawn(async move {
                b2.wait().await;
                h2.play(g.id, alice().id, &notation, Some(2), deadline).await
            });
            let (found, played) = (ticker.await.unwrap(), mover.await.unwrap());
            let shown = one.show(g.id).await.unwrap();
            match played {
                Ok(_) => {
                    in_time += 1;
                    assert!(found.iter().all(|d| !matches!(d, Due::TimedOut(_))), "{found:?}");
                    assert_eq!((shown.ply, shown.ending, shown.deadline_at), (3, None, Some(deadline + HOUR)));
                }
                Err(HostError::GameOver { .. }) => {
                    timed_out += 1;
                    assert_eq!(timeouts(&found.into_iter().map(|d| (deadline, d)).collect::<Vec<_>>()).len(), 1);
                    assert_eq!(shown.ply, 2);
                    assert_eq!(shown.ending, Some(Ending { winner: Some(Side::Defenders), reason: EndReason::Time }));
                }
                Err(other) => panic!("unexpected refusal: {other}"),
            }
            // Whatever happened, nothing more is due for this game in this round.
            let rest = one.tick(deadline + 1).await.unwrap();
            assert!(rest.iter().all(|d| !matches!(d, Due::TimedOut(f) if f.game.id == g.id)), "{rest:?}");
            if shown.ending.is_none() {
                one.resign(g.id, bob().id, None, deadline + 2).await.unwrap();
            }
        }
        assert_eq!(in_time + timed_out, 40);
    }
}

#[tokio::test]
async fn an_item_handled_before_a_restart_is_not_returned_again() {
    let path = temp_path("restart");
    let host = Host::new(Db::open_file(&path).await.unwrap());
    host.tick(NOW).await.unwrap();
    timed_game(&host, "1h", NOW).await;
    assert_eq!(reminders(&run(&host, NOW, NOW + 30 * MINUTE, MINUTE).await).len(), 1);
    host.db().close().await;
    let host = Host::new(Db::open_file(&path).await.unwrap());
    assert!(host.tick(NOW + 31 * MINUTE).await.unwrap().is_empty(), "the halfway reminder was already sent");
}

// ----- digest -----

support::both! {
    async fn the_digest_comes_once_a_day_with_the_games_where_it_is_your_turn() {
        let host = host().await;
        let on = UserSettings { digest: true, ..UserSettings::default() };
        host.set_user_settings(&alice(), &on, NOW).await.unwrap();
        let mine = timed_game(&host, "3d", NOW).await; // alice to move
        let theirs = timed_game(&host, "3d", NOW).await;
        move_at(&host, theirs.id, NOW + 1).await; // bob to move
        assert!(host.tick(NOW + DAY - 1).await.unwrap().iter().all(|d| !matches!(d, Due::Digest(_))), "not before a day");
        let digests = |found: Vec<Due>| -> Vec<(UserId, Vec<GameId>)> {
            found
                .into_iter()
                .filter_map(|d| match d {
                    Due::Digest(d) => Some((d.user.id, d.awaiting.games.iter().map(|g| g.id).collect())),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(digests(host.tick(NOW + DAY).await.unwrap()), vec![(alice().id, vec![mine.id])]);
        assert!(digests(host.tick(NOW + DAY + 1).await.unwrap()).is_empty(), "once");
        assert!(digests(host.tick(NOW + 2 * DAY - 1).await.unwrap()).is_empty());
        assert_eq!(digests(host.tick(NOW + 2 * DAY).await.unwrap()), vec![(alice().id, vec![mine.id])]);
        // Bob never asked for one.
        // Turning it off stops it; a long outage gives one digest, not one per missed day.
        host.set_user_settings(&alice(), &UserSettings::default(), NOW + 2 * DAY).await.unwrap();
        assert!(digests(host.tick(NOW + 3 * DAY).await.unwrap()).is_empty());
        host.set_user_settings(&alice(), &on, NOW + 3 * DAY).await.unwrap();
        assert_eq!(digests(host.tick(NOW + 10 * DAY).await.unwrap()).len(), 1);
        assert!(digests(host.tick(NOW + 10 * DAY + HOUR).await.unwrap()).is_empty());
    }
}

support::both! {
    async fn a_digest_finds_the_games_awaiting_you_behind_any_number_waiting_for_others() {
        let host = host().await;
        host.set_user_settings(&alice(), &UserSettings { digest: true, ..UserSettings::default() }, NOW).await.unwrap();
        let mine = timed_game(&host, "none", NOW).await; // alice to move, the least recently active
        let count = usize::try_from(MAX_DIGEST_GAMES).unwrap() + 1;
        let mut theirs = Vec::new();
        for n in 0..count {
            let game = timed_game(&host, "none", NOW + 1).await;
            move_at(&host, game.id, NOW + 2 + i64::try_from(n).unwrap()).await; // bob to move
            theirs.push(game.id);
        }
        let ids = |awaiting: Awaiting| awaiting.games.iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(ids(host.games_awaiting(alice().id).await.unwrap()), vec![mine.id]);
        let found = host.tick(NOW + DAY).await.unwrap();
        let digests: Vec<_> = found
            .iter()
            .filter_map(|d| match d {
                Due::Digest(d) => Some((d.user.id, d.awaiting.games.iter().map(|g| g.id).collect::<Vec<_>>())),
                _ => None,
            })
            .collect();
        assert_eq!(digests, vec![(alice().id, vec![mine.id])]);
        // Bob's side: every game where alice moved, newest first, up to the limit; the digest's
        // title counts them all.
        let awaiting = host.games_awaiting(bob().id).await.unwrap();
        assert_eq!(awaiting.total, count);
        let bobs = ids(awaiting);
        assert_eq!(bobs.len(), count - 1);
        assert_eq!(bobs[0], *theirs.last().unwrap());
        assert_eq!(host.games_awaiting(alice().id).await.unwrap().total, 1, "a short list counts itself");
        // A game begun with the defenders to move turns the parity round (made the most recently
        // active here, so that bob's limit does not leave it out).
        sqlx::query("UPDATE games SET start_to_move = 'defenders', updated_at = $1 WHERE id = $2")
            .bind(NOW + DAY)
            .bind(mine.id)
            .execute(host.db().pool())
            .await
            .unwrap();
        assert!(host.games_awaiting(alice().id).await.unwrap().games.is_empty());
        assert_eq!(ids(host.games_awaiting(bob().id).await.unwrap())[0], mine.id);
    }
}

support::both! {
    async fn a_digest_lists_the_nearest_deadline_first_and_untimed_games_last() {
        let host = host().await;
        // Accepted in this order; alice is to move in each. The untimed game is the most
        // recently active, and came first when the digest listed the most recent first.
        let later = timed_game(&host, "3d", NOW).await; // runs out at NOW + 3 days
        let sooner = timed_game(&host, "1d", NOW + 10).await; // NOW + 1 day + 10 s
        let soonest = timed_game(&host, "1d", NOW + 5).await; // NOW + 1 day + 5 s
        let untimed = timed_game(&host, "none", NOW + 20).await;
        let listed: Vec<i64> = host.games_awaiting(alice().id).await.unwrap().games.iter().map(|g| g.id).collect();
        assert_eq!(listed, [soonest.id, sooner.id, later.id, untimed.id]);
    }
}

support::both! {
    async fn the_next_moment_due_is_the_earliest_reminder_expiry_or_digest() {
        let host = host().await;
        assert_eq!(host.next_due_after(NOW).await.unwrap(), None, "nothing scheduled");
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        assert_eq!(host.next_due_after(NOW).await.unwrap(), Some(c.expires_at));
        host.set_user_settings(&carol(), &UserSettings { digest: true, ..UserSettings::default() }, NOW).await.unwrap();
        assert_eq!(host.next_due_after(NOW).await.unwrap(), Some(c.expires_at.min(NOW + DAY)));
        let game = timed_game(&host, "1h", NOW).await;
        let reminder = stored(&host, game.id, "next_due_at").await.unwrap();
        assert_eq!(reminder, NOW + 30 * MINUTE, "the halfway reminder");
        assert_eq!(host.next_due_after(NOW).await.unwrap(), Some(reminder));
        // Strictly after: what is due at that moment is the tick's, the next moment is later.
        assert_eq!(host.next_due_after(reminder).await.unwrap(), Some(c.expires_at.min(NOW + DAY)));
        // A server that removed the bot keeps its games' moments until it is back.
        host.server_left(PLACE.guild, NOW).await.unwrap();
        assert_eq!(host.next_due_after(NOW).await.unwrap(), Some(c.expires_at.min(NOW + DAY)));
    }
}

support::both! {
    async fn no_digest_is_sent_when_it_is_nobodys_turn_but_the_schedule_moves_on() {
        let host = host().await;
        host.set_user_settings(&bob(), &UserSettings { digest: true, ..UserSettings::default() }, NOW).await.unwrap();
        timed_game(&host, "none", NOW).await; // alice to move
        assert!(host.tick(NOW + DAY).await.unwrap().is_empty());
        let due: Option<i64> = sqlx::query_scalar("SELECT digest_due_at FROM users WHERE id = $1")
            .bind(bob().id)
            .fetch_one(host.db().pool())
            .await
            .unwrap();
        assert_eq!(due, Some(NOW + 2 * DAY));
    }
}

// ----- challenges and bad clock strings -----

support::both! {
    async fn expired_challenges_come_out_of_the_tick_once() {
        let host = host().await;
        let c = host.challenge(&request(&alice(), Some(&bob()), "copenhagen", SideChoice::Random), NOW).await.unwrap();
        assert!(host.tick(c.expires_at - 1).await.unwrap().is_empty());
        let found = host.tick(c.expires_at).await.unwrap();
        let [Due::ChallengeExpired(expired)] = found.as_slice() else { panic!("{found:?}") };
        assert_eq!((expired.id, expired.state), (c.id, ChallengeState::Expired));
        assert!(host.tick(c.expires_at + 1).await.unwrap().is_empty());
    }
}

support::both! {
    async fn a_console_wait_reports_more_items_than_one_tick_takes_at_their_moment() {
        let host = host().await;
        let mut session = Session::new(host.clone(), None);
        session.execute("/tick").await;
        // More open challenges expiring at one moment than a tick takes (500 of each kind), ten
        // from each of 51 people (the most one may have open).
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        let mut made = 0;
        for person in 0..51 {
            let challenger = tafl_bot::host::User::new(10_000 + person, &format!("p{person}"));
            for _ in 0..10 {
                host.challenge(&request(&challenger, None, "brandubh", SideChoice::Random), now).await.unwrap();
                made += 1;
            }
        }
        let reply = session.execute("/wait 2d").await;
        let expired: Vec<&str> = reply.text.lines().filter(|l| l.contains("expired unanswered")).collect();
        assert_eq!(expired.len(), made, "{}", reply.text);
        assert!(expired.iter().all(|l| l.starts_with("[+1d] ")), "each at its moment: {:?}", &expired[495..]);
    }
}

support::both! {
    async fn clock_strings_the_console_refuses_change_nothing() {
        let host = host().await;
        let mut session = Session::new(host.clone(), None);
        session.execute("/challenge @bob brandubh clock:1d").await;
        let before = snapshot(&host).await;
        for clock in ["0", "0d", "10y", "3650d", "30s", "3d+61d", "3d+", "soon", "1d+1d+1d"] {
            let reply = session.execute(&format!("/challenge @bob brandubh clock:{clock}")).await;
            assert!(reply.text.starts_with("error: "), "{clock}: {}", reply.text);
            assert!(reply.text.contains("per move") || reply.text.contains("reserve"), "{clock}: {}", reply.text);
            assert_eq!(snapshot(&host).await, before, "{clock} changed the database");
        }
        let reply = session.execute("/challenge @bob brandubh clock:3d+7d").await;
        assert!(!reply.text.starts_with("error"), "{}", reply.text);
    }
}

// ----- the migration -----

/// id, status, reason, loser, ply, move text, deadline, turn start.
type MigratedGame = (i64, String, Option<String>, Option<i64>, i64, String, Option<i64>, Option<i64>);

#[tokio::test]
async fn the_clock_migration_keeps_every_game_move_offer_and_challenge_of_an_existing_database() {
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
    // A database as the bot left it before clocks: only the first two migrations applied.
    let path = temp_path("before-clocks");
    let old = path.with_extension("migrations");
    std::fs::create_dir_all(&old).unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations");
    for file in ["0001_init.sql", "0002_games_movetext.sql"] {
        std::fs::copy(format!("{root}/{file}"), old.join(file)).unwrap();
    }
    let options = SqliteConnectOptions::new().filename(&path).create_if_missing(true).foreign_keys(true);
    let pool = SqlitePoolOptions::new().max_connections(1).connect_with(options).await.unwrap();
    sqlx::migrate::Migrator::new(old.as_path()).await.unwrap().run(&pool).await.unwrap();
    for sql in [
        "INSERT INTO users (id, name, created_at, updated_at) VALUES (101, 'alice', 1, 1), (102, 'bob', 1, 1)",
        "INSERT INTO games (id, guild_id, channel_id, variant, rules, attacker_id, defender_id, ply, clock_seconds, \
         created_at, updated_at, movetext) VALUES (1, 1, 2, 'copenhagen', 'copenhagen-rules', 101, 102, 2, 86400, \
         1000, 2000, 'd1-d3 f4-f3')",
        "INSERT INTO games (id, guild_id, channel_id, variant, rules, attacker_id, defender_id, status, reason, \
         loser_id, ply, created_at, updated_at, finished_at) VALUES (2, 1, 2, 'brandubh', 'brandubh-rules', 102, 101, \
         'attackers_win', 'resignation', 101, 0, 1000, 1500, 1500)",
        "INSERT INTO games (id, guild_id, channel_id, variant, rules, attacker_id, defender_id, created_at, \
         updated_at) VALUES (3, 1, 2, 'tablut', 'tablut-rules', 101, 102, 1000, 1000)",
        "INSERT INTO moves (game_id, ply, notation, user_id, played_at) VALUES (1, 1, 'd1-d3', 101, 1500), \
         (1, 2, 'f4-f3', 102, 2000)",
        "INSERT INTO offers (game_id, kind, by_user, at_ply, created_at) VALUES (1, 'draw', 101, 2, 2000)",
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant, side, clock_seconds, \
         state, game_id, created_at, expires_at) VALUES (1, 2, 101, 102, 'copenhagen', 'random', 86400, \
         'accepted', 1, 900, 5000)",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&pool).await.unwrap();
    }
    pool.close().await;

    let db = Db::open_file(&path).await.unwrap();
    let pool = db.pool();
    let count = |table: &'static str| async move {
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(pool)
            .await
            .unwrap();
        n
    };
    assert_eq!((count("games").await, count("moves").await, count("offers").await), (3, 2, 1), "nothing lost");
    assert_eq!(count("challenges").await, 1);
    let games: Vec<MigratedGame> = sqlx::query_as(
        "SELECT id, status, reason, loser_id, ply, movetext, deadline_at, turn_started_at FROM games ORDER BY id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(
        games,
        vec![
            // The clocked game's turn began with its last move.
            (1, "ongoing".into(), None, None, 2, "d1-d3 f4-f3".into(), Some(2000 + 86_400), Some(2000)),
            (2, "attackers_win".into(), Some("resignation".into()), Some(101), 0, String::new(), None, None),
            // The untimed game's turn began at the upgrade (0016, for claims): checked below.
            (3, "ongoing".into(), None, None, 0, String::new(), None, games[2].7),
        ]
    );
    assert!(games[2].7.is_some_and(|start| start > 1_700_000_000), "the upgrade's time: {:?}", games[2].7);
    let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys").fetch_one(pool).await.unwrap();
    assert_eq!(fk, 1, "foreign keys are on again");
    let problems: Vec<(String, i64)> =
        sqlx::query_as("SELECT \"table\", rowid FROM pragma_foreign_key_check").fetch_all(pool).await.unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    // The foreign keys of moves and offers point at the new table: deleting a game still
    // cascades, and a move for a missing game is still refused.
    let error = sqlx::query("INSERT INTO moves (game_id, ply, notation, played_at) VALUES (99, 1, 'a1-a2', 1)")
        .execute(pool)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("FOREIGN KEY"), "{error}");
    sqlx::query("DELETE FROM games WHERE id = 1").execute(pool).await.unwrap_err(); // the challenge refers to it
    sqlx::query("UPDATE challenges SET game_id = NULL").execute(pool).await.unwrap();
    sqlx::query("DELETE FROM games WHERE id = 1").execute(pool).await.unwrap();
    assert_eq!((count("moves").await, count("offers").await), (0, 0), "cascaded");
    // The new outcome is allowed, and the indexes are back.
    sqlx::query("UPDATE games SET status = 'aborted', reason = 'aborted', next_due_at = NULL WHERE id = 3")
        .execute(pool)
        .await
        .unwrap();
    let indexes: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' ORDER BY name")
            .fetch_all(pool)
            .await
            .unwrap();
    assert!(
        ["games_by_attacker", "games_by_channel", "games_by_defender", "games_due"]
            .iter()
            .all(|i| indexes.contains(&(*i).to_owned())),
        "{indexes:?}"
    );
}

// ----- the bot's turns -----

/// A game of copenhagen against the bot at level 1 with `clock`, alice on `side`, begun at `at`.
async fn bot_game(host: &Host, clock: &str, side: SideChoice, at: i64) -> GameView {
    let mut req = request(&alice(), None, "copenhagen", side);
    req.clock = Some(clock.parse().unwrap());
    host.challenge_bot(&req, 1, false, at).await.unwrap()
}

/// Plays the bot's waiting move (its first legal one) at `now`, as its player would.
async fn bot_moves_at(host: &Host, now: i64) -> GameView {
    let turn = host.bot_turns(1).await.unwrap().pop().expect("the bot's turn is waiting");
    let mv = turn.game.position().legal_moves()[0];
    host.play_bot(&turn, mv, now).await.unwrap().game
}

#[tokio::test]
async fn the_bots_turns_have_no_clock_so_it_is_never_reminded_nor_timed_out_however_late_it_moves() {
    let host = host().await;
    host.tick(NOW).await.unwrap();
    // The bot plays the attackers, who move first: its turn has no deadline and is never due.
    let game = bot_game(&host, "1h+2h", SideChoice::Defenders, NOW).await;
    assert_eq!(game.deadline_at, None);
    assert_eq!(stored(&host, game.id, "next_due_at").await, None);
    // A day of ticks while nobody moves for the bot (its process down, or its search queued):
    // no reminder, no time-out.
    let found = run(&host, NOW + MINUTE, NOW + DAY, 10 * MINUTE).await;
    assert!(found.is_empty(), "{found:?}");
    assert!(!host.show(game.id).await.unwrap().is_over());

    // It moves a day late, charged nothing and saving nothing: its reserve stays empty.
    let after = bot_moves_at(&host, NOW + DAY).await;
    assert_eq!((after.attacker_reserve, after.defender_reserve), (0, 0));
    assert_eq!(after.deadline_at, Some(NOW + DAY + HOUR), "alice's turn has her clock");
    // Alice's time is counted as in any game; the bot's next turn has no clock again.
    let after = move_at(&host, game.id, NOW + DAY + 10 * MINUTE).await;
    assert_eq!((after.deadline_at, after.defender_reserve), (None, HOUR - 10 * MINUTE));
    let start = NOW + DAY + 20 * MINUTE;
    let after = bot_moves_at(&host, start).await;
    let deadline = start + HOUR + HOUR - 10 * MINUTE;
    assert_eq!(after.deadline_at, Some(deadline));

    // Alice, not the bot, is reminded, and loses on time when she does not move.
    let found = run(&host, start + MINUTE, deadline + HOUR, MINUTE).await;
    let reminded: Vec<UserId> = reminders(&found).into_iter().map(|r| r.2).collect();
    assert_eq!(reminded, [alice().id, alice().id], "{found:?}");
    let won = Ending { winner: Some(Side::Attackers), reason: EndReason::Time };
    assert_eq!(timeouts(&found), [(deadline, game.id, Some(won))]);
}

support::both! {
    /// The bot's turns have no clock, so there is nothing to bank from them: its reserve stays
    /// as it began, however fast or late it replies, while its person's reserve is banked as in
    /// any game. A bot turn banked as a turn begun and ended at its move saved the whole time per
    /// move on every reply, and the board showed the bot's reserve growing by an hour a move. The
    /// board now states the person's reserve alone.
    async fn the_bots_reserve_never_changes_however_fast_or_late_it_replies() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let game = bot_game(&host, "1h+1d", SideChoice::Attackers, NOW).await;
        let mut t = NOW;
        for (n, thinks) in [(1, 1), (2, DAY), (3, 0)] {
            // Alice saves 50 minutes a move; the bot replies a second later, a day later, at once.
            t += 10 * MINUTE;
            let after = move_at(&host, game.id, t).await;
            assert_eq!((after.attacker_reserve, after.defender_reserve), (n * 50 * MINUTE, 0));
            t += thinks;
            let after = bot_moves_at(&host, t).await;
            assert_eq!((after.attacker_reserve, after.defender_reserve), (n * 50 * MINUTE, 0), "reply {n}");
            assert_eq!(after.deadline_at, Some(t + HOUR + n * 50 * MINUTE), "alice's turn has her reserve");
        }
        // The board states alice's reserve alone: one shown for the bot, empty, would say it has
        // a clock.
        let (view, history) = host.history(game.id).await.unwrap();
        let board = |lang| tafl_bot::present::text::board_description(&view, &history, &[], lang);
        let english = board(tafl_bot::present::Lang::discord(None));
        assert!(english.contains("\nReserve: 2 hours 30 minutes for the attackers\n"), "{english}");
        assert!(!english.contains("for the defenders"), "{english}");
        let russian = board(tafl_bot::present::Lang::discord(Some("ru")));
        assert!(russian.contains("\nЗапас времени: у нападающих 2 часа 30 минут\n"), "{russian}");
        assert!(!russian.contains("у защитников"), "{russian}");
    }
}

#[tokio::test]
async fn a_bot_turn_stored_with_a_deadline_loses_it_at_its_due_moment_instead_of_timing_out() {
    let host = host().await;
    host.tick(NOW).await.unwrap();
    // Alice attacks and moves; then the bot's turn is given a clock, as a version before the
    // rule stored it: begun at once, due for its reminder in half an hour, out in an hour.
    let game = bot_game(&host, "1h", SideChoice::Attackers, NOW).await;
    assert_eq!(game.deadline_at, Some(NOW + HOUR), "alice's own turn is timed");
    let after = move_at(&host, game.id, NOW + MINUTE).await;
    assert_eq!(after.deadline_at, None);
    sqlx::query("UPDATE games SET turn_started_at = ?, deadline_at = ?, next_due_at = ? WHERE id = ?")
        .bind(NOW + MINUTE)
        .bind(NOW + MINUTE + HOUR)
        .bind(NOW + MINUTE + 30 * MINUTE)
        .bind(game.id)
        .execute(host.db().pool())
        .await
        .unwrap();

    // Ticks through the reminder's moment and past the deadline: nothing is due, the clock is
    // dropped at the first due moment, and the game goes on.
    let found = run(&host, NOW + 2 * MINUTE, NOW + 3 * HOUR, 5 * MINUTE).await;
    assert!(found.is_empty(), "{found:?}");
    let view = host.show(game.id).await.unwrap();
    assert!(!view.is_over());
    assert_eq!((view.deadline_at, stored(&host, game.id, "next_due_at").await), (None, None));
    // The bot moves three hours late and alice gets a full turn.
    let after = bot_moves_at(&host, NOW + 3 * HOUR).await;
    assert_eq!((after.ply, after.deadline_at), (2, Some(NOW + 4 * HOUR)));
}

/// On `PostgreSQL` the due games are shared, not queued: while another process's batch holds
/// 20 due games (locked `FOR UPDATE SKIP LOCKED`, not yet committed), a tick here takes the
/// other due games at once, and the held ones come out at the next tick once that batch is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_batch_in_progress_elsewhere_does_not_hold_up_a_tick() {
    Box::pin(support::on(support::Backend::Postgres, async {
        let (one, two) = support::two_dbs().await;
        let one = Host::new(one).with_grace(1000 * DAY, HOUR);
        let two = Host::new(two).with_grace(1000 * DAY, HOUR);
        one.tick(NOW).await.unwrap();
        let mut games = Vec::new();
        for _ in 0..30 {
            games.push(timed_game(&one, "1h", NOW).await.id);
        }
        let late = NOW + 2 * HOUR;
        let mut batch = one.db().begin_write().await.unwrap();
        let held: Vec<GameId> =
            tafl_bot::store::games::due(&mut batch, late, 20, tafl_bot::store::outbox::ServedShards::ALL)
                .await
                .unwrap()
                .into_iter()
                .map(|row| row.id)
                .collect();
        assert_eq!(held.len(), 20);
        let timed_out = |found: Vec<Due>| {
            let mut ids: Vec<GameId> = found
                .into_iter()
                .map(|due| match due {
                    Due::TimedOut(finished) => finished.game.id,
                    other => panic!("only time-outs are due: {other:?}"),
                })
                .collect();
            ids.sort_unstable();
            ids
        };
        let found = tokio::time::timeout(std::time::Duration::from_secs(5), two.tick(late))
            .await
            .expect("the tick does not wait for the other batch")
            .unwrap();
        let rest: Vec<GameId> = games.iter().copied().filter(|id| !held.contains(id)).collect();
        assert_eq!(timed_out(found), rest);
        // The other process's batch ends without marking anything (it died, and the server rolled
        // it back): its games are due again. A dropped transaction's rollback is only queued, so
        // its row locks could outlive the drop and the next tick would skip them.
        batch.rollback().await.unwrap();
        assert_eq!(timed_out(two.tick(late + 1).await.unwrap()), held);
        assert!(two.tick(late + 2).await.unwrap().is_empty());
    }))
    .await;
}

// ----- claims: untimed games left unplayed -----

support::both! {
    async fn an_untimed_game_left_unplayed_for_two_weeks_is_won_by_the_player_waiting() {
        let host = host().await;
        let game = timed_game(&host, "none", NOW).await;
        move_at(&host, game.id, NOW + HOUR).await;
        move_at(&host, game.id, NOW + 2 * HOUR).await;
        let since = NOW + 3 * HOUR;
        assert_eq!(move_at(&host, game.id, since).await.to_move, Side::Defenders, "bob's move from now on");

        // Only a player, only the one waiting, and only after two weeks.
        let late = since + 30 * DAY;
        assert_eq!(host.claim(game.id, carol().id, late).await.unwrap_err(), HostError::NotAPlayer(game.id));
        assert_eq!(host.claim(game.id, bob().id, late).await.unwrap_err(), HostError::ClaimOnYourMove { id: game.id });
        let early = host.claim(game.id, alice().id, since + CLAIM_AFTER - 1).await.unwrap_err();
        assert_eq!(early, HostError::ClaimTooSoon {
            id: game.id,
            player: bob(),
            since,
            claimable_at: since + CLAIM_AFTER,
            aborts: false,
        });
        assert_eq!(host.show(game.id).await.unwrap().ending, None, "a refused claim changes nothing");
        // Alice's list says when she may claim; Bob's, on his move, never.
        let alices = host.games(alice().id, false).await.unwrap();
        assert_eq!(alices[0].claimable_at, Some(since + CLAIM_AFTER));
        assert!(!alices[0].claimable_by_me(since + CLAIM_AFTER - 1) && alices[0].claimable_by_me(since + CLAIM_AFTER));
        assert!(!host.games(bob().id, false).await.unwrap()[0].claimable_by_me(late));

        let finished = host.claim(game.id, alice().id, since + CLAIM_AFTER).await.unwrap();
        let won = Ending { winner: Some(Side::Attackers), reason: EndReason::Abandoned };
        assert_eq!(finished.game.ending, Some(won));
        assert_eq!(stored(&host, game.id, "loser_id").await, Some(bob().id));
        let summary = host.summary(game.id).await.unwrap();
        assert_eq!(summary.conclusion, Conclusion::Abandoned { side: Some(Side::Defenders) });
        assert!(!summary.rating_changes.is_empty(), "rated like any game won");
        // The record says how it ended, and reads back as the same ending.
        let record = host.export(game.id).await.unwrap();
        assert!(record.contains("[termination:abandoned]"), "{record}");
        let imported = host.import(&record, &alice(), &bob(), PLACE, late).await.unwrap();
        assert_eq!(imported.ending, Some(won));
        let again = host.claim(game.id, alice().id, late).await.unwrap_err();
        assert_eq!(again, HostError::GameOver { id: game.id });
    }
}

support::both! {
    async fn a_timed_game_is_not_claimed_and_one_left_before_the_second_move_is_aborted() {
        let host = host().await;
        let timed = timed_game(&host, "1d", NOW).await;
        move_at(&host, timed.id, NOW + HOUR).await;
        let refused = host.claim(timed.id, alice().id, NOW + HOUR + CLAIM_AFTER).await.unwrap_err();
        assert_eq!(refused, HostError::ClaimTimed { id: timed.id }, "its clock ends it");

        let untimed = timed_game(&host, "none", NOW).await;
        move_at(&host, untimed.id, NOW + HOUR).await;
        let early = host.claim(untimed.id, alice().id, NOW + HOUR + CLAIM_AFTER - 1).await.unwrap_err();
        assert!(matches!(early, HostError::ClaimTooSoon { aborts: true, .. }), "it would only abort: {early:?}");
        let finished = host.claim(untimed.id, alice().id, NOW + HOUR + CLAIM_AFTER).await.unwrap();
        assert_eq!(finished.game.ending, Some(Ending { winner: None, reason: EndReason::Aborted }));
        let summary = host.summary(untimed.id).await.unwrap();
        assert_eq!(summary.conclusion, Conclusion::Aborted);
        assert!(summary.rating_changes.is_empty(), "a game that never began is not rated");
        assert_eq!(host.profile(alice().id, None, NOW + 86_400).await.unwrap().games(), 0);
    }
}

fn claimables(found: &[(i64, Due)]) -> Vec<(i64, Claimable)> {
    found
        .iter()
        .filter_map(|(at, due)| match due {
            Due::Claimable(c) => Some((*at, c.clone())),
            _ => None,
        })
        .collect()
}

support::both! {
    async fn the_person_waiting_is_told_once_when_an_untimed_game_may_be_claimed() {
        // Ticks days apart: no downtime grace between them.
        let host = host().await.with_grace(1000 * DAY, HOUR);
        host.tick(NOW).await.unwrap();
        let game = timed_game(&host, "none", NOW).await;
        // First due when alice is warned, CLAIM_WARNING before bob may claim.
        let warn_after = CLAIM_AFTER - CLAIM_WARNING;
        assert_eq!(stored(&host, game.id, "next_due_at").await, Some(NOW + warn_after), "alice's turn");
        move_at(&host, game.id, NOW + HOUR).await;
        let since = NOW + 2 * HOUR;
        move_at(&host, game.id, since).await;
        assert_eq!(stored(&host, game.id, "next_due_at").await, Some(since + warn_after), "each move restarts it");

        // Alice's untimed turn: nothing for twelve days, then alice is warned, once; two days
        // later bob is told he may claim, once.
        let found = run(&host, since, since + CLAIM_AFTER + 2 * DAY, 6 * HOUR).await;
        let told = claimables(&found);
        let expected = Claimable { game: game.id, claimant: bob(), absent: alice(), aborts: false };
        assert_eq!(told, [(since + CLAIM_AFTER, expected)], "{found:?}");
        assert_eq!(reminders(&found), [(since + warn_after, ReminderKind::ClaimWarning, alice().id)], "{found:?}");
        let warning = found.iter().find_map(|(_, due)| match due {
            Due::Reminder(r) => Some(r.clone()),
            _ => None,
        });
        assert_eq!(warning.map(|r| (r.deadline_at, r.opponent)), Some((since + CLAIM_AFTER, bob())), "when, and by whom");
        assert!(timeouts(&found).is_empty(), "{found:?}");
        assert_eq!(stored(&host, game.id, "next_due_at").await, None, "told once");
        assert!(!host.show(game.id).await.unwrap().is_over(), "only a claim ends it");
        let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM outbox WHERE kind = 'claimable'")
            .fetch_all(host.db().pool())
            .await
            .unwrap();
        assert_eq!(kinds.len(), 1, "the notice is in the outbox");
        let claimed = host.claim(game.id, bob().id, since + CLAIM_AFTER + 2 * DAY).await.unwrap();
        assert_eq!(claimed.game.ending.map(|e| e.reason), Some(EndReason::Abandoned));
    }
}

#[tokio::test]
async fn the_bot_claims_an_untimed_game_its_person_left_and_its_own_turns_never_come_due() {
    // Ticks days apart: no downtime grace between them.
    let host = host().await.with_grace(1000 * DAY, HOUR);
    host.tick(NOW).await.unwrap();
    // The bot attacks: its turn is never due, however long it lasts.
    let game = bot_game(&host, "none", SideChoice::Defenders, NOW).await;
    assert_eq!(stored(&host, game.id, "next_due_at").await, None);
    let since = NOW + HOUR;
    bot_moves_at(&host, since).await;
    assert_eq!(stored(&host, game.id, "next_due_at").await, Some(since + CLAIM_AFTER - CLAIM_WARNING), "alice's turn");
    move_at(&host, game.id, since + MINUTE).await;
    assert_eq!(stored(&host, game.id, "next_due_at").await, None, "the bot's turn again");
    let from_bot = host.claim(game.id, alice().id, since + 30 * DAY).await.unwrap_err();
    assert_eq!(from_bot, HostError::ClaimFromBot { id: game.id }, "the bot's delay wins nobody a game");
    let since = since + 2 * MINUTE;
    bot_moves_at(&host, since).await;

    // Alice leaves it: two weeks later the bot claims the win.
    let found = run(&host, since, since + CLAIM_AFTER + DAY, 6 * HOUR).await;
    let claimed: Vec<(i64, Option<Ending>)> = found
        .iter()
        .filter_map(|(at, due)| match due {
            Due::Claimed(finished) => Some((*at, finished.game.ending)),
            _ => None,
        })
        .collect();
    let won = Ending { winner: Some(Side::Attackers), reason: EndReason::Abandoned };
    assert_eq!(claimed, [(since + CLAIM_AFTER, Some(won))], "{found:?}");
    assert!(claimables(&found).is_empty(), "nobody to tell");
    // The bot claims by itself: alice was warned two days before, once.
    let warned = reminders(&found);
    assert_eq!(warned, [(since + CLAIM_AFTER - CLAIM_WARNING, ReminderKind::ClaimWarning, alice().id)], "{found:?}");
    assert_eq!(host.show(game.id).await.unwrap().ending, Some(won));
}

support::both! {
    /// A refused claim rolls back before it answers (see `no_lock_left`): a game's row left
    /// locked would make a tick (SKIP LOCKED) pass the game by. Another connection may lock the
    /// row the moment the refusal is answered, many times over.
    async fn a_refused_claim_leaves_its_game_unlocked_when_it_answers() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let game = timed_game(&host, "none", NOW).await;
        move_at(&host, game.id, NOW + HOUR).await;
        for n in 0..20 {
            let refused = host.claim(game.id, bob().id, NOW + HOUR + n).await.unwrap_err();
            assert!(matches!(refused, HostError::ClaimOnYourMove { .. }), "{refused:?}");
            support::no_lock_left(&host, &refused).await;
            if host.db().backend() == Backend::Postgres {
                let mut tx = host.db().pool().begin().await.unwrap();
                let locked = sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE NOWAIT")
                    .bind(game.id)
                    .fetch_optional(&mut *tx)
                    .await
                    .map(|_| ());
                assert!(locked.is_ok(), "the row is still locked after refusal {n}: {locked:?}");
                tx.rollback().await.unwrap();
            }
        }
    }
}

support::both! { multi_thread
    async fn two_schedulers_tell_each_person_waiting_once() {
        let (one, two) = support::two_dbs().await;
        let one = Host::new(one).with_grace(1000 * DAY, HOUR);
        let two = Host::new(two).with_grace(1000 * DAY, HOUR);
        one.tick(NOW).await.unwrap();
        let mut games = Vec::new();
        for n in 0..30 {
            let game = timed_game(if n % 2 == 0 { &one } else { &two }, "none", NOW + n).await;
            move_at(&one, game.id, NOW + 100).await;
            games.push(game.id);
        }
        let mut told: Vec<GameId> = tick_together(&one, &two, NOW + 100 + CLAIM_AFTER)
            .await
            .into_iter()
            .filter_map(|due| match due {
                Due::Claimable(c) => Some(c.game),
                _ => None,
            })
            .collect();
        told.sort_unstable();
        assert_eq!(told, games, "each game once, by one scheduler or the other");
        let notices: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE kind = 'claimable'")
            .fetch_one(one.db().pool())
            .await
            .unwrap();
        assert_eq!(notices, 30);
    }
}

support::both! {
    async fn after_downtime_an_untimed_game_is_claimed_no_sooner_than_the_grace_allows() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let game = timed_game(&host, "none", NOW).await;
        move_at(&host, game.id, NOW + HOUR).await;
        let since = NOW + 2 * HOUR;
        move_at(&host, game.id, since).await;
        // Alice is warned in time; then the bot is down across the moment her turn may be
        // claimed: at its first tick after, the moment moves an hour on, as deadlines do.
        let warned_at = since + CLAIM_AFTER - CLAIM_WARNING;
        let found = run(&host, warned_at, warned_at + HOUR, 10 * MINUTE).await;
        assert_eq!(reminders(&found), [(warned_at, ReminderKind::ClaimWarning, alice().id)], "{found:?}");
        let back = since + CLAIM_AFTER + 3 * DAY;
        let found = run(&host, back, back, 1).await;
        assert!(claimables(&found).is_empty() && reminders(&found).is_empty(), "not at once, no second warning");
        assert!(run(&host, back + 10 * MINUTE, back + 50 * MINUTE, 10 * MINUTE).await.is_empty());
        let early = host.claim(game.id, bob().id, back + HOUR - 1).await.unwrap_err();
        assert!(matches!(early, HostError::ClaimTooSoon { claimable_at, .. } if claimable_at == back + HOUR), "{early:?}");
        let found = run(&host, back + HOUR, back + 2 * HOUR, 10 * MINUTE).await;
        let expected = Claimable { game: game.id, claimant: bob(), absent: alice(), aborts: false };
        assert_eq!(claimables(&found), [(back + HOUR, expected)], "{found:?}");
        let claimed = host.claim(game.id, bob().id, back + HOUR).await.unwrap();
        assert_eq!(claimed.game.ending.map(|e| e.reason), Some(EndReason::Abandoned));
    }
}

support::both! {
    /// Down across both the warning and the claim: Alice is warned when the bot is back, and the
    /// game may be claimed the warning's two days later, not at the end of the grace hour.
    async fn after_downtime_that_swallowed_the_warning_the_person_is_warned_before_any_claim() {
        let host = host().await;
        host.tick(NOW).await.unwrap();
        let game = timed_game(&host, "none", NOW).await;
        move_at(&host, game.id, NOW + HOUR).await;
        let since = NOW + 2 * HOUR;
        move_at(&host, game.id, since).await;
        let back = since + CLAIM_AFTER + 3 * DAY;
        let found = run(&host, back, back + CLAIM_WARNING + HOUR, 10 * MINUTE).await;
        assert_eq!(reminders(&found), [(back, ReminderKind::ClaimWarning, alice().id)], "{found:?}");
        let expected = Claimable { game: game.id, claimant: bob(), absent: alice(), aborts: false };
        assert_eq!(claimables(&found), [(back + CLAIM_WARNING, expected)], "{found:?}");
        let early = host.claim(game.id, bob().id, back + CLAIM_WARNING - 1).await.unwrap_err();
        assert!(matches!(early, HostError::ClaimTooSoon { .. }), "{early:?}");
        host.claim(game.id, bob().id, back + CLAIM_WARNING).await.unwrap();
    }
}

/// The same for a game against the bot, which claims by itself: the person hears of it first.
#[tokio::test]
async fn after_downtime_the_person_is_warned_before_the_bot_claims_an_untimed_game() {
    let host = host().await;
    host.tick(NOW).await.unwrap();
    let game = bot_game(&host, "none", SideChoice::Defenders, NOW).await;
    bot_moves_at(&host, NOW + HOUR).await;
    move_at(&host, game.id, NOW + HOUR + MINUTE).await;
    let since = NOW + HOUR + 2 * MINUTE;
    bot_moves_at(&host, since).await;
    let back = since + CLAIM_AFTER + 3 * DAY;
    let found = run(&host, back, back + CLAIM_WARNING + HOUR, 10 * MINUTE).await;
    assert_eq!(reminders(&found), [(back, ReminderKind::ClaimWarning, alice().id)], "{found:?}");
    let claimed_at = found.iter().find_map(|(at, due)| matches!(due, Due::Claimed(_)).then_some(*at));
    assert_eq!(claimed_at, Some(back + CLAIM_WARNING), "{found:?}");
}

support::both! {
    /// README: "After downtime, a claim that became possible during the outage or within the
    /// hour waits for the same grace as a deadline; when the outage also swallowed the player's
    /// warning, they are warned when the bot is back, and the claim waits the warning's two
    /// days." A claim that reaches the host before the scheduler's first tick after the outage
    /// (the moments between READY and that tick, a shard of the process away, or a claim by the
    /// game's number from another process's shard while the game's is down) waits as one after it.
    async fn a_claim_right_after_an_outage_waits_for_the_grace_as_the_scheduler_would() {
        // Ticks half a day apart count as running; a gap of more than a day is downtime.
        let host = host().await.with_grace(DAY, HOUR);
        let one = timed_game(&host, "none", NOW).await;
        let two = timed_game(&host, "none", NOW).await;
        for g in [one.id, two.id] {
            move_at(&host, g, NOW + MINUTE).await; // alice
            move_at(&host, g, NOW + 2 * MINUTE).await; // bob
            move_at(&host, g, NOW + 3 * MINUTE).await; // alice: bob to move
        }
        let found = run(&host, NOW, NOW + 11 * DAY, 12 * HOUR).await;
        assert!(found.is_empty(), "nothing due before bob's warning (day 12): {found:?}");
        // The bot is down from day 11 to day 20: bob's warning (day 12) and the claim moment
        // (day 14) both fall in the outage.
        let back = NOW + 20 * DAY;
        // Game one: alice's claim reaches the host a second before the first tick after the
        // restart. Game two, the same in every way: the tick comes first.
        let early = host.claim(one.id, alice().id, back).await;
        let Err(HostError::ClaimAfterOutage { claimable_at, .. }) = early else {
            panic!("claimed before the downtime grace, bob never warned: {:?}", early.map(|f| f.game.ending));
        };
        assert_eq!(claimable_at, back + CLAIM_WARNING, "bob is warned now, and has the warning's two days");
        let found = host.tick(back + 1).await.unwrap();
        let warned: Vec<GameId> = found
            .iter()
            .filter_map(|d| match d {
                Due::Reminder(r) if r.kind == ReminderKind::ClaimWarning && r.player == bob() => Some(r.game),
                _ => None,
            })
            .collect();
        assert_eq!(warned, [one.id, two.id], "bob warned of both: {found:?}");
        assert!(
            matches!(host.claim(two.id, alice().id, back + 1).await, Err(HostError::ClaimTooSoon { .. })),
            "after the tick the claim waits two days"
        );
        // Both may be claimed once the warning's two days are over, not before.
        let opens = back + 1 + CLAIM_WARNING;
        run(&host, back + 1, opens - HOUR, HOUR).await;
        for g in [one.id, two.id] {
            assert!(matches!(host.claim(g, alice().id, opens - 1).await, Err(HostError::ClaimTooSoon { .. })));
        }
        host.tick(opens).await.unwrap();
        for g in [one.id, two.id] {
            let claimed = host.claim(g, alice().id, opens).await.unwrap();
            assert_eq!(claimed.game.ending.map(|e| e.reason), Some(EndReason::Abandoned));
        }
    }
}

support::both! {
    /// The bot ran as one process, was down across bob's warning and the claim moment, and
    /// starts again with two shards. Neither shard has ticked under that count, so the first
    /// tick of each gives its games the grace; a claim that comes before it waits for it, as
    /// one without shards waits for the bot's first tick: in the process that serves the
    /// game's shard before its first tick, and from shard 0's process, which has ticked, for a
    /// game on shard 1, whose process has not (yet), however recent shard 0's tick is.
    async fn a_claim_after_a_restart_with_shards_waits_for_the_grace_its_shard_has_not_given_yet() {
        let (first, second) = support::two_dbs().await;
        let alone = Host::new(first).with_grace(DAY, HOUR);
        let (on_zero, on_one) = (PLACE.guild, 1_i64 << 22);
        let here = timed_game_in(&alone, "none", on_zero, NOW).await;
        let there = timed_game_in(&alone, "none", on_one, NOW).await;
        for g in [here.id, there.id] {
            move_at(&alone, g, NOW + MINUTE).await; // alice
            move_at(&alone, g, NOW + 2 * MINUTE).await; // bob
            move_at(&alone, g, NOW + 3 * MINUTE).await; // alice: bob to move
        }
        let found = run(&alone, NOW, NOW + 11 * DAY, 12 * HOUR).await;
        assert!(found.is_empty(), "nothing due before bob's warning (day 12): {found:?}");
        let back = NOW + 20 * DAY;
        let refused = |claim: Result<tafl_bot::host::Finished, HostError>| match claim {
            Err(HostError::ClaimAfterOutage { claimable_at, .. }) => claimable_at,
            other => panic!("claimed before the downtime grace, bob never warned: {:?}", other.map(|f| f.game.ending)),
        };
        // Both shards in one process: the claim comes a second before its first tick.
        let both = Host::new(second.clone()).with_grace(DAY, HOUR).with_shards(0, 1, 2);
        assert_eq!(refused(both.claim(here.id, alice().id, back).await), back + CLAIM_WARNING);
        // Shard 0's process alone, after its first tick (which gave its own game the grace).
        let zero = Host::new(second).with_grace(DAY, HOUR).with_shards(0, 0, 2);
        zero.tick(back).await.unwrap();
        assert_eq!(refused(zero.claim(there.id, alice().id, back + 1).await), back + 1 + CLAIM_WARNING);
        assert!(matches!(zero.claim(here.id, alice().id, back + 1).await, Err(HostError::ClaimTooSoon { .. })));
        // Shard 1's process comes: its first tick warns bob, and the claim waits the warning's days.
        let one = Host::new(alone.db().clone()).with_grace(DAY, HOUR).with_shards(1, 1, 2);
        let found = one.tick(back + 2).await.unwrap();
        assert!(
            found.iter().any(|d| matches!(d, Due::Reminder(r) if r.game == there.id && r.player == bob())),
            "{found:?}"
        );
        assert!(matches!(zero.claim(there.id, alice().id, back + 2).await, Err(HostError::ClaimTooSoon { .. })));
    }
}

support::both! {
    /// A claim by a game's number from another process (a DM, another server) while the process
    /// of the game's shard is down: its players cannot move, so the claim waits for that shard's
    /// scheduler to come back and warn them. Within the downtime limit, a claim goes through.
    async fn a_claim_while_the_games_shard_is_down_waits_for_its_return() {
        let (first, second) = support::two_dbs().await;
        let (zero, one) = (Host::new(first).with_shards(0, 0, 2), Host::new(second).with_shards(1, 1, 2));
        let on_one = 1_i64 << 22;
        let mut req = request(&alice(), Some(&bob()), "copenhagen", SideChoice::Attackers);
        req.place = Place { guild: on_one, ..PLACE };
        let c = zero.challenge(&req, NOW).await.unwrap();
        let game = zero.accept(c.id, &bob(), NOW).await.unwrap().game;
        move_at(&zero, game.id, NOW + MINUTE).await; // alice
        move_at(&zero, game.id, NOW + 2 * MINUTE).await; // bob: alice to move
        let since = NOW + 2 * MINUTE;
        // Shard 1's process ticks through the warning, then goes down for good.
        let found = run(&one, NOW, since + CLAIM_AFTER - DAY, HOUR).await;
        assert_eq!(reminders(&found).len(), 1, "alice warned: {found:?}");
        // Shard 0's process ticks on; bob claims from there two days after the claim moment.
        let later = since + CLAIM_AFTER + 2 * DAY;
        run(&zero, NOW, later, HOUR).await;
        let refused = zero.claim(game.id, bob().id, later).await;
        let Err(HostError::ClaimAfterOutage { claimable_at, .. }) = refused else {
            panic!("claimed while alice's server was out of the bot's reach: {refused:?}");
        };
        assert_eq!(claimable_at, later + HOUR, "the grace of a deadline: she was warned before");
        // Shard 1 is back: its first tick gives the grace, and then the claim goes through.
        let back = later + HOUR;
        one.tick(back).await.unwrap();
        assert!(matches!(zero.claim(game.id, bob().id, back).await, Err(HostError::ClaimTooSoon { .. })));
        run(&one, back, back + HOUR, 10 * MINUTE).await;
        let claimed = zero.claim(game.id, bob().id, back + HOUR).await.unwrap();
        assert_eq!(claimed.game.ending.map(|e| e.reason), Some(EndReason::Abandoned));
    }
}

support::both! {
    async fn an_imported_abandonment_must_be_by_the_side_to_move_after_the_second_move() {
        let host = host().await;
        let rules = tafl_rules::otn::rules_string(&tafl_rules::Variant::Brandubh.rules());
        let record = |result: &str, moves: &str| {
            format!("[result:{result}]\n[termination:abandoned]\n[rules:{rules}]\n{moves}\n")
        };
        let reason = |view: GameView| view.ending.map(|e| (e.winner, e.reason));
        // The attackers to move left it: the defenders won by abandonment.
        let fits = host.import(&record("-1", "1. d2-c2 d3-c3"), &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(reason(fits), Some((Some(Side::Defenders), EndReason::Abandoned)));
        // Not so for the side that had just moved, nor before the second move: the result
        // stands, and the termination is not taken at its word.
        let wrong_side = host.import(&record("1", "1. d2-c2 d3-c3"), &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(reason(wrong_side), Some((Some(Side::Attackers), EndReason::Resignation)));
        // (Here the defenders were to move and the attackers won: the side fits, the ply not.)
        let too_early = host.import(&record("1", "1. d2-c2"), &alice(), &bob(), PLACE, NOW).await.unwrap();
        assert_eq!(reason(too_early), Some((Some(Side::Attackers), EndReason::Resignation)));
    }
}

support::both! {
    /// The challenge card states the clock, but it becomes the board: the board goes on saying
    /// the clock's terms, and with a reserve what each side has saved.
    async fn the_board_of_a_reserve_clock_game_shows_the_clock_and_what_each_side_saved() {
        let host = host().await;
        let g = timed_game(&host, "1d+3d", NOW).await;
        move_at(&host, g.id, NOW + HOUR).await;
        let (view, history) = host.history(g.id).await.unwrap();
        assert_eq!(view.attacker_reserve, 23 * HOUR);
        let board = |lang| tafl_bot::present::text::board_description(&view, &history, &[], lang);
        let english = board(tafl_bot::present::Lang::discord(None));
        assert!(english.contains("⏱️ Time per move: 1 day, unused time saved up to 3 days\n"), "{english}");
        assert!(english.contains("Reserve: 23 hours for the attackers, 0 minutes for the defenders"), "{english}");
        let russian = board(tafl_bot::present::Lang::discord(Some("ru")));
        assert!(russian.contains("Запас времени: у нападающих 23 часа, у защитников 0 минут"), "{russian}");
        // Without a reserve, only the terms; untimed and finished games, neither.
        let plain = timed_game(&host, "3d", NOW).await;
        let (view, history) = host.history(plain.id).await.unwrap();
        let text = tafl_bot::present::text::board_description(&view, &history, &[], tafl_bot::present::Lang::discord(None));
        assert!(text.contains("⏱️ Time per move: 3 days") && !text.contains("Reserve:"), "{text}");
        let untimed = timed_game(&host, "none", NOW).await;
        host.resign(plain.id, alice().id, None, NOW + 2).await.unwrap();
        for id in [untimed.id, plain.id] {
            let (view, history) = host.history(id).await.unwrap();
            let text =
                tafl_bot::present::text::board_description(&view, &history, &[], tafl_bot::present::Lang::discord(None));
            assert!(!text.contains("⏱️"), "{text}");
        }
    }
}
