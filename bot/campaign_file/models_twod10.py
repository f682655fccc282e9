"""The 2d10 part of the campaign file: characters with everything they carry, and
encounters.

Per-character rows (shield blocks, survival, lights, ammo, oil, rations, infections,
items, concentration) ride inside their character, so no reference can dangle. The
documents the bot stores as JSON are checked by their codecs
(``bot.rules.twod10.sheet_codec``, ``survival_codec``, ``initiative.codec``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from bot.campaign_file.models_common import (
    BIG,
    HP_LIMIT,
    Count,
    FileModel,
    Flag,
    Kind,
    Name,
    Ref,
    Snowflake,
    Timestamp,
    bounded,
    codec_checked,
    document,
    text,
    unique,
)
from bot.campaign_file.models_hocs import Active
from bot.rules.generic.names import normalise_name
from bot.rules.twod10.attributes import FINAL_MAX, MAX_SPECIALISATION, PENALTY_VALUE
from bot.rules.twod10.character import MAX_BACKGROUND, MAX_FEAT, MAX_FEATS
from bot.rules.twod10.initiative.codec import encounter_from_dict
from bot.rules.twod10.sheet_codec import character_from_dict
from bot.rules.twod10.skills import FINAL_MAX as SKILL_FINAL_MAX
from bot.rules.twod10.survival_codec import (
    healing_from_dict,
    infection_from_dict,
    light_from_dict,
    rations_from_dict,
)
from bot.storage.twod10.infections import MAX_INFECTIONS
from bot.storage.twod10.items import MAX_ROWS as MAX_ITEM_ROWS
from bot.storage.twod10.lights import MAX_LIGHTS
from bot.storage.twod10.morale import morale_from_json

AttributeValue = bounded(PENALTY_VALUE, FINAL_MAX)
AttributeName = Literal["finesse", "strength", "toughness", "mind", "social"]


class Attributes(FileModel):
    finesse: AttributeValue = 0
    strength: AttributeValue = 0
    toughness: AttributeValue = 0
    mind: AttributeValue = 0
    social: AttributeValue = 0


class SkillRank(FileModel):
    skill: text(1, 40)
    attribute: AttributeName | None = None
    subfield: text(1, 60) | None = None
    rank: bounded(1, SKILL_FINAL_MAX)


class Specialisation(FileModel):
    attribute: AttributeName
    text: text(1, MAX_SPECIALISATION)


class TwoD10Sheet(FileModel):
    """The sheet as ``twod10_characters.sheet`` stores it (``character_to_dict``)."""

    version: Literal[1] = 1
    name: Name
    background: text(1, MAX_BACKGROUND)
    attributes: Attributes
    skills: list[SkillRank] = Field(default=[], max_length=100)
    feats: list[text(1, MAX_FEAT)] = Field(default=[], max_length=MAX_FEATS)
    positive: Specialisation | None = None
    negative: Specialisation | None = None
    armor: text(1, 60) | None = None
    shield: text(1, 60) | None = None
    weapons: list[text(1, 60)] = Field(default=[], max_length=20)

    @model_validator(mode="after")
    def _the_rules_accept_it(self) -> TwoD10Sheet:
        codec_checked(character_from_dict, "2d10 sheet")(self.model_dump())
        return self


class ShieldBlocks(FileModel):
    """Blocks the character's shield (by its table name) has made."""

    shield: text(1, 60)
    used: Count


class Survival(FileModel):
    """The healing state (None: not yet needed) and units of medical supplies."""

    healing: document(healing_from_dict, "hit point record") | None = None
    supplies: bounded(0, 99) = 0


class Ammo(FileModel):
    quivers: bounded(0, 10)
    points: bounded(0, 20)
    spent: bounded(0, 1000) = 0

    @model_validator(mode="after")
    def _fits_the_quivers(self) -> Ammo:
        if self.points > 2 * self.quivers:
            raise ValueError("points must be at most 2 per quiver")
        return self


