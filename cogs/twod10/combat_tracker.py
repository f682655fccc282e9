"""What /attack reads from and writes to the channel's running 2d10 tracker, if any.

A parry marked on the tracker (``/init act parry``) waits for the next attack on that
combatant: a melee attack uses it up, a ranged one leaves it (ruling ``parry-ranged``).
A roll of 25 or more, or a slaying blow with an endless-cleave weapon, gives the attacker
one more attack on the tracker when it is its side's turn. A crossbow that shot waits for
``/init act load`` before it shoots again (ruling crossbow-loading). The tracker is saved
under its version in the attack's own transaction, so a concurrent tracker change refuses
the attack, and the tracker message is redrawn once that transaction commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import aiosqlite

from bot.rules.errors import RulesError
from bot.rules.twod10.equipment import Weapon
from bot.rules.twod10.initiative.loading import check_loaded, note_shot
from bot.rules.twod10.initiative.model import Encounter
from bot.rules.twod10.initiative.reactions import block_with_reaction
from bot.rules.twod10.initiative.spells import note_attack
from bot.rules.twod10.initiative.turns import ExtraAttack, grant_extra_attack, spend_parry
from bot.rules.twod10.initiative.two_weapons import check_grip, note_grip
from bot.storage.changes import characters_changed
from bot.storage.twod10.encounters import TrackerRecord, TwoD10EncounterRepository


@dataclass(frozen=True, kw_only=True)
class TrackerView:
    record: TrackerRecord

    def combatant_of(self, sheet_id: int) -> int | None:
        for combatant_id, seat in self.record.tracker.seats:
            if seat.sheet_id == sheet_id:
                return combatant_id
        return None

    def check_grip(self, sheet_id: int, *, offhand: bool, finesse: bool) -> None:
        """Raises RulesError when a seated attacker's grip breaks two-weapon fighting."""
        combatant_id = self.combatant_of(sheet_id)
        if combatant_id is not None:
            check_grip(self.record.encounter, combatant_id, offhand=offhand, finesse=finesse)

    def check_loaded(self, sheet_id: int, weapon: Weapon | None, weapons: Sequence[Weapon]) -> None:
        """Raises RulesError when a seated attacker's crossbow (``weapon``, one of its
        sheet's ``weapons``) has shot and isn't loaded yet."""
        combatant_id = self.combatant_of(sheet_id)
        if combatant_id is not None:
            check_loaded(self.record.encounter, combatant_id, weapon, weapons)

    def check_block(self, sheet_id: int) -> None:
        """Raises RulesError when the seated target has no reaction left to block with."""
        combatant_id = self.combatant_of(sheet_id)
        if combatant_id is not None:
            block_with_reaction(self.record.encounter, combatant_id)

    def parry_waiting(self, sheet_id: int) -> int:
        combatant_id = self.combatant_of(sheet_id)
        if combatant_id is None:
            return 0
        return self.record.encounter.state(combatant_id).parry


async def tracker_here(
    conn: aiosqlite.Connection, guild_id: int, channel_id: int
) -> TrackerView | None:
    record = await TwoD10EncounterRepository(conn).get_by_channel(channel_id)
    if record is None or record.guild_id != guild_id:
        return None
    return TrackerView(record=record)


def after_attack(
    view: TrackerView,
    *,
    attacker_id: int,
    target_id: int,
    parry_used: bool,
    extra: ExtraAttack | None,
    blocked: bool = False,
    grip: tuple[bool, bool] = (False, False),
    weapon: Weapon | None = None,
) -> tuple[Encounter, str | None]:
    """The encounter with the parry spent, a block's reaction used (ruling
    block-reaction), any extra attack granted, a target casting its declared spell
    marked attacked and the attacker's crossbow (``weapon``) unloaded, and a line to show."""
    enc = view.record.encounter
    note = None
    target = view.combatant_of(target_id)
    if parry_used and target is not None:
        enc, _ = spend_parry(enc, target)
    if blocked and target is not None:
        enc = block_with_reaction(enc, target)
    if target is not None:  # a declared spell being cast is troubled (cast-in-tracker)
        enc = note_attack(enc, target)
    attacker = view.combatant_of(attacker_id)
    if attacker is not None:  # (offhand, finesse): two-weapon fighting's record
        enc = note_grip(enc, attacker, offhand=grip[0], finesse=grip[1])
        enc = note_shot(enc, attacker, weapon)
    if extra is not None and attacker is not None:
        try:
            enc = grant_extra_attack(enc, attacker, reason=extra)
            note = f"Tracker: one more attack this turn ({extra.value})."
        except RulesError as exc:  # not its side's turn, or already at the limit
            note = f"Tracker: no extra attack ({exc})"
    return enc, note


async def save(conn: aiosqlite.Connection, view: TrackerView, enc: Encounter) -> None:
    if enc == view.record.encounter:
        return
    tracker = replace(view.record.tracker, encounter=enc)
    await TwoD10EncounterRepository(conn).save(view.record, tracker)
    # Saved outside the tracker's service, which would redraw it: the notice that its
    # seated sheets changed redraws it after the commit instead (bot.storage.changes).
    characters_changed(conn, view.record.guild_id, *tracker.sheet_ids())
