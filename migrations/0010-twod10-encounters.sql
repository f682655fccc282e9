-- The 2d10 system's side initiative tracker: one encounter per channel. The whole
-- encounter (bot.rules.twod10.initiative.codec, plus which combatants are linked to
-- which 2d10 sheet and who plays them) is one JSON document saved under `version` by a
-- conditional UPDATE, so two writers can never both advance from the same state.
-- Kept apart from HOCS's `encounters` table: a channel's HOCS encounter is untouched.

CREATE TABLE twod10_encounters (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id           INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    channel_id         INTEGER NOT NULL UNIQUE,
    gm_id              INTEGER NOT NULL,
    state              TEXT    NOT NULL CHECK (json_valid(state)),
    version            INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    tracker_message_id INTEGER,
    created_at         TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at         TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX twod10_encounters_by_guild ON twod10_encounters (guild_id);
