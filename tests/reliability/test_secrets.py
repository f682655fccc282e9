"""Secrets: the token never appears in logs, output, error replies or the database."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import discord.ext.test as dpytest
import pytest
from pydantic import SecretStr

from bot.client import TableBot
from bot.config import Settings
from tests.reliability.conftest import Table
from tests.reliability.figures import count
from tests.support.slash import SlashHarness
from tests.test_startup import DUMMY_TOKEN, run_bot

# Not token-shaped, so only the explicit redaction (not the pattern) can hide it.
PLAIN_SECRET = "plain-secret-value-for-the-reliability-suite"


def database_bytes(folder: Path) -> bytes:
    """The database file and its -wal/-shm companions, whatever is left of them."""
    return b"".join(p.read_bytes() for p in sorted(folder.glob("*.sqlite3*")) if p.is_file())


@pytest.mark.parametrize("token", [DUMMY_TOKEN, PLAIN_SECRET], ids=["token-shaped", "plain"])
def test_startup_at_debug_never_shows_the_token(tmp_path: Path, token: str) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN=token, LOG_LEVEL="DEBUG")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    assert "logging in to Discord" in output
    assert token not in output
    stored = database_bytes(tmp_path / "data")
    assert stored and token.encode() not in stored
    count("secret_checks", 2)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The conftest settings, with a token set as in production."""
    return Settings(
        _env_file=None,
        discord_token=SecretStr(DUMMY_TOKEN),
        database_path=tmp_path / "test.sqlite3",
        command_prefix="!",
        message_content_intent=True,
        log_level="DEBUG",
    )


async def test_a_command_session_never_shows_the_token(
    bot: TableBot,
    slash: SlashHarness,
    table: Table,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert DUMMY_TOKEN not in repr(settings) + str(settings) + settings.model_dump_json()
    session = [
        ("roll", {"expression": "1d20+5 " + DUMMY_TOKEN[:20]}, table.actor("owner")),
        ("check", {"skill": "athletics"}, table.actor("owner")),
        ("hero give", {"character": "Mira"}, table.actor("other")),  # refused
        ("session start", {}, table.as_gm()),
        ("character show", {"name": "Mira"}, table.actor("owner")),
        ("help", {"command": "roll"}, table.actor("other")),
        ("campaign show", {}, table.actor("other")),
        ("campaign set", {"clear": "x"}, table.as_gm()),  # refused: not one of the choices
    ]

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in rendering")

    with caplog.at_level(logging.DEBUG):
        for command, options, actor in session:
            await slash.run(command, client_checks=False, options=options, **actor)
        # An unexpected error: its log line and traceback are checked too.
        monkeypatch.setattr(bot.extensions["cogs.campaign"], "campaign_embed", broken)
        await slash.run("campaign show", **table.actor("other"))
    logged = caplog.text + "".join(r.exc_text or "" for r in caplog.records)
    assert "in command campaign" in logged  # the unexpected error was logged
    assert "a bug in rendering" in logged  # with its traceback
    assert DUMMY_TOKEN not in logged
    replies = json.dumps([r.payload for r in slash.responses]) + json.dumps(bot.sent_payloads)  # type: ignore[attr-defined]
    assert DUMMY_TOKEN not in replies
    stored = database_bytes(tmp_path)
    assert stored and DUMMY_TOKEN.encode() not in stored
    count("secret_checks", 4)
    await dpytest.empty_queue()
