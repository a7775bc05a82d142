//! `PostgreSQL` for tests: a throwaway cluster started from the machine's `PostgreSQL` programs, or the
//! server named by `TEST_DATABASE_URL`, and a fresh database for each test.
//!
//! * **Where the server comes from.** `TEST_DATABASE_URL=postgres://user@host:port/db` names an
//!   existing server (its user must be allowed to create databases). Without it, the first test
//!   that asks starts one cluster for the whole test process: `initdb` and `pg_ctl` from
//!   `PG_BIN_DIR`, else the newest `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package),
//!   else `PATH`, on a free loopback port, in a temporary directory. `PostgreSQL` refuses to run as
//!   root, and CI runs as root, so then the cluster belongs to the `postgres` user (the package
//!   creates it) and its programs run through `runuser`. The cluster runs with `fsync=off`: a
//!   throwaway database needs no durability, and tests are faster without it.
//! * **Stopped even when a test panics.** A test process never runs the destructors of its
//!   statics, and a panicking or killed one runs nothing at all, so the cluster is not stopped by
//!   the process itself: a watchdog started beside it (`setsid sh`, outside the test's process
//!   group, so Ctrl-C on the tests does not kill it first) waits for the test process to exit,
//!   however it exits, then stops the cluster (`pg_ctl -m immediate`) and removes its directory.
//! * **One database per test.** [`database`] creates `tafl_test_<pid>_<n>` and drops it when the
//!   [`TestDatabase`] is dropped (panics included), so a shared `TEST_DATABASE_URL` server is not
//!   littered.
//! * **Durable, for benchmarks.** [`durable_server`] starts a second cluster of the same kind
//!   with `PostgreSQL`'s own defaults (`fsync`, `full_page_writes` and `synchronous_commit` on), so
//!   that a benchmark measures what a real deployment would pay for each commit.
//! * **TLS, on request.** [`tls_server`] starts another cluster of the same kind that serves TLS
//!   (`ssl=on`) with a certificate the test made, and accepts TCP connections only over TLS
//!   (`hostssl` in `pg_hba.conf`), so that a connection it accepts is known to be encrypted.
//!   [`server`]'s cluster keeps TLS off (`initdb`'s default): the other tests pay no handshake and
//!   no second cluster. It needs `PostgreSQL`'s programs even with `TEST_DATABASE_URL`, whose
//!   server is configured by someone else.
//! * **Not installed.** Without `TEST_DATABASE_URL` and without the programs, [`database`] prints
//!   one line and returns `None`, and the test returns early; under `CI=true` it panics instead,
//!   because CI must run these tests.
//!
//! The file depends only on std, sqlx and tokio, so that the bot's own tests can include it too
//! (`#[path = "../../tests/src/postgres.rs"] mod postgres;`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sqlx::{Connection, Executor, PgConnection};

/// A server the tests can create databases on.
#[derive(Debug)]
pub struct Server {
    /// A URL of the server's maintenance database, for `CREATE DATABASE` and `DROP DATABASE`.
    admin_url: String,
    /// The throwaway cluster, when the server is ours.
    cluster: Option<Cluster>,
}

/// A cluster this process started.
#[derive(Debug)]
pub struct Cluster {
    /// The temporary directory: `data/` (the cluster), `socket/`, `log`.
    pub dir: PathBuf,
    pub port: u16,
    /// The programs' directory (`initdb`, `pg_ctl`, `postgres`).
    pub bin: PathBuf,
}

impl Server {
    /// The URL of database `name` on this server (without the admin URL's parameters).
    #[must_use]
    pub fn url_of(&self, name: &str) -> String {
        let (base, _) = self.admin_url.rsplit_once('/').expect("a database URL has a path");
        format!("{base}/{name}")
    }

    /// The cluster this process started, `None` on a `TEST_DATABASE_URL` server.
    #[must_use]
    pub fn cluster(&self) -> Option<&Cluster> {
        self.cluster.as_ref()
    }
}

/// A database of its own for one test, dropped with this value.
#[derive(Debug)]
pub struct TestDatabase {
    /// `postgres://…/tafl_test_<pid>_<n>`.
    pub url: String,
    pub name: String,
    admin_url: String,
}

