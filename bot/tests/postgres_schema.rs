//! The `PostgreSQL` migrations (`migrations/postgres/`) against the `SQLite` ones (`migrations/`):
//! both applied to fresh databases, then every table, column (type, nullability, default),
//! primary key, index (unique, partial, column order and direction), foreign key (with its
//! `ON DELETE`) and CHECK constraint compared. A migration written for one backend only fails
//! the first test with a sentence naming it and the file to write.
//!
//! Runs on the throwaway cluster of `tests/src/postgres.rs` (or `TEST_DATABASE_URL`); skipped
//! with one line when `PostgreSQL` is not installed, except under `CI=true`.

#[path = "../../tests/src/postgres.rs"]
mod postgres;

use std::collections::BTreeMap;

use sqlx::{Connection, PgConnection, SqlitePool};
use tafl_bot::store::{Db, PoolSettings};

/// Columns that are 0/1 flags in `SQLite` and BOOLEAN in `PostgreSQL`, because the store reads and
/// binds them as Rust `bool` (see `migrations/postgres/0001_init.sql`). Every other `SQLite`
/// INTEGER is a BIGINT.
const BOOLEAN_COLUMNS: &[(&str, &str)] = &[
    ("games", "imported"),
    ("games", "rated"),
    ("games", "thread_opened"),
    ("outbox", "tried"),
    ("board_messages", "shown_over"),
];

#[derive(Debug, PartialEq, Eq)]
struct Column {
    /// `PostgreSQL`'s name for the type (`bigint`, `text`…), the `SQLite` one translated.
    ty: String,
    not_null: bool,
    /// Normalised: casts and quotes' types gone, booleans as 0/1.
    default: Option<String>,
}

#[derive(Debug, Default)]
struct Table {
    /// In declaration order: a column added later goes last on both sides.
    columns: Vec<(String, Column)>,
    primary_key: Vec<String>,
    /// By name: (unique, columns with direction, predicate).
    indexes: BTreeMap<String, (bool, String, Option<String>)>,
    /// (columns, referenced table, referenced columns, on delete), sorted.
    foreign_keys: Vec<(String, String, String, String)>,
    /// Normalised expressions, sorted.
    checks: Vec<String>,
}

type Schema = BTreeMap<String, Table>;

/// (version, description) of every applied migration.
type Applied = Vec<(i64, String)>;

/// Lower-case, without casts (`::text`), brackets or parentheses, `= ANY (ARRAY[…])` read as
/// `IN (…)` and `x BETWEEN a AND b` as `x >= a AND x <= b`: the form in which `SQLite`'s text of
/// an expression and `PostgreSQL`'s rewriting of it (`pg_get_constraintdef`) compare equal when
/// they mean the same.
fn normalise(expression: &str) -> String {
    let mut text = expression.to_lowercase().replace("= any (array[", " in (").replace("])", ")");
    // Casts: `::` and the type name after it (`::text`, `::bigint`, `::text[]`).
    while let Some(at) = text.find("::") {
        let end = text[at + 2..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '[' || c == ']' || c == ' '))
            .map_or(text.len(), |n| at + 2 + n);
        // `::character varying` has a space; a cast never runs into a keyword without one.
        let cast = text[at..end].trim_end().to_owned();
        text.replace_range(at..at + cast.len(), "");
    }
    let spaced: String = text
        .chars()
        .map(|c| match c {
            '(' | ')' | '[' | ']' => ' ',
            c => c,
        })
        .collect::<String>()
        .replace(',', " , ");
    let mut tokens: Vec<&str> = spaced.split_whitespace().collect();
    if tokens.first() == Some(&"check") {
        tokens.remove(0);
    }
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if i + 3 < tokens.len() && tokens[i] == "between" && tokens[i + 2] == "and" {
            let subject = out.pop().unwrap_or_default();
            out.extend([subject, ">=", tokens[i + 1], "and", subject, "<=", tokens[i + 3]]);
            i += 4;
        } else {
            out.push(tokens[i]);
            i += 1;
        }
    }
    out.join(" ")
}

