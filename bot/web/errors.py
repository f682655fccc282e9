"""The web server's one start-up error (apart, so ``python -m bot`` can name it without
importing the web stack)."""

from __future__ import annotations


class WebServerUnavailable(Exception):
    """The web server can't listen where the settings say (a StartupError's line)."""
