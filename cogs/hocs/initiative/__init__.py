"""/init: the initiative tracker (a package: commands, operations, service, views, rulings)."""

from __future__ import annotations

from bot.client import TableBot


async def setup(bot: TableBot) -> None:
    # Imported here, when the extension loads: importing one module of this package (as
    # other packages do) must not load every cog in it.
    from cogs.hocs.initiative.commands import InitiativeCog

    await bot.add_cog(InitiativeCog(bot))
