"""The web pages' data (``bot.web.views``) for a table of 10 characters and a 20-combatant
encounter, in both rulesets, beside a trivial query's floor.

``PYTHONPATH=. python -m bench.web_views [--runs R]`` seeds a temporary SQLite file with a
HOCS and a 2d10 campaign (10 characters each, half of them NPCs; one running encounter of
20 combatants, 10 linked to sheets), then builds each page R times as a player inside
``db.read()`` (the web core's way) and prints the median and p90 of each, with its ratio
to the floor: ``SELECT 1`` through the same ``db.read()``, measured in the same run. The
change check (``registry.version``) is timed the same way. Nothing is asserted: a timing
belongs in a bench that prints figures (ENGINEERING.md).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.initiative import (
    Encounter,
    InitiativeStats,
    NewParticipant,
    Side,
    add_participants,
    next_turn,
)
from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import create_character
from bot.rules.twod10.equipment import armor, weapon
from bot.rules.twod10.initiative.model import Combatant, Phase, add_combatant
from bot.rules.twod10.initiative.model import Side as TwoSide
from bot.rules.twod10.skills import Skill, SkillKey, defense
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.storage.migrations import migrate
from bot.storage.sql import fetch_one
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from bot.storage.twod10.encounters import Seat, Tracker, TwoD10EncounterRepository
from bot.web.views import registry
from bot.web.views.viewer import Viewer

HOCS_GUILD, TWOD10_GUILD, CHANNEL = 1, 2, 10
CHARACTERS, COMBATANTS = 10, 20


async def seed_hocs(db: Database) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(HOCS_GUILD)
        repo = CharacterRepository(conn)
        made = []
        for i in range(CHARACTERS):
            kind = CharacterKind.PC if i < CHARACTERS // 2 else CharacterKind.ANTAGONIST
            made.append(
                await repo.create(
                    guild_id=HOCS_GUILD, owner_id=100 + i, kind=kind,
                    sheet=CharacterSheet(name=f"Hero {i}", strength=3, agility=2, mind=2,
                                         presence=1),
                    details=CharacterDetails(armor=1, traits=("brave",)),
                )
            )  # fmt: skip
        new = [
            NewParticipant(
                name=c.name, side=Side.PC if c.kind is CharacterKind.PC else Side.ANTAGONIST,
                stats=InitiativeStats(agility=2, presence=1), owner_id=c.owner_id,
                character_id=c.id, hp=12, max_hp=12,
            )
            for c in made
        ] + [
            NewParticipant(name=f"Goblin {i}", side=Side.ANTAGONIST,
                           stats=InitiativeStats(agility=2, presence=1), hp=5, max_hp=5)
            for i in range(COMBATANTS - CHARACTERS)
        ]  # fmt: skip
        dice = RandomDice(random.Random(3))
        enc, _ = add_participants(Encounter(), new, dice)
        enc, _ = next_turn(enc, dice)
        await EncounterRepository(conn).create(
            guild_id=HOCS_GUILD, channel_id=CHANNEL, gm_id=1, state=enc
        )


async def seed_twod10(db: Database) -> None:
    async with db.transaction() as conn:
        campaigns = CampaignRepository(conn)
        await campaigns.get_or_create(TWOD10_GUILD)
        await campaigns.update(TWOD10_GUILD, ruleset=Ruleset.TWOD10)
        repo = TwoD10CharacterRepository(conn)
        tracker = Tracker()
        for i in range(COMBATANTS):
            sheet_id = None
            side = TwoSide.PLAYERS if i < CHARACTERS // 2 else TwoSide.NPCS
            if i < CHARACTERS:
                character = create_character(
                    name=f"Hero {i}", background="Smith",
                    attributes=Attributes(finesse=1, strength=1, toughness=2),
                    background_skills={SkillKey(skill=Skill.MELEE): 2,
                                       SkillKey(skill=Skill.ATHLETICS): 2,
                                       SkillKey(skill=Skill.MACHINERY): 1},
                    extra_skills={defense(Attribute.FINESSE): 2,
                                  SkillKey(skill=Skill.KNOWLEDGE, subfield="Metallurgy"): 2,
                                  SkillKey(skill=Skill.MACHINERY): 1},
                    feats=("Strong grip", "Iron lungs"), armor=armor("leather"),
                    weapons=(weapon("one-handed axe"),),
                )  # fmt: skip
                kind = TwoD10Kind.PC if side is TwoSide.PLAYERS else TwoD10Kind.ANTAGONIST
                made = await repo.create(
                    guild_id=TWOD10_GUILD, owner_id=100 + i, kind=kind, character=character
                )
                sheet_id = made.id
            c = Combatant(id=tracker.next_id, name=f"Fighter {i}", side=side, finesse=1)
            tracker = replace(
                tracker, encounter=add_combatant(tracker.encounter, c),
                seats=(*tracker.seats, (c.id, Seat(owner_id=100 + i, sheet_id=sheet_id))),
                next_id=tracker.next_id + 1,
            )  # fmt: skip
        enc = replace(
            tracker.encounter, round=1, phase=Phase.TURN, first=TwoSide.PLAYERS,
            acting=TwoSide.PLAYERS,
        )  # fmt: skip
        await TwoD10EncounterRepository(conn).create(
            guild_id=TWOD10_GUILD, channel_id=CHANNEL + 1, gm_id=1,
            tracker=replace(tracker, encounter=enc),
        )  # fmt: skip


async def timed(db: Database, runs: int, page: Callable[[Any], Awaitable[Any]]) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        async with db.read() as conn:
            await page(conn)
        times.append(time.perf_counter() - start)
    return times


def line(label: str, times: list[float], floor: float) -> str:
    ordered = sorted(times)
    p50 = statistics.median(ordered)
    p90 = ordered[int(len(ordered) * 0.9) - 1]
    return f"{label:<28} p50 {p50 * 1e3:7.3f} ms  p90 {p90 * 1e3:7.3f} ms  x{p50 / floor:6.1f}"


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            await migrate(db.connection)
            await seed_hocs(db)
            await seed_twod10(db)
            floor_times = await timed(db, runs, lambda conn: fetch_one(conn, "SELECT 1"))
            floor = statistics.median(floor_times)
            print(f"{CHARACTERS} characters, {COMBATANTS} combatants, {runs} runs each")
            print(line("floor: SELECT 1 in db.read()", floor_times, floor))
            for name, guild, channel in (("hocs", HOCS_GUILD, CHANNEL),
                                         ("2d10", TWOD10_GUILD, CHANNEL + 1)):  # fmt: skip
                player = Viewer(guild_id=guild, user_id=100, role="player")
                gm = Viewer(guild_id=guild, user_id=1, role="gm")
                pages: dict[str, Callable[[Any], Awaitable[Any]]] = {
                    "table (player)": lambda c, v=player: registry.table(c, v),
                    "table (gm)": lambda c, v=gm: registry.table(c, v),
                    "tracker (player)": lambda c, v=player, ch=channel: registry.tracker(c, v, ch),
                    "overlay": lambda c, v=gm, ch=channel: registry.overlay(c, v, ch),
                    "sheet (player)": lambda c, v=player: registry.sheet(c, v, 1),
                    "roll log (player)": lambda c, v=player: registry.roll_log(c, v),
                    "version": lambda c, g=guild: registry.version(c, g),
                }  # fmt: skip
                for label, page in pages.items():
                    print(line(f"{name} {label}", await timed(db, runs, page), floor))
        finally:
            await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    asyncio.run(main(parser.parse_args().runs))
