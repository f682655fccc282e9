"""The attack roll: the clash (or none against a defenseless target), combat
advantage, and on a hit the damage applied."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack.combatant import Combatant
from bot.rules.hocs.attack.hit import HitResult, resolve_hit, settle_threshold_pledge
from bot.rules.hocs.attack.stored import HitInputs
from bot.rules.hocs.attack.weapons import (
    DEFAULT_ADVANTAGE,
    Advantage,
    WeaponUse,
    roll_inputs,
    weapon_pool,
)
from bot.rules.hocs.character import SizeCategory, SizeGroup
from bot.rules.hocs.check import TestResult, resolve_test, roll_test
from bot.rules.hocs.clash import ClashResult, ClashSide, resolve_clash, respend_clash
from bot.rules.hocs.conditions import (
    Condition,
    attacks_gain_combat_advantage,
    melee_attack_boons,
)
from bot.rules.hocs.damage_pool import (
    AttackKind,
)
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.pool import PoolResult

DEFAULT_RANGED_DIFFICULTY = 1


@dataclass(frozen=True, kw_only=True)
class SideModifiers:
    """What one side of an attack adds to its roll before it (options, talents, points).

    ``banes`` and ``boons`` are the ones given by hand; conditions, sizes and
    flanking are added by ``resolve_attack`` itself.
    """

    boons: int = 0
    banes: int = 0
    focus: int = 0
    rerolls: int = 0
    guaranteed: int = 0
    determination: bool = False
    extra_banes: tuple[tuple[str, int], ...] = ()  # e.g. a second attack this turn
    extra_rerolls: tuple[tuple[str, int], ...] = ()  # e.g. aegis on a defense roll


NO_MODIFIERS = SideModifiers()

DEFAULT_ATTACK_SKILL = {
    AttackKind.MELEE: "Melee Combat",
    AttackKind.RANGED: "Ranged Combat",
    AttackKind.MAGIC: "Spellcasting",
}
DEFAULT_DEFENSE_SKILL = "Defense"

_GROUP_RANK = {SizeGroup.MINUSCULE: 0, SizeGroup.CONVENTIONAL: 1, SizeGroup.EXTRAORDINARY: 2}


def size_attack_bonus(attacker: SizeCategory, target: SizeCategory) -> tuple[int, int]:
    """(focus, boons) on attack rolls: 1 focus against a larger target of the same
    group, 1 boon per size group against a larger group."""
    if attacker.group is target.group:
        return (1 if target.rank > attacker.rank else 0), 0
    return 0, max(0, _GROUP_RANK[target.group] - _GROUP_RANK[attacker.group])


class AttackMode(Enum):
    CLASH = "clash"
    DEFENSELESS_MELEE = "defenseless melee"  # no roll: straight to damage
    DEFENSELESS_RANGED = "defenseless ranged"  # a test against the GM's difficulty


@dataclass(frozen=True, kw_only=True)
class AttackRoll:
    """How the attack was decided and what it earned."""

    mode: AttackMode
    attack_label: str
    defense_label: str | None
    boons: tuple[tuple[str, int], ...]
    banes: tuple[tuple[str, int], ...]
    focus: tuple[tuple[str, int], ...]
    defense_banes: tuple[tuple[str, int], ...]
    defense_boons: tuple[tuple[str, int], ...] = ()
    defense_focus: tuple[tuple[str, int], ...] = ()
    attack_rerolls: tuple[tuple[str, int], ...] = ()
    defense_rerolls: tuple[tuple[str, int], ...] = ()
    clash: ClashResult | None = None
    test: TestResult | None = None
    hit: bool
    margin: int = 0
    earned_advantage: bool = False
    advantage: Advantage | None = None
    counter: bool = False  # the defender won by 2+: counter is theirs


@dataclass(frozen=True, kw_only=True)
class AttackResult:
    attacker: str
    target: str
    weapon: WeaponUse
    roll: AttackRoll
    inputs: HitInputs | None
    hit: HitResult | None
    notes: tuple[str, ...] = field(default=())


def _total(parts: Iterable[tuple[str, int]]) -> int:
    total = 0
    for _, n in parts:  # (a loop: eight of these per attack, most of one or no part)
        total += n
    return min(MAX_MODIFIER, total)


def resolve_attack(
    attacker: Combatant,
    target: Combatant,
    weapon: WeaponUse,
    *,
    dice: Dice,
    skill: str | None = None,
    defense_skill: str | None = None,
    boons: int = 0,
    banes: int = 0,
    advantage: Advantage | None = None,
    difficulty: int = DEFAULT_RANGED_DIFFICULTY,
    choose: int | None = None,
    bonus: int = 0,
    mods: SideModifiers = NO_MODIFIERS,
    defense: SideModifiers = NO_MODIFIERS,
    threshold_skill: str | None = None,
    threshold_determination: bool = False,
) -> AttackResult:
    """Roll the attack and, on a hit, the damage applied to ``target``.

    ``boons``/``banes`` add to ``mods``' (kept for the callers that pass them
    alone); ``defense`` is the defender's side of the clash; ``threshold_skill``
    (physique or willpower) is the target's choice for a threshold test, and
    ``threshold_determination`` a determination point it spends before that test
    (in the test's pool from the start; the result's inputs keep it only when the
    hit called for a test: ``settle_threshold_pledge``).
    """
    if Condition.DEAD in attacker.vitals.conditions:
        raise RulesError(f"{attacker.name} is dead and can't attack.")
    if Condition.UNCONSCIOUS in attacker.vitals.conditions:
        raise RulesError(f"{attacker.name} is unconscious and can't attack.")
    if Condition.DEAD in target.vitals.conditions:
        raise RulesError(f"{target.name} is already dead: pick another target.")
    notes: list[str] = []
    attacking = attacker.effective
    attack_pool = attacking.skill_pool(skill or DEFAULT_ATTACK_SKILL[weapon.kind])
    boons, banes = boons + mods.boons, banes + mods.banes
    boon_parts: list[tuple[str, int]] = [("given", boons)] if boons else []
    bane_parts: list[tuple[str, int]] = [("given", banes)] if banes else []
    bane_parts += list(mods.extra_banes)
    bane_parts += attacking.roll_banes(attack_pool.attribute, attacker.vitals.conditions)
    focus_parts: list[tuple[str, int]] = [("given", mods.focus)] if mods.focus else []
    reroll_parts = [("given", mods.rerolls)] if mods.rerolls else []
    reroll_parts += list(mods.extra_rerolls)
    if weapon.kind is AttackKind.MELEE:
        target_conditions = target.vitals.conditions
        if melee_attack_boons(target_conditions):
            held = [c.value for c in (Condition.OUTNUMBERED, Condition.FLANKED)]
            held = [name for name in held if Condition(name) in target_conditions]
            boon_parts.append((" and ".join(held), melee_attack_boons(target_conditions)))
    size_focus, size_boons = size_attack_bonus(attacker.sheet.size, target.sheet.size)
    if size_focus:
        focus_parts.append(("larger target", size_focus))
    if size_boons:
        boon_parts.append(("larger size group", size_boons))
    spec = attack_pool.spec(
        boons=_total(boon_parts),
        banes=_total(bane_parts),
        focus=_total(focus_parts),
        rerolls=_total(reroll_parts),
        guaranteed=mods.guaranteed,
        determination=mods.determination,
    )
    defenseless = Condition.UNCONSCIOUS in target.vitals.conditions or (
        attacks_gain_combat_advantage(target.vitals.conditions)
    )
    clash: ClashResult | None = None
    test: TestResult | None = None
    defense_label: str | None = None
    defense_bane_parts: tuple[tuple[str, int], ...] = ()
    defense_boon_parts: tuple[tuple[str, int], ...] = ()
    defense_focus_parts: tuple[tuple[str, int], ...] = ()
    defense_reroll_parts: tuple[tuple[str, int], ...] = ()
    margin = 0
    counter = False
    if defenseless and weapon.kind is AttackKind.MELEE:
        mode, hit, earned = AttackMode.DEFENSELESS_MELEE, True, True
    elif defenseless:
        mode = AttackMode.DEFENSELESS_RANGED
        test = roll_test(spec, difficulty=difficulty, dice=dice)
        hit, earned, margin = test.succeeded, test.succeeded, test.margin
    else:
        mode = AttackMode.CLASH
        defending = target.effective
        defense_pool = defending.skill_pool(defense_skill or DEFAULT_DEFENSE_SKILL)
        defense_label = defense_pool.label
        defense_bane_parts = (
            *((("given", defense.banes),) if defense.banes else ()),
            *defense.extra_banes,
            *defending.roll_banes(defense_pool.attribute, target.vitals.conditions),
        )
        defense_boon_parts = (("given", defense.boons),) if defense.boons else ()
        defense_focus_parts = (("given", defense.focus),) if defense.focus else ()
        defense_reroll_parts = (
            *((("given", defense.rerolls),) if defense.rerolls else ()),
            *defense.extra_rerolls,
        )
        defense_spec = defense_pool.spec(
            boons=_total(defense_boon_parts),
            banes=_total(defense_bane_parts),
            focus=_total(defense_focus_parts),
            rerolls=_total(defense_reroll_parts),
            guaranteed=defense.guaranteed,
            determination=defense.determination,
        )
        clash = resolve_clash(spec, defense_spec, dice=dice, attack=True)
        hit = clash.winner is ClashSide.A
        margin = clash.margin
        earned = hit and clash.advantage
        counter = clash.winner is ClashSide.B and clash.advantage
    chosen_advantage = None
    if earned:
        chosen_advantage = advantage or DEFAULT_ADVANTAGE
    elif advantage is not None:
        notes.append("No combat advantage was earned (it needs a hit by 2 or more successes).")
    roll = AttackRoll(
        mode=mode,
        attack_label=attack_pool.label,
        defense_label=defense_label,
        boons=tuple(boon_parts),
        banes=tuple(bane_parts),
        focus=tuple(focus_parts),
        defense_banes=defense_bane_parts,
        defense_boons=defense_boon_parts,
        defense_focus=defense_focus_parts,
        attack_rerolls=tuple(reroll_parts),
        defense_rerolls=defense_reroll_parts,
        clash=clash,
        test=test,
        hit=hit,
        margin=margin,
        earned_advantage=earned,
        advantage=chosen_advantage,
        counter=counter,
    )
    if not hit:
        return AttackResult(
            attacker=attacker.name,
            target=target.name,
            weapon=weapon,
            roll=roll,
            inputs=None,
            hit=None,
            notes=tuple(notes),
        )
    impact = chosen_advantage.impact if chosen_advantage else None
    pool = weapon_pool(attacker, target, weapon, impact=impact)
    inputs = roll_inputs(
        pool, weapon.types, dice, bonus,
        threshold_skill=threshold_skill, threshold_determination=threshold_determination,
    )  # fmt: skip
    hit_result = resolve_hit(target, inputs, index=choose, dice=dice)
    inputs = settle_threshold_pledge(inputs, hit_result)
    return AttackResult(
        attacker=attacker.name,
        target=target.name,
        weapon=weapon,
        roll=roll,
        inputs=inputs,
        hit=hit_result,
        notes=tuple(notes),
    )


def rejudge_attack(
    roll: AttackRoll,
    side: ClashSide,
    changed: PoolResult,
    *,
    dice: Dice,
    asked: Advantage | None,
) -> AttackRoll:
    """The attack roll after a point was spent on one side's roll (``changed``).

    A clash is decided again (``respend_clash``); a ranged test against a
    defenseless target is judged again (only the attacker rolls there). The
    combat advantage follows the new margin: ``asked`` (or the default) on a hit by
    2+, none otherwise; counter is the defender's on a defense by 2+.
    """
    if roll.mode is AttackMode.DEFENSELESS_MELEE:
        raise RulesError("That attack needed no roll: there is nothing to change.")
    if roll.mode is AttackMode.DEFENSELESS_RANGED:
        if side is not ClashSide.A or roll.test is None:
            raise RulesError("Only the attacker rolled against a defenseless target.")
        test = resolve_test(changed, difficulty=roll.test.difficulty)
        hit = test.succeeded
        earned = hit
        return replace(
            roll,
            test=test,
            hit=hit,
            margin=test.margin,
            earned_advantage=earned,
            advantage=(asked or DEFAULT_ADVANTAGE) if earned else None,
        )
    assert roll.clash is not None
    clash = respend_clash(roll.clash, side, changed, dice=dice)
    hit = clash.winner is ClashSide.A
    earned = hit and clash.advantage
    return replace(
        roll,
        clash=clash,
        hit=hit,
        margin=clash.margin,
        earned_advantage=earned,
        advantage=(asked or DEFAULT_ADVANTAGE) if earned else None,
        counter=clash.winner is ClashSide.B and clash.advantage,
    )
