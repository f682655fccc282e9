"""Counts in words, singular or plural as the number asks: "1 quiver", "2 quivers"."""

from __future__ import annotations


def noun(n: int, one: str, many: str | None = None) -> str:
    """The word for ``n`` of a thing: ``one`` for exactly 1, else ``many`` (default
    ``one`` + "s"), so 0 takes the plural as English does ("0 turns")."""
    return one if n == 1 else (many if many is not None else one + "s")


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its word: "1 turn", "3 turns", "2 successes" (``many`` given)."""
    return f"{n} {noun(n, one, many)}"
