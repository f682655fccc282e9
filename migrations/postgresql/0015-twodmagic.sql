-- PostgreSQL twin of ../0015-twodmagic.sql (see README.md here for how twins are written).

-- The 2d10 system's concentration: the one lasting spell or ritual effect a character
-- holds (ruling one-concentration), so it survives restarts and shows on the sheet and
-- in the tracker. A row exists only while the character concentrates; ending it is a
-- DELETE ... RETURNING, so two commands can't both end (and announce) the same one.

CREATE TABLE twod10_concentration (
    character_id BIGINT  PRIMARY KEY REFERENCES twod10_characters (id) ON DELETE CASCADE,
    guild_id     BIGINT  NOT NULL,
    effect       TEXT    NOT NULL CHECK (length(effect) BETWEEN 1 AND 100),
    form         TEXT    NOT NULL CHECK (form IN ('spell', 'ritual')),
    tier         BIGINT  NOT NULL CHECK (tier BETWEEN 1 AND 3),
    roll_id      BIGINT
);

CREATE INDEX twod10_concentration_by_guild ON twod10_concentration (guild_id);
