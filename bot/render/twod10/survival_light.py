"""Torches and lanterns: what the party sees (lit, out, a warning) and what the GM
sees (the secret turns left). The burn time appears only in ``gm_*`` texts."""

from __future__ import annotations

from bot.render.text import noun, plural, safe
from bot.rules.twod10.light import Light, warning
from bot.storage.twod10.lights import LightRow


def party_line(row: LightRow) -> str:
    text = (
        f"{safe(row.character_name)}'s {row.light.kind.value} (#{row.id}): {row.light.status.value}"
    )
    warn = warning(row.light)
    if row.light.lit and warn:
        text += f"; {warn[0].lower()}{warn[1:]}"
    return text


def gm_line(row: LightRow) -> str:
    faces = ", ".join(str(f) for f in row.light.burn_roll)
    return (
        f"{safe(row.character_name)}'s {row.light.kind.value} (#{row.id}):"
        f" {row.light.status.value}, {plural(row.light.remaining, 'turn')} left"
        f" (burn roll [{faces}])"
    )


def gm_burn_text(name: str, light_id: int, light: Light) -> str:
    count, sides = light.kind.burn_dice
    faces = ", ".join(str(f) for f in light.burn_roll)
    return (
        f"Secret burn time for {safe(name)}'s {light.kind.value} (#{light_id}):"
        f" {count}d{sides} [{faces}], highest **{light.remaining}**"
        f" {noun(light.remaining, 'turn')}."
    )


def party_warning(name: str, light: Light) -> str | None:
    warn = warning(light)
    return f"{safe(name)}: {warn}" if warn else None
