"""One 2d10 character's sheet page, as ``/character show`` shows it to the viewer.

A hidden NPC's sheet (``visibility``) shows what the public ``/character show`` shows a
player (``bot.render.twod10.sheet.sheet_embed`` with ``hidden``): attributes and
defenses, skills, specialisations, feats and equipment; no hit points, death threshold
or conditions (those fields are None/empty).
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.render.twod10.sheet import armor_line, shield_line, weapon_line
from bot.rules.twod10.attributes import Attribute
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Sheet
from bot.web.views.common import PageNotFound, Vitals, load_campaign
from bot.web.views.twod10.visibility import sees_sheet, sheet_vitals
from bot.web.views.viewer import Viewer


@dataclass(frozen=True, kw_only=True)
class TwoD10AttributeRow:
    label: str
    value: int
    defense: int


@dataclass(frozen=True, kw_only=True)
class TwoD10SheetPage:
    id: int
    name: str
    kind: str
    kind_title: str
    owner_id: int
    background: str
    hidden: bool
    vitals: Vitals
    death_threshold: int | None  # None when hidden
    attributes: tuple[TwoD10AttributeRow, ...]
    skills: tuple[tuple[str, int], ...]  # (label, rank)
    specialisations: tuple[tuple[str, str, str], ...]  # ("+" or "−", attribute, text)
    feats: tuple[str, ...]
    armor: str
    shield: str
    damage_reduction: int
    armor_penalty: int
    weapons: tuple[str, ...]


def sheet_of(sheet: TwoD10Sheet, *, shown: bool) -> TwoD10SheetPage:
    """The page's data (pure)."""
    c = sheet.character
    specs = []
    if c.positive is not None:
        specs.append(("+", c.positive.attribute.value, c.positive.text))
    if c.negative is not None:
        specs.append(("\u2212", c.negative.attribute.value, c.negative.text))
    return TwoD10SheetPage(
        id=sheet.id, name=sheet.name, kind=sheet.kind.value, kind_title=sheet.kind.title,
        owner_id=sheet.owner_id, background=c.background, hidden=not shown,
        vitals=sheet_vitals(sheet, shown=shown),
        death_threshold=c.death_threshold if shown else None,
        attributes=tuple(
            TwoD10AttributeRow(label=a.label, value=c.attribute(a), defense=c.defense_value(a))
            for a in Attribute
        ),
        skills=tuple((key.label, rank) for key, rank in c.skills),
        specialisations=tuple(specs), feats=c.feats,
        armor=armor_line(c.armor), shield=shield_line(c.shield),
        damage_reduction=c.damage_reduction, armor_penalty=c.armor_penalty,
        weapons=tuple(weapon_line(w) for w in c.weapons),
    )  # fmt: skip


async def character_sheet(
    conn: aiosqlite.Connection, viewer: Viewer, character_id: int
) -> TwoD10SheetPage:
    """The sheet of the viewer's server's character ``character_id``; PageNotFound when
    the server has none by that id (the lookup is by guild)."""
    sheet = await TwoD10CharacterRepository(conn).get(viewer.guild_id, character_id)
    if sheet is None:
        raise PageNotFound("no such character")
    campaign = await load_campaign(conn, viewer.guild_id)
    return sheet_of(sheet, shown=sees_sheet(viewer, sheet, campaign))
