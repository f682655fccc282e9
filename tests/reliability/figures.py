"""Counters the reliability tests fill in and the terminal summary prints."""

from __future__ import annotations

from collections import Counter

FIGURES: Counter[str] = Counter()


def count(name: str, amount: int = 1) -> None:
    FIGURES[name] += amount
