-- PostgreSQL's version of migrations/0030_outbox_released.sql: when the process holding an
-- outbox lane gave it back (unix milliseconds), NULL while it holds it (see the SQLite file).
ALTER TABLE outbox_claims ADD COLUMN released_at_ms BIGINT;
