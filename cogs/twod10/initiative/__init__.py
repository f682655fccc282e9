"""/init for 2d10 guilds: the side initiative tracker (commands, operations, service, views)."""

from __future__ import annotations

from bot.client import TableBot


async def setup(bot: TableBot) -> None:
    # Imported here, when the extension loads: importing one module of this package (as
    # other packages do) must not load every cog in it.
    from cogs.twod10.initiative.commands import SideInitiativeCog

    await bot.add_cog(SideInitiativeCog(bot))
