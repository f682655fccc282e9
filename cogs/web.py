"""/web links and /web revoke: the member's own links to the table's web pages.

Rulings (docs/web.md, /help):

* ``web_links``: a player's links open the table; the GM's (Manage Server or the GM
  role, checked when the links are made) also the GM screen and the stream overlay.
  A link works for WEB_LINK_DAYS days (30 by default) or until ``/web revoke``.
* ``web_revoke``: the GM rotates the server's secret; every earlier link, of every
  member, stops working at once, open pages included.

The links are answered privately (ephemeral) and only to a slash command: a prefix
command's answer is public, and a link is as good as its holder. Nothing logs them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.storage.web_secrets import WebSecretRepository
from bot.tables.permissions import is_gm, require_gm
from bot.web.links import Link, links_for

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]

SERVER_OFF = "The operator hasn't turned the web pages on (WEB_PORT), so there are no links yet."
SLASH_ONLY = "Ask with the slash command /web links: its answer is private, a channel's isn't."
REVOKED = (
    "Every earlier web link of this server stopped working: members get new ones with /web links."
)
RULINGS = {
    "links": [
        "A player's links open the table; the GM's (Manage Server or the GM role, checked"
        " when the links are made) also the GM screen and the stream overlay. A link works"
        " for the operator's WEB_LINK_DAYS (30 days by default) or until /web revoke.",
        "Anyone holding a link sees its page: the links are answered privately, to the"
        " slash command only.",
    ],
    "revoke": [
        "The GM rotates the server's link secret: every earlier link, of every member,"
        " stops working at once."
    ],
}


def links_text(links: list[Link]) -> str:
    """The private answer: the links as markdown links and when they expire."""
    expiry = links[0].expires_at
    listed = " · ".join(f"[{link.label}]({link.url})" for link in links)
    lines = [
        f"Your web pages, valid until <t:{expiry}:D>: {listed}",
        "-# Anyone holding a link sees its page: don't post it."
        + (" The overlay goes into OBS as a browser source." if len(links) > 1 else "")
        + (" /web revoke stops every link at once." if len(links) > 1 else ""),
    ]
    return "\n".join(lines)


class WebCog(commands.Cog, name="Web pages"):
    def __init__(self, bot: TableBot, *, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.clock = clock

    @commands.hybrid_group(name="web", fallback="links", extras={"rulings": RULINGS["links"]})
    @commands.guild_only()
    async def web(self, ctx: Ctx) -> None:
        """Your own links to the table's web pages (answered privately)."""
        guild = guild_of(ctx)
        settings = self.bot.settings
        if settings.web_port is None:
            await send(ctx, SERVER_OFF, ephemeral=True)
            return
        if ctx.interaction is None:
            raise UserError(SLASH_ONLY)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            secret = await WebSecretRepository(conn).get_or_create(guild.id)
        links = links_for(
            guild_id=guild.id,
            user_id=ctx.author.id,
            is_gm=is_gm(ctx.author, campaign),
            secret=secret,
            base_url=settings.web_links_base,
            now=self.clock(),
            days=settings.web_link_days,
        )
        log.info("web links for a member of guild %s: %d views", guild.id, len(links))
        await send(ctx, links_text(links), ephemeral=True)

    @web.command(name="revoke", extras={"rulings": RULINGS["revoke"]})
    @commands.guild_only()
    async def web_revoke(self, ctx: Ctx) -> None:
        """Stop every earlier web link of this server at once (GM only)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            require_gm(ctx.author, campaign, "revoke the web links")
            rotated = await WebSecretRepository(conn).rotate(guild.id)
        log.info("web links of guild %s revoked (secret version %d)", guild.id, rotated.version)
        await send(ctx, REVOKED, ephemeral=True)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(WebCog(bot))
