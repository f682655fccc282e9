"""/hero spend, give and take: hero points (player characters only)."""

from __future__ import annotations

import logging
from typing import Any, Literal

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.points import extra_action_note, hero_damage_embed, hero_point_line
from bot.rules.hocs.meta_currencies import MAX_HERO_POINTS, parse_dice_positions
from bot.rulesets import Ruleset
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.tables.character_access import safe_name
from cogs.hocs.points.common import (
    CHARACTER_HELP,
    Ctx,
    Name,
    acting_for,
    campaign_for,
    character_choices,
    gm_target,
)
from cogs.hocs.points.hero_action import grant_on_tracker, refuse_if_down
from cogs.hocs.points.hero_damage import reduce_last_hit
from cogs.hocs.points.spending import Spend, latest_roll, spend_on_roll
from cogs.hocs.points.stored import StoredRoll
from cogs.hocs.points.views import reply_with_roll

log = logging.getLogger(__name__)

DiceText = commands.Range[str, 1, 100]
Amount = commands.Range[int, 1, 10]
SPEND_ACTION = "spend their hero points"

HERO_RULINGS = [
    "Player characters only. reroll: any dice of the character's last roll points can"
    " change (/pool, /check, or its side of a /clash or /attack, attacker or defender;"
    " /roll and /damage are skipped): default every failed die, or dice:1,3; a rerolled"
    " die may be rerolled again. A clash is decided again, an attack's hit redone.",
    "determination: regain 1 determination point (refused at the maximum, point kept).",
    "action: 1 extra action until the end of the turn, one per turn. On your turn in this"
    " channel's /init encounter it is marked on the tracker (a second is refused);"
    " otherwise it is still spent and the table keeps track. Not while down.",
    "damage: 2d6 (added, can't be modified) off the damage roll of your last hit, within"
    " 15 minutes and while nothing else changed you; then toughness/mettle (a roll reduced"
    " to 0 deals nothing), HP given back, threshold test and wound check (10+) redone with"
    " the dice already rolled. Several points may reduce one hit.",
    "Refusals keep the point. Each spend is atomic: two clicks or commands at once spend"
    " one point once. The Hero reroll button rerolls every failed die.",
]
GM_OPTION_HELP = {"character": "The player character", "amount": "How many (default 1)"}
GM_RULINGS = [
    "Only the GM gives or takes hero points, and only player characters have them.",
    f"A character holds at most {MAX_HERO_POINTS} hero points; taking more than it has"
    " takes what there is.",
]


def _hero_points(count: int) -> str:
    return f"{count} hero point{'s' if count != 1 else ''}"


def _pc_only(character: Character) -> None:
    if character.kind is not CharacterKind.PC:
        raise UserError(
            f"Hero points are only for player characters, and {safe_name(character.name)}"
            " isn't one."
        )


async def _spender(conn: aiosqlite.Connection, ctx: Ctx, character: str | None) -> Character:
    """The player character spending a hero point (owner or GM) that has one left."""
    campaign = await campaign_for(conn, ctx)
    who = await acting_for(conn, ctx, campaign, character, SPEND_ACTION)
    _pc_only(who)
    if who.state.hero_points <= 0:
        raise UserError(f"{safe_name(who.name)} has no hero points left.")
    return who


