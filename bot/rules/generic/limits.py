"""Limits on a generic roll, checked before anything is rolled.

Each check raises :class:`~bot.rules.errors.RulesError` with one sentence that
tells the player what to do instead.
"""

from __future__ import annotations

import d20

from bot.rules.errors import RulesError

MAX_EXPRESSION_LENGTH = 200
MAX_DIE_SIDES = 1000
MAX_DICE = 100
"""Dice drawn per roll, rerolls and explosions included."""
MAX_BRACKET_DEPTH = 20
MAX_TREE_DEPTH = 128
"""Operators nested inside one another (``-(-(-1))``, ``1+1+1…``); keeps evaluation shallow."""
MAX_NUMBER = 999_999_999
"""Largest number a player may type (nine digits)."""

EXAMPLE = "`2d20kh1+5`"

_REPEATING_OPS = {"e", "rr"}
"""Operations that keep rolling while their selector matches."""


def check_text(text: str) -> None:
    """Refuse text that is empty, too long or bracketed too deeply to parse safely."""
    if not text:
        raise RulesError(f"Type some dice to roll, for example {EXAMPLE}.")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise RulesError(
            f"That roll is {len(text)} characters long; keep it to "
            f"{MAX_EXPRESSION_LENGTH} or split it into several rolls."
        )
    depth = deepest = 0
    for char in text:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth = max(0, depth - 1)
    if deepest > MAX_BRACKET_DEPTH:
        raise RulesError(
            f"Brackets are nested {deepest} deep; use at most {MAX_BRACKET_DEPTH} levels."
        )


def syntax_error(text: str, error: d20.RollSyntaxError) -> RulesError:
    """A readable hint saying where ``text`` stopped making sense."""
    column = max(1, int(error.col or 1))
    got = str(error.got or "")
    if not got or column > len(text):
        return RulesError(f"That roll ends too early; finish it like {EXAMPLE}.")
    if column == 1:
        return RulesError(
            "Start with the dice or a number and put any label after them, "
            f"like `1d20+5 attack` (I can't read `{_snippet(text, column)}`)."
        )
    return RulesError(
        f"I can't read the roll from character {column} (`{_snippet(text, column)}`); "
        f"write it like {EXAMPLE}."
    )


def _snippet(text: str, column: int) -> str:
    """A short piece of what the player typed, safe inside inline code and unable to ping."""
    piece = text[column - 1 : column - 1 + 12]
    piece = " ".join(piece.split()) or "?"
    return piece.replace("`", "'").replace("@", "@\u200b")


def check_tree(tree: d20.ast.Expression) -> None:
    """Refuse a parsed expression that would roll too many or impossible dice.

    Walks the tree without recursion (it may be deep: that is one of the checks).
    """
    dice_count = 0
    dice_nodes: list[d20.ast.Dice] = []
    numbers: list[int | float] = []
    repeating: list[tuple[d20.ast.Dice, d20.ast.SetOperator]] = []
    deepest = 0
    stack: list[tuple[d20.ast.Node, int]] = [(tree.roll, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, d20.ast.Dice):
            dice_count += node.num
            dice_nodes.append(node)
            numbers.append(node.num)
        elif isinstance(node, d20.ast.Literal):
            numbers.append(node.value)
        elif isinstance(node, d20.ast.OperatedSet):
            for operation in node.operations:
                numbers.extend(selector.num for selector in operation.sels)
                if operation.op in _REPEATING_OPS and isinstance(node.value, d20.ast.Dice):
                    repeating.append((node.value, operation))
        stack.extend((child, depth + 1) for child in node.children)

    if deepest > MAX_TREE_DEPTH:
        raise RulesError(
            "That roll nests too many operators inside each other; simplify it or split it up."
        )
    if dice_count > MAX_DICE:
        raise RulesError(f"That roll asks for {dice_count} dice; roll at most {MAX_DICE} at once.")
    for dice in dice_nodes:
        if dice.size != "%" and not 1 <= dice.size <= MAX_DIE_SIDES:
            raise RulesError(
                f"A die needs between 1 and {MAX_DIE_SIDES} sides, so `d{_shorten(dice.size)}` "
                "can't be rolled; try `d20` or `d100`."
            )
    if any(abs(number) > MAX_NUMBER for number in numbers):
        raise RulesError("Numbers in a roll can have at most 9 digits; use smaller numbers.")
    for dice, operation in repeating:
        if dice.num > 0 and _selects_every_face(dice.size, operation):
            verb, example = ("explode", "1d6e6") if operation.op == "e" else ("reroll", "1d6rr1")
            raise RulesError(
                f"`{dice}{operation}` would {verb} forever because every face matches; "
                f"pick a condition some faces miss, such as `{example}`."
            )


def _selects_every_face(size: int | str, operation: d20.ast.SetOperator) -> bool:
    """Whether ``e``/``rr`` matches every face, so it can never stop."""
    faces = range(0, 100, 10) if size == "%" else range(1, int(size) + 1)
    selected = set()
    for selector in operation.sels:
        if selector.cat is None:
            selected.update(face for face in faces if face == selector.num)
        elif selector.cat == "<":
            selected.update(face for face in faces if face < selector.num)
        elif selector.cat == ">":
            selected.update(face for face in faces if face > selector.num)
        # h/l select by rank, not face; the dice budget stops those.
    return len(selected) == len(faces)


def _shorten(number: int | str) -> str:
    text = str(number)
    return text if len(text) <= 12 else f"{text[:9]}…"
