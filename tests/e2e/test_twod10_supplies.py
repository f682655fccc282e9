"""End to end on the emulator, in a 2d10 campaign (issue 13): a starving character rolls
for half rations and eats once a day even when two commands race; a disease is the GM's
secret; a heavy pack costs a Finesse roll its penalty; all of it survives a restart.
The dice are real, so the checks are on what must hold whatever they show."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.test_platform import no_tracebacks

BUILD = {
    "background": "Porter", "finesse": 1, "strength": 2, "toughness": 1, "mind": 0,
    "social": 0, "background_skills": "athletics 2, stealth 2, perception 1",
    "extra_skills": "melee 2, insight 2, medicine 1", "feat1": "Back", "feat2": "Legs",
}  # fmt: skip
PLAGUE = {"disease": "Plague", "difficulty": "-25", "course": "acute", "severity": "moderate"}


async def test_rations_disease_and_encumbrance_over_the_network(table: Any) -> None:
    emu, bot = table
    assert "Campaign updated." in emu.texts(await emu.slash("campaign set", who="gm",
                                                            ruleset="2d10"))  # fmt: skip
    for who, name in (("p1", "Brann"), ("p2", "Dara")):
        rec = await emu.slash("character create", who=who, name=name, **BUILD)
        assert name in emu.texts(rec), emu.texts(rec)
    rec = await emu.slash("rations add", who="p1", rations=1)
    assert "Brann now carries 1 ration (weight 1/2)." in emu.texts(rec)
    # A starving day on half rations: 2d10 + 1 toughness - 5 - 1 against 10, whatever falls.
    rec = await emu.slash("rations eat", who="p1", portion="half")
    shown = emu.texts(rec)
    assert not emu.ephemeral(rec) and "half rations, day 1" in shown
    assert ("Failure: **exhaustion**" in shown) != ("Success: no exhaustion" in shown)
    again = await emu.slash("rations eat", who="p1", portion="half")
    assert emu.ephemeral(again) and "already eaten on day 1" in emu.texts(again)
    # The next day two meals race: one is eaten, the other refused; 1/2 - 1/4 left.
    await emu.slash("rations day", who="gm")
    racing = await asyncio.gather(
        emu.slash("rations eat", who="p1", portion="quarter"),
        emu.slash("rations eat", who="gm", portion="quarter", character="Brann"),
    )
    assert sorted(emu.ephemeral(r) for r in racing) == [False, True]
    assert "carries 1/4 ration" in emu.texts(await emu.slash("rations show", who="p2",
                                                                character="Brann"))  # fmt: skip

    # No roll beats -25: Brann is infected; only the GM and Brann's player see it.
    rec = await emu.slash("disease expose", who="gm", character="Brann", **PLAGUE)
    assert "Brann is infected" in emu.texts(rec)
    own = await emu.slash("disease list", who="p1")
    other = await emu.slash("disease list", who="p2")
    assert emu.ephemeral(own) and "Brann: Plague" in emu.texts(own)
    assert emu.ephemeral(other) and "Plague" not in emu.texts(other)

    # 12 1/8 weight in the backpack (the anvil and the 1/4 ration left) is 2 EP;
    # toughness 1 ignores the first: a Finesse + Stealth roll takes -1.
    await emu.slash("inventory add", who="p1", item="Anvil", weight="12")
    rec = await emu.slash("task", who="p1", attribute="finesse", skill="stealth")
    assert "-1 encumbrance" in emu.texts(rec)

    await bot.restart()
    again = await emu.slash("rations eat", who="p1", portion="quarter")
    assert emu.ephemeral(again) and "already eaten on day 2" in emu.texts(again)
    listed = await emu.slash("disease list", who="gm")
    assert "Brann: Plague (moderate, acute, difficulty -25)" in emu.texts(listed)
    rec = await emu.slash("inventory list", who="p1")
    assert "**1 EP**" in emu.texts(rec)
    rec = await emu.slash("task", who="p1", attribute="finesse", skill="stealth")
    assert "-1 encumbrance" in emu.texts(rec)
    assert emu.double_answers == [] and emu.problems == []
    no_tracebacks(bot)
