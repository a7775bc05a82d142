-- The servers where the bot registered its slash commands as that server's own
-- (`DISCORD_GUILD_ID`, for trying the bot out), recorded before each such registration. Discord
-- keeps a server's own commands until they are replaced, beside the global ones: a bot tried in
-- one server and then run globally showed /tafl twice there, the server's copy going stale with
-- every upgrade. A start that registers the commands globally, or in another server, clears
-- them in every server recorded here and forgets it.
CREATE TABLE guild_commands (
    guild_id      BIGINT  PRIMARY KEY,
    registered_at BIGINT  NOT NULL
);
