"""A declared spell interrupted in a tracked 2d10 fight (ruling spell-interrupted):
/cast damaged:True fails it and frees the attack, /init act declare spell on the caster's
turn declares it again with that attack, /cast is refused until the end of the caster's
next turn announces it, and then allowed once."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    PendingSpell,
    Sacrifice,
    TurnState,
)
from bot.rules.twod10.rulings import ruling
from bot.storage.roll_log import RollLogRepository
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, text
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.cogs.twod10.test_magic import cast, table  # noqa: F401 (the autouse table)
from tests.support.slash import SlashHarness

WAIT = "Vela's spell goes off at the end of their side's turn in round 2: /cast it then."


async def vela(bot: TableBot, slash: SlashHarness) -> tuple[Combatant, TurnState]:
    record = await stored(bot, slash.channel.id)
    c = next(c for c in record.encounter.combatants if c.name == "Vela")
    return c, record.encounter.state(c.id)


async def test_an_interrupted_spell_declared_again_goes_off_at_the_end_of_her_next_turn(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1's declarations
    await slash.run("init act", action="declare spell", name="Vela", **player(slash))
    script(bot, 5)  # the GM's d6: the NPCs go first
    await slash.run("init next", **gm(slash))
    # The Brute's blow hurt her while she cast: she says so, and the spell fails unrolled.
    scripted = script(bot)
    body = text(await slash.run("cast", **cast(damaged=True), **player(slash)))
    assert "**Damage in combat**: the casting fails with no roll" in body
    assert scripted.requests == []
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
    assert logged.kind == "2d10-cast" and logged.result["interrupted"]
    assert "spell interrupted" in await tracker_line(bot, slash, "Vela")
    await slash.run("init next", **gm(slash))  # the NPCs' end of turn
    turn = await slash.run("init next", **gm(slash))  # the Players' turn
    assert "Spells cast now" not in (turn.content or "")  # the interrupted one isn't
    _, state = await vela(bot, slash)
    assert Action.ATTACK not in state.actions and state.sacrificed is None

    again = await slash.run("init act", action="declare spell", **player(slash))
    assert not again.ephemeral and again.content == (
        "Vela declares a spell again, with their attack action: it goes off at the end of"
        " their turn in round 2."
    )
    c, state = await vela(bot, slash)
    assert c.pending_spell == PendingSpell(due=2)
    assert state.sacrificed is Sacrifice.SPELL and Action.ATTACK in state.actions
    line = await tracker_line(bot, slash, "Vela")
    assert "⚔️ attack → spell" in line
    assert "spell pending: goes off at the end of its turn in round 2" in line
    refused(await slash.run("cast", **cast(), **player(slash)), WAIT)

    ended = await slash.run("init next", **gm(slash))  # her turn's end: not her next one
    assert "goes off now" not in (ended.content or "")
    await slash.run("init next", **gm(slash))  # round 2's declarations
    refused(await slash.run("init act", action="declare spell", **player(slash)),
            "Vela is still casting the spell that goes off at the end of their side's turn"
            " in round 2.")  # fmt: skip
    script(bot, 1)  # the Players go first
    await slash.run("init next", **gm(slash))
    refused(await slash.run("cast", **cast(), **player(slash)), WAIT)
    due = await slash.run("init next", **gm(slash))  # the end of her next turn
    assert (
        "✨ End of the Players' turn: the spell declared again last round goes off now for"
        " Vela; /cast it this round." in (due.content or "")
    )
    assert "spell goes off: /cast it" in await tracker_line(bot, slash, "Vela")
    script(bot, 9, 9)  # no attack while it was cast: no disadvantage
    body = text(await slash.run("cast", **cast(), **player(slash)))
    assert "**13** = 18 +3 mind +2 Mysteries (pyromancy) -10 tier 1" in body
    assert "disadvantage" not in body
    c, state = await vela(bot, slash)
    assert c.pending_spell is None and state.spell_cast and not state.spell_ready
    assert "spell cast" in await tracker_line(bot, slash, "Vela")
    refused(await slash.run("cast", **cast(), **player(slash)),
            "Vela has already cast a spell this round.")  # fmt: skip
    await dpytest.empty_queue()


async def test_an_attack_while_it_is_pending_gives_the_cast_disadvantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))
    await slash.run("init act", action="declare spell", name="Vela", **player(slash))
    script(bot, 1)  # the Players go first: the declared spell takes her attack at once
    await slash.run("init next", **gm(slash))
    script(bot)
    await slash.run("cast", **cast(damaged=True), **player(slash))  # hurt before her turn
    _, state = await vela(bot, slash)
    assert Action.ATTACK not in state.actions  # the failed spell gives it back
    await slash.run("init act", action="declare spell", **player(slash))
    await slash.run("init next", **gm(slash))  # the Players' end of turn
    await slash.run("init next", **gm(slash))  # the NPCs' turn
    # The Brute swings at her while the spell is pending and misses (a natural 2).
    script(bot, 1, 1, 1, 1, 1, 1)
    await slash.run("attack", target="Vela", character="Brute", **gm(slash))
    c, _ = await vela(bot, slash)
    assert c.pending_spell == PendingSpell(due=2, attacked=True)
    assert "attacked while casting" in await tracker_line(bot, slash, "Vela")
    script(bot)
    for _ in range(2):  # the NPCs' end of turn, round 2's declarations
        await slash.run("init next", **gm(slash))
    script(bot, 5)  # the NPCs first this time
    await slash.run("init next", **gm(slash))
    await slash.run("init next", **gm(slash))  # their end of turn
    refused(await slash.run("cast", **cast(), **player(slash)), WAIT)
    await slash.run("init next", **gm(slash))  # the Players' turn
    await slash.run("init next", **gm(slash))  # its end: the spell goes off
    script(bot, 9, 9, 2)
    body = text(await slash.run("cast", **cast(), **player(slash)))
    assert "3d10, highest dropped (advantage 0, disadvantage 1: disadvantage) [9, ~~9~~, 2]" in body
    assert "Attacked while casting: disadvantage." in body
    await dpytest.empty_queue()


async def test_help_shows_the_ruling_for_cast_and_init_act(
    bot: TableBot, slash: SlashHarness
) -> None:
    # /cast lists its magic rulings bare; /init act names each ruling's topic.
    for command, bullet in (("cast", "• "), ("init act", "• Magic: ")):
        result = await slash.run("help", command=command, **player(slash))
        shown = "\n".join(f["value"] for e in result.all_embeds for f in e.get("fields", []))
        assert f"{bullet}{ruling('spell-interrupted').text}" in shown, command
    await dpytest.empty_queue()


async def test_an_attack_that_damages_the_caster_interrupts_the_spell(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1's declarations
    await slash.run("init act", action="declare spell", name="Vela", **player(slash))
    script(bot, 5)  # the GM's d6: the NPCs go first
    await slash.run("init next", **gm(slash))
    # The Brute's sword: 6 + 6 + 3 + 2 − Vela's defense hits; its d8 shows 3.
    script(bot, 6, 6, 3)
    said = text(await slash.run("attack", character="Brute", target="Vela", **gm(slash)))
    assert "Tracker: Vela's declared spell is interrupted by the damage" in said, said
    _, state = await vela(bot, slash)
    assert state.spell_interrupted and state.attacked_casting
    assert "spell interrupted" in await tracker_line(bot, slash, "Vela")
    # No /cast damaged:True needed: on her turn she declares it again.
    await slash.run("init next", **gm(slash))  # the NPCs' end of turn
    await slash.run("init next", **gm(slash))  # the Players' turn
    again = await slash.run("init act", action="declare spell", **player(slash))
    assert not again.ephemeral, again.content
    c, _ = await vela(bot, slash)
    assert c.pending_spell == PendingSpell(due=2)
    await dpytest.empty_queue()
