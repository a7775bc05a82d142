//! The migrator against the faults that cost databases before: a process killed at random moments
//! while it creates or upgrades a database, a database left half-migrated by an earlier binary,
//! a database from a newer binary, and the backup taken before an upgrade.

mod support;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{AssertSqlSafe, SqlitePool};
use support::{Rng, find_game, temp_path};
use tafl_bot::host::{CLAIM_AFTER, EndReason, Host, HostError};
use tafl_bot::store::Db;
use tafl_rules::{Reason, Variant, otn};

const BIN: &str = env!("CARGO_BIN_EXE_tafl-bot");

fn migrations_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations")
}

/// sqlx's own migrator over the files up to `up_to`: what earlier binaries ran.
async fn sqlx_migrator(up_to: i64) -> Migrator {
    let mut migrator = Migrator::new(migrations_dir()).await.expect("the migrations directory reads");
    let kept: Vec<_> = migrator.migrations.iter().filter(|m| m.version <= up_to).cloned().collect();
    migrator.migrations = Cow::Owned(kept);
    migrator
}

async fn raw_pool(path: &Path) -> SqlitePool {
    let options = SqliteConnectOptions::new().filename(path).create_if_missing(true);
    SqlitePoolOptions::new().max_connections(1).connect_with(options).await.unwrap()
}

/// The ongoing games the helpers write: their moves, by game id.
type Games = Vec<(i64, Vec<String>)>;

/// A database as an earlier binary left it: sqlx's migrations up to 0002, and `count` ongoing
/// games with their moves (different lengths, some with a clock), written with the schema of
/// that time. The games are the console's (no server), as the kill loop migrates the database
/// with `tafl-bot local`, which refuses a Discord bot's.
async fn version_2_database(path: &Path, count: usize) -> Games {
    let pool = raw_pool(path).await;
    sqlx_migrator(2).await.run(&pool).await.unwrap();
    let full = find_game(Variant::Copenhagen, Reason::KingEscaped, 400);
    let rules = otn::rules_string(&Variant::Copenhagen.rules());
    for (id, name) in [(1, "ann"), (2, "ben")] {
        sqlx::query("INSERT INTO users (id, name, created_at, updated_at) VALUES (?, ?, 1, 1)")
            .bind(id)
            .bind(name)
            .execute(&pool)
            .await
            .unwrap();
    }
    let mut games = Vec::new();
    for n in 0..count {
        let moves: Vec<String> = full[..(n * 3) % (full.len() - 1)].to_vec();
        let clock = (n % 2 == 0).then_some(86_400);
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO games (guild_id, channel_id, variant, rules, attacker_id, defender_id, ply, clock_seconds, \
             created_at, updated_at, movetext) VALUES (0, 2, 'copenhagen', ?, 1, 2, ?, ?, 100, 100, ?) RETURNING id",
        )
        .bind(&rules)
        .bind(moves.len() as i64)
        .bind(clock)
        .bind(moves.join(" "))
        .fetch_one(&pool)
        .await
        .unwrap();
        for (ply, mv) in moves.iter().enumerate() {
            sqlx::query("INSERT INTO moves (game_id, ply, notation, user_id, played_at) VALUES (?, ?, ?, ?, ?)")
                .bind(id)
                .bind(ply as i64 + 1)
                .bind(mv)
                .bind(1 + (ply % 2) as i64)
                .bind(100 + ply as i64)
                .execute(&pool)
                .await
                .unwrap();
        }
        games.push((id, moves));
    }
    pool.close().await;
    games
}

/// What a kill after 0003's own COMMIT and before sqlx recorded it left: sqlx runs a
/// no-transaction file as it is (its BEGIN…COMMIT included) and records it afterwards.
async fn apply_0003_without_recording(path: &Path) {
    let sql = std::fs::read_to_string(migrations_dir().join("0003_clocks.sql")).unwrap();
    let pool = raw_pool(path).await;
    sqlx::raw_sql(AssertSqlSafe(sql)).execute(&pool).await.unwrap();
    pool.close().await;
}