impl TestDatabase {
    /// A login role of the test's own (`<database>_app`), given `grants` (SQL in which `ROLE`
    /// stands for its name) by the database's owner, and the URL that connects to this database
    /// as it; `None`, after one line, when the server's user may not create roles (a shared
    /// `TEST_DATABASE_URL` server), except under `CI=true`, where that fails the test.
    pub async fn role(&self, grants: &str) -> Option<TestRole> {
        let name = format!("{}_app", self.name);
        let mut conn = PgConnection::connect(&self.url).await.unwrap();
        if let Err(error) = conn.execute(sqlx::AssertSqlSafe(format!("CREATE ROLE {name} LOGIN"))).await {
            assert!(!under_ci(), "the test cluster creates roles: {error}");
            println!("skipped: the server's user may not create roles ({error})");
            return None;
        }
        conn.execute(sqlx::AssertSqlSafe(grants.replace("ROLE", &name))).await.unwrap();
        let _ = conn.close().await;
        let user_at = self.url.find('@').expect("a database URL names its user");
        let url = format!("postgres://{name}{}", &self.url[user_at..]);
        Some(TestRole { url, name, admin_url: self.url.clone() })
    }
}

/// A role made by [`TestDatabase::role`]; [`TestRole::drop_role`] drops it with whatever it owns
/// (a role outlives its database, so a test that forgets it leaves it on the server).
#[derive(Debug)]
pub struct TestRole {
    /// The test database's URL, connecting as this role.
    pub url: String,
    pub name: String,
    admin_url: String,
}

impl TestRole {
    pub async fn drop_role(self) {
        let mut conn = PgConnection::connect(&self.admin_url).await.unwrap();
        conn.execute(sqlx::AssertSqlSafe(format!("DROP OWNED BY {0}; DROP ROLE {0}", self.name))).await.unwrap();
        let _ = conn.close().await;
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        // Drop runs inside the test's runtime (maybe while it unwinds), where nothing can be
        // awaited: a thread with a runtime of its own drops the database. `WITH (FORCE)` ends
        // connections a pool of the test may still hold.
        let admin_url = self.admin_url.clone();
        let sql = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            runtime.block_on(async move {
                let mut conn = PgConnection::connect(&admin_url).await.ok()?;
                conn.execute(sqlx::AssertSqlSafe(sql)).await.ok()
            })
        });
        let _ = dropped.join();
    }
}

/// Whether `CI=true`: then `PostgreSQL` tests must run, never skip.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// The process's server, started on first use; `None` (after printing why) when `PostgreSQL` is not
/// installed and `CI` is not `true`. Panics with one sentence when a server that should be there
/// cannot be used.
pub fn server() -> Option<&'static Server> {
    static SERVER: OnceLock<Result<Option<Server>, String>> = OnceLock::new();
    match SERVER.get_or_init(start_server) {
        Ok(Some(server)) => Some(server),
        Ok(None) => {
            // One line per skipping test, so that each one says why it did nothing.
            eprintln!("skipping: PostgreSQL is not installed (see README: Debian's postgresql package)");
            None
        }
        Err(error) => panic!("{error}"),
    }
}

/// A server with `PostgreSQL`'s durable defaults, for benchmarks (see the module docs): a cluster
/// of its own beside [`server`]'s, or the `TEST_DATABASE_URL` server as it is configured. `None`
/// (after printing why) when `PostgreSQL` is not installed and `CI` is not `true`.
pub fn durable_server() -> Option<&'static Server> {
    static SERVER: OnceLock<Result<Option<Server>, String>> = OnceLock::new();
    match SERVER.get_or_init(|| start_server_with(Durability::Durable)) {
        Ok(Some(server)) => Some(server),
        Ok(None) => {
            eprintln!("skipping: PostgreSQL is not installed (see README: Debian's postgresql package)");
            None
        }
        Err(error) => panic!("{error}"),
    }
}

/// A server certificate and its private key, in PEM, for [`tls_server`]; the tests make them
/// (with rcgen: a CA of their own and a certificate for 127.0.0.1 signed by it), so that this
/// file depends on no certificate library.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert_pem: String,
    pub key_pem: String,
}

