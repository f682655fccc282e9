"""/init for 2d10 guilds: the side initiative tracker, one encounter per channel."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import only_pinging, send
from bot.interactions.choices import name_choices
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.twod10.initiative import events_text, summary_embed
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.initiative.events import ReactionWindowOpened, SideTurnStarted
from bot.rules.twod10.initiative.model import Side
from bot.rules.twod10.rulings import ruling
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.encounters import Tracker, TwoD10EncounterRepository
from bot.tables.permissions import require_gm
from cogs.twod10.initiative import operations as ops
from cogs.twod10.initiative.dying import DyingButton, send_dying_prompts
from cogs.twod10.initiative.morale_due import MORALE_SET_RULING
from cogs.twod10.initiative.service import (
    RULING_SHEETS,
    NoEncounter,
    Operation,
    Outcome,
    SideTrackerService,
)
from cogs.twod10.initiative.views import COG_NAME, ReactButton, TurnButton, reaction_view, turn_view
from cogs.twod10.survival_rulings import DYING_TRACKER

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
SideName = Literal["players", "npcs"]
ActName = Literal[
    "movement", "attack", "interact", "bonus action", "dash", "disengage", "parry", "prepare",
    "declare spell", "stand up", "load", "pick up", "release",
]  # fmt: skip
ReactName = Literal["declare", "defend", "interrupt", "undeclared", "opportunity attack"]
# The attributes an attack can target (a maneuver's defenses and finesse).
DefendName = Literal["finesse", "strength", "mind"]


def rulings(*keys: str) -> list[str]:
    return [f"{ruling(k).topic}: {ruling(k).text}" for k in keys]


async def combatant_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        record = await TwoD10EncounterRepository(conn).get_by_channel(interaction.channel_id or 0)
    if record is None:
        return []
    wanted = ops.key(current)
    names = [c.name for c in record.encounter.combatants if wanted in ops.key(c.name)]
    return name_choices(names)


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        names = await TwoD10CharacterRepository(conn).search_names(
            interaction.guild_id, current, owner_id=interaction.user.id
        )
    return [app_commands.Choice(name=n, value=n) for n in names]


def _pings(tracker: Tracker, event: SideTurnStarted) -> list[int]:
    """A players' turn pings the players of linked characters (the only pings sent)."""
    if event.side is not Side.PLAYERS:
        return []
    owners = {
        seat.owner_id
        for cid, seat in tracker.seats
        if cid in event.combatant_ids and seat.sheet_id is not None
    }
    return sorted(owners)


