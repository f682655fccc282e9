"""Rest and respite (HOCS Part 1, "Resting", "Respite"): regaining hit points and points."""

from __future__ import annotations

from bot.client import TableBot
from cogs.hocs.resting.respite import RespiteCog
from cogs.hocs.resting.rest import RestCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(RestCog(bot))
    await bot.add_cog(RespiteCog(bot))
