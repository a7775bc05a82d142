//! TLS to `PostgreSQL`: the bot's database and `migrate-db`'s target reached over TLS, on a
//! throwaway cluster that serves TLS with a certificate made here (a private CA of the test's own,
//! and a server certificate for 127.0.0.1 and localhost signed by it) and that accepts TCP
//! connections only over TLS (`tests/src/postgres.rs`, [`postgres::tls_server`]), so a
//! connection it accepts is encrypted; each test also asks the server (`pg_stat_ssl`). One test
//! uses the shared cluster instead, which serves no TLS, for `sslmode=require`'s refusal.
//!
//! Skipped with one line when `PostgreSQL`'s programs are not installed, except under `CI=true`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair, KeyUsagePurpose,
};
use sqlx::{Connection, PgConnection};
use tafl_bot::cli::migrate_db::{self, MigrateDbError};
use tafl_bot::store::Db;
use tafl_e2e::postgres;
use tafl_e2e::scratch::scratch_dir;

/// The cluster serving TLS, shared by the tests of this file, and the CA that signed its
/// certificate.
#[derive(Debug)]
struct TlsCluster {
    server: postgres::Server,
    ca_pem: String,
}

/// The cluster, started by the first test that asks; `None` when the tests skip here.
fn cluster() -> Option<&'static TlsCluster> {
    static CLUSTER: OnceLock<Option<TlsCluster>> = OnceLock::new();
    CLUSTER
        .get_or_init(|| {
            let (ca_pem, issuer) = authority("tafl test CA");
            let files = server_certificate(&issuer);
            Some(TlsCluster { server: postgres::tls_server(&files)?, ca_pem })
        })
        .as_ref()
}

/// A certificate authority named `name`: its certificate (PEM) and what signs with it.
fn authority(name: &str) -> (String, Issuer<'static, KeyPair>) {
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    let key = KeyPair::generate().expect("a CA key");
    let certificate = params.self_signed(&key).expect("a self-signed CA certificate");
    (certificate.pem(), Issuer::new(params, key))
}

/// The server's certificate for 127.0.0.1 and localhost, signed by `issuer`, and its key.
fn server_certificate(issuer: &Issuer<'static, KeyPair>) -> postgres::TlsFiles {
    let mut params =
        CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).expect("server parameters");
    params.distinguished_name.push(DnType::CommonName, "localhost");
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    params.use_authority_key_identifier_extension = true;
    let key = KeyPair::generate().expect("a server key");
    let certificate = params.signed_by(&key, issuer).expect("a server certificate");
    postgres::TlsFiles { cert_pem: certificate.pem(), key_pem: key.serialize_pem() }
}

/// `pem` written to `ca.pem` in a scratch directory of the test's own.
fn ca_file(pem: &str) -> PathBuf {
    let path = scratch_dir("pg-tls").join("ca.pem");
    std::fs::write(&path, pem).expect("write the CA certificate");
    path
}

fn with_params(url: &str, params: &str) -> String {
    format!("{url}?{params}")
}

fn root_cert(path: &Path) -> String {
    path.to_str().expect("a UTF-8 temporary path").to_owned()
}

/// Whether the connection of `db`'s pool that answers is encrypted, as the server sees it.
async fn pool_uses_tls(db: &Db) -> bool {
    sqlx::query_scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        .fetch_one(db.pool())
        .await
        .expect("the server says whether the connection uses TLS")
}

#[tokio::test]
async fn verify_full_and_verify_ca_with_the_servers_ca_open_the_bot_database_over_tls() {
    let Some(cluster) = cluster() else { return };
    let database = postgres::database_on(&cluster.server).await;
    let ca = root_cert(&ca_file(&cluster.ca_pem));
    for mode in ["verify-full", "verify-ca"] {
        let url = with_params(&database.url, &format!("sslmode={mode}&sslrootcert={ca}"));
        // Opening migrates the database: the migrator's connection and the pool's, all over TLS.
        let db = Db::open(&url).await.unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert!(pool_uses_tls(&db).await, "{mode}: the bot's connection is not encrypted");
        db.close().await;
    }
    // The cluster takes nothing else over TCP: that a connection was accepted proves TLS too.
    let plain = PgConnection::connect(&with_params(&database.url, "sslmode=disable")).await;
    let refused = plain.expect_err("the TLS cluster accepted a connection without TLS").to_string();
    assert!(refused.contains("no encryption"), "{refused}");
}

