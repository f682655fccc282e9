"""Writing an attack's outcome: the shield block, hit points and conditions, the roll log.

Everything happens in the command's one transaction; each write is conditional on the
revision read before the dice were rolled, so a concurrent change refuses the whole
attack instead of applying damage twice or over a changed sheet.
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.render.twod10.combat import AttackReport, ShieldUse
from bot.rules.twod10.attack import AttackResult
from bot.rules.twod10.damage import DamageResult
from bot.rules.twod10.equipment import Shield
from bot.rules.twod10.initiative.turns import ExtraAttack
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import (
    SheetChanged,
    TwoD10CharacterRepository,
    TwoD10Condition,
    TwoD10Sheet,
)
from bot.storage.twod10.shields import ShieldBlockRepository, ShieldBroken
from cogs.twod10.magic_damage import damage_ends_concentration

MAX_EXPRESSION = 500
EXTRA_ACTION_TOTAL = 25  # the to-hit table's "gain an additional action"


def conditions_after(sheet: TwoD10Sheet, *, prone: bool = False) -> set[TwoD10Condition]:
    """The conditions a sheet should carry after a change of its hit points (ruling dying)."""
    conditions = set(sheet.conditions)
    if prone:
        conditions.add(TwoD10Condition.PRONE)
    if sheet.hp <= sheet.death_threshold:
        conditions.add(TwoD10Condition.DEAD)
    else:
        conditions.discard(TwoD10Condition.DEAD)
    if sheet.hp >= 1:
        # "When a player returns to 1hp they gain consciousness."
        conditions.discard(TwoD10Condition.UNCONSCIOUS)
    return conditions


async def save_vitals(
    conn: aiosqlite.Connection,
    before: TwoD10Sheet,
    *,
    delta: int = 0,
    set_to: int | None = None,
    prone: bool = False,
) -> TwoD10Sheet:
    """Change HP (by ``delta`` or to ``set_to``) and the conditions that follow, or SheetChanged."""
    repo = TwoD10CharacterRepository(conn)
    after = before
    if set_to is not None:
        after = await repo.set_hp(
            before.guild_id, before.id, set_to, expected_revision=before.revision
        )
    elif delta:
        after = await repo.change_hp(
            before.guild_id, before.id, delta, expected_revision=before.revision
        )
    wanted = conditions_after(after, prone=prone)
    if wanted != set(after.conditions):
        after = await repo.set_conditions(
            after.guild_id, after.id, wanted, expected_revision=after.revision
        )
    return after


async def spend_block(conn: aiosqlite.Connection, sheet: TwoD10Sheet, shield: Shield) -> ShieldUse:
    try:
        used = await ShieldBlockRepository(conn).spend(sheet.id, shield.name, shield.blocks)
    except LookupError:
        raise ShieldBroken(sheet.name, shield.name) from None
    return ShieldUse(shield=shield.name, left=shield.blocks - used)


async def apply_attack(
    conn: aiosqlite.Connection,
    *,
    attacker: TwoD10Sheet,
    aimed_at: TwoD10Sheet,
    hit: TwoD10Sheet,
    result: AttackResult,
    block: bool,
    pin_prone: bool = False,
) -> AttackReport:
    """Spend the block, take the damage, mark prone/dead: one conditional write each.
    ``pin_prone``: a successful pin forces the target prone, and "If forced prone, both the
    attacker and defender are prone"."""
    shield = None
    damage = result.damage_total
    if block and damage > 0 and hit.id == aimed_at.id and hit.character.shield is not None:
        # A block is spent only when it halved damage (ruling in REACTION_RULING).
        shield = await spend_block(conn, hit, hit.character.shield)
    effect = result.effect
    won = effect is not None and effect.succeeded
    pinned_prone = won and pin_prone and effect is not None and effect.pinned
    prone = (won and effect is not None and effect.prone) or pinned_prone
    after = await save_vitals(conn, hit, delta=-damage, prone=prone)
    newly_prone = prone and not hit.has(TwoD10Condition.PRONE)
    if after.revision == hit.revision and (damage or newly_prone):
        raise SheetChanged()  # nothing written where something had to be
    if pinned_prone and not attacker.has(TwoD10Condition.PRONE):
        laid = await save_vitals(conn, attacker, prone=True)
        if laid.revision == attacker.revision:
            raise SheetChanged()
    lost = await damage_ends_concentration(conn, hit, after, attack=True)
    return AttackReport(
        attacker=attacker.name,
        result=result,
        target_before=hit,
        target_after=after,
        aimed_at=aimed_at.name,
        shield=shield,
        prone_marked=prone and TwoD10Condition.PRONE not in hit.conditions,
        concentration_lost=lost,
    )


def extra_attack(report: AttackReport) -> ExtraAttack | None:
    """An attack the tracker should grant: 25 or more, or a slaying blow with a cleaving weapon."""
    result = report.result
    outcome = result.outcome  # a defender's flipped roll reads as the attack's
    if outcome is not None and result.hit and outcome.total >= EXTRA_ACTION_TOTAL:
        return ExtraAttack.EXTRA_ACTION
    weapon = result.wielded.weapon
    # Only a table weapon cleaves: unarmed and improvised attacks have none (cleave-weapons).
    if report.slew and weapon is not None and weapon.endless_cleave:
        return ExtraAttack.ENDLESS_CLEAVE
    return None


