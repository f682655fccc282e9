"""The operator's side of the campaign file, without Discord:

    python -m bot export-campaign GUILD_ID FILE [--no-log]
    python -m bot import-campaign FILE GUILD_ID [--replace] [--channel CHANNEL_ID]

The database is the bot's own (``DATABASE_URL`` or ``DATABASE_PATH``, from the
environment or ``.env``; no Discord token needed). Safe with the bot running: the export
is one read transaction, which on SQLite's WAL waits for no writer and stops none; the
import is one write transaction, which the bot's own writes wait for like any other.
A running bot reads the imported rows at its next command; if the import changed the
server's ruleset, its command menu follows at the bot's next start (the CLI says so).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

from pydantic import ValidationError

from bot import config
from bot.campaign_file.export import CampaignNotFound, export_campaign
from bot.campaign_file.format import dump
from bot.campaign_file.importing import (
    MAX_FILE_BYTES,
    CampaignFileRefused,
    CampaignHasData,
    Destination,
    ImportReport,
    import_campaign,
    read_campaign_file,
)
from bot.errors import UserError
from bot.storage.backend import backend_of, open_database, sqlite_path
from bot.storage.errors import StorageError

COMMANDS = ("export-campaign", "import-campaign")


class CliError(Exception):
    """One line for the operator."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Campaign files.")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export-campaign", help="write a server's campaign to a file")
    export.add_argument("guild_id", type=int, help="the server's (guild's) id")
    export.add_argument("file", type=Path, help="the JSON file to write")
    export.add_argument("--no-log", action="store_true", help="leave the roll log out")
    load = commands.add_parser("import-campaign", help="write a campaign file into a server")
    load.add_argument("file", type=Path, help="the campaign file (JSON) to read")
    load.add_argument("guild_id", type=int, help="the server's (guild's) id")
    load.add_argument(
        "--replace", action="store_true", help="replace the server's campaign if it has data"
    )
    load.add_argument(
        "--channel", type=int, default=None, metavar="CHANNEL_ID",
        help="move the file's running fights to this channel of the server",
    )  # fmt: skip
    return parser


def _database_target() -> str:
    try:
        return config.load_settings().database_target
    except config.SettingsInvalid as exc:
        raise CliError(str(exc)) from None


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


async def _import(
    target: str, file: Path, guild_id: int, *, replace: bool, channel: int | None
) -> str:
    try:
        raw = _read(file)
        found = read_campaign_file(raw)
    except UserError as exc:
        raise CliError(str(exc)) from None
    try:
        db = await open_database(target)
    except StorageError as exc:
        raise CliError(f"Database error: {exc}.") from None
    try:
        await db.migrate()
        report = await import_campaign(
            db, guild_id, found, destination=Destination(channel_id=channel), replace=replace
        )
    except CampaignHasData:
        raise CliError(
            f"Server {guild_id}'s campaign already has characters, sessions, rolls or fights:"
            " add --replace to replace them."
        ) from None
    except UserError as exc:
        raise CliError(str(exc)) from None
    except sqlite3.IntegrityError as exc:  # (PostgreSQL's are raised as this too)
        raise CliError(
            f"The file could not be written ({exc}); nothing was imported. A running fight"
            " in a channel that already has one needs --channel."
        ) from None
    except StorageError as exc:
        raise CliError(f"Database error: {exc}.") from None
    finally:
        await db.close()
    return _imported(report, guild_id)


def _imported(report: ImportReport, guild_id: int) -> str:
    line = f"Server {guild_id}: {report.sentence()}"
    if report.old_ruleset is not None and report.old_ruleset != report.ruleset:
        line += " Its ruleset changed: restart the bot so the server's menu follows."
    return line


def _read(file: Path) -> bytes:
    try:
        with file.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)  # never more than the limit into memory
    except OSError as exc:
        raise CliError(f"Cannot read {file}: {exc.strerror or exc}.") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CampaignFileRefused(
            "The file is over the 10 MiB a campaign file may be: export it again with --no-log."
        )
    return raw


def main(argv: list[str]) -> int:
    """Run one campaign-file command; 0 on success, 1 with one line on stderr if not."""
    args = _parser().parse_args(argv)
    try:
        target = _existing_database()
        if args.command == "import-campaign":
            done = _import(
                target, args.file, args.guild_id, replace=args.replace, channel=args.channel
            )
        else:
            done = _export(target, args.guild_id, args.file, log=not args.no_log)
        print(asyncio.run(done))
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
