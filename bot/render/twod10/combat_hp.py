"""Replies of the 2d10 /hp, /condition and /shield commands."""

from __future__ import annotations

import discord

from bot.render.text import safe
from bot.render.twod10.combat import hp_status
from bot.storage.twod10.characters import TwoD10Sheet

CONDITION_TEXT = {
    "prone": "prone: attacks against it have advantage; standing up costs movement",
    "unconscious": "unconscious: it regains consciousness at 1 HP",
    "dead": "dead: at or below its death threshold",
}


def hp_embed(before: TwoD10Sheet, after: TwoD10Sheet, what: str) -> discord.Embed:
    lines = [
        f"{what}: {before.hp}/{before.max_hp} HP → **{hp_status(after)}**",
        f"Death threshold: {after.death_threshold}.",
    ]
    if after.hp <= 0 < before.hp and "dead" not in after.conditions:
        lines.append(f"{safe(after.name)} is dying: a dying roll each turn.")
    return discord.Embed(title=f"{safe(after.name)}: hit points", description="\n".join(lines))


def conditions_embed(sheet: TwoD10Sheet) -> discord.Embed:
    lines = [f"- {CONDITION_TEXT[c.value]}" for c in sheet.conditions]
    if sheet.hp <= 0 and "dead" not in sheet.conditions:
        lines.append("- dying: at 0 HP or below, a dying roll each turn")
    if not lines:
        lines = ["No conditions."]
    lines.append(f"{hp_status(sheet)}.")
    return discord.Embed(title=f"{safe(sheet.name)}: conditions", description="\n".join(lines))
