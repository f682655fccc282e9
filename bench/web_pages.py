"""Whole web pages over HTTP for a table of 10 characters and a 20-combatant encounter,
in both rulesets, beside a trivial route's floor.

``PYTHONPATH=. python -m bench.web_pages [--runs R]`` seeds a temporary SQLite file as
``bench.web_views`` does (plus a session of 100 logged ``/roll`` rows per server), serves
the real application (``bot.web.server.build_app``, every page module, the security
middleware and the token check) through aiohttp's test client, and fetches each page R
times: the median and p90 of each, with its ratio to the floor, a route answering
"ok" through the same application and client, measured in the same run. The recap's
chart is timed twice: drawn (its cache cleared before each fetch) and kept. Nothing is
asserted (ENGINEERING.md: a timing belongs in a bench that prints figures).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bench.web_views import (
    CHANNEL,
    CHARACTERS,
    COMBATANTS,
    HOCS_GUILD,
    TWOD10_GUILD,
    line,
    seed_hocs,
    seed_twod10,
)
from bot.storage.database import Database
from bot.storage.migrations import migrate
from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import SessionRepository
from bot.storage.web_secrets import WebSecretRepository
from bot.web import tokens
from bot.web.recaps_page import CHART_SECONDS
from bot.web.server import build_app, runner_options
from bot.web.tokens import View

ROLLS = 100


async def seed_session(db: Database, guild: int) -> None:
    """A session of ROLLS rolls by the 5 player characters (ids 1-5 in either ruleset's
    table): HOCS /roll rows naming the character, 2d10 tasks naming the sheet."""
    async with db.transaction() as conn:
        await SessionRepository(conn).start(guild, started_by=1)
        repo = RollLogRepository(conn)
        for n in range(ROLLS):
            who, faces = n % 5 + 1, [n % 10 + 1, (n * 7) % 10 + 1]
            if guild == HOCS_GUILD:
                kind, expression, total = "roll", "1d6", n % 6 + 1
                result: dict[str, object] = {"expression": expression, "total": total}
            else:
                kind, expression, total = "2d10-task", "2d10+2", sum(faces) + 2
                result = {
                    "character_id": who, "target_id": None, "faces": faces, "dropped": None,
                    "advantage": 0, "disadvantage": 0,
                    "modifiers": [{"label": "mind", "value": 1}, {"label": "melee", "value": 1}],
                    "natural": sum(faces), "total": total, "band": "", "label": None,
                }  # fmt: skip
            await repo.add(
                guild_id=guild, channel_id=5, user_id=100, kind=kind, expression=expression,
                result=result, total=total, secret=n % 10 == 0,
                character_id=who if guild == HOCS_GUILD else None,
            )  # fmt: skip
        await SessionRepository(conn).end(guild, ended_by=1)


async def token_for(db: Database, guild: int, view: View, user: int) -> str:
    async with db.transaction() as conn:
        secret = await WebSecretRepository(conn).get_or_create(guild)
    return tokens.issue(
        guild_id=guild, user_id=user, view=view, secret=secret.secret,
        version=secret.version, now=time.time(), days=1,
    )  # fmt: skip


async def timed(
    client: TestClient, runs: int, path: str, before: Callable[[], None] | None = None
) -> list[float]:
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        response = await client.get(path)
        await response.read()
        times.append(time.perf_counter() - start)
        if response.status != 200:
            raise RuntimeError(f"{path.split('/', 3)[-1]} answered {response.status}")
    return times


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            await migrate(db.connection)
            await seed_hocs(db)
            await seed_twod10(db)
            for guild in (HOCS_GUILD, TWOD10_GUILD):
                await seed_session(db, guild)
            # The charts' cache keeps a chart a minute by the app's clock: "drawn" moves
            # this clock on past it before each fetch.
            offset = [0.0]
            app = build_app(db, clock=lambda: time.time() + offset[0])

            async def floor_route(request: web.Request) -> web.Response:
                return web.Response(text="ok")

            app.router.add_get("/bench/floor", floor_route)

            def forget() -> None:
                offset[0] += CHART_SECONDS + 1

            async with TestClient(TestServer(app, **runner_options())) as client:
                await timed(client, 20, "/bench/floor")  # warm-up
                floor_times = await timed(client, runs, "/bench/floor")
                floor = sorted(floor_times)[len(floor_times) // 2]
                print(f"{CHARACTERS} characters, {COMBATANTS} combatants, {ROLLS} rolls a"
                      f" session, {runs} runs each")  # fmt: skip
                print(line("floor: GET /bench/floor", floor_times, floor))
                for name, guild, channel in (("hocs", HOCS_GUILD, CHANNEL),
                                             ("2d10", TWOD10_GUILD, CHANNEL + 1)):  # fmt: skip
                    player = await token_for(db, guild, View.TABLE, 100)
                    gm = await token_for(db, guild, View.GM, 1)
                    overlay = await token_for(db, guild, View.OVERLAY, 1)
                    pages = {
                        "table (player)": f"/t/{player}/",
                        "table (gm)": f"/t/{gm}/",
                        "sheet (player)": f"/t/{player}/sheet/1",
                        "tracker (player)": f"/t/{player}/tracker/{channel}",
                        "tracker (gm)": f"/t/{gm}/tracker/{channel}",
                        "overlay": f"/t/{overlay}/",
                        "roll log (player)": f"/t/{player}/log",
                        "recaps (player)": f"/t/{player}/recaps",
                        "recap (player)": f"/t/{player}/recaps/1",
                        "recap (gm)": f"/t/{gm}/recaps/1",
                    }
                    for label, path in pages.items():
                        await timed(client, 3, path)  # warm-up (templates compiled)
                        print(line(f"{name} {label}", await timed(client, runs, path), floor))
                    chart = f"/t/{player}/recaps/1/chart.png"
                    drawn = await timed(client, max(runs // 10, 5), chart, before=forget)
                    print(line(f"{name} chart (drawn)", drawn, floor))
                    print(line(f"{name} chart (kept)", await timed(client, runs, chart), floor))
        finally:
            await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    asyncio.run(main(parser.parse_args().runs))
