"""Shared pieces of the reliability suite: a seeded table, a DB fingerprint, the figures."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.client import TableBot
from bot.interactions import error_handler
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from tests.cogs.test_check import make_character
from tests.cogs.test_roll_buttons import grant, set_points
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
    "twod10_characters",
    "twod10_active_characters",
    "twod10_encounters",
    "twod10_calendar",
    "twod10_rations",
    "twod10_infections",
    "twod10_items",
)


async def fingerprint(bot: TableBot) -> dict[str, str]:
    """A hash of every row of every campaign table (so any write shows)."""
    if bot.db.backend == "postgresql":
        return await _fingerprint_on_the_server(bot)
    out: dict[str, str] = {}
    async with bot.db.read() as conn:
        for table in FINGERPRINT_TABLES:
            digest = hashlib.sha256()
            async with conn.execute(f"SELECT * FROM {table}") as cursor:
                rows = await cursor.fetchall()
            for row in sorted(rows, key=lambda row: repr(tuple(row))):
                digest.update(repr(tuple(row)).encode())
            out[table] = f"{len(rows)}:{digest.hexdigest()[:16]}"
    return out


async def _fingerprint_on_the_server(bot: TableBot) -> dict[str, str]:
    # The same count and hash of every row, computed by PostgreSQL in one round trip
    # (seventeen queries and their rows over the socket cost more than the command).
    # A row's text form holds every column; sorted, so the order rows come in is moot.
    query = " UNION ALL ".join(
        f"SELECT '{table}', COUNT(*), md5(COALESCE(string_agg(t::text, E'\\n'"
        f" ORDER BY t::text), '')) FROM {table} AS t"
        for table in FINGERPRINT_TABLES
    )
    async with bot.db.read() as conn:
        rows = await conn.execute_fetchall(query)
    return {table: f"{count}:{digest[:16]}" for table, count, digest in rows}


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


async def use_ruleset(bot: TableBot, slash: SlashHarness, table: Table, ruleset: str) -> None:
    """Play the seeded guild under ``ruleset`` (idempotent: examples share the table).

    The 2d10 system gets its own Mira (the owner's, active), Bram (the other player's)
    and Ogre (the GM's antagonist), so fuzzed names hit real 2d10 sheets too.
    """
    from bot.rules.twod10.attributes import Attributes
    from bot.rules.twod10.character import create_character
    from bot.rules.twod10.skills import Skill, SkillKey
    from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind

    guild_id = slash.guild.id
    async with bot.db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(guild_id)
        if campaign.ruleset.value == ruleset:
            return
        await conn.execute(
            "UPDATE campaigns SET ruleset = ? WHERE guild_id = ?", (ruleset, guild_id)
        )
        repo = TwoD10CharacterRepository(conn)
        if ruleset == "2d10" and not await repo.list(guild_id):
            for name, member, kind in (
                ("Mira", table.owner, TwoD10Kind.PC),
                ("Bram", table.other, TwoD10Kind.PC),
                ("Ogre", table.gm, TwoD10Kind.ANTAGONIST),
            ):
                sheet = await repo.create(
                    guild_id=guild_id, owner_id=member.id, kind=kind,
                    character=create_character(
                        name=name, background="Sailor",
                        attributes=Attributes(finesse=2, strength=1, toughness=1),
                        background_skills={SkillKey(skill=Skill.ATHLETICS): 2,
                                           SkillKey(skill=Skill.MELEE): 2,
                                           SkillKey(skill=Skill.STEALTH): 1},
                        extra_skills={SkillKey(skill=Skill.PERCEPTION): 2,
                                      SkillKey(skill=Skill.INSIGHT): 2,
                                      SkillKey(skill=Skill.STEALTH): 1},
                        feats=("Sea legs", "Knots"),
                    ),
                )  # fmt: skip
                if kind is TwoD10Kind.PC:
                    await repo.set_active(guild_id, member.id, sheet.id)
    await bot.command_sets.switched(guild_id)


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
