"""Pick the storage backend from ``DATABASE_URL``: SQLite (the default) or PostgreSQL.

``sqlite:///relative/path``, ``sqlite:////absolute/path`` or a plain path open the
embedded SQLite file; ``postgresql://…`` (or ``postgres://…``) a PostgreSQL database.
The PostgreSQL modules, and so the driver, are imported only for such a URL: the
default needs nothing but Python.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from bot.storage.database import Database
    from bot.storage.pg_database import PgDatabase

Backend = Literal["sqlite", "postgresql"]
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def backend_of(url: str) -> Backend:
    """Which backend ``url`` names; ValueError for a scheme the bot doesn't speak."""
    lowered = url.strip().lower()
    if lowered.startswith(POSTGRES_SCHEMES):
        return "postgresql"
    if lowered.startswith("sqlite:") or "://" not in lowered:
        return "sqlite"
    raise ValueError(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {url.split('://')[0]}://"
    )


def sqlite_path(url: str) -> Path | str:
    """The file a ``sqlite:`` URL (or plain path) names; ``:memory:`` stays as it is."""
    text = url.strip()
    if text.lower().startswith("sqlite:"):
        text = text[len("sqlite:") :]
        if text.startswith("///"):
            text = text[3:]  # sqlite:///rel/path → rel/path, sqlite:////abs → /abs
        elif text.startswith("//"):
            text = text[2:]
    return text if text == ":memory:" else Path(text)


def describe(url: str) -> str:
    """``url`` fit for a log line (a PostgreSQL password left out)."""
    if backend_of(url) == "postgresql":
        from bot.storage.pg_database import redact

        return redact(url)
    return str(sqlite_path(url))


async def open_database(url: str) -> Database | PgDatabase:
    """Open the database ``url`` names (DatabaseUnavailable with a readable reason)."""
    if backend_of(url) == "postgresql":
        from bot.storage.pg_database import PgDatabase

        return await PgDatabase.open(url)
    from bot.storage.database import Database

    return await Database.open(sqlite_path(url))
