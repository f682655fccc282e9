"""The two ends of a copy (``bot.storage.copy``): a database URL opened as the bot
opens it, with its migrations and its catalogue dialect."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.storage.copy_dialects import Dialect, SqliteDialect
from bot.storage.database import Database
from bot.storage.migrations import migrate


class CopyRefused(Exception):
    """Why the copy did not happen, as one line for the operator."""


@dataclass
class Endpoint:
    label: str
    db: Any  # bot.storage.database.Database or its PostgreSQL twin: read()/transaction()
    dialect: Dialect

    async def migrate(self) -> int:
        """Bring the schema to this code's version; refuse a database newer than the code."""
        return await migrate(self.db.connection)

    async def close(self) -> None:
        await self.db.close()


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL: ``sqlite:PATH``, ``sqlite:///PATH`` (PATH as written,
    relative or absolute) or a bare path; None for another scheme."""
    if url.startswith("sqlite:"):
        rest = url.removeprefix("sqlite:")
        return Path(rest.removeprefix("//") if rest.startswith("///") else rest)
    if "://" in url:
        return None
    return Path(url)


def check_url(url: str) -> None:
    """Refuse a URL no backend here opens, before either end is opened."""
    if sqlite_path(url) is None:
        scheme = url.split("://", 1)[0]
        raise CopyRefused(f"unknown database URL scheme {scheme}: use sqlite:PATH")


async def open_endpoint(url: str, *, must_exist: bool) -> Endpoint:
    check_url(url)
    path = sqlite_path(url)
    assert path is not None
    if must_exist and not path.is_file():
        raise CopyRefused(f"the source database {path} does not exist")
    return Endpoint(f"sqlite:{path}", await Database.open(path), SqliteDialect())
