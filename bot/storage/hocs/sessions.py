"""HOCS sessions: the campaign's sessions (``bot.storage.sessions``) started by the plan
of its hero-point rules (adventures in one-shot mode, the hero point handed out)."""

from __future__ import annotations

from bot.rules.hocs.meta_currencies import PreviousSession, SessionPlan
from bot.storage.sessions import GameSession, SessionAlreadyRunning
from bot.storage.sessions import SessionRepository as PlainSessions

__all__ = ["GameSession", "SessionAlreadyRunning", "SessionRepository", "previous_of"]


def previous_of(session: GameSession) -> PreviousSession:
    return PreviousSession(
        adventure=session.adventure, one_shot=session.one_shot, running=session.running
    )


class SessionRepository(PlainSessions):
    async def start_planned(
        self, guild_id: int, plan: SessionPlan, *, one_shot: bool, started_by: int
    ) -> GameSession:
        """Insert the next session as ``plan`` says (its adventure, its hero point)."""
        return await self.start(
            guild_id, started_by=started_by, adventure=plan.adventure, one_shot=one_shot,
            hero_points_given=plan.hero_points is not None,
        )  # fmt: skip
