"""Storage failures whose message an operator can act on."""

from __future__ import annotations


class StorageError(Exception):
    """Base class for database problems."""


class DatabaseUnavailable(StorageError):
    """The database file cannot be opened, written or trusted."""


class MigrationError(StorageError):
    """A migration failed or the database was written by a newer version of the bot."""
