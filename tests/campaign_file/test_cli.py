"""``python -m bot export-campaign`` end to end: a real process on a real SQLite file,
which the test's own connection (the "running bot") keeps open meanwhile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.campaign_file.export import export_campaign
from bot.campaign_file.format import dump
from tests.campaign_file.builders import play
from tests.web.views.support import GUILD

ROOT = Path(__file__).resolve().parents[2]


def run_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(tmp_path / "test.sqlite3"))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env,  # (no .env read there)
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".partial")]


def without_stamp(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "exported_at"}


async def test_export_writes_the_file_and_says_what(db: Any, tmp_path: Path) -> None:
    await play(db)
    out = tmp_path / "table.json"
    done = run_cli(tmp_path, "export-campaign", str(GUILD), str(out))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"Exported campaign of server {GUILD}: 6 characters, 3 log rows to {out}.\n"
    )
    expected = json.loads(dump(await export_campaign(db, GUILD)))
    assert without_stamp(json.loads(out.read_bytes())) == without_stamp(expected)
    assert leftovers(tmp_path) == []


async def test_no_log_leaves_the_log_out(db: Any, tmp_path: Path) -> None:
    await play(db)
    out = tmp_path / "table.json"
    done = run_cli(tmp_path, "export-campaign", str(GUILD), str(out), "--no-log")
    assert done.returncode == 0
    assert "6 characters, 0 log rows" in done.stdout
    assert json.loads(out.read_bytes())["log"] is None


async def test_an_unknown_server_is_one_line_and_exit_1(db: Any, tmp_path: Path) -> None:
    await play(db)
    out = tmp_path / "none.json"
    done = run_cli(tmp_path, "export-campaign", "4040", str(out))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "error: Server 4040 has no campaign in this database.\n"
    assert not out.exists()


async def test_an_unwritable_file_is_one_line_and_exit_1(db: Any, tmp_path: Path) -> None:
    await play(db)
    out = tmp_path / "missing-folder" / "table.json"
    done = run_cli(tmp_path, "export-campaign", str(GUILD), str(out))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"error: Cannot write {out}: No such file or directory")


def test_a_missing_database_is_not_created(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "export-campaign", str(GUILD), str(tmp_path / "x.json"))
    assert done.returncode == 1
    assert done.stderr == f"error: There is no database at {tmp_path / 'test.sqlite3'}.\n"
    assert not (tmp_path / "test.sqlite3").exists()
