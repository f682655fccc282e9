"""Rests, medicine and dying rolls as embeds: every die, every modifier, the HP change."""

from __future__ import annotations

import discord

from bot.render.text import safe
from bot.render.twod10.task import dice_text, modifiers_text
from bot.rules.twod10.dying import DyingResult
from bot.rules.twod10.healing import RestResult
from bot.rules.twod10.medicine import AttributeHealing, MedicineResult
from bot.rules.twod10.tasks import Edge, TaskResult

GOOD = discord.Colour.green()
BAD = discord.Colour.red()


def roll_lines(result: TaskResult, what: str) -> list[str]:
    edge = result.roll.edge
    dice = "2d10" if edge is Edge.NONE else f"3d10 ({edge.value})"
    lines = [f"🎲 {safe(what)}: {dice} {dice_text(result)} = {result.natural}"]
    lines.append(f"**{result.total}** = {result.natural} {modifiers_text(result)}".rstrip())
    if result.natural_two:
        lines.append("Natural 2.")
    return lines


def _hp(name: str, before: int, after: int, max_hp: int) -> str:
    return f"{safe(name)}: HP {before} → **{after}** / {max_hp}"


def rest_embed(name: str, rest: RestResult, *, long: bool, medicine: MedicineResult | None,
               medic: str | None, supplies_note: str | None) -> discord.Embed:  # fmt: skip
    title = f"{safe(name)}: {'long' if long else 'short'} rest"
    lines = [f"The rest offers {rest.natural} HP."]
    if medicine is not None:
        lines += roll_lines(medicine.roll, f"medicine by {medic}")
        lines.append(f"Medicine: {medicine.change:+d} HP.")
        if supplies_note:
            lines.append(supplies_note)
    if not long:
        lines.append(f"Capped at {rest.cap} HP (the HP at the last short rest, or the maximum).")
    lines.append(_hp(name, rest.before.hp, rest.after.hp, rest.after.max_hp))
    if not long:
        lines.append("No further short rest until damage is taken.")
    return discord.Embed(title=title, description="\n".join(lines), colour=GOOD)


def medicine_embed(patient: str, medic: str, what: str, result: MedicineResult,
                   supplies_note: str | None) -> discord.Embed:  # fmt: skip
    assert result.before is not None and result.after is not None
    lines = roll_lines(result.roll, f"{what} by {medic}")
    lines.append(f"Change: {result.change:+d} HP.")
    if result.advantage_granted:
        lines.append("Stabilised: advantage on the next toughness roll.")
    elif what == "stabilise":
        lines.append("Not stabilised (the roll needs 10).")
    if supplies_note:
        lines.append(supplies_note)
    lines.append(_hp(patient, result.before.hp, result.after.hp, result.after.max_hp))
    colour = GOOD if result.change >= 0 else BAD
    return discord.Embed(title=f"{safe(patient)}: {what}", description="\n".join(lines),
                         colour=colour)  # fmt: skip


def attribute_embed(patient: str, medic: str, result: AttributeHealing,
                    supplies_note: str | None) -> discord.Embed:  # fmt: skip
    lines = roll_lines(result.roll, f"medicine by {medic}")
    lines.append(f"Needed {result.needed}.")
    lines.append(
        "One point of attribute damage heals." if result.healed else "No attribute damage heals."
    )
    if supplies_note:
        lines.append(supplies_note)
    return discord.Embed(
        title=f"{safe(patient)}: attribute damage", description="\n".join(lines),
        colour=GOOD if result.healed else BAD,
    )  # fmt: skip


def dying_embed(name: str, result: DyingResult) -> discord.Embed:
    lines = roll_lines(result.roll, "dying roll")
    if result.died:
        outcome = "Below 10: loses 1 HP and reaches the death threshold. **Dead.**"
    elif result.succeeded:
        outcome = "10 or more: gains 1 HP."
        if result.woke:
            outcome += " Back at 1 HP: regains consciousness."
    else:
        outcome = "Below 10: falls unconscious and loses 1 HP."
    lines.append(outcome)
    lines.append(_hp(name, result.before.hp, result.after.hp, result.after.max_hp))
    return discord.Embed(title=f"{safe(name)}: dying roll", description="\n".join(lines),
                         colour=GOOD if result.succeeded else BAD)  # fmt: skip


def supplies_note(spent: bool, needed: bool, left: int | None) -> str | None:
    if not needed:
        return None
    if spent:
        return f"One unit of medical supplies spent ({left} left)."
    return "No medical supplies: the roll had disadvantage."
