"""The tracker's prompt for a due dying roll, and what the prompt becomes once rolled."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.delivery.replies import NO_PINGS, only_pinging
from bot.render.text import safe

COLOUR = discord.Colour.dark_red()


@dataclass(frozen=True)
class Prompt:
    content: str
    embed: discord.Embed
    allowed_mentions: discord.AllowedMentions


def dying_prompt(name: str, owner_id: int | None) -> Prompt:
    """Pings only a player character's player (``owner_id``); the GM's NPCs ping nobody."""
    lead = f"<@{owner_id}> " if owner_id is not None else ""
    embed = discord.Embed(
        title="Dying roll due",
        description=(
            f"{safe(name)} is dying: 2d10 + toughness + defense (toughness) + current HP."
            " Below 10 falls unconscious and loses 1 HP; 10 or more gains 1 HP; back at"
            " 1 HP wakes; at the death threshold, dead.\n"
            "Roll it with the button below (the player, or the GM for them)."
        ),
        colour=COLOUR,
    )
    mentions = only_pinging([owner_id]) if owner_id is not None else NO_PINGS
    return Prompt(f"{lead}**{safe(name)}** must make a dying roll.", embed, mentions)


def rolled_content(name: str, round_: int) -> str:
    return f"**{safe(name)}**'s dying roll (round {round_}) is made."
