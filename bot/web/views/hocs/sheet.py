"""One HOCS character's sheet page, as ``/character show`` shows it to the viewer.

A player sees the whole of a player character's sheet. An NPC whose state the GM keeps
hidden (``visibility``, ruling web-npc-visibility) shows what the public ``/character
show`` shows a player (``bot.render.hocs.character.sheet_embed`` with ``hidden``): its
attributes, threshold, fortune points, carrying capacity, toughness, mettle, speed,
skills, weapons, defenses, traits and fundamentals, and the status word instead of hit
points; no recovery, determination, conditions or wounds (those fields are None/empty).
Values in play are the effective (wounded) ones, each with its unwounded base.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.render.hocs.character import FUNDAMENTAL_QUESTIONS, dice_text
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.skills import CATALOGUE
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.web.views.common import PageNotFound, Vitals, load_campaign
from bot.web.views.hocs.table import WoundRow, wound_rows
from bot.web.views.hocs.visibility import character_vitals, seated_switches, sees_character
from bot.web.views.viewer import Viewer


@dataclass(frozen=True, kw_only=True)
class AttributeRow:
    short: str  # "STR" ("INS" for mind played as instinct)
    label: str
    value: int
    base: int  # unwounded
    dice: str  # "1d8"


@dataclass(frozen=True, kw_only=True)
class SkillRow:
    name: str
    attribute: str  # short label
    training: int
    expertise: bool
    custom: bool
    value: int
    base: int


@dataclass(frozen=True, kw_only=True)
class WeaponRow:
    name: str
    dice: str
    types: tuple[str, ...]
    kind: str
    lethal: bool


@dataclass(frozen=True, kw_only=True)
class HocsSheet:
    id: int
    name: str
    kind: str
    kind_title: str
    owner_id: int
    tier: int
    exp: int
    size: str
    hidden: bool  # the GM keeps this NPC's state from the viewer
    attributes: tuple[AttributeRow, ...]
    vitals: Vitals
    nonlethal: int | None  # None when hidden
    threshold: int
    threshold_base: int
    recovery: int | None
    recovery_max: int | None
    determination: int | None
    determination_max: int | None
    hero_points: int | None  # player characters only
    fortune: tuple[str, ...]
    carrying_capacity: int
    load: int
    overloaded: bool
    armor: int  # toughness
    mettle: int
    speed: int
    speed_base: int
    skills: tuple[SkillRow, ...]  # trained, expert or custom skills
    weapons: tuple[WeaponRow, ...]
    resistances: tuple[str, ...]
    immunities: tuple[str, ...]
    weaknesses: tuple[str, ...]
    traits: tuple[str, ...]
    fundamentals: tuple[tuple[str, str], ...]  # (question, answer), answered ones only
    wounds: tuple[WoundRow, ...]  # empty when hidden


def _skills(character: Character) -> tuple[SkillRow, ...]:
    values = character.effective
    sheet = values.base
    rows = []
    for skill in (*sheet.custom_skills, *CATALOGUE):
        custom = skill in sheet.custom_skills
        if not (custom or sheet.training_in(skill) or sheet.has_expertise(skill)):
            continue
        rows.append(
            SkillRow(
                name=skill.name, attribute=sheet.attribute_short(sheet.skill_attribute(skill)),
                training=sheet.training_in(skill), expertise=sheet.has_expertise(skill),
                custom=custom, value=values.skill_value(skill),
                base=values.unwounded.skill_value(skill),
            )
        )  # fmt: skip
    return tuple(rows)


def sheet_of(character: Character, *, shown: bool) -> HocsSheet:
    """The page's data (pure)."""
    sheet, details, state = character.sheet, character.details, character.state
    values = character.effective
    base = values.unwounded
    attributes = tuple(
        AttributeRow(
            short=sheet.attribute_short(a), label=sheet.attribute_label(a),
            value=values.attribute(a), base=values.base.attribute(a),
            dice=dice_text(values.attribute_die(a)),
        )
        for a in Attribute
    )  # fmt: skip
    weapons = tuple(
        WeaponRow(
            name=w.name, dice=dice_text(w.dice), types=tuple(t.value for t in w.types),
            kind=w.kind.value, lethal=w.lethal,
        )
        for w in details.weapons
    )  # fmt: skip
    return HocsSheet(
        id=character.id, name=character.name, kind=character.kind.value,
        kind_title=character.kind.title, owner_id=character.owner_id, tier=sheet.tier,
        exp=sheet.exp, size=sheet.size.value, hidden=not shown, attributes=attributes,
        vitals=character_vitals(character, shown=shown),
        nonlethal=state.nonlethal if shown else None,
        threshold=values.threshold, threshold_base=base.threshold,
        recovery=state.recovery if shown else None,
        recovery_max=values.recovery_max if shown else None,
        determination=state.determination if shown else None,
        determination_max=values.determination_max if shown else None,
        hero_points=state.hero_points if character.kind is CharacterKind.PC else None,
        fortune=character.fortune_sources,
        carrying_capacity=values.carrying_capacity, load=values.load,
        overloaded=values.overloaded, armor=details.armor, mettle=values.mettle,
        speed=values.speed, speed_base=base.speed, skills=_skills(character), weapons=weapons,
        resistances=tuple(t.value for t in details.resistances),
        immunities=tuple(t.value for t in details.immunities),
        weaknesses=tuple(t.value for t in details.weaknesses),
        traits=details.traits,
        fundamentals=tuple(
            (question, getattr(details, key))
            for key, question in FUNDAMENTAL_QUESTIONS.items() if getattr(details, key)
        ),
        wounds=wound_rows(character) if shown else (),
    )  # fmt: skip


async def character_sheet(
    conn: aiosqlite.Connection, viewer: Viewer, character_id: int
) -> HocsSheet:
    """The sheet of the viewer's server's character ``character_id``; PageNotFound when
    the server has no such character (another server's id is not found either)."""
    character = await CharacterRepository(conn).get(character_id)
    if character is None or character.guild_id != viewer.guild_id:
        raise PageNotFound("no such character")
    campaign = await load_campaign(conn, viewer.guild_id)
    seated = await seated_switches(conn, viewer.guild_id)
    return sheet_of(character, shown=sees_character(viewer, character, campaign, seated))
