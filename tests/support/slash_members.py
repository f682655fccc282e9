"""The harness's member cache, empty while the bot works, as production's is.

Production runs without the privileged members intent, so ``guild.get_member``,
``role.members`` and ``guild.owner`` find nobody there. dpytest can only build its
guild's members into that cache (the fixtures enable the intent for that alone), and
keeps them there so ``dpytest.add_role`` works between interactions; each interaction
runs with every member but the bot itself taken out, and the REST member read answers
as Discord does.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import discord
import discord.ext.test.factories as dpytest_facts
from discord.ext import commands


class HiddenMembers:
    def __init__(self, bot: commands.Bot, guild: Callable[[], discord.Guild]) -> None:
        self.bot = bot
        self._guild = guild
        self.hidden: dict[int, discord.Member] = {}  # members out of the cache meanwhile
        self._hiding = 0  # interactions running with the cache emptied

    def hide(self) -> None:
        """Empty the member cache while the bot handles an interaction."""
        self._hiding += 1  # interactions may overlap (asyncio.gather in a test)
        guild = self._guild()
        me = self.bot.user.id  # type: ignore[union-attr]
        for member_id in [m for m in guild._members if m != me]:
            self.hidden[member_id] = guild._members.pop(member_id)

    def restore(self) -> None:
        self._hiding -= 1
        if self._hiding == 0:
            self._guild()._members.update(self.hidden)
            self.hidden.clear()

    def install_member_rest(self) -> None:
        """``GET /guilds/{id}/members/{id}`` as Discord answers it: any member by id,
        cached or not (dpytest's fake reads the cache); 404 Unknown Member otherwise."""

        async def get_member(guild_id: int, member_id: int) -> Any:
            member = self.hidden.get(int(member_id)) or self._guild().get_member(int(member_id))
            if member is None:
                response = SimpleNamespace(status=404, reason="Not Found")
                raise discord.NotFound(response, {"code": 10007, "message": "Unknown Member"})  # type: ignore[arg-type]
            return dpytest_facts.dict_from_member(member)

        self.bot.http.get_member = get_member  # type: ignore[method-assign]