async fn assert_every_game_is_there(db: Db, games: &Games) {
    let host = Host::new(db);
    for (id, moves) in games {
        let shown = host.show(*id).await.unwrap_or_else(|e| panic!("game {id} loads: {e}"));
        assert_eq!(shown.ply, moves.len(), "game {id} keeps its moves");
    }
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(host.db().pool()).await.unwrap();
    assert_eq!(count, games.len() as i64);
    host.db().close().await;
}

#[tokio::test]
async fn a_database_half_migrated_by_an_earlier_binary_is_repaired_and_keeps_every_game() {
    let path = temp_path("half-migrated");
    let games = version_2_database(&path, 12).await;
    apply_0003_without_recording(&path).await;

    // The damage is real: sqlx's migrator, as earlier binaries ran it, can no longer open it.
    let damaged = temp_path("half-migrated-copy");
    std::fs::copy(&path, &damaged).unwrap();
    let pool = raw_pool(&damaged).await;
    let error = sqlx_migrator(i64::MAX).await.run(&pool).await.expect_err("sqlx trips over the unrecorded 0003");
    assert!(error.to_string().contains("duplicate column name"), "{error}");
    pool.close().await;

    let db = Db::open_file(&path).await.expect("the half-migrated database opens");
    let versions: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version").fetch_all(db.pool()).await.unwrap();
    assert_eq!(versions, migration_files());
    let clocks: i64 = sqlx::query_scalar("SELECT count(*) FROM games WHERE deadline_at IS NOT NULL")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(clocks, 6, "0003's own update ran once, for the games with a clock");
    assert_every_game_is_there(db, &games).await;

    // And the repaired history is one sqlx itself accepts: same versions, same checksums.
    let pool = raw_pool(&path).await;
    sqlx_migrator(i64::MAX).await.run(&pool).await.expect("sqlx accepts the repaired history");
    pool.close().await;
}

/// Games without a clock recorded no start of their turn before 0016. It starts their wait at the
/// upgrade: nobody knew of claims before, so a game left for months is not claimed (by the bot,
/// or after a notice to a person) the moment the new version starts.
#[tokio::test]
async fn untimed_games_from_before_claims_may_be_claimed_two_weeks_after_the_upgrade() {
    let path = temp_path("claims-from-before");
    let games = version_2_database(&path, 8).await;
    let clock = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let before = clock();
    let db = Db::open_file(&path).await.expect("the old database opens");
    let after = clock();
    let mut upgraded_at = None;
    for (id, moves) in &games {
        let (start, due, per_move): (Option<i64>, Option<i64>, Option<i64>) =
            sqlx::query_as("SELECT turn_started_at, next_due_at, clock_seconds FROM games WHERE id = ?")
                .bind(id)
                .fetch_one(db.pool())
                .await
                .unwrap();
        let start = start.expect("every turn has its start");
        if per_move.is_some() {
            // A clocked turn kept the start 0003 gave it: the helper played ply n at 100 + n - 1.
            let last_move = if moves.is_empty() { 100 } else { 100 + moves.len() as i64 - 1 };
            assert_eq!(start, last_move, "game {id}");
        } else {
            assert!((before..=after).contains(&start), "game {id}: {start} not in {before}..={after}");
            assert_eq!(due, Some(start + CLAIM_AFTER), "game {id}: due when it may be claimed");
            upgraded_at = Some(start);
        }
    }
    let since = upgraded_at.expect("untimed games");
    let host = Host::new(db);
    let (id, _) = games.iter().find(|(id, moves)| id % 2 == 0 && moves.len() >= 2).expect("an untimed game");
    let view = host.show(*id).await.unwrap();
    assert!(view.clock.is_untimed());
    let waiting = view.player(view.to_move.opponent()).id;
    let early = host.claim(*id, waiting, since + CLAIM_AFTER - 1).await.unwrap_err();
    assert!(matches!(early, HostError::ClaimTooSoon { since: at, .. } if at == since), "{early:?}");
    let finished = host.claim(*id, waiting, since + CLAIM_AFTER).await.unwrap();
    let ending = finished.game.ending.expect("the claim ends the game");
    assert_eq!((ending.winner, ending.reason), (Some(view.to_move.opponent()), EndReason::Abandoned));
    host.db().close().await;
}

