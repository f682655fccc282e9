"""The links ``/web`` hands a member: which views, signed with the server's secret.

A player gets the table; the GM also the GM screen and the overlay. Each link is
``WEB_BASE_URL/t/<token>/`` and expires ``WEB_LINK_DAYS`` days after it was made.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.web_secrets import WebSecret
from bot.web import tokens
from bot.web.tokens import View

LABELS = {View.TABLE: "Table", View.GM: "GM screen", View.OVERLAY: "Overlay"}


@dataclass(frozen=True)
class Link:
    view: View
    label: str
    url: str
    expires_at: int  # Unix seconds


def views_for(*, is_gm: bool) -> tuple[View, ...]:
    return (View.TABLE, View.GM, View.OVERLAY) if is_gm else (View.TABLE,)


def links_for(
    *,
    guild_id: int,
    user_id: int,
    is_gm: bool,
    secret: WebSecret,
    base_url: str,
    now: float,
    days: int,
) -> list[Link]:
    """The member's links, in the order ``/web`` shows them."""
    found = []
    for view in views_for(is_gm=is_gm):
        token = tokens.issue(
            guild_id=guild_id,
            user_id=user_id,
            view=view,
            secret=secret.secret,
            version=secret.version,
            now=now,
            days=days,
        )
        found.append(Link(view, LABELS[view], f"{base_url}/t/{token}/", int(now) + days * 86_400))
    return found
