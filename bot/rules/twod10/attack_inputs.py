"""Who attacks, who defends, and the circumstances of an attack (inputs to ``attack``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import WeaponKind
from bot.rules.twod10.maneuvers import Hands
from bot.rules.twod10.ranged import Light
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.tasks import MAX_EDGE

MISSILE = (WeaponKind.RANGED, WeaponKind.THROWN)
ATTACK_SKILL = {
    WeaponKind.MELEE: Skill.MELEE,
    WeaponKind.RANGED: Skill.RANGED,
    WeaponKind.THROWN: Skill.RANGED,  # ruling thrown-skill
    WeaponKind.BRAWL: Skill.BRAWL,
    WeaponKind.IMPROVISED: Skill.BRAWL,
}


@dataclass(frozen=True, kw_only=True)
class AttackerStats:
    finesse: int
    strength: int
    melee: int = 0
    ranged: int = 0
    brawl: int = 0

    def __post_init__(self) -> None:
        # Checked here so nothing is rolled (not even a cover d4) for impossible stats.
        for name in ("finesse", "strength"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not -1 <= value <= 6:
                raise RulesError(f"{name.capitalize()} must be a whole number from -1 to 6.")
        for name in ("melee", "ranged", "brawl"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 6:
                raise RulesError(f"{name.capitalize()} must be a whole number from 0 to 6.")

    def skill(self, kind: WeaponKind) -> int:
        return {Skill.MELEE: self.melee, Skill.RANGED: self.ranged, Skill.BRAWL: self.brawl}[
            ATTACK_SKILL[kind]
        ]


def attacker_stats(character: Character) -> AttackerStats:
    a = character.attributes
    return AttackerStats(
        finesse=a.finesse,
        strength=a.strength,
        melee=character.skill(SkillKey(skill=Skill.MELEE)),
        ranged=character.skill(SkillKey(skill=Skill.RANGED)),
        brawl=character.skill(SkillKey(skill=Skill.BRAWL)),
    )


@dataclass(frozen=True, kw_only=True)
class TargetStats:
    """The defended attribute, its defense (attribute + Defense, less armor penalty), armor."""

    attribute: Attribute
    defense: int
    reduction: int = 0
    armored: bool = False

    def __post_init__(self) -> None:
        if not -10 <= self.defense <= 30:
            raise RulesError("A defense must be from -10 to 30.")


def target_stats(character: Character, attribute: Attribute = Attribute.FINESSE) -> TargetStats:
    return TargetStats(
        attribute=attribute,
        defense=character.defense_value(attribute),
        reduction=character.damage_reduction,
        armored=character.armor is not None,
    )


def parry_value(finesse: int, skill: int) -> int:
    """A parry subtracts finesse + melee (or finesse + ranged) from the next attack."""
    return finesse + skill


@dataclass(frozen=True, kw_only=True)
class Situation:
    flanking: bool = False
    target_prone: bool = False
    target_pinned_by_attacker: bool = False
    attacker_pinned: bool = False
    prepared: bool = False  # the attacker sacrificed an attack to prepare
    firing_into_melee: bool = False
    melee_others: int = 0  # other combatants in that melee, for the stray d8
    beyond_range: bool = False
    engaged: bool = False  # the shooter is within an enemy's melee range
    light: Light = Light.NORMAL
    soft_cover: int = 0
    soft_cover_disadvantage: bool = False  # a failed look through soft cover
    hard_cover: int = 0
    buckler_same_hand: bool = False
    hands: Hands = Hands.BOTH_FREE
    parry: int = 0  # the target's parry value, spent on this attack
    advantage: int = 0  # other advantages the GM grants
    disadvantage: int = 0
    bonus: int = 0  # another modifier the GM applies
    encumbrance: int = 0  # the attacker's EP: a finesse attack loses 1 per EP
    # The target declared a defense for the attacked attribute: it rolls, flipped (defending).
    defended: bool = False
    rend: bool = False  # the attacker tries rending on a natural-20 hit (``rending``)

    def __post_init__(self) -> None:
        if not 0 <= self.soft_cover <= 4:
            raise RulesError("Soft cover is a penalty from 0 to 4.")
        if not 0 <= self.hard_cover <= 4:
            raise RulesError("Hard cover goes from 0 to 4 (quarters; 4 is total cover).")
        if not 0 <= self.melee_others <= 50:
            raise RulesError("Count the other combatants in the melee: 0 to 50.")
        if not 0 <= self.parry <= 20:
            raise RulesError("A parry subtracts from 0 to 20.")
        if not 0 <= self.advantage <= MAX_EDGE or not 0 <= self.disadvantage <= MAX_EDGE:
            raise RulesError(f"Extra advantage or disadvantage is a count from 0 to {MAX_EDGE}.")


PLAIN = Situation()  # nothing special about the attack (a frozen default to share)
