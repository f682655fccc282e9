"""/init react kind:defend and /attack's declared defenses, rend: and pin_prone: (rulings
defending-use, defending-roll, rending-reach, pin-tracked)."""

from __future__ import annotations

import json

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.attributes import Attribute
from bot.storage.twod10.characters import TwoD10Condition
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, table, text
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import stored
from tests.support.slash import SlashHarness

GOB_DEFENDS = (
    "Gob defends: 2d10 [4, 3] + 2 finesse defense − 5 attacker's bonus = **4**"
    " → flipped (20 − it): **16**."
)


async def declared_round(bot: TableBot, slash: SlashHarness) -> None:
    """Aria against Gob; Gob declares a finesse defense; then the players' turn."""
    await table(bot, slash)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Gob", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    said = await slash.run(
        "init react", kind="defend", name="Gob", attribute="finesse", **gm(slash)
    )
    assert said.content == "Gob declares a defense roll for finesse.", said.content
    script(bot, 1)  # the GM's d6: the players go first
    await slash.run("init next", **gm(slash))


async def gob_state(bot: TableBot, slash: SlashHarness):  # type: ignore[no-untyped-def]
    record = await stored(bot, slash.channel.id)
    [gob] = [c for c in record.encounter.combatants if c.name == "Gob"]
    return record.encounter.state(gob.id)


async def latest_log(bot: TableBot) -> dict:  # type: ignore[type-arg]
    async with bot.db.read() as conn:
        cur = await conn.execute("SELECT result FROM roll_log ORDER BY id DESC LIMIT 1")
        row = await cur.fetchone()
    return json.loads(row[0])


async def test_a_declared_defense_rolls_instead_of_the_attacker(
    bot: TableBot, slash: SlashHarness
) -> None:
    await declared_round(bot, slash)
    assert (await gob_state(bot, slash)).defending is Attribute.FINESSE
    # Aria's sword (strength 3 + melee 2 = 5) on Gob's finesse defense 2: Gob rolls
    # 4 + 3 + 2 − 5 = 4, flipped to 16: a success, the d8 up three categories to a d12.
    script(bot, 4, 3, 6)
    said = text(await slash.run("attack", target="Gob", weapon="One-handed sword", **player(slash)))
    assert GOB_DEFENDS in said, said
    assert "Rolled [6] + 2 weapon + 3 strength = 11" in said
    assert "Gob: 15/15 HP → **4/15 HP**" in said
    state = await gob_state(bot, slash)
    assert state.reaction_used  # the defense was Gob's one reaction this round
    logged = await latest_log(bot)
    assert logged["faces"] == [] and logged["total"] == 16
    assert logged["defended"] == {
        "faces": [4, 3], "dropped": None, "total": 4, "flipped": 16,
        "modifiers": [["finesse defense", 2], ["attacker's bonus", -5]],
    }  # fmt: skip
    await dpytest.empty_queue()


async def test_an_attack_on_another_attribute_leaves_the_defense_waiting(
    bot: TableBot, slash: SlashHarness
) -> None:
    await declared_round(bot, slash)
    # A trip on Gob's strength: Aria rolls herself, at the maneuver's disadvantage.
    script(bot, 5, 5, 9, 1)
    said = text(
        await slash.run("attack", target="Gob", weapon="One-handed sword", maneuver="trip",
                        defense="strength", **player(slash))
    )  # fmt: skip
    assert "defends" not in said and "2d10 (disadvantage) [5, 5, ~~9~~]" in said, said
    state = await gob_state(bot, slash)
    assert state.defending is Attribute.FINESSE and not state.reaction_used
    await dpytest.empty_queue()


async def test_a_defense_is_declared_only_at_the_round_start(
    bot: TableBot, slash: SlashHarness
) -> None:
    await declared_round(bot, slash)
    refused(
        await slash.run("init react", kind="defend", name="Gob", attribute="mind", **gm(slash)),
        "start of the round",
    )
    refused(await slash.run("init react", kind="defend", name="Gob", **gm(slash)), "`attribute`")
    await dpytest.empty_queue()


async def test_a_declared_defense_survives_a_restart(restart: Restart) -> None:
    await declared_round(restart.bot, restart.slash)
    bot, slash = await restart.restart()
    script(bot, 4, 3, 6)
    said = text(await slash.run("attack", target="Gob", weapon="One-handed sword", **player(slash)))
    assert GOB_DEFENDS in said, said


async def test_target_defends_outside_a_tracker(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    script(bot, 4, 3, 6)
    said = text(
        await slash.run("attack", target="Gob", weapon="One-handed sword",
                        situation="target defends", **player(slash))
    )  # fmt: skip
    assert GOB_DEFENDS in said, said


async def test_rending_a_living_foe_on_a_natural_twenty(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # Fists (brawl 2: 1d2): 20 + 3 + 2 − 2 = 23, a natural-20 hit up to a d12. Rending
    # 5 + 5 + 3 + 2 = 15 tears: a fourth d12 beside the die and the natural 20's two.
    script(bot, 10, 10, 5, 5, 1, 2, 3, 4)
    said = text(
        await slash.run("attack", target="Gob", weapon="Unarmed", rend=True, **player(slash))
    )
    assert (
        "Rending: 2d10 [5, 5] natural 10 + 3 strength + 2 brawl = **15**"
        " → torn: one more damage die."
    ) in said, said
    assert "Gob: 15/15 HP → **2/15 HP**" in said  # 1 + 2 + 3 + 4 + 3 strength = 13
    logged = await latest_log(bot)
    assert logged["rending"] == [
        {"living": True, "faces": [5, 5], "dropped": None, "total": 15, "succeeded": True}
    ]


async def test_rending_the_slain_for_a_weapon(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    # Sword: 6 + 5 + 5 − 2 = 14, a hit; d8 shows 4: 4 + 3 = 7 takes Gob to -6, dead.
    # Then the rending of the slain: 6 + 2 + 3 + 2 = 13.
    script(bot, 6, 5, 4, 6, 2)
    said = text(
        await slash.run("attack", target="Gob", weapon="One-handed sword", rend=True,
                        **player(slash))
    )  # fmt: skip
    assert (
        "Rending the slain: 2d10 [6, 2] natural 8 + 3 strength + 2 brawl = **13**"
        " → an improvised weapon, with an interact action."
    ) in said, said
    assert (await sheet(bot, "Gob")).has(TwoD10Condition.DEAD)


async def test_rend_refused_for_a_shot(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    script(bot)
    refused(
        await slash.run("attack", target="Gob", weapon="Longbow", rend=True, **player(slash)),
        "ranged or thrown attack can't",
    )
    assert (await sheet(bot, "Gob")).hp == 15


async def test_a_pin_forcing_the_target_prone_lays_both_down(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # Pin: 18 + 3 strength + 2 brawl − 2 = 21 (the third die dropped); the d2 shows 2.
    script(bot, 9, 9, 9, 2)
    said = text(
        await slash.run("attack", target="Gob", weapon="Unarmed", maneuver="pin",
                        pin_prone=True, **player(slash))
    )  # fmt: skip
    assert "Pin: pinned" in said, said
    assert (await sheet(bot, "Gob")).has(TwoD10Condition.PRONE)
    assert (await sheet(bot, "Aria")).has(TwoD10Condition.PRONE)
