"""Ammo in a 2d10 guild: a ranged /attack's rolled 1 spends a point in the attack's own
transaction, an empty quiver refuses the shot, thrown weapons use none, the GM sets the
quivers, scavenging finds half the spent points (ruling scavenge-gain)."""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.ammo import TwoD10AmmoRepository
from bot.storage.twod10.characters import TwoD10Kind
from tests.cogs.twod10.combat_helpers import gm, make, player, script, store, twod10
from tests.cogs.twod10.helpers import refused, text
from tests.support.slash import SlashHarness


@pytest.fixture(autouse=True)
async def archery(bot: TableBot, slash: SlashHarness) -> None:
    """Ara (finesse 2, ranged 1, a shortbow and a thrown polearm) and Gob (defense 0)."""
    await twod10(slash)
    ara = make("Ara", finesse=2, ranged=1, weapons=("Shortbow", "Light polearm"))
    await store(bot, ara, slash.members[1].id)
    await store(bot, make("Gob"), slash.members[0].id, TwoD10Kind.ANTAGONIST)


async def ammo(bot: TableBot) -> tuple[int, int, int] | None:
    async with bot.db.read() as conn:
        sheets = await conn.execute_fetchall("SELECT id FROM twod10_characters WHERE name='Ara'")
        row = await TwoD10AmmoRepository(conn).get(bot.guilds[0].id, sheets[0][0])
    return None if row is None else (row.state.points, row.state.quivers, row.state.spent)


async def shoot(slash: SlashHarness, **extra: object) -> str:
    return text(await slash.run("attack", target="Gob", **extra, **player(slash)))


async def test_untracked_ammo_is_never_refused_and_a_one_is_only_noted(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 1, 9, 3, 3, 3)
    body = await shoot(slash)
    assert "A 1 was rolled: Ara's ammo isn't tracked (the GM: /ammo set)." in body
    assert await ammo(bot) is None
    shown = await slash.run("ammo show", **player(slash))
    assert text(shown) == "Ara's ammo isn't tracked yet: the GM sets it with /ammo set."
    await dpytest.empty_queue()


async def test_a_rolled_one_spends_a_point_and_an_empty_quiver_refuses_the_shot(
    bot: TableBot, slash: SlashHarness
) -> None:
    refused(await slash.run("ammo set", quivers=1, **player(slash)), "Only the GM")
    done = await slash.run("ammo set", quivers=1, character="Ara", **gm(slash))
    assert text(done) == (
        "Ara: 2/2 ammo points in 1 quiver or pouch (20 arrows or bullets);"
        " 0 spent since the last scavenge."
    )
    script(bot, 5, 6, 3, 3, 3)  # no 1: nothing spent
    assert "ammo" not in await shoot(slash)
    assert await ammo(bot) == (2, 1, 0)
    script(bot, 1, 9, 3, 3, 3)  # a 1 on a kept die: one point
    assert "A 1 was rolled: one ammo point spent (1/2 left)." in await shoot(slash)
    assert await ammo(bot) == (1, 1, 1)
    script(bot, 1, 1)  # a natural 2 misses, and both 1s still cost one point only
    body = await shoot(slash)
    assert "**Natural 2**" in body and "one ammo point spent (0/2 left)" in body
    assert await ammo(bot) == (0, 1, 2)
    gob_before = text(await slash.run("character show", name="Gob", **gm(slash)))
    script(bot, 9, 9, 3, 3, 3)
    refused(
        await slash.run("attack", target="Gob", **player(slash)),
        "Ara has no ammo points left: /ammo scavenge, or the GM restocks with /ammo set.",
    )
    assert text(await slash.run("character show", name="Gob", **gm(slash))) == gob_before
    # A thrown weapon uses no ammo points.
    script(bot, 1, 9, 3, 3, 3)
    body = await shoot(slash, weapon="Light polearm", thrown=True)
    assert "ammo" not in body and await ammo(bot) == (0, 1, 2)
    await dpytest.empty_queue()


