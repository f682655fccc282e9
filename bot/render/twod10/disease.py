"""Disease rolls and infection lists: every die of each roll in a set, then the outcome."""

from __future__ import annotations

import discord

from bot.render.text import plural, safe
from bot.render.twod10.survival import roll_lines
from bot.rules.twod10.disease import Disease, InfectionResult, OvercomeResult, RollSet
from bot.rules.twod10.tasks import TaskResult
from bot.storage.twod10.infections import InfectionRow

GOOD = discord.Colour.green()
BAD = discord.Colour.red()


def disease_text(disease: Disease) -> str:
    return (
        f"{safe(disease.name)} ({disease.severity.value}, {disease.course.value},"
        f" difficulty {disease.difficulty:+d})"
    )


def _set_lines(rolls: RollSet) -> list[str]:
    lines: list[str] = []
    for number, roll in enumerate(rolls.rolls, 1):
        lines += roll_lines(roll, f"roll {number}")
        lines.append("Success." if roll.succeeded else "Failure.")
    lines.append(f"{plural(rolls.successes, 'success', 'successes')} of {rolls.needed} needed.")
    return lines


def infection_embed(
    name: str, disease: Disease, result: InfectionResult, *, due_day: int | None
) -> discord.Embed:
    lines = [f"{result.contact.value.capitalize()} contact with {disease_text(disease)}."]
    lines += _set_lines(result.rolls)
    if not result.infected:
        lines.append(f"{safe(name)} avoids the infection.")
    else:
        lines.append(f"{safe(name)} is infected: the first roll to overcome it is due on"
                     f" day {due_day}.")  # fmt: skip
    return discord.Embed(title=f"{safe(name)}: infection roll", description="\n".join(lines),
                         colour=BAD if result.infected else GOOD)  # fmt: skip


def overcome_embed(name: str, disease: Disease, result: OvercomeResult, *, treated: bool,
                   due_day: int | None) -> discord.Embed:  # fmt: skip
    lines = [f"Overcoming {disease_text(disease)}."]
    if treated:
        lines.append("Treatment gives the first roll advantage.")
    lines += _set_lines(result.rolls)
    if result.overcome:
        lines.append(f"{safe(name)} overcomes the disease: cured.")
    else:
        lines.append(f"{safe(name)} is still sick; the next roll is due on day {due_day}.")
    return discord.Embed(title=f"{safe(name)}: overcoming {safe(disease.name)}",
                         description="\n".join(lines),
                         colour=GOOD if result.overcome else BAD)  # fmt: skip


def treatment_embed(patient: str, medic: str, disease: Disease, roll: TaskResult) -> discord.Embed:
    lines = roll_lines(roll, f"treatment by {medic}")
    if roll.succeeded:
        lines.append(f"Success: advantage on {safe(patient)}'s next roll to overcome it.")
    else:
        lines.append("Failure: no advantage; another treatment can be tried tomorrow.")
    return discord.Embed(title=f"{safe(patient)}: treating {safe(disease.name)}",
                         description="\n".join(lines),
                         colour=GOOD if roll.succeeded else BAD)  # fmt: skip


def infection_line(row: InfectionRow, today: int) -> str:
    due = "due now" if row.due_day <= today else f"due on day {row.due_day}"
    treated = "; treated (advantage on the next roll)" if row.infection.treated else ""
    return (f"{safe(row.character_name)}: {disease_text(row.infection.disease)},"
            f" overcoming roll {due}{treated}")  # fmt: skip
