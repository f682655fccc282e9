"""Where dice faces come from.

Every rules function that rolls takes a ``Dice`` so that production can use the
operating system's randomness while tests script exact faces.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol


class Dice(Protocol):
    def roll(self, sides: int) -> int:
        """Return a face from 1 to ``sides`` inclusive."""
        ...


class RandomDice:
    """Fair dice backed by a ``random.Random`` (``SystemRandom`` unless one is given)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.SystemRandom()

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        return self._rng.randint(1, sides)


class ScriptedDiceExhausted(AssertionError):
    """A test scripted fewer faces than the rules asked for."""


class ScriptedDice:
    """Dice that return the given faces in order; for tests and worked examples.

    A face larger than the die asked for is a scripting mistake and raises, so a
    test can never silently pass with an impossible roll.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0
        self.requests: list[int] = []

    def roll(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise ScriptedDiceExhausted(
                f"rolled a d{sides} after all {len(self._faces)} scripted faces were used"
            )
        face = self._faces[self._next]
        if not 1 <= face <= sides:
            raise ValueError(f"scripted face {face} cannot come up on a d{sides}")
        self._next += 1
        self.requests.append(sides)
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next
