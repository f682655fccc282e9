"""A 2d10 character's inventory and encumbrance: items in the inventory's order
(readily accessible first, then the backpack), the weights and what they cost."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.render.text import plural, safe
from bot.render.twod10.rations import amount
from bot.rules.twod10.encumbrance import IGNORED, Draw, Encumbrance, Item

COLOUR = discord.Colour.dark_gold()
MAX_LINES = 30


def item_line(number: int, item: Item) -> str:
    count = f" x{item.count}" if item.count > 1 else ""
    return f"{number}. {safe(item.name)}{count} (weight {amount(Fraction(item.weight))} each)"


def encumbrance_text(load: Encumbrance) -> str:
    """Weights, EP before and after toughness, and the effects."""
    ignored = sorted(n for n in IGNORED[load.toughness] if n <= load.raw_ep)
    which = ", ".join(f"#{n}" for n in ignored) or "none"
    lines = [
        f"Worn or readily accessible: weight {amount(load.worn_weight)} → {load.worn_ep} EP",
        f"Backpack: weight {amount(load.backpack_weight)} → {load.backpack_ep} EP",
        f"Toughness {load.toughness} ignores EP {which}: **{load.ep} EP**",
    ]
    if load.ep:
        lines.append(
            f"Movement {load.movement} ft; {load.roll_penalty} to Athletics, Stealth and"
            f" Finesse rolls and to the finesse defense; {load.travel_penalty} overland"
            " travel points."
        )
    else:
        lines.append(f"Unencumbered: movement {load.movement} ft.")
    return "\n".join(lines)


def inventory_embed(
    name: str, gear: tuple[Item, ...], items: list[Item], load: Encumbrance, *,
    rations: str, supplies: int,
) -> discord.Embed:  # fmt: skip
    worn = [*gear, *(i for i in items if i.worn)]
    pack = [i for i in items if not i.worn]
    listed = [*worn, *pack]
    lines = [item_line(n, i) for n, i in enumerate(listed, 1)][:MAX_LINES]
    if len(listed) > MAX_LINES:
        lines.append(f"… and {len(listed) - MAX_LINES} more.")
    embed = discord.Embed(title=f"{safe(name)}: inventory", colour=COLOUR,
                          description="\n".join(lines) or "Nothing carried.")  # fmt: skip
    extra = f"{rations}; {plural(supplies, 'unit')} of medical supplies"
    embed.add_field(name="Also in the backpack", value=extra, inline=False)
    embed.add_field(name="Encumbrance", value=encumbrance_text(load), inline=False)
    embed.set_footer(text=f"Items 1-{len(worn)} are readily accessible." if worn else
                     "Everything is in the backpack.")  # fmt: skip
    return embed


def draw_text(name: str, item: str, draw: Draw, attempt: int) -> str:
    if draw.face is None:
        return f"{safe(name)} takes {safe(item)} out of the backpack (no EP in it)."
    bonus = f" + {draw.bonus} (try {attempt})" if draw.bonus else ""
    outcome = "gets it out" if draw.drawn else "is still rummaging"
    return (f"{safe(name)} digs for {safe(item)}: d{draw.sides} shows {draw.face}{bonus},"
            f" needs {draw.sides}: {outcome}.")  # fmt: skip
