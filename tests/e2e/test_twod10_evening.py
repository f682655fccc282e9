"""End to end on the emulator, an evening of 2d10 (issue 26): two player characters and
the GM's NPCs fight on the side initiative tracker, with a declared defense and an
interrupt, a shield block (a second one that round refused), a pin that keeps the pinned
still, a crossbow that must be loaded again, a restart between rounds and a SIGKILL in the
middle of a side's turn. The dice are real and random: the checks are invariants (one roll
a press, its faces and total adding up, HP stepping by the damage shown, refusals private
and one sentence writing nothing, the tracker the same after the bot comes back)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.e2e.test_platform import answer, no_tracebacks
from tests.e2e.test_table_play import buttons
from tests.e2e.twod10_evening_table import (
    BRANN,
    MIRA,
    OGRE,
    RAIDER,
    hp_step,
    play_round,
    refused,
    rolls,
    snapshot,
    tracker_id,
)

DB = "bot.sqlite3"


def row(emu: Any, name: str) -> str:
    """The tracker's line for one combatant."""
    embed = emu.messages[tracker_id(emu)]["embeds"][0]
    lines = [line for f in embed.get("fields") or [] for line in f["value"].splitlines()]
    return next(line for line in lines if line.startswith(f"**{name}**"))


async def ammo_left(emu: Any) -> int:
    shown = emu.texts(await emu.slash("ammo show", who="p1", character="Mira"))
    m = re.search(r"Mira: (\d+)/2 ammo points", shown)
    assert m, shown
    return int(m[1])


async def shoot(emu: Any, target: str) -> str:
    """Mira's crossbow shot: one 2d10 roll, the HP step, one ammo point spent exactly
    when a kept die shows 1."""
    points = await ammo_left(emu)
    rec = await emu.slash("attack", who="p1", target=target, weapon="Light crossbow")
    shown = emu.texts(rec)
    assert not emu.ephemeral(rec), shown
    ((kept, _),) = rolls(shown)
    hp_step(shown, target)
    spent = "one ammo point spent" in shown
    assert spent == (1 in kept), shown
    assert await ammo_left(emu) == points - spent
    return shown


