"""A second process writing to the bot's database through the real repositories.

``python -m tests.reliability.worker race DB CHARACTER GUILD COUNT GO``
    waits for the file GO, then COUNT times: one transaction that spends a hero point
    (conditional UPDATE) and, in its own transaction, logs a roll and takes 1 HP.
    Prints one JSON line: how many spends succeeded, refusals, and any error text.

``python -m tests.reliability.worker loop DB CHARACTER GUILD CHANNEL``
    writes "commands" forever until killed. Each command is one transaction holding
    its effects plus a row in ``reliability_ops`` (the ledger) saying what it did:

    * ``det``:  a roll_log row + one determination spent (or the pool refilled);
    * ``hp``:   hit points ±1;
    * ``turn``: the channel's encounter advanced one turn (``next_turn`` + ``save``).

    The parent kills it with SIGKILL at random moments and checks that the effects
    equal the ledger: every command fully applied or not at all.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.initiative.turns import next_turn
from bot.storage.character_vitals import CharacterVitalsRepository
from bot.storage.characters import CharacterRepository
from bot.storage.database import Database
from bot.storage.encounters import EncounterRepository
from bot.storage.roll_log import RollLogRepository

LEDGER = (
    "CREATE TABLE IF NOT EXISTS reliability_ops ("
    " id INTEGER PRIMARY KEY, kind TEXT NOT NULL, delta INTEGER NOT NULL)"
)
ROLL_KIND = "reliability"


async def log_roll(conn, guild: int, character: int) -> None:  # type: ignore[no-untyped-def]
    await RollLogRepository(conn).record(
        guild_id=guild, channel_id=None, user_id=1, kind=ROLL_KIND, expression="1d6",
        result={"faces": [random.randint(1, 6)]}, total=None, secret=False,
        character_id=character,
    )  # fmt: skip


def wait_for(go: str) -> None:
    while not Path(go).exists():
        time.sleep(0.001)


async def race(path: str, character: int, guild: int, count: int) -> None:
    db = await Database.open(path)
    spent = refused = 0
    errors: list[str] = []
    for _ in range(count):
        try:
            async with db.transaction() as conn:
                left = await CharacterRepository(conn).spend_hero_point(character)
            if left is None:
                refused += 1
            else:
                spent += 1
            async with db.transaction() as conn:
                await log_roll(conn, guild, character)
                await CharacterVitalsRepository(conn).adjust_hp(
                    character, -1, temporary_first=False
                )
        except Exception as exc:  # reported to the parent, which fails on any
            errors.append(f"{type(exc).__name__}: {exc}")
    await db.close()
    print(json.dumps({"spent": spent, "refused": refused, "errors": errors}), flush=True)


async def loop(path: str, character: int, guild: int, channel: int) -> None:
    db = await Database.open(path)
    async with db.transaction() as conn:
        await conn.execute(LEDGER)
    print("ready", flush=True)
    dice = RandomDice(random.Random())
    while True:
        kind = random.choice(("det", "hp", "turn"))
        async with db.transaction() as conn:
            characters = CharacterRepository(conn)
            if kind == "det":
                await log_roll(conn, guild, character)
                if await characters.spend_determination(character):
                    delta = -1
                else:
                    delta = await characters.regain_determination(character, 3, 3)
            elif kind == "hp":
                vitals = await CharacterVitalsRepository(conn).get(character)
                assert vitals is not None
                delta = -1 if vitals.hp > 0 else 1
                await CharacterVitalsRepository(conn).adjust_hp(
                    character, delta, temporary_first=False
                )
            else:
                encounters = EncounterRepository(conn)
                record = await encounters.get_by_channel(channel)
                assert record is not None
                state, _ = next_turn(record.state, dice)
                await encounters.save(record, state)
                delta = 1
            await conn.execute(
                "INSERT INTO reliability_ops (kind, delta) VALUES (?, ?)", (kind, delta)
            )


def main(argv: list[str]) -> None:
    mode, *args = argv
    if mode == "race":
        path, character, guild, count, go = args
        wait_for(go)  # both racers start together
        asyncio.run(race(path, int(character), int(guild), int(count)))
    elif mode == "loop":
        path, character, guild, channel = args
        asyncio.run(loop(path, int(character), int(guild), int(channel)))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1:])
