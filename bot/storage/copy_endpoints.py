"""The two ends of a copy (``bot.storage.copy``): a database URL opened as the bot
opens it (``bot.storage.backend``), with its migrations and its catalogue dialect."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.storage.backend import backend_of, describe, open_database, sqlite_path
from bot.storage.copy_dialects import Dialect, PostgresDialect, SqliteDialect


class CopyRefused(Exception):
    """Why the copy did not happen, as one line for the operator."""


@dataclass
class Endpoint:
    label: str
    db: Any  # Database or PgDatabase: read(), transaction(), migrate(), close()
    dialect: Dialect

    async def migrate(self) -> int:
        """Bring the schema to this code's version; refuse a database newer than the code."""
        return int(await self.db.migrate())

    async def close(self) -> None:
        await self.db.close()


def check_url(url: str) -> None:
    """Refuse a URL no backend opens, before either end is opened."""
    try:
        backend_of(url)
    except ValueError:
        scheme = url.split("://", 1)[0]
        raise CopyRefused(
            f"unknown database URL scheme {scheme}: use sqlite:PATH or postgresql://…"
        ) from None
    if backend_of(url) == "sqlite" and str(sqlite_path(url)) == ":memory:":
        raise CopyRefused("an in-memory SQLite database cannot be copied to or from")


async def open_endpoint(url: str, *, must_exist: bool) -> Endpoint:
    check_url(url)
    if backend_of(url) == "postgresql":
        # (a PostgreSQL database always exists once it opens: createdb made it)
        return Endpoint(describe(url), await open_database(url), PostgresDialect())
    path = Path(sqlite_path(url))
    if must_exist and not await asyncio.to_thread(path.is_file):
        raise CopyRefused(f"the source database {path} does not exist")
    return Endpoint(f"sqlite:{path}", await open_database(url), SqliteDialect())
