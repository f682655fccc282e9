"""Who is looking: the token in a page's address, checked, as a :class:`Viewer`.

Every page under ``/t/{token}/`` is registered through :class:`TokenPages`, whose
wrapper resolves the viewer before the page's handler runs, so no handler can forget
the check. Every refusal, whatever its reason (forged, expired, revoked, another
server's, a view the page doesn't serve), is the one :func:`forbidden` response: the
same status and body, so a visitor learns nothing, not even whether the server exists.

Ruling (web_is_gm): a viewer is the GM when their link is a GM-screen link. The bot
cannot ask Discord who holds a role while a page loads (no members intent), so the
role was checked when ``/web`` handed the link out; a GM who loses the role keeps
their link until it expires or the GM runs ``/web revoke``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from aiohttp import web

from bot.storage.web_secrets import WebSecretRepository
from bot.web import tokens
from bot.web.keys import CLOCK, DB, PAGES
from bot.web.tokens import Claims, Refusal, View

log = logging.getLogger(__name__)

FORBIDDEN_HTML = (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
    "<title>Link not valid</title></head>\n<body><h1>Link not valid</h1>\n"
    "<p>This link doesn't open anything. Ask for a new one with /web links in Discord.</p>"
    "</body></html>\n"
)


def forbidden() -> web.HTTPForbidden:
    """The one refusal for every bad link (raise it)."""
    return web.HTTPForbidden(text=FORBIDDEN_HTML, content_type="text/html")


@dataclass(frozen=True)
class Viewer:
    """Whom a page is for, from a checked token."""

    guild_id: int
    user_id: int
    view: View
    token: str  # to build links to the viewer's other pages; never logged

    @property
    def is_gm(self) -> bool:
        """Sees everything, hidden NPC state included (ruling web_is_gm)."""
        return self.view is View.GM

    def link(self, path: str = "") -> str:
        """The address (path only) of one of this viewer's pages, ``""`` the home."""
        return f"/t/{self.token}/{path}"


async def check_token(app: web.Application, token: str) -> Claims | Refusal:
    """Check ``token`` against its server's current secret (one read of the database).

    The event-stream pages call this again now and then, so a ``/web revoke`` closes
    streams already open too.
    """
    claims = tokens.read(token)
    if claims is None:
        return Refusal.MALFORMED
    async with app[DB].single(sees_deferred=False) as conn:
        found = await WebSecretRepository(conn).get(claims.guild_id)
    secret = found.secret if found is not None else None
    version = found.version if found is not None else None
    return tokens.verify(token, secret, version, now=app[CLOCK]())


async def resolve_viewer(request: web.Request, views: Collection[View]) -> Viewer:
    """The viewer of ``request``'s token if it is valid and its view is one of
    ``views``; else raise :func:`forbidden`."""
    token = request.match_info.get("token", "")
    checked = await check_token(request.app, token)
    if isinstance(checked, Refusal):
        log.debug("refused a web link: %s", checked.value)  # (the reason, never the token)
        raise forbidden()
    if checked.view not in views:
        raise forbidden()
    return Viewer(checked.guild_id, checked.user_id, checked.view, token)


Page = Callable[[web.Request, Viewer], Awaitable[web.StreamResponse]]


class TokenPages:
    """Where page modules register their pages (see ``bot.web.server.PAGE_MODULES``).

    ``pages.add("sheet/{character_id}", handler, views={View.TABLE, View.GM})`` serves
    ``/t/{token}/sheet/3`` to those views; ``pages.home(View.GM, handler)`` makes
    ``handler`` the page ``/t/{token}/`` shows a GM-screen link. A handler gets the
    request and the checked :class:`Viewer`.
    """

    def __init__(self, app: web.Application) -> None:
        self._app = app
        self._homes: dict[View, tuple[Page, str | None]] = {}
        self._nav: list[tuple[str, str, frozenset[View]]] = []  # label, path, views
        app[PAGES] = self
        app.router.add_get("/t/{token}", _to_home, name="token-bare")
        app.router.add_get("/t/{token}/", self._home, name="token-home")

    def home(self, view: View, page: Page, *, nav: str | None = None) -> None:
        """Make ``page`` the home page of ``view``'s links (one per view); ``nav``: its
        label in the pages' navigation."""
        if view in self._homes:
            raise ValueError(f"the {view.value} view already has a home page")
        self._homes[view] = (page, nav)

    def add(
        self,
        path: str,
        page: Page,
        *,
        views: Collection[View],
        name: str,
        nav: str | None = None,
    ) -> None:
        """Serve ``/t/{token}/<path>`` (GET) to links of ``views``; ``nav``: the page's
        label in the navigation (a page with parameters in its path has none)."""
        if not path or path.startswith("/"):
            raise ValueError("a page's path is relative to /t/{token}/ and not empty")
        allowed = frozenset(views)
        if nav is not None:
            if "{" in path:
                raise ValueError("a page with parameters in its path can't be in the navigation")
            self._nav.append((nav, path, allowed))

        async def checked(request: web.Request) -> web.StreamResponse:
            viewer = await resolve_viewer(request, allowed)
            return await page(request, viewer)

        self._app.router.add_get(f"/t/{{token}}/{path}", checked, name=name)

    def close(self) -> None:
        """After every page: any other address under ``/t/{token}/`` is the 403 page
        for a bad link and "not found" for a good one, so an unknown address tells a
        bad link nothing either (``bot.web.server.build_app`` calls this)."""
        self._app.router.add_get("/t/{token}/{rest:.*}", _unknown_page, name="token-unknown")

    def nav_for(self, viewer: Viewer) -> list[tuple[str, str]]:
        """The pages ``viewer`` may open, as (label, address), the home first."""
        home = self._homes.get(viewer.view)
        found = [(home[1], viewer.link())] if home is not None and home[1] else []
        found += [
            (label, viewer.link(path)) for label, path, views in self._nav if viewer.view in views
        ]
        return found

    async def _home(self, request: web.Request) -> web.StreamResponse:
        viewer = await resolve_viewer(request, self._homes)
        return await self._homes[viewer.view][0](request, viewer)


def pages_of(app: web.Application) -> TokenPages:
    return app[PAGES]


async def _unknown_page(request: web.Request) -> web.StreamResponse:
    await resolve_viewer(request, frozenset(View))
    raise web.HTTPNotFound()


async def _to_home(request: web.Request) -> web.StreamResponse:
    # Pages link to each other relative to /t/{token}/: send the bare address there
    # (the Location holds the visitor's own token; nothing logs it).
    raise web.HTTPFound(f"/t/{request.match_info['token']}/")


def wall_clock() -> float:
    return time.time()
