"""/character: character sheets (a package: commands, options, edits, rulings, combat_sheet)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.characters.combat_sheet import CombatSheetCog


async def setup(bot: TableBot) -> None:
    # CombatSheetCog is CharactersCog plus the weapon, defenses and wounds subcommands.
    await bot.add_cog(CombatSheetCog(bot))
