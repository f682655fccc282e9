"""A hero point's "reduce a damage source received by 2d6" (HOCS, Meta Currencies).

Rulings (also in /help hero spend):

* The 2d6 are added and can't be modified: no explosions, no many-dice-one-result,
  no rerolls.
* "A damage source" is the damage roll: its total (kept die, +1 per other die at
  its maximum, bonus) is reduced by the 2d6 *before* toughness or mettle, never
  below 0. Everything after is redone as for any hit, from the target's state
  before it: toughness/mettle, "at least 1 hit point" (a roll reduced to 0 deals
  nothing), temporary HP, the threshold (test difficulty = damage received after
  reductions) and the wound check at 10+. So 9 damage on toughness 2 (7 lost)
  reduced by a 2d6 of 5 becomes 4 damage: 2 lost, 5 given back.
* Dice already rolled for the hit stay rolled: a threshold test still due reuses
  its roll against the new difficulty, and a wound check that is no longer due is
  dropped with its wound (it stays on record, so keeping another die later
  can't fish for a new one).
* Each hero point spent on the hit takes its own 2d6 off (they add up); a hit
  that deals no damage any more can't be reduced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack.combatant import Combatant
from bot.rules.hocs.attack.hit import HitResult, resolve_hit
from bot.rules.hocs.attack.stored import HitInputs, PriorRolls
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.many_dice import RolledDie, RolledPool
from bot.rules.hocs.wounds import Wound

HERO_REDUCTION_DICE = 2
HERO_REDUCTION_SIDES = 6


@dataclass(frozen=True, kw_only=True)
class HitReduction:
    """One hero point's 2d6 off a hit: the hit as it stood, and as it stands now."""

    faces: tuple[int, ...]
    before: HitResult
    after: HitResult

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def hp_given_back(self) -> int:
        return self.after.after.hp - self.before.after.hp

    @property
    def temp_hp_given_back(self) -> int:
        return self.after.after.temp_hp - self.before.after.temp_hp

    @property
    def wounds_removed(self) -> tuple[Wound, ...]:
        """Wounds the hit no longer causes (the wound check isn't due any more)."""
        remaining = Counter(self.after.after.wounds)
        removed: list[Wound] = []
        for wound in self.before.after.wounds:
            if remaining[wound]:
                remaining[wound] -= 1
            else:
                removed.append(wound)
        return tuple(removed)

    @property
    def conditions_removed(self) -> tuple[Condition, ...]:
        now = self.after.after.conditions
        return tuple(c for c in self.before.after.conditions if c not in now)

    @property
    def conditions_added(self) -> tuple[Condition, ...]:
        was = self.before.after.conditions
        return tuple(c for c in self.after.after.conditions if c not in was)


def roll_hero_reduction(dice: Dice) -> tuple[int, ...]:
    """2d6, plain: no explosions, nothing kept or dropped."""
    return tuple(dice.roll(HERO_REDUCTION_SIDES) for _ in range(HERO_REDUCTION_DICE))


def reduce_hit(
    target: Combatant,
    inputs: HitInputs,
    *,
    index: int,
    prior: PriorRolls,
    dice: Dice,
) -> HitReduction:
    """Redo the hit kept on die ``index`` from ``target`` (its vitals before the hit)
    with 2d6 more off the damage roll. Raises RulesError when the hit deals no
    damage to reduce (nothing is rolled then)."""
    before = resolve_hit(target, inputs, index=index, dice=dice, prior=prior)
    if before.application.immune or before.dealt == 0:
        raise RulesError("That hit deals no damage any more: there is nothing to reduce.")
    faces = roll_hero_reduction(dice)
    reduced = replace(before.rolls, hero_reductions=(*before.rolls.hero_reductions, faces))
    after = resolve_hit(target, inputs, index=index, dice=dice, prior=reduced)
    return HitReduction(faces=faces, before=before, after=after)


def low_damage_dice(inputs: HitInputs) -> tuple[int, ...]:
    """The damage dice a hero reroll takes by default: those showing less than half their
    size plus one (below their average), e.g. a d12 showing 1–6, a d6 showing 1–3."""
    if inputs.rolled is None:
        return ()
    return tuple(i for i, d in enumerate(inputs.rolled.dice) if 2 * d.face <= d.sides)


def hero_reroll_damage(
    inputs: HitInputs, prior: PriorRolls, dice: Dice, indices: Sequence[int] | None = None
) -> tuple[HitInputs, PriorRolls, tuple[int, ...]]:
    """A hero point's "reroll as many dice as they want" on a damage roll.

    Ruling: the Hero reroll button rerolls ``low_damage_dice`` (every die below its
    average; a careful player keeps the rest). Explosions already rolled belong to the
    old faces and are dropped; the kept die is then chosen again (best expected total
    unless the player switches). The threshold test, wound check and hero reductions
    already rolled for the hit stay (rolled dice stay rolled). RulesError when no die
    is low enough to reroll (nothing is rolled then)."""
    rolled = inputs.rolled
    if rolled is None:
        raise RulesError("That damage roll has no dice to reroll.")
    chosen = tuple(indices) if indices is not None else low_damage_dice(inputs)
    if not chosen:
        raise RulesError("Every damage die shows its average or more: keep the hero point.")
    faces = list(rolled.dice)
    for index in chosen:
        if not 0 <= index < len(faces):
            raise RulesError(f"That damage roll has dice 1 to {len(faces)}.")
        die = faces[index]
        faces[index] = RolledDie(die.sides, dice.roll(die.sides))
    new_rolled = RolledPool(tuple(faces), exploding=rolled.exploding)
    prior = replace(prior, explosions=(), hero_rerolls=prior.hero_rerolls + 1)
    return replace(inputs, rolled=new_rolled), prior, chosen
