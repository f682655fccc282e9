"""An attack from clash to wounds, as one immutable step-by-step result.

    attack clash (or none against a defenseless target) → combat advantage →
    damage pool → roll → choose a die → toughness/mettle → temp HP → HP →
    threshold (test rolled for the target) → wound check → conditions

``resolve_attack`` runs everything; ``resolve_hit`` runs only the part after the
faces are rolled, so a different die can be chosen later from the same faces and
the same pre-hit state (the Discord buttons do that).

Rulings (also in /help):
* Effective values: wounds change strength/agility first, and derived values
  follow (max HP = STR×2+6, threshold −(STR+3), attribute die, skill values);
  the wound table's max-HP reductions apply on top. Attributes used for rolling
  never go below 1.
* Banes on rolls: staggered 2, fatigued 1 per instance, injuries' banes on
  "most rolls" always, and on "strength and agility rolls" when the skill uses
  STR or AGI. Arm/leg injuries depend on the limb used: the GM adds those.
* The threshold test is rolled by the bot at once, for the target, with
  physique or willpower, whichever rolls more dice (physique on a tie).
* Rolled dice stay rolled: switching the kept die reuses explosions, the
  threshold test and the wound check already rolled for this hit, and only
  rolls what was never needed before, so switching can't fish for new rolls.
* Magic attacks add the die of the attacker's mettle attribute (mind or
  presence, as chosen on the sheet).
* Against a defenseless or unconscious target, a melee attack needs no roll and
  a ranged attack is a test against the GM's difficulty; either way a hit gains
  a combat advantage.
* Internal bleeding: losing hit points to physical damage gives bleeding (2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet, SizeCategory, SizeGroup, skill_pool
from bot.rules.hocs.check import TestResult, roll_test
from bot.rules.hocs.clash import ClashResult, ClashSide, resolve_clash
from bot.rules.hocs.conditions import (
    NO_CONDITIONS,
    Condition,
    Conditions,
    attacks_gain_combat_advantage,
    melee_attack_boons,
)
from bot.rules.hocs.damage import DamageApplication, HitPoints, apply_damage
from bot.rules.hocs.damage_pool import (
    AttackKind,
    DamagePool,
    DamageRoll,
    DamageType,
    DieRole,
    Impact,
    PoolDie,
    build_damage_pool,
    covered_types,
    roll_damage_pool,
)
from bot.rules.hocs.many_dice import (
    ManyDiceResult,
    RolledPool,
    best_choice,
    resolve_choice,
)
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.pool import PoolResult
from bot.rules.hocs.rolling import roll_pool as roll_skill_pool
from bot.rules.hocs.threshold import (
    ThresholdCheck,
    ThresholdOutcome,
    ThresholdState,
    apply_threshold_outcome,
    check_threshold,
    resolve_threshold_test,
)
from bot.rules.hocs.wounds import (
    BaneScope,
    InjuryKind,
    Wound,
    WoundCheck,
    WoundCheckResult,
    WoundedValues,
    apply_wound_effects,
    needs_wound_check,
    roll_wound_check,
    wounds_are_fatal,
)

DEFAULT_SPEED = 30
DAMAGE_DICE_SIZES = (4, 6, 8, 10, 12, 20)
MAX_DAMAGE_DICE = 12
MAX_DAMAGE_BONUS = 20
INTERNAL_BLEEDING_VALUE = 2
DEFAULT_RANGED_DIFFICULTY = 1

DEFAULT_ATTACK_SKILL = {
    AttackKind.MELEE: "Melee Combat",
    AttackKind.RANGED: "Ranged Combat",
    AttackKind.MAGIC: "Spellcasting",
}
DEFAULT_DEFENSE_SKILL = "Defense"


# --- parsing what players type ----------------------------------------------------------

_DIE = re.compile(r"^(?P<count>\d*)d(?P<sides>\d+)$")
_BONUS = re.compile(r"^[+-]?\d+$")


def parse_damage_dice(text: str) -> tuple[tuple[int, ...], int]:
    """ "1d10 1d8 2d6" or "1d12+2" → ((10, 8, 6, 6), 0) / ((12,), 2).

    Dice are separated by spaces, commas or +; a plain number is a bonus.
    Raises RulesError for anything else.
    """
    raw = text.strip().lower()
    tokens = [t for t in re.split(r"[\s,]+|(?=[+-])", raw.replace("+", " +")) if t]
    sizes: list[int] = []
    bonus = 0
    for token in tokens:
        token = token.lstrip("+") if token.startswith("+") and "d" in token else token
        die = _DIE.match(token)
        if die:
            count = int(die.group("count") or 1)
            sides = int(die.group("sides"))
            if count + len(sizes) > MAX_DAMAGE_DICE:
                raise RulesError(f"A damage roll takes at most {MAX_DAMAGE_DICE} dice; roll fewer.")
            if sides not in DAMAGE_DICE_SIZES:
                raise RulesError(
                    f"Damage dice are d4, d6, d8, d10, d12 or d20; d{sides} is not one of them."
                )
            if count < 1:
                raise RulesError("Roll at least one die of each kind you name, e.g. 1d8.")
            sizes.extend([sides] * count)
        elif _BONUS.match(token):
            bonus += int(token)
        else:
            shown = text.strip()[:30].replace("`", "'")
            raise RulesError(
                f"I couldn't read `{shown}` as damage dice: write them like 1d12 or"
                " 1d10 1d8 2d6 (d4–d20), or give a weapon's name."
            )
    if not sizes:
        raise RulesError("A damage roll needs at least one die, such as 1d8.")
    if abs(bonus) > MAX_DAMAGE_BONUS:
        raise RulesError(f"A damage bonus goes from −{MAX_DAMAGE_BONUS} to +{MAX_DAMAGE_BONUS}.")
    return tuple(sizes), bonus


def parse_damage_types(text: str | None) -> tuple[DamageType, ...]:
    """ "slash, fire" → (SLASH, FIRE); empty → (PHYSICAL,)."""
    if text is None or not text.strip():
        return (DamageType.PHYSICAL,)
    return parse_type_list(text) or (DamageType.PHYSICAL,)


def parse_type_list(text: str) -> tuple[DamageType, ...]:
    """A comma- or space-separated list of damage types; "-" or "none" is empty."""
    found: list[DamageType] = []
    for word in re.split(r"[\s,;/+]+", text.strip().lower()):
        if not word or word in {"-", "none"}:
            continue
        try:
            damage_type = DamageType(word)
        except ValueError:
            valid = ", ".join(t.value for t in DamageType)
            shown = word[:20].replace("`", "'")
            raise RulesError(f"`{shown}` is not a damage type; use one of: {valid}.") from None
        if damage_type not in found:
            found.append(damage_type)
    return tuple(found)


def dice_text(sizes: Sequence[int]) -> str:
    """(10, 8, 6, 6) → "1d10 + 1d8 + 2d6" (in order of first appearance)."""
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    return " + ".join(f"{n}d{size}" for size, n in counts.items())


# --- the people involved -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Vitals:
    """The tracked values a hit changes."""

    hp: int
    temp_hp: int = 0
    nonlethal: int = 0
    conditions: Conditions = NO_CONDITIONS
    wounds: tuple[Wound, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "hp": self.hp,
            "temp_hp": self.temp_hp,
            "nonlethal": self.nonlethal,
            "conditions": self.conditions.to_dict(),
            "wounds": [w.to_dict() for w in self.wounds],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Vitals:
        return cls(
            hp=int(data["hp"]),
            temp_hp=int(data.get("temp_hp", 0)),
            nonlethal=int(data.get("nonlethal", 0)),
            conditions=Conditions.from_dict(data.get("conditions", {})),
            wounds=tuple(Wound.from_dict(w) for w in data.get("wounds", ())),
        )


@dataclass(frozen=True, kw_only=True)
class Combatant:
    """A character as combat sees it: the sheet, its defences and its vitals."""

    sheet: CharacterSheet
    vitals: Vitals
    armor: int = 0
    resistances: tuple[DamageType, ...] = ()
    immunities: tuple[DamageType, ...] = ()
    weaknesses: tuple[DamageType, ...] = ()
    speed: int = DEFAULT_SPEED

    @property
    def name(self) -> str:
        return self.sheet.name

    @property
    def wounded(self) -> WoundedValues:
        return apply_wound_effects(
            strength=self.sheet.strength,
            agility=self.sheet.agility,
            max_hp=self.sheet.hit_points,
            speed=self.speed,
            wounds=self.vitals.wounds,
        )

    @property
    def effective_sheet(self) -> CharacterSheet:
        """The sheet with wounded strength and agility (never below 1) for rolling."""
        values = self.wounded
        return replace(self.sheet, strength=max(1, values.strength), agility=max(1, values.agility))

    @property
    def max_hp(self) -> int:
        values = self.wounded
        reductions = sum(w.effect.max_hp for w in self.vitals.wounds)
        return max(0, values.strength * 2 + 6 + reductions)

    @property
    def threshold(self) -> int:
        return -(self.wounded.strength + 3)

    @property
    def toughness(self) -> int:
        return self.armor

    @property
    def mettle(self) -> int:
        return self.sheet.mettle

    @property
    def hit_points(self) -> HitPoints:
        """The vitals as a rules ``HitPoints`` (values kept within the wounded maximum)."""
        maximum = self.max_hp
        current = min(self.vitals.hp, maximum)
        nonlethal = max(0, min(self.vitals.nonlethal, maximum - current))
        return HitPoints(
            current=current,
            maximum=maximum,
            threshold=self.threshold,
            temporary=self.vitals.temp_hp,
            nonlethal_taken=nonlethal,
        )

    def with_vitals(self, vitals: Vitals) -> Combatant:
        return replace(self, vitals=vitals)

    def roll_banes(self, attribute: Attribute) -> tuple[tuple[str, int], ...]:
        """Banes every roll of ``attribute`` suffers, with where they come from."""
        conditions = self.vitals.conditions
        parts: list[tuple[str, int]] = []
        if Condition.STAGGERED in conditions:
            parts.append(("staggered", 2))
        if conditions.value(Condition.FATIGUED):
            parts.append(("fatigued", conditions.value(Condition.FATIGUED)))
        for scope, banes in self.wounded.banes:
            if scope is BaneScope.MOST or (
                scope is BaneScope.STRENGTH_AND_AGILITY
                and attribute in (Attribute.STRENGTH, Attribute.AGILITY)
            ):
                parts.append(("injury", banes))
        return tuple(parts)

    def attack_attribute(self, kind: AttackKind) -> int:
        sheet = self.effective_sheet
        if kind is AttackKind.MELEE:
            return sheet.strength
        if kind is AttackKind.RANGED:
            return sheet.agility
        return sheet.attribute(sheet.spirit_attribute)


def apply_wound_list(combatant: Combatant, vitals: Vitals) -> tuple[Vitals, str | None]:
    """Recompute what the wound list implies for ``vitals``: HP within the wounded
    maximum, the wounded condition, death (returns why). Used after a wound is
    gained or healed."""
    updated = combatant.with_vitals(vitals)
    maximum = updated.max_hp
    hp = min(vitals.hp, maximum)
    nonlethal = max(0, min(vitals.nonlethal, maximum - hp))
    conditions = vitals.conditions
    if vitals.wounds:
        conditions = conditions.add(Condition.WOUNDED)
    else:
        conditions = conditions.remove(Condition.WOUNDED)
    cause = None
    if vitals.wounds and wounds_are_fatal(
        base_strength=combatant.sheet.strength, wounds=vitals.wounds, max_hp=maximum
    ):
        cause = (
            "maximum hit points reduced to 0"
            if maximum <= 0
            else f"{len(vitals.wounds)} wounds and injuries, as many as strength"
            f" {combatant.sheet.strength}"
        )
        conditions = conditions.add(Condition.DEAD)
    return replace(vitals, hp=hp, nonlethal=nonlethal, conditions=conditions), cause


# --- what the attacker uses --------------------------------------------------------------


class Advantage(Enum):
    """Combat advantages an attacker can take on a hit by 2+ (counter is the defender's)."""

    IMPACT_D6 = "impact_d6"
    IMPACT_D8 = "impact_d8"
    TEMPO = "tempo"
    AEGIS = "aegis"

    @property
    def impact(self) -> Impact | None:
        return {Advantage.IMPACT_D6: Impact.D6, Advantage.IMPACT_D8: Impact.D8}.get(self)

    @property
    def text(self) -> str:
        return _ADVANTAGE_TEXT[self]


_ADVANTAGE_TEXT = {
    Advantage.IMPACT_D6: "impact: +1d6 on the damage roll",
    Advantage.IMPACT_D8: "impact: +1d8 on the damage roll",
    Advantage.TEMPO: "tempo: no bane on further attacks until the end of the turn",
    Advantage.AEGIS: "aegis: 1 reroll on a defense roll until the end of the next turn",
}
DEFAULT_ADVANTAGE = Advantage.IMPACT_D8


@dataclass(frozen=True, kw_only=True)
class WeaponUse:
    """The source of an attack: a weapon from the sheet or typed dice."""

    name: str | None
    dice: tuple[int, ...]
    types: tuple[DamageType, ...] = (DamageType.PHYSICAL,)
    kind: AttackKind = AttackKind.MELEE
    lethal: bool = True

    def __post_init__(self) -> None:
        if not self.dice:
            raise RulesError("An attack needs at least one source die.")
        if not self.types:
            raise RulesError("An attack must deal at least one type of damage.")


# --- the damage part: roll, choose, apply ------------------------------------------------


def _pool_to_dict(pool: DamagePool) -> dict[str, Any]:
    return {
        "dice": [
            {"sides": d.sides, "role": d.role.value, "types": [t.value for t in d.types]}
            for d in pool.dice
        ],
        "types": [t.value for t in pool.types],
        "lethal": pool.lethal,
        "immune": pool.immune,
    }


def _pool_from_dict(data: Mapping[str, Any]) -> DamagePool:
    return DamagePool(
        dice=tuple(
            PoolDie(int(d["sides"]), DieRole(d["role"]), tuple(DamageType(t) for t in d["types"]))
            for d in data["dice"]
        ),
        types=tuple(DamageType(t) for t in data["types"]),
        lethal=bool(data["lethal"]),
        immune=bool(data.get("immune", False)),
    )


@dataclass(frozen=True, kw_only=True)
class HitInputs:
    """What a hit needs besides the target: the pool, its rolled faces, the attack's types."""

    pool: DamagePool
    rolled: RolledPool | None
    types: tuple[DamageType, ...]
    bonus: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "pool": _pool_to_dict(self.pool),
            "rolled": self.rolled.to_dict() if self.rolled else None,
            "types": [t.value for t in self.types],
            "bonus": self.bonus,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HitInputs:
        try:
            return cls(
                pool=_pool_from_dict(data["pool"]),
                rolled=RolledPool.from_dict(data["rolled"]) if data.get("rolled") else None,
                types=tuple(DamageType(t) for t in data["types"]),
                bonus=int(data.get("bonus", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RulesError("This stored damage roll is damaged; roll again.") from exc


def _wound_check_to_dict(check: WoundCheck) -> dict[str, Any]:
    return {
        "check_face": check.check_face,
        "result": check.result.name,
        "wound_face": check.wound_face,
        "injury_face": check.injury_face,
        "wound": check.wound.to_dict() if check.wound else None,
    }


def _wound_check_from_dict(data: Mapping[str, Any]) -> WoundCheck:
    return WoundCheck(
        check_face=int(data["check_face"]),
        result=WoundCheckResult[data["result"]],
        wound_face=data.get("wound_face"),
        injury_face=data.get("injury_face"),
        wound=Wound.from_dict(data["wound"]) if data.get("wound") else None,
    )


@dataclass(frozen=True, kw_only=True)
class PriorRolls:
    """Rolls already made for one hit, reused when another die is chosen."""

    explosions: tuple[tuple[int, tuple[int, ...]], ...] = ()
    threshold_skill: str | None = None
    threshold_roll: PoolResult | None = None
    wound_check: WoundCheck | None = None

    def explosions_for(self, index: int) -> tuple[int, ...] | None:
        return dict(self.explosions).get(index)

    def to_dict(self) -> dict[str, Any]:
        return {
            "explosions": [[i, list(chain)] for i, chain in self.explosions],
            "threshold_skill": self.threshold_skill,
            "threshold_roll": self.threshold_roll.to_dict() if self.threshold_roll else None,
            "wound_check": _wound_check_to_dict(self.wound_check) if self.wound_check else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PriorRolls:
        try:
            return cls(
                explosions=tuple(
                    (int(i), tuple(int(x) for x in chain)) for i, chain in data["explosions"]
                ),
                threshold_skill=data.get("threshold_skill"),
                threshold_roll=PoolResult.from_dict(data["threshold_roll"])
                if data.get("threshold_roll")
                else None,
                wound_check=_wound_check_from_dict(data["wound_check"])
                if data.get("wound_check")
                else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise RulesError("This stored damage roll is damaged; roll again.") from exc


def choose_damage(
    inputs: HitInputs, index: int | None, dice: Dice, prior: PriorRolls = PriorRolls()
) -> tuple[DamageRoll, PriorRolls, bool]:
    """Keep die ``index`` (None: the best expected total). Returns the roll, the
    rolls now known, and whether the choice was the bot's suggestion."""
    if inputs.rolled is None:
        return DamageRoll(inputs.pool, None, inputs.bonus), prior, True
    best = best_choice(inputs.rolled)
    chosen = best if index is None else index
    known = prior.explosions_for(chosen)
    if known is not None:
        result = ManyDiceResult(inputs.rolled, chosen, known)
    else:
        result = resolve_choice(inputs.rolled, chosen, dice)
        prior = replace(prior, explosions=(*prior.explosions, (chosen, result.explosions)))
    return DamageRoll(inputs.pool, result, inputs.bonus), prior, chosen == best


@dataclass(frozen=True, kw_only=True)
class ThresholdTest:
    skill: str
    roll: PoolResult
    outcome: ThresholdOutcome


@dataclass(frozen=True, kw_only=True)
class HitResult:
    """Everything one hit did to its target, step by step."""

    target: str
    damage: DamageRoll
    suggested: bool  # the kept die is the bot's suggestion
    application: DamageApplication
    threshold: ThresholdCheck
    threshold_test: ThresholdTest | None
    wound_check: WoundCheck | None
    bleeding_gained: int
    before: Vitals
    after: Vitals
    max_hp_after: int
    threshold_after: int
    death_causes: tuple[str, ...]
    rolls: PriorRolls

    @property
    def dead(self) -> bool:
        return Condition.DEAD in self.after.conditions

    @property
    def conditions_gained(self) -> tuple[Condition, ...]:
        return tuple(c for c in self.after.conditions if c not in self.before.conditions)


def _threshold_test(
    target: Combatant, difficulty: int, dice: Dice, prior: PriorRolls
) -> tuple[ThresholdTest, PriorRolls]:
    if prior.threshold_roll is not None and prior.threshold_skill is not None:
        roll, label = prior.threshold_roll, prior.threshold_skill
    else:
        sheet = target.effective_sheet
        options = []
        for name in ("Physique", "Willpower"):
            pool = skill_pool(sheet, name)
            banes = min(MAX_MODIFIER, sum(n for _, n in target.roll_banes(pool.attribute)))
            spec = pool.spec(banes=banes)
            options.append((spec.dice_count, -len(options), pool.label, spec))
        _, _, label, spec = max(options)
        roll = roll_skill_pool(spec, dice)
        prior = replace(prior, threshold_skill=label, threshold_roll=roll)
    outcome = resolve_threshold_test(roll.successes, difficulty)
    return ThresholdTest(skill=label, roll=roll, outcome=outcome), prior


def resolve_hit(
    target: Combatant,
    inputs: HitInputs,
    *,
    index: int | None,
    dice: Dice,
    prior: PriorRolls = PriorRolls(),
) -> HitResult:
    """Damage from already rolled faces, applied to ``target`` (its pre-hit vitals)."""
    damage, prior, suggested = choose_damage(inputs, index, dice, prior)
    before = target.vitals
    state = target.hit_points
    application = apply_damage(
        state,
        damage.amount,
        types=inputs.pool.types or inputs.types,
        lethal=inputs.pool.lethal,
        toughness=target.toughness,
        mettle=target.mettle,
        resistances=target.resistances,
        immunities=target.immunities,
    )
    after_hp = application.after
    conditions = before.conditions
    check = check_threshold(application, extra_difficulty=target.wounded.threshold_difficulty)
    test: ThresholdTest | None = None
    causes: list[str] = []
    if check.state is ThresholdState.TEST_REQUIRED:
        assert check.difficulty is not None
        test, prior = _threshold_test(target, check.difficulty, dice, prior)
        conditions = apply_threshold_outcome(conditions, test.outcome)
    elif check.state is ThresholdState.KNOCKED_OUT:
        conditions = conditions.remove(Condition.DYING)
        for condition in check.conditions_gained:
            conditions = conditions.add(condition)
    elif check.state is ThresholdState.DEAD:
        conditions = conditions.add(Condition.DEAD)
        causes.append(f"hit points beyond the threshold ({target.threshold})")

    bleeding = 0
    has_internal_bleeding = any(w.kind is InjuryKind.INTERNAL_BLEEDING for w in before.wounds)
    if (
        has_internal_bleeding
        and application.hp_lost > 0
        and any(t.is_physical for t in application.types)
    ):
        bleeding = INTERNAL_BLEEDING_VALUE

    vitals = Vitals(
        hp=after_hp.current,
        temp_hp=after_hp.temporary,
        nonlethal=after_hp.nonlethal_taken,
        conditions=conditions,
        wounds=before.wounds,
    )
    wound_check: WoundCheck | None = None
    survived = check.state is not ThresholdState.DEAD
    if needs_wound_check(application.after_reductions, survived=survived):
        if prior.wound_check is None:
            prior = replace(prior, wound_check=roll_wound_check(dice))
        wound_check = prior.wound_check
        assert wound_check is not None
        if wound_check.wound is not None:
            wound = wound_check.wound
            vitals = replace(vitals, wounds=(*vitals.wounds, wound))
            if wound.effect.bleeding:
                bleeding = max(bleeding, wound.effect.bleeding)
            vitals, cause = apply_wound_list(target, vitals)
            if cause:
                causes.append(cause)
    if bleeding and Condition.DEAD not in vitals.conditions:
        vitals = replace(vitals, conditions=vitals.conditions.add(Condition.BLEEDING, bleeding))
    final = target.with_vitals(vitals)
    return HitResult(
        target=target.name,
        damage=damage,
        suggested=suggested,
        application=application,
        threshold=check,
        threshold_test=test,
        wound_check=wound_check,
        bleeding_gained=bleeding,
        before=before,
        after=vitals,
        max_hp_after=final.max_hp,
        threshold_after=final.threshold,
        death_causes=tuple(causes),
        rolls=prior,
    )


# --- pools -------------------------------------------------------------------------------


def raw_damage_pool(
    sizes: Sequence[int],
    *,
    types: Sequence[DamageType],
    lethal: bool,
    target_weaknesses: Iterable[DamageType] = (),
    target_immunities: Iterable[DamageType] = (),
) -> DamagePool:
    """Typed dice exactly as given (/damage 1d10 1d8 2d6), plus the target's
    weakness d10s; immunity strikes its types as in ``build_damage_pool``."""
    if not sizes:
        raise RulesError("A damage roll needs at least one die, such as 1d8.")
    attack_types = tuple(dict.fromkeys(types))
    immunities = tuple(target_immunities)
    immune = set(covered_types(attack_types, immunities))
    remaining = tuple(t for t in attack_types if t not in immune)
    if not remaining:
        return DamagePool(dice=(), types=(), lethal=lethal, immune=True)
    dice = [PoolDie(s, DieRole.SOURCE, remaining) for s in sizes]
    for weakness in dict.fromkeys(target_weaknesses):
        if weakness not in immune and any(t.covered_by(weakness) for t in remaining):
            dice.append(PoolDie(10, DieRole.WEAKNESS, (weakness,)))
    return DamagePool(dice=tuple(dice), types=remaining, lethal=lethal)


def weapon_pool(
    attacker: Combatant,
    target: Combatant | None,
    weapon: WeaponUse,
    *,
    impact: Impact | None = None,
) -> DamagePool:
    """The damage pool of ``weapon`` in ``attacker``'s hands against ``target``."""
    return build_damage_pool(
        source=weapon.dice,
        attack_kind=weapon.kind,
        attribute=attacker.attack_attribute(weapon.kind),
        types=weapon.types,
        lethal=weapon.lethal,
        attacker_size=attacker.sheet.size,
        target_size=target.sheet.size if target else attacker.sheet.size,
        target_weaknesses=target.weaknesses if target else (),
        target_immunities=target.immunities if target else (),
        impact=impact,
    )


def roll_inputs(
    pool: DamagePool, types: Sequence[DamageType], dice: Dice, bonus: int = 0
) -> HitInputs:
    return HitInputs(
        pool=pool, rolled=roll_damage_pool(pool, dice), types=tuple(types), bonus=bonus
    )


# --- the attack roll ---------------------------------------------------------------------

_GROUP_RANK = {SizeGroup.MINUSCULE: 0, SizeGroup.CONVENTIONAL: 1, SizeGroup.EXTRAORDINARY: 2}


def size_attack_bonus(attacker: SizeCategory, target: SizeCategory) -> tuple[int, int]:
    """(focus, boons) on attack rolls: 1 focus against a larger target of the same
    group, 1 boon per size group against a larger group."""
    sizes = list(SizeCategory)
    if attacker.group is target.group:
        return (1 if sizes.index(target) > sizes.index(attacker) else 0), 0
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
    return min(MAX_MODIFIER, sum(n for _, n in parts))


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
) -> AttackResult:
    """Roll the attack and, on a hit, the damage applied to ``target``."""
    if Condition.DEAD in attacker.vitals.conditions:
        raise RulesError(f"{attacker.name} is dead and can't attack.")
    if Condition.UNCONSCIOUS in attacker.vitals.conditions:
        raise RulesError(f"{attacker.name} is unconscious and can't attack.")
    if Condition.DEAD in target.vitals.conditions:
        raise RulesError(f"{target.name} is already dead: pick another target.")
    notes: list[str] = []
    attack_pool = skill_pool(attacker.effective_sheet, skill or DEFAULT_ATTACK_SKILL[weapon.kind])
    boon_parts: list[tuple[str, int]] = [("given", boons)] if boons else []
    bane_parts: list[tuple[str, int]] = [("given", banes)] if banes else []
    bane_parts += attacker.roll_banes(attack_pool.attribute)
    focus_parts: list[tuple[str, int]] = []
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
        boons=_total(boon_parts), banes=_total(bane_parts), focus=_total(focus_parts)
    )
    defenseless = Condition.UNCONSCIOUS in target.vitals.conditions or (
        attacks_gain_combat_advantage(target.vitals.conditions)
    )
    clash: ClashResult | None = None
    test: TestResult | None = None
    defense_label: str | None = None
    defense_bane_parts: tuple[tuple[str, int], ...] = ()
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
        defense_pool = skill_pool(target.effective_sheet, defense_skill or DEFAULT_DEFENSE_SKILL)
        defense_label = defense_pool.label
        defense_bane_parts = target.roll_banes(defense_pool.attribute)
        defense_spec = defense_pool.spec(banes=_total(defense_bane_parts))
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
    inputs = roll_inputs(pool, weapon.types, dice, bonus)
    hit_result = resolve_hit(target, inputs, index=choose, dice=dice)
    return AttackResult(
        attacker=attacker.name,
        target=target.name,
        weapon=weapon,
        roll=roll,
        inputs=inputs,
        hit=hit_result,
        notes=tuple(notes),
    )
