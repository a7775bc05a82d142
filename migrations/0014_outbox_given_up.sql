-- The board items given up (Discord refused them for good: the channel deleted, the bot's access
-- taken away), by game lane and when: the sweep that redraws boards behind their games leaves a
-- game alone for an hour after its board was given up, instead of asking Discord again and
-- recording another given-up item at every scheduler tick (every 20 s, for ever, for an untimed
-- game). Given-up items are few, so the index is small.
CREATE INDEX outbox_given_up ON outbox (lane, finished_at) WHERE state = 'given_up';
