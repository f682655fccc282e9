"""What /rest and /respite share: a character's hit points with its wounds, and saving."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.errors import UserError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage import HitPoints
from bot.rules.hocs.effective import EffectiveValues
from bot.rules.hocs.rest import Points
from bot.rules.hocs.wounds import Wound
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.tables.character_access import safe_name

REST_ACTION = "rest for them"


class RecoveryChanged(UserError):
    def __init__(self, character: Character) -> None:
        super().__init__(
            f"{safe_name(character.name)} changed while resting (another command got there"
            " first): nothing was written, try again."
        )


@dataclass(frozen=True, kw_only=True)
class Resting:
    """A character as a rest or respite sees it: its effective (wounded) values, so wounds
    lower the maximum hit points and recovery points and the strength die."""

    character: Character
    values: EffectiveValues

    @property
    def name(self) -> str:
        return safe_name(self.character.name)

    @property
    def wounds(self) -> tuple[Wound, ...]:
        return self.values.wounds

    @property
    def hp(self) -> HitPoints:
        state = self.character.state
        return self.values.hit_points(state.hp, temporary=state.temp_hp, nonlethal=state.nonlethal)

    @property
    def strength(self) -> int:
        """The strength to roll [1d STR] with."""
        return self.values.sheet.strength

    @property
    def recovery(self) -> Points:
        state, maximum = self.character.state, self.values.recovery_max
        return Points(min(state.recovery, maximum), maximum)

    @property
    def determination(self) -> Points:
        state, maximum = self.character.state, self.values.determination_max
        return Points(min(state.determination, maximum), maximum)

    @property
    def conditions(self) -> Conditions:
        return self.character.state.conditions


def load_resting(character: Character) -> Resting:
    """The character with its effective values; refuses a dead one."""
    if Condition.DEAD in character.state.conditions:
        raise UserError(f"{safe_name(character.name)} is dead and can't rest.")
    return Resting(character=character, values=character.effective)


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
