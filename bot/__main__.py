"""``python -m bot``: settings → database → migrations → cogs → connect."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

import discord

from bot import config
from bot.client import ShardedTableBot
from bot.config import Settings
from bot.interactions.command_sync import SyncMode
from bot.process.logging_setup import configure_logging
from bot.storage.backend import describe, open_database
from bot.storage.errors import StorageError
from bot.web.errors import WebServerUnavailable

log = logging.getLogger("bot")

NO_TOKEN = (
    "No Discord token configured: copy .env.example to .env and set DISCORD_TOKEN"
    " (see README, 'Creating the Discord application')."
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--force-sync", action="store_true", help="sync slash commands even if unchanged"
    )
    group.add_argument("--no-sync", action="store_true", help="never sync slash commands")
    return parser.parse_args(argv)


class StartupError(Exception):
    """A problem the operator must fix; printed as one line."""


def load_settings() -> Settings:
    try:
        return config.load_settings()
    except config.SettingsInvalid as exc:
        raise StartupError(str(exc)) from None


async def run(settings: Settings, sync_mode: SyncMode) -> None:
    token = settings.discord_token
    if token is None:
        raise StartupError(NO_TOKEN)
    try:
        db = await open_database(settings.database_target)
    except StorageError as exc:
        raise StartupError(f"Database error: {exc}.") from None
    try:
        try:
            version = await db.migrate()
        except StorageError as exc:
            raise StartupError(f"Database error: {exc}.") from None
        log.info("database %s at schema version %d", describe(settings.database_target), version)
        bot = ShardedTableBot(settings, db, sync_mode=sync_mode)
        async with bot:
            await bot.load_cogs()
            log.info("logging in to Discord (%s)", bot.shard_plan.describe())
            try:
                await bot.start(token.get_secret_value())
            except discord.LoginFailure:
                raise StartupError(
                    "Discord rejected the token: check DISCORD_TOKEN in .env"
                    " (Developer Portal → Bot → Reset Token)."
                ) from None
            except discord.PrivilegedIntentsRequired:
                raise StartupError(
                    "MESSAGE_CONTENT_INTENT=true but the intent is off for this application:"
                    " enable it in the Developer Portal or set it to false."
                ) from None
            except WebServerUnavailable as exc:
                raise StartupError(f"Web pages: {exc}.") from None
            except (OSError, TimeoutError) as exc:
                raise StartupError(f"Cannot reach Discord: {exc.__class__.__name__}.") from None
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("export-campaign", "import-campaign"):  # the campaign files
        from bot.campaign_file.cli import main as campaign_main

        return campaign_main(argv)
    args = parse_args(argv)
    mode = SyncMode.FORCE if args.force_sync else SyncMode.SKIP if args.no_sync else SyncMode.AUTO
    try:
        settings = load_settings()
        secret = settings.discord_token.get_secret_value() if settings.discord_token else ""
        configure_logging(settings.log_level, [secret])
        asyncio.run(run(settings, mode))
    except StartupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
