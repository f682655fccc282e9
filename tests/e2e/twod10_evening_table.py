"""A 2d10 table for the evening e2e tests: the builds, stepping the tracker to a side's
turn, reading the tracker message, and a read-only snapshot of the bot's database."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.test_platform import answer
from tests.e2e.test_table_play import one_sentence

# Mira: plate and a shield (the block; no blow can fell her), a crossbow (ammo, loading);
# Brann: the medic. Both within the creation budgets.
MIRA: dict[str, Any] = {
    "background": "Guard", "finesse": 0, "strength": 2, "toughness": 2, "mind": 0,
    "social": 0, "background_skills": "melee 2, ranged 2, athletics 1",
    "extra_skills": "perception 2, stealth 2, defense (toughness) 1",
    "feat1": "Shield wall", "feat2": "Steady aim", "armor": "Plate",
    "shield": "Heavy round shield", "weapons": "One-handed sword, Light crossbow",
}  # fmt: skip
BRANN: dict[str, Any] = {
    "background": "Healer", "finesse": 1, "strength": 1, "toughness": 1, "mind": 1,
    "social": 0, "background_skills": "medicine 2, insight 2, perception 1",
    "extra_skills": "melee 2, athletics 2, stealth 1", "feat1": "Herbs", "feat2": "Calm",
    "weapons": "Light sword",
}  # fmt: skip
# The GM's NPCs, past the starting budgets (ruling npc-builds): a weak-armed wrestler
# with both hands free, whose pin on Mira's -3 finesse defense fails only on a natural 2,
# and a tough raider (40 HP) for the crossbow's bolts.
OGRE: dict[str, Any] = {
    "background": "Ogre", "finesse": 0, "strength": -1, "toughness": 4, "mind": 0,
    "social": 0, "background_skills": "brawl 6, athletics 3", "extra_skills": "none",
    "feat1": "Grip", "feat2": "Hide", "kind": "antagonist",
}  # fmt: skip
RAIDER: dict[str, Any] = {
    "background": "Raider", "finesse": 2, "strength": 2, "toughness": 5, "mind": 0,
    "social": 0, "background_skills": "melee 3", "extra_skills": "athletics 1",
    "feat1": "Raid", "feat2": "Run", "kind": "antagonist", "weapons": "One-handed axe",
}  # fmt: skip
TRACKER_TITLE = "2d10 encounter"


def tracker_id(emu: Any) -> str:
    """The pinned message in the first channel that carries the 2d10 tracker embed (not a
    private /init list answer, which shows the same embed)."""
    for message_id in reversed(emu.channel_log[emu.channels[0]]):
        if message_id not in emu.pins:
            continue
        embeds = emu.messages[message_id].get("embeds") or []
        if embeds and (embeds[0].get("title") or "").startswith(TRACKER_TITLE):
            return message_id
    raise AssertionError("no tracker in the channel")


def tracker_text(emu: Any) -> str:
    return str(emu.messages[tracker_id(emu)]["embeds"])


async def step(emu: Any) -> dict[str, Any]:
    rec = await emu.slash("init next", who="gm")
    assert not emu.ephemeral(rec), answer(rec)
    return rec


async def next_until(emu: Any, pattern: str, limit: int = 6) -> dict[str, Any]:
    """/init next until its answer matches ``pattern``; that answer's record."""
    seen = []
    for _ in range(limit):
        rec = await step(emu)
        seen.append(answer(rec))
        if re.search(pattern, answer(rec)):
            return rec
    raise AssertionError(f"no {pattern!r} in {limit} steps: {seen}")


def snapshot(database: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (but the bot's own bookkeeping), read through a read-only handle."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        names = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0] not in ("bot_meta", "gm_members") and not row[0].startswith("sqlite_")
        ]
        return {n: sorted(conn.execute(f'SELECT * FROM "{n}"'), key=repr) for n in names}
    finally:
        conn.close()


def turn_side(rec: dict[str, Any]) -> str | None:
    """ "npcs" or "players" when this /init next answer starts that side's turn."""
    found = re.search(r"▶️ The (NPCs|Players)' turn", answer(rec))
    return found[1].lower() if found else None


async def play_round(emu: Any, turns: dict[str, Any]) -> dict[str, str]:
    """/init next through one round, from its declarations to its end: ``turns["declare"]()``
    once the round opens for declarations, ``turns[side](message_id)`` when that side's
    turn starts (the GM's d6 picks the order). The message id of each side's turn message."""
    messages: dict[str, str] = {}
    for _ in range(7):
        rec = await step(emu)
        if "declare" in turns and re.search(r"🔔 Round \d+: declare", answer(rec)):
            await turns["declare"]()
        side = turn_side(rec)
        if side is not None:
            messages[side] = rec["message_id"]
            if side in turns:
                await turns[side](rec["message_id"])
        if re.search(r"⏹️ Round \d+ ends", answer(rec)):
            assert sorted(messages) == ["npcs", "players"], messages
            return messages
    raise AssertionError("the round did not end in 7 steps")


ROLL = re.compile(
    r"2d10(?: \((?:advantage|disadvantage)\))? \[(?P<faces>[^\]]*)\]"
    r"(?: natural (?P<natural>\d+))?(?P<mods>[^=\n]*)= \*\*(?P<total>-?\d+)\*\*"
)
MODIFIER = re.compile(r"([+−]) (\d+) ")


def rolls(text: str) -> list[tuple[list[int], int]]:
    """Every 2d10 roll line in ``text``: (its kept faces, its total), each checked to be
    real dice: two kept faces of 1-10 (a third struck out), natural and total adding up."""
    found = []
    for m in ROLL.finditer(text.replace("\\n", "\n")):
        faces = [f.strip() for f in m["faces"].split(",")]
        kept = [int(f) for f in faces if not f.startswith("~~")]
        assert len(faces) in (2, 3) and len(kept) == 2, m[0]
        assert all(1 <= f <= 10 for f in kept), m[0]
        if m["natural"] is not None:
            assert int(m["natural"]) == sum(kept), m[0]
        mods = sum(int(v) * (1 if s == "+" else -1) for s, v in MODIFIER.findall(m["mods"] + " "))
        assert sum(kept) + mods == int(m["total"]), m[0]
        found.append((kept, int(m["total"])))
    return found


def hp_step(text: str, name: str) -> tuple[int, int] | None:
    """(HP before, HP after) of ``name`` in an attack's answer, checked against its damage;
    None for an attack that dealt none (a natural 2, or a miss below a d4)."""
    m = re.search(rf"{name}: (-?\d+)/\d+ HP → \*\*(-?\d+)/\d+ HP(, dead)?\*\*", text)
    if m is None:
        assert "**Natural 2**" in text or "no damage" in text, text
        return None
    before, after = int(m[1]), int(m[2])
    dealt = re.search(r"\*\*(\d+) damage\*\*", text)
    damage = int(dealt[1]) if dealt else 0
    if m[3]:  # stopped at the death threshold
        assert 0 < before - after <= damage, text
    else:
        assert before - after == damage, text
    return before, after


async def refused(emu: Any, database: Path, rec_coro: Any) -> str:
    """Run an interaction that must be refused: private, one sentence, nothing written."""
    before = snapshot(database)
    rec = await rec_coro
    said = answer(rec)
    assert emu.ephemeral(rec) and one_sentence(said), said
    assert snapshot(database) == before, said
    return said
