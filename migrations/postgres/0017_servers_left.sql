-- When the bot was removed from a server (kicked, or the server deleted): NULL while it is a
-- member. Discord tells a removal apart from an outage (`GUILD_DELETE` without `unavailable`),
-- and a removal while no process was connected shows as a server missing from `READY`.
-- The games of a server the bot left are paused: their players lost their boards through no
-- choice of theirs, so nothing comes due in them (no reminder, no time-out, no claim) until the
-- bot is back (`GUILD_CREATE`), when every turn is given back the time it was away.
ALTER TABLE servers ADD COLUMN left_at BIGINT;
