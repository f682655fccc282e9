"""What a tracker operation may look at while its write transaction is open, for every
ruleset: each ruleset's ``ChangeContext`` adds the fight's state in its own shape (HOCS
``state``, 2d10 ``tracker``) to these fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import aiosqlite
import discord

from bot.rules.dice_source import Dice
from bot.storage.campaigns import Campaign

RecordT = TypeVar("RecordT")


@dataclass(frozen=True, kw_only=True)
class TrackerChange(Generic[RecordT]):
    conn: aiosqlite.Connection
    campaign: Campaign
    record: RecordT  # the stored encounter the change starts from
    member: discord.abc.User
    is_gm: bool
    dice: Dice
