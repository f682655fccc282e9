"""The HOCS part of the campaign file: characters, points gained, and encounters.

A sheet's fields carry the bounds of the commands that set them; the whole sheet is
then built by the bot's own codec (``bot.storage.hocs.character_codec``), so the rules'
cross-field checks (training within the tier, known skills…) apply unchanged.
"""

from __future__ import annotations

import json
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
from bot.rules.generic.names import normalise_name
from bot.rules.hocs.attributes import MAX_ATTRIBUTE, MIN_ATTRIBUTE
from bot.rules.hocs.character import MAX_EXP, MAX_TIER, MAX_TRAINING, SizeCategory
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.initiative import InitiativeRoll
from bot.rules.hocs.meta_currencies import MAX_HERO_POINTS
from bot.rules.hocs.wounds import Wound
from bot.storage.hocs.character_codec import (
    MAX_SPEED,
    MAX_TEXT,
    MAX_TRAITS,
    MAX_WEAPON_DICE,
    MAX_WEAPON_NAME,
    MAX_WEAPONS,
    sheet_from_dict,
)
from bot.storage.hocs.encounter_rows import _stats_from_text

# The commands' own limits (cogs.hocs.characters.options): the rules layer has none.
MAX_ARMOR = 10
MAX_LOAD = 99
MAX_CUSTOM_SKILLS = 15
MAX_SKILL_NAME = 32

Attribute = bounded(MIN_ATTRIBUTE, MAX_ATTRIBUTE)
DamageTypeName = Literal[tuple(t.value for t in DamageType)]  # type: ignore[valid-type]
ConditionName = Literal[tuple(c.value for c in Condition)]  # type: ignore[valid-type]
Size = Literal[tuple(s.value for s in SizeCategory)]  # type: ignore[valid-type]

ConditionsDoc = document(lambda d: Conditions.from_dict(d), "set of HOCS conditions")
WoundDoc = document(Wound.from_dict, "wound or injury")


class CustomSkill(FileModel):
    name: text(1, MAX_SKILL_NAME)
    attribute: Literal["strength", "agility", "mind", "presence"] | None = None


class Weapon(FileModel):
    name: text(1, MAX_WEAPON_NAME)
    dice: list[Literal[4, 6, 8, 10, 12, 20]] = Field(min_length=1, max_length=MAX_WEAPON_DICE)
    types: list[DamageTypeName] = Field(min_length=1, max_length=len(DamageType))
    kind: Literal["melee", "ranged", "magic"] = AttackKind.MELEE.value
    lethal: Flag = True


class HocsSheet(FileModel):
    """The sheet as ``characters.sheet`` stores it (``sheet_to_dict``)."""

    v: Literal[1] = 1
    name: Name
    strength: Attribute
    agility: Attribute
    mind: Attribute
    presence: Attribute
    tier: bounded(1, MAX_TIER) = 1
    exp: bounded(0, MAX_EXP) = 0
    size: Size = "medium"
    uses_instinct: Flag = False
    spirit_attribute: Literal["mind", "presence"] = "mind"
    training: dict[text(1, 100), bounded(0, MAX_TRAINING)] = Field(default={}, max_length=100)
    expertise: text(1, 100) | None = None
    custom_skills: list[CustomSkill] = Field(default=[], max_length=MAX_CUSTOM_SKILLS)
    armor: bounded(0, MAX_ARMOR) = 0
    traits: list[text(1, MAX_TEXT)] = Field(default=[], max_length=MAX_TRAITS)
    who: text(0, MAX_TEXT) = ""
    believe: text(0, MAX_TEXT) = ""
    want: text(0, MAX_TEXT) = ""
    weapons: list[Weapon] = Field(default=[], max_length=MAX_WEAPONS)
    resistances: list[DamageTypeName] = Field(default=[], max_length=len(DamageType))
    immunities: list[DamageTypeName] = Field(default=[], max_length=len(DamageType))
    weaknesses: list[DamageTypeName] = Field(default=[], max_length=len(DamageType))
    speed: bounded(0, MAX_SPEED) = 30
    load: bounded(0, MAX_LOAD) = 0

    @model_validator(mode="after")
    def _the_rules_accept_it(self) -> HocsSheet:
        codec_checked(sheet_from_dict, "HOCS sheet")(self.model_dump())
        return self


