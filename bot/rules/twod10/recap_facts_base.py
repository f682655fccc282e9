"""What every 2d10 recap reader shares: the table's player characters (``Roster``), what a
row tells beyond its luck (``Told``) and a logged 2d10 read back (``D10``).

The rulings these apply are in ``recap_facts``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.generic.names import normalise_name
from bot.rules.twod10.bands import OutcomeBand, band_for
from bot.rules.twod10.luck_base import whole
from bot.rules.twod10.tasks import NATURAL_MISS, NATURAL_TWENTY, SIDES, SUCCESS_TOTAL

MAX_LABEL = 100  # a few words, never a paragraph: a typed label is cut


@dataclass(frozen=True)
class Roster:
    """The player characters: 2d10 sheet id → name (kind pc only)."""

    players: Mapping[int, str]

    def name(self, sheet_id: Any) -> str | None:
        """A player character's name by sheet id; None for an NPC, a raw roll, a bad id."""
        if type(sheet_id) is not int:  # a bool is no id
            return None
        return self.players.get(sheet_id)

    def named(self, name: Any) -> str | None:
        """A player character by the name a row logged (a medic), in the sheet's spelling."""
        if not isinstance(name, str) or not name:
            return None
        if name in self.players.values():
            return name
        key = normalise_name(name)
        matches = [n for n in self.players.values() if normalise_name(n) == key]
        return matches[0] if len(matches) == 1 else None


@dataclass(frozen=True, kw_only=True)
class Told:
    """The fields of ``RollFacts`` a kind's reader fills (luck and the row's own aside)."""

    roller: str | None = None
    target: str | None = None
    succeeded: bool | None = None
    critical_failure: bool = False
    natural_twenty: bool = False
    natural_two: bool = False
    damage_dealt: int = 0
    damage_taken: int = 0
    downed: bool = False
    dying: bool = False
    label: str = ""


@dataclass(frozen=True)
class D10:
    """A logged 2d10 task roll: the kept dice's sum (None: the row can't tell) and total."""

    natural: int | None
    total: int | None

    @property
    def succeeded(self) -> bool | None:
        """The to-hit table's reading: 10 or more, and never on a natural 2."""
        if self.total is None:
            return None
        return self.natural != NATURAL_MISS and self.total >= SUCCESS_TOTAL

    @property
    def critical_failure(self) -> bool:
        # Ruling recap-critical: the table's worst band, whatever the kept dice showed.
        return self.total is not None and band_for(self.total) is OutcomeBand.EXTREME_FAILURE

    def told(self, **fields: Any) -> Told:
        return Told(
            succeeded=self.succeeded, critical_failure=self.critical_failure,
            natural_twenty=self.natural == NATURAL_TWENTY,
            natural_two=self.natural == NATURAL_MISS, **fields,
        )  # fmt: skip


def d10(row: Mapping[str, Any]) -> D10:
    """The row's 2d10: ``natural`` where logged, else the faces less the dropped one."""
    return D10(natural=kept_sum(row), total=whole(row.get("total")))


def kept_sum(row: Mapping[str, Any]) -> int | None:
    natural = whole(row.get("natural"))
    if natural is not None:
        return natural
    faces = row.get("faces")
    if not isinstance(faces, list) or not all(whole(f) is not None for f in faces):
        return None
    if not all(1 <= f <= SIDES for f in faces):
        return None
    if len(faces) == 2:
        return sum(faces)
    dropped = whole(row.get("dropped"))
    if len(faces) == 3 and dropped is not None and 0 <= dropped < 3:
        return sum(faces) - faces[dropped]
    return None  # three faces with no dropped die: the edge is unknown


def possessive(name: str | None, what: str) -> str:
    """ "Aria's perception task", or "a perception task" when no player character rolled."""
    if name is not None:
        text = f"{name}'s {what}"
    else:
        # "an attack", "an interrupt"; but "a use as weapon": no u.
        first = what[:1].lower()
        text = f"{'an' if first and first in 'aeio' else 'a'} {what}"
    return clip(text)


def clip(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def plain(value: Any) -> str | None:
    """A logged word or name, or None when missing or empty."""
    return (value.strip() or None) if isinstance(value, str) else None
