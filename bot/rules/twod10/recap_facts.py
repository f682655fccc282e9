"""What a 2d10 roll-log row says for the recap (``bot.rules.generic.recap``): whose roll it
is, whether it succeeded, its naturals, the damage it dealt and took, and its luck.

``facts_of(row, players)`` reads one row; ``players`` maps each player character's 2d10
sheet id (kind pc) to its name. The roll log's ``character_id`` column references HOCS
characters and stays NULL for 2d10 rows: the sheet ids are in the row's ``result``
(``character_id``, ``attacker_id``, ``target_id``; the medic by name). The readers are
``recap_facts_kinds`` and ``recap_facts_attack``; the luck is ``luck.row_luck``'s.

Rulings:

* ``recap-owners``: a roll belongs to the player character who rolled it: the task's,
  casting, dying or eating character, the attacker, the medic (the medicine row logs
  the medic's name, matched among the player characters' names), a light's bearer (its
  burn time, though the GM rolls it in secret, and its drop). An NPC's roll, a
  ``/roll``, the side initiative, a morale roll, an interrupt (its reactor is a tracker
  combatant, not a sheet) and a disease treatment (its row names the patient, not the
  medic) are no character's: counted as rolls of the night, their luck nobody's. Each
  scored roll's luck goes to whose dice it was (ruling ``luck-defended``: a defense roll
  is the target's), mapped to a name the same way; NPCs' and sides' luck to nobody.
* ``recap-naturals``: a natural 20 or 2 is the roller's own kept 2d10: a task's, a
  to-hit's, a cast's. A defended attack's 2d10 are the defender's, so the attack has
  none; the look and rending rolls are not the attack's own roll. A disease roll set is
  one roll, with a natural if any of its rolls shows one.
* ``recap-hurt``: an attack deals its damage after armor and block (the row's damage),
  taken by the player character it hit (a stray shot's target included); a miss hurts
  nobody. The target went down when its HP fell from above 0 to 0 or less, and is dying
  when left at 0 or less and alive. The row keeps no death threshold, but HP stop at it,
  so a blow cut short by that floor killed; one landing exactly on it counts as dying.
  2d10 has no wounds and no points to spend.
* ``recap-critical``: a critical failure is a total of 5 or less, the to-hit table's
  "failure with extreme complication", on any task roll (an attack's, a defender's
  flipped total included; a cast, a dying roll…). A natural 2 with a higher total is a
  plain failure, counted as a natural 2 only: the table, not the dice, names the worst.

A row whose dice the luck engine can't score (``RowLuck.unscored`` and nothing scored)
is ``unscored``; an interrupted spell rolled no dice and is neither. A kind no reader
knows (a row logged by a newer bot) is told by its kind, unscored, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from bot.rules.generic.luck_roll import roll_percentile
from bot.rules.generic.recap import LoggedRow, Luck, RollFacts
from bot.rules.twod10.luck import Scored, row_luck
from bot.rules.twod10.recap_facts_attack import attack
from bot.rules.twod10.recap_facts_base import Roster, Told, clip, plain
from bot.rules.twod10.recap_facts_kinds import READERS, Reader

GENERIC_KIND = "roll"  # /roll, whatever the ruleset
# Whose luck each owner is, by the reference luck gives it (ruling recap-owners).
BY_SHEET = ("character", "attacker", "defender")
BY_NAME = ("medic",)

_READERS: dict[str, Reader] = {**READERS, "2d10-attack": attack}
_TOLD = tuple(f.name for f in fields(Told))  # once: dataclasses.fields isn't free per row


def facts_of(row: LoggedRow, players: Mapping[int, str]) -> RollFacts:
    """What one 2d10 (or ``/roll``) roll-log row says, in 2d10 meanings."""
    roster = Roster(players)
    result: Mapping[str, Any] = row.result if isinstance(row.result, dict | Mapping) else {}
    if row.kind == GENERIC_KIND:
        told = Told(label=_roll_label(result))
        scored = roll_percentile(result)
        luck = (Luck(owner=None, percentile=scored.percentile, variance=scored.variance,
                     part="roll"),) if scored else ()  # fmt: skip
        unscored = scored is None
    else:
        reader = _READERS.get(row.kind)
        told = reader(result, roster) if reader else Told(label=clip(row.kind))
        rolled = row_luck(row.kind, result)
        luck = tuple(_luck(s, roster) for s in rolled.scored)
        unscored = bool(rolled.unscored) and not rolled.scored
    return RollFacts(
        roll_id=row.id, kind=row.kind, secret=row.secret, luck=luck, unscored=unscored,
        message_id=row.message_id, channel_id=row.channel_id,
        **_told(told),
    )  # fmt: skip


def _told(told: Told) -> dict[str, Any]:
    # A Told's instance dict holds exactly its fields (a plain frozen dataclass, built
    # by its __init__ or ``replace``): one copy instead of a getattr per field per row.
    fields_ = told.__dict__
    return fields_ if len(fields_) == len(_TOLD) else {n: getattr(told, n) for n in _TOLD}


def _luck(scored: Scored, roster: Roster) -> Luck:
    return Luck(owner=_owner(scored, roster), percentile=scored.percentile,
                variance=scored.variance, part=scored.part)  # fmt: skip


def _owner(scored: Scored, roster: Roster) -> str | None:
    """A player character's name; a reactor (a tracker combatant id), a side, an NPC: None."""
    if scored.owner in BY_SHEET:
        return roster.name(scored.owner_ref)
    if scored.owner in BY_NAME:
        return roster.named(scored.owner_ref)
    return None


def _roll_label(result: Mapping[str, Any]) -> str:
    """ "a roll of 1d20 + 5", or the roll's own label with its expression."""
    label, expression = plain(result.get("label")), plain(result.get("expression"))
    if label and expression:
        return clip(f"{label} ({expression})")
    if label or expression:
        return clip(label or f"a roll of {expression}")
    return "a roll"
