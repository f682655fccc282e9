"""Turn messages and test prompts send their buttons as plain components
(``bot.render.buttons``): the same bytes a ``discord.ui.View`` of the tracker's dynamic
items would send, nothing handed to discord.py's ViewStore, and every button still
works, dispatched by its custom_id."""

from __future__ import annotations

import json
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.render.buttons import Buttons
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.initiative import ActionKind, RecoveryTestDue
from bot.rules.hocs.threshold import RecoveryKind
from cogs.hocs.initiative import views
from cogs.hocs.initiative.views import (
    ActButton,
    EndTurnButton,
    RecoveryTestButton,
    act_button,
    end_button,
    recovery_button,
)
from tests.cogs.test_init_commands import begin_with_party, gm, stored
from tests.cogs.test_init_dying import dying_aria, next_until_prompt
from tests.support.slash import SlashHarness
from tests.support.view_store import assert_store_empty, view_of


def test_each_button_is_what_its_dynamic_item_sends() -> None:
    cases = [
        (act_button(7, 3, ActionKind.ACTION), ActButton(7, 3, ActionKind.ACTION)),
        (
            act_button(7, 3, ActionKind.QUICK, label="Quick action 1/1", disabled=True),
            ActButton(7, 3, ActionKind.QUICK, label="Quick action 1/1", disabled=True),
        ),
        (
            act_button(7, 3, ActionKind.REACTION, label="Reaction 0/1"),
            ActButton(7, 3, ActionKind.REACTION, label="Reaction 0/1"),
        ),
        (end_button(7, 3, 12), EndTurnButton(7, 3, 12)),
        (recovery_button(7, 3, 5, "physique"), RecoveryTestButton(7, 3, 5, "physique")),
    ]
    for light, item in cases:
        assert json.dumps(Buttons([light]).to_components()) == view_of(item)
    assert [light.custom_id for light, _ in cases] == [
        "init:act:7:3:action",
        "init:act:7:3:quick",
        "init:act:7:3:reaction",
        "init:end:7:3:12",
        "init:test:7:3:5:physique",
    ]
    # Every custom_id matches its item's template, so a click finds its handler.
    for light, item in cases:
        assert type(item).__discord_ui_compiled_template__.fullmatch(light.custom_id)


def test_a_test_prompts_buttons_are_what_a_view_of_its_items_sends() -> None:
    due = RecoveryTestDue(
        participant_id=4, name="Aria", owner_id=None, kind=RecoveryKind.DYING, clock_id=9
    )
    # (``views.test_view``: imported by name, pytest would collect it as a test.)
    sent = json.dumps(views.test_view(21, due).to_components())
    assert sent == view_of(
        RecoveryTestButton(21, 4, 9, "physique"), RecoveryTestButton(21, 4, 9, "willpower")
    )


async def test_turn_messages_hand_nothing_to_the_view_store_and_their_buttons_work(
    bot: TableBot, slash: SlashHarness, stored_views: list[Any]
) -> None:
    await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])  # Aria 2, Bram 1, Goblin 1
    aria_turn = await slash.run("init next", **gm(slash))
    record = await stored(bot, slash.channel.id)
    aria = next(p for p in record.state.participants if p.name == "Aria")
    # Byte for byte what the View of the dynamic items sent before.
    assert json.dumps(aria_turn.components) == view_of(
        ActButton(record.id, aria.id, ActionKind.ACTION, label="Action 0/2"),
        ActButton(record.id, aria.id, ActionKind.QUICK, label="Quick action 0/1"),
        ActButton(record.id, aria.id, ActionKind.REACTION, label="Reaction 0/1"),
        EndTurnButton(record.id, aria.id, record.state.turn),
    )
    assert stored_views == []
    acted = await slash.click(aria_turn, label="Action 0/2", user=slash.members[0])
    assert [b["label"] for b in acted.message.buttons] == [
        "Action 1/2", "Quick action 0/1", "Reaction 0/1", "End turn",
    ]  # fmt: skip
    ended = await slash.click(acted, label="End turn", user=slash.members[0])
    assert ended.responses[0].type == 7 and ended.responses[0].data.get("components") == []
    assert ended.content.startswith(f"<@{slash.members[1].id}> **Round 1**")
    assert [b["label"] for b in ended.message.buttons] == [
        "Action 0/2", "Quick action 0/1", "Reaction 0/1", "End turn",
    ]  # fmt: skip
    assert (await stored(bot, slash.channel.id)).state.turn == record.state.turn + 1
    assert stored_views == []
    assert_store_empty(bot)
    await dpytest.empty_queue()


async def test_a_test_prompt_hands_nothing_to_the_view_store_and_its_button_rolls(
    bot: TableBot, slash: SlashHarness, stored_views: list[Any]
) -> None:
    await dying_aria(bot, slash)
    _, prompt = await next_until_prompt(bot, slash)
    assert [b["label"] for b in prompt.buttons] == ["Roll with physique", "Roll with willpower"]
    bot.dice = ScriptedDice([4, 5, 6])
    rolled = await slash.click(prompt, label="Roll with physique", user=slash.members[0])
    assert "3 successes vs 3 — stable" in rolled.embeds[0]["description"]
    assert stored_views == []
    assert_store_empty(bot)
    await dpytest.empty_queue()
