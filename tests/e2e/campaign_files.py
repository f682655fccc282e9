"""Campaign files over the emulator: an emulator that keeps whole uploads (it keeps 16
bytes of each), a loopback "CDN" the bot downloads attachments from, and the two
commands as a GM sends them. The emulator's helpers send no attachment option, so the
import's interaction is built here as Discord sends it (type 11 and ``resolved``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import web

from tests.e2e.conftest import EMU_DIR, ROOT, SPEC


def emulator_class() -> Any:
    if str(EMU_DIR) not in sys.path:
        sys.path.insert(0, str(EMU_DIR))
    os.environ.setdefault("DISCORD_SPEC_PATH", str(SPEC))
    from discord_emu import DiscordEmu  # type: ignore[import-not-found]

    class KeepingEmu(DiscordEmu):  # type: ignore[misc,valid-type]
        """The emulator, keeping each uploaded file whole: (path, filename, bytes)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.files: list[tuple[str, str, bytes]] = []

        async def _body(self, request: Any) -> Any:
            if not request.headers.get("Content-Type", "").startswith("multipart/form-data"):
                return await super()._body(request)
            body, files = None, []
            async for part in await request.multipart():
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                    continue
                data = await part.read()
                self.files.append((request.path, part.filename, bytes(data)))
                kind = part.headers.get("Content-Type")
                files.append({"field": part.name, "filename": part.filename, "size": len(data),
                              "head": data[:16], "content_type": kind})  # fmt: skip
            if isinstance(body, dict) and files:
                self.uploads.append((request.path, files))
            return body

    return KeepingEmu


@asynccontextmanager
async def cdn() -> AsyncIterator[tuple[str, dict[str, bytes]]]:
    """A loopback file host: (base URL, name → bytes served at base/name)."""
    served: dict[str, bytes] = {}

    async def get(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in served:
            return web.Response(status=404)
        return web.Response(body=served[name], content_type="application/octet-stream")

    app = web.Application()
    app.router.add_get("/attachments/{name}", get)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/attachments", served
    finally:
        await runner.cleanup()


async def export_file(emu: Any, guild: Any, *, log: bool = True) -> tuple[dict[str, Any], bytes]:
    """``/campaign export`` by the guild's GM: the record and the attached file's bytes."""
    before = len(emu.files)
    rec = await emu.slash("campaign export", who="gm", guild=guild, log=log)
    attached = [f for f in emu.files[before:] if f[1].endswith(".json")]
    assert emu.ephemeral(rec) and len(attached) == 1, (rec.get("callback"), attached)
    return rec, attached[0][2]


async def import_file(
    emu: Any, guild: Any, host: tuple[str, dict[str, bytes]], raw: bytes, *,
    filename: str = "campaign.json", size: int | None = None, who: str = "gm",
) -> dict[str, Any]:  # fmt: skip
    """``/campaign import file:<raw>`` as Discord sends it: the attachment resolved, its
    bytes on the loopback CDN. ``size`` overrides the size Discord reports."""
    base, served = host
    attachment_id = str(int(time.time() * 1000) << 22 | len(served))
    name = f"{attachment_id}-{filename}"
    served[name] = raw
    g = emu.guild(guild)
    command = next(c for c in emu.menu(g.id) if c["name"] == "campaign")
    data = {
        "id": command["id"], "name": "campaign", "type": 1, "guild_id": g.id,
        "options": [{"type": 1, "name": "import",
                     "options": [{"name": "file", "type": 11, "value": attachment_id}]}],
        "resolved": {"attachments": {attachment_id: {
            "id": attachment_id, "filename": filename, "size": len(raw) if size is None else size,
            "url": f"{base}/{name}", "proxy_url": f"{base}/{name}",
            "content_type": "application/json"}}},
    }  # fmt: skip
    payload = emu._interaction_base(2, who, 0, data, guild=g.id)
    emu.interactions[payload["id"]]["t_dispatch"] = time.monotonic()
    await emu.dispatch("INTERACTION_CREATE", payload)
    await emu.answered(payload["id"])
    await emu.settle()
    return emu.interactions[payload["id"]]


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot <args>`` on the running bot's database (``bot_env``'s path)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def without_moves(data: dict[str, Any]) -> dict[str, Any]:
    """The file with what a move changes taken out: when it was written, the fights'
    channels, and the GM role and channel (the old server's ids). The log keeps the
    channels it was rolled in: that is history."""
    data = json.loads(json.dumps(data))
    data.pop("exported_at")
    data["campaign"].pop("gm_channel_id")
    data["campaign"].pop("gm_role_id")
    for part in ("hocs", "twod10"):
        for encounter in data[part]["encounters"]:
            encounter.pop("channel_id")
    return data


def tables(tmp_path: Path) -> dict[str, list[Any]]:
    """Every row of the bot's database, read by another connection (the bot keeps its
    own open): the state to compare before and after a refused file."""
    import sqlite3

    conn = sqlite3.connect(tmp_path / "bot.sqlite3")
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " AND name NOT IN ('bot_meta', 'gm_members')")]  # fmt: skip
        return {n: conn.execute(f"SELECT * FROM {n} ORDER BY 1").fetchall() for n in names}
    finally:
        conn.close()
