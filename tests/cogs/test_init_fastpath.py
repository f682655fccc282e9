"""The tracker is drawn from the state a change just saved, and never from a stale one."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.hocs.initiative import InitiativeRoll, Spent
from bot.rules.hocs.initiative.model import with_updated
from bot.storage.database import Database
from bot.storage.hocs.encounters import EncounterRepository
from cogs.hocs.initiative.service import linked_characters, refresh_from
from tests.cogs.test_init_commands import begin_with_party, gm, stored
from tests.support.elsewhere import write_elsewhere
from tests.support.slash import SlashHarness


def statements(db: Database) -> list[str]:
    """Records the SQL sent on the bot's connection from now on."""
    sent: list[str] = []
    connection: Any = db.connection
    original = connection._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], str):
            sent.append(args[0])
        return await original(fn, *args, **kwargs)

    connection._execute = counted
    return sent


async def test_after_a_change_the_tracker_needs_one_statement(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    saved = await stored(bot, slash.channel.id)
    sent = statements(bot.db)
    again = await stored(bot, slash.channel.id)
    assert again == saved
    assert len(sent) == 1 and sent[0].startswith("SELECT e.id, e.version")  # the stamp only
    await dpytest.empty_queue()


async def test_a_raw_write_to_a_linked_character_is_seen(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    assert before.state.participants[0].hp == aria.state.hp
    async with bot.db.transaction() as conn:  # no version bump, no event: a raw UPDATE
        await conn.execute("UPDATE characters SET hp = 2 WHERE id = ?", (aria.id,))
    after = await stored(bot, slash.channel.id)
    assert after.state.participants[0].hp == 2
    await dpytest.empty_queue()


async def test_another_process_writing_a_linked_character_is_seen(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    await stored(bot, slash.channel.id)
    write_elsewhere(bot, "UPDATE characters SET temp_hp = 4 WHERE id = ?", (aria.id,))
    after = await stored(bot, slash.channel.id)
    assert after.state.participants[0].temp_hp == 4
    await dpytest.empty_queue()


async def test_another_process_advancing_the_encounter_is_seen(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    write_elsewhere(
        bot,
        "UPDATE encounters SET turn = turn + 1, version = version + 1 WHERE id = ?",
        (before.id,),
    )
    after = await stored(bot, slash.channel.id)
    assert after.state.turn == before.state.turn + 1 and after.version == before.version + 1
    await dpytest.empty_queue()


async def stored_with_characters(bot: TableBot, channel_id: int) -> tuple[Any, Any]:
    """The channel's stored encounter and its linked characters, as stored."""
    async with bot.db.read() as conn:
        record = await EncounterRepository(conn).get_by_channel(channel_id)
        assert record is not None
        return record, await linked_characters(conn, record.state)


async def test_a_refresh_skips_only_the_very_same_character_and_participant(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    record, characters = await stored_with_characters(bot, slash.channel.id)
    synced = refresh_from(record.state, characters)
    assert refresh_from(synced, characters) == synced
    # Another value of the character (as a later read of a changed row gives): seen.
    hurt, revision = characters[aria.id]
    hurt = replace(hurt, state=replace(hurt.state, hp=2))
    assert refresh_from(synced, {**characters, aria.id: (hurt, revision)}).participants[0].hp == 2
    # And the first one again: the participant that was fresh with it is still fresh.
    assert refresh_from(synced, characters) == synced
    assert synced.participants[0].hp == aria.state.hp
    await dpytest.empty_queue()


# --- the next change reuses the record this process saved (cogs.hocs.initiative.held) -------


async def test_a_change_after_a_change_reads_only_the_stamp(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    sent = statements(bot.db)
    await slash.run("init next", **gm(slash))
    reads = [s for s in sent if s.startswith("SELECT")]
    assert not any("FROM encounter_participants WHERE" in s for s in reads)
    assert not any(s.startswith("SELECT c.*") for s in reads)  # no linked character read
    assert any(s.startswith("SELECT e.id, e.version") and "FOR UPDATE" in s for s in reads)
    after = await stored(bot, slash.channel.id)
    assert (after.version, after.state.turn) == (before.version + 1, before.state.turn + 1)
    await dpytest.empty_queue()


async def test_a_change_sees_another_process_advancing_the_encounter(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    write_elsewhere(
        bot,
        "UPDATE encounters SET turn = turn + 1, version = version + 1 WHERE id = ?",
        (before.id,),
    )
    result = await slash.run("init next", **gm(slash))
    assert not result.ephemeral  # a held record would be refused as stale
    after = await stored(bot, slash.channel.id)
    assert (after.version, after.state.turn) == (before.version + 2, before.state.turn + 2)
    await dpytest.empty_queue()


async def test_a_change_sees_a_raw_write_to_a_linked_character(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    await slash.run("init next", **gm(slash))
    await slash.run("init next", **gm(slash))
    async with bot.db.transaction() as conn:  # no version bump, no event: a raw UPDATE
        await conn.execute("UPDATE characters SET hp = 2 WHERE id = ?", (aria.id,))
    await slash.run("init next", **gm(slash))
    async with bot.db.read() as conn:  # the rows the change saved, not a synced load
        record = await EncounterRepository(conn).get_by_channel(slash.channel.id)
    assert record is not None and record.state.participants[0].hp == 2
    await dpytest.empty_queue()


async def test_a_rerolled_copy_of_a_fresh_participant_is_fresh_and_a_changed_one_is_not(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    record, characters = await stored_with_characters(bot, slash.channel.id)
    synced = refresh_from(record.state, characters)
    linked = next(p for p in synced.participants if p.character_id == aria.id)
    # A new round's copy: new roll and spent actions, the same snapshot of the sheet.
    rolled = replace(linked, roll=InitiativeRoll(successes=3, faces=(6, 5, 4)), spent=Spent())
    state = refresh_from(with_updated(synced, rolled), characters)
    assert state.participant(linked.id) is rolled
    # A copy whose hit points differ from the sheet's is refreshed from it.
    wrong = replace(rolled, hp=aria.state.hp - 1, temp_hp=2)
    state = refresh_from(with_updated(synced, wrong), characters)
    assert (state.participant(linked.id).hp, state.participant(linked.id).temp_hp) == (
        aria.state.hp,
        aria.state.temp_hp,
    )
    assert state.participant(linked.id).roll == rolled.roll
    await dpytest.empty_queue()
