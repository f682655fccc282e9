"""/attack damage on a caster whose spell, interrupted and declared again, is pending
(ruling spell-interrupted): the spell fails in the attack's own transaction, with no
/cast damaged:True (which a pending spell refuses), and nothing goes off at the end of
her next turn."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.initiative.model import PendingSpell
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, text
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.cogs.twod10.test_magic import cast, table  # noqa: F401 (the autouse table)
from tests.support.slash import SlashHarness

WAIT = "Vela's spell goes off at the end of their side's turn in round 2: /cast it then."


async def pending_spell(bot: TableBot, slash: SlashHarness) -> None:
    """Round 1: Vela's declared spell, interrupted before her turn, declared again on it;
    then the NPCs' turn, with the spell pending until the end of hers in round 2."""
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))
    await slash.run("init act", action="declare spell", name="Vela", **player(slash))
    script(bot, 1)  # the Players go first
    await slash.run("init next", **gm(slash))
    script(bot)
    await slash.run("cast", **cast(damaged=True), **player(slash))  # hurt before her turn
    await slash.run("init act", action="declare spell", **player(slash))
    await slash.run("init next", **gm(slash))  # the Players' end of turn
    await slash.run("init next", **gm(slash))  # the NPCs' turn
    record = await stored(bot, slash.channel.id)
    [vela] = [c for c in record.encounter.combatants if c.name == "Vela"]
    assert vela.pending_spell == PendingSpell(due=2)
    refused(await slash.run("cast", **cast(damaged=True), **player(slash)), WAIT)


async def to_the_end_of_her_next_turn(bot: TableBot, slash: SlashHarness) -> None:
    script(bot)
    for _ in range(2):  # the NPCs' end of turn, round 2's declarations
        await slash.run("init next", **gm(slash))
    script(bot, 5)  # the NPCs first
    for _ in range(4):  # their turn and its end, the Players' turn and its end
        await slash.run("init next", **gm(slash))


async def test_damage_fails_the_pending_spell(bot: TableBot, slash: SlashHarness) -> None:
    await pending_spell(bot, slash)
    hp = (await sheet(bot, "Vela")).hp
    # The Brute's sword: 6 + 6 + 3 + 2 − Vela's defense hits; its d8 shows 3.
    script(bot, 6, 6, 3)
    said = text(await slash.run("attack", character="Brute", target="Vela", **gm(slash)))
    assert "Tracker: Vela's pending spell fails: the damage broke it while it was cast." in said
    assert (await sheet(bot, "Vela")).hp < hp
    record = await stored(bot, slash.channel.id)
    [vela] = [c for c in record.encounter.combatants if c.name == "Vela"]
    assert vela.pending_spell is None
    assert "spell pending" not in await tracker_line(bot, slash, "Vela")
    await to_the_end_of_her_next_turn(bot, slash)
    assert "spell goes off" not in await tracker_line(bot, slash, "Vela")
    refused(await slash.run("cast", **cast(), **player(slash)), "Vela declared no spell this round")
    await dpytest.empty_queue()


async def test_a_miss_leaves_the_pending_spell(bot: TableBot, slash: SlashHarness) -> None:
    await pending_spell(bot, slash)
    script(bot, 1, 1, 1, 1, 1, 1)  # a natural 2: no damage
    said = text(await slash.run("attack", character="Brute", target="Vela", **gm(slash)))
    assert "pending spell fails" not in said, said
    record = await stored(bot, slash.channel.id)
    [vela] = [c for c in record.encounter.combatants if c.name == "Vela"]
    assert vela.pending_spell == PendingSpell(due=2, attacked=True)
    await to_the_end_of_her_next_turn(bot, slash)
    assert "spell goes off: /cast it" in await tracker_line(bot, slash, "Vela")
    await dpytest.empty_queue()
