"""A deleted character leaving the fights it was in, for every ruleset (ruling
seat-deleted): each encounter's change made in the delete's own transaction, then after
the reply each channel told and its tracker redrawn. A ruleset gives the change and the
telling; the order, the refusals that skip a channel and the follow-up's key are here."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol, TypeVar

from bot.errors import UserError
from bot.rules.errors import RulesError

log = logging.getLogger(__name__)


class Saved(Protocol):
    """An encounter change as saved: its record carries the id and the new version."""

    @property
    def record(self) -> Any: ...


OutcomeT = TypeVar("OutcomeT", bound=Saved)


class NobodyLeft(Exception):
    """The character sits in no seat of that encounter (removed already)."""


async def leave_each(
    channels: Iterable[int], change: Callable[[int], Awaitable[OutcomeT]]
) -> list[tuple[int, OutcomeT]]:
    """``change`` in each channel; a channel it refuses (nobody seated there any more, or
    a user or rules refusal: nothing was written) is skipped and the delete goes on."""
    left: list[tuple[int, OutcomeT]] = []
    for channel_id in channels:
        try:
            outcome = await change(channel_id)
        except (NobodyLeft, UserError, RulesError):
            continue
        left.append((channel_id, outcome))
    return left


def tell_soon(
    bot: Any,
    guild_id: int,
    left: list[tuple[int, OutcomeT]],
    tell: Callable[[Any, OutcomeT], Awaitable[None]],
    *,
    what: str,
) -> None:
    """After the delete's reply (``bot.delivery.followups``): ``tell(channel, outcome)``
    in each channel the character left (it redraws the tracker too)."""
    followups = getattr(bot, "followups", None)
    if not left or followups is None:
        return

    async def work() -> None:
        for channel_id, outcome in left:
            channel = bot.get_channel(channel_id) or bot.get_partial_messageable(
                channel_id, guild_id=guild_id
            )
            try:
                await tell(channel, outcome)
            except Exception:
                log.exception("could not tell channel %s that a deleted %s left", channel_id, what)

    # One key per saved change: a second delete soon after must not replace this news.
    saved = tuple((outcome.record.id, outcome.record.version) for _, outcome in left)
    followups.schedule((f"deleted {what}", guild_id, saved), work)
