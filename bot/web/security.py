"""Headers every answer carries, plain error pages, and logs that never hold a token.

Content-Security-Policy: everything from the bot itself (``default-src 'self'``), no
inline script or style, images also as ``data:`` (charts inlined by later pages), no
plugins, no ``<base>``, forms only to the bot. ``frame-ancestors`` (ruling
web_framing): ``'none'`` for every page but the overlay's, which says ``*``. OBS loads
a browser source as a top-level page, so it needs no framing; web-based streaming
studios and overlay composers do put a source in an ``<iframe>`` on their own origin,
which can't be listed in advance. Framing an overlay risks nothing: it has no buttons
or forms (no state-changing endpoint exists), the framer must already hold the link,
and a frame can't read what it shows. The table and GM pages have no reason to be
framed, so they refuse it.

Token pages (``/t/…``) also get ``Cache-Control: no-store`` (a shared computer or a
proxy keeps no copy of a GM screen) and ``X-Robots-Tag: noindex``; every answer has
``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` (a link
followed from a page never sends the page's address, token included, elsewhere).
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from traceback import format_exc

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

log = logging.getLogger(__name__)

_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors {frames}"
)
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Server": "tablebot",  # (aiohttp's default names itself and its version)
}
TOKEN_PAGE_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow"}
STATIC_MAX_AGE = 7 * 86_400  # static addresses carry a content hash (bot.web.rendering)
ERROR_TEXT = {404: "Not found.\n", 405: "Not allowed.\n"}
SERVER_ERROR = "Something went wrong on the bot's side (code {code}): try again later.\n"

# A token in any text: the path segment after /t/ (tokens are base64url).
_TOKEN_PATH = re.compile(r"/t/[^/\s?#\"']+")


def redact(text: str) -> str:
    """``text`` with every ``/t/<token>`` written ``/t/…``."""
    return _TOKEN_PATH.sub("/t/…", text)


def content_security_policy(frames: str = "'none'") -> str:
    return _POLICY.format(frames=frames)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Run the handler; answer its HTTP errors with plain text pages (the 403 page is
    the one ``bot.web.access`` made), its crashes with a code in the log; add the
    headers to whatever goes out."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        if exc.status in (403, 503) or exc.status < 400:  # our own bodies, redirects
            # (a fresh Response: aiohttp deprecates returning the exception itself)
            response = web.Response(status=exc.status, body=exc.body, headers=exc.headers)
        else:
            text = ERROR_TEXT.get(exc.status, f"Error {exc.status}.\n")
            response = web.Response(status=exc.status, text=text)
    except Exception:
        code = secrets.token_hex(3)
        # The route's name, never its address, and the traceback with any token in its
        # messages (a path quoted in an error) written /t/….
        route = request.match_info.route.name or "unnamed route"
        log.error("web page %s failed (code %s)\n%s", route, code, redact(format_exc()))
        response = web.Response(status=500, text=SERVER_ERROR.format(code=code))
    _add_headers(request, response)
    return response


def _add_headers(request: web.Request, response: web.StreamResponse) -> None:
    if response.prepared:  # an event stream sent its headers itself: see headers_for
        return
    for name, value in headers_for(request).items():
        response.headers.setdefault(name, value)  # (an overlay set its own policy)


def headers_for(request: web.Request) -> dict[str, str]:
    """The security headers ``request``'s answer carries. A handler that prepares its
    response itself (an event stream) adds these before ``prepare``."""
    headers = dict(SECURITY_HEADERS)
    headers["Content-Security-Policy"] = content_security_policy()
    if request.path.startswith("/t/"):
        headers.update(TOKEN_PAGE_HEADERS)
    elif request.path.startswith("/static/"):
        headers["Cache-Control"] = f"public, max-age={STATIC_MAX_AGE}"
    return headers


def allow_framing(response: web.StreamResponse) -> web.StreamResponse:
    """Let any site frame this answer (the overlay only: ruling web_framing)."""
    response.headers["Content-Security-Policy"] = content_security_policy("*")
    return response


class RedactingAccessLogger(AbstractAccessLogger):
    """aiohttp's access log without tokens: method, path (``/t/…``), status, time, at
    DEBUG on ``bot.web.requests`` (one line per page or stream; INFO would flood a bot log
    with 200 overlays reconnecting)."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.debug(
            "%s %s %s %.1f ms",
            request.method,
            redact(request.path),
            response.status,
            time * 1000,
        )

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.DEBUG)


class RedactTokens(logging.Filter):
    """For aiohttp's own loggers: a malformed request's first line, quoted in an error
    message or its traceback, may hold a token."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_FILTER = RedactTokens()


def guard_aiohttp_logs() -> None:
    """Put :class:`RedactTokens` on aiohttp's server loggers (once per process)."""
    for name in ("aiohttp.server", "aiohttp.web", "aiohttp.access"):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