/// Servers that had removed the bot before 0021 get the moment their players are told they may
/// end their paused games, counted from the removal as for a later one: at the first tick, when
/// it has passed.
#[tokio::test]
async fn servers_left_before_paused_notices_have_theirs_counted_from_the_removal() {
    let path = temp_path("paused-notices-from-before");
    let pool = raw_pool(&path).await;
    sqlx_migrator(20).await.run(&pool).await.unwrap();
    for (id, left_at) in [(7_i64, Some(1_000_i64)), (8, None)] {
        sqlx::query("INSERT INTO servers (id, left_at, created_at, updated_at) VALUES (?, ?, 1, 1)")
            .bind(id)
            .bind(left_at)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
    let db = Db::open_file(&path).await.expect("the old database opens");
    let notices: Vec<(i64, Option<i64>)> =
        sqlx::query_as("SELECT id, paused_notice_at FROM servers ORDER BY id").fetch_all(db.pool()).await.unwrap();
    assert_eq!(notices, [(7, Some(1_000 + CLAIM_AFTER)), (8, None)]);
    db.close().await;
}

/// Games with a thread from before 0022 are judged as the bot judged them until then: the thread
/// is the bot's own when the game's board lives outside it (it opened the thread under the
/// board), and people's when the board is inside (the game was challenged there).
#[tokio::test]
async fn threads_from_before_0022_are_the_bots_when_the_board_lives_outside_them() {
    let path = temp_path("threads-opened-from-before");
    let pool = raw_pool(&path).await;
    sqlx_migrator(21).await.run(&pool).await.unwrap();
    sqlx::query("INSERT INTO users (id, name, created_at, updated_at) VALUES (1, 'ann', 1, 1), (2, 'ben', 1, 1)")
        .execute(&pool)
        .await
        .unwrap();
    // Game 1: the bot's thread 70 under its board in channel 2; game 2: challenged in thread 80,
    // its board there; game 3: no thread.
    for (thread, board_channel) in [(Some(70_i64), 2_i64), (Some(80), 80), (None, 2)] {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO games (guild_id, channel_id, thread_id, variant, rules, attacker_id, defender_id, \
             created_at, updated_at) VALUES (5, 2, ?, 'brandubh', 'dim:7', 1, 2, 1, 1) RETURNING id",
        )
        .bind(thread)
        .fetch_one(&pool)
        .await
        .unwrap();
        sqlx::query("INSERT INTO board_messages (game_id, channel_id, message_id, updated_at) VALUES (?, ?, ?, 1)")
            .bind(id)
            .bind(board_channel)
            .bind(100 + id)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
    let db = Db::open_file(&path).await.expect("the old database opens");
    let opened: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, CASE WHEN thread_opened THEN 1 ELSE 0 END FROM games ORDER BY id")
            .fetch_all(db.pool())
            .await
            .unwrap();
    assert_eq!(opened, [(1, 1), (2, 0), (3, 0)]);
    db.close().await;
}

/// Boards from before 0024 are taken as showing their game as it is now (over or going on): the
/// sweep for boards behind their games does not edit every recently finished game's board once
/// at the upgrade.
#[tokio::test]
async fn boards_from_before_0024_show_their_game_as_it_is() {
    let path = temp_path("boards-shown-over-from-before");
    let pool = raw_pool(&path).await;
    sqlx_migrator(23).await.run(&pool).await.unwrap();
    sqlx::query("INSERT INTO users (id, name, created_at, updated_at) VALUES (1, 'ann', 1, 1), (2, 'ben', 1, 1)")
        .execute(&pool)
        .await
        .unwrap();
    // Game 1 goes on; game 2 was won by resignation.
    for (status, finished_at) in [("ongoing", None), ("defenders_win", Some(5_i64))] {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO games (guild_id, channel_id, variant, rules, attacker_id, defender_id, status, finished_at, \
             created_at, updated_at) VALUES (5, 2, 'brandubh', 'dim:7', 1, 2, ?, ?, 1, 1) RETURNING id",
        )
        .bind(status)
        .bind(finished_at)
        .fetch_one(&pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO board_messages (game_id, channel_id, message_id, shown_ply, updated_at) VALUES (?, 2, ?, 0, 1)",
        )
        .bind(id)
        .bind(100 + id)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let db = Db::open_file(&path).await.expect("the old database opens");
    let over: Vec<(i64, i64)> =
        sqlx::query_as("SELECT game_id, CASE WHEN shown_over THEN 1 ELSE 0 END FROM board_messages ORDER BY game_id")
            .fetch_all(db.pool())
            .await
            .unwrap();
    assert_eq!(over, [(1, 0), (2, 1)]);
    db.close().await;
}

#[tokio::test]
async fn a_database_written_by_a_newer_binary_is_refused_with_one_sentence() {
    let path = temp_path("newer");
    let db = Db::open_file(&path).await.unwrap();
    let next = tafl_bot::store::migrate::latest_version() + 1;
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (?, 'from the future', TRUE, x'00', 0)",
    )
    .bind(next)
    .execute(db.pool())
    .await
    .unwrap();
    db.close().await;
    let error = Db::open_file(&path).await.expect_err("a newer schema is refused").to_string();
    assert!(error.contains("newer tafl-bot"), "{error}");
    assert!(error.contains(&format!("schema version {next}")), "{error}");
    assert!(!error.contains('\n'), "one line: {error}");
}

