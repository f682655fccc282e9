"""End to end on the emulator, the rest of a 2d10 evening (issue 26): a character dying in
a tracked fight rolls once from its prompt while the medic stabilises it; after the fight
a short and a long rest, a torch lit and burning down in secret, and a crossbow spending
its ammo until it is refused. The dice are real: the checks are on what must hold
whatever they show (one roll a press, totals adding up, HP stepping by what was rolled,
refusals private and one sentence writing nothing)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.e2e.test_platform import answer, dms_to, no_tracebacks
from tests.e2e.test_table_play import buttons, press_twice, split_presses
from tests.e2e.twod10_evening_table import BRANN, MIRA, RAIDER, refused, step, turn_side

SHOTS = 40  # crossbow shots at disadvantage until both ammo points are spent (27% a shot)
# A dying roll or medicine: "🎲 <what>: 2d10 [a, b] = s" then "**total** = s +2 toughness …".
DICE = re.compile(r"🎲 [^:]+: 2d10 \[(\d+), (\d+)\] = (\d+)\\n\*\*(-?\d+)\*\* = (\d+)([^\\]*)")


def checked_roll(text: str) -> int:
    """The total of the one 2d10 roll in a dying or medicine answer, its dice checked."""
    (m,) = DICE.findall(text)
    a, b, dice, total, again, mods = m
    assert 1 <= int(a) <= 10 and 1 <= int(b) <= 10 and int(a) + int(b) == int(dice) == int(again)
    assert int(dice) + sum(int(v) for v in re.findall(r"[+-]\d+", mods)) == int(total), text
    return int(total)


def hp_line(text: str, name: str) -> tuple[int, int]:
    m = re.search(rf"{name}: HP (-?\d+) → \*\*(-?\d+)\*\* / \d+", text)
    assert m, text
    return int(m[1]), int(m[2])


async def players_turn(emu: Any) -> list[dict[str, Any]]:
    """/init next until the players' turn; the messages posted with it (the dying prompts)."""
    channel = emu.channels[0]
    for _ in range(4):
        before = len(emu.channel_log[channel])
        rec = await step(emu)
        if turn_side(rec) == "players":
            return [emu.messages[i] for i in emu.channel_log[channel][before:]]
    raise AssertionError("no players' turn in 4 steps")


