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
  physique or willpower, whichever rolls more dice (physique on a tie). It is
  the target's skill roll: a determination point spent before it
  (``HitInputs.threshold_determination``) is in its pool from the start, and
  the target's points may change it after the roll as on any roll.
* Rolled dice stay rolled: switching the kept die reuses explosions, the
  threshold test and the wound check already rolled for this hit, and only
  rolls what was never needed before, so switching can't fish for new rolls.
* Magic attacks add the die of the attacker's mettle attribute (mind or
  presence, as chosen on the sheet).
* Against a defenseless or unconscious target, a melee attack needs no roll and
  a ranged attack is a test against the GM's difficulty; either way a hit gains
  a combat advantage.
* Internal bleeding: losing hit points to physical damage gives bleeding (2).
* Hero points reduce a hit by 2d6 off the damage roll, before toughness/mettle:
  see ``hero``.

Modules: ``parsing`` (what players type), ``combatant`` (vitals and the people
involved), ``weapons`` (advantages, weapons, damage pools), ``stored`` (a hit's
saved form), ``hit`` (applying one hit), ``roll`` (the attack roll), ``hero``
(a hero point's damage reduction), ``record`` (the roll-log form).
"""

from __future__ import annotations

from bot.rules.hocs.attack.combatant import (
    DEFAULT_SPEED,
    Combatant,
    Vitals,
    apply_wound_list,
)
from bot.rules.hocs.attack.hero import (
    HERO_REDUCTION_DICE,
    HERO_REDUCTION_SIDES,
    HitReduction,
    hero_reroll_damage,
    low_damage_dice,
    reduce_hit,
    roll_hero_reduction,
)
from bot.rules.hocs.attack.hit import (
    INTERNAL_BLEEDING_VALUE,
    HitResult,
    ThresholdTest,
    choose_damage,
    resolve_hit,
    settle_threshold_pledge,
    threshold_pledge_spent,
)
from bot.rules.hocs.attack.parsing import (
    DAMAGE_DICE_SIZES,
    MAX_DAMAGE_BONUS,
    MAX_DAMAGE_DICE,
    dice_text,
    parse_damage_dice,
    parse_damage_types,
    parse_type_list,
)
from bot.rules.hocs.attack.record import (
    attack_record,
    attack_roll_from_dict,
    attack_roll_record,
    damage_record,
    hit_record,
    roll_record,
)
from bot.rules.hocs.attack.roll import (
    DEFAULT_ATTACK_SKILL,
    DEFAULT_DEFENSE_SKILL,
    DEFAULT_RANGED_DIFFICULTY,
    AttackMode,
    AttackResult,
    AttackRoll,
    SideModifiers,
    rejudge_attack,
    resolve_attack,
    size_attack_bonus,
)
from bot.rules.hocs.attack.stored import (
    NO_PRIOR_ROLLS,
    HitInputs,
    PriorRolls,
)
from bot.rules.hocs.attack.threshold_spends import (
    ThresholdPoint,
    ThresholdSpend,
    point_spent_between,
)
from bot.rules.hocs.attack.weapons import (
    DEFAULT_ADVANTAGE,
    Advantage,
    WeaponUse,
    raw_damage_pool,
    roll_inputs,
    weapon_pool,
)

__all__ = [
    "DAMAGE_DICE_SIZES",
    "DEFAULT_ADVANTAGE",
    "DEFAULT_ATTACK_SKILL",
    "DEFAULT_DEFENSE_SKILL",
    "DEFAULT_RANGED_DIFFICULTY",
    "DEFAULT_SPEED",
    "HERO_REDUCTION_DICE",
    "HERO_REDUCTION_SIDES",
    "INTERNAL_BLEEDING_VALUE",
    "MAX_DAMAGE_BONUS",
    "MAX_DAMAGE_DICE",
    "NO_PRIOR_ROLLS",
    "Advantage",
    "AttackMode",
    "AttackResult",
    "AttackRoll",
    "Combatant",
    "HitInputs",
    "HitReduction",
    "HitResult",
    "PriorRolls",
    "SideModifiers",
    "ThresholdPoint",
    "ThresholdSpend",
    "ThresholdTest",
    "Vitals",
    "WeaponUse",
    "apply_wound_list",
    "attack_record",
    "attack_roll_from_dict",
    "attack_roll_record",
    "choose_damage",
    "damage_record",
    "dice_text",
    "hero_reroll_damage",
    "hit_record",
    "low_damage_dice",
    "parse_damage_dice",
    "parse_damage_types",
    "parse_type_list",
    "point_spent_between",
    "raw_damage_pool",
    "reduce_hit",
    "rejudge_attack",
    "resolve_attack",
    "resolve_hit",
    "roll_hero_reduction",
    "roll_inputs",
    "roll_record",
    "settle_threshold_pledge",
    "size_attack_bonus",
    "threshold_pledge_spent",
    "weapon_pool",
]
