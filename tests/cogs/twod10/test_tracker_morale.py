"""NPC morale in the 2d10 tracker: the GM sets the score and leader, the tracker calls the
roll when the first NPC falls and when half are down (once each, one roll for both), the
leader's Social added while it stands, a failure marks the NPCs fleeing."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from tests.cogs.twod10.rounds_support import gm, make_sheet, make_twod10, player, stored, text
from tests.support.slash import SlashHarness


async def goblins(bot: TableBot, slash: SlashHarness, count: int = 4) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=1)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Goblin", count=count, **gm(slash))


async def down(slash: SlashHarness, name: str) -> str:
    return text(await slash.run("init down", name=name, **gm(slash)))


async def tracker_fields(bot: TableBot, slash: SlashHarness) -> str:
    record = await stored(bot, slash.channel.id)
    message = await slash.channel.fetch_message(record.tracker_message_id or 0)
    return str(message.embeds[0].fields)


async def test_no_score_no_roll(bot: TableBot, slash: SlashHarness) -> None:
    await goblins(bot, slash)
    bot.dice = ScriptedDice([])  # a roll would exhaust the script
    for name in ("Goblin 1", "Goblin 2", "Goblin 3"):
        assert "morale" not in await down(slash, name)
    assert (await stored(bot, slash.channel.id)).tracker.morale is None
    await dpytest.empty_queue()


async def test_first_fall_holds_then_half_down_breaks_them(
    bot: TableBot, slash: SlashHarness
) -> None:
    await goblins(bot, slash)
    refused = await slash.run("morale set", score=-5, **player(slash))
    assert refused.ephemeral and "Only the GM" in (refused.content or "")
    done = await slash.run("morale set", score=-5, leader="Goblin 1", social=2, **gm(slash))
    assert text(done) == "🚩 NPC morale score -5, led by Goblin 1 (social +2)."
    assert "NPC morale score -5 · leader Goblin 1 (social +2) · holding" in (
        await tracker_fields(bot, slash)
    )
    bot.dice = ScriptedDice([6, 7])  # 13 + 2 - 5 = 10: they hold
    said = await down(slash, "Goblin 2")
    assert (
        "🚩 NPC morale (leader Goblin 1), the first ally fell: 2d10 [6, 7] +2 leader's social"
        " -5 morale score = **10**, 10 or more: they hold."
    ) in said
    bot.dice = ScriptedDice([3, 4])  # 7 + 2 - 5 = 4: below 10, 2 of 4 down
    said = await down(slash, "Goblin 3")
    assert "half of the allies are down: 2d10 [3, 4]" in said
    assert "= **4**, below 10: **the NPCs flee!**" in said
    record = await stored(bot, slash.channel.id)
    assert record.tracker.morale is not None and record.tracker.morale.state.fled
    assert "🏳️ **the NPCs flee**" in await tracker_fields(bot, slash)
    bot.dice = ScriptedDice([])
    assert "morale" not in await down(slash, "Goblin 4")  # fled: no more rolls
    again = await slash.run("morale roll", **gm(slash))
    assert again.ephemeral and "already fled" in (again.content or "")
    await dpytest.empty_queue()


async def test_both_triggers_at_once_make_one_roll_and_a_down_leader_adds_nothing(
    bot: TableBot, slash: SlashHarness
) -> None:
    await goblins(bot, slash, count=2)
    await slash.run("morale set", score=0, leader="Goblin 1", social=3, **gm(slash))
    bot.dice = ScriptedDice([5, 5])  # the leader falls: 10 + 0, no leader's social
    said = await down(slash, "Goblin 1")
    assert (
        "🚩 NPC morale, the first ally fell and half of the allies are down: 2d10 [5, 5]"
        " +0 morale score = **10**, 10 or more: they hold."
    ) in said
    state = (await stored(bot, slash.channel.id)).tracker.morale
    assert state is not None and state.state.first_checked and state.state.half_checked
    await dpytest.empty_queue()


async def test_a_late_score_rolls_nothing_after_the_fact_and_the_gm_calls_a_roll(
    bot: TableBot, slash: SlashHarness
) -> None:
    await goblins(bot, slash)
    await down(slash, "Goblin 1")
    none = await slash.run("morale roll", **gm(slash))
    assert none.ephemeral and "no morale score yet" in (none.content or "")
    await slash.run("morale set", score=5, **gm(slash))  # the first fall came before it
    bot.dice = ScriptedDice([5, 5])  # 2 of 4 down now: only the half trigger, 10 + 5
    said = await down(slash, "Goblin 4")
    assert "🚩 NPC morale, half of the allies are down: 2d10 [5, 5] +5 morale score" in said
    assert "first ally" not in said and "= **15**, 10 or more: they hold." in said
    bot.dice = ScriptedDice([1, 2])  # 3 + 5 = 8
    called = text(await slash.run("morale roll", **gm(slash)))
    assert called == (
        "🚩 NPC morale, the GM called for it: 2d10 [1, 2] +5 morale score = **8**,"
        " below 10: **the NPCs flee!**"
    )
    await dpytest.empty_queue()


async def test_a_sheet_felled_by_an_attack_calls_the_roll_in_the_channel(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=1)
    orc = await make_sheet(
        bot, slash.members[2], "Orc", finesse=1, kind=TwoD10Kind.ANTAGONIST, active=False
    )
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Orc", **gm(slash))
    await slash.run("init add", name="Goblin", count=3, **gm(slash))
    # The orc leads: Social 0 from its sheet (a given social is refused).
    wrong = await slash.run("morale set", score=-5, leader="Orc", social=2, **gm(slash))
    assert wrong.ephemeral and "comes from its sheet" in (wrong.content or "")
    done = await slash.run("morale set", score=-5, leader="Orc", **gm(slash))
    assert text(done) == "🚩 NPC morale score -5, led by Orc (social +0)."
    async with bot.db.transaction() as conn:
        await TwoD10CharacterRepository(conn).set_hp(orc.guild_id, orc.id, 0)
    first = len(slash.channel_sends)
    bot.dice = ScriptedDice([9, 9])  # 18 - 5 = 13: the leader is down, nothing added
    cog = bot.get_cog("2d10 initiative")
    await cog.on_characters_changed(slash.guild.id, (orc.id,))  # type: ignore[union-attr]
    await bot.followups.drain()  # the listener's tracker work runs after it returns
    posted = [m.payload.get("content") or "" for m in slash.channel_sends[first:]]
    assert (
        "🚩 NPC morale, the first ally fell: 2d10 [9, 9] -5 morale score = **13**,"
        " 10 or more: they hold."
    ) in posted
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("init next", "Morale is rolled only in an encounter whose NPC morale score the GM set"),
        ("init next", "A linked character at 0 HP or below owes one dying roll"),
        ("morale set", "a called roll leaves the text's two triggers still to come"),
        ("morale roll", "An NPC out of the fight counts as killed"),
        ("ammo scavenge", "half the points spent since the last scavenge"),
        ("ammo set", "A character's ammo is tracked once the GM sets it"),
        ("attack", "A rolled 1 spends an ammo point"),
        ("light oil", "Oil is counted per character"),
        ("dying roll", "While it is in a tracked fight, /dying roll is refused"),
    ],
)
async def test_help_shows_the_rulings(
    bot: TableBot, slash: SlashHarness, command: str, words: str
) -> None:
    await make_twod10(slash)
    result = await slash.run("help", command=command, **player(slash))
    everything = "".join(
        e.get("description", "") + "".join(f["name"] + f["value"] for f in e.get("fields", []))
        for e in result.all_embeds
    )
    assert words in everything.replace("\n", " ")
    await dpytest.empty_queue()
