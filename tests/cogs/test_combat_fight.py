"""A whole fight between two sheets through /attack: threshold, wound, death.

Every reply is checked against what is stored afterwards.
"""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.wounds import WoundKind
from tests.cogs.test_combat_helpers import (
    arm,
    combat_state,
    gm,
    npc,
    pc,
    player,
    refused,
    script,
    text,
)
from tests.support.slash import SlashHarness


async def test_a_fight_to_the_death(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram", strength=3, agility=2, mind=2, presence=1)  # 12 HP
    await arm(slash, player(slash), "Bram", "Greatsword", "1d12", damage_type="slash")
    await npc(slash, "Gob", strength=3, agility=2, mind=1, presence=1, armor=1)  # 12 HP, −6
    await arm(slash, gm(slash), "Gob", "Claws", "1d6", damage_type="pierce")

    # 1. Bram hits by 1: d12 9 + 1 (the d8 at its maximum) = 10, −1 toughness → Gob 3.
    script(bot, 5, 2, 3, 1, 9, 3, 8)
    one = await slash.run("attack", target="Gob", **player(slash))
    body = text(one)
    assert "→ **Hit** by 1" in body and "**10 damage**" in body
    assert "HP 12 → **3**" in body and "Wound check" not in body
    assert (await combat_state(bot, "Gob")).vitals.hp == 3

    # 2. Gob (the GM acting for it) claws Bram for 3.
    script(bot, 4, 1, 2, 2, 3, 2, 1)
    two = await slash.run("attack", target="Bram", character="Gob", **gm(slash))
    assert "HP 12 → **9**" in text(two)
    assert (await combat_state(bot, "Bram")).vitals.hp == 9

    # 3. Bram hits for 4 − 1 = 3: Gob at 0, threshold test vs 3 with physique: 3 successes.
    script(bot, 5, 1, 2, 2, 4, 2, 1, 6, 5, 4)
    three = await slash.run("attack", target="Gob", **player(slash))
    body = text(three)
    assert "HP 3 → **0**" in body
    assert "**Threshold test**" in body and "Physique" in body and "→ **staggered**" in body
    gob = await combat_state(bot, "Gob")
    assert gob.vitals.hp == 0 and Condition.STAGGERED in gob.vitals.conditions

    # 4. The GM gives Gob 8 temporary HP. Staggered, Gob defends with one die less; Bram
    # wins by 2 (impact d8). d12 10 explodes 1 → 11 − 1 = 10 received, 8 absorbed → −2:
    # threshold test vs 10 with 2 dice fails by 10 → dying; 10 damage → wound check 8 →
    # wounds table 2: maximum HP −2, recovery 2d4 (1, 1) + 4.
    temp = await slash.run("hp", target="Gob", change="temp 8", **gm(slash))
    assert not temp.ephemeral
    script(bot, 6, 5, 1, 10, 2, 3, 1, 1, 1, 1, 8, 2, 1, 1)
    four = await slash.run("attack", target="Gob", **player(slash))
    body = text(four)
    assert "2 banes (staggered)" in body
    assert "→ **Hit** by 2" in body and "impact: +1d8" in body
    assert "d12 source, d10 lethality, d8 attribute, d8 impact" in body
    assert "10 + 1 = 11" in body and "**10** received" in body
    assert "temporary HP absorb 8" in body and "HP 0 → **-2**" in body
    assert "**unconscious and dying**" in body
    assert "**Wound check** (10+ damage): d10 **8**" in body
    assert "Maximum hit points reduced by 2. (recovery 1 + 1 + 4 = 6 days" in body
    gob = await combat_state(bot, "Gob")
    assert (gob.vitals.hp, gob.vitals.temp_hp) == (-2, 0)
    assert {Condition.UNCONSCIOUS, Condition.DYING, Condition.WOUNDED} <= set(gob.vitals.conditions)
    assert [w.kind for w in gob.wounds] == [WoundKind.MAX_HP_MINUS_2]
    assert gob.combatant.max_hp == 10
    assert "−2/10 HP" in body or "-2/10 HP" in body

    # 5. Unconscious means defenseless: no clash, a combat advantage, 6 − 1 = 5 → −7: dead.
    script(bot, 6, 2, 2, 1)
    five = await slash.run("attack", target="Gob", **player(slash))
    body = text(five)
    assert "defenseless" in body and "Round" not in body
    assert "HP -2 → **-7**" in body and "**Gob dies**" in body
    gob = await combat_state(bot, "Gob")
    assert gob.vitals.hp == -7 and Condition.DEAD in gob.vitals.conditions
    assert len(gob.wounds) == 1

    # Nothing more to do to Gob; Bram's state matches what the replies said.
    script(bot)
    again = await slash.run("attack", target="Gob", **player(slash))
    refused(again, "already dead")
    # As the GM: NPC conditions are hidden from players (tests/cogs/test_hidden_npc_state.py).
    listed = await slash.run("condition list", target="Gob", **gm(slash))
    assert "**dead**" in text(listed) and "**wounded**" in text(listed)
    bram = await combat_state(bot, "Bram")
    assert bram.vitals.hp == 9 and not len(bram.vitals.conditions)
    await dpytest.empty_queue()
