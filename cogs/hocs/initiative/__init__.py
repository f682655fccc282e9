"""/init: the initiative tracker (a package: commands, operations, service, views, rulings)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.hocs.initiative.commands import InitiativeCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(InitiativeCog(bot))
