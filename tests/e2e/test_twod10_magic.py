"""End to end on the emulator, in a 2d10 campaign (issue 13): a spell fails into
backlash; a concentration survives a restart, shows on the sheet and in the tracker,
and damage in a tracked fight ends it. The dice are real: a tier 3 spell at +0 can't
reach 10, so it always fails; the archmage's easy casting is made again, a bounded
number of times, until it succeeds."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_platform import no_tracebacks

TRIES = 12
APPRENTICE = {
    "background": "Apprentice", "finesse": 1, "strength": 1, "toughness": 1, "mind": 1,
    "social": 0, "background_skills": "history 2, insight 2, perception 1",
    "extra_skills": "athletics 2, stealth 2, medicine 1", "feat1": "Candle", "feat2": "Ink",
}  # fmt: skip
ARCHMAGE = {
    "background": "Archmage", "finesse": 0, "strength": 0, "toughness": 2, "mind": 6,
    "social": 0, "background_skills": "mysteries (fire) 6", "extra_skills": "none",
    "feat1": "Fire", "feat2": "Wards", "kind": "antagonist",
}  # fmt: skip


async def test_backlash_and_a_concentration_across_a_restart(table: Any) -> None:
    emu, bot = table
    rec = await emu.slash("campaign set", who="gm", ruleset="2d10")
    assert "Campaign updated." in emu.texts(rec)
    assert "Brann" in emu.texts(await emu.slash("character create", who="p1", name="Brann",
                                                **APPRENTICE))  # fmt: skip
    # At most 20 + 1 mind + 0 mysteries - 20 = 1: a failure, 7 or more below 8.
    rec = await emu.slash("cast", who="p1", tier=3, category="fire", concentrate="a flame wall")
    shown = emu.texts(rec)
    assert "The spell fails." in shown and "further consequences" in shown
    assert "Concentrating" not in shown and not emu.ephemeral(rec)

    rec = await emu.slash("character create", who="gm", name="Morgath", **ARCHMAGE)
    assert "Morgath" in emu.texts(rec), emu.texts(rec)
    # 6 + 6 + 5 (dangerously) - 10: only a natural 2 fails.
    for _ in range(TRIES):
        rec = await emu.slash("cast", who="gm", tier=1, category="fire", dangerously=True,
                              concentrate="a ring of fire", character="Morgath")  # fmt: skip
        if "Concentrating on a ring of fire." in emu.texts(rec):
            break
    else:
        raise AssertionError("the archmage never held the ring of fire")
    assert "1 random magical effect (casting dangerously)" in emu.texts(rec)

    await bot.restart()
    sheet = emu.texts(await emu.slash("character show", who="gm", name="Morgath"))
    assert "a ring of fire (tier 1 spell)" in sheet
    listed = emu.texts(await emu.slash("concentration list", who="gm"))
    assert "**Morgath**: a ring of fire (tier 1 spell)" in listed
    await emu.slash("init begin", who="gm")
    await emu.slash("init add", who="gm", name="Morgath")
    shown = emu.texts(await emu.slash("init list", who="gm"))
    assert "🔮 **Morgath**: a ring of fire" in shown
    hurt = emu.texts(await emu.slash("hp", who="gm", target="Morgath", change="-1"))
    assert "concentration on a ring of fire is lost to the damage" in hurt
    assert "Nobody is concentrating" in emu.texts(await emu.slash("concentration list", who="gm"))
    assert emu.double_answers == [] and emu.problems == []
    no_tracebacks(bot)
