"""A deleted HOCS character leaves the encounters it was in (ruling seat-deleted): the
participant's link is ON DELETE SET NULL, so before this it stayed in the fight as an
unlinked copy, drawn, given turns and pinging its player. Now the delete's own
transaction takes it out as /init remove does; after the reply that channel is told
and its tracker redrawn."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.errors import UserError
from bot.rules.dice_source import ScriptedDice
from bot.storage.hocs.characters import CharacterRepository
from tests.cogs.test_init_commands import assert_tracker_matches, begin_with_party, gm, stored
from tests.support.slash import SlashHarness

DELETED = (
    "Deleted **Aria**. Its owner has no active character now: pick one with /character select."
)


@pytest.mark.both_backends
async def test_deleting_a_seated_character_redraws_the_tracker_without_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    version = (await stored(bot, slash.channel.id)).version
    result = await slash.run("character delete", name="Aria", confirm=True, user=slash.members[0])
    assert result.content == DELETED
    [told] = [m for m in result.channel_messages if m.embeds]
    assert told.embeds[0]["title"] == "Deleted character removed"
    assert told.embeds[0]["description"] == "Aria leaves the encounter."
    record = await stored(bot, slash.channel.id)
    assert record.version == version + 1
    assert [p.name for p in record.state.participants] == ["Bram", "Goblin"]
    message = await assert_tracker_matches(bot, slash.channel)  # redrawn from the saved state
    assert message.embeds[0].description == (
        "Waiting for round 1:\n\u3000• **Bram** (PC) — HP 12/12\n\u3000• **Goblin** (foe) — unhurt"
    )
    gone = await slash.run("init remove", name="Aria", **gm(slash))
    assert gone.ephemeral
    assert gone.content == "Nobody called “Aria” is in this encounter: check /init list."
    await dpytest.empty_queue()


async def test_a_turn_the_deleted_character_held_passes_to_the_next(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])  # Aria 2, Bram 1, Goblin 1
    first = await slash.run("init next", **gm(slash))
    assert "it's **Aria**'s turn" in (first.content or "")
    bram = slash.members[1]
    bot.dice = ScriptedDice([])
    result = await slash.run("character delete", name="Aria", confirm=True, **gm(slash))
    assert result.content == DELETED
    [turn] = [m for m in result.channel_messages if m.content and "turn" in m.content]
    assert turn.content == f"<@{bram.id}> **Round 1**, initiative 1: it's **Bram**'s turn."
    assert turn.allowed_mentions["users"] == [str(bram.id)]
    record = await stored(bot, slash.channel.id)
    assert [p.name for p in record.state.current_participants] == ["Bram"]
    message = await assert_tracker_matches(bot, slash.channel)
    assert "Aria" not in str(message.embeds[0].to_dict())
    await dpytest.empty_queue()


async def test_a_character_in_no_encounter_is_deleted_without_touching_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    await slash.run("init remove", name="Aria", **gm(slash))
    version = (await stored(bot, slash.channel.id)).version
    result = await slash.run("character delete", name="Aria", confirm=True, user=slash.members[0])
    assert result.content == DELETED
    assert not [m for m in result.channel_messages if m.embeds]
    assert (await stored(bot, slash.channel.id)).version == version
    await dpytest.empty_queue()


async def test_help_shows_the_ruling(slash: SlashHarness) -> None:
    shown = await slash.run("help", command="character delete")
    rulings = shown.field("Rulings")
    assert (
        "A deleted character leaves every encounter it was in, as /init remove takes it out"
        " (a turn it held passes on); the tracker is redrawn without it." in rulings
    )
    await dpytest.empty_queue()


async def test_the_fight_has_lost_them_once_the_delete_is_answered(
    bot: TableBot, slash: SlashHarness
) -> None:
    # The same transaction: no follow-up has to run (nor survive a restart) for it.
    await begin_with_party(bot, slash)
    slash.drain_followups = False
    try:
        with bot.followups.busy():  # the channel's news and tracker wait, as under load
            result = await slash.run("character delete", name="Aria", confirm=True, **gm(slash))
            assert result.content == DELETED
            record = await stored(bot, slash.channel.id)
            assert [p.name for p in record.state.participants] == ["Bram", "Goblin"]
        await bot.followups.drain()
    finally:
        slash.drain_followups = True
    await dpytest.empty_queue()


async def test_a_delete_refused_midway_leaves_the_fight_as_it_was(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await begin_with_party(bot, slash)
    version = (await stored(bot, slash.channel.id)).version

    async def refused(self: CharacterRepository, character_id: int) -> bool:
        raise UserError("Refused midway.")  # after the participant was taken out

    monkeypatch.setattr(CharacterRepository, "delete", refused)
    result = await slash.run("character delete", name="Aria", confirm=True, **gm(slash))
    assert result.ephemeral and result.content == "Refused midway."
    record = await stored(bot, slash.channel.id)
    assert record.version == version  # rolled back with the delete
    assert [p.name for p in record.state.participants] == ["Aria", "Bram", "Goblin"]
    assert not [m for m in result.channel_messages if m.embeds]
    await dpytest.empty_queue()
