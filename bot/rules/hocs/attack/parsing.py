"""Parsing what players type: damage dice ("1d10 1d8 2d6", "1d12+2") and damage types."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.rules.errors import RulesError
from bot.rules.hocs.damage_pool import (
    DamageType,
)

DAMAGE_DICE_SIZES = (4, 6, 8, 10, 12, 20)
MAX_DAMAGE_DICE = 12
MAX_DAMAGE_BONUS = 20

_DIE = re.compile(r"^(?P<count>\d*)d(?P<sides>\d+)$")
_BONUS = re.compile(r"^[+-]?\d+$")


def parse_damage_dice(text: str) -> tuple[tuple[int, ...], int]:
    """ "1d10 1d8 2d6" or "1d12+2" → ((10, 8, 6, 6), 0) / ((12,), 2).

    Dice are separated by spaces, commas or +; a plain number is a bonus.
    Raises RulesError for anything else.
    """
    raw = text.strip().lower()
    tokens = [t for t in re.split(r"[\s,]+|(?=[+-])", raw.replace("+", " +")) if t]
    sizes: list[int] = []
    bonus = 0
    for token in tokens:
        token = token.lstrip("+") if token.startswith("+") and "d" in token else token
        die = _DIE.match(token)
        if die:
            count = int(die.group("count") or 1)
            sides = int(die.group("sides"))
            if count + len(sizes) > MAX_DAMAGE_DICE:
                raise RulesError(f"A damage roll takes at most {MAX_DAMAGE_DICE} dice; roll fewer.")
            if sides not in DAMAGE_DICE_SIZES:
                raise RulesError(
                    f"Damage dice are d4, d6, d8, d10, d12 or d20; d{sides} is not one of them."
                )
            if count < 1:
                raise RulesError("Roll at least one die of each kind you name, e.g. 1d8.")
            sizes.extend([sides] * count)
        elif _BONUS.match(token):
            bonus += int(token)
        else:
            shown = text.strip()[:30].replace("`", "'")
            raise RulesError(
                f"I couldn't read `{shown}` as damage dice: write them like 1d12 or"
                " 1d10 1d8 2d6 (d4–d20), or give a weapon's name."
            )
    if not sizes:
        raise RulesError("A damage roll needs at least one die, such as 1d8.")
    if abs(bonus) > MAX_DAMAGE_BONUS:
        raise RulesError(f"A damage bonus goes from −{MAX_DAMAGE_BONUS} to +{MAX_DAMAGE_BONUS}.")
    return tuple(sizes), bonus


def parse_damage_types(text: str | None) -> tuple[DamageType, ...]:
    """ "slash, fire" → (SLASH, FIRE); empty → (PHYSICAL,)."""
    if text is None or not text.strip():
        return (DamageType.PHYSICAL,)
    return parse_type_list(text) or (DamageType.PHYSICAL,)


def parse_type_list(text: str) -> tuple[DamageType, ...]:
    """A comma- or space-separated list of damage types; "-" or "none" is empty."""
    found: list[DamageType] = []
    for word in re.split(r"[\s,;/+]+", text.strip().lower()):
        if not word or word in {"-", "none"}:
            continue
        try:
            damage_type = DamageType(word)
        except ValueError:
            valid = ", ".join(t.value for t in DamageType)
            shown = word[:20].replace("`", "'")
            raise RulesError(f"`{shown}` is not a damage type; use one of: {valid}.") from None
        if damage_type not in found:
            found.append(damage_type)
    return tuple(found)


def dice_text(sizes: Sequence[int]) -> str:
    """(10, 8, 6, 6) → "1d10 + 1d8 + 2d6" (in order of first appearance)."""
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    return " + ".join(f"{n}d{size}" for size, n in counts.items())
