"""The operator's side of the campaign file, without Discord:

    python -m bot export-campaign GUILD_ID FILE [--no-log]

The database is the bot's own (``DATABASE_URL`` or ``DATABASE_PATH``, from the
environment or ``.env``; no Discord token needed). Safe with the bot running: the export
is one read transaction, which on SQLite's WAL waits for no writer and stops none.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.campaign_file.export import CampaignNotFound, export_campaign
from bot.campaign_file.format import dump
from bot.config import Settings
from bot.storage.backend import backend_of, open_database, sqlite_path
from bot.storage.errors import StorageError

COMMANDS = ("export-campaign",)


class CliError(Exception):
    """One line for the operator."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Campaign files.")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export-campaign", help="write a server's campaign to a file")
    export.add_argument("guild_id", type=int, help="the server's (guild's) id")
    export.add_argument("file", type=Path, help="the JSON file to write")
    export.add_argument("--no-log", action="store_true", help="leave the roll log out")
    return parser


def _database_target() -> str:
    try:
        return Settings().database_target
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]).upper()
        raise CliError(f"Setting {field} is invalid: {first['msg']} (check .env).") from None


def _existing_database() -> str:
    """The configured database; a SQLite file must exist already (opening creates one)."""
    target = _database_target()
    if backend_of(target) == "sqlite":
        path = sqlite_path(target)
        if path == ":memory:" or not Path(path).is_file():
            raise CliError(f"There is no database at {path}.")
    return target


async def _export(target: str, guild_id: int, file: Path, *, log: bool) -> str:
    try:
        db = await open_database(target)
    except StorageError as exc:
        raise CliError(f"Database error: {exc}.") from None
    try:
        await db.migrate()  # (a no-op on the running bot's database: same version)
        campaign = await export_campaign(db, guild_id, log=log)
    except (CampaignNotFound, StorageError) as exc:
        raise CliError(str(exc)) from None
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise CliError(f"A stored row cannot be exported ({where}: {error['msg']}).") from None
    finally:
        await db.close()
    _write(file, dump(campaign))
    characters = len(campaign.hocs.characters) + len(campaign.twod10.characters)
    rows = len(campaign.log or ())
    return (
        f"Exported campaign of server {guild_id}: {characters} characters,"
        f" {rows} log rows to {file}."
    )


def _write(file: Path, data: bytes) -> None:
    """Write the whole file or leave none: a half-written export is worse than none."""
    partial = file.with_name(f".{file.name}.partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, file)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise CliError(f"Cannot write {file}: {exc.strerror or exc}.") from None


def main(argv: list[str]) -> int:
    """Run one campaign-file command; 0 on success, 1 with one line on stderr if not."""
    args = _parser().parse_args(argv)
    try:
        target = _existing_database()
        print(asyncio.run(_export(target, args.guild_id, args.file, log=not args.no_log)))
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
