"""NPC morale as text: the roll the tracker calls, and the tracker's morale field."""

from __future__ import annotations

from bot.interactions.user_text import echo
from bot.rules.twod10.morale import MoraleResult, MoraleTrigger
from bot.storage.twod10.morale import NpcMorale


def morale_line(result: MoraleResult, leader: str | None) -> str:
    """One line: why, every die and modifier, the total, hold or flee."""
    roll = result.roll
    faces = ", ".join(str(f) for f in roll.roll.faces)
    # The score is always shown, even a 0 the roll leaves out of its modifiers.
    shown = [f"{m.value:+d} {m.label}" for m in roll.modifiers
             if m.value and m.label != "morale score"]  # fmt: skip
    mods = " ".join([*shown, f"{result.after.score:+d} morale score"])
    why = " and ".join(t.value for t in result.triggers)
    who = f" (leader {echo(leader)})" if leader else ""
    outcome = "below 10: **the NPCs flee!**" if result.flees else "10 or more: they hold."
    return f"🚩 NPC morale{who}, {why}: 2d10 [{faces}] {mods} = **{roll.total}**, {outcome}"


def morale_field(morale: NpcMorale, leader: str | None) -> str:
    """The score, the standing leader, and holding (with the triggers rolled) or fled."""
    state = morale.state
    parts = [f"NPC morale score {state.score:+d}"]
    if leader:
        parts.append(f"leader {echo(leader)} (social {morale.leader_social:+d})")
    if state.fled:
        parts.append("🏳️ **the NPCs flee**")
    else:
        done = [
            trigger.value
            for trigger, checked in (
                (MoraleTrigger.FIRST_ALLY, state.first_checked),
                (MoraleTrigger.HALF_DOWN, state.half_checked),
            )
            if checked
        ]
        parts.append("holding" + (f" (rolled: {'; '.join(done)})" if done else ""))
    return " · ".join(parts)
