"""Shared pieces of the reliability suite: a seeded table, a DB fingerprint, the figures."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot import error_handler
from bot.client import TableBot
from bot.storage.campaigns import CampaignRepository
from bot.storage.characters import Character, CharacterKind, CharacterRepository
from tests.cogs.test_check import make_character
from tests.cogs.test_roll_buttons import grant, set_points
from tests.reliability.figures import FIGURES
from tests.support.slash import SlashHarness

# Tables whose every row is compared; roll_log is compared too (it may only grow on success).
FINGERPRINT_TABLES = (
    "campaigns",
    "characters",
    "active_characters",
    "fortune_points",
    "roll_log",
    "encounters",
    "encounter_participants",
    "encounter_effects",
    "damage_choices",
    "sessions",
)


async def fingerprint(bot: TableBot) -> dict[str, str]:
    """A hash of every row of every campaign table (so any write shows)."""
    out: dict[str, str] = {}
    async with bot.db.read() as conn:
        for table in FINGERPRINT_TABLES:
            digest = hashlib.sha256()
            async with conn.execute(f"SELECT * FROM {table} ORDER BY rowid") as cursor:
                rows = await cursor.fetchall()
            for row in rows:
                digest.update(repr(tuple(row)).encode())
            out[table] = f"{len(rows)}:{digest.hexdigest()[:16]}"
    return out


@dataclass
class Table:
    """A seeded campaign: the GM, two players, their PCs, an NPC, an encounter, a roll."""

    gm: discord.Member
    owner: discord.Member  # owns Mira
    other: discord.Member  # owns Bram
    mira: Character
    bram: Character
    ogre: Character

    def as_gm(self) -> dict[str, Any]:
        return {"user": self.gm, "manage_guild": True}

    def actor(self, who: str) -> dict[str, Any]:
        if who == "gm":
            return self.as_gm()
        return {"user": self.owner if who == "owner" else self.other, "manage_guild": False}


async def seed_table(bot: TableBot, slash: SlashHarness) -> Table:
    gm, owner, other = slash.members[0], slash.members[1], slash.members[2]
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(slash.guild.id)
    mira = await make_character(bot, owner, "Mira", training={"athletics": 1})
    bram = await make_character(bot, other, "Bram")
    ogre = await make_character(bot, gm, "Ogre", kind=CharacterKind.ANTAGONIST)
    await set_points(bot, mira, hero_points=2)
    await set_points(bot, bram, hero_points=1)
    await grant(bot, mira, "luck")
    await grant(bot, bram, "luck")
    await slash.run("init begin", user=gm, manage_guild=True)
    await slash.run("init add", user=gm, manage_guild=True, name="Goblin", hp=5, count=2)
    await slash.run("init join", user=owner)
    await slash.run("init join", user=other)
    await slash.run("check", user=owner, skill="athletics")
    await slash.run("check", user=other, skill="strength")
    async with bot.db.read() as conn:
        repo = CharacterRepository(conn)
        mira, bram, ogre = [await repo.get(c.id) for c in (mira, bram, ogre)]  # type: ignore[misc]
    return Table(gm=gm, owner=owner, other=other, mira=mira, bram=bram, ogre=ogre)  # type: ignore[arg-type]


def is_sentence(text: str) -> bool:
    """One readable sentence: no traceback, no error code, ends with a full stop.

    (A refusal may start or be filled with echoed user input, so only its end is read.)
    """
    text = text.rstrip()
    return bool(text) and "Traceback" not in text and "error code" not in text and text[-1] in ".!?"


@pytest.fixture
def refusals(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every answer the shared error handler gives (the refusals), in order."""
    seen: list[str] = []
    original = error_handler.send_ephemeral_to_interaction

    async def recording(interaction: Any, content: str) -> None:
        seen.append(content)
        await original(interaction, content)

    monkeypatch.setattr(error_handler, "send_ephemeral_to_interaction", recording)
    return seen


@pytest.fixture
async def table(bot: TableBot, slash: SlashHarness) -> Table:
    return await seed_table(bot, slash)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    labels = {
        "inputs": "bad inputs tried (slash commands with arbitrary options)",
        "refusals": "  of which refused (ephemeral one sentence, nothing written)",
        "permission_cases": "permission cases (command x GM/owner/other)",
        "raced": "operations raced (simultaneous commands, clicks, cross-process writes)",
        "kills": "SIGKILLs survived (integrity ok, every op all-or-nothing)",
        "kill_ops": "  ops committed across those kills, all checked",
        "secret_checks": "places searched for the token",
    }
    for key, label in labels.items():
        if key in FIGURES:
            terminalreporter.write_line(f"{label}: {FIGURES[key]}")
    for key, value in sorted(FIGURES.items()):
        if key not in labels:
            terminalreporter.write_line(f"{key}: {value}")
