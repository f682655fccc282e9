"""Dying rolls in the 2d10 tracker: prompted on the dying character's side's turn, rolled
once by the owner or the GM with the prompt's button, applied to the sheet and the tracker,
logged, and refused as a /dying roll while the fight is tracked."""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind, TwoD10Sheet
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import gm, make_sheet, make_twod10, player, stored, text
from tests.support.slash import SlashHarness, SlashResult
from tests.support.slash_channel import SentMessage


async def set_hp(bot: TableBot, sheet: TwoD10Sheet, hp: int) -> None:
    async with bot.db.transaction() as conn:
        await TwoD10CharacterRepository(conn).set_hp(sheet.guild_id, sheet.id, hp)


async def sheet_now(bot: TableBot, sheet: TwoD10Sheet) -> TwoD10Sheet:
    async with bot.db.read() as conn:
        found = await TwoD10CharacterRepository(conn).get(sheet.guild_id, sheet.id)
    assert found is not None
    return found


async def dying_mira(bot: TableBot, slash: SlashHarness, hp: int) -> TwoD10Sheet:
    """Mira (toughness 2, defense (toughness) 0: 25 HP, dead at -4) at ``hp``, in a fight
    with a goblin, at round 1's declarations."""
    await make_twod10(slash)
    mira = await make_sheet(bot, slash.members[0], "Mira", finesse=1)
    await set_hp(bot, mira, hp)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Goblin", **gm(slash))
    bot.dice = ScriptedDice([])
    await slash.run("init next", **gm(slash))
    return mira


def prompts(result: SlashResult) -> list[SentMessage]:
    return [m for m in result.channel_messages if "must make a dying roll" in (m.content or "")]


async def players_turn(bot: TableBot, slash: SlashHarness) -> tuple[SlashResult, SentMessage]:
    bot.dice = ScriptedDice([2])  # the GM's d6: 1-3, the players go first
    turn = await slash.run("init next", **gm(slash))
    [prompt] = prompts(turn)
    return turn, prompt