def attack_record(
    report: AttackReport, attacker_id: int, *, item_damage: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every die of one attack; ``item_damage``: the d20 over 20 damage (ruling
    item-damage), None when none was rolled."""
    result = report.result
    roll = result.roll
    damage = result.damage
    look = result.look  # the look through soft cover (its d10s came first)
    look_log: dict[str, Any] | None = None  # None: no look rolled
    if look is not None:
        look_log = {
            "faces": list(look.roll.roll.faces),
            "dropped": look.roll.roll.dropped,
            "modifiers": [[m.label, m.value] for m in look.roll.modifiers],
            "total": look.roll.total,
            "cover": look.cover,
            "removed": look.removed,
            "left": look.remaining,
            "disadvantage": look.disadvantage,
        }
    defended = result.defended  # the target's declared defense, rolled instead (defending)
    defended_log: dict[str, Any] | None = None
    if defended is not None:
        defended_log = {
            "faces": list(defended.defender.roll.faces),
            "dropped": defended.defender.roll.dropped,
            "modifiers": [[m.label, m.value] for m in defended.defender.modifiers],
            "total": defended.defender.total,
            "flipped": defended.total,
        }
    outcome = result.outcome
    return {
        "ruleset": "2d10",
        "attacker_id": attacker_id,
        "target_id": report.target_before.id,
        "aimed_at": report.aimed_at,
        "weapon": result.wielded.name,
        "maneuver": result.maneuver.value if result.maneuver else None,
        "cover_face": result.cover.face if result.cover else None,
        "hard_cover": result.cover.quarters if result.cover else None,
        "faces": list(roll.roll.faces) if roll else [],
        "dropped": roll.roll.dropped if roll else None,
        # The edges rolled, for the luck of each roll: a dropped die can't always tell.
        "edge": roll.roll.edge.value if roll else None,
        "look_edge": look.roll.roll.edge.value if look else None,
        "defense_edge": defended.defender.roll.edge.value if defended else None,
        "modifiers": [[m.label, m.value] for m in roll.modifiers] if roll else [],
        "total": outcome.total if outcome else None,
        "band": outcome.band.value if outcome else None,
        "stray_face": result.stray.face if result.stray else None,
        "damage_faces": [f.face for f in damage.faces] if damage else [],
        # How many of those faces (the last ones) a successful rending added.
        "rending_dice": damage.rending_dice if damage else 0,
        "damage_roll": _damage_roll(damage),
        "damage": result.damage_total,
        "hp": [report.target_before.hp, report.target_after.hp],
        "dead": report.target_after.has(TwoD10Condition.DEAD),  # for the recap's downs
        "ammo": report.ammo_log,  # a shot's points spent and left (None: no ammo used)
        "swung": report.swung_log,  # the opponent swung as the weapon (opponent-weapon-damage)
        "look": look_log,
        "defended": defended_log,
        "item_damage": item_damage,
        # Rending's 2d10: on a natural-20 hit (living) or after a kill (slain).
        "rending": [
            {
                "living": r.living,
                "faces": list(r.roll.roll.faces),
                "dropped": r.roll.roll.dropped,
                "total": r.roll.total,
                "succeeded": r.succeeded,
            }
            for r in (result.rending, report.slain_rending)
            if r is not None
        ],
    }


def _damage_roll(damage: DamageResult | None) -> dict[str, Any] | None:
    """What the damage dice's odds need (the luck of the roll): each die's sides, an axe's
    second throw, the flat part, the block and the reduction left after piercing."""
    if damage is None or not damage.deals_damage:
        return None  # no damage die thrown
    spec = damage.spec
    return {
        "sides": [f.sides for f in damage.faces],
        "twice": [f.other is not None for f in damage.faces],
        "flat": spec.dice.bonus + spec.attribute_bonus + spec.extra_flat,
        "block": damage.defenses.block,
        "reduction": damage.reduction,
    }


async def log_attack(
    conn: aiosqlite.Connection,
    report: AttackReport,
    *,
    guild_id: int,
    channel_id: int | None,
    user_id: int,
    attacker_id: int,
    item_damage: dict[str, Any] | None = None,
) -> int:
    """One roll-log row; character_id stays NULL (it references HOCS characters)."""
    result = report.result
    total = result.outcome.total if result.outcome else "cover"
    expression = (
        f"2d10 attack {report.attacker} → {report.target_before.name}"
        f" ({result.wielded.name}): {total}, {result.damage_total} damage"
    )
    return await RollLogRepository(conn).record(
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        kind="2d10-attack",
        expression=expression[:MAX_EXPRESSION],
        result=attack_record(report, attacker_id, item_damage=item_damage),
        total=result.damage_total,
        secret=False,
    )
