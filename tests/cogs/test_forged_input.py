"""What a modified client can send and Discord never would: option values that are no
snowflake, and button ids carrying numbers no id can be. Each gets a private answer of
one sentence, nothing is written, and no traceback reaches the log."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import FORGED_OPTION, TableBot
from bot.interactions.component_guard import FORGED_BUTTON
from bot.storage.roll_log import RollLogRepository
from tests.support.slash import SlashHarness

OVER = str(2**63)  # one more than the largest signed 64-bit integer


def count_database_use(bot: TableBot, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    used: list[str] = []
    for name in ("read", "transaction"):
        original = getattr(bot.db, name)

        def counted(*args: Any, _original: Any = original, _name: str = name, **kw: Any) -> Any:
            used.append(_name)
            return _original(*args, **kw)

        monkeypatch.setattr(bot.db, name, counted)
    return used


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("value", ["abc", "12ab", "", "1e5"])
async def test_a_user_option_that_is_no_snowflake_is_refused(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture, value: str
) -> None:
    forged = SimpleNamespace(id=value)
    result = await slash.run("character list", player=forged, client_checks=False)
    assert result.ephemeral and result.content == FORGED_OPTION
    assert not errors(caplog)
    await dpytest.empty_queue()


async def test_a_forged_option_on_a_roll_writes_nothing(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    result = await slash.run(
        "campaign set", gm_role=SimpleNamespace(id="not-a-role"), client_checks=False
    )
    assert result.ephemeral and result.content == FORGED_OPTION
    async with bot.db.read() as conn:
        assert await RollLogRepository(conn).recent(slash.guild.id) == []
        rows = await conn.execute_fetchall("SELECT gm_role_id FROM campaigns")
    assert all(row[0] is None for row in rows)
    assert not errors(caplog)
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    "custom_id",
    [
        f"roll:det:{OVER}:0",
        f"dmg:pick:{OVER}:1",
        f"dmg:hero:{OVER}:0",
        "dmg:pick:99999999999999999999:1",
    ],
)
async def test_a_button_id_with_a_number_above_64_bits_is_refused_unread(
    bot: TableBot,
    slash: SlashHarness,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    custom_id: str,
) -> None:
    used = count_database_use(bot, monkeypatch)
    result = await slash.click(None, custom_id=custom_id, client_checks=False)
    assert result.ephemeral and result.content == FORGED_BUTTON
    assert used == []
    assert not errors(caplog)
    await dpytest.empty_queue()


async def test_the_largest_64_bit_number_is_still_an_id_the_bot_looks_up(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    used = count_database_use(bot, monkeypatch)
    result = await slash.click(None, custom_id=f"dmg:pick:{2**63 - 1}:1", client_checks=False)
    assert result.ephemeral and result.content != FORGED_BUTTON  # no such choice: its answer
    assert used
    await dpytest.empty_queue()
