"""Rows that barely change (a guild's campaign, a player's active character), kept
between transactions on SQLite and never served stale.

A cached value is reused only inside a write transaction (``Database.transaction``),
and only while nothing could have changed what it was read from:

* **another connection** (a second bot process, a backup script, a raw ``sqlite3``
  session) committed nothing: SQLite's ``PRAGMA data_version`` changes when another
  connection commits, and is read once per transaction, after ``BEGIN IMMEDIATE``
  (whose write lock keeps every other writer out until the transaction ends);
* **this connection** ran no statement since that could change a cached row: the
  connection (``bot.storage.connection``) counts every statement that is not a read or
  a write to a table no cached value comes from (``HARMLESS``), and a ``ROLLBACK`` of a
  transaction in which one ran, so a value read after an uncommitted write is dropped
  if that write is (a read-only transaction's ``ROLLBACK`` keeps everything).

So the SQL stays the only truth: a writer that knows nothing of this cache (another
module, a migration, a raw ``UPDATE``) still ends every reuse. PostgreSQL has no
``data_version``: there every read runs (``cached`` just loads).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

# Statements that cannot change a cached row: reads, transaction control that keeps what
# was written, and writes to tables no cached value is read from (none has a trigger or
# a foreign-key action that writes campaigns, characters, fortune_points or
# active_characters). Anything else (any other write, ROLLBACK, DDL, a script, a PRAGMA
# other than data_version) ends the reuse of everything cached on the connection.
HARMLESS = re.compile(
    r"\s*(?:SELECT\b|BEGIN\b|COMMIT\b|END\b|SAVEPOINT\b|RELEASE\b|PRAGMA data_version\b"
    r"|(?:INSERT INTO|UPDATE|DELETE FROM)\s+(?:roll_log|gm_members|damage_choices|encounters"
    r"|encounter_participants|encounter_effects|attack_turns)\b)",
    re.IGNORECASE,
)
# The whole transaction undone: it changes a cached row only if a statement that may
# have did run in it (``ROLLBACK TO`` a savepoint is not this: it always counts).
ROLLBACK = re.compile(r"\s*ROLLBACK(?:\s+TRANSACTION)?\s*;?\s*$", re.IGNORECASE)
# aiosqlite calls that run no statement of their own (a cursor's reads, a no-op).
_READ_CALLS = frozenset({"fetchone", "fetchall", "fetchmany", "close", "_nothing"})
CHANGES, KEEPS, UNDOES = "changes", "keeps", "undoes"  # what a call does to cached rows
_VERDICTS: dict[str, str] = {}  # statement text → its verdict
CACHE_SIZE = 8192


def effect_on_cached_rows(fn: Any, args: tuple[Any, ...]) -> str:
    """What an aiosqlite call ``fn(*args)`` may do to the rows values were cached from:
    ``CHANGES``, ``KEEPS``, or ``UNDOES`` (a ``ROLLBACK``: changes them only if the
    transaction changed them)."""
    if getattr(fn, "__name__", "") in _READ_CALLS:
        return KEEPS
    sql = args[0] if args and isinstance(args[0], str) else None
    if sql is None:
        return CHANGES  # (commit(), rollback(), a call we don't know: assume the worst)
    verdict = _VERDICTS.get(sql)
    if verdict is None:
        if ROLLBACK.match(sql):
            verdict = UNDOES
        elif HARMLESS.match(sql) is None or ";" in sql.rstrip().rstrip(";"):
            verdict = CHANGES
        else:
            verdict = KEEPS
        if len(_VERDICTS) < CACHE_SIZE:
            _VERDICTS[sql] = verdict
    return verdict


async def cached(conn: Any, key: Hashable, load: Callable[[], Awaitable[T]]) -> T:
    """``await load()``, or the value it returned for ``key`` earlier if nothing could
    have changed it since (see the module). Only in a write transaction on SQLite."""
    if not getattr(conn, "cache_open", False):
        return await load()
    token = await conn.cache_token()
    entries: dict[Hashable, tuple[tuple[int, int], Any]] = conn.cache
    hit = entries.get(key)
    if hit is not None and hit[0] == token:
        return hit[1]  # type: ignore[no-any-return]
    value = await load()
    if len(entries) >= CACHE_SIZE and key not in entries:
        entries.pop(next(iter(entries)))  # the oldest entry: a bound, not an LRU
    entries[key] = (await conn.cache_token(), value)
    return value
