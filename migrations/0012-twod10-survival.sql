-- The 2d10 system's survival state per character: the healing state (JSON via
-- bot.rules.twod10.survival_codec) that keeps the rest and medicine limits across
-- commands and restarts, and the character's units of medical supplies. The sheet's
-- hp column stays the source of truth for HP; the stored state's hp is what the
-- sheet held when the state was last saved (a lower sheet HP since means damage).

CREATE TABLE twod10_survival (
    character_id INTEGER PRIMARY KEY REFERENCES twod10_characters (id) ON DELETE CASCADE,
    guild_id     INTEGER NOT NULL,
    healing      TEXT    CHECK (healing IS NULL OR json_valid(healing)),
    supplies     INTEGER NOT NULL DEFAULT 0 CHECK (supplies BETWEEN 0 AND 99),
    revision     INTEGER NOT NULL DEFAULT 1
);

-- Torches and lanterns a character carries. The state (JSON via survival_codec) holds
-- the secret burn time: only the GM is ever shown it.
CREATE TABLE twod10_lights (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    character_id INTEGER NOT NULL REFERENCES twod10_characters (id) ON DELETE CASCADE,
    state        TEXT    NOT NULL CHECK (json_valid(state)),
    revision     INTEGER NOT NULL DEFAULT 1
);

CREATE INDEX twod10_lights_by_guild ON twod10_lights (guild_id, character_id);
