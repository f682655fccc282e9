"""Hero, fortune and determination points, and game sessions (HOCS "Meta Currencies").

Loading this extension also registers the post-roll buttons (``RollSpendButton``)
so the buttons under every /pool, /check, /clash and /attack reply work after a restart.
"""

from __future__ import annotations

from bot.client import TableBot


async def setup(bot: TableBot) -> None:
    # Imported here, when the extension loads: importing one module of this package (as
    # other packages do) must not load every cog in it.
    from cogs.hocs.points.determination import DeterminationCog
    from cogs.hocs.points.fortune import FortuneCog
    from cogs.hocs.points.hero import HeroCog
    from cogs.hocs.points.recap import StatsCog
    from cogs.hocs.points.session import SessionCog
    from cogs.hocs.points.views import RollSpendButton

    bot.add_dynamic_items(RollSpendButton)
    await bot.add_cog(SessionCog(bot))
    await bot.add_cog(StatsCog(bot))
    await bot.add_cog(HeroCog(bot))
    await bot.add_cog(FortuneCog(bot))
    await bot.add_cog(DeterminationCog(bot))


async def teardown(bot: TableBot) -> None:
    from cogs.hocs.points.views import RollSpendButton

    bot.remove_dynamic_items(RollSpendButton)
