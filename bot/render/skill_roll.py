"""Skill rolls (ad-hoc pools, tests and clashes) as one compact embed each.

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
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.rules.hocs.check import TestOutcome, TestResult
from bot.rules.hocs.clash import ClashDecision, ClashResult, ClashRound, ClashSide
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.pool import SUCCESS_FACE, DieOrigin, DieRoll, PoolResult, PoolSpec

FIELD_LIMIT = 1024
TITLE_LIMIT = 256
EMBED_BUDGET = 5800  # Discord allows 6000 characters across an embed
SEPARATOR = " · "

SUCCESS_COLOUR = discord.Colour.green()
ADVANTAGE_COLOUR = discord.Colour.gold()
FAILURE_COLOUR = discord.Colour.red()
NEUTRAL_COLOUR = discord.Colour.blurple()


def escape(text: str) -> str:
    """User text on one line that can neither format nor ping."""
    one_line = " ".join(text.split())
    return discord.utils.escape_mentions(discord.utils.escape_markdown(one_line))


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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def successes_text(n: int) -> str:
    return f"**{n}** success{'' if n == 1 else 'es'}"


ZERO_DICE_NOTE = "Banes left no dice to roll: nothing is rolled and the pool counts 0 successes."


# --- tests and plain pools ----------------------------------------------------------


def _title(heading: RollHeading, prefix: str = "") -> str:
    title = f"{prefix}{escape(heading.who)} rolls {heading.what}"
    if heading.label:
        title += f" — {escape(heading.label)}"
    return title if len(title) <= TITLE_LIMIT else title[: TITLE_LIMIT - 1] + "…"


OUTCOME_TEXT = {
    TestOutcome.AUTOMATIC_SUCCESS: "Success — no need to roll (difficulty 0)",
    TestOutcome.ADVANTAGE: "Success with advantage",
    TestOutcome.SUCCESS: "Success",
    TestOutcome.FAILURE: "Failure",
    TestOutcome.FAILURE_BY_TWO: "Failure by 2 or more",
}


def _test_colour(test: TestResult) -> discord.Colour:
    if test.advantage and test.succeeded:
        return ADVANTAGE_COLOUR
    return SUCCESS_COLOUR if test.succeeded else FAILURE_COLOUR


def test_lines(test: TestResult) -> list[str]:
    """The verdict and its flags, one line each."""
    difficulty = test.difficulty
    lines = [
        f"{successes_text(test.successes)} vs {difficulty.label} ({int(difficulty)}):"
        f" **{OUTCOME_TEXT[test.outcome]}**"
    ]
    if test.advantage:
        lines.append(f"Advantage: {test.margin} successes over the difficulty.")
    if test.failed_by_two_or_more:
        lines.append(f"Failed by {-test.margin}: a critical failure 2+ where a rule calls for one.")
    if test.possible_critical_failure:
        lines.append(
            "Possible critical failure: the determination die rolled a 1 and the test failed"
            " (the GM may apply it)."
        )
    return lines


def skill_roll_embed(
    heading: RollHeading, roll: PoolResult, difficulty: Difficulty | None = None
) -> discord.Embed:
    """One roll (of /pool or /check), judged against ``difficulty`` when one was set."""
    test = TestResult(roll=roll, difficulty=difficulty) if difficulty is not None else None
    lines = [pool_summary(roll.spec, heading.condition_banes)]
    if roll.zero_dice:
        lines.append(ZERO_DICE_NOTE)
    if test is not None:
        lines.extend(test_lines(test))
    else:
        sixes = f" ({roll.sixes} six{'es' if roll.sixes != 1 else ''})" if roll.sixes else ""
        lines.append(f"{successes_text(roll.successes)}{sixes}")
        if roll.determination_rolled_one:
            lines.append("The determination die rolled a 1: a critical failure if this roll fails.")
    if roll.determination_after:
        lines.append("Determination point spent after the roll.")
    unused = unused_line(roll)
    if unused:
        lines.append(unused)
    lines.extend(heading.notes)
    embed = discord.Embed(
        title=_title(heading),
        description="\n".join(lines)[:4000],
        colour=_test_colour(test) if test is not None else NEUTRAL_COLOUR,
    )
    embed.add_field(name=f"Dice ({len(roll.dice)})", value=dice_markdown(roll), inline=False)
    footer = legend([roll])
    if footer:
        embed.set_footer(text=footer)
    return embed


# --- clashes ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ClashSides:
    """The two headings of a clash: ``a`` is the roller (the attacker in an attack)."""

    a: RollHeading
    b: RollHeading
    notes: tuple[str, ...] = field(default=())


def _round_reason(rnd: ClashRound) -> str:
    if rnd.a.successes == 0 and rnd.b.successes == 0:
        return "no successes on either side, repeated"
    return "tied in successes and 6s, repeated"


def _side_line(name: str, roll: PoolResult, *, limit: int) -> str:
    head = f"{name}: "
    tail = f" → {successes_text(roll.successes)}"
    if roll.sixes:
        tail += f", {roll.sixes} six{'es' if roll.sixes != 1 else ''}"
    budget = max(20, limit - len(head) - len(tail))
    return f"{head}{dice_markdown(roll, limit=budget)}{tail}"


def _round_value(names: tuple[str, str], rnd: ClashRound, *, limit: int = FIELD_LIMIT) -> str:
    half = (limit - 1) // 2
    return "\n".join(
        (_side_line(names[0], rnd.a, limit=half), _side_line(names[1], rnd.b, limit=half))
    )


def clash_verdict(result: ClashResult, names: tuple[str, str]) -> list[str]:
    final = result.final
    score = f"{final.a.successes} vs {final.b.successes}"
    if result.winner is None:
        if result.decided_by is ClashDecision.NO_DICE:
            return ["**Stand-off**: neither side has any dice, so nobody can win."]
        return [f"**Stand-off**: still deadlocked after {len(result.rounds)} rounds."]
    winner = names[0] if result.winner is ClashSide.A else names[1]
    reason = {
        ClashDecision.SUCCESSES: f"more successes ({score})",
        ClashDecision.SIXES: (f"tied {score}, more 6s ({final.a.sixes} vs {final.b.sixes})"),
        ClashDecision.ATTACKER_WINS_TIE: f"tied {score}, the attacker wins ties",
        ClashDecision.NO_DICE: "neither side has dice and the attacker wins ties",
        ClashDecision.ROUND_LIMIT: "the round limit",
    }[result.decided_by]
    lines = [f"**{winner} wins** — {reason}; margin {result.margin}."]
    if result.advantage:
        lines.append(f"Advantage: {winner} won by 2 or more successes.")
    return lines


def clash_embed(sides: ClashSides, result: ClashResult) -> discord.Embed:
    """Every round of a clash (earlier ones collapsed if they would not fit), then the verdict."""
    names = (escape(sides.a.who), escape(sides.b.who))
    title = f"Clash: {names[0]} ({sides.a.what}) vs {names[1]} ({sides.b.what})"
    if result.attack:
        title = f"Attack: {names[0]} ({sides.a.what}) vs {names[1]} ({sides.b.what})"
    if sides.a.label:
        title += f" — {escape(sides.a.label)}"
    if len(title) > TITLE_LIMIT:
        title = title[: TITLE_LIMIT - 1] + "…"
    lines = [
        f"{names[0]}: {pool_summary(result.a, sides.a.condition_banes)}",
        f"{names[1]}: {pool_summary(result.b, sides.b.condition_banes)}",
    ]
    if result.attack:
        lines.append(f"{names[0]} attacks: the attacker wins ties.")
    lines.extend(clash_verdict(result, names))
    if len(result.rounds) > 1:
        lines.append(f"{len(result.rounds) - 1} deadlocked round(s) repeated before the last.")
    lines.extend(sides.notes)
    lines.extend(sides.a.notes)
    lines.extend(sides.b.notes)
    description = "\n".join(lines)[:4000]
    if result.winner is None:
        colour = NEUTRAL_COLOUR
    elif result.winner is ClashSide.A:
        colour = ADVANTAGE_COLOUR if result.advantage else SUCCESS_COLOUR
    else:
        colour = FAILURE_COLOUR
    embed = discord.Embed(title=title, description=description, colour=colour)
    footer = legend([r.a for r in result.rounds] + [r.b for r in result.rounds])
    budget = EMBED_BUDGET - len(title) - len(description) - len(footer)
    fields = _round_fields(names, result, budget)
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=False)
    if footer:
        embed.set_footer(text=footer)
    return embed


def _round_fields(
    names: tuple[str, str], result: ClashResult, budget: int
) -> list[tuple[str, str]]:
    """Fields for the rounds, newest kept in full; older ones collapsed when space runs out."""
    rounds = result.rounds
    last = len(rounds)
    final_name = f"Round {last}" + (" (deciding)" if last > 1 else "")
    final_value = _round_value(names, rounds[-1], limit=min(FIELD_LIMIT, max(200, budget // 2)))
    used = len(final_name) + len(final_value)
    earlier: list[tuple[str, str]] = []
    collapsed_upto = 0
    for index in range(last - 1, 0, -1):  # rounds last-1 … 1, newest first
        rnd = rounds[index - 1]
        name = f"Round {index} — {_round_reason(rnd)}"
        value = _round_value(names, rnd, limit=400)
        if used + len(name) + len(value) + 120 > budget or len(earlier) >= 20:
            collapsed_upto = index
            break
        used += len(name) + len(value)
        earlier.append((name, value))
    fields: list[tuple[str, str]] = []
    if collapsed_upto:
        span = "Round 1" if collapsed_upto == 1 else f"Rounds 1–{collapsed_upto}"
        fields.append((span, "Deadlocked and repeated (dice not shown to fit Discord's limits)."))
    fields.extend(reversed(earlier))
    fields.append((final_name, final_value))
    return fields


# --- redrawing from the roll log ---------------------------------------------------------


def logged_embed(kind: str, data: Mapping[str, Any]) -> discord.Embed:
    """Redraw a stored /pool, /check or /clash result (as the cogs store it)."""
    if kind == "clash":
        sides = ClashSides(
            a=RollHeading.from_dict(data["a_heading"]),
            b=RollHeading.from_dict(data["b_heading"]),
        )
        return clash_embed(sides, ClashResult.from_dict(data["clash"]))
    difficulty = data.get("difficulty")
    return skill_roll_embed(
        RollHeading.from_dict(data["heading"]),
        PoolResult.from_dict(data["roll"]),
        Difficulty(int(difficulty)) if difficulty is not None else None,
    )


def roll_line(roll: PoolResult) -> str:
    """A plain one-line summary for logs: ``3d6 [3+1, 4, 6] = 3 successes``."""
    faces = ", ".join(
        "+".join(str(f) for f in d.final_faces) if d.explosions else str(d.final_face)
        for d in roll.dice
    )
    return f"{len(roll.dice)}d6 [{faces}] = {_plural(roll.successes, 'success')}"