#[tokio::test]
async fn require_encrypts_without_a_ca_to_check_the_certificate_with() {
    let Some(cluster) = cluster() else { return };
    let database = postgres::database_on(&cluster.server).await;
    let db = Db::open(&with_params(&database.url, "sslmode=require")).await.expect("sslmode=require opens");
    assert!(pool_uses_tls(&db).await, "the bot's connection is not encrypted");
    db.close().await;
}

#[tokio::test]
async fn migrate_db_copies_into_a_database_reached_over_tls() {
    let Some(cluster) = cluster() else { return };
    let database = postgres::database_on(&cluster.server).await;
    let file = scratch_dir("pg-tls-source").join("tafl.db");
    Db::open_file(&file).await.expect("a new SQLite database").close().await;
    let from = format!("sqlite://{}", file.display());
    let to = with_params(&database.url, "sslmode=require");
    migrate_db::copy(&from, &to, &mut |_| {}).await.expect("migrate-db --to …?sslmode=require copies");
    let mut target = PgConnection::connect(&to).await.unwrap();
    let version: i64 = sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations")
        .fetch_one(&mut target)
        .await
        .expect("the target was migrated");
    assert_eq!(version, tafl_bot::store::postgres::latest_version());
    target.close().await.unwrap();
}

#[tokio::test]
async fn a_certificate_from_another_ca_is_refused_in_one_sentence_naming_it() {
    let Some(cluster) = cluster() else { return };
    let database = postgres::database_on(&cluster.server).await;
    let (other_pem, _) = authority("another CA");
    let other = root_cert(&ca_file(&other_pem));
    let url = with_params(&database.url, &format!("sslmode=verify-full&sslrootcert={other}"));
    let refused = Db::open(&url).await.expect_err("a server certificate the CA did not sign was accepted").to_string();
    assert!(
        refused.starts_with("the database server's TLS certificate was refused: it is not signed by a certificate authority this bot trusts"),
        "{refused}"
    );
    assert!(refused.contains("sslrootcert=FILE") && !refused.contains('\n'), "{refused}");
    // migrate-db says it the same way.
    let file = scratch_dir("pg-tls-source").join("tafl.db");
    Db::open_file(&file).await.expect("a new SQLite database").close().await;
    let copied = migrate_db::copy(&format!("sqlite://{}", file.display()), &url, &mut |_| {}).await;
    match copied {
        Err(MigrateDbError::TargetUnreachable { reason }) => {
            assert!(reason.starts_with("the database server's TLS certificate was refused"), "{reason}");
        }
        other => panic!("expected the target to be unreachable, got {other:?}"),
    }
}

#[tokio::test]
async fn a_ca_file_that_does_not_exist_is_named_as_the_certificate_file() {
    let Some(cluster) = cluster() else { return };
    let database = postgres::database_on(&cluster.server).await;
    let missing = root_cert(&scratch_dir("pg-tls").join("no-such-ca.pem"));
    let url = with_params(&database.url, &format!("sslmode=verify-full&sslrootcert={missing}"));
    let refused = Db::open(&url).await.expect_err("a missing CA file was accepted").to_string();
    assert!(refused.contains("TLS") && refused.contains("sslrootcert"), "{refused}");
    assert!(refused.contains("No such file"), "{refused}");
}

#[tokio::test]
async fn require_is_refused_by_a_server_without_tls_and_prefer_goes_on_without_it() {
    // The shared cluster serves no TLS (initdb's default); a TEST_DATABASE_URL server may.
    if postgres::server().is_none_or(|server| server.cluster().is_none()) {
        return;
    }
    let Some(database) = postgres::database().await else { return };
    let refused = Db::open(&with_params(&database.url, "sslmode=require"))
        .await
        .expect_err("sslmode=require was let through without TLS")
        .to_string();
    assert!(refused.contains("TLS") && refused.contains("server does not support TLS"), "{refused}");
    let db = Db::open(&database.url).await.expect("the default sslmode=prefer goes on in plain text");
    assert!(!pool_uses_tls(&db).await);
    db.close().await;
}
