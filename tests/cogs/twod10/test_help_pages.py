"""Every 2d10 command's /help page fits Discord's embed limits and shows each of its
rulings whole, now that supplies, magic, ammo, morale and odds all add rulings."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.render.help import command_pages, walk_leaf_commands
from bot.rulesets import Ruleset
from tests.support.slash import SlashHarness


def test_every_twod10_help_page_fits_discords_limits(bot: TableBot) -> None:
    seen = []
    for command in walk_leaf_commands(bot, [Ruleset.TWOD10]):
        seen.append(command.qualified_name)
        pages = command_pages(command)
        for embed in pages:  # each page is one message: 6000 characters
            assert len(embed) <= 6000, command.qualified_name
            assert len(embed.fields) <= 25, command.qualified_name
            assert all(len(f.value or "") <= 1024 for f in embed.fields), command.qualified_name
        shown = "\n".join(f.value or "" for e in pages for f in e.fields)
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


async def test_a_help_page_too_long_for_one_message_goes_on_in_another(
    bot: TableBot, slash: SlashHarness
) -> None:
    # /attack's rulings no longer fit Discord's 6000 characters per message: the page
    # continues in a second private message, and each ruling is shown once, whole.
    await slash.run("campaign set", ruleset="2d10", user=slash.members[0], manage_guild=True)
    result = await slash.run("help", command="attack", user=slash.members[1])
    messages = [r.message for r in result.responses if r.message]
    assert len(messages) == 2 and all(r.ephemeral for r in result.responses if r.message)
    first, more = (m["embeds"][0] for m in messages)
    assert first["title"].startswith("/attack") and "(rulings, continued)" in more["title"]
    for embed in (first, more):
        size = len(embed.get("title", "")) + len(embed.get("description", ""))
        size += sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
        assert size <= 6000
    shown = "\n".join(f["value"] for e in result.all_embeds for f in e.get("fields", []))
    attack = next(c for c in walk_leaf_commands(bot, [Ruleset.TWOD10]) if c.name == "attack")
    for ruling in attack.extras["rulings"]:
        assert shown.count(f"• {ruling}") == 1, ruling
    await dpytest.empty_queue()
