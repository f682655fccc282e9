"""Long SIGKILL run: ``python scripts/kill_test.py [--kills 500] [--keep] [--backend B]``.

``--backend postgresql`` runs it on a throwaway PostgreSQL server (bench/pg.py), where
"integrity" is the server's own and the effects-equal-ledger check is the same.

Builds a fresh database (campaign, character, encounter) with the real migrations and
repositories, then runs the fault loop of tests/reliability/test_faults.py many more
times than CI does: a writer process doing real write commands (roll log +
determination, HP, encounter turns, each one transaction with a ledger row) is
SIGKILLed at random moments; after every kill ``PRAGMA integrity_check`` must be ok and
the effects must equal the ledger. Prints the figures; exits 1 on the first violation.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.rules.dice_source import RandomDice  # noqa: E402
from bot.rules.hocs.character import CharacterSheet  # noqa: E402
from bot.rules.hocs.initiative.model import Encounter, NewParticipant  # noqa: E402
from bot.rules.hocs.initiative.roster import add_participants  # noqa: E402
from bot.rules.hocs.initiative.turns import next_turn  # noqa: E402
from bot.rules.hocs.initiative.values import InitiativeStats, Side  # noqa: E402
from bot.storage.backend import open_database  # noqa: E402
from bot.storage.campaigns import CampaignRepository  # noqa: E402
from bot.storage.hocs.character_codec import CharacterDetails  # noqa: E402
from bot.storage.hocs.characters import CharacterKind, CharacterRepository  # noqa: E402
from bot.storage.hocs.encounters import EncounterRepository  # noqa: E402
from tests.reliability.faults import kill_loop  # noqa: E402

GUILD, CHANNEL, GM = 100, 200, 300


async def seed(path: Path | str) -> int:
    db = await open_database(str(path))  # a SQLite file or a postgresql:// URL
    try:
        await db.migrate()
        async with db.transaction() as conn:
            await CampaignRepository(conn).get_or_create(GUILD)
            character = await CharacterRepository(conn).create(
                guild_id=GUILD, owner_id=GM + 1, kind=CharacterKind.PC,
                sheet=CharacterSheet(name="Mira", strength=3, agility=2, mind=2, presence=1),
                details=CharacterDetails(),
            )  # fmt: skip
            stats = InitiativeStats(agility=2, presence=1)
            state, _ = add_participants(
                Encounter(),
                [
                    NewParticipant(name=f"Rat {n}", side=Side.ANTAGONIST, stats=stats)
                    for n in range(3)
                ],
                RandomDice(random.Random(1)),
            )
            state, _ = next_turn(state, RandomDice(random.Random(2)))
            await EncounterRepository(conn).create(
                guild_id=GUILD, channel_id=CHANNEL, gm_id=GM, state=state
            )
        return character.id
    finally:
        await db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the database folder")
    parser.add_argument(
        "--backend", choices=("sqlite", "postgresql"), default="sqlite",
        help="postgresql: on a throwaway server (bench/pg.py) instead of a file",
    )  # fmt: skip
    args = parser.parse_args()
    if args.backend == "postgresql":
        from bench.pg import fresh_database, server

        with server() as running:
            return run(fresh_database(running, "tablebot_kill"), args, None)
    folder = Path(tempfile.mkdtemp(prefix="kill-test-"))
    return run(folder / "kill.sqlite3", args, folder)


def run(path: Path | str, args: argparse.Namespace, folder: Path | None) -> int:
    character = asyncio.run(seed(path))
    started = time.monotonic()
    try:
        kills, ops = kill_loop(
            path, character=character, guild=GUILD, channel=CHANNEL,
            kills=args.kills, seed=args.seed,
        )  # fmt: skip
    except AssertionError as exc:
        print(f"FAILED after a kill: {exc}", file=sys.stderr)
        print(f"database kept at {path}", file=sys.stderr)
        return 1
    took = time.monotonic() - started
    print(
        f"kills survived: {kills}; ops committed and checked: {ops};"
        f" integrity ok after every kill; {took:.0f} s"
    )
    if folder is None:
        pass  # the throwaway server and its database are gone with it
    elif args.keep:
        print(f"database: {path}")
    else:
        for file in folder.iterdir():
            file.unlink()
        folder.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
