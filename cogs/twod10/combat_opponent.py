"""/attack weapon:Opponent: swinging the opponent a won use-as-weapon maneuver holds.

The tracker keeps the hold (rulings opponent-weapon-rounds, opponent-weapon-size in
``bot.rules.twod10.initiative.holds``); the opponent swung takes half the damage dealt,
rounded down, in the attack's own transaction (ruling opponent-weapon-damage).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import aiosqlite

from bot.errors import UserError
from bot.render.text import safe
from bot.render.twod10.combat import hp_status
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import Size
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.wielding import Wielded, improvised_weapon
from bot.storage.twod10.characters import SheetChanged, TwoD10CharacterRepository
from cogs.twod10.combat_apply import save_vitals
from cogs.twod10.combat_options import OPPONENT
from cogs.twod10.combat_tracker import TrackerView


@dataclass(frozen=True, kw_only=True)
class Swung:
    """The opponent wielded: its name and its sheet (None: a combatant without one)."""

    name: str
    sheet_id: int | None
    wielded: Wielded


def names_opponent(weapon: str | None) -> bool:
    return " ".join((weapon or "").lower().split()) == OPPONENT.lower()


def swing_opponent(
    view: TrackerView | None, attacker_id: int, character: Character, target_id: int
) -> Swung:
    """The held opponent as this attack's weapon; UserError when nobody is held."""
    held = view.held_opponent(attacker_id) if view is not None else None
    if held is None:
        raise UserError(
            f"{safe(character.name)} holds nobody as a weapon: win a use as weapon maneuver"
            " in a tracked fight first."
        )
    name, sheet_id = held
    if sheet_id == target_id:
        raise UserError(f"{safe(name)} can't be swung at itself: pick another target.")
    brawl = character.skill(SkillKey(skill=Skill.BRAWL))
    wielded = improvised_weapon(Size.TWO_HANDED, brawl, living=True)
    return Swung(name=name, sheet_id=sheet_id, wielded=replace(wielded, name=f"{OPPONENT} {name}"))


async def hurt_the_swung(
    conn: aiosqlite.Connection, guild_id: int, swung: Swung, dealt: int
) -> str | None:
    """Half the damage dealt, rounded down, to the opponent swung; the line to show."""
    taken = dealt // 2
    if taken == 0:
        return None
    if swung.sheet_id is None:
        return f"{safe(swung.name)}, swung as a weapon, takes {taken} damage (no sheet to mark)."
    before = await TwoD10CharacterRepository(conn).get(guild_id, swung.sheet_id)
    if before is None:
        return None  # its sheet was deleted: nothing to mark
    after = await save_vitals(conn, before, delta=-taken)
    if after.revision == before.revision:
        raise SheetChanged()
    return (
        f"{safe(swung.name)}, swung as a weapon, takes half: {taken} damage"
        f" ({before.hp}/{before.max_hp} HP → {hp_status(after)})."
    )