/// `text` without `--` comments (outside quotes), as `SQLite` keeps them in `sqlite_master`.
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut quoted = false;
        let mut end = line.len();
        let bytes = line.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\'' {
                quoted = !quoted;
            } else if !quoted && b == b'-' && bytes.get(i + 1) == Some(&b'-') {
                end = i;
                break;
            }
        }
        out.push_str(&line[..end]);
        out.push('\n');
    }
    out
}

/// The text inside the parentheses that open at or after `from` (balanced).
fn parenthesised(text: &str, from: usize) -> Option<(usize, &str)> {
    let open = from + text[from..].find('(')?;
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open + i + 1, &text[open + 1..open + i]));
                }
            }
            _ => {}
        }
    }
    None
}

/// Every `CHECK (…)` in a `CREATE TABLE` text.
fn checks_in(ddl: &str) -> Vec<String> {
    let ddl = strip_comments(ddl);
    let upper = ddl.to_uppercase();
    let mut checks = Vec::new();
    let mut from = 0;
    while let Some(at) = upper[from..].find("CHECK").map(|n| from + n) {
        let Some((end, inner)) = parenthesised(&ddl, at) else { break };
        checks.push(normalise(inner));
        from = end;
    }
    checks.sort();
    checks
}

/// (unique, columns, predicate) of a `CREATE [UNIQUE] INDEX name ON table [USING btree] (…)
/// [WHERE …]` text.
fn index_parts(ddl: &str) -> (bool, String, Option<String>) {
    let ddl = ddl.split_whitespace().collect::<Vec<_>>().join(" ");
    let upper = ddl.to_uppercase();
    let unique = upper.starts_with("CREATE UNIQUE");
    let on = upper.find(" ON ").expect("an index is on a table");
    let (end, columns) = parenthesised(&ddl, on).expect("an index has columns");
    let columns = columns.split(',').map(|c| c.trim().to_lowercase()).collect::<Vec<_>>().join(", ");
    let predicate = upper[end..].find(" WHERE ").map(|at| normalise(&ddl[end + at + 7..]));
    (unique, columns, predicate)
}

fn sqlite_type(table: &str, column: &str, declared: &str) -> String {
    match declared.to_uppercase().as_str() {
        "INTEGER" if BOOLEAN_COLUMNS.contains(&(table, column)) => "boolean".to_owned(),
        "INTEGER" => "bigint".to_owned(),
        "REAL" => "double precision".to_owned(),
        "TEXT" => "text".to_owned(),
        "BLOB" => "bytea".to_owned(),
        other => format!("(SQLite type {other} has no PostgreSQL counterpart in this test)"),
    }
}

fn default_of(text: Option<String>) -> Option<String> {
    text.map(|t| match normalise(&t).as_str() {
        "false" => "0".to_owned(),
        "true" => "1".to_owned(),
        other => other.to_owned(),
    })
}

