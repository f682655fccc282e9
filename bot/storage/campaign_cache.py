"""The campaign rows one SQLite connection has read, kept only while provably current.

Every command reads its guild's campaign row, which changes a few times in a
campaign's life. Three things can change it, and each one empties what it affects:

- another connection (a second bot process, a script, a copy tool) committing to the
  file: SQLite's ``PRAGMA data_version`` then differs from the last one this
  connection saw. It is read once per transaction, before anything is served from
  here, and a difference forgets every row;
- this connection writing the table, by any statement (the repository's upserts,
  a raw UPDATE, a cascade): TEMP triggers, which exist on this connection only and
  fire for its own writes only, call back into Python and forget that guild's row.
  A row read after such a write in the same transaction may not be committed, so
  nothing is kept for the rest of that transaction: a rollback leaves nothing stale;
- a migration that rebuilds the table would drop the triggers: ``Database.migrate``
  switches the cache off, and it comes back on with the triggers.

Only the loop's thread, inside one of ``Database``'s sections (``inline``), reads or
fills it; anything else (PostgreSQL, a bare connection, a call sent to the worker)
reads the row as before.
"""

from __future__ import annotations

import sqlite3
from typing import Any

FUNCTION = "tablebot_campaign_written"
LIMIT = 4096  # guilds; a bound on memory, not an LRU (a miss costs one SELECT)

TRIGGERS = tuple(
    f"CREATE TEMP TRIGGER IF NOT EXISTS tablebot_campaigns_{event.lower()} AFTER {event}"
    f" ON main.campaigns BEGIN SELECT {calls}; END"
    for event, calls in (
        ("INSERT", f"{FUNCTION}(NEW.guild_id)"),
        ("UPDATE", f"{FUNCTION}(OLD.guild_id), {FUNCTION}(NEW.guild_id)"),
        ("DELETE", f"{FUNCTION}(OLD.guild_id)"),
    )
)


class CampaignCache:
    def __init__(self) -> None:
        self._rows: dict[int, Any] = {}
        self.enabled = False  # the triggers are in place on this connection
        self._version = -1  # PRAGMA data_version when the rows were last known current
        self._checked = False  # data_version read in the current section
        self._written = False  # this connection wrote campaigns in the current section
        self.hits = 0
        self.misses = 0

    def enable(self, raw: sqlite3.Connection) -> bool:
        """Put the triggers in place (outside any transaction, so no rollback can take
        them away). False while the table does not exist yet (before migrations)."""
        raw.create_function(FUNCTION, 1, self._written_by_this_connection)
        try:
            for statement in TRIGGERS:
                raw.execute(statement)
        except sqlite3.OperationalError:
            return False
        self._rows.clear()
        self._version = -1
        self.enabled = True
        return True

    def disable(self) -> None:
        self.enabled = False
        self._rows.clear()

    def begin(self) -> None:
        """A section of ``Database`` starts: check the version again, writes are new."""
        self._checked = False
        self._written = False

    def _written_by_this_connection(self, guild_id: int) -> None:
        self._rows.pop(guild_id, None)
        self._written = True

    def get(self, conn: Any, guild_id: int) -> Any | None:
        """The cached campaign, or None (then read the row and ``put`` it).

        ``conn`` is the ``LoopConnection`` this cache belongs to."""
        if not self.enabled:
            return None
        if not self._checked:
            version = conn.data_version_here()
            if version is None:
                return None  # not on the loop's thread now: read the row, keep nothing
            if version != self._version:
                self._rows.clear()
                self._version = version
            self._checked = True
        campaign = self._rows.get(guild_id)
        if campaign is None:
            self.misses += 1
        else:
            self.hits += 1
        return campaign

    def put(self, guild_id: int, campaign: Any) -> None:
        """Keep a campaign read on the loop's thread in this section, after ``get``
        checked the version, unless this section has written the table (what it read
        may yet be rolled back)."""
        if not self._checked or self._written or not self.enabled:
            return
        if len(self._rows) >= LIMIT:
            self._rows.pop(next(iter(self._rows)))
        self._rows[guild_id] = campaign
