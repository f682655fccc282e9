"""Rest and respite (HOCS Part 1, "Resting", "Respite"): regaining hit points and points."""

from __future__ import annotations

from bot.client import TableBot


async def setup(bot: TableBot) -> None:
    # Imported here, when the extension loads: importing one module of this package (as
    # other packages do) must not load every cog in it.
    from cogs.hocs.resting.respite import RespiteCog
    from cogs.hocs.resting.rest import RestCog

    await bot.add_cog(RestCog(bot))
    await bot.add_cog(RespiteCog(bot))
