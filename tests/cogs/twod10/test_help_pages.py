"""Every 2d10 command's /help page fits Discord's embed limits and shows each of its
rulings whole, now that supplies, magic, ammo, morale and odds all add rulings."""

from __future__ import annotations

from bot.client import TableBot
from bot.render.help import command_embed, walk_leaf_commands
from bot.rulesets import Ruleset


def test_every_twod10_help_page_fits_discords_limits(bot: TableBot) -> None:
    seen = []
    for command in walk_leaf_commands(bot, [Ruleset.TWOD10]):
        seen.append(command.qualified_name)
        embed = command_embed(command)
        assert len(embed) <= 6000, command.qualified_name
        assert len(embed.fields) <= 25, command.qualified_name
        assert all(len(f.value or "") <= 1024 for f in embed.fields), command.qualified_name
        shown = "\n".join(f.value or "" for f in embed.fields)
        for ruling in command.extras.get("rulings", []):
            assert f"• {ruling}" in shown, (command.qualified_name, ruling)
    # The commands of this merge are among them.
    for name in (
        "attack",
        "task",
        "cast",
        "ritual",
        "concentration end",
        "inventory list",
        "rations eat",
        "disease expose",
        "ammo set",
        "morale roll",
        "odds attack",
    ):
        assert name in seen, name
