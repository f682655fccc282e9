-- The 2d10 system's day-to-day resources: the campaign's day count, each character's
-- rations, the diseases they carry and the items they carry for encumbrance.

-- The campaign's day (starts at 1 when first needed): a character eats once per day and
-- a disease's overcoming roll falls due by days (acute 1, intermediate 7, chronic 30).
CREATE TABLE twod10_calendar (
    guild_id INTEGER PRIMARY KEY REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    day      INTEGER NOT NULL DEFAULT 1 CHECK (day >= 1)
);

-- Rations in quarter rations and the half/quarter day counts (JSON via
-- bot.rules.twod10.survival_codec); quarters repeats the state's count so encumbrance
-- reads it without a JSON function. last_day is the day the character last ate, so a
-- day's food is spent exactly once (the eat is an UPDATE conditional on it).
CREATE TABLE twod10_rations (
    character_id INTEGER PRIMARY KEY REFERENCES twod10_characters (id) ON DELETE CASCADE,
    guild_id     INTEGER NOT NULL,
    state        TEXT    NOT NULL CHECK (json_valid(state)),
    quarters     INTEGER NOT NULL CHECK (quarters BETWEEN 0 AND 1600),
    last_day     INTEGER,
    revision     INTEGER NOT NULL DEFAULT 1
);

-- A disease a character carries (JSON via survival_codec), one row per disease name.
-- due_day is the campaign day its next overcoming roll falls due; treated_day the day
-- of the last treatment attempt (one a day, so a failed treatment isn't retried at will).
CREATE TABLE twod10_infections (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    character_id INTEGER NOT NULL REFERENCES twod10_characters (id) ON DELETE CASCADE,
    name_key     TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (json_valid(state)),
    due_day      INTEGER NOT NULL,
    treated_day  INTEGER,
    revision     INTEGER NOT NULL DEFAULT 1,
    UNIQUE (character_id, name_key)
);

CREATE INDEX twod10_infections_by_guild ON twod10_infections (guild_id, character_id);

-- Items a character carries besides the sheet's armor, shield and weapons. Weight is
-- kept in quarters of an item weight so a ration-sized 1/2 or a 1/4 adds up exactly.
CREATE TABLE twod10_items (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    character_id    INTEGER NOT NULL REFERENCES twod10_characters (id) ON DELETE CASCADE,
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    name_key        TEXT    NOT NULL,
    weight_quarters INTEGER NOT NULL CHECK (weight_quarters BETWEEN 0 AND 80),
    worn            INTEGER NOT NULL CHECK (worn IN (0, 1)),
    count           INTEGER NOT NULL CHECK (count BETWEEN 1 AND 200),
    UNIQUE (character_id, name_key, worn)
);

CREATE INDEX twod10_items_by_character ON twod10_items (character_id, worn);
