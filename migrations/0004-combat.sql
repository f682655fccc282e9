-- Combat: each character's wounds and injuries, and the damage rolls whose kept
-- die can still be switched with the buttons under the reply (they survive a
-- restart because everything a switch needs is stored here).

ALTER TABLE characters ADD COLUMN wounds TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(wounds));

CREATE TABLE damage_choices (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    channel_id   INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,  -- who rolled; they (or the attacker's owner, or the GM) choose
    attacker_id  INTEGER REFERENCES characters (id) ON DELETE SET NULL,
    target_id    INTEGER REFERENCES characters (id) ON DELETE CASCADE,  -- NULL: nothing applied
    intro        TEXT    NOT NULL CHECK (json_valid(intro)),   -- the rendered attack steps
    inputs       TEXT    NOT NULL CHECK (json_valid(inputs)),  -- pool, rolled faces, types
    rolls        TEXT    NOT NULL CHECK (json_valid(rolls)),   -- explosions, tests already rolled
    chosen_index INTEGER NOT NULL CHECK (chosen_index >= 0),
    before_state TEXT    CHECK (before_state IS NULL OR json_valid(before_state)),
    after_state  TEXT    CHECK (after_state IS NULL OR json_valid(after_state)),
    message_id   INTEGER,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at   TEXT    NOT NULL
);

CREATE INDEX damage_choices_by_expiry ON damage_choices (expires_at);
CREATE INDEX damage_choices_by_target ON damage_choices (target_id);
