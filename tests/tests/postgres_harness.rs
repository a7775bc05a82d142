//! The `PostgreSQL` test harness (`tests/src/postgres.rs`): a database of its own for each test,
//! dropped afterwards, and a cluster that is stopped and removed when its test process ends, even
//! by a panic.

use std::process::Command;
use std::time::Duration;

use sqlx::{Connection, PgConnection};
use tafl_e2e::postgres;

#[tokio::test]
async fn each_test_database_is_fresh_and_is_dropped_with_its_guard() {
    let Some(first) = postgres::database().await else { return };
    let second = postgres::database().await.expect("a second database on the same server");
    assert_ne!(first.name, second.name);
    let mut conn = PgConnection::connect(&first.url).await.expect("the database accepts connections");
    sqlx::query("CREATE TABLE t (x BIGINT)").execute(&mut conn).await.unwrap();
    let mut other = PgConnection::connect(&second.url).await.unwrap();
    let tables: i64 =
        sqlx::query_scalar("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
            .fetch_one(&mut other)
            .await
            .unwrap();
    assert_eq!(tables, 0, "the second database does not see the first one's table");
    other.close().await.unwrap();
    let name = first.name.clone();
    // Dropped while a connection is still open: WITH (FORCE) ends it.
    drop(first);
    let mut admin = PgConnection::connect(&second.url).await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_database WHERE datname = $1")
        .bind(&name)
        .fetch_one(&mut admin)
        .await
        .unwrap();
    assert_eq!(left, 0, "the dropped guard's database is gone");
    drop(conn);
}

#[test]
fn the_cluster_of_a_test_process_that_panics_is_stopped_and_removed() {
    if postgres::server().is_none_or(|server| server.cluster().is_none()) {
        // Skipped (the line is printed), or a TEST_DATABASE_URL server that is not ours to stop.
        return;
    }
    let output = Command::new(env!("CARGO_BIN_EXE_pg-cluster-probe")).output().expect("run the probe");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the probe panics; stderr: {stderr}");
    let line = stdout.lines().find_map(|l| l.strip_prefix("cluster ")).unwrap_or_else(|| panic!("{stdout}{stderr}"));
    let (port, dir) = line.split_once(' ').unwrap();
    let port: u16 = port.parse().unwrap();
    let gone = postgres::wait_until(Duration::from_secs(15), || {
        !std::path::Path::new(dir).exists() && std::net::TcpStream::connect(("127.0.0.1", port)).is_err()
    });
    assert!(gone, "the cluster in {dir} on port {port} outlived its process");
}
