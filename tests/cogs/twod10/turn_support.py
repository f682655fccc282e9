"""A step for the 2d10 tests that need a later turn: attacks now take the attack action
(ruling attack-action), so a second attack, or one after a load, waits for a new turn."""

from __future__ import annotations

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import gm, script
from tests.support.slash import SlashHarness, SlashResult


async def next_players_turn(bot: TableBot, slash: SlashHarness) -> SlashResult:
    """From the players' turn (the players going first) to their turn next round: the end
    of their turn, the NPCs' turn and its end, the new round's declarations, and the GM's
    d6 rolling 1 again. Returns the new turn's message (with its buttons)."""
    script(bot)  # nothing is rolled until the d6
    for _ in range(4):
        await slash.run("init next", **gm(slash))
    script(bot, 1)
    turn = await slash.run("init next", **gm(slash))
    assert "The Players' turn" in (turn.content or ""), turn.content
    return turn
