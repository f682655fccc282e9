"""/attack: permissions, refusals, modifiers from conditions and options."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.test_combat_helpers import (
    arm,
    choice_count,
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


async def setup_duel(slash: SlashHarness) -> None:
    await pc(slash, "Bram", strength=3, agility=2)
    await arm(slash, player(slash), "Bram", "Greatsword", "1d12", damage_type="slash")
    await npc(slash, "Gob", strength=2, agility=2)  # 10 HP


async def test_a_player_cannot_attack_with_someone_elses_character(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    script(bot)  # nothing may be rolled
    result = await slash.run("attack", target="Gob", character="Bram", **player(slash, 2))
    refused(result, "isn't yours")
    assert (await combat_state(bot, "Gob")).vitals.hp == 10
    assert await choice_count(bot) == 0
    await dpytest.empty_queue()


async def test_refusals_write_nothing(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    await pc(slash, "Unarmed", number=2)
    script(bot)
    refused(await slash.run("attack", target="Nobody", **player(slash)), "no character called")
    refused(await slash.run("attack", target="Bram", **player(slash)), "can't attack itself")
    refused(await slash.run("attack", target="Gob", **player(slash, 2)), "no weapons")
    refused(
        await slash.run("attack", target="Gob", weapon="Axe", **player(slash)),
        "no weapon called",
    )
    refused(await slash.run("attack", target="Gob", weapon="1d7x", **player(slash)), "1d12")
    refused(
        await slash.run("attack", target="Gob", skill="Medicine", **player(slash)),
        "special skill",
    )
    assert (await combat_state(bot, "Gob")).vitals.hp == 10
    assert await choice_count(bot) == 0
    await dpytest.empty_queue()


async def test_miss_with_counter_for_the_defender(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    script(bot, 1, 2, 5, 6)
    result = await slash.run("attack", target="Gob", **player(slash))
    body = text(result)
    assert "→ **Miss**: Gob defends by 2." in body and "**counter**" in body
    # No damage to choose after a miss: only each side's spend buttons (determination).
    assert [c["label"] for row in result.components for c in row["components"]] == [
        "Bram: Spend determination",
        "Gob: Spend determination",
    ]
    assert (await combat_state(bot, "Gob")).vitals.hp == 10
    await dpytest.empty_queue()


async def test_flanked_target_and_fatigued_attacker(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    await slash.run("condition add", target="Gob", condition="flanked", **gm(slash))
    await slash.run("condition add", target="Bram", condition="fatigued", value=2, **gm(slash))
    # 1 boon − 2 banes = 1 bane: 2 − 1 = 1 die; the attacker wins the tie (1 vs 1).
    script(bot, 4, 5, 1, 1, 1, 1)
    result = await slash.run("attack", target="Gob", **player(slash))
    body = text(result)
    assert "1 boon (flanked), 2 banes (fatigued)" in body
    assert "(the attacker wins ties)" in body
    assert (await combat_state(bot, "Gob")).vitals.hp == 9
    await dpytest.empty_queue()


async def test_typed_dice_ranged_nonlethal_with_tempo(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    # Ranged: ranged combat (AGI 2) vs defense; 2 successes to 0: advantage, tempo.
    # Pool: d8 source + AGI d6 (no lethality die); d8 7, d6 2.
    script(bot, 6, 6, 1, 1, 7, 2)
    result = await slash.run(
        "attack", target="Gob", weapon="1d8", kind="ranged", lethal=False,
        advantage="tempo", damage_type="pierce", **player(slash),
    )  # fmt: skip
    body = text(result)
    assert "Ranged Combat (AGI 2)" in body and "tempo" in body
    assert "d8 source, d6 attribute — pierce, non-lethal" in body
    state = await combat_state(bot, "Gob")
    assert (state.vitals.hp, state.vitals.nonlethal) == (3, 7)
    await dpytest.empty_queue()


async def test_larger_target_gives_focus(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    await npc(slash, "Ogre", size="large")
    script(bot, 3, 2, 4, 1, 1, 1, 1)  # the 3 becomes a success with the focus
    result = await slash.run("attack", target="Ogre", **player(slash))
    body = text(result)
    assert "1 focus (larger target)" in body and "→ **Hit** by 0" in body
    await dpytest.empty_queue()


async def test_prefix_attack_replies_without_pinging(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    await slash.run("character select", name="Bram", **player(slash))
    script(bot, 5, 2, 3, 1, 4, 2, 1)
    await dpytest.message("!attack Gob", member=slash.members[1])
    reply = dpytest.get_message()
    assert reply.embeds and "HP 10 → **6**" in (reply.embeds[0].description or "")
    assert bot.sent_payloads[-1]["allowed_mentions"]["parse"] == []  # type: ignore[attr-defined]
    await dpytest.empty_queue()
