-- Outbox lanes claimed by one process at a time (issue 16): with several bot processes on one
-- database, each lane (one game, one challenge, one person's digests) is delivered by the
-- process that holds its claim, so that no item is posted twice and a lane's items stay in
-- order, one at a time. A claim is a lease: its holder renews it while it delivers and deletes
-- the row when the lane is empty or waits for a retry; a process that dies leaves its rows,
-- and once `lease_until_ms` has passed another process takes the lane over (see
-- bot/src/host/outbox.rs, `OUTBOX_LEASE`). A row exists only while a lane is claimed.
CREATE TABLE outbox_claims (
    lane            TEXT    PRIMARY KEY,
    -- The holder's process id, made at its start-up (`Host::process_id`).
    claimed_by      TEXT    NOT NULL,
    -- Unix milliseconds after which the claim is free for any process to take.
    lease_until_ms  INTEGER NOT NULL
);
