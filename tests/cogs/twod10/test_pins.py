"""Pins through the commands (rulings pin-tracked, pin-ends): a successful /attack pin
holds the target on the tracker, which refuses its movement until it damages its pinner;
the pinner lets go with /init act release; going down ends it; it survives a restart."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from cogs.twod10.combat_tracker import TrackerView
from tests.cogs.twod10.combat_helpers import gm, player, players_turn, refused, script, sheet, text
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.support.slash import SlashHarness

PINNED = "Gob is pinned by Aria and can't move until they damage Aria."
PIN_NOTE = (
    "Tracker: 📌 Aria pins Gob: Gob can't move until they damage Aria; their attacks have"
    " disadvantage, Aria's on them advantage."
)


async def pin_gob(bot: TableBot, slash: SlashHarness) -> None:
    """On the players' turn Aria pins Gob: 18 + 3 strength + 2 brawl − 2 = 21, d8 shows 2."""
    await players_turn(bot, slash)
    script(bot, 9, 9, 9, 2)
    said = text(
        await slash.run("attack", target="Gob", weapon="Unarmed", maneuver="pin", **player(slash))
    )
    assert PIN_NOTE in said, said


async def npcs_turn(bot: TableBot, slash: SlashHarness) -> None:
    script(bot)
    await slash.run("init next", **gm(slash))  # end of the players' turn
    await slash.run("init next", **gm(slash))  # the NPCs' turn


async def test_the_pinned_cant_move_until_it_damages_its_pinner(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pin_gob(bot, slash)
    assert await tracker_line(bot, slash, "Gob") == (
        "**Gob** (finesse +1) · 📌 pinned by Aria"  # an NPC: its HP hidden by default
    )
    assert await tracker_line(bot, slash, "Aria") == (
        "**Aria** (finesse +2) · HP 15/15 · ⚔️ attack · 🎒 moves 25 ft · 📌 pinning Gob"
    )
    aria, gob = await sheet(bot, "Aria"), await sheet(bot, "Gob")
    view = TrackerView(record=await stored(bot, slash.channel.id))
    assert view.pin_flags(gob.id, aria.id) == (True, False)  # Gob: disadvantage
    assert view.pin_flags(aria.id, gob.id) == (False, True)  # Aria on Gob: advantage
    await npcs_turn(bot, slash)
    before = await stored(bot, slash.channel.id)
    for options in ({"action": "movement"}, {"action": "movement", "feet": 5},
                    {"action": "dash"}, {"action": "disengage"}):  # fmt: skip
        refused(await slash.run("init act", name="Gob", **options, **gm(slash)), PINNED)
    assert (await stored(bot, slash.channel.id)).version == before.version
    # Gob hits back at the disadvantage the tracker's pin gives (3d10, the 9 dropped):
    # 8 + 8 + 0 − 2 = 14; unarmed brawl 0 deals 1.
    script(bot, 8, 8, 9, 1)
    said = text(
        await slash.run("attack", character="Gob", target="Aria", weapon="Unarmed", **gm(slash))
    )
    assert "Disadvantage: attacker pinned." in said, said
    assert "Tracker: Gob breaks free of Aria's pin, damaging them." in said, said
    moved = await slash.run("init act", name="Gob", action="movement", feet=5, **gm(slash))
    assert moved.content == "Gob moves 5 ft (25 ft left)."
    await dpytest.empty_queue()


async def test_the_pinner_releases_with_no_action(bot: TableBot, slash: SlashHarness) -> None:
    await pin_gob(bot, slash)
    released = await slash.run("init act", action="release", **player(slash))
    assert not released.ephemeral and released.content == "Gob is released from Aria's pin."
    record = await stored(bot, slash.channel.id)
    assert all(c.pinned_by is None for c in record.encounter.combatants)
    refused(await slash.run("init act", action="release", **player(slash)),
            "Aria isn't pinning anyone: there is nobody to release.")  # fmt: skip
    await dpytest.empty_queue()


async def test_a_pin_ends_when_the_pinned_goes_down(bot: TableBot, slash: SlashHarness) -> None:
    await pin_gob(bot, slash)
    await slash.run("hp", target="Gob", change="set 0", **gm(slash))
    record = await stored(bot, slash.channel.id)
    assert all(c.pinned_by is None for c in record.encounter.combatants)
    assert "pinning" not in await tracker_line(bot, slash, "Aria")
    await dpytest.empty_queue()


async def test_a_pin_holds_across_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await pin_gob(first, slash)

    second, again = await restart.restart()
    await npcs_turn(second, again)
    refused(await again.run("init act", name="Gob", action="movement", **gm(again)), PINNED)