async fn sqlite_schema(pool: &SqlitePool) -> (Schema, Applied) {
    let tables: Vec<(String, String)> = sqlx::query_as(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut schema = Schema::new();
    for (name, ddl) in tables {
        let mut table = Table::default();
        let columns: Vec<(String, String, bool, Option<String>, i64)> =
            sqlx::query_as("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid")
                .bind(&name)
                .fetch_all(pool)
                .await
                .unwrap();
        let mut primary_key: Vec<(i64, String)> = Vec::new();
        for (column, declared, not_null, default, pk) in columns {
            if pk > 0 {
                primary_key.push((pk, column.clone()));
            }
            let ty = sqlite_type(&name, &column, &declared);
            // A primary key column is never NULL (a rowid alias cannot be, and ours are NOT NULL).
            table.columns.push((column, Column { ty, not_null: not_null || pk > 0, default: default_of(default) }));
        }
        primary_key.sort();
        table.primary_key = primary_key.into_iter().map(|(_, c)| c).collect();
        let indexes: Vec<(String, String)> = sqlx::query_as(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        table.indexes = indexes.into_iter().map(|(index, ddl)| (index, index_parts(&ddl))).collect();
        let keys: Vec<(i64, String, String, String, String)> = sqlx::query_as(
            "SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
        )
        .bind(&name)
        .fetch_all(pool)
        .await
        .unwrap();
        let mut by_id: BTreeMap<i64, (Vec<String>, String, Vec<String>, String)> = BTreeMap::new();
        for (id, target, from, to, on_delete) in keys {
            let entry = by_id.entry(id).or_insert_with(|| (Vec::new(), target, Vec::new(), on_delete.to_lowercase()));
            entry.0.push(from);
            entry.2.push(to);
        }
        table.foreign_keys = by_id
            .into_values()
            .map(|(from, target, to, on_delete)| (from.join(", "), target, to.join(", "), on_delete))
            .collect();
        table.foreign_keys.sort();
        table.checks = checks_in(&ddl);
        schema.insert(name, table);
    }
    let applied = sqlx::query_as("SELECT version, description FROM _sqlx_migrations ORDER BY version")
        .fetch_all(pool)
        .await
        .unwrap();
    (schema, applied)
}

async fn postgres_schema(conn: &mut PgConnection) -> (Schema, Applied) {
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public' \
         AND table_type = 'BASE TABLE' AND table_name <> '_sqlx_migrations' ORDER BY 1",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let mut schema = Schema::new();
    for (name,) in tables {
        let mut table = Table::default();
        let columns: Vec<(String, String, String, Option<String>)> = sqlx::query_as(
            "SELECT column_name::text, data_type::text, is_nullable::text, column_default::text \
             FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
        )
        .bind(&name)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        for (column, ty, nullable, default) in columns {
            table.columns.push((column, Column { ty, not_null: nullable == "NO", default: default_of(default) }));
        }
        let constraints: Vec<(String, String)> = sqlx::query_as(
            "SELECT contype::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass",
        )
        .bind(&name)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        for (kind, definition) in constraints {
            match kind.as_str() {
                "p" => {
                    let (_, columns) = parenthesised(&definition, 0).expect("PRIMARY KEY (…)");
                    table.primary_key = columns.split(',').map(|c| c.trim().to_owned()).collect();
                }
                "f" => {
                    // FOREIGN KEY (a, b) REFERENCES t(c, d) [ON DELETE CASCADE]
                    let (end, from) = parenthesised(&definition, 0).expect("FOREIGN KEY (…)");
                    let after = definition[end..].trim_start().trim_start_matches("REFERENCES ").to_owned();
                    let open = after.find('(').expect("REFERENCES t(…)");
                    let target = after[..open].trim().to_owned();
                    let (end, to) = parenthesised(&after, open).expect("REFERENCES t(…)");
                    let on_delete = after[end..]
                        .split(" ON ")
                        .find_map(|part| part.trim().strip_prefix("DELETE "))
                        .unwrap_or("NO ACTION")
                        .trim()
                        .to_lowercase();
                    let list = |text: &str| text.split(',').map(str::trim).collect::<Vec<_>>().join(", ");
                    table.foreign_keys.push((list(from), target, list(to), on_delete));
                }
                "c" => table.checks.push(normalise(&definition)),
                _ => {}
            }
        }
        table.foreign_keys.sort();
        table.checks.sort();
        let indexes: Vec<(String, String)> = sqlx::query_as(
            "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index \
             WHERE indrelid = $1::regclass AND NOT indisprimary",
        )
        .bind(&name)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        table.indexes = indexes.into_iter().map(|(index, ddl)| (index, index_parts(&ddl))).collect();
        schema.insert(name, table);
    }
    let applied = sqlx::query_as("SELECT version, description FROM _sqlx_migrations ORDER BY version")
        .fetch_all(&mut *conn)
        .await
        .unwrap();
    (schema, applied)
}

/// The file name a migration has in its directory: `0008_bot_players.sql`.
fn file_of(version: i64, description: &str) -> String {
    format!("{version:04}_{}.sql", description.replace(' ', "_"))
}

/// Every difference between the two backends, one sentence each.
fn differences(sqlite: &(Schema, Applied), postgres: &(Schema, Applied)) -> Vec<String> {
    let mut found = Vec::new();
    let (lite_schema, lite_applied) = sqlite;
    let (pg_schema, pg_applied) = postgres;
    let lite_versions: BTreeMap<i64, &String> = lite_applied.iter().map(|(v, d)| (*v, d)).collect();
    let pg_versions: BTreeMap<i64, &String> = pg_applied.iter().map(|(v, d)| (*v, d)).collect();
    for (version, description) in &lite_versions {
        match pg_versions.get(version) {
            None => found.push(format!(
                "migration {version} ({description}) exists for SQLite but not for PostgreSQL: write \
                 migrations/postgres/{} with the same schema meaning as migrations/{}",
                file_of(*version, description),
                file_of(*version, description)
            )),
            Some(other) if other != description => found.push(format!(
                "migration {version} is \"{description}\" for SQLite but \"{other}\" for PostgreSQL: give both files the same name"
            )),
            Some(_) => {}
        }
    }
    for (version, description) in &pg_versions {
        if !lite_versions.contains_key(version) {
            found.push(format!(
                "migration {version} ({description}) exists for PostgreSQL but not for SQLite: write \
                 migrations/{} with the same schema meaning as migrations/postgres/{}",
                file_of(*version, description),
                file_of(*version, description)
            ));
        }
    }
    for name in lite_schema.keys().filter(|t| !pg_schema.contains_key(*t)) {
        found.push(format!("table {name} exists in SQLite but not in PostgreSQL"));
    }
    for name in pg_schema.keys().filter(|t| !lite_schema.contains_key(*t)) {
        found.push(format!("table {name} exists in PostgreSQL but not in SQLite"));
    }
    for (name, lite) in lite_schema {
        let Some(pg) = pg_schema.get(name) else { continue };
        let pg_columns: BTreeMap<&String, &Column> = pg.columns.iter().map(|(n, c)| (n, c)).collect();
        let lite_columns: BTreeMap<&String, &Column> = lite.columns.iter().map(|(n, c)| (n, c)).collect();
        for (column, lite_column) in &lite_columns {
            match pg_columns.get(column) {
                None => found.push(format!("column {name}.{column} exists in SQLite but not in PostgreSQL")),
                Some(pg_column) if pg_column != lite_column => found.push(format!(
                    "column {name}.{column} is {lite_column:?} in SQLite (translated) but {pg_column:?} in PostgreSQL"
                )),
                Some(_) => {}
            }
        }
        for column in pg_columns.keys().filter(|c| !lite_columns.contains_key(*c)) {
            found.push(format!("column {name}.{column} exists in PostgreSQL but not in SQLite"));
        }
        let lite_order: Vec<&String> = lite.columns.iter().map(|(n, _)| n).collect();
        let pg_order: Vec<&String> = pg.columns.iter().map(|(n, _)| n).collect();
        if lite_columns.len() == pg_columns.len() && lite_order != pg_order {
            found.push(format!(
                "the columns of {name} are in another order: SQLite {lite_order:?}, PostgreSQL {pg_order:?}"
            ));
        }
        if lite.primary_key != pg.primary_key {
            found.push(format!(
                "the primary key of {name} is {:?} in SQLite but {:?} in PostgreSQL",
                lite.primary_key, pg.primary_key
            ));
        }
        for (index, parts) in &lite.indexes {
            match pg.indexes.get(index) {
                None => found.push(format!("index {index} on {name} exists in SQLite but not in PostgreSQL")),
                Some(pg_parts) if pg_parts != parts => found.push(format!(
                    "index {index} on {name} is (unique, columns, where) {parts:?} in SQLite but {pg_parts:?} in PostgreSQL"
                )),
                Some(_) => {}
            }
        }
        for index in pg.indexes.keys().filter(|i| !lite.indexes.contains_key(*i)) {
            found.push(format!("index {index} on {name} exists in PostgreSQL but not in SQLite"));
        }
        if lite.foreign_keys != pg.foreign_keys {
            found.push(format!(
                "the foreign keys of {name} differ: SQLite {:?}, PostgreSQL {:?}",
                lite.foreign_keys, pg.foreign_keys
            ));
        }
        if lite.checks != pg.checks {
            found.push(format!(
                "the CHECK constraints of {name} differ: SQLite {:?}, PostgreSQL {:?}",
                lite.checks, pg.checks
            ));
        }
    }
    found
}

#[tokio::test]
async fn the_postgresql_migrations_give_the_same_schema_as_the_sqlite_ones() {
    let Some(database) = postgres::database().await else { return };
    let dir = std::env::temp_dir().join(format!("tafl-pg-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("schema.db");
    let _ = std::fs::remove_file(&path);
    let lite = Db::open_file(&path).await.expect("the SQLite database opens and migrates");
    let pool = tafl_bot::store::postgres::open(&database.url, &PoolSettings::default())
        .await
        .expect("the PostgreSQL database opens and migrates");

    // Read through a typed pool: the schema queries decode SQLite's own pragma columns.
    let typed = SqlitePool::connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&path)).await.unwrap();
    let sqlite = sqlite_schema(&typed).await;
    typed.close().await;
    let mut conn = pool.acquire().await.unwrap();
    let postgres = postgres_schema(&mut conn).await;
    drop(conn);
    // Migrating again changes nothing.
    tafl_bot::store::postgres::MIGRATOR.run(&pool).await.expect("a second migration is a no-op");
    lite.close().await;
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);

    assert!(sqlite.0.len() >= 12, "the SQLite schema was read: {:?}", sqlite.0.keys());
    assert_eq!(sqlite.1.len() as i64, tafl_bot::store::migrate::latest_version(), "every SQLite migration ran");
    assert_eq!(postgres.1.len() as i64, tafl_bot::store::postgres::latest_version(), "every PostgreSQL migration ran");
    let found = differences(&sqlite, &postgres);
    assert!(found.is_empty(), "the two schemas differ:\n{}", found.join("\n"));
}

#[test]
fn a_migration_on_one_side_only_is_named_with_the_file_to_write() {
    let schema = Schema::new();
    let sqlite = (Schema::new(), vec![(1, "init".to_owned()), (8, "bot players".to_owned())]);
    let postgres = (schema, vec![(1, "init".to_owned()), (9, "reviews".to_owned())]);
    let found = differences(&sqlite, &postgres);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("migration 8 (bot players) exists for SQLite but not for PostgreSQL: write migrations/postgres/0008_bot_players.sql"),
        "{}",
        found[0]
    );
    assert!(
        found[1].starts_with(
            "migration 9 (reviews) exists for PostgreSQL but not for SQLite: write migrations/0009_reviews.sql"
        ),
        "{}",
        found[1]
    );
}