async def test_an_evening_fight_with_reactions_a_block_a_pin_a_restart_and_a_kill(
    table: Any, tmp_path: Path
) -> None:
    emu, bot = table
    database = tmp_path / DB
    assert answer(await emu.slash("campaign set", who="gm", ruleset="2d10")) == "Campaign updated."
    for who, name, build in (
        ("p1", "Mira", MIRA), ("p2", "Brann", BRANN),
        ("gm", "Ogre", OGRE), ("gm", "Raider", RAIDER), ("gm", "Bandit", RAIDER),
    ):  # fmt: skip
        rec = await emu.slash("character create", who=who, name=name, **build)
        assert not emu.ephemeral(rec) and f"Created **{name}**" in answer(rec), answer(rec)
    # A player's character past the creation budget is refused, with the rule it breaks.
    bad = await refused(emu, database, emu.slash("character create", who="p3", name="Cato",
                                                   **(BRANN | {"mind": 3})))  # fmt: skip
    assert "attribute" in bad.lower(), bad
    rec = await emu.slash("ammo set", who="gm", quivers=1, character="Mira")
    assert answer(rec).startswith("Mira: 2/2 ammo points in 1 quiver"), answer(rec)

    await emu.slash("init begin", who="gm")
    for who in ("p1", "p2"):
        assert "joins the Players" in answer(await emu.slash("init join", who=who))
    for name in ("Ogre", "Raider", "Bandit"):
        assert f"{name} joins the NPCs" in answer(await emu.slash("init add", who="gm", name=name))
    assert "Wolf 1 and Wolf 2 join" in answer(await emu.slash("init add", who="gm", name="Wolf",
                                                          count=2))  # fmt: skip
    # Before the first round opens, reactions can't be declared yet.
    said = await refused(emu, database, emu.slash("init react", who="p2", kind="defend",
                                                    attribute="finesse"))  # fmt: skip
    assert said == "Reactions are declared at the start of the round, before initiative."

    async def declare_round_one() -> None:
        rec = await emu.slash("init react", who="p2", kind="defend", attribute="finesse")
        assert not emu.ephemeral(rec), answer(rec)
        rec = await emu.slash("init react", who="gm", kind="declare", name="Raider",
                              trigger="Mira shoots")  # fmt: skip
        assert not emu.ephemeral(rec), answer(rec)
        assert "reacts to “Mira shoots”" in row(emu, "Raider")

    async def npcs_round_one(_: str) -> None:
        # The ogre, a hand free of nothing (its two-handed maul), wrestles Mira down to a
        # pin: 2d10 + 12 - 3 can only fail on a natural 2, and advantage keeps that away.
        rec = await emu.slash("attack", who="gm", character="Ogre", target="Mira",
                              weapon="Unarmed", maneuver="pin", advantage=2)  # fmt: skip
        shown = emu.texts(rec)
        assert len(rolls(shown)) == 1 and "📌 Ogre pins Mira" in shown, shown
        hp_step(shown, "Mira")
        assert "📌 pinned by Ogre" in row(emu, "Mira") and "📌 pinning Mira" in row(emu, "Ogre")
        # The raider's axe on Mira, who blocks: her one reaction this round.
        rec = await emu.slash("attack", who="gm", character="Raider", target="Mira", block=True)
        shown = emu.texts(rec)
        assert len(rolls(shown)) == 1, shown
        step = hp_step(shown, "Mira")
        if step is not None:  # a block is spent on an attack that deals damage
            assert re.search(r"Block with the heavy round shield: 2 block(s|\(s\))? left", shown)
            assert f"HP {step[1]}/25" in row(emu, "Mira")
        assert "reaction used" in row(emu, "Mira")
        said = await refused(emu, database, emu.slash("attack", who="gm", character="Bandit",
                                                        target="Mira", block=True))  # fmt: skip
        assert said == "Mira has already used their reaction this round."
        # Brann declared a defense of finesse: the bandit's attack is Brann's roll, flipped.
        rec = await emu.slash("attack", who="gm", character="Bandit", target="Brann")
        shown = emu.texts(rec)
        defended = re.search(r"Brann defends: .*?= \*\*(-?\d+)\*\* → flipped \(20 − it\):"
                             r" \*\*(-?\d+)\*\*", shown)  # fmt: skip
        assert defended and int(defended[2]) == 20 - int(defended[1]), shown
        assert len(rolls(shown)) == 1, shown
        hp_step(shown, "Brann")
        assert "reaction used" in row(emu, "Brann")

    async def players_round_one(turn: str) -> None:
        # Mira shoots at the raider, whose declared reaction interrupts: 1d8 + finesse each.
        rec = await emu.slash("init react", who="gm", kind="interrupt", name="Raider",
                              opponent="Mira")  # fmt: skip
        m = re.search(r"Interrupt: Raider 1d8 \[(\d)\] \+2 = (\d+) vs Mira 1d8 \[(\d)\] \+0 ="
                      r" (\d+): Raider (reacts first|reacts after)", answer(rec))  # fmt: skip
        assert m, answer(rec)
        ours, theirs = int(m[1]), int(m[3])  # one d8 each, finesse +2 and +0
        assert 1 <= ours <= 8 and 1 <= theirs <= 8
        assert (int(m[2]), int(m[4])) == (ours + 2, theirs)
        assert (m[5] == "reacts first") == (ours + 2 > theirs)
        await shoot(emu, "Bandit")
        assert "🏹 unloaded: Light crossbow" in row(emu, "Mira")
        said = await refused(emu, database, emu.slash("attack", who="p1", target="Raider",
                                                        weapon="Light crossbow"))  # fmt: skip
        assert said == "Mira has already used their attack this turn.", said
        shown = buttons(emu, turn)
        rec = await emu.click(turn, shown["Movement"], who="p2")
        assert emu.ephemeral(rec) and answer(rec) == "Brann: movement.", answer(rec)
        said = await refused(emu, database, emu.click(turn, shown["Movement"], who="p2"))
        assert said == "Brann has already used their movement this turn."

    await play_round(emu, {"declare": declare_round_one, "npcs": npcs_round_one,
                           "players": players_round_one})  # fmt: skip

    # Between rounds the bot restarts: the tracker and every table are as they were.
    before, listed = snapshot(database), emu.texts(await emu.slash("init list", who="gm"))
    assert "round 2" in listed and "📌 pinned by Ogre" in listed
    await bot.restart()
    assert snapshot(database) == before
    assert emu.texts(await emu.slash("init list", who="gm")) == listed

    async def players_round_two(turn: str) -> None:
        # SIGKILL in the middle of the players' turn; the turn message's buttons still work.
        kept = snapshot(database)
        await bot.kill()
        await bot.start()
        assert snapshot(database) == kept
        shown = buttons(emu, turn)
        said = await refused(emu, database, emu.click(turn, shown["Movement"], who="p1"))
        assert said == "Mira is pinned by Ogre and can't move until they damage Ogre.", said
        said = await refused(emu, database, emu.slash("attack", who="p1", target="Raider",
                                                        weapon="Light crossbow"))  # fmt: skip
        assert said == "Mira's light crossbow isn't loaded: load it first with /init act load."
        rec = await emu.click(turn, shown["Load"], who="p1")
        assert emu.ephemeral(rec) and "Mira loads the light crossbow" in answer(rec), answer(rec)
        assert "unloaded" not in row(emu, "Mira")
        said = await refused(emu, database, emu.slash("attack", who="p1", target="Raider",
                                                        weapon="Light crossbow"))  # fmt: skip
        assert "gave up their attack this turn to load" in said, said

    await play_round(emu, {"players": players_round_two})

    async def players_round_three(_: str) -> None:
        shown = await shoot(emu, "Bandit")  # loaded last round; pinned: at disadvantage
        assert "2d10 (disadvantage)" in shown, shown
        assert "🏹 unloaded: Light crossbow" in row(emu, "Mira")

    await play_round(emu, {"players": players_round_three})
    rec = await emu.slash("init end", who="gm")
    assert "Ended in round 4" in emu.texts(rec), emu.texts(rec)
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)
