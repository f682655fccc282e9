"""What /attack reads from and writes to the channel's running 2d10 tracker, if any.

A parry marked on the tracker (``/init act parry``) waits for the next attack on that
combatant: a melee attack uses it up, a ranged one leaves it (ruling ``parry-ranged``).
A roll of 25 or more, or a slaying blow with an endless-cleave weapon, gives the attacker
one more attack on the tracker when it is its side's turn. A crossbow that shot waits for
``/init act load`` before it shoots again (ruling crossbow-loading). On its side's turn a
seated attacker's attack takes its attack action (an offhand one its bonus action; ruling
attack-action in ``initiative.attack_action``), refused before any die once none is left.
A successful pin is kept on the tracker until the pinned damages its pinner
(``initiative.pins``); a successful disarm drops the target's weapons, refused by /attack
until picked up (``initiative.disarm``); a force back is announced only; a won use as
weapon lets the attacker swing the opponent for its rounds (``initiative.holds``). The
tracker is saved under its version in the attack's own transaction, so a concurrent
tracker change refuses the attack, and the tracker message is redrawn once that
transaction commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import aiosqlite

from bot.interactions.user_text import echo
from bot.render.twod10.initiative import event_line
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import AttackResult
from bot.rules.twod10.equipment import Weapon
from bot.rules.twod10.initiative.attack_action import check_attack_left, spend_attack
from bot.rules.twod10.initiative.disarm import check_not_dropped, drop_weapons
from bot.rules.twod10.initiative.holds import held_by, start_hold
from bot.rules.twod10.initiative.loading import check_loaded, note_shot
from bot.rules.twod10.initiative.model import Encounter
from bot.rules.twod10.initiative.pins import note_damage, pin_flags, start_pin
from bot.rules.twod10.initiative.reactions import block_with_reaction
from bot.rules.twod10.initiative.spells import note_attack
from bot.rules.twod10.initiative.spells import note_damage as note_spell_damage
from bot.rules.twod10.initiative.turns import ExtraAttack, grant_extra_attack, spend_parry
from bot.rules.twod10.initiative.two_weapons import check_grip, note_grip
from bot.rules.twod10.maneuvers import Maneuver
from bot.storage.changes import characters_changed
from bot.storage.twod10.characters import TwoD10Sheet
from bot.storage.twod10.encounters import TrackerRecord, TwoD10EncounterRepository

# Ruling force-back-positions (initiative.disarm): the push is the table's to play out.
FORCE_BACK_NOTE = "Tracker: a force back is announced only; the pushed spend no movement."


@dataclass(frozen=True, kw_only=True)
class HeldOpponent:
    """An opponent held as a weapon: its combatant, name and sheet (None: it has none)."""

    combatant_id: int
    name: str
    sheet_id: int | None


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

    def check_attack(self, sheet_id: int, *, offhand: bool = False) -> None:
        """Raises RulesError when a seated attacker, on its side's turn, has no attack left
        (an offhand attack: no bonus action left): ruling attack-action."""
        combatant_id = self.combatant_of(sheet_id)
        if combatant_id is not None:
            check_attack_left(self.record.encounter, combatant_id, offhand=offhand)

    def check_held(self, sheet_id: int, weapon: Weapon | None, weapons: Sequence[Weapon]) -> None:
        """Raises RulesError when a seated attacker's ``weapon`` lies dropped (disarm-drops)."""
        combatant_id = self.combatant_of(sheet_id)
        if combatant_id is not None:
            check_not_dropped(self.record.encounter, combatant_id, weapon, weapons)

    def pin_flags(self, attacker_sheet_id: int, target_sheet_id: int) -> tuple[bool, bool]:
        """(the attacker is pinned: disadvantage, the target is pinned by the attacker:
        advantage), as the tracker has them; (False, False) for anyone not seated."""
        attacker = self.combatant_of(attacker_sheet_id)
        target = self.combatant_of(target_sheet_id)
        enc = self.record.encounter
        attacker_pinned = attacker is not None and enc.combatant(attacker).pinned_by is not None
        if attacker is None or target is None:
            return attacker_pinned, False
        return pin_flags(enc, attacker, target)

    def held_opponent(self, sheet_id: int) -> HeldOpponent | None:
        """The opponent the seated ``sheet_id`` wields as a weapon now (ruling
        opponent-weapon-rounds); None when it holds nobody."""
        combatant_id = self.combatant_of(sheet_id)
        if combatant_id is None:
            return None
        held = held_by(self.record.encounter, combatant_id)
        if held is None:
            return None
        seat = dict(self.record.tracker.seats).get(held.id)
        sheet = seat.sheet_id if seat is not None else None
        return HeldOpponent(combatant_id=held.id, name=held.name, sheet_id=sheet)

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
    result: AttackResult | None = None,
    hit: TwoD10Sheet | None = None,
    pin_prone: bool = False,
    swung: tuple[int, int] | None = None,
) -> tuple[Encounter, str | None]:
    """The encounter with the attacker's attack action (or bonus action) taken, the parry
    spent, a block's reaction used (ruling block-reaction), any extra attack granted, a
    target casting its declared spell marked attacked, the attacker's crossbow
    (``weapon``) unloaded, and the maneuver's pin or disarm kept; and the lines to show.
    ``result`` and ``hit`` (the sheet the attack landed on) carry the damage and the
    maneuver; ``pin_prone``: a pin forced both prone (the caller marks the sheets);
    ``swung``: (the combatant swung as the weapon, the damage it took), damage that fails
    its spell being cast like any other (ruling opponent-weapon-damage)."""
    enc = view.record.encounter
    notes: list[str] = []
    target = view.combatant_of(target_id)
    if parry_used and target is not None:
        enc, _ = spend_parry(enc, target)
    if blocked and target is not None:
        enc = block_with_reaction(enc, target)
    if target is not None:  # a declared spell being cast is troubled (cast-in-tracker)
        enc = note_attack(enc, target)
    attacker = view.combatant_of(attacker_id)
    if attacker is not None:  # (offhand, finesse): two-weapon fighting's record
        enc = spend_attack(enc, attacker, offhand=grip[0])  # before this attack's extra one
        enc = note_grip(enc, attacker, offhand=grip[0], finesse=grip[1])
        enc = note_shot(enc, attacker, weapon)
    if result is not None and hit is not None:
        enc = _maneuver(enc, view, attacker, result, hit, pin_prone, notes)
        hurt = [(view.combatant_of(hit.id), result.damage_total)]
        if swung is not None:
            hurt.append(swung)
        for damaged, damage in hurt:  # damage fails a spell being cast (spell-interrupted)
            if damaged is not None:
                enc, failed = note_spell_damage(enc, damaged, damage)
                if failed:
                    notes.append(f"Tracker: {echo(failed, 400)}")  # (names in it: escaped)
    if extra is not None and attacker is not None:
        try:
            enc = grant_extra_attack(enc, attacker, reason=extra)
            notes.append(f"Tracker: one more attack this turn ({extra.value}).")
        except RulesError as exc:  # not its side's turn, or already at the limit
            notes.append(f"Tracker: no extra attack ({exc})")
    return enc, "\n".join(notes) or None