#[test]
fn expressions_compare_as_each_database_writes_them() {
    assert_eq!(
        normalise("status IN ('ongoing', 'draw')"),
        normalise("CHECK ((status = ANY (ARRAY['ongoing'::text, 'draw'::text])))")
    );
    assert_eq!(
        normalise("reminders_sent BETWEEN 0 AND 2"),
        normalise("CHECK (((reminders_sent >= 0) AND (reminders_sent <= 2)))")
    );
    assert_eq!(normalise("state = 'open'"), normalise("(state = 'open'::text)"));
    assert_ne!(normalise("state = 'open'"), normalise("(state = 'pending'::text)"));
    assert_eq!(
        index_parts("CREATE INDEX ratings_leaderboard ON ratings (family, scope, rating DESC)"),
        index_parts("CREATE INDEX ratings_leaderboard ON public.ratings USING btree (family, scope, rating DESC)")
    );
    assert_eq!(checks_in("CREATE TABLE t (a INTEGER CHECK (a >= 1) -- CHECK (not this)\n)"), vec!["a >= 1".to_owned()]);
}

/// The `PostgreSQL` schema does what the `SQLite` one does where the host relies on it: one open
/// offer per game and kind, the enumerations, cascades, and ids the database chooses.
#[tokio::test]
async fn the_postgresql_constraints_refuse_what_the_sqlite_ones_refuse() {
    let Some(database) = postgres::database().await else { return };
    let pool = tafl_bot::store::postgres::open(&database.url, &PoolSettings::default()).await.unwrap();
    let mut conn = PgConnection::connect(&database.url).await.unwrap();
    sqlx::query("INSERT INTO users (id, name, created_at, updated_at) VALUES (1, 'ann', 0, 0), (2, 'ben', 0, 0)")
        .execute(&mut conn)
        .await
        .unwrap();
    let game: i64 = sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, variant, rules, attacker_id, defender_id, imported, created_at, updated_at) \
         VALUES (1, 2, 'brandubh', 'dim:7', 1, 2, $1, 0, 0) RETURNING id",
    )
    .bind(false)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(game, 1, "the database numbers games from 1, as SQLite does");
    sqlx::query("INSERT INTO moves (game_id, ply, notation, user_id, played_at) VALUES (1, 1, 'd2-c2', 1, 0)")
        .execute(&mut conn)
        .await
        .unwrap();
    let offer = "INSERT INTO offers (game_id, kind, by_user, at_ply, created_at) VALUES (1, 'draw', 1, 1, 0)";
    sqlx::query(offer).execute(&mut conn).await.unwrap();
    let second = sqlx::query(offer).execute(&mut conn).await.unwrap_err();
    assert!(second.to_string().contains("offers_one_open"), "{second}");
    let bad_status = sqlx::query("UPDATE games SET status = 'won' WHERE id = 1").execute(&mut conn).await.unwrap_err();
    assert!(bad_status.to_string().contains("games_status_check"), "{bad_status}");
    sqlx::query("UPDATE games SET status = 'aborted', reason = 'aborted' WHERE id = 1")
        .execute(&mut conn)
        .await
        .unwrap();
    let finished_with_deadline =
        sqlx::query("UPDATE games SET deadline_at = 5 WHERE id = 1").execute(&mut conn).await.unwrap_err();
    assert!(finished_with_deadline.to_string().contains("check constraint"), "{finished_with_deadline}");
    let imported: bool =
        sqlx::query_scalar("SELECT imported FROM games WHERE id = 1").fetch_one(&mut conn).await.unwrap();
    assert!(!imported, "a BOOLEAN column reads back as the bool bound");
    let unknown_user =
        sqlx::query("INSERT INTO moves (game_id, ply, notation, user_id, played_at) VALUES (1, 2, 'x', 3, 0)")
            .execute(&mut conn)
            .await
            .unwrap_err();
    assert!(unknown_user.to_string().contains("foreign key"), "{unknown_user}");
    sqlx::query("DELETE FROM games WHERE id = 1").execute(&mut conn).await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT (SELECT count(*) FROM moves) + (SELECT count(*) FROM offers)")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(left, 0, "deleting a game deletes its moves and offers");
    conn.close().await.unwrap();
    pool.close().await;
}

