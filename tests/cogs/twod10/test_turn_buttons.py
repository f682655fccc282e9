"""The 2d10 tracker's side-turn, end-of-turn and dying-roll messages send their buttons
as plain components (``bot.render.buttons``): the same bytes a ``discord.ui.View`` of the
tracker's dynamic items sent, nothing handed to discord.py's ViewStore, and every button
still works, dispatched by its custom_id."""

from __future__ import annotations

import json
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.render.buttons import Buttons
from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.initiative.model import Action, Side
from cogs.twod10.initiative.dying import DyingButton, dying_button
from cogs.twod10.initiative.views import (
    LABELS,
    ReactButton,
    TurnButton,
    react_button,
    reaction_view,
    turn_button,
    turn_view,
)
from tests.cogs.twod10.rounds_support import gm, player, stored, text
from tests.cogs.twod10.test_rounds_initiative import setup_fight
from tests.cogs.twod10.test_tracker_dying import dying_mira, players_turn, sheet_now
from tests.support.slash import SlashHarness
from tests.support.view_store import assert_store_empty, view_of


def test_each_button_is_what_its_dynamic_item_sends() -> None:
    cases = [
        (turn_button(7, 2, Side.PLAYERS, "attack"), TurnButton(7, 2, Side.PLAYERS, "attack")),
        (turn_button(7, 2, Side.NPCS, "dash"), TurnButton(7, 2, Side.NPCS, "dash")),
        (react_button(7, 2, Side.NPCS), ReactButton(7, 2, Side.NPCS)),
        (dying_button(7, 3, 2), DyingButton(7, 3, 2)),
    ]
    for light, item in cases:
        assert json.dumps(Buttons([light]).to_components()) == view_of(item)
    assert [light.custom_id for light, _ in cases] == [
        "d10init:act:7:2:players:attack",
        "d10init:act:7:2:npcs:dash",
        "d10init:react:7:2:npcs",
        "d10dying:7:3:2",
    ]
    # Every custom_id matches its item's template, so a click finds its handler.
    for light, item in cases:
        assert type(item).__discord_ui_compiled_template__.fullmatch(light.custom_id)


def test_a_turns_nine_buttons_are_laid_out_as_a_view_of_its_items_was() -> None:
    # Nine buttons: five in the first row, four in the second, as View.add_item placed them.
    sent = turn_view(9, 4, Side.PLAYERS).to_components()
    assert [len(row["components"]) for row in sent] == [5, 4]
    assert json.dumps(sent) == view_of(*(TurnButton(9, 4, Side.PLAYERS, t) for t in LABELS))
    assert json.dumps(reaction_view(9, 4, Side.NPCS).to_components()) == view_of(
        ReactButton(9, 4, Side.NPCS)
    )


async def test_turn_messages_hand_nothing_to_the_view_store_and_their_buttons_work(
    bot: TableBot, slash: SlashHarness, stored_views: list[Any]
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    await slash.run("init next", **gm(slash))  # round 1's declarations
    bot.dice = ScriptedDice([4])  # the GM's d6: 4-6, the NPCs go first
    npcs_turn = await slash.run("init next", **gm(slash))
    record = await stored(bot, slash.channel.id)
    assert json.dumps(npcs_turn.components) == view_of(
        *(TurnButton(record.id, 1, Side.NPCS, token) for token in LABELS)
    )
    window = await slash.run("init next", **gm(slash))
    assert "End of the NPCs' turn: undeclared reactions for Mira" in text(window)
    assert json.dumps(window.components) == view_of(ReactButton(record.id, 1, Side.NPCS))
    reacted = await slash.click(window, label="Undeclared reaction", **player(slash))
    assert reacted.ephemeral and text(reacted) == "Mira uses their undeclared reaction."
    assert (await stored(bot, slash.channel.id)).encounter.state(1).reaction_used
    players = await slash.run("init next", **gm(slash))
    assert json.dumps(players.components) == view_of(
        *(TurnButton(record.id, 1, Side.PLAYERS, token) for token in LABELS)
    )
    marked = await slash.click(players, label="Attack", **player(slash))
    assert marked.ephemeral and text(marked) == "Mira: attack."
    assert (await stored(bot, slash.channel.id)).encounter.state(1).actions == frozenset(
        {Action.ATTACK}
    )
    assert stored_views == []
    assert_store_empty(bot)
    await dpytest.empty_queue()


async def test_a_dying_prompt_hands_nothing_to_the_view_store_and_its_button_rolls(
    bot: TableBot, slash: SlashHarness, stored_views: list[Any]
) -> None:
    mira = await dying_mira(bot, slash, -1)
    _, prompt = await players_turn(bot, slash)
    record = await stored(bot, slash.channel.id)
    assert json.dumps(prompt.components) == view_of(DyingButton(record.id, 1, 1))
    # 2d10 [3, 4] + toughness 2 + current HP -1 = 8: below 10, unconscious and -1 HP.
    bot.dice = ScriptedDice([3, 4])
    rolled = await slash.click(prompt, label="Roll the dying roll", **player(slash))
    assert rolled.content == "**Mira**'s dying roll (round 1) is made."
    assert (await sheet_now(bot, mira)).hp == -2
    assert stored_views == []
    assert_store_empty(bot)
    await dpytest.empty_queue()