class SideInitiativeCog(RulesetCog, name=COG_NAME):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = SideTrackerService(bot)
        fallback = self.init.app_command.get_command("list")
        if fallback is not None:
            fallback.description = "Show this channel's 2d10 encounter (privately)"

    async def cog_load(self) -> None:
        # Turn buttons from before a restart find their handlers again.
        self.bot.add_dynamic_items(TurnButton, ReactButton, DyingButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TurnButton, ReactButton, DyingButton)

    @commands.Cog.listener()
    async def on_characters_changed(self, guild_id: int, character_ids: tuple[int, ...]) -> None:
        """Sheets changed (``bot.delivery.events``): linked combatants follow their hit points."""
        # After the reply, coalesced per guild (bot.delivery.followups): the command never waits.
        self.service.characters_changed_soon(guild_id, character_ids)

    async def _change(self, ctx: Ctx, operation: Operation) -> Outcome:
        """Run an operation, announce what happened (with turn buttons), edit the tracker."""
        guild = guild_of(ctx)
        outcome = await self.service.change(
            guild_id=guild.id, channel_id=ctx.channel.id, member=ctx.author, operation=operation
        )
        enc = outcome.tracker.encounter
        text = events_text(enc, outcome.events) or "Done."
        kwargs: dict[str, object] = {}
        for event in outcome.events:
            if isinstance(event, SideTurnStarted):
                kwargs["view"] = turn_view(outcome.record.id, event.round, event.side)
                pings = _pings(outcome.tracker, event)
                if pings:
                    text = " ".join(f"<@{i}>" for i in pings) + "\n" + text
                    kwargs["allowed_mentions"] = only_pinging(pings)
            elif isinstance(event, ReactionWindowOpened) and event.eligible:
                kwargs["view"] = reaction_view(outcome.record.id, enc.round, event.after)
        await send(ctx, text, **kwargs)
        await send_dying_prompts(ctx.channel, outcome)
        self.service.refresh_soon(ctx.channel)
        return outcome

    @commands.hybrid_group(
        name="init",
        fallback="list",
        description="The 2d10 side initiative tracker: rounds, turns, actions and reactions",
        extras={"rulings": [RULING_SHEETS]},
    )
    @commands.guild_only()
    async def init(self, ctx: Ctx) -> None:
        """Show this channel's 2d10 encounter (privately)."""
        guild_of(ctx)
        loaded = await self.service.load(ctx.channel.id)
        if loaded is None:
            raise NoEncounter()
        _, embed = loaded  # load() adds the concentrations (cogs.twod10.magic_tracker)
        await send(ctx, embed=embed, ephemeral=True)
        self.service.refresh_soon(ctx.channel)

    @init.command(name="begin", extras={"rulings": rulings("surprise")})
    @commands.guild_only()
    @app_commands.describe(surprised="A side caught unaware: the other side has a surprise round")
    async def init_begin(self, ctx: Ctx, surprised: SideName | None = None) -> None:
        """Begin a 2d10 encounter in this channel and post its tracker (GM only)."""
        guild = guild_of(ctx)
        side = Side(surprised) if surprised else None
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "begin an encounter")
            tracker = Tracker()
            if side is not None:
                tracker = replace(tracker, encounter=replace(tracker.encounter, surprised=side))
            await TwoD10EncounterRepository(conn).create(
                guild_id=guild.id, channel_id=ctx.channel.id, gm_id=ctx.author.id, tracker=tracker
            )
        log.info("2d10 encounter begun in channel %s by %s", ctx.channel.id, ctx.author.id)
        surprise = f" The {side.label} are surprised." if side else ""
        await send(
            ctx,
            f"⚔️ Combat begins.{surprise} Players: /init join. GM: /init add, then /init next.",
        )
        self.service.refresh_soon(ctx.channel, force=True)

    @init.command(name="join")
    @commands.guild_only()
    @app_commands.describe(
        character="Which 2d10 character (default: your active one)",
        unaware="Unaware of the enemy: no reaction at the end of a surprise round",
    )
    @app_commands.autocomplete(character=character_names)
    async def init_join(
        self, ctx: Ctx, character: Name | None = None, unaware: bool = False
    ) -> None:
        """Join the encounter on the players' side with your 2d10 character."""
        await self._change(ctx, ops.join(character, unaware=unaware))

    @init.command(name="add")
    @commands.guild_only()
    @app_commands.describe(
        name="A 2d10 character's name (linked to its sheet), or a quick NPC's",
        side="Default: NPCs (a linked ally or player character: players)",
        finesse="A quick NPC's finesse, for interrupt rolls (default 0)",
        count="How many quick NPCs (numbered: Goblin 1, Goblin 2…)",
        unaware="Unaware of the enemy: no reaction at the end of a surprise round",
        reach="A quick NPC with a reach weapon (advantage on interrupts as a foe closes)",
    )
    async def init_add(
        self,
        ctx: Ctx,
        name: Name,
        side: SideName | None = None,
        finesse: commands.Range[int, -1, 6] = None,  # type: ignore[assignment]  # hybrid: no | None
        count: commands.Range[int, 1, 20] = 1,
        unaware: bool = False,
        reach: bool = False,
    ) -> None:
        """Add a 2d10 character or quick NPCs to the encounter (GM only)."""
        await self._change(
            ctx,
            ops.add(
                name, side=Side(side) if side else None, finesse=finesse, count=count,
                unaware=unaware, reach=reach,
            ),
        )  # fmt: skip

    @init.command(
        name="next",
        extras={
            "rulings": [
                *rulings("momentum", "disengage-initiative", "surprise", "dying-turn"),
                DYING_TRACKER, MORALE_SET_RULING, *rulings("morale-down"),
            ]
        },
    )  # fmt: skip
    @commands.guild_only()
    async def init_next(self, ctx: Ctx) -> None:
        """Go on: initiative, the next side's turn, reactions, the next round (GM only)."""
        await self._change(ctx, ops.next_step())

    @init.command(
        name="act",
        extras={
            "rulings": rulings(
                "bonus-action", "stand-from-prone", "movement-encumbrance", "parry-expiry"
            )
            + rulings("spell-interrupted")
            + rulings("crossbow-loading")
            + rulings("pin-tracked", "pin-ends", "disarm-drops")
        },
    )
    @commands.guild_only()
    @app_commands.describe(
        action="What to mark (dash, disengage, parry, prepare, load give up the attack)"
        "; pick up; release",
        name="Which combatant (default: your own on this side)",
        feet="Movement: spend only these feet (movement can be split around actions)",
        parry="Parry: finesse + melee (or ranged) taken off the next attack on you",
    )
    @app_commands.autocomplete(name=combatant_names)
    async def init_act(
        self,
        ctx: Ctx,
        action: ActName,
        name: Name | None = None,
        feet: commands.Range[int, 1, 60] = None,  # type: ignore[assignment]
        parry: commands.Range[int, 1, 20] = None,  # type: ignore[assignment]
    ) -> None:
        """Mark an action on your side's turn, or declare a spell at the round's start."""
        await self._change(ctx, ops.act(ops.ActChoice(action), name, feet=feet, parry=parry))

    @init.command(
        name="react",
        extras={
            "rulings": rulings(
                "undeclared-after-declared",
                "opportunity-attack",
                "block-reaction",
                "defending-use",
                "defending-roll",
            )
        },
    )
    @commands.guild_only()
    @app_commands.describe(
        kind="declare or defend (round start), interrupt (its trigger came), undeclared, "
        "opportunity attack",
        name="Which combatant reacts (default: your own)",
        trigger="declare: the action you react to",
        opponent="interrupt / opportunity attack: the opponent acting or leaving",
        reach_entry="interrupt: the opponent entered your reach weapon's range (advantage)",
        attribute="defend: the attribute your defense roll guards (you roll the next attack on it)",
    )
    @app_commands.autocomplete(name=combatant_names, opponent=combatant_names)
    async def init_react(
        self,
        ctx: Ctx,
        kind: ReactName,
        name: Name | None = None,
        trigger: commands.Range[str, 1, 100] | None = None,
        opponent: Name | None = None,
        reach_entry: bool = False,
        attribute: DefendName | None = None,
    ) -> None:
        """Use or declare your one reaction this round (interrupts roll 1d8 + finesse)."""
        operation = ops.react(
            ops.ReactChoice(kind), name, trigger=trigger, opponent=opponent,
            reach_entry=reach_entry, attribute=Attribute(attribute) if attribute else None,
        )  # fmt: skip
        await self._change(ctx, operation)

    @init.command(name="down", extras={"rulings": [*rulings("momentum"), RULING_SHEETS]})
    @commands.guild_only()
    @app_commands.describe(name="The combatant who fell unconscious or died")
    @app_commands.autocomplete(name=combatant_names)
    async def init_down(self, ctx: Ctx, name: Name) -> None:
        """Mark a combatant down, counting toward momentum (GM only)."""
        await self._change(ctx, ops.set_down(name, down=True))

    @init.command(name="revive", extras={"rulings": [RULING_SHEETS]})
    @commands.guild_only()
    @app_commands.describe(name="The combatant back on their feet")
    @app_commands.autocomplete(name=combatant_names)
    async def init_revive(self, ctx: Ctx, name: Name) -> None:
        """Bring a downed combatant back (GM only)."""
        await self._change(ctx, ops.set_down(name, down=False))

    @init.command(name="remove")
    @commands.guild_only()
    @app_commands.describe(name="The combatant who leaves the encounter")
    @app_commands.autocomplete(name=combatant_names)
    async def init_remove(self, ctx: Ctx, name: Name) -> None:
        """Take a combatant out of the encounter (GM only)."""
        await self._change(ctx, ops.remove(name))

    @init.command(name="end")
    @commands.guild_only()
    async def init_end(self, ctx: Ctx) -> None:
        """End this channel's 2d10 encounter and unpin its tracker (GM only)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "end the encounter")
            record = await TwoD10EncounterRepository(conn).delete(ctx.channel.id)
        if record is None:
            raise NoEncounter()
        embed = summary_embed(record.encounter)
        await send(ctx, embed=embed)
        await self.service.close_tracker(ctx.channel, record, embed)
