"""The HOCS side of the recap and /stats (``cogs.recap_commands``): its player
characters, and its rows read by ``bot.rules.hocs.recap_facts``."""

from __future__ import annotations

from collections.abc import Mapping

import aiosqlite
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.interactions.ruleset_cog import RulesetCog
from bot.rules.hocs.recap_facts import facts_of
from bot.rulesets import Ruleset
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.point_gains import gains_between
from cogs.hocs.combat.options import character_names
from cogs.recap_commands import RECAP_RULINGS, RulesetRecap, answer_stats

Ctx = commands.Context[TableBot]
SessionNumber = commands.Range[int, 1, 100_000]


async def players_of(conn: aiosqlite.Connection, guild_id: int) -> Mapping[int, str]:
    """The table's player characters: character id → name."""
    found = await CharacterRepository(conn).list(guild_id)
    return {c.id: c.name for c in found if c.kind is CharacterKind.PC}


async def player_named(conn: aiosqlite.Connection, guild_id: int, name: str) -> str | None:
    found = await CharacterRepository(conn).find(guild_id, name)
    return found.name if found is not None and found.kind is CharacterKind.PC else None


HOCS_RECAP = RulesetRecap(
    ruleset="hocs",
    facts_of=facts_of,
    players_of=players_of,
    find_player=player_named,
    gains_of=gains_between,
)


class StatsCog(RulesetCog, name="Stats"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="stats", extras={"rulings": RECAP_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        character="One player character (default: the whole table)",
        since="From this session on (default: the whole campaign)",
        private="GM: secret rolls included, answered only to you",
    )
    @app_commands.autocomplete(character=character_names)
    async def stats(
        self, ctx: Ctx, character: commands.Range[str, 1, 64] | None = None,
        since: SessionNumber = None,  # type: ignore[assignment]
        private: bool = False,
    ) -> None:  # fmt: skip
        """Rolls, successes, damage and luck by kind, for a character or the table."""
        await answer_stats(self.bot, ctx, character, since, HOCS_RECAP, private=private)
