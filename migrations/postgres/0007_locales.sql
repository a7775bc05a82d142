-- PostgreSQL's version of migrations/0007_locales.sql: the server's own locale, the language its
-- managers chose, and each person's client locale, for messages nobody is answering.
ALTER TABLE servers ADD COLUMN locale TEXT;
ALTER TABLE servers ADD COLUMN language TEXT;
ALTER TABLE users ADD COLUMN locale TEXT;
