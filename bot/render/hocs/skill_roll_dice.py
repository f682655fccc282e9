"""Skill-roll dice as markdown: the pieces every skill-roll embed is built from.

Every die is shown in roll order, separated by `` · ``:

* a success (4–6) in **bold**, a failure plain;
* a rerolled die shows its old faces struck through: ``~~2~~ **5**``;
* focus shows as ``3+1`` (bold when it makes a success);
* a guaranteed success as ``2⇒**4**``;
* the boon die is tagged ``boon``, the determination die ``det`` with its
  explosion chain ``det **6**→**6**→3`` (``det+`` when the point was spent after
  the roll).

A pool too long for one embed field falls back to counts per face. Everything a
user typed (labels, names) is escaped so it neither formats nor pings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.rules.hocs.pool import SUCCESS_FACE, DieOrigin, DieRoll, PoolResult, PoolSpec

FIELD_LIMIT = 1024
TITLE_LIMIT = 256
EMBED_BUDGET = 5800  # Discord allows 6000 characters across an embed
SEPARATOR = " · "

SUCCESS_COLOUR = discord.Colour.green()
ADVANTAGE_COLOUR = discord.Colour.gold()
FAILURE_COLOUR = discord.Colour.red()
NEUTRAL_COLOUR = discord.Colour.blurple()


@dataclass(frozen=True, kw_only=True)
class RollHeading:
    """Who rolls what, and the notes around it; stored with the roll so it can be redrawn.

    ``who`` and ``label`` are raw user text (escaped when rendered); ``what``
    comes from the bot (a skill label such as "Athletics (STR 3 + 1 training)").
    """

    who: str
    what: str
    label: str | None = None
    condition_banes: tuple[tuple[str, int], ...] = ()  # ("staggered", 2), ("fatigued", 1)
    notes: tuple[str, ...] = ()  # bot-made lines, e.g. "Determination point spent: 2 left."

    def to_dict(self) -> dict[str, Any]:
        return {
            "who": self.who,
            "what": self.what,
            "label": self.label,
            "condition_banes": [list(pair) for pair in self.condition_banes],
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollHeading:
        return cls(
            who=str(data["who"]),
            what=str(data["what"]),
            label=data.get("label"),
            condition_banes=tuple((str(n), int(v)) for n, v in data.get("condition_banes", ())),
            notes=tuple(str(n) for n in data.get("notes", ())),
        )


# --- dice -------------------------------------------------------------------------


def _face(face: int) -> str:
    return f"**{face}**" if face >= SUCCESS_FACE else str(face)


def die_markdown(die: DieRoll) -> str:
    """One die with everything that happened to it (see the module docstring)."""
    thrown = (die.first_face, *(r.face for r in die.rerolls))
    struck = "".join(f"~~{face}~~ " for face in thrown[:-1])
    current = die.rolled_face
    if die.guaranteed:
        core = f"{current}⇒**{SUCCESS_FACE}**"
    elif die.focus:
        core = f"{current}+1"
        core = f"**{core}**" if current + 1 >= SUCCESS_FACE else core
    else:
        core = _face(current)
    chain = "".join(f"→{_face(face)}" for face in die.explosions)
    text = f"{struck}{core}{chain}"
    if die.origin is DieOrigin.DETERMINATION:
        return f"det{'+' if die.added_after_roll else ''} {text}"
    if die.origin is DieOrigin.BOON:
        return f"boon {text}"
    if die.added_after_roll:
        return f"new {text}"
    return text


def _compact(dice: Sequence[DieRoll]) -> str:
    """Counts per final face for pools too long to list; the boon die still in full."""
    plain = [d for d in dice if d.origin is DieOrigin.BASE]
    special = [d for d in dice if d.origin is not DieOrigin.BASE]
    counts = Counter(d.final_face for d in plain)
    parts = [f"{_face(face)}×{counts[face]}" for face in sorted(counts, reverse=True)]
    marks = []
    rerolled = sum(1 for d in plain if d.rerolls)
    focused = sum(1 for d in plain if d.focus)
    guaranteed = sum(1 for d in plain if d.guaranteed)
    if rerolled:
        marks.append(f"{rerolled} rerolled")
    if focused:
        marks.append(f"{focused} with focus")
    if guaranteed:
        marks.append(f"{guaranteed} guaranteed")
    text = SEPARATOR.join(parts) or "no base dice"
    if marks:
        text += f" ({', '.join(marks)})"
    for die in special:
        text += SEPARATOR + _limit_chain(die)
    return text


def _limit_chain(die: DieRoll) -> str:
    text = die_markdown(die)
    if len(text) <= 300:
        return text
    # A chain of dozens of 6s: show its length instead of every face.
    head = DieRoll(
        origin=die.origin,
        first_face=die.first_face,
        rerolls=die.rerolls,
        focus=die.focus,
        guaranteed=die.guaranteed,
        added_after_roll=die.added_after_roll,
    )
    sixes = sum(1 for face in die.explosions if face == 6)
    last = die.explosions[-1] if die.explosions else None
    tail = f"→**6**×{sixes}" + (f"→{_face(last)}" if last is not None and last != 6 else "")
    return die_markdown(head) + tail


def dice_markdown(roll: PoolResult, *, limit: int = FIELD_LIMIT) -> str:
    """All dice of a roll within ``limit`` characters."""
    if roll.zero_dice:
        return "no dice"
    full = SEPARATOR.join(die_markdown(d) for d in roll.dice)
    if len(full) <= limit:
        return full
    compact = _compact(roll.dice)
    return compact if len(compact) <= limit else compact[: limit - 1] + "…"


def legend(rolls: Iterable[PoolResult]) -> str:
    """A footer explaining only the marks that appear."""
    dice = [d for roll in rolls for d in roll.dice]
    parts = ["bold = success"] if dice else []
    if any(d.rerolls for d in dice):
        parts.append("struck = rerolled")
    if any(d.focus for d in dice):
        parts.append("+1 = focus")
    if any(d.guaranteed for d in dice):
        parts.append("⇒4 = guaranteed success")
    if any(d.origin is DieOrigin.BOON for d in dice):
        parts.append("boon = the boon die")
    if any(d.origin is DieOrigin.DETERMINATION for d in dice):
        parts.append("det = determination die (explodes on 6s)")
    return " · ".join(parts)


def pool_summary(spec: PoolSpec, condition_banes: Sequence[tuple[str, int]] = ()) -> str:
    """How the pool was built: ``3 base · 2 boons · 3 banes (2 staggered) → −1d6 = 2d6``."""
    parts = [f"{spec.base} base"]
    boons = spec.boons + (1 if spec.determination else 0)
    if spec.boons:
        parts.append(f"{spec.boons} boon{'s' if spec.boons != 1 else ''}")
    if spec.determination:
        parts.append("determination (1 boon)")
    if spec.banes:
        from_conditions = ", ".join(f"{n} {name}" for name, n in condition_banes if n)
        extra = f" ({from_conditions})" if from_conditions else ""
        parts.append(f"{spec.banes} bane{'s' if spec.banes != 1 else ''}{extra}")
    text = " · ".join(parts)
    if boons or spec.banes:
        change = spec.dice_change
        text += f" → {'+' if change > 0 else '−' if change < 0 else '±'}{abs(change)}d6"
    text += f" = **{spec.dice_count}d6**"
    modifiers = []
    if spec.focus:
        modifiers.append(f"{spec.focus} focus")
    if spec.rerolls:
        modifiers.append(f"{spec.rerolls} reroll{'s' if spec.rerolls != 1 else ''}")
    if spec.guaranteed:
        modifiers.append(f"{spec.guaranteed} guaranteed")
    if modifiers:
        text += f" · with {', '.join(modifiers)}"
    return text


def unused_line(roll: PoolResult) -> str | None:
    unused = []
    if roll.unused_rerolls:
        unused.append(f"{roll.unused_rerolls} reroll{'s' if roll.unused_rerolls != 1 else ''}")
    if roll.unused_focus:
        unused.append(f"{roll.unused_focus} focus")
    if roll.unused_guaranteed:
        unused.append(f"{roll.unused_guaranteed} guaranteed")
    if not unused or roll.zero_dice:
        return None
    return f"Unused (no die could gain from them): {', '.join(unused)}."


def successes_text(n: int) -> str:
    return f"**{n}** success{'' if n == 1 else 'es'}"


ZERO_DICE_NOTE = "Banes left no dice to roll: nothing is rolled and the pool counts 0 successes."
