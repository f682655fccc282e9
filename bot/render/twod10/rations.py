"""Rations: a day's meal (and its roll), a character's stock, the day's passing."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.render.text import plural, safe
from bot.render.twod10.survival import roll_lines
from bot.rules.twod10.rations import RationDay, RationState

GOOD = discord.Colour.green()
BAD = discord.Colour.red()


def amount(value: Fraction) -> str:
    """``2 1/4`` rations: whole part and quarters, never a decimal."""
    whole, rest = divmod(value, 1)
    if not rest:
        return str(int(whole))
    if not whole:
        return f"{rest.numerator}/{rest.denominator}"
    return f"{int(whole)} {rest.numerator}/{rest.denominator}"


def rations_text(value: Fraction) -> str:
    """``1/2 ration``, ``1 ration``, ``0 rations``, ``2 1/4 rations``: a part of one ration
    is still "a ration"; none or more than one, rations."""
    return f"{amount(value)} {'ration' if 0 < value <= 1 else 'rations'}"


def state_text(state: RationState) -> str:
    text = f"{rations_text(state.rations)} (weight {amount(state.weight)})"
    if state.exhausted:
        days = plural(state.full_days_needed, "more full day")
        text += f"; exhausted until {days} of rations"
    return text


def meal_embed(name: str, meal: RationDay, day: int) -> discord.Embed:
    lines = [f"Day {day}: {safe(name)} eats a {meal.portion.value} day's rations."]
    if meal.roll is not None:
        lines += roll_lines(meal.roll, "toughness + defense (toughness)")
        if meal.exhaustion_gained:
            lines.append("Failure: **exhaustion** (the GM applies it).")
        else:
            lines.append("Success: no exhaustion from hunger today.")
    if meal.recovered:
        lines.append("Enough full days eaten: the exhaustion lifts.")
    lines.append(f"Left: {state_text(meal.after)}.")
    colour = BAD if meal.exhaustion_gained else GOOD
    return discord.Embed(title=f"{safe(name)}: {meal.portion.value} rations",
                         description="\n".join(lines), colour=colour)  # fmt: skip