def _maneuver(
    enc: Encounter, view: TrackerView, attacker: int | None, result: AttackResult,
    hit: TwoD10Sheet, pin_prone: bool, notes: list[str],
) -> Encounter:  # fmt: skip
    """A pinned attacker's damage to its pinner frees it; a successful pin, disarm or force
    back on ``hit`` is kept (or, for a force back, said)."""
    target = view.combatant_of(hit.id)
    if attacker is not None and target is not None:
        enc, freed = note_damage(enc, attacker, target, result.damage_total)
        if freed is not None:
            notes.append(f"Tracker: {event_line(enc, freed)}")
    effect = result.effect
    if effect is None or not effect.succeeded:
        return enc
    if effect.maneuver is Maneuver.FORCE_BACK:
        notes.append(FORCE_BACK_NOTE)
    if target is None or attacker is None:
        return enc  # not both seated: announced only, as crossbows untracked
    if effect.pinned:
        enc, pinned = start_pin(enc, attacker, target, prone=pin_prone)
        notes.append(f"Tracker: {event_line(enc, pinned)}")
    if effect.maneuver is Maneuver.USE_AS_WEAPON:  # ruling opponent-weapon-rounds
        enc = start_hold(enc, attacker, target, effect.rounds)
        notes.append(
            f"Tracker: {echo(enc.combatant(attacker).name)} wields"
            f" {echo(enc.combatant(target).name)} as a weapon through round"
            f" {enc.combatant(attacker).hold_until} (/attack weapon:Opponent)."
        )
    if effect.items_dropped:
        carried = [w.name for w in hit.character.weapons]
        enc, dropped = drop_weapons(
            enc, target, carried, effect.items_dropped, effect.extra_item_steps
        )
        if dropped is not None:
            notes.append(f"Tracker: {event_line(enc, dropped)}")
    return enc


async def save(conn: aiosqlite.Connection, view: TrackerView, enc: Encounter) -> None:
    if enc == view.record.encounter:
        return
    tracker = replace(view.record.tracker, encounter=enc)
    await TwoD10EncounterRepository(conn).save(view.record, tracker)
    # Saved outside the tracker's service, which would redraw it: the notice that its
    # seated sheets changed redraws it after the commit instead (bot.storage.changes).
    characters_changed(conn, view.record.guild_id, *tracker.sheet_ids())