class Rations(FileModel):
    """``state`` is the codec's document; ``last_day`` the campaign day it last ate."""

    state: document(rations_from_dict, "ration record")
    last_day: bounded(1, BIG) | None = None


class Infection(FileModel):
    state: document(infection_from_dict, "infection")
    due_day: bounded(-BIG, BIG)
    treated_day: bounded(-BIG, BIG) | None = None


class Item(FileModel):
    name: text(1, 60)
    weight_quarters: bounded(0, 80)
    worn: Flag
    count: bounded(1, 200)


class Concentration(FileModel):
    """The effect held; ``roll`` is the casting's position in this file's log (None
    without a log, or when the roll is not in it)."""

    effect: text(1, 100)
    form: Literal["spell", "ritual"]
    tier: bounded(1, 3)
    roll: Count | None = None


class TwoD10Character(FileModel):
    ref: Ref
    owner_id: Snowflake
    kind: Kind
    sheet: TwoD10Sheet
    hp: bounded(-HP_LIMIT, HP_LIMIT)
    conditions: list[Literal["prone", "unconscious", "dead"]] = Field(default=[], max_length=3)
    shield_blocks: ShieldBlocks | None = None
    survival: Survival | None = None
    lights: list[document(light_from_dict, "light")] = Field(default=[], max_length=MAX_LIGHTS)
    ammo: Ammo | None = None
    oil: bounded(0, 99) | None = None
    rations: Rations | None = None
    infections: list[Infection] = Field(default=[], max_length=MAX_INFECTIONS)
    items: list[Item] = Field(default=[], max_length=MAX_ITEM_ROWS)
    concentration: Concentration | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TwoD10Character:
        max_hp, death_hp = _hp_range(self.sheet)
        if not death_hp <= self.hp <= max_hp:
            raise ValueError(f"hp must be between {death_hp} and {max_hp} for this sheet")
        unique(self.conditions, "the condition")
        unique([normalise_name(i.state["name"]) for i in self.infections], "the disease")
        unique([(normalise_name(i.name), i.worn) for i in self.items], "the item")
        return self


def _hp_range(sheet: TwoD10Sheet) -> tuple[int, int]:
    character = character_from_dict(sheet.model_dump())
    return character.max_hp, character.death_threshold


class Seat(FileModel):
    """Who plays a combatant, and its sheet's ref if it is linked to one."""

    combatant: bounded(1, BIG)
    owner_id: Snowflake
    character: Ref | None = None


def _morale(value: dict[str, Any]) -> Any:
    return morale_from_json(value)


class TwoD10Encounter(FileModel):
    """A running 2d10 encounter: the rules' document (``initiative.codec``) and what the
    bot keeps beside it. ``channel_id`` is the old server's: the importer decides."""

    channel_id: Snowflake
    gm_id: Snowflake
    created_at: Timestamp
    encounter: document(encounter_from_dict, "2d10 encounter")
    seats: list[Seat] = Field(default=[], max_length=1000)
    next_id: bounded(1, BIG) = 1
    dying_due: list[tuple[bounded(1, BIG), Count]] = Field(default=[], max_length=1000)
    morale: document(_morale, "morale record") | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TwoD10Encounter:
        seated = unique([s.combatant for s in self.seats], "the seat of combatant")
        if any(cid >= self.next_id for cid in seated):
            raise ValueError("next_id must be above every seated combatant")
        return self


class TwoD10Part(FileModel):
    """Everything of the campaign kept in the 2d10 tables. ``day`` is the campaign's
    calendar (None: no day counted yet)."""

    day: bounded(1, BIG) | None = None
    characters: list[TwoD10Character] = Field(default=[], max_length=10_000)
    active: list[Active] = Field(default=[], max_length=10_000)
    encounters: list[TwoD10Encounter] = Field(default=[], max_length=1000)
