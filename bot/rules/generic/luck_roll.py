"""Luck of a logged ``/roll``: the percentile of its total, exact through icepool.

The roll log keeps a ``/roll`` as kind ``roll`` with ``result = GenericRoll.to_dict()``:
``expression`` is the expression as d20 normalises it (``2d20kh1 + 5``, the label
apart) and ``total`` what it came to. The expression is parsed again with d20 and,
where icepool can state it exactly, turned into the total's distribution.

What is scored (anything else returns None: "counted, not scored"):

* whole numbers, and ``NdM`` dice (M ≥ 1 sides);
* on a group of dice, at most one keep/drop (``khN``, ``klN``, ``phN``, ``plN``) and
  any minimum/maximum (``miN``, ``maN``: a monotone change of each die, so where it
  sits among the operations does not change the total);
* ``+``, ``-`` (binary and unary), ``*`` and brackets around any of these.

Not scored: explosions and rerolls (``e``, ``ra``, ``rr``, ``ro``: the bot stops them
at its dice budget, so their totals are not icepool's unbounded ones), keeping by a
face (``k>3``), sets (``(1d6, 1d8)kh1``), division and ``%`` dice, comparisons, and
any expression whose distribution would be too large to build quickly
(``MAX_COST``).

Rulings (key ``roll-luck-higher``): a higher total is the better one. d20 cannot
know which way a roll is good; attacks, checks and damage, what ``/roll`` is mostly
used for, all want high.

Distributions are cached by the normalised expression (``lru_cache``): a session's
rolls repeat a handful of expressions, so thousands of rolls build a few ladders.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import d20
import icepool
from d20 import diceast

from bot.rules.generic.luck import Ladder, Scored

__all__ = ["MAX_COST", "roll_ladder", "roll_percentile"]

MAX_COST = 200_000
"""A bound on icepool's work for one expression, so a cold distribution takes at most
about 50 ms: each group of dice costs count · sides · (its number of totals), each
sum of two random terms the product of their numbers of outcomes. 20d20 (152 000),
66d6, 4d100 and 10d20kh5 are scored; 30d20 and 2d1000 are not."""


class _Unsupported(Exception):
    """The expression has something icepool can't state exactly here."""


def roll_percentile(result: Mapping[str, Any]) -> Scored | None:
    """The luck of one logged ``/roll`` (its ``result`` dict), or None when the bot can't
    know its distribution exactly (see the module docstring) or the row is damaged."""
    expression, total = result.get("expression"), result.get("total")
    if not isinstance(expression, str) or type(total) is not int:
        return None
    ladder = roll_ladder(expression)
    return ladder.score(total) if ladder is not None else None


@lru_cache(maxsize=1024)
def roll_ladder(expression: str) -> Ladder | None:
    """The ranked distribution of ``expression``'s total, or None (cached)."""
    try:
        tree = d20.parse(expression)
        budget = [MAX_COST]
        die = _die(tree.roll, budget)
    except (_Unsupported, d20.RollError, RecursionError, ValueError, TypeError):
        return None
    if not isinstance(die, icepool.Die):
        die = icepool.Die([die])
    den = die.denominator()
    return Ladder.from_weights(die.items(), den)


def _die(node: Any, budget: list[int]) -> icepool.Die | int:
    if isinstance(node, diceast.Literal):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Unsupported
        return value
    if isinstance(node, diceast.Parenthetical | diceast.AnnotatedNumber):
        # (An annotation, ``1d6 [fire]``, changes nothing about the number.)
        return _die(node.value, budget)
    if isinstance(node, diceast.UnOp):
        operand = _die(node.value, budget)
        if node.op == "-":
            return -operand
        if node.op == "+":
            return operand
        raise _Unsupported
    if isinstance(node, diceast.BinOp):
        left, right = _die(node.left, budget), _die(node.right, budget)
        if node.op == "+":
            return _combined(left, right, budget, lambda a, b: a + b)
        if node.op == "-":
            return _combined(left, right, budget, lambda a, b: a - b)
        if node.op == "*":
            return _combined(left, right, budget, lambda a, b: a * b)
        raise _Unsupported
    if isinstance(node, diceast.Dice):
        return _group(node, (), budget)
    if isinstance(node, diceast.OperatedDice):
        if not isinstance(node.value, diceast.Dice):
            raise _Unsupported
        return _group(node.value, node.operations, budget)
    raise _Unsupported


def _combined(left: Any, right: Any, budget: list[int], op: Any) -> Any:
    if isinstance(left, icepool.Die) and isinstance(right, icepool.Die):
        # Combining two dice costs about the product of their outcome counts.
        _spend(budget, len(left) * len(right))
    return op(left, right)


def _spend(budget: list[int], cost: int) -> None:
    budget[0] -= cost
    if budget[0] < 0:
        raise _Unsupported


def _group(dice: diceast.Dice, operations: Any, budget: list[int]) -> icepool.Die | int:
    count, sides = dice.num, dice.size
    if not isinstance(sides, int) or isinstance(sides, bool) or sides < 1:
        raise _Unsupported  # ``%`` dice
    if count == 0:
        return 0
    _spend(budget, count * sides * (count * (sides - 1) + 1))
    clips: list[tuple[str, int]] = []
    keep = None
    for operation in operations:
        if len(operation.sels) != 1:
            raise _Unsupported
        [selector] = operation.sels
        cat, num = selector.cat, selector.num
        if operation.op in ("mi", "ma") and cat is None:
            clips.append((operation.op, num))
        elif operation.op in ("k", "p") and cat in ("h", "l") and keep is None:
            keep = (operation.op, cat, num)
        else:
            raise _Unsupported
    die = icepool.d(sides)
    if clips:
        # In the order written (1d6mi5ma3 shows 3, 1d6ma3mi5 shows 5). Each is monotone,
        # so it keeps the dice in order: keeping before or after it keeps the same faces.
        die = die.map(lambda face: _clipped(face, clips))
    if keep is None:
        return count @ die
    op, cat, num = keep
    kept = min(max(num, 0), count) if op == "k" else max(count - max(num, 0), 0)
    if kept == 0:
        return 0
    # "keep the n highest" = "drop the count − n lowest" and so on.
    highest = (op == "k") == (cat == "h")
    return die.highest(count, kept) if highest else die.lowest(count, kept)


def _clipped(face: int, clips: list[tuple[str, int]]) -> int:
    for op, bound in clips:
        face = max(face, bound) if op == "mi" else min(face, bound)
    return face
