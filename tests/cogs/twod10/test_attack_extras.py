"""/attack's last corners through the command: the improvised concealable weapon's damage
(ruling improvised-concealable), pin_prone without a pin refused before any die, the
pinned refused standing up (ruling pin-tracked), and the item-damage d20 over 20 damage
(ruling item-damage) kept in the attack's roll-log row, which the recap reads."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.recap_facts import facts_of
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from bot.storage.twod10.characters import TwoD10Condition, TwoD10Kind
from tests.cogs.twod10 import combat_helpers
from tests.cogs.twod10.combat_helpers import (
    gm,
    player,
    players_turn,
    refused,
    script,
    sheet,
    table,
    text,
)
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.support.slash import SlashHarness

PINNED = "Gob is pinned by Aria and can't move until they damage Aria."


async def last_row(bot: TableBot) -> LoggedRoll:
    async with bot.db.read() as conn:
        return (await RollLogRepository(conn).between(bot.guilds[0].id))[-1]


async def test_an_improvised_concealable_weapon_deals_unarmed_damage_plus_one(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # Aria, brawl 2: 8 + 3 strength + 2 brawl − 2 = 11. Unarmed at brawl 2 is a d2; the
    # concealable improvised weapon is that + 1, one category up at brawl 2: 1d3 + 1.
    # The d3 shows 3: 3 + 1 + 3 strength = 7.
    script(bot, 4, 4, 3)
    result = await slash.run(
        "attack", target="Gob", weapon="Improvised concealable", **player(slash)
    )
    body = text(result)
    assert result.embeds[0]["title"] == "Aria attacks Gob — Improvised (concealable)"
    assert "+ 2 brawl" in body and "= **11**" in body, body
    assert "Damage die d3 no change → d3" in body, body
    assert "Rolled [3] + 1 weapon + 3 strength = 7" in body, body
    assert (await sheet(bot, "Gob")).hp == 8
    row = await last_row(bot)
    assert (row.result["weapon"], row.result["damage_faces"], row.total) == (
        "Improvised (concealable)", [3], 7,
    )  # fmt: skip
    assert row.result["item_damage"] is None  # 7 damage: no item d20
    await dpytest.empty_queue()


async def test_pin_prone_without_a_pin_is_refused_before_any_die(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    for options in ({}, {"maneuver": "trip"}):
        scripted = script(bot, 9, 9, 9, 2)
        said = await slash.run("attack", target="Gob", pin_prone=True, **options, **player(slash))
        refused(said)
        assert said.content == (
            "pin_prone: forces a pin's target prone: add maneuver: pin, or leave pin_prone: out."
        )
        assert scripted.requests == []
    assert (await sheet(bot, "Gob")).hp == 15
    async with bot.db.read() as conn:
        assert await RollLogRepository(conn).between(bot.guilds[0].id) == []
    await dpytest.empty_queue()


async def test_the_pinned_cant_stand_up_by_command_or_button(
    bot: TableBot, slash: SlashHarness
) -> None:
    await players_turn(bot, slash)
    # Aria pins Gob, forcing both prone: 18 + 3 strength + 2 brawl − 2 = 21; the d8: 2.
    script(bot, 9, 9, 9, 2)
    said = text(await slash.run("attack", target="Gob", weapon="Unarmed", maneuver="pin",
                                pin_prone=True, **player(slash)))  # fmt: skip
    assert "Aria pins Gob" in said, said
    assert (await sheet(bot, "Gob")).has(TwoD10Condition.PRONE)
    assert (await sheet(bot, "Aria")).has(TwoD10Condition.PRONE)
    script(bot)
    await slash.run("init next", **gm(slash))  # end of the players' turn
    npcs = await slash.run("init next", **gm(slash))  # the NPCs' turn
    before = await stored(bot, slash.channel.id)
    refused(await slash.run("init act", action="stand up", name="Gob", **gm(slash)), PINNED)
    pressed = await slash.click(npcs, label="Stand up", **gm(slash))
    refused(pressed, PINNED)
    assert (await stored(bot, slash.channel.id)).version == before.version  # nothing written
    assert (await sheet(bot, "Gob")).has(TwoD10Condition.PRONE)
    assert await tracker_line(bot, slash, "Gob") == "**Gob** (finesse +1) · 📌 pinned by Aria"
    await dpytest.empty_queue()


async def test_the_item_damage_d20_is_in_the_attacks_row(
    bot: TableBot, slash: SlashHarness
) -> None:
    await combat_helpers.twod10(slash)
    await combat_helpers.store(
        bot, combat_helpers.make("Ogre", strength=3, melee=2, weapons=("Two-handed sword 2d6",)),
        slash.members[0].id, TwoD10Kind.ANTAGONIST,
    )  # fmt: skip
    pip = await combat_helpers.store(
        bot, combat_helpers.make("Pip", toughness=6, weapons=("Light sword",)),
        slash.members[1].id,
    )  # fmt: skip
    for item, worn in (("Rope", False), ("Lantern", True)):
        await slash.run("inventory add", item=item, worn=worn, character="Pip", **player(slash))
    # 15 + 3 + 2 + 10 = 30: the 2d6 rise to 2d12; 12 + 12 + 2 + 3 = 29 damage > 20. The
    # GM's d20: 2 numbers the Lantern (Light sword, Lantern worn, Rope), then 9 nothing.
    script(bot, 10, 5, 12, 12, 2)
    await slash.run("attack", target="Pip", bonus=10, character="Ogre", **gm(slash))
    row = await last_row(bot)
    assert row.kind == "2d10-attack" and row.total == 29
    assert row.result["damage_faces"] == [12, 12]
    assert row.result["item_damage"] == {"face": 2, "sides": 20, "item": "Lantern", "listed": 3}
    await slash.run("hp", target="Pip", change="+50", **gm(slash))
    script(bot, 10, 5, 12, 12, 9)
    said = text(await slash.run("attack", target="Pip", bonus=10, character="Ogre", **gm(slash)))
    assert "Over 20 damage: d20 **9** numbers no item on the list." in said, said
    missed = await last_row(bot)
    assert missed.result["item_damage"] == {"face": 9, "sides": 20, "item": None, "listed": 3}
    # The recap reads the row as any attack: the d20 picks an item and holds no luck.
    facts = facts_of(missed, {pip.id: "Pip"})
    assert (facts.target, facts.damage_taken) == ("Pip", 29)
    assert [luck.part for luck in facts.luck] == ["to-hit", "damage"]
    await dpytest.empty_queue()
