"""What the tracker records about due dying rolls (see ``cogs.twod10.initiative.dying``).

Kept apart from the button and the operation so the service can settle due rolls on
every change without importing them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.twod10.dying import DyingResult
from bot.rules.twod10.initiative.events import SideTurnStarted
from bot.storage.twod10.characters import TwoD10Condition, TwoD10Kind, TwoD10Sheet
from bot.storage.twod10.encounters import Tracker


@dataclass(frozen=True)
class DyingRollDue:
    combatant_id: int
    round: int
    name: str
    owner_id: int
    ping: bool  # a player character's player is pinged; the GM's NPCs ping nobody


@dataclass(frozen=True)
class DyingRolled:
    combatant_id: int
    name: str
    result: DyingResult


def is_dying(sheet: TwoD10Sheet) -> bool:
    """At 0 HP or below and not yet dead: the dying roll is owed."""
    return (
        sheet.hp <= 0 and sheet.hp > sheet.death_threshold and not sheet.has(TwoD10Condition.DEAD)
    )


def settle_dying(
    tracker: Tracker, sheets: dict[int, TwoD10Sheet], events: list[object]
) -> tuple[Tracker, list[DyingRollDue]]:
    """Drop due rolls of characters no longer dying (or gone); add one for each dying
    linked combatant whose side's turn starts in ``events`` (ruling dying-turn)."""
    enc = tracker.encounter
    present = {c.id for c in enc.combatants}

    def dying_sheet(combatant_id: int) -> TwoD10Sheet | None:
        seat = tracker.seat(combatant_id)
        if seat is None or seat.sheet_id is None or combatant_id not in present:
            return None
        sheet = sheets.get(seat.sheet_id)
        return sheet if sheet is not None and is_dying(sheet) else None

    due = {entry for entry in tracker.dying_due if dying_sheet(entry[0]) is not None}
    prompts: list[DyingRollDue] = []
    for event in events:
        if not isinstance(event, SideTurnStarted):
            continue
        for combatant in enc.side(event.side):
            sheet = dying_sheet(combatant.id)
            if sheet is None or (combatant.id, event.round) in due:
                continue
            due.add((combatant.id, event.round))
            prompts.append(
                DyingRollDue(
                    combatant_id=combatant.id, round=event.round, name=combatant.name,
                    owner_id=sheet.owner_id, ping=sheet.kind is TwoD10Kind.PC,
                )
            )  # fmt: skip
    return replace(tracker, dying_due=tuple(sorted(due))), prompts


def down_marks(tracker: Tracker, sheets: dict[int, TwoD10Sheet]) -> dict[int, str]:
    """What the tracker shows after a linked combatant's "down": dead, dying, unconscious,
    and whether its dying roll is waiting."""
    waiting = {combatant_id for combatant_id, _ in tracker.dying_due}
    marks: dict[int, str] = {}
    for combatant_id, seat in tracker.seats:
        sheet = sheets.get(seat.sheet_id) if seat.sheet_id is not None else None
        if sheet is None:
            continue
        words: list[str] = []
        if sheet.has(TwoD10Condition.DEAD) or sheet.hp <= sheet.death_threshold:
            words.append("dead")
        else:
            if sheet.hp <= 0:
                words.append("dying")
            if sheet.has(TwoD10Condition.UNCONSCIOUS):
                words.append("unconscious")
            if combatant_id in waiting:
                words.append("dying roll due")
        if words:
            marks[combatant_id] = f" ({', '.join(words)})"
    return marks
