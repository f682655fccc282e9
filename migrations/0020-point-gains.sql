-- Points a HOCS character gained (issue 27's recap: "points gained and spent by kind").
-- Kept by the database itself, in the transaction of the change: a hero point handed
-- out at a session's start, given by the GM or bought back, determination regained by
-- rest or returned, a fortune point granted. Only rises are written: what a roll spends
-- the roll's own log row says (and a session's end drops hero points, which is no spend).
CREATE TABLE point_gains (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL,  -- no reference: the gain outlives a deleted character
    kind         TEXT    NOT NULL CHECK (kind IN ('hero', 'determination', 'fortune')),
    amount       INTEGER NOT NULL CHECK (amount > 0),
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX point_gains_by_guild ON point_gains (guild_id, created_at);

CREATE TRIGGER hero_points_gained AFTER UPDATE OF hero_points ON characters
WHEN NEW.hero_points > OLD.hero_points
BEGIN
    INSERT INTO point_gains (guild_id, character_id, kind, amount)
    VALUES (NEW.guild_id, NEW.id, 'hero', NEW.hero_points - OLD.hero_points);
END;

CREATE TRIGGER determination_gained AFTER UPDATE OF determination ON characters
WHEN NEW.determination > OLD.determination
BEGIN
    INSERT INTO point_gains (guild_id, character_id, kind, amount)
    VALUES (NEW.guild_id, NEW.id, 'determination', NEW.determination - OLD.determination);
END;

CREATE TRIGGER fortune_gained AFTER INSERT ON fortune_points
BEGIN
    INSERT INTO point_gains (guild_id, character_id, kind, amount)
    SELECT guild_id, id, 'fortune', 1 FROM characters WHERE id = NEW.character_id;
END;
