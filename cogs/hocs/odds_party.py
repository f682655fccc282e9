"""/odds party: the GM's view of one test across every player character's sheet."""

from __future__ import annotations

import asyncio

from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.render.hocs.odds_party import PartyRow, party_odds_embed
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import test_odds
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.tables.permissions import require_gm
from cogs.hocs.skill_rolls.common import sheet_roll

ODDS_PARTY_RULINGS = [
    "GM only: one line per living player character (allies and antagonists left out), best"
    " chance first, each with its own condition and injury banes; boons and banes given"
    " apply to everyone. A character who can't roll the skill (an untrained special"
    " skill) is listed last, saying why.",
]


async def answer_party_odds(
    bot: TableBot,
    ctx: commands.Context[TableBot],
    *,
    skill: str,
    level: Difficulty,
    boons: int,
    banes: int,
) -> None:
    assert ctx.guild is not None
    # get_or_create may write the campaign row: a transaction, though nothing else changes.
    async with bot.db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
        require_gm(ctx.author, campaign, "ask the odds of the whole party")
        characters = await CharacterRepository(conn).list(ctx.guild.id)
    rows: list[PartyRow] = []
    specs = []
    for character in characters:
        if character.kind is not CharacterKind.PC:
            continue
        if Condition.DEAD in character.state.conditions:
            continue
        try:
            spec, heading = sheet_roll(character, skill, boons=boons, banes=banes)
        except UserError as exc:
            # The message is already escaped for display (sheet_pool).
            rows.append(PartyRow(character.name, "", 0, None, why=str(exc)))
            continue
        specs.append((character.name, heading.what, spec))
    if ctx.interaction is not None:
        await ctx.defer()

    def compute() -> list[PartyRow]:
        return [
            PartyRow(who, what, spec.dice_count, test_odds(spec, level))
            for who, what, spec in specs
        ]

    rows += await asyncio.to_thread(compute)
    embed, chart = party_odds_embed(skill[:100], level, rows)
    await send(ctx, embed=embed, file=chart)