async def test_the_dying_and_the_medic_rests_a_torch_and_the_last_bolts(
    table: Any, tmp_path: Path
) -> None:
    emu, bot = table
    database = tmp_path / "bot.sqlite3"
    await emu.slash("campaign set", who="gm", ruleset="2d10")
    for who, name, build in (("p1", "Mira", MIRA), ("p2", "Brann", BRANN),
                             ("gm", "Raider", RAIDER)):  # fmt: skip
        rec = await emu.slash("character create", who=who, name=name, **build)
        assert f"Created **{name}**" in answer(rec), answer(rec)
    await emu.slash("init begin", who="gm")
    await emu.slash("init join", who="p1")
    await emu.slash("init join", who="p2")
    await emu.slash("init add", who="gm", name="Raider")
    rec = await emu.slash("hp", who="gm", target="Mira", change="set -2")
    assert "25/25 HP → **-2/25 HP, dying**" in emu.texts(rec), emu.texts(rec)

    # 1. Mira's side's turn prompts her dying roll; she presses twice at once: one roll.
    prompts = [m for m in await players_turn(emu) if "dying roll" in (m.get("content") or "")]
    (prompt,) = prompts
    mira = emu.users["p1"]["id"]
    assert prompt["content"] == f"<@{mira}> **Mira** must make a dying roll."
    (roll_button,) = buttons(emu, prompt["id"]).values()
    said = await refused(emu, database, emu.click(prompt["id"], roll_button, who="p2"))
    assert "Mira isn't yours" in said, said
    said = await refused(emu, database, emu.slash("dying roll", who="p1"))
    assert said.startswith("Mira is in a tracked fight"), said
    changed, again = split_presses(await press_twice(emu, prompt["id"], roll_button, "p1"))
    rolled = emu.texts(changed)
    total = checked_roll(rolled)
    before, after = hp_line(rolled, "Mira")
    assert before == -2 and after == (-1 if total >= 10 else -3), rolled
    assert emu.ephemeral(again) and "already been made" in answer(again), answer(again)
    assert buttons(emu, prompt["id"]) == {}

    # 2. Brann stabilises her (only his player can roll with him): 10 holds, 15+ heals.
    said = await refused(emu, database, emu.slash("medicine stabilise", who="p1",
                                                    patient="Mira", medic="Brann"))  # fmt: skip
    assert "Brann isn't yours" in said, said
    rec = await emu.slash("medicine stabilise", who="p2", patient="Mira", medic="Brann")
    shown = emu.texts(rec)
    total = checked_roll(shown)
    gain = next((g for low, g in ((30, 5), (25, 3), (20, 2), (15, 1)) if total >= low), 0)
    natural_two = "2d10 [1, 1]" in shown
    gain = 0 if natural_two else gain
    assert f"Change: +{gain} HP." in shown, shown
    assert ("Stabilised: advantage" in shown) == (total >= 10 and not natural_two), shown
    assert hp_line(shown, "Mira") == (after, after + gain)
    listed = emu.texts(await emu.slash("init list", who="gm"))
    assert f"**Mira** (finesse +0) · HP {after + gain}/25" in listed, listed
    await emu.slash("init end", who="gm")

    # 3. Rests: not at 0 HP or below; a short rest once until hurt again, then a long one.
    if after + gain <= 0:  # (a stabilisation of 20+ from -1 HP brings her to 1 HP)
        said = await refused(emu, database, emu.slash("rest short", who="p1"))
        assert said == "A character at 0 HP or below can't rest; stabilise them first."
    await emu.slash("hp", who="gm", target="Brann", change="-5")
    rec = await emu.slash("rest short", who="p2")
    assert "Brann: HP 15 → **16** / 20" in emu.texts(rec), emu.texts(rec)
    said = await refused(emu, database, emu.slash("rest short", who="p2"))
    assert said == "A short rest helps only after damage is taken again; take a long rest instead."
    rec = await emu.slash("rest long", who="p2")
    assert "Brann: HP 16 → **19** / 20" in emu.texts(rec), emu.texts(rec)

    # 4. A torch: its burn time goes to the GM alone, and survives a restart.
    rec = await emu.slash("light add", who="p2", kind="torch")
    assert answer(rec) == "Brann lights a torch (#1); the GM knows how long it burns."
    (secret,) = dms_to(emu, "gm")
    m = re.search(r"2d6 \[(\d), (\d)\], highest \*\*(\d)\*\* turn", secret)
    assert m and int(m[3]) == max(int(m[1]), int(m[2])), secret
    burns = int(m[3])
    await bot.restart()
    assert answer(await emu.slash("light list", who="p1")) == "Brann's torch (#1): lit"
    rec = await emu.slash("explore", who="gm", turns=1)
    assert answer(rec).startswith("Time passes: 1 exploration turn"), answer(rec)
    players_see = answer(await emu.slash("light list", who="p1"))
    gm_sees = answer(await emu.slash("light list", who="gm"))
    assert not re.search(r"\d turn", players_see), players_see  # never the number
    if burns > 1:
        assert re.search(rf"lit, {burns - 1} turns? left", gm_sees), gm_sees
        assert players_see.startswith("Brann's torch (#1): lit"), players_see
    else:
        assert "lit" not in players_see, players_see

    # 5. The crossbow's bolts: a point spent only on a kept 1, then no shot at all.
    rec = await emu.slash("ammo set", who="gm", quivers=1, character="Mira")
    assert "Mira: 2/2 ammo points" in answer(rec)
    left = 2
    for _ in range(SHOTS):
        rec = await emu.slash("attack", who="p1", target="Raider", weapon="Light crossbow",
                              disadvantage=1)  # fmt: skip
        shown = emu.texts(rec)
        assert not emu.ephemeral(rec), shown
        faces = re.search(r"2d10 \(disadvantage\) \[([^\]]*)\]", shown)
        assert faces, shown
        kept = [int(f) for f in faces[1].split(", ") if not f.startswith("~~")]
        if 1 in kept:
            left -= 1
            assert f"one ammo point spent ({left}/2 left)" in shown, shown
        else:
            assert "ammo" not in shown, shown
        if "Raider: " in shown and re.search(r"\*\*([0-9]|-\d+)/40 HP", shown):
            await emu.slash("hp", who="gm", target="Raider", change="set 40")  # a fresh raider
        if left == 0:
            break
    else:
        raise AssertionError(f"{SHOTS} shots left ammo points")
    said = await refused(emu, database, emu.slash("attack", who="p1", target="Raider",
                                                    weapon="Light crossbow"))  # fmt: skip
    assert (
        said == "Mira has no ammo points left: /ammo scavenge, or the GM restocks with /ammo set."
    )
    shown = answer(await emu.slash("ammo show", who="p1"))
    assert "Mira: 0/2 ammo points" in shown and "2 spent since the last scavenge" in shown, shown
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)
