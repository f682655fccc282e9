"""The recap's reading of every 2d10 roll-log row but the attack's (``recap_facts_attack``):
whose roll it is, its success and naturals, and a few words naming it.

Each reader takes the row's ``result`` and the ``Roster``; the rulings are in
``recap_facts``. What each row holds is what its command logs (cogs/twod10).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.twod10.luck_base import whole
from bot.rules.twod10.recap_facts_base import (
    Roster,
    Told,
    clip,
    d10,
    kept_sum,
    plain,
    possessive,
)
from bot.rules.twod10.tasks import NATURAL_MISS, NATURAL_TWENTY

Reader = Callable[[Mapping[str, Any], Roster], Told]
# The skill labels /task logs when no skill was rolled: the attribute names the task.
NO_SKILL = ("no skill", "rank")


def _labels(row: Mapping[str, Any]) -> list[str]:
    """The modifiers' labels: /task logs {"label", "value"} objects, others [label, value]."""
    modifiers = row.get("modifiers")
    labels: list[str] = []
    for m in modifiers if isinstance(modifiers, list) else ():
        if isinstance(m, dict | Mapping):
            label = m.get("label")
        else:
            label = m[0] if isinstance(m, list) and m else None
        labels.append(label if isinstance(label, str) else "")
    return labels


def task(row: Mapping[str, Any], roster: Roster) -> Told:
    who = roster.name(row.get("character_id"))
    labels = _labels(row)
    # /task's modifiers open with the attribute's label, then the skill's.
    skill = labels[1] if len(labels) > 1 and labels[1] not in NO_SKILL else None
    attribute = labels[0] if labels and labels[0] not in ("", "score") else None
    what = f"{skill or attribute or ''} task".strip()
    typed = plain(row.get("label"))
    if typed is not None:
        what = f"{what} ({typed})"
    return d10(row).told(roller=who, label=possessive(who, what))


def _own_task(what: str) -> Reader:
    """A 2d10 task of the character the row names: dying, rations."""

    def read(row: Mapping[str, Any], roster: Roster) -> Told:
        who = roster.name(row.get("character_id"))
        return d10(row).told(roller=who, label=possessive(who, what))

    return read


def medicine(row: Mapping[str, Any], roster: Roster) -> Told:
    """The medic's roll (logged by name) on a patient (a sheet id)."""
    medic = roster.named(row.get("medic"))
    patient = roster.name(row.get("character_id"))
    use = plain(row.get("use"))
    what = f"medicine on {patient}" if patient else "medicine roll"
    return d10(row).told(roller=medic, label=possessive(medic, what + (f" ({use})" if use else "")))


def morale(row: Mapping[str, Any], roster: Roster) -> Told:
    return d10(row).told(label="the NPCs' morale roll")


def casting(form: str) -> Reader:
    """/cast and /ritual: an interrupted spell rolled nothing and failed."""

    def read(row: Mapping[str, Any], roster: Roster) -> Told:
        who = roster.name(row.get("character_id"))
        named = plain(row.get("what"))
        what = f"{named} {form}" if named else form
        if row.get("faces") == []:
            return Told(roller=who, succeeded=False, label=possessive(who, f"{what}, interrupted"))
        return d10(row).told(roller=who, label=possessive(who, what))

    return read


def disease(row: Mapping[str, Any], roster: Roster) -> Told:
    """A set of infection or overcoming rolls, or one treatment roll."""
    rolls = row.get("rolls")
    if not isinstance(rolls, list):
        return _treatment(row, roster)
    who = roster.name(row.get("character_id"))
    if "infected" in row:
        infected = row.get("infected")
        succeeded = (not infected) if isinstance(infected, bool) else None
        what = "infection roll"
    else:
        overcome = row.get("overcome")
        succeeded = overcome if isinstance(overcome, bool) else None
        what = "overcoming roll"
    sets = [r for r in rolls if isinstance(r, dict | Mapping)]
    naturals = {kept_sum(r) for r in sets}
    # A set is one roll of the night; a natural or a worst band in any of its rolls counts.
    return Told(
        roller=who, succeeded=succeeded,
        critical_failure=any(d10(r).critical_failure for r in sets),
        natural_twenty=NATURAL_TWENTY in naturals, natural_two=NATURAL_MISS in naturals,
        label=possessive(who, what),
    )  # fmt: skip


def _treatment(row: Mapping[str, Any], roster: Roster) -> Told:
    # The row names the patient, not the medic (ruling recap-owners): a "medic" key, if a
    # row ever logs one, is read as the medicine rows' is.
    medic = roster.named(row.get("medic"))
    patient = roster.name(row.get("character_id"))
    what = f"treatment of {patient}" if patient else "disease treatment"
    rolled = d10(row)
    label = possessive(medic, what) if medic else clip(f"the {what}")
    return rolled.told(roller=medic, label=label)


def initiative(row: Mapping[str, Any], roster: Roster) -> Told:
    round_ = whole(row.get("round"))
    return Told(label="the side initiative" + (f", round {round_}" if round_ else ""))


def interrupt(row: Mapping[str, Any], roster: Roster) -> Told:
    first = row.get("reacts_first")
    return Told(succeeded=first if isinstance(first, bool) else None, label="an interrupt")


def scavenge(row: Mapping[str, Any], roster: Roster) -> Told:
    who = roster.name(row.get("character_id"))
    face, chance = whole(row.get("face")), whole(row.get("chance"))
    found = face <= chance if face is not None and chance is not None else None
    return Told(roller=who, succeeded=found, label=possessive(who, "scavenge"))


def draw(row: Mapping[str, Any], roster: Roster) -> Told:
    who = roster.name(row.get("character_id"))
    drawn = row.get("drawn")
    return Told(roller=who, succeeded=drawn if isinstance(drawn, bool) else None,
                label=possessive(who, "backpack draw"))  # fmt: skip


def light(row: Mapping[str, Any], roster: Roster) -> Told:
    """A light's burn time or drop, its bearer's (``cogs.twod10.survival_log``); a drop
    succeeds when the light stays lit."""
    who = roster.name(row.get("character_id"))
    kind = plain(row.get("light")) or "light"
    if row.get("roll") == "drop":
        out = row.get("went_out")
        return Told(roller=who, succeeded=(not out) if isinstance(out, bool) else None,
                    label=possessive(who, f"{kind} drop"))  # fmt: skip
    return Told(roller=who, label=possessive(who, f"{kind} burn time"))


READERS: dict[str, Reader] = {
    "2d10-task": task,
    "2d10-dying": _own_task("dying roll"),
    "2d10-medicine": medicine,
    "2d10-morale": morale,
    "2d10-rations": _own_task("rations roll"),
    "2d10-cast": casting("spell"),
    "2d10-ritual": casting("ritual"),
    "2d10-disease": disease,
    "2d10-initiative": initiative,
    "2d10-interrupt": interrupt,
    "2d10-scavenge": scavenge,
    "2d10-draw": draw,
    "2d10-light": light,
}
