"""/clash: two sides roll, more successes wins (ties: more 6s, or the attacker)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import GuildOnly
from bot.render.hocs.skill_roll import ClashSides, clash_embed
from bot.rules.hocs.clash import ClashSide, resolve_clash
from bot.rules.hocs.luck import SNAPSHOT_KEY as LUCK_KEY
from bot.rules.hocs.luck import first_throw
from bot.storage.roll_log import RollLogRepository
from cogs.declared_options import Chosen, takes
from cogs.hocs.odds_preview import check_odds_rerolls, clash_preview
from cogs.hocs.points.common import character_choices
from cogs.hocs.points.stored import Side
from cogs.hocs.skill_rolls.clash_sides import clash_setup, opponent_choices
from cogs.hocs.skill_rolls.common import (
    determination_note,
    sheet_skill_choices,
    spend_determination,
)
from cogs.hocs.skill_rolls.options import CLASH_RULINGS
from cogs.hocs.skill_rolls.params import CLASH_OPTIONS
from cogs.hocs.skill_rolls.views import buttons_for, reply


class ClashCommands:
    """The /clash command (mixed into the skill rolls cog)."""

    bot: TableBot

    @commands.hybrid_command(name="clash", extras={"rulings": CLASH_RULINGS})
    @commands.guild_only()
    @takes(*CLASH_OPTIONS)
    async def clash(self, ctx: commands.Context[TableBot], o: Chosen) -> None:
        """Roll a clash (or an attack) against another character or a pool of dice."""
        if ctx.guild is None:
            raise GuildOnly()
        attack = o.attack
        if o.odds:
            check_odds_rerolls(max(o.rerolls, o.opponent_rerolls))
        async with self.bot.db.transaction() as conn:
            setup = await clash_setup(conn, ctx, o, spending=True)
            campaign, mine, rival, notes = setup.campaign, setup.mine, setup.rival, setup.notes
            a_spec, a_heading, b_spec, b_heading = (
                setup.a_spec, setup.a_heading, setup.b_spec, setup.b_heading
            )  # fmt: skip
            if o.determination:
                left = await spend_determination(conn, mine)
                notes.append(determination_note(mine, left))
            if rival is not None and o.opponent_determination:
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
            # The first throw, for luck (ruling luck-first-throw): a spend rewrites "clash".
            data[LUCK_KEY] = first_throw("clash", data)
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
            final = result.final
            view = await buttons_for(
                conn, logged.id, logged, unspent=(mine, rival),
                rolls={Side.A: final.a, Side.B: final.b},
            )  # fmt: skip
        embed = clash_embed(sides, result)
        if o.odds:
            # The specs are known only in the transaction; their odds don't depend on the dice.
            preview = await clash_preview(a_spec, b_spec, attack=attack)
            embed.description = f"{preview}\n{embed.description or ''}"[:4096]
        await reply(
            self.bot,
            ctx,
            logged.id,
            embed,
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
        return await opponent_choices(self.bot, interaction, current)

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
