"""``python -m bot import-campaign`` end to end: a real process writing the SQLite file
the test's own connection (the "running bot") keeps open; refusals are one line on
stderr, exit 1, and the database unchanged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.campaign_file.export import export_campaign
from bot.campaign_file.format import dump
from tests.campaign_file.test_cli import ROOT, run_cli, without_stamp
from tests.campaign_file.test_import import STAMP, everything, played
from tests.web.views.support import GUILD

NEW_GUILD, NEW_CHANNEL = 9_100, 9_101


def run_on(db: Any, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI on the test's database, SQLite file or PostgreSQL URL, as the operator
    would point it at the bot's own."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    if db.backend == "postgresql":
        env.update(PYTHONPATH=str(ROOT), DATABASE_URL=db.url)
    else:
        env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(db.path))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.both_backends
async def test_import_into_another_server(db: Any, tmp_path: Path) -> None:
    raw = await played(db)
    file = tmp_path / "table.json"
    file.write_bytes(raw)
    done = run_on(
        db, tmp_path, "import-campaign", str(file), str(NEW_GUILD), "--channel", str(NEW_CHANNEL)
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"Server {NEW_GUILD}: Imported the campaign (the 2d10 system): 6 characters,"
        f" 2 sessions, 3 logged rolls, 2 running fights (in <#{NEW_CHANNEL}>).\n"
    )
    again = json.loads(dump(await export_campaign(db, NEW_GUILD, exported_at=STAMP)))
    before = json.loads(raw)
    for part in ("hocs", "twod10"):
        for enc in before[part]["encounters"]:
            enc["channel_id"] = NEW_CHANNEL
    # From the command line the server's roles and channels are unknown: both are kept.
    assert without_stamp(again) == without_stamp(before)


@pytest.mark.both_backends
async def test_a_server_with_data_needs_replace(db: Any, tmp_path: Path) -> None:
    raw = await played(db)
    file = tmp_path / "table.json"
    file.write_bytes(raw)
    before = await everything(db)
    done = run_on(db, tmp_path, "import-campaign", str(file), str(GUILD))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: Server {GUILD}'s campaign already has characters, sessions, rolls or fights:"
        " add --replace to replace them.\n"
    )
    assert await everything(db) == before
    done = run_on(db, tmp_path, "import-campaign", str(file), str(GUILD), "--replace")
    assert done.returncode == 0, done.stderr
    assert dump(await export_campaign(db, GUILD, exported_at=STAMP)) == raw


async def test_hostile_files_are_one_line_and_change_nothing(db: Any, tmp_path: Path) -> None:
    raw = await played(db)
    data = json.loads(raw)
    data["hocs"]["characters"][0]["sheet"]["strength"] = 9
    newer = dict(json.loads(raw), version=2)
    files = {
        "truncated.json": (raw[: len(raw) // 2], "The file is not valid JSON (line 1, column"),
        "picture.png": (b"\x89PNG\r\n\x1a\n\x00\x00", "The file is not UTF-8 text"),
        "strength.json": (
            json.dumps(data).encode(),
            "The file was not imported: hocs.characters[0].sheet.strength: must be at most 5.",
        ),
        "newer.json": (json.dumps(newer).encode(), "The file is format version 2, newer than"),
        "huge.json": (b" " * (10 * 2**20 + 1), "The file is over the 10 MiB"),
    }
    before = await everything(db)
    for name, (body, said) in files.items():
        (tmp_path / name).write_bytes(body)
        done = run_cli(tmp_path, "import-campaign", str(tmp_path / name), "9200")
        assert done.returncode == 1, name
        assert done.stderr.startswith(f"error: {said}"), (name, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    missing = run_cli(tmp_path, "import-campaign", str(tmp_path / "nowhere.json"), "9200")
    assert missing.stderr.startswith("error: Cannot read ")
    assert await everything(db) == before
