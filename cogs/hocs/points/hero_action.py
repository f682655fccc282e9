"""/hero spend action: 1 extra action until the end of the turn, on the tracker.

Runs inside the caller's transaction, before the hero point is spent: when the
channel's initiative encounter shows it is the character's turn, the extra action
is granted there (``grant_extra_action``: one per turn, a second is refused) and the
encounter is saved under its version; a refusal or a concurrent change rolls the
whole spend back. Without an encounter, or off the character's turn, the spend is
still allowed (a table may run combat without the tracker) and the reply says the
tracker is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite
import discord

from bot.errors import UserError
from bot.render.hocs.points import ExtraActionStatus
from bot.rules.errors import RulesError
from bot.rules.hocs.initiative import DOWN_CONDITIONS, grant_extra_action
from bot.storage.hocs.characters import Character
from bot.storage.hocs.encounters import EncounterRepository
from bot.tables.character_access import safe_name
from cogs.hocs.initiative.service import sync_characters


@dataclass(frozen=True)
class TrackerGrant:
    status: ExtraActionStatus
    actions_spent: int = 0
    actions_allowed: int = 0

    @property
    def marked(self) -> bool:
        return self.status == "marked"


def refuse_if_down(character: Character) -> None:
    """An extra action is no use to a character who can't act: keep the point."""
    held = [c.value for c in DOWN_CONDITIONS if c in character.state.conditions]
    if held:
        raise UserError(
            f"{safe_name(character.name)} is {held[0]} and can't act: keep the hero point."
        )


async def grant_on_tracker(
    conn: aiosqlite.Connection, channel_id: int, character: Character
) -> TrackerGrant:
    """Mark the extra action on the channel's tracker if it's ``character``'s turn.

    Raises UserError when the tracker refuses it (already has this turn's extra
    action) and EncounterChanged when another writer saved first.
    """
    repo = EncounterRepository(conn)
    record = await repo.get_by_channel(channel_id)
    if record is None:
        return TrackerGrant("no encounter")
    state = await sync_characters(conn, record.state)
    participant = next((p for p in state.participants if p.character_id == character.id), None)
    if participant is None:
        return TrackerGrant("not in encounter")
    slot = state.current_slot
    if not state.started or slot is None or participant.id not in slot:
        return TrackerGrant("not your turn")
    try:
        state, extra = grant_extra_action(state, participant.id)
    except RulesError as exc:
        text = discord.utils.escape_mentions(str(exc))
        raise UserError(f"{text} Keep the hero point.") from None
    await repo.save(record, state)
    return TrackerGrant("marked", extra.spent.actions, extra.allowance.actions)
