"""Roll replies send their buttons as plain components (``bot.render.buttons``): nothing
is handed to discord.py's ViewStore per reply or per edit, and every button still works,
dispatched by its custom_id as after a restart, spending exactly once."""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_combat_helpers import buttons, choice_count, gm, player, script, text
from tests.cogs.test_roll_buttons import custom_id, fresh, labels, set_points
from tests.cogs.test_side_spends import character
from tests.support.slash import SlashHarness
from tests.support.view_store import assert_store_empty


async def test_replies_and_edits_hand_nothing_to_the_view_store(
    bot: TableBot, slash: SlashHarness, stored_views: list[Any]
) -> None:
    await setup_duel(slash)  # Bram (a PC with a greatsword, member 1's) and Gob (10 HP)
    bram = await character(bot, "Bram")
    await set_points(bot, bram, hero_points=1)
    # Bram 1 2 (0 successes) vs Gob 5 1 (1): a miss; Bram's hero point could change it.
    script(bot, 1, 2, 5, 1)
    attack = await slash.run("attack", target="Gob", **player(slash))
    assert "Bram: Hero reroll" in labels(attack)
    script(bot, 1, 2, 3)
    check = await slash.run("check", skill="strength", character="Bram", **player(slash))
    assert "Hero reroll" in labels(check)
    script(bot, 1, 2, 3, 5, 6)
    clash = await slash.run("clash", skill="strength", opponent="2", **player(slash))
    assert "Bram: Hero reroll" in labels(clash)
    script(bot, 3, 5)
    damage = await slash.run("damage", dice="2d6", target="Gob", **gm(slash))
    assert len(buttons(damage)) == 2
    assert stored_views == []

    pressed = custom_id(attack, "Bram: Hero reroll")
    # The attack's hero reroll: 5 4 → 2 successes vs 1, a hit; damage d12 4, d10 2, d8 1.
    script(bot, 5, 4, 4, 2, 1)
    hit = await slash.click(attack, label="Bram: Hero reroll", **player(slash))
    assert "→ **Hit** by 1." in text(hit)
    assert (await fresh(bot, bram)).state.hero_points == 0
    assert await choice_count(bot) == 2  # the /damage roll's and this hit's
    assert any(label.startswith("d12 source") for label in labels(hit))
    # The same button again (a second device still showing it): refused, nothing spent.
    script(bot)
    again = await slash.click(custom_id=pressed, **player(slash))
    assert again.ephemeral and "already used" in (again.content or "")
    assert (await fresh(bot, bram)).state.hero_points == 0
    # A die choice on the edited reply: its custom_id is dispatched like the others.
    kept = await slash.click(hit, label=labels(hit)[-1], **player(slash))
    assert not kept.ephemeral
    assert stored_views == []
    assert_store_empty(bot)
    await dpytest.empty_queue()
