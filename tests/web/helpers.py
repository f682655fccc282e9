"""Making servers, characters and links for the web tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.hocs.character import CharacterSheet
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.web_secrets import WebSecretRepository
from bot.web import tokens
from bot.web.access import FORBIDDEN_HTML
from bot.web.tokens import View

NOW = 1_800_000_000.0
GUILD, OTHER_GUILD = 100, 200
PLAYER, GM = 11, 22


@dataclass
class Clock:
    now: float

    def __call__(self) -> float:
        return self.now


async def add_character(
    db: Any, name: str, *, owner: int = PLAYER, kind: CharacterKind = CharacterKind.PC,
    guild: int = GUILD,
) -> None:  # fmt: skip
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild)
        await CharacterRepository(conn).create(
            guild_id=guild,
            owner_id=owner,
            kind=kind,
            sheet=CharacterSheet(name=name, strength=3, agility=2, mind=2, presence=1),
            details=CharacterDetails(armor=0, traits=("bold", "witty", "skeptical")),
        )


async def link_token(
    db: Any, view: View = View.TABLE, *, guild: int = GUILD, user: int = PLAYER,
    now: float = NOW, days: int = 30,
) -> str:  # fmt: skip
    """A token as /web would hand out (the server's secret made if missing)."""
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild)
        secret = await WebSecretRepository(conn).get_or_create(guild)
    return tokens.issue(
        guild_id=guild, user_id=user, view=view, secret=secret.secret,
        version=secret.version, now=now, days=days,
    )  # fmt: skip


async def revoke(db: Any, guild: int = GUILD) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild)
        await WebSecretRepository(conn).rotate(guild)


def assert_forbidden(status: int, body: str) -> None:
    assert status == 403
    assert body == FORBIDDEN_HTML
