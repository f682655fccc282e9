"""Choosing the Mysteries subfield a 2d10 casting rolls, and its autocomplete."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.errors import UserError
from bot.render.character import safe
from bot.rules.errors import RulesError
from bot.rules.twod10.skills import Skill, SkillKey
from bot.storage.twod10_characters import TwoD10CharacterRepository, TwoD10Sheet
from cogs.twod10 import options

NONE = "none"  # the label of a caster without any Mysteries skill


def subfields(sheet: TwoD10Sheet) -> list[str]:
    return [k.subfield or "" for k, _ in sheet.character.skills if k.skill is Skill.MYSTERIES]


def mysteries_of(sheet: TwoD10Sheet, named: str | None) -> str:
    """The subfield to roll (ruling ``no-mysteries`` in bot.rules.twod10.magic).

    A named subfield is rolled at the sheet's rank in it (0 if it has none); with
    none named, the sheet's only subfield, or "none" (0) for a sheet without one.
    """
    if named is not None:
        try:
            return SkillKey(skill=Skill.MYSTERIES, subfield=named).subfield or NONE
        except RulesError as exc:
            raise options.rules(exc) from None
    held = subfields(sheet)
    if not held:
        return NONE
    if len(held) == 1:
        return held[0]
    listed = ", ".join(safe(s) for s in held[:5])
    raise UserError(
        f"{safe(sheet.name)} has several Mysteries subfields ({listed}): name one with mysteries:."
    )


async def mysteries_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The named (or active) character's Mysteries subfields."""
    if interaction.guild_id is None:
        return []
    name = getattr(interaction.namespace, "character", None)
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        repo = TwoD10CharacterRepository(conn)
        if isinstance(name, str) and name.strip():
            sheet = await repo.find(interaction.guild_id, name[:64])
        else:
            sheet = await repo.active(interaction.guild_id, interaction.user.id)
    found = subfields(sheet) if sheet is not None else []
    typed = current[:40].lower()
    return [app_commands.Choice(name=s, value=s) for s in found if typed in s][:25]
