"""A character row as values: the sheet, details, wounds and tracked state.

``Character.effective`` is the sheet with its wounds applied (``bot.rules.hocs.effective``):
every maximum used in play comes from there, never from the bare sheet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any

import aiosqlite
import discord

from bot.errors import UserError
from bot.rules.errors import RulesError
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import NO_CONDITIONS, Conditions
from bot.rules.hocs.effective import EffectiveValues, effective_values
from bot.rules.hocs.wounds import Wound
from bot.storage.hocs.character_codec import CharacterDetails, sheet_from_dict


class CharacterKind(StrEnum):
    PC = "pc"
    ALLY = "ally"
    ANTAGONIST = "antagonist"

    @property
    def title(self) -> str:
        return {"pc": "Player character", "ally": "Ally", "antagonist": "Antagonist"}[self.value]


class CharacterNameTaken(UserError):
    def __init__(self, name: str) -> None:
        shown = discord.utils.escape_mentions(discord.utils.escape_markdown(name[:64]))
        super().__init__(f"There is already a character called {shown} here: pick another name.")


@dataclass(frozen=True, kw_only=True)
class CharacterState:
    """Tracked values that change in play (their maxima: ``Character.effective``)."""

    hp: int
    temp_hp: int = 0
    nonlethal: int = 0
    recovery: int
    determination: int
    hero_points: int = 0
    conditions: Conditions = NO_CONDITIONS


@dataclass(frozen=True, kw_only=True)
class Character:
    """A stored character; ``wounds`` are its wounds and injuries (``characters.wounds``)."""

    id: int
    guild_id: int
    owner_id: int
    kind: CharacterKind
    sheet: CharacterSheet
    details: CharacterDetails
    state: CharacterState
    fortune_sources: tuple[str, ...]
    version: int
    wounds: tuple[Wound, ...] = ()

    @property
    def name(self) -> str:
        return self.sheet.name

    @cached_property
    def effective(self) -> EffectiveValues:
        """The values to play with: the sheet with its wounds applied (worked out once per
        Character: every field it depends on is immutable)."""
        details = self.details
        return effective_values(self.sheet, self.wounds, speed=details.speed, load=details.load)


def fresh_state(values: EffectiveValues) -> CharacterState:
    """A new character starts at full hit points, recovery and determination."""
    return CharacterState(
        hp=values.max_hp,
        recovery=values.recovery_max,
        determination=values.determination_max,
    )


def clamp_state(state: CharacterState, values: EffectiveValues) -> CharacterState:
    """Keep tracked values within the (wounded) maxima of a changed sheet."""
    return CharacterState(
        hp=min(state.hp, values.max_hp),
        temp_hp=state.temp_hp,
        nonlethal=state.nonlethal,
        recovery=min(state.recovery, values.recovery_max),
        determination=min(state.determination, values.determination_max),
        hero_points=state.hero_points,
        conditions=state.conditions,
    )


# Parsed values keyed by the exact stored text: a parse is a pure function of the text,
# so a cached value can never be stale, whoever wrote the row (another process, a raw
# UPDATE, a writer that forgot to bump ``version``). Every value is immutable, so
# characters may share them. Bounded: a few MiB at most for the bench's 5,000 sheets.
SHEET_CACHE_SIZE = 8192


@lru_cache(maxsize=SHEET_CACHE_SIZE)
def _sheet_from_text(text: str) -> tuple[CharacterSheet, CharacterDetails]:
    return sheet_from_dict(json.loads(text))


@lru_cache(maxsize=1024)
def _conditions_from_text(text: str) -> Conditions:
    return Conditions.from_dict(json.loads(text))


@lru_cache(maxsize=1024)
def _fortune_from_text(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))


def wounds_from_json(text: str) -> tuple[Wound, ...]:
    """The ``characters.wounds`` column; RulesError if the stored list is damaged."""
    return _wounds_from_text(text)


@lru_cache(maxsize=1024)
def _wounds_from_text(text: str) -> tuple[Wound, ...]:
    try:
        return tuple(Wound.from_dict(w) for w in json.loads(text))
    except RulesError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesError("This character's stored wounds are damaged; ask the GM.") from exc


# The Character of each id with the exact row it was built from (every column, the
# fortune sources, ``revision`` and ``updated_at`` included). A read still fetches the
# row and reuses the value only when all of it is equal, so whoever changed the row
# (this process, another process on the same file, a raw UPDATE, a trigger) the next
# read builds a new one: never stale by construction, on either backend. Reusing it
# keeps what ``Character.effective`` worked out: a /check or /clash built both anew
# on every command. A Character is immutable, so callers may share it.
_BUILT: dict[int, tuple[tuple[Any, ...], Character]] = {}
CHARACTER_CACHE_SIZE = 8192


def character_from_row(row: aiosqlite.Row) -> Character:
    """A ``characters`` row (with a ``fortune`` JSON array of sources) as a Character."""
    values = tuple(row)
    character_id = row["id"]
    cached = _BUILT.get(character_id)
    if cached is not None and cached[0] == values:
        return cached[1]
    character = _build(row)
    if len(_BUILT) >= CHARACTER_CACHE_SIZE:
        _BUILT.pop(next(iter(_BUILT)))  # the oldest entry: a bound, not an LRU
    _BUILT[character_id] = (values, character)
    return character


def _build(row: aiosqlite.Row) -> Character:
    sheet, details = _sheet_from_text(row["sheet"])
    return Character(
        id=row["id"],
        guild_id=row["guild_id"],
        owner_id=row["owner_id"],
        kind=CharacterKind(row["kind"]),
        sheet=sheet,
        details=details,
        state=CharacterState(
            hp=row["hp"],
            temp_hp=row["temp_hp"],
            nonlethal=row["nonlethal"],
            recovery=row["recovery"],
            determination=row["determination"],
            hero_points=row["hero_points"],
            conditions=_conditions_from_text(row["conditions"]),
        ),
        fortune_sources=_fortune_from_text(row["fortune"] or "[]"),
        version=row["version"],
        # The column arrives with migration 0004; rows read before it have no wounds.
        wounds=wounds_from_json(row["wounds"]) if "wounds" in row.keys() else (),
    )
