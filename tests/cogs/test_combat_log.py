"""/attack and /damage go to the roll log, in the same transaction as the hit."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_character_helpers import stored
from tests.cogs.test_combat_helpers import npc, player, script
from tests.support.slash import SlashHarness


async def logged(bot: TableBot) -> list[LoggedRoll]:
    async with bot.db.read() as conn:
        return await RollLogRepository(conn).recent(bot.guilds[0].id)


async def test_an_attack_is_logged_with_every_step(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    bram = await stored(bot, "Bram")
    assert bram is not None
    # Ranged: 2 successes to 0, tempo; d8 source 7, AGI d6 2: 7 non-lethal received.
    script(bot, 6, 6, 1, 1, 7, 2)
    result = await slash.run(
        "attack", target="Gob", weapon="1d8", kind="ranged", lethal=False,
        advantage="tempo", **player(slash),
    )  # fmt: skip
    [entry] = await logged(bot)
    assert (entry.kind, entry.total, entry.character_id) == ("attack", 7, bram.id)
    assert entry.expression == "attack Bram → Gob (1d8): 7 received"
    assert entry.message_id == result.message.message_id
    data = entry.result
    assert data["attack"]["clash"]["winner"] == "a" and data["attack"]["advantage"] == "tempo"
    assert data["damage"]["amount"] == 7 and data["damage"]["inputs"]["rolled"]
    assert data["hit"]["after"]["nonlethal"] == 7 and data["hit"]["application"]["hp_lost"] == 7
    # A miss is logged too, with total 0.
    script(bot, 1, 2, 5, 6)
    await slash.run("attack", target="Gob", **player(slash))
    miss = (await logged(bot))[0]
    assert (miss.kind, miss.total) == ("attack", 0) and miss.expression.endswith(": miss")
    assert miss.result["hit"] is None and miss.result["attack"]["hit"] is False
    await dpytest.empty_queue()


async def test_a_damage_roll_is_logged_and_kept_up_to_date(
    bot: TableBot, slash: SlashHarness
) -> None:
    await npc(slash, "Gob")  # 12 HP, armor 0
    script(bot, 4, 7, 4, 3)
    result = await slash.run("damage", dice="1d10 1d8 2d6", target="Gob", **player(slash))
    [entry] = await logged(bot)
    assert (entry.kind, entry.total, entry.character_id) == ("damage", 7, None)
    assert entry.expression == "damage 1d10 + 1d8 + 2d6 → Gob: 7"
    assert entry.result["hit"]["after"]["hp"] == 5
    script(bot)
    await slash.click(result, label="d10 source: 4", **player(slash))
    [entry] = await logged(bot)
    assert entry.total == 4 and entry.result["changes"] == [{"kept": 0}]
    assert entry.result["damage"]["kept"]["chosen_index"] == 0
    assert entry.result["hit"]["after"]["hp"] == 8
    # Without a target: the damage rolled.
    script(bot, 5)
    await slash.run("damage", dice="1d6", **player(slash))
    roll = (await logged(bot))[0]
    assert (roll.kind, roll.total, roll.result["hit"]) == ("damage", 5, None)
    await dpytest.empty_queue()
