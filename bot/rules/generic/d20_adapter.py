"""Make d20 draw its dice from our :class:`~bot.rules.dice_source.Dice`.

d20's ``Die._add_roll`` calls the module-level ``random.randrange``. Rather
than swapping that function (which would leak into every other roll running
at the same time), d20's own extension points are subclassed:

* :class:`_RoutedContext` is d20's ``RollContext`` (which d20 already hands to
  every die and asks before each draw) carrying our dice source and the dice
  budget;
* :class:`_RoutedDie` draws through ``context.dice.roll(sides)``;
* :class:`_RoutedDice` creates ``_RoutedDie`` both at first and when a die
  explodes;
* :class:`_OrderedSetOperator` rerolls and explodes dice left to right (d20
  walks a Python ``set`` of dice, whose order follows memory addresses, so the
  same faces could land on different dice from one run to the next);
* :class:`RoutedRoller` evaluates dice nodes into ``_RoutedDice`` and
  operations into ``_OrderedSetOperator``.

A roller is built per roll, so nothing is shared between concurrent rolls.
The module then converts d20's mutable result tree into our frozen model.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import d20

from bot.rules.dice_source import Dice
from bot.rules.generic.model import (
    BinaryTerm,
    DiceGroup,
    DieRoll,
    Face,
    GroupTerm,
    LiteralTerm,
    SetTerm,
    Term,
    UnaryTerm,
)

PERCENTILE = "%"


class _RoutedContext(d20.RollContext):
    """Counts every draw (d20 raises ``TooManyRolls`` past ``max_rolls``) and holds the dice."""

    def __init__(self, dice: Dice, max_rolls: int) -> None:
        super().__init__(max_rolls=max_rolls)
        self.dice = dice


class _RoutedDie(d20.Die):
    __slots__ = ()

    def _add_roll(self) -> None:
        context = self._context
        if not isinstance(context, _RoutedContext):  # pragma: no cover - wiring guard
            raise TypeError("a routed die needs a routed context")
        if self.size != PERCENTILE and self.size < 1:
            raise d20.RollValueError("Cannot roll a 0-sided die.")
        context.count_roll()  # before drawing, so the budget is never exceeded
        if self.size == PERCENTILE:
            face = (context.dice.roll(10) - 1) * 10  # d20's d%: 0, 10, ... 90
        else:
            face = context.dice.roll(self.size)
        self.values.append(d20.Literal(face))


class _RoutedDice(d20.Dice):
    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: int | str, context: Any = None) -> _RoutedDice:
        dice = [_RoutedDie.new(size, context=context) for _ in range(num)]
        return cls(num, size, dice, context=context)

    def roll_another(self) -> None:
        self.values.append(_RoutedDie.new(self.size, context=self._context))


class _OrderedSetOperator(d20.SetOperator):
    """d20's operator, but dice are rerolled and exploded in their written order."""

    __slots__ = ()

    @staticmethod
    def _in_order(target: d20.Number, chosen: set[Any]) -> list[Any]:
        return [value for value in target.set if value in chosen]

    def reroll(self, target: d20.Dice) -> None:
        to_reroll = self._in_order(target, self.select(target))
        while to_reroll:
            for die in to_reroll:
                die.reroll()
            to_reroll = self._in_order(target, self.select(target))

    def reroll_once(self, target: d20.Dice) -> None:
        for die in self._in_order(target, self.select(target)):
            die.reroll()

    def explode(self, target: d20.Dice) -> None:
        to_explode = self._in_order(target, self.select(target))
        already_exploded: set[Any] = set()
        while to_explode:
            for die in to_explode:
                die.explode()
                target.roll_another()
            already_exploded.update(to_explode)
            to_explode = self._in_order(target, self.select(target) - already_exploded)


class RoutedRoller(d20.Roller):
    """A d20 roller whose dice come from ``dice``, at most ``max_rolls`` per roll."""

    def __init__(self, dice: Dice, *, max_rolls: int) -> None:
        self.routed_context = _RoutedContext(dice, max_rolls)
        super().__init__(context=self.routed_context)

    def _eval_operatedset(self, node: d20.ast.OperatedSet) -> d20.Number:
        target = self._eval(node.value)
        for operation in node.operations:
            the_op = _OrderedSetOperator.from_ast(operation)
            the_op.operate(target)
            target.operations.append(the_op)
        return target

    def _eval_dice(self, node: d20.ast.Dice) -> d20.Dice:
        return _RoutedDice.new(node.num, node.size, context=self.context)


# d20 keeps a parse cache per Roller, but a roller is built per roll (above), and a
# text with a trailing label is never cached by d20 at all: parsing costs several
# times the roll itself. The parsed tree is only read while rolling (each roll builds
# its own result tree), so one parse per distinct text is shared. Errors are not
# cached: a bad text is parsed (and refused) again each time.
_PARSER = d20.Roller()
PARSE_CACHE_SIZE = 1024


@lru_cache(maxsize=PARSE_CACHE_SIZE)
def parse_cached(text: str) -> d20.ast.Expression:
    """``text`` parsed by d20, a trailing comment allowed; raises d20's syntax errors."""
    return _PARSER.parse(text, allow_comments=True)


# ----- d20 result tree -> frozen model -----


def to_term(node: d20.Number) -> Term:
    """Convert an evaluated d20 node (not the root ``Expression``) to our model."""
    annotation = node.annotation or None
    kept = bool(node.kept)
    # Dice before Set: d20's Dice is a Set.
    if isinstance(node, d20.Dice):
        return DiceGroup(
            count=node.num,
            sides=node.size,
            dice=tuple(_to_die(die, index >= node.num) for index, die in enumerate(node.values)),
            operations=_ops(node.operations),
            kept=kept,
            annotation=annotation,
        )
    if isinstance(node, d20.Set):
        return SetTerm(
            items=tuple(to_term(value) for value in node.values),
            operations=_ops(node.operations),
            kept=kept,
            annotation=annotation,
        )
    if isinstance(node, d20.Parenthetical):
        return GroupTerm(
            inner=to_term(node.value),
            operations=_ops(node.operations),
            kept=kept,
            annotation=annotation,
        )
    if isinstance(node, d20.BinOp):
        return BinaryTerm(
            left=to_term(node.left),
            op=node.op,
            right=to_term(node.right),
            kept=kept,
            annotation=annotation,
        )
    if isinstance(node, d20.UnOp):
        return UnaryTerm(op=node.op, operand=to_term(node.value), kept=kept, annotation=annotation)
    if isinstance(node, d20.Literal):
        return LiteralTerm(value=node.number, kept=kept, annotation=annotation)
    raise TypeError(f"unexpected d20 node {type(node).__name__}")  # pragma: no cover


def _ops(operations: list[d20.SetOperator]) -> str:
    return "".join(str(op) for op in operations)


def _to_die(die: d20.Die, from_explosion: bool) -> DieRoll:
    sides = die.size
    top, bottom = (90, 0) if sides == PERCENTILE else (sides, 1)
    faces = []
    for literal in die.values:
        rolled = int(literal.values[0])
        faces.append(
            Face(
                rolled=rolled,
                value=int(literal.number),
                replaced=not literal.kept,
                exploded=bool(literal.exploded),
                is_max=rolled == top,
                is_min=rolled == bottom,
            )
        )
    return DieRoll(
        sides=sides, faces=tuple(faces), kept=bool(die.kept), from_explosion=from_explosion
    )
