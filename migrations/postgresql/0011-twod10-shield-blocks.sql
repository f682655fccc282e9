-- PostgreSQL twin of ../0011-twod10-shield-blocks.sql (see README.md here for how twins are written).

-- Blocks a 2d10 character's shield has made: a shield breaks after its table's number of
-- "attacks". Keyed by the shield's table name so equipping another kind of shield starts
-- afresh; the row goes with the character.

CREATE TABLE twod10_shield_blocks (
    character_id BIGINT  PRIMARY KEY REFERENCES twod10_characters (id) ON DELETE CASCADE,
    shield       TEXT    NOT NULL,
    used         BIGINT  NOT NULL CHECK (used >= 0)
);
