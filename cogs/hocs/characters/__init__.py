"""/character: character sheets (a package: commands, skills_traits, combat_sheet, options,
edits, lookup, rulings)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.hocs.characters.combat_sheet import CombatSheetCog


async def setup(bot: TableBot) -> None:
    # CombatSheetCog is CharactersCog plus the skill, trait and fundamentals subcommands
    # (SkillsTraitsCog) and the weapon, defenses and wounds ones.
    await bot.add_cog(CombatSheetCog(bot))
