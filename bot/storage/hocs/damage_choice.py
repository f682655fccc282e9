"""An open damage-die choice as stored in ``damage_choices`` (``bot.storage.hocs.combat``
writes and reads them): the value, its row's mapping, and the text form of its expiry."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.rules.hocs.attack import HitInputs, PriorRolls, Vitals


def timestamp(moment: datetime) -> str:
    """The text form stored (and compared) in ``expires_at``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class DamageChoice:
    """A damage roll whose kept die can still be switched."""

    id: int
    guild_id: int
    channel_id: int
    user_id: int
    attacker_id: int | None
    target_id: int | None
    intro: dict[str, Any]
    inputs: HitInputs
    rolls: PriorRolls
    chosen_index: int
    before: Vitals | None
    after: Vitals | None
    message_id: int | None
    expires_at: str
    # The ``inputs`` text as read or written: what a hero reroll's compare-and-set compares.
    stored_inputs: str = field(default="", compare=False, repr=False)

    def expired(self, now: datetime) -> bool:
        return self.expires_at < timestamp(now)


def choice_from_row(row: aiosqlite.Row) -> DamageChoice:
    before, after = row["before_state"], row["after_state"]
    return DamageChoice(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        user_id=row["user_id"],
        attacker_id=row["attacker_id"],
        target_id=row["target_id"],
        intro=json.loads(row["intro"]),
        inputs=HitInputs.from_dict(json.loads(row["inputs"])),
        rolls=PriorRolls.from_dict(json.loads(row["rolls"])),
        chosen_index=row["chosen_index"],
        before=Vitals.from_dict(json.loads(before)) if before else None,
        after=Vitals.from_dict(json.loads(after)) if after else None,
        message_id=row["message_id"],
        expires_at=row["expires_at"],
        stored_inputs=row["inputs"],
    )
