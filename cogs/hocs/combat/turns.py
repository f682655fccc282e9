"""The initiative tracker's turn, as /attack reads it: the extra-attack bane, tempo, aegis.

Only reads the channel's encounter (``EncounterRepository.get_by_channel``) and keeps
its own small record per attacker (``attack_turns``), so the tracker code is untouched.
The rules are in ``bot.rules.hocs.attack.turns``.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.rules.hocs.attack.turns import (
    AttackTurn,
    TurnNow,
    aegis_rerolls,
    after_attack,
    extra_attack_banes,
)
from bot.rules.hocs.attack.weapons import Advantage
from bot.rules.hocs.initiative import Encounter
from bot.storage.hocs.combat import CombatRepository
from bot.storage.hocs.encounters import EncounterRepository


def _now(state: Encounter, character_id: int) -> TurnNow:
    found = next((p for p in state.participants if p.character_id == character_id), None)
    slot = state.slot_of(found.id) if found is not None else None
    current = state.current_slot
    return TurnNow(
        round=state.round,
        turn=state.turn,
        on_turn=found is not None and current is not None and found.id in current,
        turn_passed=slot is not None and state.current is not None and slot < state.current,
    )


@dataclass(frozen=True)
class AttackTurns:
    """What the tracker adds to one attack, and how to remember it afterwards."""

    encounter_id: int
    attacker_id: int
    attacker_now: TurnNow
    attacker: AttackTurn | None
    extra_banes: tuple[tuple[str, int], ...]
    defense_rerolls: tuple[tuple[str, int], ...]
    note: str | None

    async def record(self, conn: aiosqlite.Connection, earned: Advantage | None) -> None:
        """Count the attack (on the attacker's turn) and remember tempo or aegis earned."""
        record = after_attack(self.attacker, self.attacker_now, earned)
        await CombatRepository(conn).save_attack_turn(self.encounter_id, self.attacker_id, record)


async def attack_turns(
    conn: aiosqlite.Connection, channel_id: int, attacker_id: int, defender_id: int
) -> AttackTurns | None:
    """The tracker's part in an attack in this channel; None without a running encounter."""
    encounter = await EncounterRepository(conn).get_by_channel(channel_id)
    if encounter is None or not encounter.state.started:
        return None
    state = encounter.state
    combat = CombatRepository(conn)
    attacker_now = _now(state, attacker_id)
    attacker = await combat.attack_turn(encounter.id, attacker_id)
    defender = await combat.attack_turn(encounter.id, defender_id)
    banes, note = extra_attack_banes(attacker, attacker_now)
    return AttackTurns(
        encounter_id=encounter.id,
        attacker_id=attacker_id,
        attacker_now=attacker_now,
        attacker=attacker,
        extra_banes=banes,
        defense_rerolls=aegis_rerolls(defender, _now(state, defender_id)),
        note=note,
    )
