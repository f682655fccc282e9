"""The large pools (1-31 dice) on which the reroll weights are pinned to those of the
module main had at f6daac3, by digest (``reroll_grid_f6daac3.txt``): beyond brute force
and the general search, so the old module's answers are the oracle.

``make_reroll_grid`` wrote the file once, from that module as git holds it; a change of
any weight at any grid point changes its digest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

from bot.rules.hocs.pool import PoolSpec
from tests.rules.hocs.odds_support import Outcomes

FIXTURE = Path(__file__).with_name("reroll_grid_f6daac3.txt")
REROLLS = (1, 2, 3)

# Dice counts 1-31 (a determination die is one of them), with focus and guaranteed
# successes around the points where the shapes clamp, and the largest.
GRID = [
    (size, det, focus, guaranteed)
    for size in range(1, 32, 3)
    for det, focus, guaranteed in (
        (False, 0, 0), (True, 0, 0), (True, 2, 1), (True, 5, 3), (False, 5, 3),
        (True, 29, 3), (True, 30, 30),
    )
]  # fmt: skip


def grid_specs(rerolls: int) -> Iterator[PoolSpec]:
    """The grid's pools with ``rerolls`` talent rerolls."""
    for size, det, focus, guaranteed in GRID:
        # The extra die a determination point or a boon (an ordinary die) adds.
        spec = PoolSpec(base=size - 1, boons=0 if det else 1, determination=det,
                        focus=focus, guaranteed=guaranteed, rerolls=rerolls)  # fmt: skip
        assert spec.dice_count == size
        yield spec


def key(spec: PoolSpec, sixes: bool) -> str:
    """The fixture line's name for a grid point."""
    return (
        f"dice={spec.dice_count} det={int(spec.determination)} focus={spec.focus}"
        f" guaranteed={spec.guaranteed} rerolls={spec.rerolls} sixes={int(sixes)}"
    )


def digest(outcomes: Outcomes) -> str:
    """Every (crit, chain, successes, 6s) and its exact probability, as one SHA-256."""
    text = ";".join(
        f"{int(crit)},{int(chain)},{succ},{six}={p.numerator}/{p.denominator}"
        for (crit, chain, succ, six), p in sorted(outcomes.items())
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]  # (128 bits: plenty)


def read_fixture() -> dict[str, str]:
    pinned: dict[str, str] = {}
    for line in FIXTURE.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            pinned[name] = value
    return pinned
