"""``python -m bot import-campaign``: a real process writing the SQLite file the test's
own connection (the "running bot") keeps open, and the same entry point in this process
(a Python start costs a second) on both backends; refusals are one line on stderr, exit
1, and the database unchanged."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.campaign_file import cli
from bot.campaign_file.export import export_campaign
from bot.campaign_file.format import dump
from tests.campaign_file.test_cli import ROOT, without_stamp
from tests.campaign_file.test_import import STAMP, everything, played
from tests.web.views.support import GUILD

NEW_GUILD, NEW_CHANNEL = 9_100, 9_101


def database_env(db: Any) -> dict[str, str]:
    """The setting that points the CLI at the test's database, as an operator points it
    at the bot's own: a PostgreSQL URL or a SQLite file."""
    if db.backend == "postgresql":
        return {"DATABASE_URL": db.url}
    return {"DATABASE_PATH": str(db.path)}


def run_on(db: Any, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in a real process."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    env.update(PYTHONPATH=str(ROOT), **database_env(db))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def in_process(
    db: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Any:
    """``python -m bot``'s campaign-file entry point run here: (exit status, out, err)."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    for name, value in database_env(db).items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)  # (no .env read there)

    async def run(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = await asyncio.to_thread(cli.main, list(args))  # (it runs its own loop)
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)

    return run


@pytest.mark.both_backends
async def test_import_into_another_server(db: Any, tmp_path: Path, in_process: Any) -> None:
    raw = await played(db)
    file = tmp_path / "table.json"
    file.write_bytes(raw)
    args = ("import-campaign", str(file), str(NEW_GUILD), "--channel", str(NEW_CHANNEL))
    # A real process once (SQLite); on PostgreSQL the same entry point in this one.
    done = run_on(db, tmp_path, *args) if db.backend == "sqlite" else await in_process(*args)
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
async def test_a_server_with_data_needs_replace(db: Any, tmp_path: Path, in_process: Any) -> None:
    raw = await played(db)
    file = tmp_path / "table.json"
    file.write_bytes(raw)
    before = await everything(db)
    done = await in_process("import-campaign", str(file), str(GUILD))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: Server {GUILD}'s campaign already has characters, sessions, rolls or fights:"
        " add --replace to replace them.\n"
    )
    assert await everything(db) == before
    done = await in_process("import-campaign", str(file), str(GUILD), "--replace")
    assert done.returncode == 0, done.stderr
    assert dump(await export_campaign(db, GUILD, exported_at=STAMP)) == raw


async def test_hostile_files_are_one_line_and_change_nothing(
    db: Any, tmp_path: Path, in_process: Any
) -> None:
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
        done = await in_process("import-campaign", str(tmp_path / name), "9200")
        assert done.returncode == 1, name
        assert done.stderr.startswith(f"error: {said}"), (name, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    missing = await in_process("import-campaign", str(tmp_path / "nowhere.json"), "9200")
    assert missing.stderr.startswith("error: Cannot read ")
    assert await everything(db) == before
