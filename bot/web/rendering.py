"""Templates (Jinja2 through aiohttp-jinja2, autoescape on) and the static files.

Every template extends ``base.html`` and gets: ``viewer`` (the checked
``bot.web.access.Viewer``), ``nav`` (the viewer's pages: label and address),
``guild_name`` (from Discord's cache; "" when the bot doesn't know it),
``request_path`` (the page's own address, to mark it in the navigation) and
``static(name)`` (a file of ``static/`` with a content hash in its address, so a
browser may keep it a week and still sees a new version at once).

Autoescape is on for every template, whatever its name: everything a user typed (a
character named ``<script>``) arrives as text and leaves as text. Undefined names
fail loudly (StrictUndefined) instead of rendering nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.web.access import Viewer, pages_of
from bot.web.keys import BOT

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
STATIC_PREFIX = "/static/"


def _fingerprints() -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        for path in STATIC.iterdir()
        if path.is_file()
    }


def setup_templates(app: web.Application) -> jinja2.Environment:
    """Templates and ``/static/`` for ``app``."""
    env = aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        default_helpers=False,  # (its url/static helpers need settings we don't use)
    )
    hashes = _fingerprints()

    def static(name: str) -> str:
        return f"{STATIC_PREFIX}{name}?v={hashes[name]}"  # KeyError: no such file

    env.globals["static"] = static
    app.router.add_static(STATIC_PREFIX, STATIC, name="static", follow_symlinks=False)
    return env


def guild_name(app: web.Application, guild_id: int) -> str:
    """The server's name from the bot's cache (guilds are cached without any privileged
    intent), "" when this process doesn't know it (another shard's, or no bot)."""
    bot = app.get(BOT)
    guild = bot.get_guild(guild_id) if bot is not None else None
    return guild.name if guild is not None else ""


def render_page(
    request: web.Request,
    viewer: Viewer,
    template: str,
    context: Mapping[str, Any],
    *,
    status: int = 200,
) -> web.Response:
    """``template`` rendered for ``viewer`` with the shared names and ``context``."""
    shared = {
        "viewer": viewer,
        "nav": pages_of(request.app).nav_for(viewer),
        "guild_name": guild_name(request.app, viewer.guild_id),
        "request_path": request.path,
    }
    return aiohttp_jinja2.render_template(template, request, {**shared, **context}, status=status)
