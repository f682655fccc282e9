"""Immutable results of a generic dice expression.

The tree mirrors the expression the player typed: numbers, operators, brackets,
sets and groups of dice. Every die remembers each face it showed, in order, so
one result can be rendered as a message, a log line and a test assertion.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

Sides: TypeAlias = int | Literal["%"]
"""Faces on a die; ``"%"`` is d20's percentile die (0, 10, … 90)."""


@dataclass(frozen=True, slots=True)
class Face:
    """One face a die showed.

    ``rolled`` is what came up; ``value`` is what counts after a minimum or
    maximum (``mi``/``ma``) raised or lowered it. ``is_max``/``is_min`` describe
    the natural roll, so a natural 1 raised by ``mi10`` is still ``is_min``.
    """

    rolled: int
    value: int
    replaced: bool = False
    """Rerolled away (``rr``/``ro``): it no longer counts."""
    exploded: bool = False
    """Triggered an explosion (``e``/``ra``): another die was added."""
    is_max: bool = False
    is_min: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "rolled": self.rolled,
            "value": self.value,
            "replaced": self.replaced,
            "exploded": self.exploded,
            "is_max": self.is_max,
            "is_min": self.is_min,
        }


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die: every face it showed in order; the last one counts unless dropped."""

    sides: Sides
    faces: tuple[Face, ...]
    kept: bool = True
    """False when a keep/drop (``kh``, ``kl``, ``ph``, ``pl``) discarded this die."""
    from_explosion: bool = False
    """Added to its group because another die exploded."""

    @property
    def value(self) -> int:
        return self.faces[-1].value

    @property
    def rerolled(self) -> tuple[int, ...]:
        """The faces this die showed before being rerolled, in order."""
        return tuple(face.rolled for face in self.faces if face.replaced)

    @property
    def exploded(self) -> bool:
        return self.faces[-1].exploded

    def to_dict(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "value": self.value,
            "kept": self.kept,
            "from_explosion": self.from_explosion,
            "faces": [face.to_dict() for face in self.faces],
        }


@dataclass(frozen=True, slots=True)
class LiteralTerm:
    value: int | float
    kept: bool = True
    annotation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_common(self, {"type": "literal", "value": self.value})


@dataclass(frozen=True, slots=True)
class UnaryTerm:
    op: str
    operand: Term
    kept: bool = True
    annotation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_common(
            self, {"type": "unary", "op": self.op, "operand": self.operand.to_dict()}
        )


@dataclass(frozen=True, slots=True)
class BinaryTerm:
    left: Term
    op: str
    right: Term
    kept: bool = True
    annotation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_common(
            self,
            {
                "type": "binary",
                "op": self.op,
                "left": self.left.to_dict(),
                "right": self.right.to_dict(),
            },
        )


@dataclass(frozen=True, slots=True)
class GroupTerm:
    """A bracketed term, possibly with keep/drop operations: ``(4d6)kh3``."""

    inner: Term
    operations: str = ""
    kept: bool = True
    annotation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_common(
            self,
            {"type": "group", "operations": self.operations, "inner": self.inner.to_dict()},
        )


@dataclass(frozen=True, slots=True)
class SetTerm:
    """A comma-separated set: ``(1d6, 1d8)kh1``."""

    items: tuple[Term, ...]
    operations: str = ""
    kept: bool = True
    annotation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _with_common(
            self,
            {
                "type": "set",
                "operations": self.operations,
                "items": [item.to_dict() for item in self.items],
            },
        )


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """``count`` dice of ``sides`` with their operations, e.g. ``4d6kh3``.

    ``dice`` holds the ``count`` dice first, then any dice explosions added.
    """

    count: int
    sides: Sides
    dice: tuple[DieRoll, ...]
    operations: str = ""
    kept: bool = True
    annotation: str | None = None

    @property
    def notation(self) -> str:
        return f"{self.count}d{self.sides}{self.operations}"

    @property
    def total(self) -> int:
        return sum(die.value for die in self.dice if die.kept) if self.kept else 0

    def to_dict(self) -> dict[str, Any]:
        return _with_common(
            self,
            {
                "type": "dice",
                "notation": self.notation,
                "count": self.count,
                "sides": self.sides,
                "operations": self.operations,
                "total": self.total,
                "dice": [die.to_dict() for die in self.dice],
            },
        )


Term: TypeAlias = LiteralTerm | UnaryTerm | BinaryTerm | GroupTerm | SetTerm | DiceGroup


def _with_common(term: Term, body: dict[str, Any]) -> dict[str, Any]:
    body["kept"] = term.kept
    if term.annotation is not None:
        body["annotation"] = term.annotation
    return body


def _children(term: Term) -> tuple[Term, ...]:
    match term:
        case UnaryTerm(operand=operand):
            return (operand,)
        case BinaryTerm(left=left, right=right):
            return (left, right)
        case GroupTerm(inner=inner):
            return (inner,)
        case SetTerm(items=items):
            return items
        case _:
            return ()


def iter_terms(root: Term) -> Iterator[Term]:
    """Every term in ``root``, depth first, left to right (without recursion)."""
    stack = [root]
    while stack:
        term = stack.pop()
        yield term
        stack.extend(reversed(_children(term)))


@dataclass(frozen=True, slots=True)
class GenericRoll:
    """The result of ``/roll <expression>``.

    ``expression`` is the expression as d20 normalises it (``2d20kh1 + 5``),
    without the label; ``label`` is the trailing free text (``attack roll``),
    kept as typed: whoever displays it must escape it. ``total`` truncates
    toward zero when division produced a fraction. ``dice_rolled`` counts every
    die drawn, rerolls and explosions included.
    """

    expression: str
    label: str | None
    total: int
    tree: Term
    dice_rolled: int

    @property
    def dice_groups(self) -> tuple[DiceGroup, ...]:
        return tuple(term for term in iter_terms(self.tree) if isinstance(term, DiceGroup))

    def to_dict(self) -> dict[str, Any]:
        """The full result as JSON-serialisable data for the roll log."""
        return {
            "expression": self.expression,
            "label": self.label,
            "total": self.total,
            "dice_rolled": self.dice_rolled,
            "tree": self.tree.to_dict(),
        }
