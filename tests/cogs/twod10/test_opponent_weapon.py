"""/attack weapon:Opponent (rulings opponent-weapon-rounds, -size, -damage): a won use as
weapon holds the opponent on the tracker; swinging it deals improvised 1d8-class damage and
the opponent swung takes half."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.initiative.holds import held_by
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, table, text
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.cogs.twod10.turn_support import next_players_turn
from tests.support.slash import SlashHarness


async def hold_gob(bot: TableBot, slash: SlashHarness) -> str:
    """Aria, Gob and the Knight; on the players' turn Aria wins a use as weapon on Gob."""
    await table(bot, slash)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Gob", **gm(slash))
    await slash.run("init add", name="Knight", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    script(bot, 1)  # the GM's d6: the players go first
    await slash.run("init next", **gm(slash))
    # Disadvantage (the maneuver): 5 + 6, the 9 dropped; + 3 strength + 2 brawl − 2 = 14:
    # two steps of 2 points, three rounds. The fists' d2 shows 2.
    script(bot, 5, 6, 9, 2)
    return text(
        await slash.run("attack", target="Gob", weapon="Unarmed", maneuver="use as weapon",
                        **player(slash))
    )  # fmt: skip


async def test_a_held_opponent_is_swung_and_takes_half(bot: TableBot, slash: SlashHarness) -> None:
    said = await hold_gob(bot, slash)
    assert (
        "Tracker: Aria wields Gob as a weapon through round 4 (/attack weapon:Opponent)."
    ) in said, said
    gob_hp = (await sheet(bot, "Gob")).hp
    assert "🤼 wielding Gob through round 4" in await tracker_line(bot, slash, "Aria")
    assert "🤼 wielded by Aria" in await tracker_line(bot, slash, "Gob")
    await next_players_turn(bot, slash)
    # Gob swung at the Knight (defense 1): 8 + 8 + 3 + 2 − 1 = 20, +5 categories from the
    # opponent's 1d8 (two-handed 1d6, one larger, one more at brawl 2: 1d10) to the d12 cap.
    script(bot, 8, 8, 12)
    result = await slash.run("attack", target="Knight", weapon="Opponent", **player(slash))
    assert result.embeds[0]["title"] == "Aria attacks Knight — Opponent Gob"
    swung = text(result)
    knight = await sheet(bot, "Knight")
    dealt = 25 - knight.hp
    assert dealt == 12 + 3 - 7  # the d12, strength 3, less the Knight's reduction 7
    gob = await sheet(bot, "Gob")
    assert gob.hp == gob_hp - dealt // 2
    assert f"Gob, swung as a weapon, takes half: {dealt // 2} damage" in swung, swung
    await dpytest.empty_queue()


async def test_nobody_held_nobody_swung(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    script(bot)
    refused(
        await slash.run("attack", target="Gob", weapon="Opponent", **player(slash)),
        "holds nobody as a weapon",
    )


async def test_a_held_opponent_cant_be_swung_at_itself(bot: TableBot, slash: SlashHarness) -> None:
    await hold_gob(bot, slash)
    await next_players_turn(bot, slash)
    before = await stored(bot, slash.channel.id)
    refused(
        await slash.run("attack", target="Gob", weapon="Opponent", **player(slash)),
        "can't be swung at itself",
    )
    assert (await stored(bot, slash.channel.id)).version == before.version
    await dpytest.empty_queue()


async def test_the_hold_ends_after_its_rounds(bot: TableBot, slash: SlashHarness) -> None:
    await hold_gob(bot, slash)
    for _ in range(4):  # rounds 2, 3 and 4 hold Gob; round 5 doesn't
        await next_players_turn(bot, slash)
    refused(
        await slash.run("attack", target="Knight", weapon="Opponent", **player(slash)),
        "holds nobody",
    )
    await dpytest.empty_queue()


async def test_the_hold_survives_a_restart(restart: Restart) -> None:
    await hold_gob(restart.bot, restart.slash)
    bot, slash = await restart.restart()
    enc = (await stored(bot, slash.channel.id)).encounter
    [aria] = [c for c in enc.combatants if c.name == "Aria"]
    held = held_by(enc, aria.id)
    assert held is not None and held.name == "Gob" and aria.hold_until == 4
