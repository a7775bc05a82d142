-- Takeovers of another process's work. With several processes on one database, the bot's turn
-- in a game of a server on another process's shards, and the review of such a game, become
-- anyone's once they have waited past a grace (`FOREIGN_TURN_GRACE`, `FOREIGN_REVIEW_GRACE`):
-- that process may be down. Nothing said who took one over, so every other process searched
-- the same turn and reviewed the same game at once. Now the process that takes a foreign item
-- on claims it first, by a conditional update that succeeds for one process only (no claim,
-- one run out, or its own), and the others leave it alone while the claim runs. A process that
-- dies holding one loses it when `*_until` passes.
--
-- Columns on the rows themselves, not a table of claims as for the outbox's lanes: a claim
-- concerns one row and lives as long as its turn or review, so it goes with it. The statement
-- that ends or starts a bot turn (`set_bot_turn`) clears its claim, so a new turn never
-- inherits the last one's, and a review's claim is cleared when it is recorded or a try fails;
-- nothing is left to prune. The work of a process's own shards, and of no server, never takes
-- a claim: a single process pays nothing.
--
-- games.bot_turn_taken_by: the process id (`Host::process_id`) that took over the bot's
--   current turn; NULL when nobody did.
-- games.bot_turn_taken_until: unix seconds after which the claim is free to take again.
-- reviews.taken_by, reviews.taken_until: the same for a pending review.
ALTER TABLE games ADD COLUMN bot_turn_taken_by TEXT;
ALTER TABLE games ADD COLUMN bot_turn_taken_until INTEGER;
ALTER TABLE reviews ADD COLUMN taken_by TEXT;
ALTER TABLE reviews ADD COLUMN taken_until INTEGER;
