"""Who may read a HOCS NPC's hit points and conditions on the web, and the vitals shown.

The Discord rule (``cogs.hocs.visibility``): in a channel whose running encounter seats
the NPC, that encounter's ``show_npc_hp`` decides; anywhere else the campaign's; the GM
and the NPC's owner always see; player characters are never hidden. A hidden NPC shows
the tracker's status word (unhurt, hurt, bloodied, down, unconscious, dying, dead) and
no hit points, conditions, recovery, determination or wounds.

Ruling ``web-npc-visibility``: a web page has no channel, so a page that is not one
encounter's tracker (the table, a sheet) follows the encounters that seat the NPC: it is
shown when one of them shows NPC hit points (that tracker shows them to everyone
already) and hidden when none does, even if the campaign's switch is on; an NPC seated
nowhere follows the campaign's switch. The GM's latest, most specific choice wins, so
hiding an NPC for a fight hides it on every page while the fight runs. A tracker page
follows its own encounter's switch, as the pinned tracker does.
"""

from __future__ import annotations

from collections.abc import Mapping

import aiosqlite

from bot.render.hocs.character import status_word as character_status
from bot.rules.hocs.conditions import ConditionKind, Conditions
from bot.rules.hocs.initiative import Participant, Side, status_word
from bot.storage.campaigns import Campaign
from bot.storage.hocs.characters import Character, CharacterKind
from bot.storage.sql import fetch_all
from bot.web.views.common import Vitals
from bot.web.views.viewer import Viewer

# character id → whether one of the running encounters seating it shows NPC hit points
# (one statement on encounters_by_guild and the participants' encounter index).
_SEATED = (
    "SELECT p.character_id, MAX(e.show_npc_hp) FROM encounter_participants p"
    " JOIN encounters e ON e.id = p.encounter_id"
    " WHERE e.guild_id = ? AND p.character_id IS NOT NULL GROUP BY p.character_id"
)


async def seated_switches(conn: aiosqlite.Connection, guild_id: int) -> dict[int, bool]:
    """Each seated character's switch (ruling web-npc-visibility), by character id."""
    rows = await fetch_all(conn, _SEATED, (guild_id,))
    return {int(row[0]): bool(row[1]) for row in rows}


def npc_shown(character: Character, campaign: Campaign, seated: Mapping[int, bool]) -> bool:
    """The GM's switch for this character off the tracker (ruling web-npc-visibility)."""
    return seated.get(character.id, campaign.settings.show_npc_hp)


def sees_character(
    viewer: Viewer, character: Character, campaign: Campaign, seated: Mapping[int, bool]
) -> bool:
    return viewer.sees_state(
        is_pc=character.kind is CharacterKind.PC,
        owner_id=character.owner_id,
        npc_shown=npc_shown(character, campaign, seated),
    )


def sheet_conditions(conditions: Conditions) -> tuple[str, ...]:
    """ "prone", "bleeding 2": as ``/character show`` words them."""
    return tuple(
        c.value if c.kind is ConditionKind.FLAG else f"{c.value} {n}" for c, n in conditions.entries
    )


def character_vitals(character: Character, *, shown: bool) -> Vitals:
    """A character's hit points and conditions, or only its status word when hidden."""
    word = character_status(character)
    if not shown:
        return Vitals(hidden=True, hp=None, max_hp=None, status=word)
    state = character.state
    return Vitals(
        hidden=False,
        hp=state.hp,
        max_hp=character.effective.max_hp,
        temp_hp=state.temp_hp,
        status=word,
        conditions=sheet_conditions(state.conditions),
    )


def participant_conditions(p: Participant) -> tuple[str, ...]:
    """As the tracker words them: "bleeding 2", "slow (ends round 3)"."""
    timers = {e.condition: e.expires_round for e in p.effects if e.expires_round is not None}
    words = []
    for condition, value in p.conditions.entries:
        text = condition.value if value == 1 else f"{condition.value} {value}"
        if condition in timers:
            text += f" (ends round {timers[condition]})"
        words.append(text)
    return tuple(words)


def participant_vitals(p: Participant, viewer: Viewer, *, show_npc_hp: bool) -> Vitals:
    """A combatant's vitals on a tracker whose switch is ``show_npc_hp``."""
    shown = viewer.sees_state(is_pc=p.side is Side.PC, owner_id=p.owner_id, npc_shown=show_npc_hp)
    word = status_word(p)
    if not shown:
        return Vitals(hidden=True, hp=None, max_hp=None, status=word)
    return Vitals(
        hidden=False,
        hp=p.hp,
        max_hp=p.max_hp,
        temp_hp=p.temp_hp,
        status=word,
        conditions=participant_conditions(p),
    )
