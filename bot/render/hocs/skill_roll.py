"""Skill rolls (ad-hoc pools, tests and clashes) as one compact embed each.

The dice markup lives in ``skill_roll_dice`` and clashes in ``skill_roll_clash``;
this module judges tests, redraws a stored roll and re-exports the pieces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.render.hocs.skill_roll_clash import ClashSides, clash_embed, clash_verdict
from bot.render.hocs.skill_roll_dice import (
    ADVANTAGE_COLOUR,
    FAILURE_COLOUR,
    FIELD_LIMIT,
    NEUTRAL_COLOUR,
    SEPARATOR,
    SUCCESS_COLOUR,
    TITLE_LIMIT,
    ZERO_DICE_NOTE,
    RollHeading,
    dice_markdown,
    die_markdown,
    legend,
    pool_summary,
    successes_text,
    unused_line,
)
from bot.render.text import plural, safe_line
from bot.rules.hocs.check import TestOutcome, TestResult
from bot.rules.hocs.clash import ClashResult
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.pool import PoolResult

__all__ = [
    "FIELD_LIMIT",
    "SEPARATOR",
    "ClashSides",
    "RollHeading",
    "clash_embed",
    "clash_verdict",
    "dice_markdown",
    "die_markdown",
    "legend",
    "logged_embed",
    "pool_summary",
    "roll_line",
    "skill_roll_embed",
    "successes_text",
    "test_lines",
]


def _title(heading: RollHeading, prefix: str = "") -> str:
    title = f"{prefix}{safe_line(heading.who)} rolls {heading.what}"
    if heading.label:
        title += f" — {safe_line(heading.label)}"
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
    # A determination point spent after the roll is told once, by the spend's note
    # ("Mira spent a determination point after the roll (2 left)"), not twice.
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


# --- redrawing from the roll log ---------------------------------------------------------


def logged_embed(kind: str, data: Mapping[str, Any]) -> discord.Embed:
    """Redraw a stored /pool, /check or /clash result (as the cogs store it)."""
    if kind == "clash":
        sides = ClashSides(
            a=RollHeading.from_dict(data["a_heading"]),
            b=RollHeading.from_dict(data["b_heading"]),
            notes=tuple(str(n) for n in data.get("notes", ())),  # points spent on it
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
    return f"{len(roll.dice)}d6 [{faces}] = {plural(roll.successes, 'success')}"
