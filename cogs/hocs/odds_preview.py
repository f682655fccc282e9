"""The odds line ``odds:True`` adds to /pool, /check and /clash (no cog imports: those cogs
use it)."""

from __future__ import annotations

import asyncio

from bot.errors import UserError
from bot.render.hocs.odds import preview_line
from bot.render.hocs.odds_clash import clash_preview_line
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import pool_odds, test_odds
from bot.rules.hocs.odds_clash import clash_odds
from bot.rules.hocs.pool import PoolSpec

# The exact reroll search grows with talent rerolls (bench/odds.py): once the start-up
# warm-up (cogs.hocs.odds_warm_up) has read the precomputed states of every query of up to 3
# (odds_table_build), pools answer in under 30 ms and clashes in at most ~35 ms of CPU; 4 are
# not precomputed. /pool and /check still roll with up to 10.
ODDS_MAX_REROLLS = 3


def check_odds_rerolls(rerolls: int) -> None:
    """Refuse odds past their reroll bound, before anything is rolled or spent."""
    if rerolls > ODDS_MAX_REROLLS:
        raise UserError(
            f"Odds take at most {ODDS_MAX_REROLLS} rerolls: roll without odds, or with fewer"
            " rerolls."
        )


async def odds_preview(spec: PoolSpec, level: Difficulty | None) -> str:
    """One line of exact chances, computed in a worker thread so a slow query shares the
    interpreter with the event loop instead of stalling it."""
    check_odds_rerolls(spec.rerolls)
    pool = await asyncio.to_thread(pool_odds, spec)
    test = None if level is None else await asyncio.to_thread(test_odds, spec, level)
    return preview_line(pool, test)


async def clash_preview(a: PoolSpec, b: PoolSpec, *, attack: bool) -> str:
    """The line of exact clash chances /clash shows with ``odds:True``."""
    check_odds_rerolls(max(a.rerolls, b.rerolls))
    odds = await asyncio.to_thread(clash_odds, a, b, attack=attack)
    return clash_preview_line(odds)
