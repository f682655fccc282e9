"""/attack, /damage, /hp and /condition (a package: commands, targets, adjust, choices, views)."""

from __future__ import annotations

from bot.client import TableBot


async def setup(bot: TableBot) -> None:
    # Imported here, when the extension loads: importing one module of this package (as
    # other packages do) must not load every cog in it.
    from cogs.hocs.combat.adjust import AdjustCog
    from cogs.hocs.combat.commands import CombatCog

    await bot.add_cog(CombatCog(bot))
    await bot.add_cog(AdjustCog(bot))
