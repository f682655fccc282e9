"""A point spent on one side of an /attack roll: the attack decided again, and its hit
and damage redone when the outcome changed.

Runs inside the spend's transaction (``cogs.hocs.points.spending``), after the point was
spent and before the roll log's compare-and-set, so the spend, the undone damage and
the new damage are written together or not at all. The hit is undone from the stored
damage choice (the target's vitals before it), only while the target is exactly as
that hit left it, as for switching the kept die; otherwise the spend is refused and
nothing is written. An outcome that stands (still a hit with the same combat
advantage, or still a miss) leaves the damage as it was.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

import aiosqlite
import discord

from bot.errors import UserError
from bot.render.hocs.combat import Intro, attack_intro_of, choice_note, combat_embed
from bot.render.hocs.combat_attack import attack_change_line, pledge_back_line
from bot.render.text import safe
from bot.rules.hocs.attack import (
    Advantage,
    HitResult,
    WeaponUse,
    attack_roll_from_dict,
    attack_roll_record,
    damage_record,
    hit_record,
    rejudge_attack,
    resolve_hit,
    roll_inputs,
    settle_threshold_pledge,
    threshold_pledge_spent,
    weapon_pool,
)
from bot.rules.hocs.attack.stored import HitInputs
from bot.rules.hocs.clash import ClashSide
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.pool import PoolResult
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.combat import CombatRepository
from bot.storage.roll_log import LoggedRoll
from cogs.hocs.combat.choices import has_choice, now, record_choice
from cogs.hocs.combat.options import CHOICE_MINUTES
from cogs.hocs.combat.records import hit_total
from cogs.hocs.combat.threshold_points import give_back, spend_on_test

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AttackSpend:
    result: dict[str, Any]  # the roll log's new result
    total: int
    embed: discord.Embed
    changed_characters: tuple[int, ...]


def weapon_from_record(data: dict[str, Any]) -> WeaponUse:
    return WeaponUse(
        name=data.get("name"),
        dice=tuple(int(x) for x in data["dice"]),
        types=tuple(DamageType(t) for t in data["types"]),
        kind=AttackKind(data["kind"]),
        lethal=bool(data["lethal"]),
    )


class AttackGone(UserError):
    def __init__(self) -> None:
        super().__init__(
            "That attack's target or attacker no longer exists, so points can't change it."
        )


async def check_attack_open(conn: aiosqlite.Connection, logged: LoggedRoll) -> None:
    """Refuse, before any die is rolled or point spent, a spend on an attack (or on a
    /damage roll's threshold test) whose hit can't be redone any more. Ruling: as for
    switching the kept die, a hit can be changed while its damage choice is open (15
    minutes) and the target is as the hit left it."""
    data = logged.result
    if "target_id" not in data:
        if logged.kind == "damage":
            raise UserError(
                "That damage roll was made before points could be spent on its threshold"
                " test: the GM can correct conditions with /condition."
            )
        raise UserError(
            "That attack was made before points could be spent on attacks: attack again to"
            " spend points on it."
        )
    attack = data.get("attack") or {}
    if logged.kind == "attack" and not attack.get("hit"):
        return
    choice_id = data.get("choice_id")
    repo = CombatRepository(conn)
    choice = await repo.get_choice(int(choice_id)) if choice_id is not None else None
    if choice is None or choice.expired(now()):
        raise UserError(
            f"The {CHOICE_MINUTES} minutes to change that hit are over, so points can't"
            " change it any more: the GM can adjust hit points with /hp."
        )
    target = await repo.get(int(data.get("target_id") or 0))
    if target is None:
        raise AttackGone()
    if target.vitals != choice.after:
        raise UserError(
            f"{safe(target.character.name)} has changed since this hit (another hit or an"
            " adjustment), so points can't change it any more: the GM can correct"
            " hit points with /hp."
        )


async def respend_attack(
    conn: aiosqlite.Connection,
    logged: LoggedRoll,
    side: ClashSide,
    roll: PoolResult,
    line: str,
    dice: Any,
    *,
    revision: int,
) -> AttackSpend:
    """The attack in ``logged`` with ``roll`` on ``side``: re-decided, hit redone if the
    outcome changed. Raises UserError/RulesError (the caller's transaction rolls back)."""
    data = logged.result
    try:
        old = attack_roll_from_dict(data["attack"])
        weapon = weapon_from_record(data["weapon"])
        target_id = int(data["target_id"])
        asked = Advantage(data["advantage_asked"]) if data.get("advantage_asked") else None
        choice_id = data.get("choice_id")
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError("That stored attack is damaged, so points can't change it.") from exc
    new = rejudge_attack(old, side, roll, dice=dice, asked=asked)
    repo = CombatRepository(conn)
    target = await repo.get(target_id)
    if target is None or logged.character_id is None:
        raise AttackGone()
    choice = await repo.get_choice(int(choice_id)) if choice_id is not None else None
    if old.hit and choice is None:
        raise UserError(
            f"The {CHOICE_MINUTES} minutes to change that hit are over, so points can't"
            " change the attack any more: the GM can adjust hit points with /hp."
        )
    spends = [*data.get("spend_lines", ()), line]
    name = target.character.name
    redo = (old.hit, old.advantage) != (new.hit, new.advantage)
    before = choice.before if choice is not None and choice.before else target.vitals
    if redo and choice is not None and target.vitals != choice.after:
        raise UserError(
            f"{safe(name)} has changed since this hit (another hit or an adjustment), so"
            " the attack can't be decided again: the GM can correct hit points with /hp."
        )
    change = attack_change_line(old, new, name, before.hp if old.hit else None)
    if change:
        spends.append(change)
    victim = target.combatant.with_vitals(before)
    hit: HitResult | None = None
    inputs: HitInputs | None = None
    changed: tuple[int, ...] = ()
    # A determination point the target spent before the old hit's threshold test
    # (``HitInputs.threshold_determination``, set only while spent).
    pledged = choice is not None and choice.inputs.threshold_determination
    if not redo:
        if choice is not None:  # the hit stands: redraw it from the dice already rolled
            inputs = choice.inputs
            hit = resolve_hit(
                victim, inputs, index=choice.chosen_index, dice=dice, prior=choice.rolls
            )
    else:
        if choice is not None:
            await repo.delete_choice(choice.id)
            choice_id = None
            if choice.rolls.threshold_spends:
                # The old test goes with its choice: what was spent on it after its
                # roll comes back (THRESHOLD_REDO_RULING), once, as the choice is gone.
                spends.append(
                    await give_back(conn, target.character, choice.rolls.threshold_spends)
                )
        if new.hit:
            attacker = await repo.get(logged.character_id)
            if attacker is None:
                raise AttackGone()
            impact = new.advantage.impact if new.advantage else None
            pool = weapon_pool(attacker.combatant, victim, weapon, impact=impact)
            # Ruling: the hit rolled anew rolls its threshold test anew, and a point the
            # target spent before the old test goes into the new one.
            inputs = replace(
                roll_inputs(pool, weapon.types, dice, int(data.get("bonus", 0))),
                threshold_skill=data.get("threshold_skill"),
                threshold_determination=pledged,
            )
            hit = resolve_hit(victim, inputs, index=None, dice=dice)
            inputs = settle_threshold_pledge(inputs, hit)
            await repo.save_vitals(target_id, hit.after)
        else:
            await repo.save_vitals(target_id, before)
        if pledged and not threshold_pledge_spent(hit):
            # No test is due now (a miss, or damage that leaves no test): the target
            # rolls nothing for that point, so it keeps it.
            character = target.character
            now_at = await CharacterRepository(conn).regain_determination(
                character.id, 1, character.effective.determination_max
            )
            spends.append(pledge_back_line(name, now_at))
        changed = (target_id,)
    intro = attack_intro_of(
        str(data["attacker"]),
        str(data["target"]),
        weapon,
        new,
        [*data.get("notes", ()), *data.get("extra_notes", ())],
        spends,
    )
    if not redo and choice is not None:
        await repo.update_choice_intro(choice.id, intro.to_dict())
    if redo and hit is not None and inputs is not None:
        recorded = await record_choice(
            conn,
            guild_id=logged.guild_id or 0,
            channel_id=logged.channel_id or 0,
            user_id=logged.user_id,
            attacker_id=logged.character_id,
            target_id=target_id,
            intro=intro,
            inputs=inputs,
            rolls=hit.rolls,
            chosen_index=hit.damage.result.chosen_index if hit.damage.result else None,
            before=hit.before,
            after=hit.after,
        )
        choice_id = recorded.id if recorded is not None else None
        if choice_id is not None and logged.message_id is not None:
            await repo.set_choice_message(choice_id, logged.message_id)
    result = {
        **data,
        "attack": attack_roll_record(new),
        "damage": damage_record(inputs, hit.damage) if hit and inputs else None,
        "hit": hit_record(hit) if hit else None,
        "spend_lines": spends,
        "choice_id": choice_id,
        "revision": revision,
    }
    embed = combat_embed(
        intro,
        inputs=inputs,
        damage=hit.damage if hit else None,
        suggested=hit.suggested if hit else True,
        hit=hit,
        threshold=victim.threshold,
        footer=choice_note(name, CHOICE_MINUTES) if hit and has_choice(inputs) else None,
    )
    log.info("attack %s re-decided after a spend: hit %s → %s", logged.id, old.hit, new.hit)
    return AttackSpend(
        result=result,
        total=hit_total(hit.damage if hit else None, hit),
        embed=embed,
        changed_characters=changed,
    )


async def respend_threshold(
    conn: aiosqlite.Connection,
    logged: LoggedRoll,
    roll: PoolResult,
    line: str,
    dice: Any,
    *,
    revision: int,
    fortune_source: str | None = None,
) -> AttackSpend:
    """The hit in ``logged`` (an /attack or a /damage roll) with its threshold test's roll
    replaced by ``roll`` (a point the target spent on it): the outcome judged again
    (staggered, unconscious, dying…) and the target's conditions saved.
    ``check_attack_open`` ran before."""
    data = logged.result
    attack = logged.kind == "attack"
    try:
        target_id = int(data["target_id"])
        choice_id = int(data["choice_id"])
        if attack:
            weapon = weapon_from_record(data["weapon"])
            attack_roll = attack_roll_from_dict(data["attack"])
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError("That stored hit is damaged, so points can't change it.") from exc
    repo = CombatRepository(conn)
    choice = await repo.get_choice(choice_id)
    target = await repo.get(target_id)
    if choice is None or choice.before is None or target is None:
        raise AttackGone()
    old_roll = choice.rolls.threshold_roll
    if old_roll is None:
        raise UserError("That stored hit is damaged, so points can't change it.")
    victim = target.combatant.with_vitals(choice.before)
    spent = spend_on_test(old_roll, roll, fortune_source)
    prior = replace(
        choice.rolls,
        threshold_roll=roll,
        threshold_spends=(*choice.rolls.threshold_spends, spent),
    )
    hit = resolve_hit(victim, choice.inputs, index=choice.chosen_index, dice=dice, prior=prior)
    await repo.save_vitals(target_id, hit.after)
    await repo.update_choice(
        choice.id, chosen_index=choice.chosen_index, rolls=hit.rolls, after=hit.after
    )
    spends = [*data.get("spend_lines", ()), line]
    if attack:
        intro = attack_intro_of(
            str(data["attacker"]),
            str(data["target"]),
            weapon,
            attack_roll,
            [*data.get("notes", ()), *data.get("extra_notes", ())],
            spends,
        )
    else:  # a /damage roll's intro is stored whole with its choice: the line goes under it
        stored = Intro.from_dict(choice.intro)
        intro = Intro(stored.title, (*stored.lines, line))
    await repo.update_choice_intro(choice.id, intro.to_dict())
    result = {
        **data,
        "damage": damage_record(choice.inputs, hit.damage),
        "hit": hit_record(hit),
        "spend_lines": spends,
        "revision": revision,
    }
    embed = combat_embed(
        intro,
        inputs=choice.inputs,
        damage=hit.damage,
        suggested=hit.suggested,
        hit=hit,
        threshold=victim.threshold,
        footer=choice_note(target.character.name, CHOICE_MINUTES)
        if has_choice(choice.inputs)
        else None,
    )
    log.info("threshold test of %s %s changed after a spend", logged.kind, logged.id)
    return AttackSpend(
        result=result,
        total=hit_total(hit.damage, hit),
        embed=embed,
        changed_characters=(target_id,),
    )
