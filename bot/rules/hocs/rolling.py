"""Rolling skill pools and applying post-roll modifiers.

Dice are asked for in a fixed order so tests can script faces: base dice, then
the boon die (and its explosion chain right after it), then talent rerolls,
lowest face first.

Post-roll modifiers are spent the way a careful player would:

1. talent rerolls on failures, lowest first, each die once, but never on a 3
   that a focus will turn into a success anyway (rerolling it could only lose);
2. focus on 3s (a new success each; one focus per die);
3. guaranteed successes on the failures left (the die becomes a 4);
4. focus left over on 5s, since a 6 breaks ties in clashes.

Focus and guaranteed successes need no dice, so they are reassigned from
scratch whenever a die changes later (a hero or fortune reroll, a
determination point spent after the roll): the player always gets the best
allocation of what they have. Anything that could not help is reported unused.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.pool import (
    SIDES,
    SUCCESS_FACE,
    DieOrigin,
    DieRoll,
    PoolResult,
    PoolSpec,
    Reroll,
    RerollSource,
)

# A chain of 6s this long has odds of 6^-50; the cap only guards against a
# broken dice source looping forever.
EXPLOSION_CAP = 50


def _face(dice: Dice) -> int:
    face = dice.roll(SIDES)
    if not 1 <= face <= SIDES:
        raise RulesError(f"The dice gave an impossible d6 face ({face}); roll again.")
    return face


def explosion_chain(dice: Dice) -> tuple[int, ...]:
    """Extra faces a determination die adds after showing a 6: roll on while 6s come up."""
    chain: list[int] = []
    while len(chain) < EXPLOSION_CAP:
        face = _face(dice)
        chain.append(face)
        if face != SIDES:
            break
    return tuple(chain)


def throw_die(origin: DieOrigin, dice: Dice, *, added_after_roll: bool = False) -> DieRoll:
    """Roll one fresh die; a determination die showing 6 explodes at once."""
    face = _face(dice)
    explodes = origin is DieOrigin.DETERMINATION and face == SIDES
    return DieRoll(
        origin=origin,
        first_face=face,
        explosions=explosion_chain(dice) if explodes else (),
        added_after_roll=added_after_roll,
    )


def rethrow(die: DieRoll, dice: Dice, source: RerollSource) -> DieRoll:
    """Roll a die again. A determination die's old chain goes with its old face."""
    face = _face(dice)
    explodes = die.origin is DieOrigin.DETERMINATION and face == SIDES
    return replace(
        die,
        rerolls=(*die.rerolls, Reroll(face=face, source=source)),
        explosions=explosion_chain(dice) if explodes else (),
    )


def _spend_talent_rerolls(dice_rolls: list[DieRoll], spec: PoolSpec, dice: Dice) -> None:
    available = spec.rerolls - sum(d.talent_rerolled for d in dice_rolls)
    if available <= 0:
        return
    failing = [
        i
        for i, d in enumerate(dice_rolls)
        if d.rolled_face < SUCCESS_FACE and not d.talent_rerolled
    ]
    threes = [i for i in failing if dice_rolls[i].rolled_face == SUCCESS_FACE - 1]
    reserved = set(threes[: spec.focus])
    targets = sorted(
        (i for i in failing if i not in reserved), key=lambda i: (dice_rolls[i].rolled_face, i)
    )
    for i in targets[:available]:
        dice_rolls[i] = rethrow(dice_rolls[i], dice, RerollSource.TALENT)


def _assign_focus_and_guarantees(dice_rolls: list[DieRoll], spec: PoolSpec) -> None:
    focus_left = spec.focus
    guaranteed_left = spec.guaranteed
    focused: set[int] = set()
    guaranteed: set[int] = set()
    for i, die in enumerate(dice_rolls):
        if focus_left and die.rolled_face == SUCCESS_FACE - 1:
            focused.add(i)
            focus_left -= 1
    failures = sorted(
        (i for i, d in enumerate(dice_rolls) if d.rolled_face < SUCCESS_FACE and i not in focused),
        key=lambda i: (dice_rolls[i].rolled_face, i),
    )
    for i in failures[:guaranteed_left]:
        guaranteed.add(i)
    for i, die in enumerate(dice_rolls):
        if focus_left and die.rolled_face == SIDES - 1:
            focused.add(i)
            focus_left -= 1
    for i, die in enumerate(dice_rolls):
        dice_rolls[i] = replace(die, focus=i in focused, guaranteed=i in guaranteed)


def optimise(
    dice_rolls: Iterable[DieRoll], spec: PoolSpec, dice: Dice | None
) -> tuple[DieRoll, ...]:
    """Spend unused talent rerolls (if ``dice`` is given), then reassign focus and guarantees."""
    working = list(dice_rolls)
    if dice is not None:
        _spend_talent_rerolls(working, spec, dice)
    _assign_focus_and_guarantees(working, spec)
    return tuple(working)


def roll_pool(spec: PoolSpec, dice: Dice) -> PoolResult:
    """Roll a skill pool: successes are 4–6; an empty pool rolls nothing and scores 0."""
    extra = spec.extra_die
    base_count = spec.dice_count - (1 if extra is not None else 0)
    rolled = [throw_die(DieOrigin.BASE, dice) for _ in range(base_count)]
    if extra is not None:
        rolled.append(throw_die(extra, dice))
    return PoolResult(spec=spec, dice=optimise(rolled, spec, dice))


def reroll_dice(
    result: PoolResult,
    indices: Iterable[int],
    dice: Dice,
    *,
    source: RerollSource = RerollSource.HERO,
) -> PoolResult:
    """Reroll the chosen dice (0-based indices) of a finished roll; a new result.

    This is for hero and fortune points, which are separate from the talent
    "reroll" modifier: a die already rerolled may be rerolled again. Afterwards
    any unused talent rerolls are spent and focus and guarantees reassigned.
    """
    if source is RerollSource.TALENT:
        raise RulesError("Talent rerolls are applied with the roll; spend a hero or fortune point.")
    chosen = list(indices)
    if result.zero_dice:
        raise RulesError("This roll has no dice to reroll; keep your point.")
    if not chosen:
        raise RulesError("Pick at least one die to reroll.")
    if len(set(chosen)) != len(chosen):
        raise RulesError("Pick each die to reroll only once.")
    if source is RerollSource.FORTUNE and len(chosen) != 1:
        raise RulesError("A fortune point rerolls exactly one die; pick one.")
    for index in chosen:
        if isinstance(index, bool) or not isinstance(index, int):
            raise RulesError("Pick dice by their number in the roll.")
        if not 0 <= index < len(result.dice):
            raise RulesError(f"This roll has dice 1 to {len(result.dice)}; pick among those.")
    working = list(result.dice)
    for index in chosen:
        working[index] = rethrow(working[index], dice, source)
    return replace(result, dice=optimise(working, result.spec, dice))


def best_single_reroll_index(result: PoolResult) -> int | None:
    """The die a one-die reroll helps most: a failure, lowest face first; None if none failed.

    Between equal faces the determination die comes first (it may explode).
    """
    failures = [i for i, d in enumerate(result.dice) if d.is_failure]
    if not failures:
        return None
    return min(
        failures,
        key=lambda i: (
            result.dice[i].rolled_face,
            result.dice[i].origin is not DieOrigin.DETERMINATION,
            i,
        ),
    )
