"""2d10 /attack with the channel's tracker: a marked parry is spent, 25+ gives an attack."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, table, text
from tests.cogs.twod10.rounds_support import stored
from tests.support.slash import SlashHarness


async def knight_parries(bot: TableBot, slash: SlashHarness) -> int:
    """Aria and the linked Knight on the tracker; the Knight parries (3) on the NPCs' turn."""
    await table(bot, slash)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Knight", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # declarations
    script(bot, 5)  # the GM's d6: the NPCs go first
    await slash.run("init next", **gm(slash))
    marked = await slash.run("init act", action="parry", name="Knight", parry=3, **gm(slash))
    assert not marked.ephemeral, marked.content
    record = await stored(bot, slash.channel.id)
    [knight] = [c.id for c in record.encounter.combatants if c.name == "Knight"]
    return knight


async def to_players_turn(bot: TableBot, slash: SlashHarness, knight: int) -> None:
    await slash.run("init next", **gm(slash))  # end of the NPCs' turn
    await slash.run("init next", **gm(slash))  # the players' turn
    assert (await stored(bot, slash.channel.id)).encounter.state(knight).parry == 3


async def knight_parries_then_players_turn(bot: TableBot, slash: SlashHarness) -> int:
    knight = await knight_parries(bot, slash)
    await to_players_turn(bot, slash, knight)
    return knight


async def test_a_parry_on_the_tracker_is_spent_by_the_next_melee_attack(
    bot: TableBot, slash: SlashHarness
) -> None:
    knight = await knight_parries(bot, slash)
    refused(
        await slash.run("attack", target="Knight", parry="melee", **player(slash)),
        "waits on the tracker",
    )
    # A shot can't be parried: the parry stays for the next attack. (Shot on the NPCs'
    # turn, as a reaction: Aria's own turn keeps its one attack, ruling attack-action.)
    script(bot, 5, 5, 1)
    body = text(await slash.run("attack", target="Knight", weapon="Longbow", **player(slash)))
    assert "parry" not in body
    await to_players_turn(bot, slash, knight)
    # 12 + 5 − 1 − 3 = 13: d8 +1 → d10 shows 5, + 5 − 7 = 3.
    script(bot, 6, 6, 5)
    body = text(await slash.run("attack", target="Knight", **player(slash)))
    assert "− 3 parry = **13**" in body and "**3 damage**" in body
    assert (await stored(bot, slash.channel.id)).encounter.state(knight).parry == 0
    assert (await sheet(bot, "Knight")).hp == 25 - 1 - 3
    await dpytest.empty_queue()


async def test_twenty_five_gives_one_more_attack_on_the_tracker(
    bot: TableBot, slash: SlashHarness
) -> None:
    await knight_parries_then_players_turn(bot, slash)
    # 19 + 5 − 1 − 3 (the parry) + 5 = 25: d8 capped at d12 shows 1, + 5 − 7 → 1.
    script(bot, 10, 9, 1)
    body = text(await slash.run("attack", target="Knight", bonus=5, **player(slash)))
    assert "= **25**" in body and "an additional action" in body
    assert "Tracker: one more attack this turn (25 or more)." in body
    record = await stored(bot, slash.channel.id)
    [aria] = [c.id for c in record.encounter.combatants if c.name == "Aria"]
    assert record.encounter.state(aria).extra_attacks == 1
    await dpytest.empty_queue()