/// Write transactions name READ COMMITTED, which their row locks are written for, whatever
/// default a DBA gave the database; reads keep their one snapshot.
#[tokio::test]
async fn write_transactions_are_read_committed_whatever_the_databases_default() {
    let Some(database) = postgres::database().await else { return };
    let mut conn = PgConnection::connect(&database.url).await.unwrap();
    let name: String = sqlx::query_scalar("SELECT current_database()").fetch_one(&mut conn).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER DATABASE \"{name}\" SET default_transaction_isolation = 'serializable'"
    )))
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    let db = Db::open(&database.url).await.unwrap();
    let isolation = "SHOW transaction_isolation";
    let mut write = db.begin_write().await.unwrap();
    let level: String = sqlx::query_scalar(isolation).fetch_one(&mut **write).await.unwrap();
    assert_eq!(level, "read committed");
    drop(write);
    let mut lease = db.begin_lease().await.unwrap();
    let level: String = sqlx::query_scalar(isolation).fetch_one(&mut **lease).await.unwrap();
    assert_eq!(level, "read committed");
    drop(lease);
    let mut read = db.begin_read().await.unwrap();
    let level: String = sqlx::query_scalar(isolation).fetch_one(&mut *read).await.unwrap();
    assert_eq!(level, "repeatable read");
    drop(read);
    // And what the server gives a plain BEGIN, to show the test could fail.
    let mut plain = db.pool().begin().await.unwrap();
    let level: String = sqlx::query_scalar(isolation).fetch_one(&mut *plain).await.unwrap();
    assert_eq!(level, "serializable");
    drop(plain);
    db.close().await;
}
