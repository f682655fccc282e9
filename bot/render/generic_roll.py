"""Show a :class:`~bot.rules.generic_roll.GenericRoll` in Discord markdown or as a log line.

Markdown: each die shown, natural maxima and minima in **bold**, dropped dice
and rerolled (replaced) faces ~~struck through~~, exploding faces marked ``!``,
minimum/maximum adjustments as ``3→10``, then ``= **total**``::

    **attack:** `2d20kh1 + 5` → (~~3~~, **20**) + 5 = **25**

Everything the player typed (label, annotations) is escaped so it can neither
format nor ping; the expression is shown in inline code with backticks
replaced. The cog should still send with ``AllowedMentions.none()``.
"""

from __future__ import annotations

import discord.utils

from bot.rules.generic_roll import (
    BinaryTerm,
    DiceGroup,
    DieRoll,
    Face,
    GenericRoll,
    GroupTerm,
    LiteralTerm,
    SetTerm,
    Term,
    UnaryTerm,
)

MESSAGE_LIMIT = 2000
SHORTENED_NOTE = "-# Dice detail shortened to fit in one message."


def render_roll_markdown(roll: GenericRoll) -> str:
    """The roll as one Discord message of at most 2000 characters."""
    head = f"{_label_md(roll.label)}`{_code_safe(roll.expression)}` → "
    tail = f" = **{roll.total}**"
    full = head + _Markdown().term(roll.tree) + tail
    if len(full) <= MESSAGE_LIMIT:
        return full
    dice = sum(len(die.faces) for group in roll.dice_groups for die in group.dice)
    short = f"{head}*{dice} dice*{tail}\n{SHORTENED_NOTE}"
    if len(short) <= MESSAGE_LIMIT:
        return short
    # Unreachable within the rules' limits; never send an over-long message anyway.
    return f"`{_code_safe(roll.expression)[:100]}` = **{roll.total}**\n{SHORTENED_NOTE}"[
        :MESSAGE_LIMIT
    ]


def render_roll_line(roll: GenericRoll) -> str:
    """The roll as one plain line for logs: ``attack: 2d20kh1 + 5 → (~3~, 20) + 5 = 25``.

    Dropped dice and replaced faces are wrapped in ``~``; nothing is escaped.
    """
    label = f"{_one_line(roll.label)}: " if roll.label else ""
    return f"{label}{_one_line(roll.expression)} → {_Plain().term(roll.tree)} = {roll.total}"


def _escape(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(_one_line(text)))


def _label_md(label: str | None) -> str:
    return f"**{_escape(label)}:** " if label else ""


def _code_safe(text: str) -> str:
    """Text that stays inside one inline-code span and cannot ping."""
    return discord.utils.escape_mentions(_one_line(text).replace("`", "'"))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _number(value: int | float) -> str:
    return str(value)


class _Markdown:
    """Recursive markdown writer; ``struck`` avoids nesting ``~~`` inside ``~~``."""

    strike = "~~"

    def __init__(self) -> None:
        self._struck = False

    def term(self, term: Term) -> str:
        if not term.kept and not self._struck:
            self._struck = True
            inside = self._term(term)
            self._struck = False
            text = f"{self.strike}{inside}{self.strike}"
        else:
            text = self._term(term)
        if term.annotation:
            text = f"{text} {self.annotation(term.annotation)}"
        return text

    def _term(self, term: Term) -> str:
        match term:
            case LiteralTerm(value=value):
                return _number(value)
            case UnaryTerm(op=op, operand=operand):
                return f"{self.op(op)}{self.term(operand)}"
            case BinaryTerm(left=left, op=op, right=right):
                return f"{self.term(left)} {self.op(op)} {self.term(right)}"
            case GroupTerm(inner=inner):
                return f"({self.term(inner)})"
            case SetTerm(items=items):
                inside = ", ".join(self.term(item) for item in items)
                return f"({inside},)" if len(items) == 1 else f"({inside})"
            case DiceGroup(dice=dice):
                return f"({', '.join(self.die(die) for die in dice)})"
        raise TypeError(f"unexpected term {type(term).__name__}")  # pragma: no cover

    def die(self, die: DieRoll) -> str:
        if die.kept or self._struck:
            return ", ".join(self.face(face) for face in die.faces)
        self._struck = True
        inside = ", ".join(self.face(face) for face in die.faces)
        self._struck = False
        return f"{self.strike}{inside}{self.strike}"

    def face(self, face: Face) -> str:
        text = self.natural(face)
        if face.value != face.rolled:
            text = f"{text}→{face.value}"
        if face.exploded:
            text = f"{text}!"
        if face.replaced and not self._struck:
            text = f"{self.strike}{text}{self.strike}"
        return text

    def natural(self, face: Face) -> str:
        text = str(face.rolled)
        return f"**{text}**" if face.is_max or face.is_min else text

    def op(self, op: str) -> str:
        return op.replace("*", r"\*")

    def annotation(self, annotation: str) -> str:
        return _escape(annotation)


class _Plain(_Markdown):
    strike = "~"

    def natural(self, face: Face) -> str:
        return str(face.rolled)

    def op(self, op: str) -> str:
        return op

    def annotation(self, annotation: str) -> str:
        return _one_line(annotation)
