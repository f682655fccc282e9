-- Blocks a 2d10 character's shield has made: a shield breaks after its table's number of
-- "attacks". Keyed by the shield's table name so equipping another kind of shield starts
-- afresh; the row goes with the character.

CREATE TABLE twod10_shield_blocks (
    character_id INTEGER PRIMARY KEY REFERENCES twod10_characters (id) ON DELETE CASCADE,
    shield       TEXT    NOT NULL,
    used         INTEGER NOT NULL CHECK (used >= 0)
);
