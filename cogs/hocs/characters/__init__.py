"""/character: character sheets (a package: commands, skills_traits, combat_sheet, options,
edits, lookup, rulings)."""

from __future__ import annotations

from bot.client import TableBot


async def setup(bot: TableBot) -> None:
    # Imported here, when the extension loads: importing one module of this package (as
    # other packages do) must not load every cog in it.
    from cogs.hocs.characters.combat_sheet import CombatSheetCog

    # CombatSheetCog is CharactersCog plus the skill, trait and fundamentals subcommands
    # (SkillsTraitsCog) and the weapon, defenses and wounds ones.
    await bot.add_cog(CombatSheetCog(bot))
