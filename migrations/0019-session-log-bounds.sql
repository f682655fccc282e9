-- A session's rolls are the roll-log rows of its server between its start and its end
-- (issue 27's recap). The log's ids only grow (AUTOINCREMENT, rows never deleted), so a
-- session keeps the first id it may cover and, once ended, the last: its recap reads
-- "guild_id = ? AND id BETWEEN ? AND ?" on roll_log_by_guild (guild_id, id) instead of
-- comparing timestamps over every row of the server. Sessions stored before this have
-- NULLs; their recap falls back to started_at and ended_at.
ALTER TABLE sessions ADD COLUMN first_log_id INTEGER;
ALTER TABLE sessions ADD COLUMN last_log_id INTEGER;

-- Fights that ended, for the recap's fight count and rounds fought: a tracker's row is
-- deleted when its fight ends, so its ending writes one of these (both rulesets'
-- repositories, in the same transaction as the delete).
CREATE TABLE fights (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    ruleset    TEXT    NOT NULL CHECK (ruleset IN ('hocs', '2d10')),
    started_at TEXT    NOT NULL,
    ended_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    rounds     INTEGER NOT NULL CHECK (rounds >= 0)
);

CREATE INDEX fights_by_guild ON fights (guild_id, ended_at);
