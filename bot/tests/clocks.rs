//! Correspondence play in the host, with an injected clock (no sleeping): settings, clocks on
//! games, reminders, time-outs, the daily digest, grace after downtime, and several schedulers
//! on one database.

mod support;

use support::{NOW, alice, bob, host, snapshot};
use tafl_bot::host::{Clock, HostError, ServerSettings, UserSettings};
use tafl_render::{Orientation, Theme};

// ----- settings -----

#[tokio::test]
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

#[tokio::test]
async fn stored_settings_with_unknown_or_damaged_keys_still_load() {
    let host = host().await;
    host.set_user_settings(&alice(), &UserSettings::default(), NOW).await.unwrap();
    sqlx::query("UPDATE users SET settings = ? WHERE id = ?")
        .bind(r#"{"digest":true,"theme":"neon","future_key":[1,2,3]}"#)
        .bind(alice().id)
        .execute(host.db().pool())
        .await
        .unwrap();
    assert_eq!(host.user_settings(alice().id).await.unwrap(), UserSettings { digest: true, ..UserSettings::default() });
    sqlx::query("UPDATE users SET settings = 'garbage' WHERE id = ?")
        .bind(alice().id)
        .execute(host.db().pool())
        .await
        .unwrap();
    assert_eq!(host.user_settings(alice().id).await.unwrap(), UserSettings::default());
}

#[tokio::test]
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

#[tokio::test]
async fn too_many_channels_are_refused_and_change_nothing() {
    let host = host().await;
    host.set_server_settings(7, &ServerSettings { threads: true, ..ServerSettings::default() }, NOW).await.unwrap();
    let before = snapshot(&host).await;
    let settings = ServerSettings { channels: (1..=101).collect(), ..ServerSettings::default() };
    let error = host.set_server_settings(7, &settings, NOW + 1).await.unwrap_err();
    assert!(matches!(error, HostError::BadSetting(_)), "{error:?}");
    assert!(error.to_string().contains("at most 100 channels"), "{error}");
    assert_eq!(snapshot(&host).await, before);
    assert!(host.server_settings(7).await.unwrap().threads, "the old settings stay");
}
