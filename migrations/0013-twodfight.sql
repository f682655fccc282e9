-- Resources the 2d10 system's text counts and a GM forgets: a character's ammo points
-- (held 2 to a pouch or quiver, spent on a ranged attack's rolled 1, half the spent
-- points found again by scavenging) and units of lantern oil. Each spend is one
-- conditional UPDATE so a point or a unit goes exactly once; rows go with the character.

CREATE TABLE twod10_ammo (
    character_id INTEGER PRIMARY KEY REFERENCES twod10_characters (id) ON DELETE CASCADE,
    guild_id     INTEGER NOT NULL,
    quivers      INTEGER NOT NULL CHECK (quivers BETWEEN 0 AND 10),
    points       INTEGER NOT NULL CHECK (points BETWEEN 0 AND 2 * quivers),
    spent        INTEGER NOT NULL DEFAULT 0 CHECK (spent BETWEEN 0 AND 1000),
    revision     INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE twod10_oil (
    character_id INTEGER PRIMARY KEY REFERENCES twod10_characters (id) ON DELETE CASCADE,
    guild_id     INTEGER NOT NULL,
    units        INTEGER NOT NULL DEFAULT 0 CHECK (units BETWEEN 0 AND 99)
);
