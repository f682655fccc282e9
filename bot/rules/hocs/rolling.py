"""Rolling skill pools and applying post-roll modifiers.

Dice are asked for in a fixed order so tests can script faces: base dice, then
the boon die (and its explosion chain right after it), then talent rerolls,
lowest face first.

Post-roll modifiers are spent optimally (``policy.py`` holds the exact search):
talent rerolls one at a time, each chosen after seeing the last one's result,
to maximise expected successes and then expected 6s; then focus and guaranteed
successes are placed on the final faces (failures first, then 5s made 6s).

Focus and guaranteed successes need no dice, so they are reassigned from
scratch whenever a die changes later (a hero or fortune reroll, a
determination point spent after the roll): the player always gets the best
allocation of what they have. Anything that could not help is reported unused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.policy import (
    Position,
    expected_after_reroll,
    next_talent_reroll,
    settle,
)
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
    return checked_face(dice.roll(SIDES))


def checked_face(face: int) -> int:
    """``face`` if a d6 can show it, else the refusal every roll of the rules gives."""
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


# A die just thrown, that did not explode, is a value of its origin and face alone: one
# shared instance for each (a frozen value; a reroll or focus makes a new one with
# ``replace``), so a pool's dice are neither built nor have their successes worked out
# again on every roll. Indexed by face - 1.
_FRESH: dict[DieOrigin, tuple[DieRoll, ...]] = {
    origin: tuple(DieRoll(origin=origin, first_face=face) for face in range(1, SIDES + 1))
    for origin in DieOrigin
}


def throw_die(origin: DieOrigin, dice: Dice, *, added_after_roll: bool = False) -> DieRoll:
    """Roll one fresh die; a determination die showing 6 explodes at once."""
    face = _face(dice)
    explodes = origin is DieOrigin.DETERMINATION and face == SIDES
    if not explodes and not added_after_roll and type(face) is int:
        return _FRESH[origin][face - 1]
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


def position_of(dice_rolls: Sequence[DieRoll], spec: PoolSpec) -> Position:
    """The policy's view of these dice under ``spec`` (what is left of its modifiers)."""
    det = next((i for i, d in enumerate(dice_rolls) if d.origin is DieOrigin.DETERMINATION), None)
    chain = dice_rolls[det].explosions if det is not None else ()
    return Position(
        faces=tuple(d.rolled_face for d in dice_rolls),
        rerollable=tuple(not d.talent_rerolled for d in dice_rolls),
        determination=det,
        chain=(
            sum(1 for f in chain if f >= SUCCESS_FACE),
            sum(1 for f in chain if f == SIDES),
        ),
        rerolls=max(0, spec.rerolls - sum(d.talent_rerolled for d in dice_rolls)),
        focus=spec.focus,
        guaranteed=spec.guaranteed,
    )


def _spend_talent_rerolls(dice_rolls: list[DieRoll], spec: PoolSpec, dice: Dice) -> None:
    if not spec.rerolls:
        # No reroll to spend (a pool with focus or guarantees only): the policy would say
        # so, after its view of the dice was built for nothing.
        return
    # One at a time: each choice sees the faces the previous rerolls turned up.
    while (index := next_talent_reroll(position_of(dice_rolls, spec))) is not None:
        dice_rolls[index] = rethrow(dice_rolls[index], dice, RerollSource.TALENT)


def _assign_focus_and_guarantees(dice_rolls: list[DieRoll], spec: PoolSpec) -> None:
    focused, guaranteed = settle(
        [d.rolled_face for d in dice_rolls], focus=spec.focus, guaranteed=spec.guaranteed
    )
    for i, die in enumerate(dice_rolls):
        focus, sure = i in focused, i in guaranteed
        if die.focus != focus or die.guaranteed != sure:  # (replace is slow; most dice keep)
            dice_rolls[i] = replace(die, focus=focus, guaranteed=sure)


def optimise(
    dice_rolls: Iterable[DieRoll], spec: PoolSpec, dice: Dice | None
) -> tuple[DieRoll, ...]:
    """Spend unused talent rerolls (if ``dice`` is given), then reassign focus and guarantees."""
    working = list(dice_rolls)
    if not (spec.rerolls or spec.focus or spec.guaranteed) and not any(
        d.focus or d.guaranteed for d in working
    ):
        # Nothing to spend or place (every initiative pool, most plain checks): asking the
        # policy would only confirm it, at about half the cost of rolling the pool.
        return tuple(working)
    if dice is not None:
        _spend_talent_rerolls(working, spec, dice)
    _assign_focus_and_guarantees(working, spec)
    return tuple(working)


def roll_pool(spec: PoolSpec, dice: Dice) -> PoolResult:
    """Roll a skill pool: successes are 4–6; an empty pool rolls nothing and scores 0."""
    extra = spec.extra_die
    base_count = spec.dice_count - (1 if extra is not None else 0)
    # throw_die's work for a base die (which never explodes), without its call per die.
    base = DieOrigin.BASE
    fresh = _FRESH[DieOrigin.BASE]
    roll = dice.roll
    rolled: list[DieRoll] = []
    for _ in range(base_count):
        face = roll(SIDES)
        if type(face) is int and 1 <= face <= SIDES:
            rolled.append(fresh[face - 1])
        else:  # _face's refusal, or DieRoll's (a bool, say)
            rolled.append(DieRoll(origin=base, first_face=checked_face(face)))
    if extra is not None:
        rolled.append(throw_die(extra, dice))
    if not (spec.rerolls or spec.focus or spec.guaranteed):
        # Fresh dice carry no focus or guarantee: optimise would hand them back as they are.
        return PoolResult(spec=spec, dice=tuple(rolled))
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
    """The failed die a one-die (fortune) reroll helps most; None if no die failed.

    Exact: for each failed die, the expected successes (then 6s) after rerolling
    it and spending what talent rerolls are left; ties go to the lower face, then
    the determination die (it may explode), then the first die.
    """
    failures = [i for i, d in enumerate(result.dice) if d.is_failure]
    if not failures:
        return None
    position = position_of(result.dice, result.spec)

    def worth(i: int) -> tuple[Fraction, Fraction, int, bool, int]:
        s, x = expected_after_reroll(position, i)
        die = result.dice[i]
        return (s, x, -die.rolled_face, die.origin is DieOrigin.DETERMINATION, -i)

    return max(failures, key=worth)