/// README (Upgrades): "a database written by a newer version is refused with one sentence", and
/// an old process that starts on a database its successor migrated refuses it. On `PostgreSQL`,
/// the backend of processes sharing one database, the sentence is `SQLite`'s, not sqlx's
/// "migration 24 was previously applied but is missing in the resolved migrations"; so are those
/// for a migration whose file changed and for one left unfinished.
#[tokio::test]
async fn a_postgres_database_from_a_newer_tafl_bot_is_refused_saying_so() {
    use sqlx::Connection;
    let Some(database) = support::postgres::database().await else { return };
    Db::open(&database.url).await.unwrap().close().await;
    let mut conn = sqlx::PgConnection::connect(&database.url).await.unwrap();
    let latest = tafl_bot::store::postgres::latest_version();
    let refusal = || async { Db::open(&database.url).await.expect_err("the database is refused").to_string() };
    // Two migrations of a newer tafl-bot: the sentence names the newest.
    for version in [latest + 1, latest + 2] {
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES ($1, 'from a newer tafl-bot', TRUE, $2, 1)",
        )
        .bind(version)
        .bind(vec![0u8; 48])
        .execute(&mut conn)
        .await
        .unwrap();
    }
    assert_eq!(
        refusal().await,
        format!(
            "the database was written by a newer tafl-bot (schema version {}; this one knows up to {latest}); \
             run that newer version, or restore a backup made before the upgrade",
            latest + 2
        )
    );
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version > $1").bind(latest).execute(&mut conn).await.unwrap();
    // A migration this tafl-bot has, recorded with other contents.
    sqlx::query("UPDATE _sqlx_migrations SET checksum = $1 WHERE version = 2")
        .bind(vec![1u8; 48])
        .execute(&mut conn)
        .await
        .unwrap();
    let changed = refusal().await;
    assert!(changed.starts_with("migration 2 recorded in the database differs from this tafl-bot's own"), "{changed}");
    // A migration recorded as failed.
    sqlx::query("UPDATE _sqlx_migrations SET success = FALSE WHERE version = 2").execute(&mut conn).await.unwrap();
    let dirty = refusal().await;
    assert!(dirty.starts_with("migration 2 was left unfinished"), "{dirty}");
    for sentence in [&changed, &dirty] {
        assert!(!sentence.contains('\n') && !sentence.contains("resolved migrations"), "{sentence}");
    }
    conn.close().await.unwrap();
}

