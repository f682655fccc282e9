"""Disarms through the commands (ruling disarm-drops): a successful /attack disarm drops
the target's weapons in its sheet's order; /attack refuses a dropped weapon before any
die until /init act pick up spends the interact action; it survives a restart. A force
back is announced only (ruling force-back-positions)."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.storage.twod10.characters import TwoD10Kind
from cogs.twod10.combat_tracker import FORCE_BACK_NOTE
from tests.cogs.twod10.combat_helpers import gm, make, player, refused, script, store, table, text
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.support.slash import SlashHarness

SWORD_DROPPED = "Brute dropped their one-handed sword: pick it up first with /init act pick up."


async def brute_disarmed(bot: TableBot, slash: SlashHarness) -> None:
    """Aria against Brute (a sword and a light axe) on the players' turn, then
    the NPCs' turn after Aria's disarm: 18 + 5 − 2 = 21, two steps above 10."""
    await table(bot, slash)
    brute = make("Brute", finesse=1, finesse_defense=1, melee=1,
                 weapons=("One-handed sword", "Light axe"))  # fmt: skip
    await store(bot, brute, slash.members[0].id, TwoD10Kind.ANTAGONIST)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    script(bot, 1)  # the players go first
    await slash.run("init next", **gm(slash))
    script(bot, 9, 9, 9, 1)
    said = text(await slash.run("attack", target="Brute", maneuver="disarm", **player(slash)))
    # One item and two steps: the sword, the axe, and the one step left moves it 5 ft.
    assert (
        "Tracker: 🫳 Brute drops the one-handed sword and the light axe (the last moved 5 ft):"
        " /init act pick up takes an interact action."
    ) in said, said
    script(bot)
    await slash.run("init next", **gm(slash))
    await slash.run("init next", **gm(slash))  # the NPCs' turn


async def brute_attacks(slash: SlashHarness, weapon: str):  # type: ignore[no-untyped-def]
    return await slash.run("attack", character="Brute", target="Aria", weapon=weapon, **gm(slash))


async def test_a_dropped_weapon_waits_to_be_picked_up(bot: TableBot, slash: SlashHarness) -> None:
    await brute_disarmed(bot, slash)
    assert await tracker_line(bot, slash, "Brute") == (
        "**Brute** (finesse +1) · 🫳 dropped: One-handed sword, Light axe"  # NPC HP hidden
    )
    scripted = script(bot, 5, 5, 3)
    refused(await brute_attacks(slash, "One-handed sword"), SWORD_DROPPED)
    refused(await brute_attacks(slash, "Light axe"),
            "Brute dropped their light axe: pick it up first with /init act pick up.")  # fmt: skip
    assert scripted.requests == []
    picked = await slash.run("init act", action="pick up", name="Brute", **gm(slash))
    assert picked.content == "Brute picks up the one-handed sword (interact action)."
    refused(await slash.run("init act", action="pick up", name="Brute", **gm(slash)),
            "Brute has already used their interact this turn.")  # fmt: skip
    assert await tracker_line(bot, slash, "Brute") == (
        "**Brute** (finesse +1) · ✋ interact · 🫳 dropped: Light axe"
    )
    script(bot, 5, 5, 3)
    assert not (await brute_attacks(slash, "One-handed sword")).ephemeral
    await dpytest.empty_queue()


async def test_nothing_dropped_is_nothing_to_pick_up(bot: TableBot, slash: SlashHarness) -> None:
    await brute_disarmed(bot, slash)
    before = await stored(bot, slash.channel.id)
    refused(await slash.run("init act", action="pick up", name="Aria", **player(slash)),
            "Aria has dropped no weapon: there is nothing to pick up.")  # fmt: skip
    assert (await stored(bot, slash.channel.id)).version == before.version
    await dpytest.empty_queue()


async def test_a_dropped_weapon_stays_dropped_across_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await brute_disarmed(first, slash)

    second, again = await restart.restart()
    scripted = script(second, 5, 5, 3)
    refused(await brute_attacks(again, "One-handed sword"), SWORD_DROPPED)
    assert scripted.requests == []
    record = await stored(second, again.channel.id)
    [brute] = [c for c in record.encounter.combatants if c.name == "Brute"]
    assert brute.dropped == ("One-handed sword", "Light axe")


async def test_a_force_back_is_announced_and_spends_no_movement(
    bot: TableBot, slash: SlashHarness
) -> None:
    await brute_disarmed(bot, slash)
    # On the NPCs' turn Aria pushes Brute back (as a reaction): mind defense 0.
    script(bot, 9, 9, 9, 1)
    said = text(await slash.run("attack", target="Brute", maneuver="force back", **player(slash)))
    assert FORCE_BACK_NOTE in said, said
    record = await stored(bot, slash.channel.id)
    [brute] = [c.id for c in record.encounter.combatants if c.name == "Brute"]
    assert record.encounter.state(brute).feet_moved == 0
    await dpytest.empty_queue()
