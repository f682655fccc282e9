-- One campaign per guild, the roll log, and small key/value facts about the bot itself.

CREATE TABLE campaigns (
    guild_id      INTEGER PRIMARY KEY,
    ruleset       TEXT    NOT NULL DEFAULT 'hocs',
    gm_role_id    INTEGER,
    gm_channel_id INTEGER,
    settings      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE roll_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    channel_id  INTEGER,
    user_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    expression  TEXT    NOT NULL,
    result      TEXT    NOT NULL CHECK (json_valid(result)),
    total       INTEGER,
    secret      INTEGER NOT NULL DEFAULT 0 CHECK (secret IN (0, 1)),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX roll_log_by_guild ON roll_log (guild_id, created_at);
CREATE INDEX roll_log_by_user ON roll_log (guild_id, user_id, id);

CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
