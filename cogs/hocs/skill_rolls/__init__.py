"""Skill rolls for Heroes of Countless Stories: /pool, /check and /clash."""

from __future__ import annotations

from bot.client import TableBot
from cogs.hocs.skill_rolls.commands import SkillRollsCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SkillRollsCog(bot))
