"""Dying and unconscious tests as Discord text, and the message type that may ping.

Kept apart from ``bot.render.hocs.initiative`` (which imports from here) to keep files small.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.delivery.replies import only_pinging
from bot.render.text import safe
from bot.rules.hocs.initiative import Encounter, RecoveryTestDue, Side
from bot.rules.hocs.threshold import RecoveryKind, RecoveryResult, RecoveryTest

COLOUR = discord.Colour.dark_red()  # the tracker's colour

RESULT_TEXT = {
    RecoveryResult.STABLE: "stable, still unconscious",
    RecoveryResult.DIES: "dies",
    RecoveryResult.WAKES: "wakes up",
    RecoveryResult.STAYS_UNCONSCIOUS: "stays unconscious",
}
TEST_STAKES = {
    RecoveryKind.DYING: "Success: stable (still unconscious). Failure: dies.",
    RecoveryKind.UNCONSCIOUS: (
        "Success: wakes up (staggered at 0 HP or below). Failure: stays unconscious."
    ),
}


def test_line(name: str, test: RecoveryTest) -> str:
    """``Aria's dying test (Physique: 5 2 4): 2 successes vs 3 — dies.``"""
    faces = " ".join(str(d.final_face) for d in test.roll.dice) or "no dice"
    successes = f"{test.successes} success{'es' if test.successes != 1 else ''}"
    return (
        f"🎲 {safe(name)}'s {test.kind.value} test ({safe(test.skill)}: {faces}):"
        f" {successes} vs 3 — {RESULT_TEXT[test.result]}."
    )


@dataclass(frozen=True)
class TurnAnnouncement:
    content: str
    embed: discord.Embed
    ping: tuple[int, ...]  # the owning players, the only users this message may mention

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        return only_pinging(self.ping)


def test_prompt(enc: Encounter, event: RecoveryTestDue) -> TurnAnnouncement:
    """The message asking a dying or unconscious participant's player to roll the test."""
    who = enc.get(event.participant_id)
    owner = event.owner_id if who is not None and who.side is Side.PC else None
    ping = (owner,) if owner is not None else ()
    lead = f"<@{owner}> " if owner is not None else ""
    content = f"{lead}**{safe(event.name)}** must make a {event.kind.value} test."
    embed = discord.Embed(
        title=f"{event.kind.value.title()} test due",
        description=(
            f"{safe(event.name)}: physique or willpower vs 3. {TEST_STAKES[event.kind]}\n"
            "Roll it with a button below (the player, or the GM for them)."
        ),
        colour=COLOUR,
    )
    return TurnAnnouncement(content=content[:2000], embed=embed, ping=ping)