#[tokio::test]
async fn upgrading_a_database_with_games_backs_it_up_beside_the_file_first() {
    let path = temp_path("backup");
    let games = version_2_database(&path, 3).await;
    let db = Db::open_file(&path).await.unwrap();
    assert_every_game_is_there(db, &games).await;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let backups: Vec<PathBuf> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&format!("{name}.v2-backup-")))
        .collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert!(!backups[0].to_string_lossy().ends_with(".partial"));
    // The copy is the database before the upgrade: version 2, every game.
    let pool = raw_pool(&backups[0]).await;
    let version: i64 = sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations").fetch_one(&pool).await.unwrap();
    assert_eq!(version, 2);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(&pool).await.unwrap();
    assert_eq!(count, 3);
    pool.close().await;

    // A new database, or one already up to date, is not copied.
    let fresh = temp_path("no-backup");
    Db::open_file(&fresh).await.unwrap().close().await;
    Db::open_file(&fresh).await.unwrap().close().await;
    let fresh_name = fresh.file_name().unwrap().to_string_lossy().into_owned();
    let copies = std::fs::read_dir(fresh.parent().unwrap())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with(&format!("{fresh_name}.v")))
        .count();
    assert_eq!(copies, 0);
}

/// A start killed while copying, or refused for a full disk, leaves a partial copy; a start
/// that copied but then failed to migrate leaves a whole one. Under a service manager that
/// restarts the bot in a loop, neither may pile up: the next start removes the partial copies
/// and keeps one whole copy per version. But another process starting at the same moment keeps
/// its own copy, whole or being written.
#[tokio::test]
async fn backups_left_by_earlier_starts_do_not_pile_up() {
    let path = temp_path("backup-loop");
    version_2_database(&path, 3).await;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let beside = |suffix: &str| path.with_file_name(format!("{name}{suffix}"));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    // A kill in the middle of VACUUM INTO also leaves the copy's rollback journal.
    for leftover in
        [".v2-backup-100.partial", ".v2-backup-100.partial-journal", ".v1-backup-50.partial", ".v2-backup-200"]
    {
        std::fs::write(beside(leftover), b"an earlier start's copy").unwrap();
    }
    // Another process's copy being written now, and one it finished a moment later than this
    // start's (its clock a little ahead): both are its to keep.
    let writing = format!("v2-backup-{}.partial", now - 60);
    let later = format!("v2-backup-{}", now + 5);
    for theirs in [&writing, &later] {
        std::fs::write(beside(&format!(".{theirs}")), b"another process's copy").unwrap();
    }
    // Someone else's files alike in name are left alone.
    std::fs::write(beside(".v2-backup-notes.txt"), b"mine").unwrap();
    Db::open_file(&path).await.unwrap().close().await;
    let mut left: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|found| found.strip_prefix(&format!("{name}.")).map(str::to_owned))
        .filter(|found| found.starts_with('v'))
        .collect();
    for theirs in [&writing, &later] {
        assert!(left.contains(theirs), "{theirs} kept: {left:?}");
    }
    left.retain(|found| found != &writing && found != &later);
    left.sort();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(
        left[0].starts_with("v2-backup-") && !left[0].ends_with(".partial") && left[0] != "v2-backup-200",
        "{left:?}"
    );
    assert_eq!(left[1], "v2-backup-notes.txt");
    let pool = raw_pool(&path.with_file_name(format!("{name}.{}", left[0]))).await;
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(&pool).await.unwrap();
    assert_eq!(count, 3, "the copy kept is this start's");
    pool.close().await;
}

