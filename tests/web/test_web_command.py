"""/web links and /web revoke through the slash harness (and the prefix path)."""

from __future__ import annotations

import re
import time

import discord.ext.test as dpytest
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.client import TableBot
from bot.storage.campaigns import CampaignRepository, Ruleset
from bot.storage.web_secrets import WebSecretRepository
from bot.web import tokens
from bot.web.server import build_app, runner_options
from bot.web.tokens import View
from cogs.web import REVOKED, SERVER_OFF, SLASH_ONLY
from tests.support.slash import SlashHarness
from tests.web.helpers import assert_forbidden

BASE = "https://table.example.org"
LINK = re.compile(r"\[([^\]]+)\]\((https://table\.example\.org/t/([\w-]+)/)\)")
NOT_GM = "Only the GM can revoke the web links: ask someone with Manage Server or the campaign's GM role."  # noqa: E501


@pytest.fixture
def web_on(bot: TableBot) -> TableBot:
    bot.settings = bot.settings.model_copy(
        update={"web_port": 8080, "web_base_url": BASE, "web_link_days": 30}
    )
    return bot


def links(content: str | None) -> dict[str, tuple[str, str]]:
    assert content is not None
    return {label: (url, token) for label, url, token in LINK.findall(content)}


async def test_a_player_gets_the_table_only(web_on: TableBot, slash: SlashHarness) -> None:
    player = slash.members[1]
    before = int(time.time())
    result = await slash.run("web links", user=player, manage_guild=False)
    after = int(time.time())
    assert result.ephemeral and not result.embeds
    found = links(result.content)
    assert list(found) == ["Table"]
    claims = tokens.read(found["Table"][1])
    assert claims is not None
    assert (claims.guild_id, claims.user_id, claims.view, claims.secret_version) == (
        slash.guild.id, player.id, View.TABLE, 1,
    )  # fmt: skip
    assert before + 30 * 86_400 <= claims.expires_at <= after + 30 * 86_400
    assert result.content.startswith(
        f"Your web pages, valid until <t:{claims.expires_at}:D>: [Table]("
    )
    assert "GM screen" not in result.content and "revoke" not in result.content
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_the_gm_gets_three_links_that_open(web_on: TableBot, slash: SlashHarness) -> None:
    gm = slash.members[0]
    await slash.run("init begin", user=gm, manage_guild=True)
    await slash.run("init add", user=gm, manage_guild=True, name="Orc")
    result = await slash.run("web links", user=gm, manage_guild=True)
    assert result.ephemeral
    found = links(result.content)
    assert list(found) == ["Table", "GM screen", "Overlay"]
    assert [tokens.read(token).view for _, token in found.values()] == [  # type: ignore[union-attr]
        View.TABLE, View.GM, View.OVERLAY,
    ]  # fmt: skip
    assert "The overlay goes into OBS as a browser source." in result.content
    assert "/web revoke stops every link at once." in result.content
    app = build_app(web_on.db, bot=web_on)
    async with TestClient(TestServer(app, **runner_options())) as client:
        for label, (url, token) in found.items():
            response = await client.get(url.removeprefix(BASE))
            html = await response.text()
            assert response.status == 200, label
            assert slash.guild.name in html  # the bot knows its guild's name
            if label == "Overlay":  # the overlay link opens the fight itself
                assert '<h1 id="overlay-heading">Not started</h1>' in html
                assert '<span class="name">Orc</span>' in html
                continue
            # the running encounter, named by its channel from the bot's cache
            tracker = f"/t/{token}/tracker/{slash.channel.id}"
            summary = (
                f'<li><strong><a href="{tracker}">#{slash.channel.name}</a></strong>:'
                " not started; 1 combatant.</li>"
            )
            assert summary in " ".join(html.split()), label
    await dpytest.empty_queue()


async def test_a_gm_role_member_is_the_gm_too(web_on: TableBot, slash: SlashHarness) -> None:
    role = slash.make_role("Game master")
    await slash.run("campaign set", gm_role=role, manage_guild=True)
    result = await slash.run("web links", user=slash.members[1], roles=[role], manage_guild=False)
    assert list(links(result.content)) == ["Table", "GM screen", "Overlay"]
    await dpytest.empty_queue()


async def test_server_off_is_one_sentence(bot: TableBot, slash: SlashHarness) -> None:
    assert bot.settings.web_port is None
    for manage in (False, True):
        result = await slash.run("web links", manage_guild=manage)
        assert result.ephemeral and result.content == SERVER_OFF
        assert SERVER_OFF.count(".") == 1 and "WEB_PORT" in SERVER_OFF
    async with bot.db.read() as conn:  # nothing made
        assert await WebSecretRepository(conn).get(slash.guild.id) is None
    await dpytest.empty_queue()


async def test_revoke_stops_earlier_links(web_on: TableBot, slash: SlashHarness) -> None:
    gm = slash.members[0]
    old = links((await slash.run("web links", user=gm, manage_guild=True)).content)
    player_old = links((await slash.run("web links", user=slash.members[1])).content)
    result = await slash.run("web revoke", user=gm, manage_guild=True)
    assert result.ephemeral and result.content == REVOKED
    new = links((await slash.run("web links", user=gm, manage_guild=True)).content)
    assert tokens.read(new["GM screen"][1]).secret_version == 2  # type: ignore[union-attr]
    app = build_app(web_on.db, bot=web_on)
    async with TestClient(TestServer(app, **runner_options())) as client:
        for url, _ in [*old.values(), *player_old.values()]:
            response = await client.get(url.removeprefix(BASE))
            assert_forbidden(response.status, await response.text())
        for url, _ in new.values():
            assert (await client.get(url.removeprefix(BASE))).status == 200
    await dpytest.empty_queue()


async def test_a_player_cannot_revoke(web_on: TableBot, slash: SlashHarness) -> None:
    await slash.run("web links", user=slash.members[1])
    async with web_on.db.read() as conn:
        before = await WebSecretRepository(conn).get(slash.guild.id)
    result = await slash.run("web revoke", user=slash.members[1], manage_guild=False)
    assert result.ephemeral and result.content == NOT_GM
    async with web_on.db.read() as conn:
        assert await WebSecretRepository(conn).get(slash.guild.id) == before
    await dpytest.empty_queue()


async def test_a_2d10_server_has_it_too(web_on: TableBot, slash: SlashHarness) -> None:
    async with web_on.db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(slash.guild.id)
        await CampaignRepository(conn).update(slash.guild.id, ruleset=Ruleset.TWOD10)
    await web_on.command_sets.switched(slash.guild.id)
    result = await slash.run("web links", manage_guild=True)
    assert list(links(result.content)) == ["Table", "GM screen", "Overlay"]
    assert (await slash.run("web revoke", manage_guild=True)).content == REVOKED
    await dpytest.empty_queue()


async def test_the_prefix_path_never_posts_links(web_on: TableBot) -> None:
    await dpytest.message("!web")
    assert dpytest.verify().message().content(SLASH_ONLY)
    await dpytest.empty_queue()


async def test_links_are_never_logged(
    web_on: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("DEBUG"):
        result = await slash.run("web links", manage_guild=True)
    for _, token in links(result.content).values():
        assert token not in caplog.text
    await dpytest.empty_queue()
