"""/attack weapon:Opponent: swinging the opponent a won use-as-weapon maneuver holds.

The tracker keeps the hold (rulings opponent-weapon-rounds, opponent-weapon-size in
``bot.rules.twod10.initiative.holds``); the opponent swung takes half the damage dealt,
rounded down, in the attack's own transaction (ruling opponent-weapon-damage). That is
damage in combat like any other: it breaks the opponent's concentration, and the tracker
fails its declared spell (``combat_tracker.after_attack``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import aiosqlite

from bot.errors import UserError
from bot.render.text import safe
from bot.render.twod10.combat import hp_status
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import Size
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.wielding import Wielded, improvised_weapon
from bot.storage.twod10.characters import (
    SheetChanged,
    TwoD10CharacterRepository,
    TwoD10Condition,
)
from cogs.twod10.combat_apply import save_vitals
from cogs.twod10.combat_options import OPPONENT
from cogs.twod10.combat_tracker import TrackerView
from cogs.twod10.magic_damage import damage_ends_concentration


@dataclass(frozen=True, kw_only=True)
class Swung:
    """The opponent wielded: its combatant, name and sheet (None: a combatant without one)."""

    combatant_id: int
    name: str
    sheet_id: int | None
    wielded: Wielded


@dataclass(frozen=True, kw_only=True)
class SwungHurt:
    """What the opponent swung took: the damage, the reply's line, the roll log's record."""

    taken: int
    line: str | None = None
    log: dict[str, Any] | None = None


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
    if held.sheet_id == target_id:
        raise UserError(f"{safe(held.name)} can't be swung at itself: pick another target.")
    brawl = character.skill(SkillKey(skill=Skill.BRAWL))
    wielded = improvised_weapon(Size.TWO_HANDED, brawl, living=True)
    return Swung(
        combatant_id=held.combatant_id, name=held.name, sheet_id=held.sheet_id,
        wielded=replace(wielded, name=f"{OPPONENT} {held.name}"),
    )  # fmt: skip


async def hurt_the_swung(
    conn: aiosqlite.Connection, guild_id: int, swung: Swung, dealt: int
) -> SwungHurt:
    """Half the damage dealt, rounded down, to the opponent swung, ending its
    concentration if it takes any (ruling concentration-damage)."""
    taken = dealt // 2
    if taken == 0:
        return SwungHurt(taken=0)
    log: dict[str, Any] = {"name": swung.name, "sheet_id": swung.sheet_id, "damage": taken}
    if swung.sheet_id is None:
        line = f"{safe(swung.name)}, swung as a weapon, takes {taken} damage (no sheet to mark)."
        return SwungHurt(taken=taken, line=line, log=log)
    before = await TwoD10CharacterRepository(conn).get(guild_id, swung.sheet_id)
    if before is None:  # its sheet was deleted: nothing to mark
        return SwungHurt(taken=taken, log={**log, "sheet_id": None})
    after = await save_vitals(conn, before, delta=-taken)
    if after.revision == before.revision:
        raise SheetChanged()
    line = (
        f"{safe(swung.name)}, swung as a weapon, takes half: {taken} damage"
        f" ({before.hp}/{before.max_hp} HP → {hp_status(after)})."
    )
    lost = await damage_ends_concentration(conn, before, after, attack=True)
    if lost is not None:
        line += f"\n🔮 {safe(swung.name)}'s concentration on {safe(lost)} is lost to the damage."
    log |= {"hp": [before.hp, after.hp], "dead": after.has(TwoD10Condition.DEAD)}
    return SwungHurt(taken=taken, line=line, log=log)