/// The copy holds every game: a database readable by its owner alone (0600) got a copy anyone
/// could read (`VACUUM INTO` creates its file with the default mode). And only older copies of
/// the same version were removed, so every upgrade left one full copy for good: the newest
/// `KEPT_BACKUPS` (3) are kept, whatever their versions.
#[cfg(unix)]
#[tokio::test]
async fn a_backup_has_the_databases_permissions_and_only_the_newest_three_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let path = temp_path("backup-kept");
    version_2_database(&path, 2).await;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let beside = |suffix: &str| path.with_file_name(format!("{name}{suffix}"));
    // Copies earlier upgrades left, oldest first.
    for earlier in [".v0-backup-100", ".v1-backup-200", ".v1-backup-300", ".v2-backup-400", ".v1-backup-500"] {
        std::fs::write(beside(earlier), b"an earlier upgrade's copy").unwrap();
    }
    Db::open_file(&path).await.unwrap().close().await;
    let mut left: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|found| found.strip_prefix(&format!("{name}.v")).map(str::to_owned))
        .collect();
    left.sort();
    assert_eq!(tafl_bot::store::migrate::KEPT_BACKUPS, 3);
    // This start's copy replaces the older one of its version (v2), and the oldest go.
    assert_eq!(left.len(), 3, "{left:?}");
    assert_eq!(left[..2], ["1-backup-300", "1-backup-500"], "{left:?}");
    assert!(left[2].starts_with("2-backup-") && left[2] != "2-backup-400", "{left:?}");
    let this = beside(&format!(".v{}", left[2]));
    let mode = std::fs::metadata(&this).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the copy of {} has mode {mode:o}", this.display());
}

/// The console refuses a Discord bot's database before it opens it: an older bot's database is
/// neither migrated nor backed up (the bot would then refuse a schema from a newer binary).
#[test]
fn the_console_refuses_an_older_discord_bots_database_without_migrating_it() {
    let path = temp_path("console-old-discord");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        version_2_database(&path, 2).await;
        let pool = raw_pool(&path).await;
        sqlx::query("UPDATE games SET guild_id = 5").execute(&pool).await.unwrap();
        pool.close().await;
    });
    let before = std::fs::read(&path).unwrap();
    let output = Command::new(BIN)
        .args(["local", "--no-png", "--lang", "en", "--db"])
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("holds a Discord bot's data"), "{stderr}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "not a byte changed");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let beside: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|found| found.starts_with(&format!("{name}.v")))
        .collect();
    assert!(beside.is_empty(), "no backup: {beside:?}");
}