class HeroCog(RulesetCog, name="Hero points"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="hero", invoke_without_command=True)
    @commands.guild_only()
    async def hero(self, ctx: Ctx) -> None:
        """Hero points: spend one, or (GM) give and take them."""
        raise UserError("Add a subcommand: /hero spend, /hero give or /hero take.")

    @hero.command(name="spend", extras={"rulings": HERO_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        option="reroll your last roll, regain determination, 1 extra action, or 2d6 off your"
        " last hit",
        dice="reroll: dice positions to reroll, e.g. 1,3 (default: every failed die)",
        character=CHARACTER_HELP,
    )
    async def hero_spend(
        self,
        ctx: Ctx,
        option: Literal["reroll", "determination", "action", "damage"],
        dice: DiceText = None,  # type: ignore[assignment]
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Spend a hero point."""
        guild_of(ctx)
        if dice is not None and option != "reroll":
            raise UserError("The dice option only goes with reroll: leave it out.")
        if option == "reroll":
            await self._reroll(ctx, dice, character)
            return
        if option == "damage":
            await self._damage(ctx, character)
            return
        if option == "action":
            await self._action(ctx, character)
            return
        async with self.bot.db.transaction() as conn:
            who = await _spender(conn, ctx, character)
            name = safe_name(who.name)
            repo = CharacterRepository(conn)
            maximum = who.effective.determination_max
            if who.state.determination >= maximum:
                raise UserError(
                    f"{name} already has all {maximum} determination points: keep the hero point."
                )
            done = await repo.hero_point_for_determination(who.id, maximum)
            if done is None:
                raise UserError(f"{name} has no hero points left.")
            left, now = done
            line = hero_point_line(name, "determination", left, f" ({now}/{maximum})")
        log.info("hero point (%s) spent for character %s", option, who.id)
        await send(ctx, line)

    async def _action(self, ctx: Ctx, character: str | None) -> None:
        """1 extra action: marked on the tracker on the character's turn (one per turn)."""
        async with self.bot.db.transaction() as conn:
            who = await _spender(conn, ctx, character)
            name = safe_name(who.name)
            refuse_if_down(who)
            grant = await grant_on_tracker(conn, ctx.channel.id, who)
            left = await CharacterRepository(conn).spend_hero_point(who.id)
            if left is None:
                raise UserError(f"{name} has no hero points left.")  # rolls the grant back
        log.info("hero point (action) spent for character %s: %s", who.id, grant.status)
        note = extra_action_note(
            name,
            grant.status,
            actions_spent=grant.actions_spent,
            actions_allowed=grant.actions_allowed,
        )
        await send(ctx, f"{hero_point_line(name, 'action', left)}\n{note}")
        if grant.marked:
            initiative: Any = self.bot.get_cog("Initiative")
            if initiative is not None:
                initiative.service.refresh_soon(ctx.channel)  # after the reply

    async def _damage(self, ctx: Ctx, character: str | None) -> None:
        """2d6 off the last hit the character received, in one transaction."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            who = await _spender(conn, ctx, character)
            name = safe_name(who.name)
            done = await reduce_last_hit(
                conn, guild_id=guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
                character=who, dice=self.bot.dice,
            )  # fmt: skip
        notify_characters_changed(self.bot, guild.id, [who.id])
        embed = hero_damage_embed(name, done.reduction, hit_title=done.hit_title, left=done.left)
        await send(ctx, embed=embed)

    async def _reroll(self, ctx: Ctx, dice: str | None, character: str | None) -> None:
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_for(conn, ctx)
            who = await acting_for(conn, ctx, campaign, character, SPEND_ACTION)
            _pc_only(who)
            logged, side = await latest_roll(conn, who)
            indices = None
            if dice is not None:
                count = len(StoredRoll.load(logged, side).roll.dice)
                indices = parse_dice_positions(dice, count)
            outcome = await spend_on_roll(
                conn, logged=logged, spend=Spend.HERO, actor=ctx.author, campaign=campaign,
                dice=self.bot.dice, indices=indices, side=side,
            )  # fmt: skip
        await reply_with_roll(ctx, campaign, outcome)

    @hero.command(name="give", extras={"rulings": GM_RULINGS})
    @commands.guild_only()
    @app_commands.describe(**GM_OPTION_HELP)
    async def hero_give(self, ctx: Ctx, character: Name, amount: Amount = 1) -> None:
        """Give hero points (GM)."""
        async with self.bot.db.transaction() as conn:
            who = await gm_target(conn, ctx, character, "give hero points")
            _pc_only(who)
            if who.state.hero_points >= MAX_HERO_POINTS:
                raise UserError(f"{safe_name(who.name)} already has {MAX_HERO_POINTS} hero points.")
            now = await CharacterRepository(conn).give_hero_points(who.id, amount, MAX_HERO_POINTS)
        given = (now or 0) - who.state.hero_points
        await send(ctx, f"The GM gave {safe_name(who.name)} {_hero_points(given)}: {now} now.")

    @hero.command(name="take", extras={"rulings": GM_RULINGS})
    @commands.guild_only()
    @app_commands.describe(**GM_OPTION_HELP)
    async def hero_take(self, ctx: Ctx, character: Name, amount: Amount = 1) -> None:
        """Take hero points (GM)."""
        async with self.bot.db.transaction() as conn:
            who = await gm_target(conn, ctx, character, "take hero points")
            _pc_only(who)
            if who.state.hero_points <= 0:
                raise UserError(f"{safe_name(who.name)} has no hero points to take.")
            done = await CharacterRepository(conn).take_hero_points(who.id, amount)
        taken, left = done if done else (0, 0)
        name = safe_name(who.name)
        await send(ctx, f"The GM took {_hero_points(taken)} from {name}: {left} left.")

    @hero_spend.autocomplete("character")
    @hero_give.autocomplete("character")
    @hero_take.autocomplete("character")
    async def hero_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)
