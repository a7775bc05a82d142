-- People's names in each server (their server nickname), as Discord reports them with
-- interactions: the caller's own, and those of the members a command's user options name.
-- Everything shown in a server (boards, notices, thread names, summaries, its leaderboard)
-- names people as that server does: COALESCE(member_names.name, users.name). A person with no
-- nickname in a server has no row there (Discord's report of none deletes it), so their
-- display name shows again; DMs, the console (guild 0) and global views use users.name alone.
-- No foreign key to users: Discord reports a member's name before the bot records the person
-- (the first challenge's check comes before the challenge), and a row nobody plays with is
-- never read.
CREATE TABLE member_names (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
