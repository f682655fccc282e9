"""/hero spend action with an initiative encounter: the extra action on the tracker."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_init_commands import (
    assert_tracker_matches,
    begin_with_party,
    character,
    gm,
    stored,
)
from tests.cogs.test_roll_buttons import set_points
from tests.support.slash import SlashHarness


async def test_extra_action_on_your_turn_is_marked_on_the_tracker(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, bram = await begin_with_party(bot, slash)
    await set_points(bot, aria, hero_points=2)
    await set_points(bot, bram, hero_points=1)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])  # Aria 2, Bram 1, Goblin 1
    await slash.run("init next", **gm(slash))
    spent = await slash.run("hero spend", option="action", user=slash.members[0])
    assert not spent.ephemeral
    assert spent.content == (
        "Aria spent a hero point: 1 extra action until the end of their turn. Hero points left: 1."
        "\n-# Marked on the initiative tracker: actions 0/3 this turn; the extra action ends"
        " with the turn."
    )
    spent.assert_no_pings()
    state = (await stored(bot, slash.channel.id)).state
    aria_p = next(p for p in state.participants if p.character_id == aria.id)
    assert aria_p.extra_actions == 1 and aria_p.allowance.actions == 3
    await assert_tracker_matches(bot, slash.channel)

    # Unique bonus: a second one this turn is refused and the point is kept.
    again = await slash.run("hero spend", option="action", user=slash.members[0])
    assert again.ephemeral and "already has an extra action" in (again.content or "")
    assert "Keep the hero point" in (again.content or "")
    assert (await character(bot, aria.id)).state.hero_points == 1

    # All three actions can be marked.
    for _ in range(3):
        marked = await slash.run("init act", user=slash.members[0], kind="action")
        assert not marked.ephemeral, marked.content
    none_left = await slash.run("init act", user=slash.members[0], kind="action")
    assert none_left.ephemeral and "no actions left" in (none_left.content or "")

    # Off your turn: still spent, the tracker is unchanged and the reply says so.
    off_turn = await slash.run("hero spend", option="action", user=slash.members[1])
    assert not off_turn.ephemeral
    assert "It isn't Bram's turn on the initiative tracker" in (off_turn.content or "")
    assert (await character(bot, bram.id)).state.hero_points == 0
    state = (await stored(bot, slash.channel.id)).state
    assert next(p for p in state.participants if p.character_id == bram.id).extra_actions == 0

    # The turn ends: the extra action is gone.
    await slash.run("init next", **gm(slash))
    state = (await stored(bot, slash.channel.id)).state
    aria_p = next(p for p in state.participants if p.character_id == aria.id)
    assert aria_p.extra_actions == 0 and aria_p.allowance.actions == 2
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_not_in_the_encounter_or_before_the_first_round(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    await set_points(bot, aria, hero_points=1)
    early = await slash.run("hero spend", option="action", user=slash.members[0])
    assert not early.ephemeral and "It isn't Aria's turn" in (early.content or "")
    assert (await character(bot, aria.id)).state.hero_points == 0
    await dpytest.empty_queue()


async def test_down_characters_keep_the_point(bot: TableBot, slash: SlashHarness) -> None:
    aria, _ = await begin_with_party(bot, slash)
    await set_points(bot, aria, hero_points=1, conditions='{"unconscious": 1}')
    down = await slash.run("hero spend", option="action", user=slash.members[0])
    assert down.ephemeral and "can't act: keep the hero point" in (down.content or "")
    assert (await character(bot, aria.id)).state.hero_points == 1
    await dpytest.empty_queue()
