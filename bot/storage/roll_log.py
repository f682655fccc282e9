"""The roll log: every roll the bot makes, with its full result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiosqlite
import orjson

from bot.storage.database import Database
from bot.storage.json_text import encode
from bot.storage.sql import fetch_all, fetch_one


@dataclass(frozen=True)
class LoggedRoll:
    id: int
    guild_id: int | None
    channel_id: int | None
    user_id: int
    kind: str
    expression: str
    result: dict[str, Any]
    total: int | None
    secret: bool
    created_at: str
    character_id: int | None = None
    message_id: int | None = None


def decode_row(row: aiosqlite.Row) -> LoggedRoll:
    """A roll-log row read by ``between_rows``, its result decoded."""
    return _from_row(row)


def _from_row(row: aiosqlite.Row) -> LoggedRoll:
    return LoggedRoll(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        user_id=row["user_id"],
        kind=row["kind"],
        expression=row["expression"],
        # orjson: a recap decodes 5,000 results (5 MiB) at once, 4-5x faster than json.
        result=orjson.loads(row["result"]),
        total=row["total"],
        secret=bool(row["secret"]),
        created_at=row["created_at"],
        character_id=row["character_id"],
        message_id=row["message_id"],
    )


def _json(result: dict[str, Any]) -> str:
    # The same text as ``json.dumps(result, separators=(",", ":"))``: a compare-and-set
    # compares it.
    return encode(result)


class RollLogRepository:
    """All SQL about the roll log. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def recent(self, guild_id: int | None, *, limit: int = 20) -> list[LoggedRoll]:
        """The newest rolls of a guild (or of direct messages when ``guild_id`` is None)."""
        rows = await fetch_all(
            self._conn,
            "SELECT * FROM roll_log WHERE guild_id IS ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [_from_row(row) for row in rows]

    async def between(
        self, guild_id: int, *, first_id: int = 1, last_id: int | None = None,
        since: str | None = None, until: str | None = None, limit: int = 1_000_000,
    ) -> list[LoggedRoll]:  # fmt: skip
        """A server's rolls, oldest first: ids ``first_id`` to ``last_id`` (a session's
        bounds, on the (guild_id, id) index), or, for a session stored before it kept
        them, the rows logged from ``since`` to ``until`` (its timestamps)."""
        rows = await self.between_rows(
            guild_id, first_id=first_id, last_id=last_id, since=since, until=until, limit=limit
        )
        return [decode_row(row) for row in rows]

    async def between_rows(
        self, guild_id: int, *, first_id: int = 1, last_id: int | None = None,
        since: str | None = None, until: str | None = None, limit: int = 1_000_000,
    ) -> list[Any]:  # fmt: skip
        """``between``'s rows as the database gave them, results still JSON text: a
        recap decodes 5,000 of them in a worker thread (``decode_row``), not on the loop."""
        sql = "SELECT * FROM roll_log WHERE guild_id = ? AND id >= ?"
        params: list[Any] = [guild_id, first_id]
        if last_id is not None:
            sql += " AND id <= ?"
            params.append(last_id)
        if since is not None:
            sql += " AND created_at >= ?"
            params.append(since)
        if until is not None:
            sql += " AND created_at <= ?"
            params.append(until)
        return await fetch_all(self._conn, sql + " ORDER BY id LIMIT ?", (*params, limit))

    async def record(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        kind: str,
        expression: str,
        result: dict[str, Any],
        total: int | None,
        secret: bool,
        character_id: int | None = None,
    ) -> int:
        """Record one roll, linked to the character it was made for if any; return its id.

        Raises ``aiosqlite.IntegrityError`` if the guild has no
        campaign row or the character does not exist.
        """
        logged = await self.add(
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            kind=kind,
            expression=expression,
            result=result,
            total=total,
            secret=secret,
            character_id=character_id,
        )
        return logged.id

    async def add(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        kind: str,
        expression: str,
        result: dict[str, Any],
        total: int | None,
        secret: bool,
        character_id: int | None = None,
        opponent_id: int | None = None,
        text: str | None = None,
    ) -> LoggedRoll:
        """``record``, returning the stored row (one statement: no read-back needed).
        ``opponent_id``: the character on a clash's or attack's second side.

        The row's ``result`` is ``result`` itself, not its JSON parsed back (that parse
        cost a /clash about 25 µs): the caller must not change it afterwards. It reads
        the same as the stored text (``_json`` is what a compare-and-set compares).
        ``text``: that JSON text when the caller already built it (``json_text``)."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO roll_log (guild_id, channel_id, user_id, kind, expression, result,"
            " total, secret, character_id, opponent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id, created_at",
            (
                guild_id,
                channel_id,
                user_id,
                kind,
                expression,
                _json(result) if text is None else text,
                total,
                int(secret),
                character_id,
                opponent_id,
            ),
        )
        assert row is not None  # an INSERT without conflict handling returns its row
        return LoggedRoll(
            id=row[0],
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            kind=kind,
            expression=expression,
            result=result,
            total=total,
            secret=bool(secret),
            created_at=row[1],
            character_id=character_id,
        )

    async def get(self, roll_id: int) -> LoggedRoll | None:
        """One logged roll by id, or None."""
        row = await fetch_one(self._conn, "SELECT * FROM roll_log WHERE id = ?", (roll_id,))
        return _from_row(row) if row else None

    async def get_by_message(self, message_id: int) -> LoggedRoll | None:
        """The roll whose reply is the message ``message_id`` (for buttons on it), or None."""
        row = await fetch_one(
            self._conn,
            "SELECT * FROM roll_log WHERE message_id = ? ORDER BY id DESC LIMIT 1",
            (message_id,),
        )
        return _from_row(row) if row else None

    async def latest_for_character(
        self, character_id: int, *, kinds: tuple[str, ...] | None = None
    ) -> LoggedRoll | None:
        """The newest roll made for a character (optionally only of the given kinds)."""
        where, params = "character_id = ?", [character_id]
        if kinds:
            where += f" AND kind IN ({', '.join('?' for _ in kinds)})"
            params.extend(kinds)
        row = await fetch_one(
            self._conn, f"SELECT * FROM roll_log WHERE {where} ORDER BY id DESC LIMIT 1", params
        )
        return _from_row(row) if row else None

    async def set_message(self, roll_id: int, message_id: int) -> bool:
        """Remember the message that shows the roll; False if there is no such roll."""
        cursor = await self._conn.execute(
            "UPDATE roll_log SET message_id = ? WHERE id = ?", (message_id, roll_id)
        )
        return cursor.rowcount == 1

    async def update_result(
        self,
        roll_id: int,
        result: dict[str, Any],
        total: int | None,
        *,
        expected: dict[str, Any] | None = None,
    ) -> bool:
        """Replace a roll's stored result (a reroll or determination after the roll).

        With ``expected`` the update only happens if the stored result is still
        that one (compare-and-set: two buttons pressed at once cannot both apply).
        Returns False when nothing was updated.
        """
        sql = "UPDATE roll_log SET result = ?, total = ? WHERE id = ?"
        params: list[object] = [_json(result), total, roll_id]
        if expected is not None:
            sql += " AND result = ?"
            params.append(_json(expected))
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount == 1

    async def set_opponent(self, roll_id: int, opponent_id: int) -> bool:
        """Name the character on a clash's or attack's second side (whose points it may
        take); False if there is no such roll. Raises ``aiosqlite.IntegrityError`` if the
        character does not exist."""
        cursor = await self._conn.execute(
            "UPDATE roll_log SET opponent_id = ? WHERE id = ?", (opponent_id, roll_id)
        )
        return cursor.rowcount == 1

    async def latest_on_either_side(
        self, character_id: int, kinds: tuple[str, ...]
    ) -> LoggedRoll | None:
        """The newest roll of one of ``kinds`` where the character rolled, on either side
        of a clash or an attack; None if there is none."""
        marks = ", ".join("?" for _ in kinds)
        async with self._conn.execute(
            "SELECT * FROM ("
            f" SELECT * FROM (SELECT * FROM roll_log WHERE character_id = ? AND kind IN ({marks})"
            "  ORDER BY id DESC LIMIT 1) AS own"  # (standard SQL names every subquery)
            " UNION ALL"
            f" SELECT * FROM (SELECT * FROM roll_log WHERE opponent_id = ? AND kind IN ({marks})"
            "  ORDER BY id DESC LIMIT 1) AS opposed"
            ") AS either ORDER BY id DESC LIMIT 1",
            (character_id, *kinds, character_id, *kinds),
        ) as cursor:
            row = await cursor.fetchone()
        return _from_row(row) if row else None


def remember_message(db: Database, roll_id: int, message_id: int) -> None:
    """Store the id of the reply showing a roll, without a transaction of its own: the
    write rides at the start of the next transaction or read (``Database.defer``)."""

    async def write(conn: aiosqlite.Connection) -> None:
        await RollLogRepository(conn).set_message(roll_id, message_id)

    db.defer(write)