/// A cluster of its own that serves TLS with `tls`'s certificate and refuses TCP connections
/// without it (see the module docs), started anew by each call (a test binary whose tests share
/// one keeps it in a static) and removed by its watchdog when the process exits. Its
/// [`Server::url_of`] URLs name no `sslmode`, so a test says which one it means; its own
/// connections (creating and dropping the databases) ask for `sslmode=require`. `None` (after
/// printing why) when `PostgreSQL`'s programs are missing, which under `CI=true` is a panic
/// unless `TEST_DATABASE_URL` names the server the other tests use; panics with one sentence when
/// the cluster cannot start.
#[must_use]
pub fn tls_server(tls: &TlsFiles) -> Option<Server> {
    let Some(bin) = find_programs() else {
        let external = std::env::var("TEST_DATABASE_URL").is_ok_and(|u| !u.trim().is_empty());
        assert!(
            external || !under_ci(),
            "PostgreSQL is not installed (no initdb in PG_BIN_DIR, /usr/lib/postgresql/*/bin or PATH) \
             and CI=true requires the PostgreSQL tests to run; install Debian's postgresql package"
        );
        eprintln!(
            "skipping: a PostgreSQL cluster serving TLS needs PostgreSQL's programs (see README: Debian's postgresql package)"
        );
        return None;
    };
    let cluster = Cluster::start(&bin, Setup { durability: Durability::Throwaway, tls: Some(tls) })
        .unwrap_or_else(|error| panic!("{error}"));
    let admin_url = format!("postgres://postgres@127.0.0.1:{}/postgres?sslmode=require", cluster.port);
    Some(Server { admin_url, cluster: Some(cluster) })
}

/// A fresh, empty database for one test, or `None` when `PostgreSQL` tests are skipped here.
pub async fn database() -> Option<TestDatabase> {
    Some(database_on(server()?).await)
}

/// A fresh, empty database on `server` (one of [`server`] or [`durable_server`]).
pub async fn database_on(server: &Server) -> TestDatabase {
    create_on(server, "").await
}

/// A fresh, empty database on [`server`] encoded in `encoding` (`LATIN1`, `WIN1252`: what a
/// server set up for a Western European language may give), with the C locale, which every
/// encoding accepts.
pub async fn database_encoded(encoding: &str) -> Option<TestDatabase> {
    let options = format!(" ENCODING '{encoding}' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
    Some(create_on(server()?, &options).await)
}

/// A fresh database on `server`, created with `options` after its name.
async fn create_on(server: &Server, options: &str) -> TestDatabase {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!("tafl_test_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let mut admin = PgConnection::connect(&server.admin_url)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to the test PostgreSQL server: {e}"));
    admin
        .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"{options}")))
        .await
        .unwrap_or_else(|e| panic!("cannot create the test database {name}: {e}"));
    let _ = admin.close().await;
    TestDatabase { url: server.url_of(&name), name, admin_url: server.admin_url.clone() }
}

/// How the throwaway cluster treats commits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Durability {
    /// `fsync=off`, `synchronous_commit=off`, `full_page_writes=off`: for tests.
    Throwaway,
    /// `PostgreSQL`'s defaults: for benchmarks.
    Durable,
}

/// How a cluster is set up: its durability, and the certificate it serves TLS with, if any.
#[derive(Clone, Copy, Debug)]
struct Setup<'a> {
    durability: Durability,
    tls: Option<&'a TlsFiles>,
}

fn start_server() -> Result<Option<Server>, String> {
    start_server_with(Durability::Throwaway)
}

fn start_server_with(durability: Durability) -> Result<Option<Server>, String> {
    if let Some(url) = std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.trim().is_empty()) {
        let url = url.trim().to_owned();
        if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(
                "TEST_DATABASE_URL must be a postgres:// URL of a server the tests may create databases on".to_owned()
            );
        }
        return Ok(Some(Server { admin_url: url, cluster: None }));
    }
    let Some(bin) = find_programs() else {
        if under_ci() {
            return Err("PostgreSQL is not installed (no initdb in PG_BIN_DIR, /usr/lib/postgresql/*/bin or PATH) \
                        and CI=true requires the PostgreSQL tests to run; install Debian's postgresql package \
                        or set TEST_DATABASE_URL"
                .to_owned());
        }
        return Ok(None);
    };
    let cluster = Cluster::start(&bin, Setup { durability, tls: None })?;
    let admin_url = format!("postgres://postgres@127.0.0.1:{}/postgres", cluster.port);
    Ok(Some(Server { admin_url, cluster: Some(cluster) }))
}