/// Starts `tafl-bot local` on `db` with no commands: it creates or migrates the database and
/// exits.
fn open_in_child(db: &Path) -> std::process::Child {
    Command::new(BIN)
        .args(["local", "--no-png", "--quiet", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn copy_database(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap();
}

/// Removes a database with its WAL, shared-memory file and backups: the kill loop makes hundreds.
fn remove_database(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    for entry in std::fs::read_dir(path.parent().unwrap()).unwrap().flatten() {
        let other = entry.file_name().to_string_lossy().into_owned();
        if other == name || other.starts_with(&format!("{name}-")) || other.starts_with(&format!("{name}.v")) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[test]
fn killing_the_process_at_random_moments_while_it_creates_or_migrates_never_leaves_an_unopenable_database() {
    const KILLS: usize = 200;
    let seed = std::env::var("TAFL_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1
    });
    println!("kill loop seed {seed} (rerun with TAFL_KILL_SEED={seed})");
    let mut rng = Rng(seed);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();

    // A database an earlier binary wrote, at version 2 with games: each upgrade starts from a copy.
    let template = temp_path("kill-template");
    let games = runtime.block_on(version_2_database(&template, 8));

    // How long an undisturbed run takes, so that kills land anywhere in it.
    let mut longest = Duration::ZERO;
    for _ in 0..3 {
        let target = temp_path("kill-calibrate");
        copy_database(&template, &target);
        let start = Instant::now();
        assert!(open_in_child(&target).wait().unwrap().success());
        longest = longest.max(start.elapsed());
        remove_database(&target);
    }
    let window = longest.as_micros() as usize + 1;

    let mut unopenable = Vec::new();
    let mut interrupted = 0;
    let mut versions_seen = std::collections::BTreeMap::<i64, usize>::new();
    for n in 0..KILLS {
        let upgrade = n % 2 == 1;
        let path = temp_path("kill");
        if upgrade {
            copy_database(&template, &path);
        }
        let mut child = open_in_child(&path);
        std::thread::sleep(Duration::from_micros(rng.below(window) as u64));
        if child.try_wait().unwrap().is_none() {
            interrupted += 1;
        }
        let _ = child.kill();
        child.wait().unwrap();
        let outcome = runtime.block_on(async {
            if path.exists() {
                let pool = raw_pool(&path).await;
                let version: Option<i64> = sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations")
                    .fetch_one(&pool)
                    .await
                    .unwrap_or(None);
                *versions_seen.entry(version.unwrap_or(0)).or_default() += 1;
                pool.close().await;
            }
            let db = Db::open_file(&path).await.map_err(|e| e.to_string())?;
            let integrity: String =
                sqlx::query_scalar("PRAGMA integrity_check").fetch_one(db.pool()).await.map_err(|e| e.to_string())?;
            let count: i64 = sqlx::query_scalar("SELECT count(*) FROM games")
                .fetch_one(db.pool())
                .await
                .map_err(|e| e.to_string())?;
            db.close().await;
            let expected = if upgrade { games.len() as i64 } else { 0 };
            if integrity != "ok" || count != expected {
                return Err(format!("integrity {integrity}, {count} games instead of {expected}"));
            }
            Ok(())
        });
        if let Err(error) = outcome {
            unopenable.push(format!("run {n} ({}): {error}", if upgrade { "upgrade" } else { "create" }));
        } else {
            remove_database(&path);
        }
    }
    remove_database(&template);
    println!(
        "{KILLS} kills within {window} µs, {interrupted} before the child finished; schema versions found at the kill: {versions_seen:?}"
    );
    assert!(interrupted >= KILLS / 4, "most kills must land while the child works ({interrupted} of {KILLS})");
    assert!(unopenable.is_empty(), "{} unopenable databases: {unopenable:#?}", unopenable.len());
}

/// The versions of the files in `migrations/` (numbers are handed out to parallel work, so the
/// sequence may have a gap until every branch has landed).
fn migration_files() -> Vec<i64> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let mut versions: Vec<i64> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.split('_').next()?.parse().ok())
        .collect();
    versions.sort_unstable();
    assert_eq!(versions.last().copied(), Some(tafl_bot::store::migrate::latest_version()));
    versions
}

/// A database of another program that keeps its history with sqlx too, named by mistake (a
/// shared `data/` folder, a copied unit file): its history, numbered by date, was called a newer
/// tafl-bot's ("run that newer version, or restore a backup"), advice that sends the operator
/// looking for a release that does not exist. The same for a history whose first migration is
/// not ours. Either is refused as not tafl-bot's, and left as it was.
#[tokio::test]
async fn another_sqlx_programs_database_is_refused_as_not_tafl_bots_and_left_as_it_was() {
    let path = temp_path("foreign-sqlx-app");
    let pool = raw_pool(&path).await;
    for statement in [
        // sqlx's own table, as every sqlx program creates it.
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
         installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, \
         checksum BLOB NOT NULL, execution_time BIGINT NOT NULL)",
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (20240105093000, 'create todos', TRUE, x'0102', 1)",
        "CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
        "INSERT INTO todos (title) VALUES ('buy milk')",
    ] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }
    pool.close().await;
    let refused = "it holds tables but is not tafl-bot's database (its _sqlx_migrations table records another \
                   program's migrations); name tafl-bot's own database, or a new one";
    let before = std::fs::read(&path).unwrap();
    let error = Db::open_file(&path).await.expect_err("another program's database is refused").to_string();
    assert_eq!(error, refused);
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file is as it was");

    // Numbered as ours, but a first migration of its own.
    let pool = raw_pool(&path).await;
    sqlx::query("UPDATE _sqlx_migrations SET version = 1").execute(&pool).await.unwrap();
    pool.close().await;
    let error = Db::open_file(&path).await.expect_err("another program's database is refused").to_string();
    assert_eq!(error, refused);
}

