"""/init for 2d10 guilds: the side initiative tracker (commands, operations, service, views)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.twod10.initiative.commands import SideInitiativeCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SideInitiativeCog(bot))