/// The directory holding `initdb` and `pg_ctl`.
fn find_programs() -> Option<PathBuf> {
    let has_programs = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(dir) = std::env::var_os("PG_BIN_DIR").map(PathBuf::from) {
        return has_programs(&dir).then_some(dir);
    }
    // Debian keeps each major version's programs apart; the newest one wins.
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            has_programs(&bin).then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).find(|dir| has_programs(dir))
}

/// The account that owns the cluster when we are root (`PostgreSQL` refuses to run as root).
#[derive(Clone, Debug)]
struct Owner {
    name: String,
    uid: u32,
    gid: u32,
}

fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    // The owner of /proc/self is the process's effective user: no libc call needed.
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// `postgres` from /etc/passwd, as Debian's package creates it.
fn postgres_account() -> Result<Owner, String> {
    let passwd = std::fs::read_to_string("/etc/passwd").map_err(|e| format!("cannot read /etc/passwd: {e}"))?;
    passwd
        .lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.len() > 3 && fields[0] == "postgres").then(|| Owner {
                name: fields[0].to_owned(),
                uid: fields[2].parse().unwrap_or(0),
                gid: fields[3].parse().unwrap_or(0),
            })
        })
        .filter(|owner| owner.uid != 0)
        .ok_or_else(|| {
            "the tests run as root and there is no postgres user to run the PostgreSQL cluster as; \
             install Debian's postgresql package (it creates that user) or set TEST_DATABASE_URL"
                .to_owned()
        })
}

impl Cluster {
    /// `initdb`, then `pg_ctl start` on a free port, then the watchdog that removes it all when
    /// this process exits.
    fn start(bin: &Path, setup: Setup) -> Result<Cluster, String> {
        static TLS_CLUSTERS: AtomicUsize = AtomicUsize::new(0);
        let owner = if running_as_root() { Some(postgres_account()?) } else { None };
        let durability = setup.durability;
        let suffix = match (setup.tls, durability) {
            (Some(_), _) => format!("-tls-{}", TLS_CLUSTERS.fetch_add(1, Ordering::Relaxed)),
            (None, Durability::Durable) => "-durable".to_owned(),
            (None, Durability::Throwaway) => String::new(),
        };
        let dir = std::env::temp_dir().join(format!("tafl-pg-{}{suffix}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("socket")).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        if let Some(owner) = &owner {
            for path in [dir.clone(), dir.join("socket")] {
                std::os::unix::fs::chown(&path, Some(owner.uid), Some(owner.gid))
                    .map_err(|e| format!("cannot give {} to the postgres user: {e}", path.display()))?;
            }
        }
        // From here on the directory exists: the watchdog removes it whatever happens next.
        let mut cluster = Cluster { dir, port: 0, bin: bin.to_owned() };
        cluster.watch(owner.as_ref())?;
        let data = cluster.dir.join("data");
        let started = Instant::now();
        cluster.run(
            owner.as_ref(),
            "initdb",
            &[
                "-D",
                path_str(&data)?,
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            ],
        )?;
        let tls_options = match setup.tls {
            Some(tls) => {
                write_tls_files(&data, tls, owner.as_ref())?;
                "-c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key "
            }
            None => "",
        };
        // A port free a moment ago may be taken before the server binds it: try a few.
        let mut last_error = String::new();
        for _ in 0..5 {
            let port = free_port()?;
            let unsafe_speed = match durability {
                Durability::Throwaway => "-c fsync=off -c synchronous_commit=off -c full_page_writes=off ",
                Durability::Durable => "",
            };
            let options = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 {unsafe_speed}{tls_options}-c max_connections=200",
                path_str(&cluster.dir.join("socket"))?
            );
            let log = cluster.dir.join("log");
            match cluster.run(
                owner.as_ref(),
                "pg_ctl",
                &["-D", path_str(&data)?, "-o", &options, "-l", path_str(&log)?, "-w", "-t", "30", "start"],
            ) {
                Ok(()) => {
                    cluster.port = port;
                    eprintln!(
                        "PostgreSQL test cluster on 127.0.0.1:{port} in {} (started in {:.1} s)",
                        cluster.dir.display(),
                        started.elapsed().as_secs_f64()
                    );
                    return Ok(cluster);
                }
                Err(error) => last_error = error,
            }
        }
        Err(format!("cannot start the PostgreSQL test cluster: {last_error}"))
    }

