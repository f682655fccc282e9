-- A campaign file waiting for the GM's confirmation (issue 29): /campaign import into a
-- server that already has a campaign holds the validated file here and shows a button;
-- its press takes the row and imports it in one transaction (so a second press finds
-- nothing), and a restart between the two loses nothing. A row lives 15 minutes.
CREATE TABLE pending_imports (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL REFERENCES campaigns (guild_id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    body       TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at TEXT    NOT NULL
);

CREATE INDEX pending_imports_by_guild ON pending_imports (guild_id);
