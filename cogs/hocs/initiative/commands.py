"""/init: the initiative tracker the GM runs combat with, one encounter per channel."""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.initiative import (
    changes_embed,
    summary_embed,
    tracker_embed,
    turn_announcement,
)
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.initiative import (
    ActionKind,
    Encounter,
    InitiativeStats,
    Side,
    TurnReturned,
    TurnStarted,
    summarise,
)
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.tables.permissions import is_gm, require_gm
from bot.tracker.errors import NoEncounter
from cogs.hocs.initiative import operations as ops
from cogs.hocs.initiative.rulings import RULINGS
from cogs.hocs.initiative.service import InitiativeService, Operation, sync_characters
from cogs.hocs.initiative.views import (
    ActButton,
    EndTurnButton,
    RecoveryTestButton,
    send_test_prompts,
    turn_view,
)

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 40]
ConditionName = Literal[
    "bleeding", "dead", "defenseless", "dying", "fatigued", "flanked", "hindered",
    "outnumbered", "slow", "stable", "staggered", "unconscious", "wounded",
]  # fmt: skip
NAME_HELP = "A participant, or a group by its name"
# Encounters read at start-up (cogs.hocs.initiative.held): each ~1 ms and a few KB, so the
# first change in their channels after a restart needs only the stamp.
WARM_ENCOUNTERS = 500
GROUP_DESCRIPTION = "The initiative tracker: encounters, turns, actions and conditions"
LIST_DESCRIPTION = "Show this channel's initiative order (privately)"


async def participant_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        names = await EncounterRepository(conn).participant_names(
            interaction.channel_id or 0, current
        )
    return [app_commands.Choice(name=n, value=n) for n in names]


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        names = await CharacterRepository(conn).search_names(
            interaction.guild_id, current, owner_id=interaction.user.id
        )
    return [app_commands.Choice(name=n, value=n) for n in names]


