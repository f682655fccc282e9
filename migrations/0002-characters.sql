-- Character sheets (per guild, owned by a Discord user), each player's active
-- character, fortune points by source, and a link from a roll to its character.

CREATE TABLE characters (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    owner_id      INTEGER NOT NULL,
    name          TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    name_key      TEXT    NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('pc', 'ally', 'antagonist')),
    sheet         TEXT    NOT NULL CHECK (json_valid(sheet)),
    hp            INTEGER NOT NULL,
    temp_hp       INTEGER NOT NULL DEFAULT 0 CHECK (temp_hp >= 0),
    nonlethal     INTEGER NOT NULL DEFAULT 0 CHECK (nonlethal >= 0),
    recovery      INTEGER NOT NULL CHECK (recovery >= 0),
    determination INTEGER NOT NULL CHECK (determination >= 0),
    hero_points   INTEGER NOT NULL DEFAULT 0 CHECK (hero_points >= 0),
    conditions    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(conditions)),
    version       INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, name_key)
);

CREATE INDEX characters_by_owner ON characters (guild_id, owner_id);

CREATE TABLE active_characters (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE fortune_points (
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    source       TEXT    NOT NULL CHECK (length(source) BETWEEN 1 AND 32),
    PRIMARY KEY (character_id, source)
);

ALTER TABLE roll_log ADD COLUMN character_id INTEGER REFERENCES characters (id) ON DELETE SET NULL;
ALTER TABLE roll_log ADD COLUMN message_id INTEGER;
CREATE INDEX roll_log_by_character ON roll_log (character_id, id);
