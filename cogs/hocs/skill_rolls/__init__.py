"""Skill rolls for Heroes of Countless Stories: /pool, /check and /clash."""

from __future__ import annotations

from bot.client import TableBot


async def setup(bot: TableBot) -> None:
    # Imported here, when the extension loads: importing one module of this package (as
    # other packages do) must not load every cog in it.
    from cogs.hocs.skill_rolls.commands import SkillRollsCog

    await bot.add_cog(SkillRollsCog(bot))