async def test_scavenging_finds_half_the_spent_points_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("ammo set", quivers=2, points=1, spent=3, character="Ara", **gm(slash))
    refused(await slash.run("ammo scavenge", character="Ara", **player(slash, 2)), "isn't yours")
    # One turn: the d10 finds on 1 or less (turns 1; the higher of 2 and perception 0 is 2).
    script(bot, 1)
    found = text(await slash.run("ammo scavenge", **player(slash)))
    assert "scavenges for 1 turn: d10 **1** (finds on 1 or less: 1 turn, the higher" in found
    assert "Found half the 3 spent: +2 ammo points." in found  # 3 / 2, rounded up
    assert "3/4 ammo points in 2 quivers or pouches (30 arrows or bullets)" in found
    assert await ammo(bot) == (3, 2, 0)
    refused(await slash.run("ammo scavenge", **player(slash)),
            "No ammo has been spent since the last scavenge")  # fmt: skip
    # Three turns still cap the chance at 2 (perception 0): a 3 finds nothing, the lot is gone.
    await slash.run("ammo set", quivers=2, points=3, spent=2, character="Ara", **gm(slash))
    script(bot, 3)
    lost = text(await slash.run("ammo scavenge", turns=3, **player(slash)))
    assert "scavenges for 3 turns: d10 **3** (finds on 2 or less: 3 turns," in lost
    assert "Nothing found; the 2 spent points are lost." in lost
    await slash.run("ammo set", quivers=2, points=3, spent=1, character="Ara", **gm(slash))
    script(bot, 9)
    lost = text(await slash.run("ammo scavenge", **player(slash)))
    assert "Nothing found; the 1 spent point is lost." in lost
    assert await ammo(bot) == (3, 2, 0)
    # Found points beyond the quivers' room are left behind.
    await slash.run("ammo set", quivers=2, points=4, spent=2, character="Ara", **gm(slash))
    await slash.run("ammo set", quivers=2, points=3, character="Ara", **gm(slash))
    script(bot, 2)
    full = text(await slash.run("ammo scavenge", turns=2, **player(slash)))
    assert "+1 ammo point." in full and "left behind" not in full
    assert await ammo(bot) == (4, 2, 0)
    # Half of 4 found with room for 1: 1 kept, 1 left behind; with no room, both.
    for points, kept, behind in ((3, "+1 ammo point.", "1 point left"), (4, "+0 ammo points.",
                                 "2 points left")):  # fmt: skip
        await slash.run("ammo set", quivers=2, points=points, spent=4, character="Ara", **gm(slash))
        script(bot, 1)
        full = text(await slash.run("ammo scavenge", **player(slash)))
        assert f"Found half the 4 spent: {kept}" in full, full
        assert f"{behind} behind: no room in a quiver." in full, full
    await dpytest.empty_queue()


async def test_two_shots_at_once_with_one_point_spend_it_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("ammo set", quivers=1, points=1, character="Ara", **gm(slash))
    script(bot, 1, 1, 1, 1)  # natural 2s: each shot rolls two d10s and no damage
    first = len(slash.responses)
    await asyncio.gather(*(slash.run("attack", target="Gob", **player(slash)) for _ in range(2)))
    answers = [r for r in slash.responses[first:] if r.kind == "callback" and r.type == 4]
    assert sorted(bool(r.ephemeral) for r in answers) == [False, True]
    assert await ammo(bot) == (0, 1, 1)
    await dpytest.empty_queue()


async def logged_ammo(bot: TableBot) -> list[object]:
    async with bot.db.read() as conn:
        rows = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=10)
    return [r.result["ammo"] for r in reversed(rows) if r.kind == "2d10-attack"]


async def test_each_attacks_roll_log_entry_records_its_ammo(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 1, 9, 3, 3, 3)  # untracked: a 1 noted, nothing spent, nothing counted
    await shoot(slash)
    await slash.run("ammo set", quivers=1, character="Ara", **gm(slash))
    script(bot, 5, 6, 3, 3, 3)  # no 1: nothing spent, 2 left
    await shoot(slash)
    script(bot, 1, 9, 3, 3, 3)  # a 1: one point, 1 left
    await shoot(slash)
    script(bot, 9, 9, 3, 3, 3)  # the polearm thrown: no ammo at all
    await shoot(slash, weapon="Light polearm", thrown=True)
    assert await logged_ammo(bot) == [
        {"spent": 0, "left": None},
        {"spent": 0, "left": 2},
        {"spent": 1, "left": 1},
        None,
    ]
    await dpytest.empty_queue()
