-- PostgreSQL's version of migrations/0010_outbox_claims.sql: the lanes of the outbox claimed
-- by one process at a time, each until its lease runs out (see the SQLite file).
CREATE TABLE outbox_claims (
    lane            TEXT   PRIMARY KEY,
    claimed_by      TEXT   NOT NULL,
    lease_until_ms  BIGINT NOT NULL
);
