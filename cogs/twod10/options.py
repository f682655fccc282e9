"""Option text for 2d10 commands: skill lists, weapons, specialisations, autocomplete.

A slash command has at most 25 options of at most 100 characters each, so a
build's skills are one compact text per pool ("athletics 2, melee 2,
defense (finesse) 1") and its weapons one comma-separated list.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.render.text import safe
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute, Specialisation, parse_attribute
from bot.rules.twod10.equipment import ARMORS, SHIELDS, WEAPONS, Armor, Shield, Weapon
from bot.rules.twod10.equipment import armor as armor_named
from bot.rules.twod10.equipment import shield as shield_named
from bot.rules.twod10.equipment import weapon as weapon_named
from bot.rules.twod10.skills import Skill, SkillKey, parse_skill
from bot.storage.twod10.characters import TwoD10CharacterRepository

NONE_WORDS = frozenset({"none", "no", "-", "nothing"})
MAX_NAME = 64

_SPECIALISATION = re.compile(r'^\s*([A-Za-z]+)\s*(?::\s*|["“]\s*)(.+?)["”]?\s*$')
_ENTRY = re.compile(r"^(?P<skill>.*?)\s*[:=]?\s*(?P<rank>[+-]?\d{1,2})$")


def rules(exc: RulesError) -> UserError:
    """A rules refusal as a user error (its quotes of user text made inert)."""
    return UserError(safe(str(exc)))


def parse_skill_points(text: str | None, *, what: str) -> dict[SkillKey, int]:
    """``"athletics 2, defense (finesse) 1"`` → ranks; a UserError names the bad entry."""
    points: dict[SkillKey, int] = {}
    if text is None or text.strip().lower() in NONE_WORDS | {""}:
        return points
    for raw in re.split(r"[,;]", text):
        entry = raw.strip()
        if not entry:
            continue
        match = _ENTRY.match(entry)
        if not match or not match.group("skill"):
            raise UserError(
                f"In {what}, “{safe(entry[:30])}” needs a skill and its points, like"
                " “athletics 2” or “defense (finesse) 1”."
            )
        try:
            key = parse_skill(match.group("skill"))
        except RulesError as exc:
            raise UserError(f"In {what}: {safe(str(exc))}") from None
        if key in points:
            raise UserError(f"{key.label} is listed twice in {what}: give it once with its total.")
        points[key] = int(match.group("rank"))
    return points


def parse_specialisation(text: str | None, *, what: str) -> Specialisation | None:
    """``"finesse: manual dexterity"`` → a specialisation of finesse."""
    if text is None or not text.strip() or text.strip().lower() in NONE_WORDS:
        return None
    # "finesse: lockpicking", or the text's own form: finesse"manual dexterity".
    match = _SPECIALISATION.match(text)
    if not match:
        raise UserError(
            f"Write the {what} specialisation as attribute: words, e.g. “finesse: lockpicking”."
        )
    try:
        return Specialisation(attribute=parse_attribute(match[1]), text=match[2])
    except RulesError as exc:
        raise rules(exc) from None


def parse_armor(text: str | None) -> Armor | None:
    if text is None or text.strip().lower() in NONE_WORDS:
        return None
    try:
        return armor_named(text)
    except RulesError as exc:
        raise rules(exc) from None


def parse_shield(text: str | None) -> Shield | None:
    if text is None or text.strip().lower() in NONE_WORDS:
        return None
    try:
        return shield_named(text)
    except RulesError as exc:
        raise rules(exc) from None


def parse_weapons(text: str | None) -> tuple[Weapon, ...]:
    """``"one-handed axe, shortbow"`` → weapons from the table (a weapon may repeat)."""
    if text is None or text.strip().lower() in NONE_WORDS:
        return ()
    found = []
    for part in text.split(","):
        if part.strip():
            try:
                found.append(weapon_named(part))
            except RulesError as exc:
                raise rules(exc) from None
    return tuple(found)


def _matching(current: str, names: list[str]) -> list[str]:
    key = current.strip().lower()
    first = [n for n in names if n.lower().startswith(key)]
    return first + [n for n in names if key in n.lower() and n not in first]


async def armor_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return name_choices(_matching(current, ["none", *(a.name for a in ARMORS)]))


async def shield_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return name_choices(_matching(current, ["none", *(s.name for s in SHIELDS)]))


async def weapon_list_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Complete the last weapon of a comma-separated list, keeping those before it."""
    head, _, last = current[:100].rpartition(",")
    prefix = f"{head.strip()}, " if head.strip() else ""
    names = _matching(last, [w.name for w in WEAPONS])
    return name_choices([f"{prefix}{n}" for n in names if len(prefix) + len(n) <= 100])


def skill_names() -> list[str]:
    names = []
    for skill in Skill:
        if skill.needs_attribute:
            names += [f"{skill.value} ({a.value})" for a in Attribute]
        elif skill.needs_subfield:
            names.append(f"{skill.value} (subfield)")
        else:
            names.append(skill.value)
    return names


async def skill_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The active (or named) character's skills first, then the whole skill list."""
    own: list[str] = []
    if interaction.guild_id is not None:
        name = getattr(interaction.namespace, "character", None)
        async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
            repo = TwoD10CharacterRepository(conn)
            if isinstance(name, str) and name.strip():
                sheet = await repo.find(interaction.guild_id, name[:MAX_NAME])
            else:
                sheet = await repo.active(interaction.guild_id, interaction.user.id)
        if sheet is not None:
            own = [key.label.lower() for key, _ in sheet.character.skills]
    names = own + [n for n in skill_names() if n not in own]
    return name_choices(_matching(current, names))


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """2d10 characters whose names contain what was typed, the user's own first."""
    if interaction.guild_id is None:
        return []
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        names = await TwoD10CharacterRepository(conn).search_names(
            interaction.guild_id, current[:MAX_NAME], owner_id=interaction.user.id
        )
    return name_choices(names)


def parse_skill_option(text: str) -> SkillKey:
    try:
        return parse_skill(text[:100])
    except RulesError as exc:
        raise rules(exc) from None


async def feat_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The feats on the named (or active) character's sheet, to remove one."""
    if interaction.guild_id is None:
        return []
    name = getattr(interaction.namespace, "name", None)
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        repo = TwoD10CharacterRepository(conn)
        if isinstance(name, str) and name.strip():
            sheet = await repo.find(interaction.guild_id, name[:MAX_NAME])
        else:
            sheet = await repo.active(interaction.guild_id, interaction.user.id)
    feats = [f for f in (sheet.character.feats if sheet else ()) if len(f) <= 100]
    return name_choices(_matching(current[:100], feats))


async def own_character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Only the user's own characters (for select)."""
    if interaction.guild_id is None:
        return []
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        mine = await TwoD10CharacterRepository(conn).list(
            interaction.guild_id, owner_id=interaction.user.id
        )
    return name_choices(_matching(current[:MAX_NAME], [s.name for s in mine]))
