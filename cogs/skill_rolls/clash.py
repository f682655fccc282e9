"""/clash: two sides roll, more successes wins (ties: more 6s, or the attacker)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.character_access import UnknownCharacter, may_act_for
from bot.client import TableBot
from bot.errors import GuildOnly, UserError
from bot.render.skill_roll import ClashSides, RollHeading, clash_embed, escape
from bot.rules.hocs.clash import ClashSide, resolve_clash
from bot.rules.hocs.pool import PoolSpec
from bot.storage.characters import Character, CharacterRepository
from bot.storage.roll_log import RollLogRepository
from cogs.points.common import character_choices
from cogs.skill_rolls.common import (
    determination_note,
    rolling_for,
    sheet_roll,
    sheet_skill_choices,
    spend_determination,
)
from cogs.skill_rolls.options import (
    CLASH_OPTION_HELP,
    CLASH_RULINGS,
    Count,
    Name,
    Rerolls,
    Text,
    opponent_pool_size,
)
from cogs.skill_rolls.views import buttons_for, reply


class ClashCommands:
    """The /clash command (mixed into the skill rolls cog)."""

    bot: TableBot

    @commands.hybrid_command(name="clash", extras={"rulings": CLASH_RULINGS})
    @commands.guild_only()
    @app_commands.describe(**CLASH_OPTION_HELP)
    async def clash(
        self,
        ctx: commands.Context[TableBot],
        skill: Text,
        opponent: Name,
        opponent_skill: Text = None,  # type: ignore[assignment]
        attack: bool = False,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: Rerolls = 0,
        guaranteed: Count = 0,
        determination: bool = False,
        opponent_boons: Count = 0,
        opponent_banes: Count = 0,
        opponent_focus: Count = 0,
        opponent_rerolls: Rerolls = 0,
        opponent_guaranteed: Count = 0,
        opponent_determination: bool = False,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Roll a clash (or an attack) against another character or a pool of dice."""
        if ctx.guild is None:
            raise GuildOnly()
        size = opponent_pool_size(opponent)
        notes: list[str] = []
        theirs = {
            "boons": opponent_boons,
            "banes": opponent_banes,
            "focus": opponent_focus,
            "rerolls": opponent_rerolls,
            "guaranteed": opponent_guaranteed,
            "determination": opponent_determination,
        }
        async with self.bot.db.transaction() as conn:
            campaign, mine = await rolling_for(conn, ctx, character)
            a_spec, a_heading = sheet_roll(
                mine, skill, boons=boons, banes=banes, focus=focus, rerolls=rerolls,
                guaranteed=guaranteed, determination=determination,
            )  # fmt: skip
            rival: Character | None = None
            if size is not None:
                if opponent_determination:
                    raise UserError(
                        "A plain pool has no determination points: leave out"
                        " opponent_determination, or name a character."
                    )
                b_spec = PoolSpec(base=size, **theirs)
                b_heading = RollHeading(who="Opponent", what=f"{size}d6")
                if opponent_skill:
                    notes.append("The opponent is a plain pool, so opponent_skill was not used.")
            else:
                rival = await CharacterRepository(conn).find(ctx.guild.id, opponent)
                if rival is None:
                    raise UnknownCharacter(opponent)
                if rival.id == mine.id:
                    raise UserError(
                        f"{escape(mine.name)} can't clash with itself: pick another opponent."
                    )
                if opponent_determination and not may_act_for(ctx.author, campaign, rival):
                    raise UserError(
                        f"Only {escape(rival.name)}'s owner or the GM can spend its"
                        " determination: leave out opponent_determination."
                    )
                their_skill = opponent_skill or ("defense" if attack else skill)
                b_spec, b_heading = sheet_roll(rival, their_skill, **theirs)
            if determination:
                left = await spend_determination(conn, mine)
                notes.append(determination_note(mine, left))
            if rival is not None and opponent_determination:
                left = await spend_determination(conn, rival)
                notes.append(determination_note(rival, left))
            result = resolve_clash(a_spec, b_spec, dice=self.bot.dice, attack=attack)
            sides = ClashSides(a=a_heading, b=b_heading, notes=tuple(notes))
            data = {
                "a_heading": a_heading.to_dict(),
                "b_heading": b_heading.to_dict(),
                "opponent_character_id": rival.id if rival else None,
                "clash": result.to_dict(),
                "notes": notes,
                "revision": 0,
            }
            winner = {ClashSide.A: "a", ClashSide.B: "b", None: "stand-off"}[result.winner]
            logged = await RollLogRepository(conn).add(
                guild_id=ctx.guild.id,
                channel_id=ctx.channel.id,
                user_id=ctx.author.id,
                kind="clash",
                expression=(
                    f"clash {a_heading.what} vs {b_heading.who} {b_heading.what}"
                    f"{' (attack)' if attack else ''} → {winner}"
                )[:500],
                result=data,
                total=result.final.a.successes,
                secret=False,
                character_id=mine.id,
                opponent_id=rival.id if rival else None,
            )
            view = await buttons_for(conn, logged.id, logged, unspent=(mine, rival))
        await reply(
            self.bot,
            ctx,
            logged.id,
            clash_embed(sides, result),
            campaign=campaign,
            secret=False,
            view=view,
        )

    @clash.autocomplete("character")
    async def clash_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)

    @clash.autocomplete("opponent")
    async def opponent_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        choices: list[app_commands.Choice[str]] = []
        try:
            size = opponent_pool_size(current) if current.strip() else None
        except UserError:
            size = None
        if size is not None:
            choices.append(app_commands.Choice(name=f"{size} dice (a plain pool)", value=str(size)))
        if interaction.guild_id is not None:
            async with self.bot.db.read() as conn:
                names = await CharacterRepository(conn).search_names(
                    interaction.guild_id, current[:64]
                )
            choices.extend(app_commands.Choice(name=n, value=n) for n in names)
        return choices[:25]

    @clash.autocomplete("skill")
    async def clash_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await sheet_skill_choices(
            self.bot, interaction, current, whose="character", active=True
        )

    @clash.autocomplete("opponent_skill")
    async def opponent_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await sheet_skill_choices(
            self.bot, interaction, current, whose="opponent", active=False
        )
