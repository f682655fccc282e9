"""The look through soft cover, rolled before an attack into it.

"Soft cover is a penalty of -1 to -4 to the attack. Roll perception+mind and subtract
opponents stealth+finesse to see through soft cover. On a roll of 10, remove a point of
soft cover. Remove another point of soft cover for every 5 points above 10. On a roll
below 10, the attack has disadvantage as well. The enemy must be in the location being
attacked."

``ranged.see_through_soft_cover`` judges the look; this module rolls it and hands the
attack what it leaves (``after_look``). Its d10s are the first dice an attack asks for.

Rulings:

* ``soft-cover-look``: every attack into soft cover rolls the look first, by itself:
  2d10 + the attacker's mind + perception − the target's finesse + stealth. The target's
  encumbrance points lower its finesse + stealth (encumbrance penalises Stealth and
  finesse, as it lowers the finesse defense); the attacker's touch nothing (mind and
  perception are neither). It is a perception roll, so low light gives it one
  disadvantage and complete darkness one (ruling ``sight-tasks``); the GM's advantage and
  disadvantage are the attack's, not the look's.
* ``soft-cover-unseen``: the situation term "unseen" is the GM ruling the attacker can't
  see the target: no look is rolled and the attack has the disadvantage, behind all of
  its soft cover.
* ``soft-cover-location``: "the enemy must be in the location being attacked" is the
  GM's judgement: the bot knows no map, attacks the target named and leaves it to the GM
  to call off an attack into soft cover the target is not behind.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack_inputs import Situation
from bot.rules.twod10.character import Character
from bot.rules.twod10.ranged import Light, SoftCoverSight, see_through_soft_cover
from bot.rules.twod10.sight import Sight, sight_disadvantage
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.tasks import MAX_MODIFIER, Modifier, TaskResult, net_edge, roll_d10s

PERCEPTION = SkillKey(skill=Skill.PERCEPTION)
STEALTH = SkillKey(skill=Skill.STEALTH)
MAX_SIGHT = 12  # mind 6 + perception 6
MIN_HIDING = -10  # raw numbers may already take the target's encumbrance off
MAX_HIDING = 12  # finesse 6 + stealth 6
SIGHT_LABEL = "mind + perception"
HIDING_LABEL = "target's finesse + stealth"
BURDEN_LABEL = "target's encumbrance"
_SIGHT = {Light.LOW: Sight.LOW_LIGHT, Light.DARK: Sight.DARKNESS}
_LIGHT_REASON = {Light.LOW: "low light", Light.DARK: "complete darkness"}


def _whole(value: int, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{name} must be a whole number from {low} to {high}.")


@dataclass(frozen=True, kw_only=True)
class LookStats:
    """The look's numbers: the attacker's mind + perception (``sight``), the target's
    finesse + stealth (``hiding``) and the target's EP (``burden``), which lower it."""

    sight: int
    hiding: int
    burden: int = 0

    def __post_init__(self) -> None:
        # Checked here, so nothing is rolled for impossible numbers.
        _whole(self.sight, "Mind + perception", -1, MAX_SIGHT)
        _whole(self.hiding, "Finesse + stealth", MIN_HIDING, MAX_HIDING)
        _whole(self.burden, "The target's encumbrance", 0, MAX_MODIFIER)

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        mods = [
            Modifier(label=SIGHT_LABEL, value=self.sight),
            Modifier(label=HIDING_LABEL, value=-self.hiding),
        ]
        if self.burden:
            mods.append(Modifier(label=BURDEN_LABEL, value=self.burden))
        return tuple(mods)


def sight_of(character: Character) -> int:
    """The attacker's mind + perception."""
    return character.attributes.mind + character.skill(PERCEPTION)


def hiding_of(character: Character) -> int:
    """The target's finesse + stealth, before its encumbrance."""
    return character.attributes.finesse + character.skill(STEALTH)


def look_stats(attacker: Character, target: Character, *, target_ep: int = 0) -> LookStats:
    """The look from two sheets; ``target_ep``: the target's encumbrance points."""
    return LookStats(sight=sight_of(attacker), hiding=hiding_of(target), burden=target_ep)


def look_disadvantages(light: Light) -> tuple[str, ...]:
    """Why the look has disadvantage: the light, as for any perception task."""
    count = sight_disadvantage(_SIGHT.get(light), PERCEPTION)
    return (_LIGHT_REASON[light],) * count if count else ()


def needs_look(situation: Situation) -> bool:
    """An attack into soft cover rolls the look, unless the GM named the target unseen."""
    return situation.soft_cover > 0 and not situation.soft_cover_disadvantage


def rolls_look(situation: Situation, look: LookStats | None) -> bool:
    """The look is rolled: one is needed and its numbers are given."""
    return look is not None and needs_look(situation)


def roll_look(
    cover: int, look: LookStats, *, light: Light = Light.NORMAL, dice: Dice
) -> SoftCoverSight:
    """Roll the look through ``cover`` points of soft cover and judge what it removes."""
    _whole(cover, "Soft cover for a look", 1, 4)
    reasons = look_disadvantages(light)
    roll = TaskResult(roll=roll_d10s(net_edge(0, len(reasons)), dice), modifiers=look.modifiers)
    return replace(see_through_soft_cover(cover, roll), disadvantages=reasons)


def after_look(situation: Situation, sight: SoftCoverSight) -> Situation:
    """The attack's situation once the look is judged: the cover left, the disadvantage."""
    return replace(
        situation, soft_cover=sight.remaining, soft_cover_disadvantage=sight.disadvantage
    )