class HocsCharacter(FileModel):
    """A HOCS character: its sheet, tracked values, wounds and fortune points."""

    ref: Ref
    owner_id: Snowflake
    kind: Kind
    sheet: HocsSheet
    hp: bounded(-HP_LIMIT, HP_LIMIT)
    temp_hp: bounded(0, HP_LIMIT) = 0
    nonlethal: bounded(0, HP_LIMIT) = 0
    recovery: bounded(0, HP_LIMIT)
    determination: bounded(0, HP_LIMIT)
    hero_points: bounded(0, MAX_HERO_POINTS) = 0
    conditions: ConditionsDoc = Field(default_factory=dict)
    wounds: list[WoundDoc] = Field(default=[], max_length=100)
    fortune_sources: list[text(1, 32)] = Field(default=[], max_length=100)

    @model_validator(mode="after")
    def _sources_once(self) -> HocsCharacter:
        unique(self.fortune_sources, "the fortune point source")
        return self


class Active(FileModel):
    """A player's active character (``user_id`` need not be its owner)."""

    user_id: Snowflake
    character: Ref


class PointGain(FileModel):
    """A point a HOCS character gained (the recap's points). ``character`` is None for a
    character deleted since: the gain outlives it."""

    character: Ref | None = None
    kind: Literal["hero", "determination", "fortune"]
    amount: bounded(1, BIG)
    created_at: Timestamp


def _stats(value: dict[str, Any]) -> Any:
    return _stats_from_text(json.dumps(value, sort_keys=True))


class Participant(FileModel):
    """One combatant of a HOCS encounter (``encounter_participants``). ``character`` is
    the linked sheet's ref, None for a quick NPC (or a sheet deleted since)."""

    participant_id: bounded(1, BIG)
    name: Name
    side: Kind
    group_name: Name | None = None
    owner_id: Snowflake | None = None
    character: Ref | None = None
    slot: Count | None = None
    stats: document(_stats, "initiative record")
    hp: bounded(-HP_LIMIT, HP_LIMIT) | None = None
    max_hp: bounded(-HP_LIMIT, HP_LIMIT) | None = None
    temp_hp: bounded(0, HP_LIMIT) = 0
    threshold: bounded(-HP_LIMIT, HP_LIMIT) | None = None
    conditions: ConditionsDoc = Field(default_factory=dict)
    roll: document(InitiativeRoll.from_dict, "initiative roll") | None = None
    preset: Count | None = None
    actions_spent: Count = 0
    quick_spent: Count = 0
    reactions_spent: Count = 0


class Effect(FileModel):
    """A condition added with a duration (``encounter_effects``)."""

    effect_id: bounded(1, BIG)
    participant_id: bounded(1, BIG)
    condition: ConditionName
    value: bounded(1, BIG) = 1
    added_round: Count
    expires_round: Count | None = None

    @model_validator(mode="after")
    def _expires_after_added(self) -> Effect:
        if self.expires_round is not None and self.expires_round < self.added_round:
            raise ValueError("expires_round must not be before added_round")
        return self


class AttackTurn(FileModel):
    """A character's attacks in an encounter (``attack_turns``)."""

    character: Ref
    round: Count
    turn: Count
    attacks: Count = 0
    tempo: Flag = False
    aegis_round: Count | None = None


class HocsEncounter(FileModel):
    """A running HOCS encounter. ``channel_id`` is the old server's channel: the importer
    decides where it goes. The tracker's message is not kept (it is the old server's)."""

    channel_id: Snowflake
    gm_id: Snowflake
    social: Flag = False
    skip_down: Flag = False
    show_npc_hp: Flag = False
    round: Count = 0
    current_slot: Count | None = None
    turn: Count = 0
    next_participant_id: bounded(1, BIG) = 1
    next_effect_id: bounded(1, BIG) = 1
    created_at: Timestamp
    participants: list[Participant] = Field(default=[], max_length=1000)
    effects: list[Effect] = Field(default=[], max_length=10_000)
    attack_turns: list[AttackTurn] = Field(default=[], max_length=1000)

    @model_validator(mode="after")
    def _consistent(self) -> HocsEncounter:
        ids = unique([p.participant_id for p in self.participants], "participant_id")
        unique([normalise_name(p.name) for p in self.participants], "participant name")
        unique([e.effect_id for e in self.effects], "effect_id")
        unique([t.character for t in self.attack_turns], "attack_turns character")
        for effect in self.effects:
            if effect.participant_id not in ids:
                raise ValueError(
                    f"effect {effect.effect_id} names no participant of this encounter"
                )
        if any(pid >= self.next_participant_id for pid in ids):
            raise ValueError("next_participant_id must be above every participant_id")
        if any(e.effect_id >= self.next_effect_id for e in self.effects):
            raise ValueError("next_effect_id must be above every effect_id")
        return self


class HocsPart(FileModel):
    """Everything of the campaign kept in HOCS's tables."""

    characters: list[HocsCharacter] = Field(default=[], max_length=10_000)
    active: list[Active] = Field(default=[], max_length=10_000)
    point_gains: list[PointGain] = Field(default=[], max_length=1_000_000)
    encounters: list[HocsEncounter] = Field(default=[], max_length=1000)