    /// Runs one of the cluster's programs, as the owner when there is one.
    fn run(&self, owner: Option<&Owner>, program: &str, args: &[&str]) -> Result<(), String> {
        let program_path = self.bin.join(program);
        let mut command = match owner {
            Some(owner) => {
                let mut command = Command::new("runuser");
                command.args(["-u", &owner.name, "--"]).arg(&program_path);
                command
            }
            None => Command::new(&program_path),
        };
        // The cluster's programs must not find the test's settings (PGDATA, PGPORT…) instead.
        let output = command
            .args(args)
            .current_dir(&self.dir)
            .env_remove("PGDATA")
            .env_remove("PGPORT")
            .env_remove("PGHOST")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", program_path.display()))?;
        if output.status.success() {
            return Ok(());
        }
        let log = std::fs::read_to_string(self.dir.join("log")).unwrap_or_default();
        Err(format!(
            "{program} failed ({}): {} {} {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim(),
            String::from_utf8_lossy(&output.stdout).trim(),
            log.lines().rev().take(5).collect::<Vec<_>>().join(" / ")
        ))
    }

    /// Starts the watchdog: once this process is gone, stop the cluster and remove its directory.
    fn watch(&self, owner: Option<&Owner>) -> Result<(), String> {
        let pg_ctl = self.bin.join("pg_ctl");
        let stop = format!(
            "{}{} -D {} -m immediate stop",
            owner.map_or(String::new(), |o| format!("runuser -u {} -- ", o.name)),
            shell_quote(path_str(&pg_ctl)?),
            shell_quote(path_str(&self.dir.join("data"))?)
        );
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.2; done; \
             if [ -f {pidfile} ]; then {stop} >/dev/null 2>&1; fi; rm -rf {dir}",
            pid = std::process::id(),
            pidfile = shell_quote(path_str(&self.dir.join("data/postmaster.pid"))?),
            dir = shell_quote(path_str(&self.dir)?),
        );
        Command::new("setsid")
            .args(["sh", "-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the watchdog of the PostgreSQL test cluster: {e}"))?;
        Ok(())
    }
}

/// Puts `tls`'s certificate and key in the cluster's data directory (where `ssl_cert_file` and
/// `ssl_key_file`'s relative names point), the key readable by its owner only, as `PostgreSQL`
/// demands, both owned by the cluster's owner; and lets TCP connections in only over TLS.
fn write_tls_files(data: &Path, tls: &TlsFiles, owner: Option<&Owner>) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    // Unix sockets as initdb left them; on 127.0.0.1 `hostssl` only, so plain TCP finds no entry.
    let hba = "local all all trust\nhostssl all all 127.0.0.1/32 trust\n";
    for (name, text) in
        [("server.crt", tls.cert_pem.as_str()), ("server.key", tls.key_pem.as_str()), ("pg_hba.conf", hba)]
    {
        let path = data.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("cannot make {} private: {e}", path.display()))?;
        if let Some(owner) = owner {
            std::os::unix::fs::chown(&path, Some(owner.uid), Some(owner.gid))
                .map_err(|e| format!("cannot give {} to the postgres user: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn free_port() -> Result<u16, String> {
    let listener =
        std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot find a free loopback port: {e}"))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| format!("cannot find a free loopback port: {e}"))
}

fn path_str(path: &Path) -> Result<&str, String> {
    path.to_str().ok_or_else(|| format!("the temporary directory {} is not UTF-8", path.display()))
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Waits until `check` holds, for at most `limit`.
pub fn wait_until(limit: Duration, check: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if check() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    check()
}
