"""End to end on the emulator (issue 27): a 2d10 evening with real dice over the real
network path and production intents, then /session end: the recap's counts equal what
the replies said was rolled, a secret roll isn't described, and the chart is uploaded."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.e2e.test_platform import no_tracebacks

BRANN = {
    "background": "Sailor", "finesse": 2, "strength": 1, "toughness": 1, "mind": 0,
    "social": 0, "background_skills": "athletics 2, melee 2, stealth 1",
    "extra_skills": "perception 2, insight 2, stealth 1", "feat1": "Sea legs",
    "feat2": "Knots",
}  # fmt: skip
TASKS = 6


def succeeded(text: str) -> bool:
    """A /task reply's verdict: its band is a success (10 or more, not a natural 2)."""
    return "**Success" in text or "**Additional action" in text


def recap_fields(rec: dict[str, Any]) -> dict[str, list[str]]:
    embeds = [e for b in [rec.get("callback"), *rec.get("followups", [])] if b
              for e in (b.get("data", b).get("embeds") or [])]  # fmt: skip
    [recap] = [e for e in embeds if e.get("title") == "Session 1 recap"]
    return {f["name"]: f["value"].splitlines() for f in recap.get("fields", [])} | {
        "": recap["description"].splitlines()
    }


def tally(text: str, counts: dict[str, int]) -> None:
    """Add one /task reply's verdict and naturals to ``counts``."""
    faces = re.search(r"2d10 \[(\d+), (\d+)\]", text)
    assert faces is not None, text
    natural = int(faces.group(1)) + int(faces.group(2))
    counts["ok"] += succeeded(text)
    counts["20"] += natural == 20
    counts["2"] += natural == 2


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


async def test_a_2d10_evening_and_its_recap(table: Any) -> None:
    emu, bot = table
    await emu.slash("campaign set", who="gm", ruleset="2d10")
    assert "Brann" in emu.texts(await emu.slash("character create", who="p1", name="Brann",
                                                **BRANN))  # fmt: skip
    assert "Session 1 begins" in emu.texts(await emu.slash("session start", who="gm"))
    counts = {"ok": 0, "20": 0, "2": 0}
    for _ in range(TASKS):
        tally(emu.texts(await emu.slash("task", who="p1", attribute="finesse", skill="stealth")),
              counts)  # fmt: skip
    secret = await emu.slash("task", who="p1", attribute="mind", secret=True)
    assert emu.ephemeral(secret)
    tally(emu.texts(secret), counts)  # its roller sees it; the recap counts it, undescribed
    uploads_before = len(emu.uploads)
    ended = await emu.slash("session end", who="gm")
    assert not emu.ephemeral(ended)
    fields = recap_fields(ended)
    brann = fields["Brann"]
    rolls = TASKS + 1
    assert brann[0] == f"{rolls} rolls: {counts['ok']} succeeded, {rolls - counts['ok']} failed"
    assert brann[1] == f"{plural(counts['20'], 'natural 20')}, {plural(counts['2'], 'natural 2')}"
    assert any(line.startswith("luck ") and f"over {TASKS} rolls" in line for line in brann)
    assert "1 not scored (distribution unknown or secret)" in brann
    assert fields[""][0] == f"{rolls} rolls in all; 0 fights, 0 rounds fought."
    assert any(f["filename"] == "luck.png" for _, files in emu.uploads[uploads_before:]
               for f in files)  # fmt: skip
    again = await emu.slash("session recap", who="p2")
    assert json.dumps("Session 1 recap") in emu.texts(again)
    assert emu.double_answers == [] and emu.problems == []
    no_tracebacks(bot)
