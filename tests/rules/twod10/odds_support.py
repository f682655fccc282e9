"""Brute force for the odds tests: every face of every die a rolling function asks for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T", bound=Hashable)


class _Branch(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Path:
    """Dice that follow a fixed path of faces and stop at the first die past its end."""

    def __init__(self, path: tuple[tuple[int, int], ...]) -> None:
        self._path = path
        self._next = 0

    def roll(self, sides: int) -> int:
        if self._next == len(self._path):
            raise _Branch(sides)
        face, expected = self._path[self._next]
        assert expected == sides, "the dice asked for changed along one path"
        self._next += 1
        return face


def every_outcome(fn: Callable[[_Path], T]) -> dict[T, Fraction]:
    """The exact distribution of ``fn(dice)``: a depth-first walk over every die's faces."""
    dist: dict[T, Fraction] = defaultdict(Fraction)
    stack: list[tuple[tuple[int, int], ...]] = [()]
    while stack:
        path = stack.pop()
        try:
            value = fn(_Path(path))
        except _Branch as branch:
            stack.extend((*path, (f, branch.sides)) for f in range(1, branch.sides + 1))
            continue
        p = Fraction(1)
        for _, sides in path:
            p /= sides
        dist[value] += p
    return dict(dist)
