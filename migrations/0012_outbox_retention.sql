-- Delivered outbox items are deleted once they are a week old (`Host::prune_outbox`, run
-- hourly by the Discord front end's scheduler), except summaries, whose message a review edits
-- later and which number one per finished game: without this the table grew by every board,
-- notice and reminder ever shown. The index holds exactly the items that will be deleted, so
-- finding them costs nothing however many summaries pile up (with summaries in it, an hourly
-- look that found nothing walked all of them: 94 ms at 300,000).
CREATE INDEX outbox_done ON outbox (finished_at) WHERE state = 'done' AND kind <> 'summary';
