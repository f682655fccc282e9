"""Start-up holds the running encounters (``HeldEncounters.warm``), and a held record
whose encounter rows are unchanged is reused when only linked characters were written:
the first change after a restart reads the stamp (and the characters if they moved),
never a stale state."""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import ScriptedDice
from bot.storage.hocs.encounters import EncounterRepository
from tests.cogs.test_init_acceptance import restart
from tests.cogs.test_init_commands import begin_with_party, gm, stored
from tests.cogs.test_init_fastpath import statements
from tests.support.slash import SlashHarness

PARTICIPANT_READ = "FROM encounter_participants WHERE"


def sql_sent(db: Any) -> list[str] | None:
    """The statements sent from now on (SQLite's connection only: None on PostgreSQL,
    where the tests check the outcome alone)."""
    return statements(db) if db.backend == "sqlite" else None


def character_reads(sent: list[str]) -> list[str]:
    return [s for s in sent if s.startswith("SELECT c.*")]


async def raw_rows(bot: TableBot, channel_id: int):  # type: ignore[no-untyped-def]
    async with bot.db.read() as conn:  # the rows the change saved, not a synced load
        record = await EncounterRepository(conn).get_by_channel(channel_id)
    assert record is not None
    return record


@pytest.mark.both_backends
async def test_the_first_change_after_a_restart_reads_only_the_stamp(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    new_bot, new_slash, new_db = await restart(bot, settings)
    try:
        held = new_bot.get_cog("Initiative").service.held.get(slash.channel.id)  # type: ignore[union-attr]
        assert held is not None and held.record.version == before.version
        sent = sql_sent(new_db)
        new_bot.dice = ScriptedDice([])
        result = await new_slash.run("init next", **gm(new_slash))
        assert not result.ephemeral
        if sent is not None:
            assert not any(PARTICIPANT_READ in s for s in sent)
            assert character_reads(sent) == []
        after = await raw_rows(new_bot, slash.channel.id)
        assert (after.version, after.state.turn) == (before.version + 1, before.state.turn + 1)
    finally:
        await new_db.close()
    await dpytest.empty_queue()


@pytest.mark.both_backends
async def test_characters_written_before_the_first_change_are_read_alone(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    aria, bram = await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    new_bot, new_slash, new_db = await restart(bot, settings)
    try:
        # After the warm-up: a raw write (no event, no encounter version bump).
        async with new_bot.db.transaction() as conn:
            await conn.execute("UPDATE characters SET hp = 3 WHERE id = ?", (aria.id,))
        sent = sql_sent(new_db)
        new_bot.dice = ScriptedDice([])
        await new_slash.run("init next", **gm(new_slash))
        if sent is not None:
            assert not any(PARTICIPANT_READ in s for s in sent)
            assert len(character_reads(sent)) >= 1
        after = await raw_rows(new_bot, slash.channel.id)
        hp = {p.character_id: p.hp for p in after.state.participants}
        assert hp[aria.id] == 3 and hp[bram.id] == bram.state.hp
    finally:
        await new_db.close()
    await dpytest.empty_queue()


async def test_a_deleted_linked_character_makes_the_change_read_everything(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    new_bot, new_slash, new_db = await restart(bot, settings)
    try:
        async with new_bot.db.transaction() as conn:  # nulls the participant's link
            await conn.execute("DELETE FROM characters WHERE id = ?", (aria.id,))
        sent = statements(new_db)
        new_bot.dice = ScriptedDice([])
        result = await new_slash.run("init next", **gm(new_slash))
        assert not result.ephemeral
        assert any(PARTICIPANT_READ in s for s in sent)
        after = await raw_rows(new_bot, slash.channel.id)
        aria_now = next(p for p in after.state.participants if p.name == "Aria")
        assert aria_now.character_id is None
    finally:
        await new_db.close()
    await dpytest.empty_queue()


async def test_an_encounter_advanced_elsewhere_after_the_warm_up_is_read_again(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    new_bot, new_slash, new_db = await restart(bot, settings)
    try:
        async with new_bot.db.transaction() as conn:  # another process's save
            await conn.execute(
                "UPDATE encounters SET turn = turn + 1, version = version + 1 WHERE id = ?",
                (before.id,),
            )
        new_bot.dice = ScriptedDice([])
        result = await new_slash.run("init next", **gm(new_slash))
        assert not result.ephemeral  # a held record would be refused as stale
        after = await raw_rows(new_bot, slash.channel.id)
        assert (after.version, after.state.turn) == (before.version + 2, before.state.turn + 2)
    finally:
        await new_db.close()
    await dpytest.empty_queue()