async def test_the_owner_is_prompted_on_her_sides_turn_and_a_failed_roll_knocks_her_out(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await dying_mira(bot, slash, -1)
    turn, prompt = await players_turn(bot, slash)
    owner = slash.members[0]
    assert prompt.content == f"<@{owner.id}> **Mira** must make a dying roll."
    assert prompt.allowed_mentions["users"] == [str(owner.id)]
    assert [b["label"] for b in prompt.buttons] == ["Roll the dying roll"]
    custom_id = prompt.buttons[0]["custom_id"]
    record = await stored(bot, slash.channel.id)
    assert custom_id == f"d10dying:{record.id}:1:1"
    assert record.tracker.dying_due == ((1, 1),)
    # Another player can't roll it.
    other = await slash.click(prompt, label="Roll the dying roll", user=slash.members[1])
    assert other.ephemeral and "Mira isn't yours" in (other.content or "")
    # 2d10 [3, 4] + toughness 2 + defense (toughness) 0 + current HP -1 = 8: below 10.
    bot.dice = ScriptedDice([3, 4])
    rolled = await slash.click(prompt, label="Roll the dying roll", **player(slash))
    assert rolled.responses[0].type == 7 and rolled.components == []
    assert rolled.content == "**Mira**'s dying roll (round 1) is made."
    description = rolled.embeds[0]["description"]
    assert "**8** = 7 +2 toughness -1 current HP" in description
    assert "Below 10: falls unconscious and loses 1 HP." in description
    assert "Mira: HP -1 → **-2** / 25" in description
    after = await sheet_now(bot, mira)
    assert (after.hp, after.conditions) == (-2, ("unconscious",))
    # A client still showing the button rolls nothing more.
    again = await slash.click(custom_id=custom_id, **player(slash))
    assert again.ephemeral and again.content == (
        "That dying roll has already been made (or is no longer due)."
    )
    assert (await sheet_now(bot, mira)).hp == -2
    record = await stored(bot, slash.channel.id)
    assert record.tracker.dying_due == ()
    tracker = await slash.channel.fetch_message(record.tracker_message_id or 0)
    assert "HP -2/25 · 💀 down (dying, unconscious)" in str(tracker.embeds[0].fields)
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(slash.guild.id, limit=1)
    assert (logged.kind, logged.total, logged.character_id) == ("2d10-dying", 8, None)
    assert logged.result["character_id"] == mira.id and logged.result["hp"] == [-1, -2]
    assert logged.result["faces"] == [3, 4] and logged.result["round"] == 1
    assert "▶️ The Players' turn: nobody on it can act." in text(turn)  # Mira is down
    await dpytest.empty_queue()


async def test_a_roll_of_ten_at_zero_wakes_her_and_puts_her_back_in_the_fight(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await dying_mira(bot, slash, 0)
    _, prompt = await players_turn(bot, slash)
    record = await stored(bot, slash.channel.id)
    tracker = await slash.channel.fetch_message(record.tracker_message_id or 0)
    assert "HP 0/25 · 💀 down (dying, dying roll due)" in str(tracker.embeds[0].fields)
    bot.dice = ScriptedDice([5, 3])  # 8 + 2 + 0 HP = 10
    rolled = await slash.click(prompt, label="Roll the dying roll", **gm(slash))  # the GM may
    # Ruling dying-awake: at 0 she was still conscious, so there is nothing to wake from.
    assert (
        "**10** = 8 +2 toughness\n10 or more: gains 1 HP.\nMira: HP 0 → **1** / 25"
        in (rolled.embeds[0]["description"])
    )
    assert (await sheet_now(bot, mira)).hp == 1
    record = await stored(bot, slash.channel.id)
    assert not record.encounter.combatant(1).down
    # Back up, she acts on this very turn.
    marked = await slash.run("init act", action="attack", **player(slash))
    assert text(marked) == "Mira: attack."
    await dpytest.empty_queue()


async def test_death_at_the_threshold_and_no_prompt_afterwards(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await dying_mira(bot, slash, -3)
    _, prompt = await players_turn(bot, slash)
    bot.dice = ScriptedDice([1, 1])  # a natural 2: below 10, -3 → -4, her death threshold
    rolled = await slash.click(prompt, label="Roll the dying roll", **player(slash))
    assert "reaches the death threshold. **Dead.**" in rolled.embeds[0]["description"]
    after = await sheet_now(bot, mira)
    assert after.hp == -4 and "dead" in after.conditions
    record = await stored(bot, slash.channel.id)
    tracker = await slash.channel.fetch_message(record.tracker_message_id or 0)
    assert "💀 down (dead)" in str(tracker.embeds[0].fields)
    # A whole round on: no dying roll is due for the dead.
    bot.dice = ScriptedDice([2])
    for _ in range(5):
        result = await slash.run("init next", **gm(slash))
        assert prompts(result) == []
    assert (await stored(bot, slash.channel.id)).tracker.dying_due == ()
    await dpytest.empty_queue()


async def test_an_unmade_roll_stays_due_and_each_turn_adds_one(
    bot: TableBot, slash: SlashHarness
) -> None:
    await dying_mira(bot, slash, -1)
    _, first = await players_turn(bot, slash)
    # Her side's turn ends, the goblin's turn, its end, round 2's declarations.
    for _ in range(4):
        assert prompts(await slash.run("init next", **gm(slash))) == []
    _, second = await players_turn(bot, slash)
    record = await stored(bot, slash.channel.id)
    assert record.tracker.dying_due == ((1, 1), (1, 2))
    bot.dice = ScriptedDice([9, 9, 9, 9])  # both succeed: -1 → 0 → 1
    await slash.click(first, label="Roll the dying roll", **player(slash))
    await slash.click(second, label="Roll the dying roll", **player(slash))
    record = await stored(bot, slash.channel.id)
    assert record.tracker.dying_due == () and not record.encounter.combatant(1).down
    await dpytest.empty_queue()


async def test_two_presses_at_once_make_one_roll(bot: TableBot, slash: SlashHarness) -> None:
    mira = await dying_mira(bot, slash, -1)
    _, prompt = await players_turn(bot, slash)
    bot.dice = ScriptedDice([3, 4, 3, 4])
    first = len(slash.responses)
    await asyncio.gather(
        slash.click(prompt, label="Roll the dying roll", **player(slash)),
        slash.click(prompt, label="Roll the dying roll", **gm(slash)),
    )
    answers = [r for r in slash.responses[first:] if r.kind == "callback"]
    assert sorted(r.type for r in answers) == [4, 7]  # one refusal, one rolled prompt
    assert (await sheet_now(bot, mira)).hp == -2  # one HP lost, not two
    async with bot.db.read() as conn:
        rows = await RollLogRepository(conn).recent(slash.guild.id)
    assert [r.kind for r in rows].count("2d10-dying") == 1
    await dpytest.empty_queue()


async def test_an_npc_sheet_is_prompted_for_the_gm_without_a_ping(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=1)
    orc = await make_sheet(
        bot, slash.members[2], "Orc", finesse=1, kind=TwoD10Kind.ANTAGONIST, active=False
    )
    await set_hp(bot, orc, -2)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Orc", **gm(slash))
    bot.dice = ScriptedDice([])
    await slash.run("init next", **gm(slash))
    bot.dice = ScriptedDice([5])  # 4-6: the NPCs' turn
    [prompt] = prompts(await slash.run("init next", **gm(slash)))
    assert prompt.content == "**Orc** must make a dying roll."
    assert prompt.allowed_mentions.get("users", []) == []
    await dpytest.empty_queue()


async def test_dying_roll_command_is_refused_in_a_tracked_fight(
    bot: TableBot, slash: SlashHarness
) -> None:
    await dying_mira(bot, slash, -1)
    result = await slash.run("dying roll", **player(slash))
    assert result.ephemeral
    assert result.content == (
        "Mira is in a tracked fight: the dying roll comes with the button posted on their"
        " side's turn."
    )
    await dpytest.empty_queue()


async def test_the_prompt_survives_a_restart(restart: Restart) -> None:
    """The prompt's button, pressed in a new process that knows only its custom_id."""
    first, slash = restart.bot, restart.slash
    mira = await dying_mira(first, slash, -1)
    _, prompt = await players_turn(first, slash)
    custom_id = prompt.buttons[0]["custom_id"]

    second, again = await restart.restart()
    await again.channel.send("The table is back.")
    second.dice = ScriptedDice([9, 9])  # 18 + 2 - 1 = 19: -1 → 0
    rolled = await again.click(custom_id=custom_id, user=again.members[0])
    assert "10 or more: gains 1 HP." in rolled.embeds[0]["description"]
    assert (await sheet_now(second, mira)).hp == 0
    assert (await stored(second, again.channel.id)).tracker.dying_due == ()
