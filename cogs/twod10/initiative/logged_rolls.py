"""The tracker's own dice in the roll log, in the change's transaction: each round's side
initiative d6, each interrupt's two d8 and each morale roll (every die the bot rolls is
logged, as /task and /attack log theirs)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules.twod10.initiative.events import InitiativeRolled
from bot.rules.twod10.initiative.reactions import InterruptRoll
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.encounters import TrackerRecord
from bot.tracker.change import TrackerChange
from cogs.twod10.initiative.morale_due import MoraleRolled
from cogs.twod10.survival_log import log_roll


async def log_tracker_rolls(
    ctx: TrackerChange[TrackerRecord], events: Iterable[object], morale: Iterable[MoraleRolled] = ()
) -> None:
    """One roll-log row per die-rolling event of a tracker change."""
    repo = RollLogRepository(ctx.conn)
    where = {"guild_id": ctx.record.guild_id, "channel_id": ctx.record.channel_id}
    for event in events:
        if isinstance(event, InitiativeRolled):
            await repo.record(
                **where, user_id=ctx.member.id, kind="2d10-initiative",
                expression=f"side initiative, round {event.round}: d6 "
                + ", ".join(map(str, event.faces)),
                result={
                    "ruleset": "2d10", "round": event.round, "faces": list(event.faces),
                    "kept": event.kept, "npc_range": list(event.npc_range),
                    "player_range": list(event.player_range), "winner": event.winner.value,
                    # the side whose disengaging gave advantage: equal faces can't tell it
                    "advantage": event.advantage.value if event.advantage else None,
                },
                total=event.kept, secret=False,
            )  # fmt: skip
        elif isinstance(event, InterruptRoll):
            await repo.record(
                **where, user_id=ctx.member.id, kind="2d10-interrupt",
                expression=f"interrupt: 1d8 {'/'.join(map(str, event.reactor_faces))}"
                f" + {event.reactor_finesse} vs 1d8 {event.opponent_face}"
                f" + {event.opponent_finesse}",
                result={
                    "ruleset": "2d10", "reactor_id": event.reactor_id,
                    "opponent_id": event.opponent_id, "reactor_faces": list(event.reactor_faces),
                    "reactor_total": event.reactor_total, "opponent_face": event.opponent_face,
                    "opponent_total": event.opponent_total, "reacts_first": event.reacts_first,
                },
                total=event.reactor_total, secret=False,
            )  # fmt: skip
    for rolled in morale:
        await log_morale(ctx, rolled)


async def log_morale(ctx: TrackerChange[TrackerRecord], rolled: MoraleRolled) -> None:
    result = rolled.result
    await log_roll(
        ctx.conn, guild_id=ctx.record.guild_id, channel_id=ctx.record.channel_id,
        user_id=ctx.member.id, kind="2d10-morale",
        expression=f"morale roll: {result.roll.total}", result=result.roll,
        details={
            "triggers": [t.value for t in result.triggers], "flees": result.flees,
            "leader": rolled.leader,
        },
    )  # fmt: skip
