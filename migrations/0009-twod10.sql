-- The 2d10 system's characters, kept apart from HOCS's tables so switching a campaign's
-- ruleset never touches the other ruleset's sheets. The sheet is JSON
-- (bot.rules.twod10.sheet_codec); max_hp and death_hp are derived from it on every
-- write so a change of hit points is one conditional UPDATE clamped in SQL.

CREATE TABLE twod10_characters (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    owner_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('pc', 'ally', 'antagonist')),
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    name_key    TEXT    NOT NULL,
    sheet       TEXT    NOT NULL CHECK (json_valid(sheet)),
    max_hp      INTEGER NOT NULL CHECK (max_hp >= 1),
    death_hp    INTEGER NOT NULL CHECK (death_hp <= -1),
    hp          INTEGER NOT NULL,
    conditions  TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(conditions)),
    revision    INTEGER NOT NULL DEFAULT 1,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (hp BETWEEN death_hp AND max_hp),
    UNIQUE (guild_id, name_key)
);

CREATE INDEX twod10_characters_by_owner ON twod10_characters (guild_id, owner_id);

CREATE TABLE twod10_active_characters (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    character_id INTEGER NOT NULL REFERENCES twod10_characters (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, user_id)
);
