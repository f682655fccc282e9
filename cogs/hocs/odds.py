"""/odds: the exact chance of each outcome of a roll before it is made, with a chart.

HOCS: ``/odds pool`` takes /pool's options, ``/odds check`` /check's (the pool comes
from the sheet, condition banes included), ``/odds clash`` /clash's, ``/odds damage``
/damage's typed dice or a weapon, and ``/odds party`` asks the GM's one test of every player
character (the last two answer in ``cogs.hocs.odds_damage`` and ``cogs.hocs.odds_party``).
Nothing is rolled, spent or logged; the figures come from ``bot.rules.hocs.odds*``,
which follow the same reroll, focus and guarantee policy and kept-die choice as the dice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.odds import chart_file, pool_odds_embed, test_odds_embed
from bot.render.hocs.odds_clash import clash_chart, clash_odds_embed
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import pool_odds, test_odds
from bot.rules.hocs.odds_clash import clash_odds
from bot.rules.hocs.pool import PoolSpec
from bot.rulesets import Ruleset
from cogs.declared_options import REQUIRED, Chosen, odds_twin, pick, takes, with_help
from cogs.hocs.combat.options import DAMAGE_OPTION_HELP, character_names, weapon_names
from cogs.hocs.odds_damage import ODDS_DAMAGE_RULINGS, answer_damage_odds
from cogs.hocs.odds_party import ODDS_PARTY_RULINGS, answer_party_odds
from cogs.hocs.odds_preview import ODDS_MAX_REROLLS
from cogs.hocs.odds_warm_up import start_odds_warm_up
from cogs.hocs.points.common import character_choices
from cogs.hocs.skill_rolls.clash_sides import clash_setup, opponent_choices
from cogs.hocs.skill_rolls.common import rolling_for, sheet_roll, sheet_skill_choices
from cogs.hocs.skill_rolls.options import (
    CLASH_RULINGS,
    POOL_RULINGS,
    Count,
    Name,
    Text,
    difficulty_choices,
    parse_difficulty_option,
    skill_choices,
)
from cogs.hocs.skill_rolls.params import (
    CHECK_OPTIONS,
    CLASH_OPTIONS,
    POOL_OPTIONS,
    modifiers_of,
    pool_spec,
)

log = logging.getLogger(__name__)

ODDS_RULINGS = [
    "Odds are exact (no sampling) and spend rerolls, focus and guarantees exactly as the"
    " dice do. A determination die's chain of 6s has no end: the last success count shown"
    " with a + is that many or more.",
    f"/odds takes up to {ODDS_MAX_REROLLS} talent rerolls: the exact search over more is"
    " too slow to answer in time.",
    *POOL_RULINGS[:2],
]
ODDS_CLASH_RULINGS = [
    "A clash's odds are the whole clash's: the repeats of deadlocked rounds are summed"
    " exactly (a geometric series), and a stand-off is what is left after the 20-round limit.",
    "Nothing is spent: the opponent's determination is only counted as spent.",
    *CLASH_RULINGS[:4],
]


# /check's skill, difficulty, boons and banes: the same bounds and parsing, their help
# saying they are everyone's. A party test needs a difficulty to be a chance of success.
PARTY_OPTIONS = tuple(
    replace(o, kind=str, default=REQUIRED) if o.name == "difficulty" else o
    for o in with_help(
        pick(CHECK_OPTIONS, "skill", "difficulty", "boons", "banes"),
        {
            "skill": "Skill or attribute every player character rolls",
            "boons": "Boons for everyone (any net boon adds 1d6)",
            "banes": "Banes for everyone, besides each one's conditions'",
        },
    )
)

# /damage's options, less its threshold test's; each amount is applied, none rolled.
_THRESHOLD_OPTIONS = ("threshold", "threshold_determination")
_DAMAGE_HELP = {k: v for k, v in DAMAGE_OPTION_HELP.items() if k not in _THRESHOLD_OPTIONS} | {
    "target": "Apply each amount to this character's hit points and toughness",
    "toughness": "Toughness or mettle to reduce the damage by (without a target)",
}


async def _answer(
    ctx: commands.Context[TableBot], title: str, spec: PoolSpec, level: Difficulty | None
) -> None:
    if ctx.interaction is not None:
        # Large pools with many modifiers can take longer than Discord's 3 seconds.
        await ctx.defer()
    # In a worker thread: a slow query (many dice, focus and rerolls together) then
    # shares the interpreter with the event loop instead of stalling it.
    if level is None:
        odds = await asyncio.to_thread(pool_odds, spec)
        embed = pool_odds_embed(title, odds)
        chart = chart_file(odds, None)
    else:
        test = await asyncio.to_thread(test_odds, spec, level)
        embed = test_odds_embed(title, test)
        chart = chart_file(test.pool, int(level) if level.needs_roll else 0)
    await send(ctx, embed=embed, file=chart)


class OddsCog(RulesetCog, name="Odds"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        start_odds_warm_up()  # a daemon thread: off the event loop

    @commands.hybrid_group(name="odds")
    async def odds(self, ctx: commands.Context[TableBot]) -> None:
        """Exact chances of a roll before you make it."""

    @odds.command(name="pool", extras={"rulings": ODDS_RULINGS})
    @takes(*odds_twin(POOL_OPTIONS))
    async def odds_pool(self, ctx: commands.Context[TableBot], o: Chosen) -> None:
        """The exact chances of a pool of d6s, optionally against a difficulty."""
        level = parse_difficulty_option(o.difficulty)
        await _answer(ctx, f"Odds: {o.dice}d6", pool_spec(o), level)

    @odds.command(name="check", extras={"rulings": ODDS_RULINGS})
    @commands.guild_only()
    @takes(*odds_twin(CHECK_OPTIONS))
    async def odds_check(self, ctx: commands.Context[TableBot], o: Chosen) -> None:
        """The exact chances of a skill or attribute from a sheet, condition banes applied."""
        if ctx.guild is None:
            raise GuildOnly()
        level = parse_difficulty_option(o.difficulty)
        # Read only: nothing is spent, so the transaction just reads the sheet.
        async with self.bot.db.transaction() as conn:
            _, who = await rolling_for(conn, ctx, o.character)
            spec, heading = sheet_roll(who, o.skill, **modifiers_of(o))  # type: ignore[arg-type]
        await _answer(ctx, f"Odds: {heading.who}, {heading.what}"[:256], spec, level)

    @odds.command(name="clash", extras={"rulings": ODDS_CLASH_RULINGS})
    @commands.guild_only()
    @takes(*odds_twin(CLASH_OPTIONS))
    async def odds_clash(self, ctx: commands.Context[TableBot], o: Chosen) -> None:
        """The exact chance each side wins a clash (or an attack), before it is rolled."""
        if ctx.guild is None:
            raise GuildOnly()
        # Read only: nothing is spent, so the transaction just reads the sheets.
        async with self.bot.db.transaction() as conn:
            setup = await clash_setup(conn, ctx, o, spending=False)
        if ctx.interaction is not None:
            await ctx.defer()
        odds = await asyncio.to_thread(clash_odds, setup.a_spec, setup.b_spec, attack=o.attack)
        a = f"{setup.a_heading.who} ({setup.a_heading.what})"
        b = f"{setup.b_heading.who} ({setup.b_heading.what})"
        title = f"Odds: {'attack' if o.attack else 'clash'}, {a} vs {b}"
        embed = clash_odds_embed(title, a, b, odds)
        sides = (setup.a_heading.who, setup.b_heading.who)  # the chart names its sides
        await send(ctx, embed=embed, file=clash_chart(odds, sides=sides))

    @odds.command(name="damage", extras={"rulings": ODDS_DAMAGE_RULINGS})
    @app_commands.describe(**_DAMAGE_HELP)
    @app_commands.autocomplete(target=character_names, character=character_names, dice=weapon_names)
    async def odds_damage(
        self,
        ctx: commands.Context[TableBot],
        dice: Text,
        target: Name = None,  # type: ignore[assignment]
        damage_type: Text = None,  # type: ignore[assignment]
        nonlethal: bool = False,
        toughness: Count = 0,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """The exact damage of dice or a weapon (many dice, one result) and what it does."""
        if ctx.interaction is not None:
            await ctx.defer()
        await answer_damage_odds(
            self.bot, ctx, dice=dice, target=target, damage_type=damage_type,
            nonlethal=nonlethal, toughness=toughness, character=character,
        )  # fmt: skip

    @odds.command(name="party", extras={"rulings": ODDS_PARTY_RULINGS})
    @commands.guild_only()
    @takes(*PARTY_OPTIONS)
    async def odds_party(self, ctx: commands.Context[TableBot], o: Chosen) -> None:
        """GM: every player character's exact chance at one test, best first."""
        if ctx.guild is None:
            raise GuildOnly()
        level = parse_difficulty_option(o.difficulty)
        if level is None:
            raise UserError("Give a difficulty: a number 0–10 or a name such as Hard.")
        await answer_party_odds(
            self.bot, ctx, skill=o.skill, level=level, boons=o.boons, banes=o.banes
        )

    @odds_pool.autocomplete("difficulty")
    @odds_party.autocomplete("difficulty")
    @odds_check.autocomplete("difficulty")
    async def odds_difficulty_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return difficulty_choices(current)

    @odds_party.autocomplete("skill")
    async def odds_party_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        # The whole party rolls it: the standard skills and attributes, no one sheet's.
        return skill_choices(current, None)

    @odds_check.autocomplete("character")
    @odds_clash.autocomplete("character")
    async def odds_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)

    @odds_clash.autocomplete("opponent")
    async def odds_opponent_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await opponent_choices(self.bot, interaction, current)

    @odds_clash.autocomplete("opponent_skill")
    async def odds_opponent_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await sheet_skill_choices(
            self.bot, interaction, current, whose="opponent", active=False
        )

    @odds_check.autocomplete("skill")
    @odds_clash.autocomplete("skill")
    async def odds_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await sheet_skill_choices(
            self.bot, interaction, current, whose="character", active=True
        )


async def setup(bot: TableBot) -> None:
    await bot.add_cog(OddsCog(bot))
