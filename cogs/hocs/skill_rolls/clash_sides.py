"""The two sides of a clash from /clash's options: shared by /clash and /odds clash."""

from __future__ import annotations

from dataclasses import dataclass, field

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.render.hocs.skill_roll import RollHeading
from bot.render.text import safe_line
from bot.rules.hocs.pool import PoolSpec
from bot.storage.campaigns import Campaign
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.tables.character_access import UnknownCharacter
from cogs.declared_options import Chosen
from cogs.hocs.access import may_act_for
from cogs.hocs.skill_rolls.common import rolling_for, sheet_roll
from cogs.hocs.skill_rolls.options import opponent_pool_size
from cogs.hocs.skill_rolls.params import modifiers_of


@dataclass(frozen=True)
class ClashSetup:
    campaign: Campaign
    mine: Character
    rival: Character | None
    a_spec: PoolSpec
    a_heading: RollHeading
    b_spec: PoolSpec
    b_heading: RollHeading
    notes: list[str] = field(default_factory=list)


async def clash_setup(
    conn: aiosqlite.Connection,
    ctx: commands.Context[TableBot],
    o: Chosen,
    *,
    spending: bool,
) -> ClashSetup:
    """Both sides' pools (sheets, conditions and injuries included) from /clash's options
    (``cogs.hocs.skill_rolls.params``). ``spending``: the opponent's determination is really
    spent, so only its owner or the GM may ask."""
    assert ctx.guild is not None
    size = opponent_pool_size(o.opponent)
    notes: list[str] = []
    campaign, me = await rolling_for(conn, ctx, o.character)
    a_spec, a_heading = sheet_roll(me, o.skill, **modifiers_of(o))  # type: ignore[arg-type]
    theirs = modifiers_of(o, prefix="opponent_")
    rival: Character | None = None
    if size is not None:
        if theirs["determination"]:
            raise UserError(
                "A plain pool has no determination points: leave out"
                " opponent_determination, or name a character."
            )
        b_spec = PoolSpec(base=size, **theirs)  # type: ignore[arg-type]
        b_heading = RollHeading(who="Opponent", what=f"{size}d6")
        if o.opponent_skill:
            notes.append("The opponent is a plain pool, so opponent_skill was not used.")
    else:
        rival = await CharacterRepository(conn).find(ctx.guild.id, o.opponent)
        if rival is None:
            raise UnknownCharacter(o.opponent)
        if rival.id == me.id:
            raise UserError(f"{safe_line(me.name)} can't clash with itself: pick another opponent.")
        if spending and theirs["determination"] and not may_act_for(ctx.author, campaign, rival):
            raise UserError(
                f"Only {safe_line(rival.name)}'s owner or the GM can spend its"
                " determination: leave out opponent_determination."
            )
        their_skill = o.opponent_skill or ("defense" if o.attack else o.skill)
        b_spec, b_heading = sheet_roll(rival, their_skill, **theirs)  # type: ignore[arg-type]
    return ClashSetup(campaign, me, rival, a_spec, a_heading, b_spec, b_heading, notes)


async def opponent_choices(
    bot: TableBot, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """A pool size typed so far, then the characters whose names match."""
    choices: list[app_commands.Choice[str]] = []
    try:
        size = opponent_pool_size(current) if current.strip() else None
    except UserError:
        size = None
    if size is not None:
        choices.append(app_commands.Choice(name=f"{size} dice (a plain pool)", value=str(size)))
    if interaction.guild_id is not None:
        async with bot.db.read() as conn:
            names = await CharacterRepository(conn).search_names(interaction.guild_id, current[:64])
        choices.extend(app_commands.Choice(name=n, value=n) for n in names)
    return choices[:25]
