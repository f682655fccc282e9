"""Buttons under /pool and /check replies: determination, hero and fortune spends after the roll.

Also holds the helpers the other points tests import (characters' points, labels).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import discord.ext.test as dpytest
from discord.ui.view import ViewStore

from bot.client import TableBot
from bot.config import Settings
from bot.interactions.command_sync import SyncMode
from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.storage.database import Database
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from tests.cogs.test_check import dice_field, make_character
from tests.conftest import intents_for_tests
from tests.support.slash import SlashHarness, SlashResult

# --- helpers shared by the points tests ------------------------------------------------


async def set_points(bot: TableBot, character: Character, **columns: Any) -> None:
    """Set tracked columns directly (hero_points, determination, recovery, hp, nonlethal…)."""
    allowed = {"hero_points", "determination", "recovery", "hp", "nonlethal", "conditions"}
    assert set(columns) <= allowed
    async with bot.db.transaction() as conn:
        for column, value in columns.items():
            await conn.execute(
                f"UPDATE characters SET {column} = ? WHERE id = ?", (value, character.id)
            )


async def fresh(bot: TableBot, character: Character) -> Character:
    async with bot.db.read() as conn:
        found = await CharacterRepository(conn).get(character.id)
    assert found is not None
    return found


async def grant(bot: TableBot, character: Character, *sources: str) -> None:
    async with bot.db.transaction() as conn:
        for source in sources:
            assert await CharacterRepository(conn).grant_fortune(character.id, source)


async def last_roll(bot: TableBot, character: Character) -> LoggedRoll:
    async with bot.db.read() as conn:
        logged = await RollLogRepository(conn).latest_for_character(character.id)
    assert logged is not None
    return logged


def labels(result: SlashResult) -> list[str]:
    return [c["label"] for row in result.components for c in row["components"] if c.get("label")]


def custom_id(result: SlashResult, label: str) -> str:
    [found] = [
        c["custom_id"]
        for row in result.components
        for c in row["components"]
        if c.get("label") == label
    ]
    return found


# --- which buttons a roll gets ------------------------------------------------------------


async def test_buttons_show_what_the_character_has_and_could_change(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    bot.dice = ScriptedDice([1, 4, 2, 6])
    plain = await slash.run("check", skill="athletics", difficulty="3")
    # Determination 3, no hero point, no fortune point: only determination applies.
    assert labels(plain) == ["Spend determination"]
    await set_points(bot, mira, hero_points=1)
    await grant(bot, mira, "cooking")
    bot.dice = ScriptedDice([1, 4, 2, 6])
    full = await slash.run("check", skill="athletics", difficulty="3")
    assert labels(full) == ["Spend determination", "Hero reroll", "Fortune reroll"]
    roll = await last_roll(bot, mira)
    assert custom_id(full, "Hero reroll") == f"roll:hero:{roll.id}:0"
    # No failed die: nothing to reroll, but determination could still add a die.
    bot.dice = ScriptedDice([4, 5, 6, 6])
    perfect = await slash.run("check", skill="athletics", difficulty="3")
    assert labels(perfect) == ["Spend determination"]
    # Difficulty 0 is an automatic success: nothing could change it.
    bot.dice = ScriptedDice([1, 1, 1, 1])
    easy = await slash.run("check", skill="athletics", difficulty="0")
    assert labels(easy) == []
    # A pool without an active character has nobody's points to spend.
    bot.dice = ScriptedDice([1])
    other = await slash.run("pool", dice=1, user=slash.members[1])
    assert labels(other) == []
    await dpytest.empty_queue()


async def test_determination_button_only_when_it_would_change_the_result(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0])
    # 2 banes: one more boon leaves 1 bane, still −1d6: determination would change nothing.
    bot.dice = ScriptedDice([1, 2])
    two_banes = await slash.run("check", skill="strength", banes=2)
    assert "Spend determination" not in labels(two_banes)
    # A boon die that did not roll a 6 can't become an exploding determination die.
    bot.dice = ScriptedDice([1, 2, 3, 4])
    boon = await slash.run("check", skill="strength", boons=1)
    assert "Spend determination" not in labels(boon)
    # One bane: the point cancels it and the removed die comes back.
    bot.dice = ScriptedDice([1, 2])
    one_bane = await slash.run("check", skill="strength", banes=1)
    assert "Spend determination" in labels(one_bane)
    await dpytest.empty_queue()


# --- clicking ------------------------------------------------------------------------------


async def test_hero_reroll_button_rerolls_the_failures_and_edits_the_reply(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    await set_points(bot, mira, hero_points=2)
    bot.dice = ScriptedDice([1, 4, 2, 6])
    result = await slash.run("check", skill="athletics", difficulty="3")
    assert "**2** successes vs Demanding (3): **Failure**" in result.embeds[0]["description"]
    bot.dice = ScriptedDice([5, 3])  # die 1 → 5, die 3 → 3
    clicked = await slash.click(result, label="Hero reroll", user=slash.members[0])
    assert [(r.kind, r.type) for r in clicked.responses] == [("callback", 7)]
    assert not clicked.ephemeral
    [embed] = clicked.embeds
    assert dice_field(embed) == "~~1~~ **5** · **4** · ~~2~~ 3 · **6**"
    description = embed["description"]
    assert "**3** successes vs Demanding (3): **Success**" in description
    assert "Mira spent a hero point: rerolled 2 dice (#1 1→**5**, #3 2→3); 1 left." in description
    assert (await fresh(bot, mira)).state.hero_points == 1
    stored = await last_roll(bot, mira)
    assert stored.total == 3 and stored.result["revision"] == 1
    # The edited reply carries buttons for the new revision (die 3 still failed).
    assert custom_id(clicked, "Hero reroll") == f"roll:hero:{stored.id}:1"
    clicked.assert_no_pings()
    await dpytest.empty_queue()


async def test_only_the_roller_or_the_gm_may_click(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    bot.dice = ScriptedDice([1, 2, 3])
    result = await slash.run("check", skill="strength")
    bot.dice = ScriptedDice([6, 6, 6])
    refused = await slash.click(
        result, label="Hero reroll", user=slash.members[1], manage_guild=False
    )
    assert refused.ephemeral
    assert refused.content == (
        "This is Mira's roll: only its owner or the GM can spend points on it."
    )
    assert (await fresh(bot, mira)).state.hero_points == 1
    assert bot.dice.remaining == 3
    by_gm = await slash.click(result, label="Hero reroll", user=slash.members[2], manage_guild=True)
    assert not by_gm.ephemeral and "Mira spent a hero point" in by_gm.embeds[0]["description"]
    assert (await fresh(bot, mira)).state.hero_points == 0
    await dpytest.empty_queue()


async def test_a_hundred_simultaneous_clicks_spend_one_point(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=5)
    bot.dice = ScriptedDice([1, 2, 3])
    result = await slash.run("check", skill="strength")
    before = (await last_roll(bot, mira)).result
    bot.dice = RandomDice(random.Random(7))
    member = slash.members[0]
    first = len(slash.responses)
    await asyncio.gather(
        *(slash.click(result, label="Hero reroll", user=member) for _ in range(100))
    )
    # Concurrent results share their recording window: count every response instead.
    answers = slash.responses[first:]
    edits = [r for r in answers if r.kind == "callback" and r.type == 7]
    refusals = [r for r in answers if r.carries_message and r.ephemeral]
    assert len(edits) == 1 and len(refusals) == 99 and len(answers) == 100
    assert all("already used" in (r.content or "") for r in refusals)
    assert (await fresh(bot, mira)).state.hero_points == 4
    after = (await last_roll(bot, mira)).result
    assert after["revision"] == 1
    assert after["roll"]["dice"] != before["roll"]["dice"]
    rerolls = [d["rerolls"] for d in after["roll"]["dice"]]
    assert all(len(r) == 1 for r in rerolls)  # each failed die rerolled exactly once
    await dpytest.empty_queue()


async def test_fortune_button_rerolls_the_most_useful_die(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await grant(bot, mira, "minstrel", "character")
    bot.dice = ScriptedDice([3, 1, 5])
    result = await slash.run("check", skill="strength", difficulty="2")
    bot.dice = ScriptedDice([6])
    clicked = await slash.click(result, label="Fortune reroll")
    [embed] = clicked.embeds
    assert dice_field(embed) == "3 · ~~1~~ **6** · **5**"
    assert (
        "Mira spent a fortune point (character): rerolled 1 die (#2 1→**6**)."
        in (embed["description"])
    )
    # The button spends the first source alphabetically; the other one is left.
    assert (await fresh(bot, mira)).fortune_sources == ("minstrel",)
    assert labels(clicked) == ["Spend determination", "Fortune reroll"]
    await dpytest.empty_queue()


async def test_determination_button_adds_the_exploding_die(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([1, 2, 4])
    result = await slash.run("check", skill="strength", difficulty="2")
    bot.dice = ScriptedDice([6, 5])
    clicked = await slash.click(result, label="Spend determination")
    [embed] = clicked.embeds
    assert dice_field(embed) == "1 · 2 · **4** · det+ **6**→**5**"
    assert "**3** successes vs Challenging (2): **Success**" in embed["description"]
    assert "Mira spent a determination point after the roll (2 left)." in embed["description"]
    assert (await fresh(bot, mira)).state.determination == 2
    # Determination is on the roll now, so its button is gone.
    assert "Spend determination" not in labels(clicked)
    await dpytest.empty_queue()


async def test_a_spent_out_resource_refuses_and_writes_nothing(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    bot.dice = ScriptedDice([1, 2, 3])
    result = await slash.run("check", skill="strength")
    await set_points(bot, mira, hero_points=0)  # spent elsewhere meanwhile
    before = await last_roll(bot, mira)
    bot.dice = ScriptedDice([6, 6, 6])
    refused = await slash.click(result, label="Hero reroll")
    assert refused.ephemeral and refused.content == "Mira has no hero points left."
    assert (await last_roll(bot, mira)).result == before.result
    await dpytest.empty_queue()


# --- after a restart ------------------------------------------------------------------


async def restarted(bot: TableBot, settings: Settings, dice: Any) -> TableBot:
    """A new bot process on the same database file, in the same (fake) Discord.

    It loads its cogs from scratch (registering its dynamic items on its own state),
    then takes over the first bot's fake gateway state with an empty view store: no
    view, item or cache of the first process survives.
    """
    database = await Database.open(Path(settings.database_path))
    second = TableBot(
        settings, database, dice=dice, sync_mode=SyncMode.SKIP, intents=intents_for_tests()
    )
    await second._async_setup_hook()
    await second.load_cogs()
    state = bot._connection
    second._connection = state
    second.http = bot.http
    state._get_client = lambda: second
    state.dispatch = second.dispatch
    state._view_store = ViewStore(state)
    return second


async def test_buttons_keep_working_after_a_restart(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    bot.dice = ScriptedDice([1, 2, 4])
    result = await slash.run("check", skill="strength", difficulty="2")
    button = custom_id(result, "Hero reroll")
    second = await restarted(bot, settings, ScriptedDice([5, 6]))
    try:
        harness = SlashHarness(second)
        clicked = await harness.click(custom_id=button, user=slash.members[0])
        assert [(r.kind, r.type) for r in clicked.responses] == [("callback", 7)]
        [embed] = clicked.embeds
        assert dice_field(embed) == "~~1~~ **5** · ~~2~~ **6** · **4**"
        assert "**3** successes vs Challenging (2): **Success**" in (embed["description"])
        assert (await fresh(second, mira)).state.hero_points == 0
        again = await harness.click(custom_id=button, user=slash.members[0])
        assert again.ephemeral and "already used" in (again.content or "")
    finally:
        await second.db.close()
    await dpytest.empty_queue()


async def test_secret_roll_buttons_edit_the_private_reply(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    bot.dice = ScriptedDice([1, 2, 3])
    result = await slash.run("check", skill="strength", secret=True)
    assert result.ephemeral and "Hero reroll" in labels(result)
    bot.dice = ScriptedDice([6, 6, 6])
    clicked = await slash.click(result, label="Hero reroll", user=slash.members[0])
    assert (clicked.responses[0].kind, clicked.responses[0].type) == ("callback", 7)
    assert clicked.ephemeral
    assert "Mira spent a hero point" in clicked.embeds[0]["description"]
    await dpytest.empty_queue()
