//! Starts the `PostgreSQL` test cluster of `tafl_e2e::postgres`, prints where it is, then panics as
//! a failing test would: `tests/tests/postgres_harness.rs` checks that the cluster is stopped and
//! removed after this process is gone. Prints nothing and exits 0 when `PostgreSQL` tests skip here.

fn main() {
    let Some(server) = tafl_e2e::postgres::server() else { return };
    let cluster = server.cluster().expect("the probe is run without TEST_DATABASE_URL");
    println!("cluster {} {}", cluster.port, cluster.dir.display());
    panic!("the probe panics like a failing test, leaving its cluster to the watchdog");
}
