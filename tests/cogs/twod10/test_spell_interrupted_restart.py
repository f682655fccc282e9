"""A spell declared again after an interruption (ruling spell-interrupted) stays pending
across a restart: the second process refuses its /cast, announces it at the end of the
caster's next turn and casts it then."""

from __future__ import annotations

from bot.rules.twod10.initiative.model import PendingSpell
from bot.storage.twod10.characters import TwoD10Kind
from tests.cogs.twod10.combat_helpers import gm, make, player, refused, script, store, twod10
from tests.cogs.twod10.combat_helpers import text as embed_text
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import stored
from tests.cogs.twod10.test_magic import cast, mage

WAIT = "Vela's spell goes off at the end of their side's turn in round 2: /cast it then."


async def test_the_pending_spell_survives_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await twod10(slash)
    await store(first, mage("Vela", "pyromancy"), slash.members[1].id)
    await store(first, make("Brute", strength=3, melee=2, weapons=("One-handed sword",)),
                slash.members[0].id, TwoD10Kind.ANTAGONIST)  # fmt: skip
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(first)
    await slash.run("init next", **gm(slash))
    await slash.run("init act", action="declare spell", name="Vela", **player(slash))
    script(first, 5)  # the NPCs go first
    await slash.run("init next", **gm(slash))
    script(first)
    await slash.run("cast", **cast(damaged=True), **player(slash))
    await slash.run("init next", **gm(slash))
    await slash.run("init next", **gm(slash))  # the Players' turn
    await slash.run("init act", action="declare spell", **player(slash))

    second, again = await restart.restart()
    script(second)  # nothing may be rolled until it goes off
    record = await stored(second, again.channel.id)
    vela = next(c for c in record.encounter.combatants if c.name == "Vela")
    assert vela.pending_spell == PendingSpell(due=2)
    assert record.encounter.state(vela.id).spell_interrupted
    refused(await again.run("cast", **cast(), **player(again)), WAIT)
    for _ in range(2):  # the Players' end of turn, round 2's declarations
        await again.run("init next", **gm(again))
    script(second, 1)  # the Players go first
    await again.run("init next", **gm(again))
    refused(await again.run("cast", **cast(), **player(again)), WAIT)
    due = await again.run("init next", **gm(again))
    assert "goes off now for Vela; /cast it this round." in (due.content or "")
    script(second, 9, 9)
    body = embed_text(await again.run("cast", **cast(), **player(again)))
    assert "**13** = 18 +3 mind +2 Mysteries (pyromancy) -10 tier 1" in body
    refused(await again.run("cast", **cast(), **player(again)),
            "Vela has already cast a spell this round.")  # fmt: skip
