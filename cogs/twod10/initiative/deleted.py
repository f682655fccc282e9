"""Combatants whose 2d10 sheet was deleted leave the encounter.

Ruling (shown by /help on /character delete): a deleted character leaves every encounter
it was seated in, as /init remove takes it out, in the delete's own transaction
(``cogs.twod10.initiative.seated``). Whatever still loads a seat whose sheet is gone (an
encounter saved by an older version, a sheet removed by other means) applies the same
ruling to what it read, so nothing ever acts for, pings or draws a character that no
longer exists.
"""

from __future__ import annotations

from dataclasses import replace

from bot.interactions.user_text import echo
from bot.rules.twod10.initiative.model import remove_combatant
from bot.storage.twod10.characters import TwoD10Sheet
from bot.storage.twod10.encounters import Tracker


def leave_deleted(tracker: Tracker, sheets: dict[int, TwoD10Sheet]) -> tuple[Tracker, list[str]]:
    """``tracker`` without the combatants linked to a sheet missing from ``sheets`` (all
    the seated sheets that still exist), and one line per combatant that left."""
    for _, seat in tracker.seats:  # (a plain loop: this runs on every /init change)
        if seat.sheet_id is not None and seat.sheet_id not in sheets:
            break
    else:
        return tracker, []
    gone = [cid for cid, s in tracker.seats if s.sheet_id is not None and s.sheet_id not in sheets]
    return _without(tracker, gone)


def without_sheet(tracker: Tracker, sheet_id: int) -> tuple[Tracker, list[str]]:
    """``tracker`` without the combatants seated for ``sheet_id`` (a sheet being deleted)."""
    return _without(tracker, [cid for cid, s in tracker.seats if s.sheet_id == sheet_id])


def _without(tracker: Tracker, gone: list[int]) -> tuple[Tracker, list[str]]:
    if not gone:
        return tracker, []
    enc = tracker.encounter
    lines = []
    for cid in gone:
        name = echo(enc.combatant(cid).name)
        lines.append(f"{name} leaves the encounter: its sheet was deleted.")
        enc = remove_combatant(enc, cid)
    tracker = replace(
        tracker,
        encounter=enc,
        seats=tuple((cid, s) for cid, s in tracker.seats if cid not in gone),
        # A dying roll is owed only by a combatant still in the fight.
        dying_due=tuple(due for due in tracker.dying_due if due[0] not in gone),
    )
    return tracker, lines
