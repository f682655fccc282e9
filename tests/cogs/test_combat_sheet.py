"""/character weapon, defenses and wounds, and the sheet embed showing them."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.wounds import InjuryKind, WoundKind
from tests.cogs.test_character_helpers import fields, stored
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


async def test_weapons_are_added_replaced_and_removed(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram")
    await arm(slash, player(slash), "Bram", "Greatsword", "1d12", damage_type="slash")
    added = await slash.run(
        "character weapon add", weapon="Longbow", dice="1d8", kind="ranged",
        damage_type="pierce", name="Bram", **player(slash),
    )  # fmt: skip
    assert "Weapon Longbow: — → 1d8 pierce, ranged" in (added.content or "")
    bram = await stored(bot, "Bram")
    assert bram is not None
    assert [w.name for w in bram.details.weapons] == ["Greatsword", "Longbow"]
    bow = bram.details.weapon("longbow")
    assert bow is not None and bow.kind is AttackKind.RANGED and bow.types == (DamageType.PIERCE,)
    replaced = await slash.run(
        "character weapon add", weapon="greatsword", dice="2d6", lethal=False, **player(slash)
    )
    assert "1d12 slash, melee → 2d6 physical, melee, non-lethal" in (replaced.content or "")
    shown = await slash.run("character show", name="Bram", **player(slash))
    assert "greatsword: 2d6 physical, melee, non-lethal" in fields(shown)["Weapons"]
    removed = await slash.run("character weapon remove", weapon="LONGBOW", **player(slash))
    assert "removed" in (removed.content or "")
    bram = await stored(bot, "Bram")
    assert bram is not None and [w.name for w in bram.details.weapons] == ["greatsword"]
    await dpytest.empty_queue()


async def test_weapon_refusals(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram")
    await npc(slash, "Gob")
    refused(
        await slash.run(
            "character weapon add", weapon="Axe", dice="1d7", name="Bram", **player(slash)
        ),
        "d4, d6",
    )
    refused(
        await slash.run(
            "character weapon add", weapon="Axe", dice="1d8+2", name="Bram", **player(slash)
        ),
        "without a bonus",
    )
    refused(
        await slash.run(
            "character weapon add", weapon="Axe", dice="1d8", name="Gob", **player(slash)
        ),
        "isn't yours",
    )
    refused(
        await slash.run("character weapon remove", weapon="Axe", name="Bram", **player(slash)),
        "no weapon called",
    )
    bram = await stored(bot, "Bram")
    assert bram is not None and bram.details.weapons == ()
    await dpytest.empty_queue()


async def test_defenses_and_speed(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram")
    result = await slash.run(
        "character defenses", resistances="fire, cold", weaknesses="holy", speed=25,
        name="Bram", **player(slash),
    )  # fmt: skip
    assert "Resistances: none → fire, cold" in (result.content or "")
    assert "Speed: 30 → 25" in (result.content or "")
    bram = await stored(bot, "Bram")
    assert bram is not None
    assert bram.details.resistances == (DamageType.FIRE, DamageType.COLD)
    assert bram.details.weaknesses == (DamageType.HOLY,) and bram.details.speed == 25
    shown = await slash.run("character show", name="Bram", **player(slash))
    assert fields(shown)["Defenses"] == "Resistant: fire, cold · Weak: holy"
    cleared = await slash.run("character defenses", resistances="-", name="Bram", **player(slash))
    assert "fire, cold → none" in (cleared.content or "")
    refused(
        await slash.run("character defenses", immunities="lava", name="Bram", **player(slash)),
        "not a damage type",
    )
    refused(await slash.run("character defenses", name="Bram", **player(slash)), "Nothing")
    await dpytest.empty_queue()


async def test_gm_adds_lists_and_heals_wounds(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram")  # STR 3: 12 HP
    script(bot, 2, 3)  # the recovery roll 2d4
    added = await slash.run("character wounds add", wound="max hp -4", name="Bram", **gm(slash))
    assert "Wound added." in (added.content or "")
    assert "maximum HP 8" in text(added)
    bram = await combat_state(bot, "Bram")
    assert [w.kind for w in bram.wounds] == [WoundKind.MAX_HP_MINUS_4]
    assert bram.wounds[0].recovery_days == 9
    assert bram.vitals.hp == 8 and Condition.WOUNDED in bram.vitals.conditions
    script(bot, 1, 1)
    await slash.run("character wounds add", wound="internal bleeding", name="Bram", **gm(slash))
    listed = await slash.run("character wounds list", name="Bram", **player(slash, 2))
    assert "1. **Wound**" in text(listed) and "2. **Injury: internal bleeding**" in text(listed)
    healed = await slash.run("character wounds heal", number=1, name="Bram", **gm(slash))
    assert "healed" in (healed.content or "") and "maximum HP 12" in text(healed)
    bram = await combat_state(bot, "Bram")
    assert [w.kind for w in bram.wounds] == [InjuryKind.INTERNAL_BLEEDING]
    assert bram.vitals.hp == 8  # healing a wound doesn't heal hit points
    refused(
        await slash.run("character wounds heal", number=1, name="Bram", **player(slash)),
        "Only the GM",
    )
    refused(
        await slash.run("character wounds heal", number=5, name="Bram", **gm(slash)),
        "has 1 wounds",
    )
    refused(
        await slash.run("character wounds add", wound="papercut", name="Bram", **gm(slash)),
        "no such wound",
    )
    await dpytest.empty_queue()


async def test_three_wounds_kill_a_strength_3_character(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram")
    for _ in range(3):
        script(bot, 1, 1)
        result = await slash.run(
            "character wounds add", wound="speed -10", name="Bram", **gm(slash)
        )
    assert "**Bram dies**" in (result.content or "")
    assert Condition.DEAD in (await combat_state(bot, "Bram")).vitals.conditions
    await dpytest.empty_queue()


async def test_wound_autocomplete(bot: TableBot, slash: SlashHarness) -> None:
    choices = await slash.autocomplete("character wounds add", "wound", "broken")
    assert [c["value"] for c in choices] == [
        "broken bone (arm)",
        "broken bone (leg)",
        "broken bone (torso)",
    ]
    await dpytest.empty_queue()
