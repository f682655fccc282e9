"""Boons and banes: how circumstantial modifiers change the size of a skill pool.

The rules text: boons add 1d6 but do not stack; banes stack, but only one die per
two banes beyond the first, counted after boons cancel banes one for one. So the
net count maps to dice as: any net boon → +1, net 0 → 0, net n banes → −⌈n/2⌉
(1 or 2 → −1, 3 or 4 → −2, 5 or 6 → −3).
"""

from __future__ import annotations

from bot.rules.errors import RulesError

MAX_POOL_DICE = 30
MAX_MODIFIER = 30
# Talent rerolls on one roll. The choice of rerolls is an exact search whose cost grows
# with their number (about 40 ms for 31 dice and 10 rerolls on a busy 2-core machine,
# seconds at 30), and no talent or spell grants anything near ten on one roll.
MAX_REROLLS = 10


def check_count(value: int, *, what: str, maximum: int = MAX_MODIFIER) -> int:
    """Reject counts a player could not have; return the value unchanged."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(
            f"The number of {what} must be a whole number; give one from 0 to {maximum}."
        )
    if not 0 <= value <= maximum:
        raise RulesError(f"The number of {what} must be from 0 to {maximum}; you gave {value}.")
    return value


def net_boons(boons: int, banes: int) -> int:
    """Boons minus banes after cancelling one for one (negative means banes remain)."""
    check_count(boons, what="boons")
    check_count(banes, what="banes")
    return boons - banes


def dice_change_for_net(net: int) -> int:
    """Dice added (positive) or removed (negative) for a net boon count."""
    if net > 0:
        return 1
    # −⌈n/2⌉ for n remaining banes, written with floor division on the negative.
    return net // 2 if net < 0 else 0


def dice_change(boons: int, banes: int) -> int:
    """Dice added or removed by ``boons`` and ``banes`` together."""
    return dice_change_for_net(net_boons(boons, banes))


def pool_size(base: int, *, boons: int = 0, banes: int = 0) -> int:
    """Dice actually rolled: banes can empty a pool but never make it negative."""
    check_count(base, what="dice in the pool", maximum=MAX_POOL_DICE)
    return max(0, base + dice_change(boons, banes))
