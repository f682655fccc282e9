"""Spending a point on a stored skill roll: determination after the roll, hero and fortune rerolls.

One function serves the buttons under a roll and the commands (/hero spend reroll,
/fortune spend, /determination spend). It runs inside the caller's transaction:

1. load the stored roll and check who may change it;
2. compute the new result with the pure rules (a refusal here writes nothing);
3. spend the point with one conditional statement (0 rows: refused, nothing written);
4. store the new result by compare-and-set on the old one and bump its revision.

If step 3 or 4 fails the exception rolls the whole transaction back, so a point is
spent exactly when the roll changed, once. Buttons carry the roll's revision: a
second click on the same button (a double click, a second device) finds a newer
revision and is refused without spending anything.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import aiosqlite
import discord

from bot.character_access import may_act_for, safe_name
from bot.errors import UserError
from bot.render.points import spend_line
from bot.render.skill_roll import RollHeading, skill_roll_embed
from bot.rules.errors import RulesError
from bot.rules.hocs.determination import apply_determination_after
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.meta_currencies import button_fortune_source
from bot.rules.hocs.pool import PoolResult, RerollSource
from bot.rules.hocs.rolling import best_single_reroll_index, reroll_dice
from bot.storage.campaigns import Campaign
from bot.storage.characters import Character, CharacterKind, CharacterRepository
from bot.storage.roll_log import LoggedRoll, RollLogRepository

log = logging.getLogger(__name__)

SPENDABLE_KINDS = ("pool", "check")


class Spend(StrEnum):
    """What can be spent on a roll after it was made (the value goes in button ids)."""

    DETERMINATION = "det"
    HERO = "hero"
    FORTUNE = "fortune"


class RollAlreadyChanged(UserError):
    def __init__(self) -> None:
        super().__init__(
            "That button was already used (the roll has changed since): nothing was spent."
            " Use the buttons on the roll's latest message."
        )


class NotYourRoll(UserError):
    def __init__(self, character: Character) -> None:
        super().__init__(
            f"This is {safe_name(character.name)}'s roll: only its owner or the GM can spend"
            " points on it."
        )


class NoRollToChange(UserError):
    def __init__(self, character: Character) -> None:
        super().__init__(
            f"{safe_name(character.name)} has no /pool or /check roll to change: roll first,"
            " then spend the point."
        )


@dataclass(frozen=True, kw_only=True)
class StoredRoll:
    """A /pool or /check roll as the roll log holds it."""

    logged: LoggedRoll
    heading: RollHeading
    roll: PoolResult
    difficulty: Difficulty | None
    revision: int

    @classmethod
    def load(cls, logged: LoggedRoll) -> StoredRoll:
        """Parse a logged roll; UserError if it is not a skill roll points can change."""
        if logged.kind not in SPENDABLE_KINDS:
            raise UserError(
                "Points can only be spent on /pool and /check rolls, and the last roll was"
                f" another kind ({logged.kind}): make the roll again with /pool or /check."
            )
        data = logged.result
        try:
            difficulty = data.get("difficulty")
            return cls(
                logged=logged,
                heading=RollHeading.from_dict(data["heading"]),
                roll=PoolResult.from_dict(data["roll"]),
                difficulty=Difficulty(int(difficulty)) if difficulty is not None else None,
                revision=int(data.get("revision", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise UserError("That stored roll is damaged: roll again.") from exc

    @property
    def automatic_success(self) -> bool:
        return self.difficulty is not None and not self.difficulty.needs_roll

    def changed(self, roll: PoolResult, note: str) -> dict[str, Any]:
        """The stored result after a spend: new dice, the note, the next revision."""
        heading = replace(self.heading, notes=(*self.heading.notes, note))
        return {
            **self.logged.result,
            "heading": heading.to_dict(),
            "roll": roll.to_dict(),
            "revision": self.revision + 1,
        }

    def embed(self) -> discord.Embed:
        return skill_roll_embed(self.heading, self.roll, self.difficulty)


class _Probe:
    """A dice source for asking "would this be refused?" without a real roll."""

    def roll(self, sides: int) -> int:
        return 1


def would_change(stored: StoredRoll, spend: Spend) -> bool:
    """Whether spending on this roll can change it (a difficulty 0 test can't change)."""
    if stored.automatic_success:
        return False
    if spend is Spend.DETERMINATION:
        try:
            apply_determination_after(stored.roll, _Probe())
        except RulesError:
            return False
        return True
    return any(die.is_failure for die in stored.roll.dice)


def available_spends(stored: StoredRoll, character: Character | None) -> tuple[Spend, ...]:
    """The buttons to show: the character has the resource and it would change the roll."""
    if character is None:
        return ()
    state = character.state
    have = {
        Spend.DETERMINATION: state.determination > 0,
        Spend.HERO: character.kind is CharacterKind.PC and state.hero_points > 0,
        Spend.FORTUNE: bool(character.fortune_sources),
    }
    return tuple(s for s in Spend if have[s] and would_change(stored, s))


@dataclass(frozen=True, kw_only=True)
class SpendOutcome:
    stored: StoredRoll  # the roll after the spend
    character: Character  # after the spend
    line: str

    @property
    def spends(self) -> tuple[Spend, ...]:
        return available_spends(self.stored, self.character)


async def latest_roll(conn: aiosqlite.Connection, character: Character) -> LoggedRoll:
    """The character's newest roll (the one "your last roll" means); NoRollToChange if none."""
    logged = await RollLogRepository(conn).latest_for_character(character.id)
    if logged is None:
        raise NoRollToChange(character)
    return logged


async def spend_on_roll(
    conn: aiosqlite.Connection,
    *,
    logged: LoggedRoll,
    spend: Spend,
    actor: discord.abc.User,
    campaign: Campaign,
    dice: Any,
    indices: Sequence[int] | None = None,
    fortune_source: str | None = None,
    expected_revision: int | None = None,
) -> SpendOutcome:
    """Spend one point on ``logged`` (see the module docstring). Raises UserError/RulesError."""
    stored = StoredRoll.load(logged)
    repo = CharacterRepository(conn)
    character = await repo.get(logged.character_id) if logged.character_id else None
    if character is None:
        raise UserError("That roll wasn't made for a character, so no points can be spent on it.")
    if not may_act_for(actor, campaign, character):
        raise NotYourRoll(character)
    if expected_revision is not None and stored.revision != expected_revision:
        raise RollAlreadyChanged()
    if stored.automatic_success:
        raise UserError(
            "That test is an automatic success (difficulty 0): nothing to change, keep the point."
        )
    name = safe_name(character.name)
    if spend is Spend.DETERMINATION:
        new_roll, left = await _determination(repo, character, stored, dice)
        line = spend_line(name, "determination", left=left)
    elif spend is Spend.HERO:
        new_roll, left, chosen = await _hero(repo, character, stored, indices, dice)
        line = spend_line(name, "hero", left=left, before=stored.roll, after=new_roll, dice=chosen)
    else:
        new_roll, source, chosen = await _fortune(
            repo, character, stored, indices, fortune_source, dice
        )
        line = spend_line(
            name, "fortune", source=source, before=stored.roll, after=new_roll, dice=chosen
        )
    changed = stored.changed(new_roll, line)
    rolls = RollLogRepository(conn)
    if not await rolls.update_result(
        logged.id, changed, new_roll.successes, expected=logged.result
    ):
        raise RollAlreadyChanged()  # rolls the transaction back: the point stays unspent
    fresh_log = await rolls.get(logged.id)
    fresh_character = await repo.get(character.id)
    assert fresh_log is not None and fresh_character is not None
    log.info("%s spent on roll %s for character %s", spend.name, logged.id, character.id)
    return SpendOutcome(stored=StoredRoll.load(fresh_log), character=fresh_character, line=line)


async def _determination(
    repo: CharacterRepository, character: Character, stored: StoredRoll, dice: Any
) -> tuple[PoolResult, int]:
    name = safe_name(character.name)
    if character.state.determination <= 0:
        raise UserError(f"{name} has no determination points left.")
    new_roll = apply_determination_after(stored.roll, dice)  # RulesError if it can't help
    if not await repo.spend_determination(character.id):
        raise UserError(f"{name} has no determination points left.")
    fresh = await repo.get(character.id)
    return new_roll, fresh.state.determination if fresh else 0


async def _hero(
    repo: CharacterRepository,
    character: Character,
    stored: StoredRoll,
    indices: Sequence[int] | None,
    dice: Any,
) -> tuple[PoolResult, int, tuple[int, ...]]:
    name = safe_name(character.name)
    if character.kind is not CharacterKind.PC:
        raise UserError(f"Hero points are only for player characters, and {name} isn't one.")
    if character.state.hero_points <= 0:
        raise UserError(f"{name} has no hero points left.")
    chosen = (
        tuple(indices)
        if indices
        else tuple(i for i, die in enumerate(stored.roll.dice) if die.is_failure)
    )
    if not chosen:
        raise UserError(
            "No die of that roll failed, so there is nothing to reroll by default: name the"
            " dice to reroll with the dice option (e.g. 1,3)."
        )
    new_roll = reroll_dice(stored.roll, chosen, dice, source=RerollSource.HERO)
    left = await repo.spend_hero_point(character.id)
    if left is None:
        raise UserError(f"{name} has no hero points left.")
    return new_roll, left, chosen


async def _fortune(
    repo: CharacterRepository,
    character: Character,
    stored: StoredRoll,
    indices: Sequence[int] | None,
    source: str | None,
    dice: Any,
) -> tuple[PoolResult, str, tuple[int, ...]]:
    name = safe_name(character.name)
    if source is None:
        source = button_fortune_source(character.fortune_sources)
        if source is None:
            raise UserError(f"{name} has no fortune points.")
    elif source not in character.fortune_sources:
        raise UserError(f"{name} has no fortune point ({safe_name(source)}): see /fortune list.")
    if indices:
        chosen = tuple(indices)
    else:
        best = best_single_reroll_index(stored.roll)
        if best is None:
            raise UserError(
                "No die of that roll failed, so there is no useful die to reroll: name one"
                " with the die option."
            )
        chosen = (best,)
    new_roll = reroll_dice(stored.roll, chosen, dice, source=RerollSource.FORTUNE)
    if not await repo.spend_fortune(character.id, source):
        raise UserError(f"{name}'s fortune point ({safe_name(source)}) was already spent.")
    return new_roll, source, chosen
