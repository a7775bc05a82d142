-- The languages the bot speaks in, for messages nobody is answering at the moment (reminders,
-- time-outs, digests, summaries posted by the scheduler), which cannot take the language from an
-- interaction.
--
-- servers.locale: the server's own locale as Discord last reported it (`guild_locale`, e.g. `ru`).
-- servers.language: the language a manager chose with /tafl settings language, NULL to follow
--   the server's own locale. Public messages use language, else locale, else English.
-- users.locale: the person's client locale as Discord last reported it, for their digests.
-- Codes are BCP 47 tags as Discord sends them; the bot maps each to the nearest language it has.

ALTER TABLE servers ADD COLUMN locale TEXT;
ALTER TABLE servers ADD COLUMN language TEXT;
ALTER TABLE users ADD COLUMN locale TEXT;
