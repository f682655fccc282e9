"""What /rest and /respite share: a character's hit points with its wounds, and saving."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.character_access import safe_name
from bot.errors import UserError
from bot.rules.hocs.attack import Combatant
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage import HitPoints
from bot.rules.hocs.rest import Points
from bot.rules.hocs.wounds import Wound
from bot.storage.characters import Character, CharacterRepository
from bot.storage.combat import CombatRepository

REST_ACTION = "rest for them"


class RecoveryChanged(UserError):
    def __init__(self, character: Character) -> None:
        super().__init__(
            f"{safe_name(character.name)} changed while resting (another command got there"
            " first): nothing was written, try again."
        )


@dataclass(frozen=True, kw_only=True)
class Resting:
    """A character as a rest or respite sees it (wounds lower maximum HP and strength)."""

    character: Character
    combatant: Combatant
    wounds: tuple[Wound, ...]

    @property
    def name(self) -> str:
        return safe_name(self.character.name)

    @property
    def hp(self) -> HitPoints:
        return self.combatant.hit_points

    @property
    def strength(self) -> int:
        return self.combatant.effective_sheet.strength

    @property
    def recovery(self) -> Points:
        state, maximum = self.character.state, self.character.sheet.recovery_points
        return Points(min(state.recovery, maximum), maximum)

    @property
    def determination(self) -> Points:
        state, maximum = self.character.state, self.character.sheet.determination_points
        return Points(min(state.determination, maximum), maximum)

    @property
    def conditions(self) -> Conditions:
        return self.character.state.conditions


async def load_resting(conn: aiosqlite.Connection, character: Character) -> Resting:
    """The character with its wounds; refuses a dead one."""
    if Condition.DEAD in character.state.conditions:
        raise UserError(f"{safe_name(character.name)} is dead and can't rest.")
    combat = await CombatRepository(conn).with_wounds(character)
    return Resting(character=character, combatant=combat.combatant, wounds=combat.wounds)


async def save(
    conn: aiosqlite.Connection,
    resting: Resting,
    *,
    hp: HitPoints,
    recovery: Points,
    determination: Points,
    conditions: Conditions,
    recovery_needed: int = 0,
) -> None:
    """Write the results in one conditional UPDATE; RecoveryChanged if the row moved on."""
    written = await CharacterRepository(conn).write_recovery(
        resting.character,
        hp=hp.current,
        nonlethal=hp.nonlethal_taken,
        recovery=recovery.current,
        determination=determination.current,
        conditions=conditions,
        recovery_needed=recovery_needed,
    )
    if not written:
        raise RecoveryChanged(resting.character)
