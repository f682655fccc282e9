"""A deleted 2d10 sheet leaves the fights it was seated in (ruling seat-deleted), in the
delete's own transaction: the encounter is saved without the combatant with the delete,
and after the reply the channel is told and the tracker message redrawn."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.encounters import TrackerRecord, TwoD10EncounterRepository
from tests.cogs.twod10.rounds_support import gm, make_sheet, make_twod10, player, text
from tests.support.slash import SlashHarness

MIRA = "**Mira** (finesse +1) · HP 25/25"
BRAM = "**Bram** (finesse +2) · HP 20/20"
NOT_STARTED = "Not started: players /init join, the GM /init add, then /init next."


async def saved(bot: TableBot, channel_id: int) -> TrackerRecord:
    """The encounter row as stored (``service.load`` would apply the ruling on reading)."""
    async with bot.db.read() as conn:
        record = await TwoD10EncounterRepository(conn).get_by_channel(channel_id)
    assert record is not None
    return record


async def tracker_fields(bot: TableBot, slash: SlashHarness) -> list[tuple[str, str]]:
    record = await saved(bot, slash.channel.id)
    message = await slash.channel.fetch_message(record.tracker_message_id or 0)
    return [(str(f.name), str(f.value)) for f in message.embeds[0].fields]


async def seat_mira_and_goblin(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=1)
    await make_sheet(bot, slash.members[1], "Bram", finesse=2)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init join", **player(slash, 1))
    await slash.run("init add", name="Goblin", **gm(slash))
    assert await tracker_fields(bot, slash) == [
        ("Players (2/2 standing)", f"{MIRA}\n{BRAM}"),
        ("NPCs (1/1 standing)", "**Goblin** (finesse +0)"),
    ]


@pytest.mark.both_backends
async def test_deleting_a_seated_sheet_redraws_the_tracker_without_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await seat_mira_and_goblin(bot, slash)
    version = (await saved(bot, slash.channel.id)).version
    result = await slash.run("character delete", name="Mira", confirm=True, **player(slash))
    assert text(result) == (
        "Deleted **Mira**. Its owner has no active character now: pick one with /character select."
    )
    # The follow-ups have drained (the harness waits for them): the tracker was edited.
    record = await saved(bot, slash.channel.id)
    message = await slash.channel.fetch_message(record.tracker_message_id or 0)
    assert message.embeds[0].description == NOT_STARTED
    assert await tracker_fields(bot, slash) == [
        ("Players (1/1 standing)", "**Bram** (finesse +2) · HP 20/20"),
        ("NPCs (1/1 standing)", "**Goblin** (finesse +0)"),
    ]
    # Saved without her, once, under the next version.
    assert record.version == version + 1
    assert [c.name for c in record.encounter.combatants] == ["Bram", "Goblin"]
    assert [cid for cid, _ in record.tracker.seats] == [2, 3]
    # /init list shows the same, and she can't be acted for or removed again.
    listed = await slash.run("init list", **gm(slash))
    assert [f["value"] for f in listed.embeds[0]["fields"]] == [
        "**Bram** (finesse +2) · HP 20/20", "**Goblin** (finesse +0)",
    ]  # fmt: skip
    gone = await slash.run("init remove", name="Mira", **gm(slash))
    assert gone.ephemeral and text(gone) == (
        "No combatant called Mira here: /init list shows who is in it."
    )
    # Her player can't join with a sheet that is gone; the fight goes on without her.
    bot.dice = ScriptedDice([])
    started = await slash.run("init next", **gm(slash))
    assert "Round 1" in text(started) and "Mira" not in text(started)
    await dpytest.empty_queue()


async def test_a_sheet_that_is_in_no_fight_is_deleted_without_touching_the_tracker(
    bot: TableBot, slash: SlashHarness
) -> None:
    await seat_mira_and_goblin(bot, slash)
    await make_sheet(bot, slash.members[0], "Spare", active=False)
    version = (await saved(bot, slash.channel.id)).version
    result = await slash.run("character delete", name="Spare", confirm=True, **player(slash))
    assert text(result) == "Deleted **Spare**."
    assert (await saved(bot, slash.channel.id)).version == version
    assert [n for n, _ in await tracker_fields(bot, slash)] == [
        "Players (2/2 standing)", "NPCs (1/1 standing)",
    ]  # fmt: skip
    await dpytest.empty_queue()


@pytest.mark.both_backends
async def test_the_seat_goes_in_the_deletes_own_transaction_and_the_channel_hears_after(
    bot: TableBot, slash: SlashHarness
) -> None:
    await seat_mira_and_goblin(bot, slash)
    version = (await saved(bot, slash.channel.id)).version
    slash.drain_followups = False
    try:
        with bot.followups.busy():  # the channel's news and the redraw wait, as under load
            await slash.run("character delete", name="Mira", confirm=True, **player(slash))
            assert bot.followups.pending >= 1
            # Committed with the delete: the row no longer seats her, before any follow-up.
            record = await saved(bot, slash.channel.id)
            assert [c.name for c in record.encounter.combatants] == ["Bram", "Goblin"]
            assert record.version == version + 1
            bot.dice = ScriptedDice([])
            started = await slash.run("init next", **gm(slash))
            assert "Round 1" in text(started) and "Mira" not in text(started)
        sent_before = len(slash.channel_recorder.sends)
        await bot.followups.drain()
    finally:
        slash.drain_followups = True
    told = [s.payload.get("content") for s in slash.channel_recorder.sends[sent_before:]]
    assert "Mira leaves the encounter: its sheet was deleted." in told
    assert await tracker_fields(bot, slash) == [
        ("Players (1/1 standing)", "**Bram** (finesse +2) · HP 20/20"),
        ("NPCs (1/1 standing)", "**Goblin** (finesse +0)"),
    ]
    await dpytest.empty_queue()


async def test_help_shows_the_ruling(slash: SlashHarness) -> None:
    await make_twod10(slash)
    shown = await slash.run("help", command="character delete", **player(slash))
    rulings = shown.field("Rulings")
    assert (
        "A deleted character leaves every encounter it was in, as /init remove takes it out;"
        " the tracker is redrawn without it." in rulings
    )
    await dpytest.empty_queue()


async def test_a_dying_roll_owed_by_the_deleted_sheet_is_no_longer_due(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    mira = await make_sheet(bot, slash.members[0], "Mira", finesse=1)
    await make_sheet(bot, slash.members[1], "Bram", finesse=2)
    async with bot.db.transaction() as conn:
        await TwoD10CharacterRepository(conn).set_hp(mira.guild_id, mira.id, -1)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init join", **player(slash, 1))
    await slash.run("init add", name="Goblin", **gm(slash))
    bot.dice = ScriptedDice([])
    await slash.run("init next", **gm(slash))
    bot.dice = ScriptedDice([2])  # the GM's d6: 1-3, the players go first
    turn = await slash.run("init next", **gm(slash))
    [prompt] = [m for m in turn.channel_messages if "must make a dying roll" in (m.content or "")]
    assert (await saved(bot, slash.channel.id)).tracker.dying_due == ((1, 1),)
    await slash.run("character delete", name="Mira", confirm=True, **gm(slash))
    record = await saved(bot, slash.channel.id)
    assert record.tracker.dying_due == ()
    assert [c.name for c in record.encounter.combatants] == ["Bram", "Goblin"]
    # The prompt still in the channel rolls nothing for a character that is gone.
    bot.dice = ScriptedDice([])
    late = await slash.click(prompt, label="Roll the dying roll", **gm(slash))
    assert late.ephemeral and late.content == (
        "That dying roll has already been made (or is no longer due)."
    )
    await dpytest.empty_queue()
