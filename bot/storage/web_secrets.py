"""Each server's secret for the web pages' links (migration 0021, ``bot.web.tokens``).

One row per server: 32 random bytes and the number of times they were rotated. The
row is made on the server's first ``/web`` (``get_or_create``) and replaced by
``/web revoke`` (``rotate``); checking a link only reads (``get``), so a stranger's
forged link for a server that never asked for one writes nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import aiosqlite

from bot.storage.sql import fetch_one

SECRET_BYTES = 32


@dataclass(frozen=True)
class WebSecret:
    guild_id: int
    secret: bytes
    version: int  # 1 when made, +1 on each rotation; rides in every token


def _from_row(row: aiosqlite.Row) -> WebSecret:
    # psycopg hands BYTEA back as bytes, aiosqlite a BLOB as bytes: bytes() for both.
    return WebSecret(guild_id=row[0], secret=bytes(row[1]), version=int(row[2]))


def new_secret() -> bytes:
    """32 bytes from the operating system's random source."""
    return secrets.token_bytes(SECRET_BYTES)


class WebSecretRepository:
    """All SQL about web secrets. Never commits: the caller owns the transaction.

    The server's campaign row must exist (a foreign key): callers get or create the
    campaign first, as every command does.
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get(self, guild_id: int) -> WebSecret | None:
        """The server's secret, or None if it never asked for a link."""
        row = await fetch_one(
            self._conn,
            "SELECT guild_id, secret, version FROM web_secrets WHERE guild_id = ?",
            (guild_id,),
        )
        return _from_row(row) if row is not None else None

    async def get_or_create(self, guild_id: int) -> WebSecret:
        """The server's secret, made now if it has none (one statement when it exists).

        Two first ``/web`` at once both insert ``ON CONFLICT DO NOTHING``; the loser
        reads the winner's row, so both hand out links that verify.
        """
        found = await self.get(guild_id)
        if found is not None:
            return found
        row = await fetch_one(
            self._conn,
            "INSERT INTO web_secrets (guild_id, secret) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING RETURNING guild_id, secret, version",
            (guild_id, new_secret()),
        )
        if row is None:
            row = await fetch_one(
                self._conn,
                "SELECT guild_id, secret, version FROM web_secrets WHERE guild_id = ?",
                (guild_id,),
            )
        assert row is not None
        return _from_row(row)

    async def rotate(self, guild_id: int) -> WebSecret:
        """Replace the server's secret by fresh random bytes and bump its version (an
        upsert: a server without one gets its first, at version 1)."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO web_secrets (guild_id, secret) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET secret = excluded.secret,"
            " version = web_secrets.version + 1,"
            " rotated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " RETURNING guild_id, secret, version",
            (guild_id, new_secret()),
        )
        assert row is not None
        return _from_row(row)
