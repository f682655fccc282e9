"""/character for the 2d10 system (a package of modules: commands, edits, options, access)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.twod10.character_edits import TwoD10CharacterEdits


async def setup(bot: TableBot) -> None:
    # TwoD10CharacterEdits is the /character group (create, show, list, select, delete)
    # plus edit and advance.
    await bot.add_cog(TwoD10CharacterEdits(bot))
