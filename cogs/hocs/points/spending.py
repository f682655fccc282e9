"""Spending a point on a stored skill roll: determination after the roll, hero and fortune rerolls.

One mechanism for every roll points can change (``stored``): /pool and /check rolls,
either side of a /clash or an /attack, and the threshold test an /attack's or a
/damage roll's hit made its target roll. One function serves the buttons under a
roll and the commands (/hero spend reroll, /fortune spend, /determination spend). It
runs inside the caller's transaction:

1. load the stored roll (that side of it) and check who may change it;
2. compute the new roll with the pure rules (a refusal here writes nothing);
3. spend the point with one conditional statement (0 rows: refused, nothing written);
4. apply the change: a clash is decided again, an attack's hit and damage redone
   (``apply_change``; a refusal there rolls the spend back);
5. store the new result by compare-and-set on the old one and bump its revision.

If step 3 or 4 fails the exception rolls the whole transaction back, so a point is
spent exactly when the roll changed, once. Buttons carry the roll's revision: a
second click on the same button (a double click, a second device) finds a newer
revision and is refused without spending anything.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiosqlite
import discord

from bot.errors import UserError
from bot.render.hocs.points import spend_line
from bot.render.hocs.skill_roll_clash import winner_change_line
from bot.rules.hocs.clash import ClashResult, respend_clash
from bot.rules.hocs.determination import apply_determination_after, determination_refusal
from bot.rules.hocs.meta_currencies import button_fortune_source
from bot.rules.hocs.pool import PoolResult, RerollSource
from bot.rules.hocs.rolling import best_single_reroll_index, reroll_dice
from bot.storage.campaigns import Campaign
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from bot.tables.character_access import safe_name
from cogs.hocs.access import may_act_for
from cogs.hocs.points.stored import (
    SKILL_KINDS,
    SPENDABLE_KINDS,
    THRESHOLD_KINDS,
    Side,
    StoredRoll,
    clash_sides,
    side_of,
)

log = logging.getLogger(__name__)


class Spend(StrEnum):
    """What can be spent on a roll after it was made (the value goes in button ids)."""

    DETERMINATION = "det"
    HERO = "hero"
    FORTUNE = "fortune"


class RollAlreadyChanged(UserError):
    def __init__(self) -> None:
        super().__init__(
            # One sentence, as every refusal: a double click reads it in a glance.
            "That button was already used (the roll has changed since), so nothing was"
            " spent: use the buttons on the roll's latest message."
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
            f"{safe_name(character.name)} has no roll to change (/pool, /check, /clash or"
            " /attack): roll first, then spend the point."
        )


def would_change(stored: StoredRoll, spend: Spend) -> bool:
    """Whether spending on this roll can change it (a difficulty 0 test can't change)."""
    if stored.automatic_success:
        return False
    if spend is Spend.DETERMINATION:
        return determination_refusal(stored.roll) is None
    return any(die.is_failure for die in stored.roll.dice)


def available_spends(stored: StoredRoll, character: Character | None) -> tuple[Spend, ...]:
    """The buttons to show: the character has the resource and it would change the roll
    (``would_change``, asked only for what the character has, the failure scan once)."""
    if character is None or stored.automatic_success:
        return ()
    state = character.state
    spends: list[Spend] = []
    if state.determination > 0 and determination_refusal(stored.roll) is None:
        spends.append(Spend.DETERMINATION)
    hero = state.hero_points > 0 and character.kind is CharacterKind.PC
    fortune = bool(character.fortune_sources)
    if (hero or fortune) and any(die.is_failure for die in stored.roll.dice):
        if hero:
            spends.append(Spend.HERO)
        if fortune:
            spends.append(Spend.FORTUNE)
    return tuple(spends)


@dataclass(frozen=True, kw_only=True)
class SpendOutcome:
    stored: StoredRoll  # the roll (that side of it) after the spend
    character: Character  # after the spend
    line: str
    embed: discord.Embed  # the reply as it reads now
    changed_characters: tuple[int, ...] = ()  # whose vitals a re-resolved hit changed

    @property
    def spends(self) -> tuple[Spend, ...]:
        return available_spends(self.stored, self.character)


@dataclass(frozen=True, kw_only=True)
class Applied:
    """What a changed roll does to its stored result (see ``apply_change``)."""

    result: dict[str, Any]
    total: int | None
    embed: discord.Embed | None = None  # None: redraw from ``result``
    changed_characters: tuple[int, ...] = ()


async def latest_roll(
    conn: aiosqlite.Connection, character: Character
) -> tuple[LoggedRoll, Side | None]:
    """The character's newest roll points can change, of any kind and on either side of a
    clash or an attack, and the side it rolled on; NoRollToChange if there is none.

    Ruling: rolls points can't change (/roll) are skipped, so "your last roll" is the
    last one a point could change; so is /damage, whose only such roll, the target's
    threshold test, takes points by its own buttons (as an attack's does: an attack's
    target reaches its defense roll here)."""
    logged = await RollLogRepository(conn).latest_on_either_side(character.id, SPENDABLE_KINDS)
    if logged is None:
        raise NoRollToChange(character)
    return logged, side_of(logged, character.id)


async def apply_change(
    conn: aiosqlite.Connection,
    stored: StoredRoll,
    roll: PoolResult,
    line: str,
    dice: Any,
    fortune_source: str | None = None,
) -> Applied:
    """The stored result once ``roll`` replaces the roll points were spent on.

    A skill roll keeps the new dice; a clash is decided again (``respend_clash``); an
    attack is decided again and its hit redone (``cogs.hocs.combat.respend``)."""
    logged = stored.logged
    if logged.kind in SKILL_KINDS:
        return Applied(result=stored.changed(roll, line), total=roll.successes)
    assert stored.side is not None
    if stored.side is Side.T:
        # Imported here: the combat cog imports this package's buttons at load time.
        from cogs.hocs.combat.respend import respend_threshold

        done = await respend_threshold(
            conn, logged, roll, line, dice, revision=stored.revision + 1,
            fortune_source=fortune_source,
        )  # fmt: skip
        return Applied(
            result=done.result,
            total=done.total,
            embed=done.embed,
            changed_characters=done.changed_characters,
        )
    if logged.kind == "clash":
        data = logged.result
        try:
            clash = ClashResult.from_dict(data["clash"])
            sides = clash_sides(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError("That stored clash is damaged: roll again.") from exc
        new = respend_clash(clash, stored.side.clash_side, roll, dice=dice)
        notes = [*sides.notes, line]
        change = winner_change_line(clash, new, (sides.a.who, sides.b.who))
        if change:
            notes.append(change)
        result = {
            **data,
            "clash": new.to_dict(),
            "notes": notes,
            "revision": stored.revision + 1,
        }
        return Applied(result=result, total=new.final.a.successes)
    # Imported here: the combat cog imports this package's buttons at load time.
    from cogs.hocs.combat.respend import respend_attack

    done = await respend_attack(
        conn, logged, stored.side.clash_side, roll, line, dice, revision=stored.revision + 1
    )
    return Applied(
        result=done.result,
        total=done.total,
        embed=done.embed,
        changed_characters=done.changed_characters,
    )


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
    side: Side | None = None,
) -> SpendOutcome:
    """Spend one point on ``logged`` (that ``side`` of a clash or attack; see the module
    docstring). Raises UserError/RulesError, having written nothing."""
    stored = StoredRoll.load(logged, side)
    repo = CharacterRepository(conn)
    character = await repo.get(stored.owner_id) if stored.owner_id else None
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
    if logged.kind in THRESHOLD_KINDS:
        # Imported here: the combat cog imports this package's buttons at load time.
        from cogs.hocs.combat.respend import check_attack_open

        await check_attack_open(conn, logged)  # before any die is rolled
    name = safe_name(character.name)
    source = None  # the fortune point's, once spent
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
    applied = await apply_change(conn, stored, new_roll, line, dice, source)
    rolls = RollLogRepository(conn)
    if not await rolls.update_result(
        logged.id, applied.result, applied.total, expected=logged.result
    ):
        raise RollAlreadyChanged()  # rolls the transaction back: the point stays unspent
    fresh_log = await rolls.get(logged.id)
    fresh_character = await repo.get(character.id)
    assert fresh_log is not None and fresh_character is not None
    log.info("%s spent on roll %s for character %s", spend.name, logged.id, character.id)
    fresh = StoredRoll.load(fresh_log, stored.side)
    return SpendOutcome(
        stored=fresh,
        character=fresh_character,
        line=line,
        embed=applied.embed if applied.embed is not None else fresh.embed(),
        changed_characters=applied.changed_characters,
    )


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
