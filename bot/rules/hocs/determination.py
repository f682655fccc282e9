"""Determination points: a boon whose d6 explodes on 6s, before or after the roll.

Before the roll it is ``PoolSpec(determination=True)``: the point counts as one
more boon, and if the net count ends as the +1d6 boon, that die is the
determination die. After the roll, ``apply_determination_after`` adds the same
boon to the count and rolls only what the extra boon changes:

* net banes shrink by one and the penalty drops (1 bane → 0, 3 → 2): one
  ordinary die that the banes had removed comes back;
* net 0 → +1: the determination die is rolled (and explodes on 6s);
* net banes shrink but the penalty stays (2 → 1 bane is still −1d6), or the pool
  stays empty: nothing would change, so it is refused and the point is kept;
* already a net boon (boons do not stack): ruling — the existing boon die becomes
  the determination die, so a 6 on it explodes now; on any other face nothing
  would change and it is refused.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.pool import SIDES, DieOrigin, PoolResult
from bot.rules.hocs.rolling import explosion_chain, optimise, throw_die


def determination_refusal(result: PoolResult) -> str | None:
    """Why a determination point spent on this finished roll would change nothing (the
    refusal ``apply_determination_after`` raises), or None when it would help. No dice:
    asking costs no roll (every fresh roll's buttons ask)."""
    spec = result.spec
    if spec.determination:
        return "A determination point is already on this roll; you keep this one."
    if spec.net > 0:
        boon = next(d for d in result.dice if d.origin is DieOrigin.BOON)
        if boon.rolled_face != SIDES:
            return (
                "Boons do not stack and your boon die did not roll a 6, so a determination "
                "point would change nothing; you keep it."
            )
        return None
    if spec.net == 0:
        return None
    new_spec = replace(spec, determination=True)
    if new_spec.dice_count > spec.dice_count:
        return None
    if new_spec.dice_count == 0:
        return (
            "Even with one more boon the banes leave no dice to roll, so a determination "
            "point would change nothing; you keep it."
        )
    return (
        f"With {-spec.net - 1} {'bane' if -spec.net - 1 == 1 else 'banes'} left after one"
        " more boon you still lose "
        f"{-new_spec.dice_change}d6, so a determination point would change nothing; "
        "you keep it."
    )


def apply_determination_after(result: PoolResult, dice: Dice) -> PoolResult:
    """Spend a determination point on a finished roll; raises RulesError if it would not help."""
    refusal = determination_refusal(result)
    if refusal is not None:
        raise RulesError(refusal)
    spec = result.spec
    new_spec = replace(spec, determination=True)
    dice_rolls = list(result.dice)
    if spec.net > 0:  # (its boon die rolled a 6: it becomes the determination die)
        index = next(i for i, d in enumerate(dice_rolls) if d.origin is DieOrigin.BOON)
        dice_rolls[index] = replace(
            dice_rolls[index], origin=DieOrigin.DETERMINATION, explosions=explosion_chain(dice)
        )
    elif spec.net == 0:
        dice_rolls.append(throw_die(DieOrigin.DETERMINATION, dice, added_after_roll=True))
    else:  # (one more boon brings back a die the banes had removed)
        dice_rolls.append(throw_die(DieOrigin.BASE, dice, added_after_roll=True))
    return PoolResult(
        spec=new_spec, dice=optimise(dice_rolls, new_spec, dice), determination_after=True
    )
