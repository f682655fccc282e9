"""Option types, text cleaning and autocomplete for /character."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.interactions.user_text import MAX_NAME
from bot.render.text import safe
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.skills import match_names, match_skill_names
from bot.storage.hocs.characters import Character, CharacterRepository

MAX_TRAIT = 40
MAX_FUNDAMENTAL = 200
MAX_SKILL_NAME = 32
MAX_CUSTOM_SKILLS = 15
MAX_ARMOR = 10

Name = commands.Range[str, 1, MAX_NAME]
AttributeValue = commands.Range[int, 1, 5]
Tier = commands.Range[int, 1, 3]
Training = commands.Range[int, 0, 3]
Exp = commands.Range[int, 0, 1_000_000]
Armor = commands.Range[int, 0, MAX_ARMOR]
TraitText = commands.Range[str, 1, MAX_TRAIT]
Fundamental = commands.Range[str, 1, MAX_FUNDAMENTAL]
SkillName = commands.Range[str, 1, 100]
CustomSkillName = commands.Range[str, 1, MAX_SKILL_NAME]
Kind = Literal["pc", "ally", "antagonist"]
Size = Literal[
    "fine",
    "diminutive",
    "tiny",
    "small",
    "medium",
    "large",
    "huge",
    "gargantuan",
    "colossal",
]
Spirit = Literal["mind", "presence"]
CustomAttribute = Literal["strength", "agility", "mind", "presence", "mind or presence"]
TraitAction = Literal["add", "remove"]


class NameTaken(UserError):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"There is already a character called {safe(name)} here: pick another name."
        )


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Characters of the guild whose names contain what was typed, the user's own first."""
    if interaction.guild_id is None:
        return []
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        names = await CharacterRepository(conn).search_names(
            interaction.guild_id, current[:MAX_NAME], owner_id=interaction.user.id
        )
    return name_choices(names)


async def own_character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Only the user's own characters (for select)."""
    if interaction.guild_id is None:
        return []
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        mine = await CharacterRepository(conn).list(
            interaction.guild_id, owner_id=interaction.user.id
        )
    return name_choices(match_names(current[:MAX_NAME], tuple(c.name for c in mine)))


async def _character_for(interaction: discord.Interaction) -> Character | None:
    """The character the command is about: the typed ``name`` option, else the active one."""
    if interaction.guild_id is None:
        return None
    name = getattr(interaction.namespace, "name", None)
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        repo = CharacterRepository(conn)
        if isinstance(name, str) and name.strip():
            return await repo.find(interaction.guild_id, name[:MAX_NAME])
        return await repo.get_active(interaction.guild_id, interaction.user.id)


async def _sheet_for(interaction: discord.Interaction) -> CharacterSheet | None:
    character = await _character_for(interaction)
    return character.sheet if character else None


async def skill_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Catalogue skills plus the sheet's custom skills (no attributes: they can't be trained)."""
    sheet = await _sheet_for(interaction)
    extra = sheet.custom_skills if sheet else ()
    return name_choices(match_skill_names(current[:100], extra=extra, include_attributes=False))


async def custom_skill_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The sheet's custom skills (to change or remove one)."""
    sheet = await _sheet_for(interaction)
    names = tuple(s.name for s in sheet.custom_skills) if sheet else ()
    return name_choices(match_names(current[:100], names))


async def trait_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The sheet's traits (to remove one)."""
    character = await _character_for(interaction)
    traits = character.details.traits if character else ()
    return name_choices(match_names(current[:MAX_TRAIT], traits))
