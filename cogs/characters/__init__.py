"""/character: character sheets (a package: commands, options, edits, rulings)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.characters.commands import CharactersCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(CharactersCog(bot))
