"""/attack, /damage, /hp and /condition (a package: commands, targets, adjust, choices, views)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.hocs.combat.adjust import AdjustCog
from cogs.hocs.combat.commands import CombatCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(CombatCog(bot))
    await bot.add_cog(AdjustCog(bot))
