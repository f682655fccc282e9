"""/morale set|roll: the NPC side's morale in this channel's 2d10 encounter (GM only).

The tracker itself calls the roll when NPCs fall (cogs.twod10.initiative.morale_due);
here the GM gives the unit its score and leader, or calls a roll at any time (ruling
``morale-gm-call``). Both run as tracker operations: one versioned save each.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.interactions.user_text import echo
from bot.render.twod10.initiative import events_text
from bot.rules.twod10.initiative.model import Side
from bot.rules.twod10.morale import MoraleState, MoraleTrigger
from bot.rules.twod10.rulings import ruling
from bot.rulesets import Ruleset
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.encounters import Tracker
from bot.storage.twod10.morale import NpcMorale
from cogs.twod10.initiative import operations as ops
from cogs.twod10.initiative.commands import combatant_names
from cogs.twod10.initiative.logged_rolls import log_morale
from cogs.twod10.initiative.morale_due import (
    MORALE_SET_RULING,
    passed_triggers,
    roll_now,
    rolled_line,
)
from cogs.twod10.initiative.service import ChangeContext, Operation, SideTrackerService
from cogs.twod10.initiative.views import COG_NAME

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
Score = commands.Range[int, -25, 5]
Social = commands.Range[int, -1, 6]
RULINGS = [
    *(ruling(k).text for k in ("morale-score", "morale-down", "morale-gm-call")),
    MORALE_SET_RULING,
]


def set_morale(score: int, leader: str | None, social: int | None) -> Operation:
    """The NPC side's score and leader; triggers already met count as rolled."""

    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        ops.require_gm(ctx, "set NPC morale")
        leader_id, leader_social, named = None, 0, ""
        if leader:
            c = ops.find(ctx.tracker, leader)
            if c.side is not Side.NPCS:
                raise UserError(f"{echo(c.name)} isn't an NPC: the leader is one of the NPCs.")
            seat = ctx.tracker.seat(c.id)
            if seat is not None and seat.sheet_id is not None:
                if social is not None:
                    raise UserError(f"{echo(c.name)}'s Social comes from its sheet: drop social.")
                repo = TwoD10CharacterRepository(ctx.conn)
                sheet = await repo.get(ctx.record.guild_id, seat.sheet_id)
                leader_social = sheet.character.attributes.social if sheet is not None else 0
            else:
                leader_social = social or 0
            leader_id, named = c.id, f", led by {echo(c.name)} (social {leader_social:+d})"
        elif social is not None:
            raise UserError("social goes with leader: name the NPC who leads.")
        morale = NpcMorale(state=MoraleState(score=score), leader_id=leader_id,
                           leader_social=leader_social)  # fmt: skip
        morale = passed_triggers(morale, ctx.tracker.encounter)
        tracker = replace(ctx.tracker, morale=morale)
        return tracker, [f"🚩 NPC morale score {score:+d}{named}."]

    return run


def call_roll() -> Operation:
    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        ops.require_gm(ctx, "call a morale roll")
        morale = ctx.tracker.morale
        if morale is None:
            raise UserError("The NPCs have no morale score yet: set one with /morale set.")
        if morale.state.fled:
            raise UserError("The NPCs have already fled: /morale set gives a rallied unit a score.")
        tracker, rolled = roll_now(ctx.tracker, (MoraleTrigger.GM_CALL,), ctx.dice)
        await log_morale(ctx, rolled)
        return tracker, [rolled_line(rolled)]

    return run


class MoraleCog(RulesetCog, name="2d10 morale"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    def _service(self) -> SideTrackerService:
        cog: Any = self.bot.get_cog(COG_NAME)
        return cog.service

    async def _change(self, ctx: Ctx, operation: Operation) -> None:
        if ctx.guild is None:
            raise GuildOnly()
        service = self._service()
        outcome = await service.change(
            guild_id=ctx.guild.id, channel_id=ctx.channel.id, member=ctx.author,
            operation=operation,
        )  # fmt: skip
        await send(ctx, events_text(outcome.tracker.encounter, outcome.events) or "Done.")
        service.refresh_soon(ctx.channel)  # after the reply (bot.delivery.followups), as /init's do

    @commands.hybrid_group(name="morale", invoke_without_command=True,
                           description="2d10 NPC morale")  # fmt: skip
    @commands.guild_only()
    async def morale(self, ctx: Ctx) -> None:
        """NPC morale: set, roll."""
        raise UserError("Add a subcommand: /morale set or /morale roll.")

    @morale.command(name="set", description="GM: the NPCs' morale score and leader here",
                    extras={"rulings": RULINGS})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        score="Morale score, added to 2d10 (+5 steadfast, 0 average, -10 rabble)",
        leader="The NPC who leads (its Social is added while it stands)",
        social="A quick NPC leader's Social (a sheet's own is read from it)",
    )
    @app_commands.autocomplete(leader=combatant_names)
    async def morale_set(
        self, ctx: Ctx, score: Score, leader: Name = None,  # type: ignore[assignment]
        social: Social = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """From now on the tracker calls the roll when the first NPC falls and half are down."""
        await self._change(ctx, set_morale(score, leader, social))

    @morale.command(name="roll", description="GM: call a morale roll for the NPCs now",
                    extras={"rulings": RULINGS})  # fmt: skip
    @commands.guild_only()
    async def morale_roll(self, ctx: Ctx) -> None:
        """2d10 + score + the standing leader's Social: below 10 the NPCs flee."""
        await self._change(ctx, call_roll())


async def setup(bot: TableBot) -> None:
    await bot.add_cog(MoraleCog(bot))