class InitiativeCog(RulesetCog, name="Initiative"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = InitiativeService(bot)
        # A hybrid group's fallback takes the group's description: give /init list its own.
        fallback = self.init.app_command.get_command("list")
        if fallback is not None:
            fallback.description = LIST_DESCRIPTION

    async def cog_load(self) -> None:
        # Turn-message buttons from before a restart find their handlers again.
        self.bot.add_dynamic_items(ActButton, EndTurnButton, RecoveryTestButton)
        try:
            async with self.bot.db.read() as conn:
                held = await self.service.held.warm(conn, WARM_ENCOUNTERS, self.bot.shard_plan)
        except Exception:  # only a cache: the first changes read in full instead
            log.exception("could not read the running encounters at start-up")
        else:
            log.info("start-up: %d running encounters held", held)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ActButton, EndTurnButton, RecoveryTestButton)

    @commands.Cog.listener()
    async def on_characters_changed(self, guild_id: int, character_ids: tuple[int, ...]) -> None:
        """Another command changed these characters (bot events): redraw their trackers."""
        # After the reply, coalesced per guild (bot.delivery.followups): the command never waits.
        self.service.characters_changed_soon(guild_id, character_ids)

    async def _change(self, ctx: Ctx, operation: Operation, *, title: str) -> None:
        """Run an operation, answer (a turn that started, or what changed), update the tracker."""
        guild = guild_of(ctx)
        outcome = await self.service.change(
            guild_id=guild.id, channel_id=ctx.channel.id, member=ctx.author, operation=operation
        )
        state = outcome.state
        if any(isinstance(e, TurnStarted | TurnReturned) for e in outcome.events):
            announcement = turn_announcement(state, outcome.events)
            view = turn_view(outcome.record.id, state)
            await send(
                ctx,
                announcement.content,
                embed=announcement.embed,
                allowed_mentions=announcement.allowed_mentions,
                **({"view": view} if view is not None else {}),
            )
        else:
            await send(ctx, embed=changes_embed(state, outcome.events, title=title))
        await send_test_prompts(ctx.channel, outcome)
        self.service.refresh_soon(ctx.channel)

    @commands.hybrid_group(
        name="init",
        fallback="list",
        description=GROUP_DESCRIPTION,
        extras={"rulings": RULINGS["list"]},
    )
    @commands.guild_only()
    async def init(self, ctx: Ctx) -> None:
        """Show this channel's initiative order (privately)."""
        guild = guild_of(ctx)
        record = await self.service.load(ctx.channel.id)
        if record is None:
            raise NoEncounter()
        async with self.bot.db.read() as conn:
            campaign = await CampaignRepository(conn).get(guild.id)
        private = ctx.interaction is not None
        gm = campaign is not None and is_gm(ctx.author, campaign)
        show = record.state.show_npc_hp or (private and gm)
        await send(ctx, embed=tracker_embed(record.state, show_npc_hp=show), ephemeral=True)
        self.service.refresh_soon(ctx.channel)

    @init.command(name="begin", extras={"rulings": RULINGS["begin"]})
    @commands.guild_only()
    @app_commands.describe(
        social="Roll presence instead of agility (a social encounter)",
        show_npc_hp="Show NPC hit points on the tracker (default: the campaign setting)",
        skip_down="Pass over the turns of unconscious, dying and dead participants",
    )
    async def init_begin(
        self,
        ctx: Ctx,
        social: bool = False,
        show_npc_hp: bool | None = None,
        skip_down: bool = False,
    ) -> None:
        """Begin an encounter in this channel and post its tracker (GM only)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "begin an encounter")
            show = campaign.settings.show_npc_hp if show_npc_hp is None else show_npc_hp
            state = Encounter(social=social, skip_down=skip_down, show_npc_hp=show)
            await EncounterRepository(conn).create(
                guild_id=guild.id, channel_id=ctx.channel.id, gm_id=ctx.author.id, state=state
            )
        log.info("encounter begun in channel %s by %s", ctx.channel.id, ctx.author.id)
        kind = "A social encounter" if social else "Combat"
        await send(
            ctx,
            f"⚔️ {kind} begins. Players: /init join. GM: /init add, then /init next for round 1.",
        )
        self.service.refresh_soon(ctx.channel, force=True)

    @init.command(name="join", extras={"rulings": RULINGS["join"]})
    @commands.guild_only()
    @app_commands.describe(character="Which character (default: your active one)")
    @app_commands.autocomplete(character=character_names)
    async def init_join(self, ctx: Ctx, *, character: commands.Range[str, 1, 64] = "") -> None:
        """Join the encounter with your character."""
        await self._change(ctx, ops.join(character or None), title="Joined")

    @init.command(name="add", extras={"rulings": RULINGS["add"]})
    @commands.guild_only()
    @app_commands.describe(
        name="Name shown in the tracker (several are numbered: Goblin 1, Goblin 2…)",
        agility="Agility (presence is the same unless given)",
        training="Training in initiative",
        expertise="Expertise in initiative",
        side="Allies act before antagonists on a tie",
        count="How many to add",
        group="Name them as one group (each still rolls its own initiative)",
        hp="Hit points of each (leave out or 0: not tracked)",
        presence="Presence, for social encounters (leave out or 0: same as agility)",
        character="A character sheet (an NPC) to add instead of quick stats",
        group_initiative="The group rolls once and acts on one turn (with group)",
        bonus="Other bonuses: extra dice in each one's initiative pool",
        boons="Other bonuses: boons on each one's initiative roll",
    )
    @app_commands.autocomplete(character=character_names)
    async def init_add(
        self,
        ctx: Ctx,
        name: Name,
        agility: commands.Range[int, 1, 5] = 2,
        training: commands.Range[int, 0, 3] = 0,
        expertise: bool = False,
        side: Literal["antagonist", "ally"] = "antagonist",
        count: commands.Range[int, 1, 20] = 1,
        group: bool = False,
        hp: commands.Range[int, 0, 999] = 0,
        presence: commands.Range[int, 0, 5] = 0,
        character: commands.Range[str, 1, 64] = "",
        group_initiative: bool = False,
        bonus: commands.Range[int, 0, 10] = 0,
        boons: commands.Range[int, 0, 5] = 0,
    ) -> None:
        """Add NPCs: quick ones by name and stats, several or a group, or a sheet (GM only)."""
        if group_initiative and not group:
            raise UserError("Group initiative is for a group: add group:True as well.")
        if character:
            if count > 1 or group:
                raise UserError("A sheet NPC is added one at a time: leave out count and group.")
            operation = ops.add_sheet_npc(name, character, bonus=bonus, boons=boons)
            await self._change(ctx, operation, title="Added")
            return
        stats = InitiativeStats(
            agility=agility,
            presence=presence or agility,
            training=training,
            expertise=expertise,
            bonus=bonus,
            boons=boons,
        )
        operation = ops.add_quick_npcs(
            name,
            side=Side(side),
            stats=stats,
            count=count,
            group=group,
            group_roll=group_initiative,
            hp=hp or None,
        )
        await self._change(ctx, operation, title="Added")

    @init.command(name="next", extras={"rulings": RULINGS["next"]})
    @commands.guild_only()
    async def init_next(self, ctx: Ctx) -> None:
        """End the current turn and start the next (players: only your own turn)."""
        await self._change(ctx, ops.advance(), title="Next turn")

    @init.command(name="prev", extras={"rulings": RULINGS["prev"]})
    @commands.guild_only()
    async def init_prev(self, ctx: Ctx) -> None:
        """Go back to the previous turn of this round (GM only)."""
        await self._change(ctx, ops.back(), title="Back")

    @init.command(name="move", extras={"rulings": RULINGS["move"]})
    @commands.guild_only()
    @app_commands.describe(name=NAME_HELP)
    @app_commands.autocomplete(name=participant_names)
    async def init_move(self, ctx: Ctx, *, name: Name) -> None:
        """Make it someone's turn now (GM only)."""
        await self._change(ctx, ops.move(name), title="Moved")

    @init.command(name="remove", extras={"rulings": RULINGS["remove"]})
    @commands.guild_only()
    @app_commands.describe(name=NAME_HELP)
    @app_commands.autocomplete(name=participant_names)
    async def init_remove(self, ctx: Ctx, *, name: Name) -> None:
        """Take a participant or a whole group out of the encounter (GM only)."""
        await self._change(ctx, ops.remove(name), title="Removed")

    @init.command(name="act", extras={"rulings": RULINGS["act"]})
    @commands.guild_only()
    @app_commands.describe(kind="What was used", name="Who used it (default: yours)")
    @app_commands.autocomplete(name=participant_names)
    async def init_act(
        self, ctx: Ctx, kind: Literal["action", "quick", "reaction"], *, name: Name = ""
    ) -> None:
        """Mark an action, quick action or reaction as used this round."""
        await self._change(ctx, ops.act(ActionKind(kind), name or None), title="Marked")

    @init.command(name="set", extras={"rulings": RULINGS["set"]})
    @commands.guild_only()
    @app_commands.describe(
        name=NAME_HELP,
        successes="The initiative result",
        bonus="Other bonuses: extra dice in the initiative pool from the next roll",
        boons="Other bonuses: boons on the initiative roll from the next roll",
    )
    @app_commands.autocomplete(name=participant_names)
    async def init_set(
        self,
        ctx: Ctx,
        name: Name,
        successes: commands.Range[int, 0, 50] = None,  # type: ignore[assignment]
        bonus: commands.Range[int, 0, 10] = None,  # type: ignore[assignment]
        boons: commands.Range[int, 0, 5] = None,  # type: ignore[assignment]
    ) -> None:
        """Set someone's initiative result, or their bonus dice and boons (GM only)."""
        if successes is None and bonus is None and boons is None:
            raise UserError("Give successes, bonus or boons to set.")
        operation = ops.set_initiative(name, successes=successes, bonus=bonus, boons=boons)
        await self._change(ctx, operation, title="Initiative set")

    @init.command(name="effect", extras={"rulings": RULINGS["effect"]})
    @commands.guild_only()
    @app_commands.describe(
        name=NAME_HELP,
        condition="The condition",
        value="Bleeding's hit points or fatigue's instances",
        rounds="How many rounds it lasts (leave out or 0: until cleared)",
        clear="Take the condition away instead",
    )
    @app_commands.autocomplete(name=participant_names)
    async def init_effect(
        self,
        ctx: Ctx,
        name: Name,
        condition: ConditionName,
        value: commands.Range[int, 1, 20] = 1,
        rounds: commands.Range[int, 0, 100] = 0,
        clear: bool = False,
    ) -> None:
        """Give or clear a condition, optionally for some rounds (GM only)."""
        operation = ops.effect(
            name, Condition(condition), value=value, rounds=rounds or None, clear=clear
        )
        await self._change(ctx, operation, title="Conditions")

    @init.command(name="skipdown", extras={"rulings": RULINGS["skipdown"]})
    @commands.guild_only()
    @app_commands.describe(on="Skip the turns of the unconscious, dying and dead")
    async def init_skipdown(self, ctx: Ctx, on: bool) -> None:
        """Choose whether down participants' turns are skipped (GM only)."""
        await self._change(
            ctx, ops.skip_down(on), title="Skipping the down: " + ("on" if on else "off")
        )

    @init.command(name="end", extras={"rulings": RULINGS["end"]})
    @commands.guild_only()
    async def init_end(self, ctx: Ctx) -> None:
        """End the encounter with a short summary of the fight (GM only)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "end the encounter")
            repo = EncounterRepository(conn)
            record = await repo.get_by_channel(ctx.channel.id)
            if record is None:
                raise NoEncounter()
            state = await sync_characters(conn, record.state)
            await repo.delete(record)
        log.info("encounter %s ended by %s", record.id, ctx.author.id)
        embed = summary_embed(summarise(state), show_npc_hp=state.show_npc_hp)
        await send(ctx, embed=embed)
        await self.service.close_tracker(ctx.channel, record, embed)
