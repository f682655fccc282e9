"""Endless cleave in a tracked fight: "Melee weapons and bows have the endless cleave
feature" — a slaying blow with one grants an attack outside the action economy; an
unarmed or improvised kill does not (ruling cleave-weapons)."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import gm, player, players_turn, script, text
from tests.support.slash import SlashHarness

CLEAVE = "Tracker: one more attack this turn (endless cleave)."


@pytest.mark.parametrize(
    ("weapon", "faces", "cleaves"),
    [
        ("One-handed sword", (9, 9, 6), True),
        ("Longbow", (9, 9, 6), True),
        ("Unarmed", (9, 9, 2), False),
        ("Improvised one-handed", (9, 9, 4), False),
    ],
)
async def test_only_a_table_weapon_cleaves(
    bot: TableBot, slash: SlashHarness, weapon: str, faces: tuple[int, ...], cleaves: bool
) -> None:
    await players_turn(bot, slash)
    await slash.run("hp", target="Gob", change="set 0", **gm(slash))  # one more hit kills
    script(bot, *faces)
    said = text(await slash.run("attack", target="Gob", weapon=weapon, **player(slash)))
    assert "Gob: 0/15 HP → **-1/15 HP, dead**" in said, said
    assert (CLEAVE in said) is cleaves, said
    await dpytest.empty_queue()
