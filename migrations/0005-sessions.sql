-- Game sessions of a campaign: hero points are handed out when one starts and
-- dropped when it ends. One-shot mode groups sessions into adventures and gives
-- its single hero point only when an adventure begins.

CREATE TABLE sessions (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    number            INTEGER NOT NULL CHECK (number >= 1),
    adventure         INTEGER NOT NULL CHECK (adventure >= 1),
    one_shot          INTEGER NOT NULL DEFAULT 0 CHECK (one_shot IN (0, 1)),
    hero_points_given INTEGER NOT NULL DEFAULT 0 CHECK (hero_points_given IN (0, 1)),
    started_by        INTEGER NOT NULL,
    started_at        TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at          TEXT,
    ended_by          INTEGER,
    UNIQUE (guild_id, number)
);

-- At most one running session per campaign, enforced by the database itself.
CREATE UNIQUE INDEX sessions_one_running ON sessions (guild_id) WHERE ended_at IS NULL;
