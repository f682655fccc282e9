"""An attack: the roll against a defense, its situation, a maneuver, then damage.

Dice are asked for in a fixed order so tests can script faces: the look's d10s
(an attack into soft cover, when a ``LookStats`` is given and the GM didn't name the
target unseen; ruling ``soft-cover-look`` in ``soft_cover``), the hard-cover d4 (if
any), the attack's d10s (the defender's, when it defends: ``defending``), the stray
d8 (a missed shot into melee), the rending 2d10 (a natural-20 hit with
``Situation.rend``), then the damage dice (a successful rending's extra die last).

Rulings:

* ``damage-attribute``: melee adds strength; a finesse weapon used with
  finesse adds "either 0 or strength", the better of the two; ranged adds
  nothing; thrown, brawl and improvised add strength; the offhand weapon adds
  nothing.
* ``parry-ranged``: "Ranged attacks may use any special maneuver except force
  back, and parry" is read as: a ranged or thrown attack cannot be parried.
* ``flanking``: flanking (the target already fights someone in melee and the
  attack comes from its side or back) gives advantage to any attack.
* ``engaged-shooter``: "If you are within melee range of an enemy then your
  attacks have disadvantage" sits in the ranged rules: it applies to ranged and
  thrown attacks, as does "beyond range".
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack_inputs import (
    ATTACK_SKILL,
    MISSILE,
    PLAIN,
    AttackerStats,
    Situation,
    TargetStats,
)
from bot.rules.twod10.attack_inputs import attacker_stats as attacker_stats
from bot.rules.twod10.attack_inputs import parry_value as parry_value
from bot.rules.twod10.attack_inputs import target_stats as target_stats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.damage import (
    DamageResult,
    DamageSpec,
    Defenses,
    add_damage_die,
    roll_damage,
)
from bot.rules.twod10.defending import DefendingRoll, roll_defending
from bot.rules.twod10.equipment import WeaponKind
from bot.rules.twod10.maneuvers import (
    CATEGORY_PENALTY,
    ONE_HAND_PENALTY,
    Hands,
    Maneuver,
    ManeuverEffect,
    check_maneuver,
    maneuver_effect,
)
from bot.rules.twod10.ranged import (
    DARKNESS_PENALTY,
    HardCoverCheck,
    Light,
    SoftCoverSight,
    StrayShot,
    check_hard_cover,
    roll_stray,
)
from bot.rules.twod10.rending import Rending, roll_rending
from bot.rules.twod10.soft_cover import LookStats, after_look, roll_look, rolls_look
from bot.rules.twod10.tasks import Edge, Modifier, TaskResult, judge, net_edge, roll_task
from bot.rules.twod10.wielding import Wielded


@dataclass(frozen=True, kw_only=True)
class AttackPlan:
    """Everything decided before a die is rolled, with the reason for each modifier."""

    modifiers: tuple[Modifier, ...]
    advantages: tuple[str, ...]
    disadvantages: tuple[str, ...]
    spec: DamageSpec
    stray_others: int | None  # firing into melee: other combatants the d8 can pick
    defended: bool = False  # the target rolls its declared defense (``defending``)
    # (strength, brawl) of a rending tried on a natural-20 hit (``rending``); None: none tried.
    rend: tuple[int, int] | None = None

    @property
    def edge(self) -> Edge:
        """The edge of the 2d10 rolled: a defender's roll takes the attack's advantages as
        disadvantages and its disadvantages as advantages (ruling defending-roll)."""
        adv, dis = len(self.advantages), len(self.disadvantages)
        return net_edge(dis, adv) if self.defended else net_edge(adv, dis)

    @property
    def attacker_bonus(self) -> int:
        """Every modifier of the attack but the target's defense: what a defender's roll
        subtracts (ruling defending-roll)."""
        return sum(m.value for m in self.modifiers[:2] + self.modifiers[3:])


@dataclass(frozen=True, kw_only=True)
class AttackResult:
    wielded: Wielded
    target: TargetStats
    plan: AttackPlan
    maneuver: Maneuver | None
    cover: HardCoverCheck | None
    roll: TaskResult | None  # None when hard cover stopped the attack or the target defended
    effect: ManeuverEffect | None
    stray: StrayShot | None
    damage: DamageResult | None  # None when stopped by cover or redirected by a stray shot
    look: SoftCoverSight | None = None  # the look through soft cover, rolled first
    defended: DefendingRoll | None = None  # the target's declared defense, rolled instead
    rending: Rending | None = None  # tried on a natural-20 hit: a success adds a damage die

    @property
    def outcome(self) -> TaskResult | DefendingRoll | None:
        """What the to-hit table reads: the attack's roll or the defender's, flipped."""
        return self.defended if self.defended is not None else self.roll

    @property
    def hit(self) -> bool:
        return self.outcome is not None and self.outcome.succeeded

    @property
    def damage_total(self) -> int:
        return self.damage.total if self.damage is not None else 0


def _damage_bonus(wielded: Wielded, attacker: AttackerStats, use_finesse: bool) -> int:
    if wielded.offhand or wielded.kind is WeaponKind.RANGED:
        return 0
    if wielded.kind is WeaponKind.MELEE and use_finesse:
        return max(0, attacker.strength)
    return attacker.strength


def plan_attack(
    wielded: Wielded,
    attacker: AttackerStats,
    target: TargetStats,
    *,
    use_finesse: bool = False,
    maneuver: Maneuver | None = None,
    situation: Situation = PLAIN,
) -> AttackPlan:
    """Collect the attack's modifiers, advantages and disadvantages; refuse what can't be."""
    kind = wielded.kind
    if wielded.offhand:
        use_finesse = True  # "Both weapons must be used with finesse."
    if kind in MISSILE:
        use_finesse = True
    if use_finesse and not wielded.finesse_allowed:
        raise RulesError(f"A {wielded.name.lower()} is swung with strength, not finesse.")
    if maneuver is not None:
        check_maneuver(maneuver, kind, target.attribute)
    elif target.attribute is not Attribute.FINESSE:
        raise RulesError("A normal attack targets finesse; other defenses need a maneuver.")
    if situation.parry and kind in MISSILE:
        raise RulesError("A ranged or thrown attack can't be parried.")
    attr_name = "finesse" if use_finesse else "strength"
    mods = [
        Modifier(label=attr_name, value=attacker.finesse if use_finesse else attacker.strength),
        Modifier(label=ATTACK_SKILL[kind].value, value=attacker.skill(kind)),
        Modifier(label=f"{target.attribute.value} defense", value=-target.defense),
    ]
    adv: list[str] = []
    dis: list[str] = []
    category = 0
    s = situation
    if maneuver is not None:
        dis.append(f"{maneuver.value} maneuver")
        category += CATEGORY_PENALTY
        if kind is WeaponKind.BRAWL and s.hands is Hands.ONE_FREE:
            mods.append(Modifier(label="one hand free", value=ONE_HAND_PENALTY))
        elif kind is WeaponKind.BRAWL and s.hands is Hands.NONE_FREE:
            dis.append("both hands occupied")
            category += CATEGORY_PENALTY  # ruling brawl-hands
    flags = (
        (s.flanking, adv, "flanking"),
        (s.target_prone, adv, "target prone"),
        (s.target_pinned_by_attacker, adv, "target pinned"),
        (s.prepared, adv, "prepared action"),
        (s.attacker_pinned, dis, "attacker pinned"),
        (s.firing_into_melee and kind in MISSILE, dis, "firing into melee"),
        (s.beyond_range and kind in MISSILE, dis, "beyond range"),
        (s.engaged and kind in MISSILE, dis, "shooting while engaged"),
        (s.light is Light.LOW and kind in MISSILE, dis, "low light"),
        (s.light is Light.DARK, dis, "complete darkness"),
        (s.soft_cover_disadvantage, dis, "unseen behind soft cover"),
        (s.buckler_same_hand, dis, "buckler in the weapon hand"),
    )
    for on, bucket, reason in flags:
        if on:
            bucket.append(reason)
    adv += ["GM advantage"] * s.advantage
    dis += ["GM disadvantage"] * s.disadvantage
    if s.light is Light.DARK:
        mods.append(Modifier(label="darkness", value=DARKNESS_PENALTY))
    if s.soft_cover:
        mods.append(Modifier(label="soft cover", value=-s.soft_cover))
    if s.parry:
        mods.append(Modifier(label="parry", value=-s.parry))
    if s.bonus:
        mods.append(Modifier(label="GM modifier", value=s.bonus))
    if s.encumbrance and use_finesse:  # ruling encumbrance-rolls: finesse rolls only
        mods.append(Modifier(label="encumbrance", value=-s.encumbrance))
    spec = DamageSpec(
        dice=wielded.dice,
        attribute_bonus=_damage_bonus(wielded, attacker, use_finesse),
        category_bonus=category,
        extra_die_from=wielded.extra_die_from,
        is_axe=wielded.is_axe,
        armor_piercing=wielded.armor_piercing,
    )
    if s.rend and kind in MISSILE:  # ruling rending-reach
        raise RulesError("Rending tears at a foe within reach: a ranged or thrown attack can't.")
    # Ruling defending-use: a defended shot that misses strays into nobody.
    strays = s.firing_into_melee and kind in MISSILE and not s.defended
    return AttackPlan(
        modifiers=tuple(mods),
        advantages=tuple(adv),
        disadvantages=tuple(dis),
        spec=spec,
        stray_others=s.melee_others if strays else None,
        defended=s.defended,
        rend=(attacker.strength, attacker.brawl) if s.rend else None,
    )


def roll_attack(
    wielded: Wielded,
    attacker: AttackerStats,
    target: TargetStats,
    *,
    use_finesse: bool = False,
    maneuver: Maneuver | None = None,
    situation: Situation = PLAIN,
    look: LookStats | None = None,
    block: bool = False,
    dice: Dice,
) -> AttackResult:
    """Roll an attack and its damage; ``block``: the target blocks with its shield.

    Into soft cover with ``look`` the look is rolled first and the attack takes the cover
    it leaves (and its disadvantage below 10); without ``look`` the soft cover is taken
    as already judged."""
    # Refuses what can't be before any die is rolled, the look's included.
    plan = plan_attack(
        wielded, attacker, target, use_finesse=use_finesse, maneuver=maneuver,
        situation=situation,
    )  # fmt: skip
    sight = None
    if look is not None and rolls_look(situation, look):
        sight = roll_look(situation.soft_cover, look, light=situation.light, dice=dice)
        situation = after_look(situation, sight)
        plan = plan_attack(
            wielded, attacker, target, use_finesse=use_finesse, maneuver=maneuver,
            situation=situation,
        )  # fmt: skip
    cover = check_hard_cover(situation.hard_cover, dice) if situation.hard_cover else None
    base = AttackResult(
        wielded=wielded, target=target, plan=plan, maneuver=maneuver, cover=cover,
        roll=None, effect=None, stray=None, damage=None, look=sight,
    )  # fmt: skip
    if cover is not None and cover.blocked:
        return base
    if plan.defended:  # the defender rolls instead, the edges swapped (defending-roll)
        defended = roll_defending(
            defense=target.defense, attacker_bonus=plan.attacker_bonus,
            label=f"{target.attribute.value} defense", advantage=len(plan.disadvantages),
            disadvantage=len(plan.advantages), dice=dice,
        )  # fmt: skip
        return _finish(replace(base, defended=defended), defended, block=block, dice=dice)
    attribute, skill, *rest = plan.modifiers
    roll = roll_task(
        attribute=attribute.value, skill=skill.value, attribute_label=attribute.label,
        skill_label=skill.label, extra=tuple(rest), advantage=len(plan.advantages),
        disadvantage=len(plan.disadvantages), dice=dice,
    )  # fmt: skip
    return _finish(replace(base, roll=roll), roll, block=block, dice=dice)


def _finish(
    base: AttackResult, roll: TaskResult | DefendingRoll, *, block: bool, dice: Dice
) -> AttackResult:
    wielded, plan = base.wielded, base.plan
    effect = None
    spec = plan.spec
    if base.maneuver is not None and roll.natural_two:
        effect = ManeuverEffect(maneuver=base.maneuver, succeeded=False)  # ruling natural-two
    elif base.maneuver is not None:
        effect = maneuver_effect(base.maneuver, roll.total, kind=wielded.kind)
        if effect.extra_damage:
            spec = replace(spec, extra_flat=effect.extra_damage)
            plan = replace(plan, spec=spec)
    stray = None
    # Ruling stray-shot: a natural 2 is a clean miss and strays into nobody either.
    if plan.stray_others is not None and not roll.succeeded and not roll.natural_two:
        stray = roll_stray(plan.stray_others, dice)
        if stray.new_target is not None:
            return replace(base, plan=plan, effect=effect, stray=stray)
    rending = None
    if plan.rend is not None and isinstance(roll, TaskResult) and roll.natural_twenty:
        if roll.succeeded:  # "On a critical hit" (ruling critical-hit): before the damage dice
            strength, brawl = plan.rend
            rending = roll_rending(
                strength=strength, brawl=brawl, living=True, attack=roll, dice=dice
            )
    defenses = Defenses(reduction=base.target.reduction, armored=base.target.armored, block=block)
    damage = roll_damage(spec, roll, defenses, dice=dice)
    if rending is not None and rending.extra_damage_die and damage.deals_damage:
        damage = add_damage_die(damage, dice)
    return replace(base, plan=plan, effect=effect, stray=stray, damage=damage, rending=rending)


def redirect_attack(
    result: AttackResult, new_target: TargetStats, *, block: bool = False, dice: Dice
) -> AttackResult:
    """A stray shot's new target: the same dice judged against its defense, then damage."""
    if result.roll is None or result.stray is None or result.stray.new_target is None:
        raise RulesError("Only a shot that strayed into another combatant can be redirected.")
    mods = tuple(m for m in result.roll.modifiers if not m.label.endswith(" defense"))
    mods += (Modifier(label=f"{new_target.attribute.value} defense", value=-new_target.defense),)
    roll = judge(result.roll.roll, mods)
    defenses = Defenses(reduction=new_target.reduction, armored=new_target.armored, block=block)
    damage = roll_damage(result.plan.spec, roll, defenses, dice=dice)
    return replace(result, target=new_target, roll=roll, damage=damage)
