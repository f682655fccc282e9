"""``/roll <expression>``: any dice expression d20 understands, with a label.

Supports keep/drop (``kh``, ``kl``, ``ph``, ``pl``), explode (``e``, ``ra``),
reroll (``rr``, ``ro``), minimum/maximum (``mi``, ``ma``), arithmetic,
comparisons, sets (``(1d6, 1d8)kh1``), annotations (``3d6 [fire]``) and a
trailing label (``1d20+5 attack roll``).

Rulings:

* The label only trails the dice (that is how d20 reads comments): text
  before the dice, such as ``@everyone 1d6``, is a syntax error telling the
  player to put the dice first. The label is kept exactly as typed; escaping it
  is the renderer's job.
* Limits (:mod:`bot.rules.generic.limits`) are checked before anything is
  rolled; rerolls and explosions count against the dice budget while rolling
  and stop the roll with a :class:`RulesError` once it runs out, so nothing can
  roll forever.
* A fractional total (``7/2``) is truncated toward zero, as d20 does.
"""

from __future__ import annotations

import math

import d20
import lark

from bot.rules.dice_source import Dice, RandomDice
from bot.rules.errors import RulesError
from bot.rules.generic import limits
from bot.rules.generic.d20_adapter import RoutedRoller, parse_cached, to_term
from bot.rules.generic.model import (
    BinaryTerm,
    DiceGroup,
    DieRoll,
    Face,
    GenericRoll,
    GroupTerm,
    LiteralTerm,
    SetTerm,
    Sides,
    Term,
    UnaryTerm,
    iter_terms,
)

__all__ = [
    "BinaryTerm",
    "DiceGroup",
    "DieRoll",
    "Face",
    "GenericRoll",
    "GroupTerm",
    "LiteralTerm",
    "SetTerm",
    "Sides",
    "Term",
    "UnaryTerm",
    "iter_terms",
    "roll_expression",
]


def roll_expression(text: str, *, dice: Dice | None = None) -> GenericRoll:
    """Roll ``text`` (e.g. ``"2d20kh1+5 attack"``) with ``dice`` (fair dice by default).

    Raises :class:`RulesError`, whose message a player can read, for anything
    that can't be rolled: empty or over-long text, bad syntax, dice that are
    too many or too large, numbers over nine digits, explosions or rerolls that
    would need more than the dice budget, division by zero.
    """
    text = text.strip()
    limits.check_text(text)
    roller = RoutedRoller(dice if dice is not None else RandomDice(), max_rolls=limits.MAX_DICE)
    try:
        tree = _parse(text)
        limits.check_tree(tree)
        rolled = roller.roll(tree).expr
        total = _total(rolled)
        return GenericRoll(
            expression=str(tree.roll),
            label=(rolled.comment or "").strip() or None,
            total=total,
            tree=to_term(rolled.roll),
            dice_rolled=roller.routed_context.rolls,
        )
    except d20.TooManyRolls:
        raise RulesError(
            f"Those rerolls and explosions would need more than {limits.MAX_DICE} dice; "
            "use a condition that stops sooner, such as `1d6e6`."
        ) from None
    except d20.RollValueError as error:
        if "zero" in str(error):
            raise RulesError("That roll divides by zero; change the divisor.") from None
        if "minimums" in str(error) or "maximums" in str(error):
            raise RulesError(
                "`mi` and `ma` take a plain number, like `1d20mi10`; fix the roll and try again."
            ) from None
        raise RulesError(
            f"That roll can't be worked out; write it like {limits.EXAMPLE}."
        ) from None
    except d20.RollError:
        raise RulesError(
            f"That roll can't be worked out; write it like {limits.EXAMPLE}."
        ) from None
    except RecursionError:
        raise RulesError(
            "That roll nests too many operators inside each other; simplify it or split it up."
        ) from None


def _parse(text: str) -> d20.ast.Expression:
    try:
        return parse_cached(text)
    except d20.RollSyntaxError as error:
        raise limits.syntax_error(text, error) from None
    except lark.LarkError:  # anything d20 did not translate
        raise RulesError(f"I can't read that roll; write it like {limits.EXAMPLE}.") from None


def _total(rolled: d20.Expression) -> int:
    total = rolled.total
    if isinstance(total, float) and not math.isfinite(total):
        raise RulesError("That roll's total is too large to count; use smaller numbers.")
    return int(total)