/// The same mistake with a program that keeps no sqlx history (most do not): the file was taken
/// for a new database, and tafl-bot's whole schema written into the other program's data,
/// without a word. A database with tables but no history is refused, and not a byte of it
/// changes: no `_sqlx_migrations` left behind, not even its journal mode switched to WAL.
#[tokio::test]
async fn another_programs_database_without_a_history_is_refused_and_left_as_it_was() {
    let path = temp_path("foreign-app");
    let pool = raw_pool(&path).await;
    sqlx::query("CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT NOT NULL)").execute(&pool).await.unwrap();
    sqlx::query("INSERT INTO todos (title) VALUES ('buy milk')").execute(&pool).await.unwrap();
    pool.close().await;
    let before = std::fs::read(&path).unwrap();
    let error = Db::open_file(&path).await.expect_err("another program's database is refused").to_string();
    assert_eq!(
        error,
        "it holds tables but is not tafl-bot's database (it has no _sqlx_migrations table); name tafl-bot's own \
         database, or a new one"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file is as it was");
    let pool = raw_pool(&path).await;
    let tables: Vec<String> = sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(tables, ["todos"]);
}

/// What is not another program's still opens: an empty file (created by hand, or by `touch`), and
/// a database a start was killed in after it created the history table and before migration 1
/// committed.
#[tokio::test]
async fn an_empty_file_and_a_database_with_only_an_empty_history_open_as_new_ones() {
    let empty = temp_path("empty-file");
    std::fs::write(&empty, b"").unwrap();
    let db = Db::open_file(&empty).await.expect("an empty file is a new database");
    db.close().await;
    let killed = temp_path("history-only");
    let pool = raw_pool(&killed).await;
    sqlx::query(
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, \
         installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, \
         checksum BLOB NOT NULL, execution_time BIGINT NOT NULL)",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let db = Db::open_file(&killed).await.expect("a history alone is a new database");
    let version: i64 =
        sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations").fetch_one(db.pool()).await.unwrap();
    assert_eq!(version, tafl_bot::store::migrate::latest_version());
    db.close().await;
}

/// An upgrade whose backup cannot be written is refused before anything is migrated, naming
/// the backup, and leaves no part of the copy behind: a start that failed part way through the
/// copy left the copy's `-journal`, one more at every start of a service manager's restart loop.
/// The copy is stopped by a file-size limit on the process (SIGXFSZ ignored, as servers run),
/// which `SQLite` reports as an I/O error (778): a full disk is said as one (see the unit test of
/// `explained_migration`), this is not one.
#[cfg(unix)]
#[tokio::test]
async fn an_upgrade_whose_backup_cannot_be_written_is_refused_and_leaves_no_part_of_the_copy() {
    let path = temp_path("backup-unwritable");
    let previous = tafl_bot::store::migrate::latest_version() - 1;
    let pool = raw_pool(&path).await;
    sqlx_migrator(previous).await.run(&pool).await.unwrap();
    for statement in [
        "INSERT INTO users (id, name, created_at, updated_at) VALUES (1, 'ann', 1, 1), (2, 'ben', 1, 1)",
        "INSERT INTO games (guild_id, channel_id, variant, rules, attacker_id, defender_id, created_at, updated_at) \
         VALUES (0, 0, 'copenhagen', 'x', 1, 2, 1, 1)",
        // About 2.5 MB, so that the copy outgrows the limit.
        "CREATE TABLE bulk (x BLOB)",
        "INSERT INTO bulk SELECT randomblob(1000) FROM \
         (WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 2500) SELECT n FROM c)",
    ] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }
    pool.close().await;
    for _ in 0..2 {
        let output = Command::new("sh")
            .args(["-c", "trap '' XFSZ; exec prlimit --fsize=200000 -- \"$0\" local --no-png --lang en --db \"$1\""])
            .arg(BIN)
            .arg(&path)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{said}");
        let expected = format!(
            "error: cannot open the database {}: cannot back up the database before migrating it: ",
            path.display()
        );
        assert!(said.starts_with(&expected), "{said}");
    }
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let left: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with(&format!("{name}.v")))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let pool = raw_pool(&path).await;
    let version: i64 = sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations").fetch_one(&pool).await.unwrap();
    pool.close().await;
    assert_eq!(version, previous, "nothing was migrated");
}
