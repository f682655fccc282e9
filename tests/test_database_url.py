"""DATABASE_URL: SQLite by default (nothing but Python), PostgreSQL when it says so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.storage.backend import backend_of, describe, sqlite_path
from tests.support.pg_fixtures import create_database, drop_database
from tests.support.pg_server import Server
from tests.test_startup import DUMMY_TOKEN, ROOT, run_bot


def test_unset_url_means_the_sqlite_file_at_database_path(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, database_path=tmp_path / "x.sqlite3", database_url="  ")
    assert settings.database_url is None
    assert settings.database_target == str(tmp_path / "x.sqlite3")
    assert backend_of(settings.database_target) == "sqlite"


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///data/bot.sqlite3", Path("data/bot.sqlite3")),
        ("sqlite:////srv/bot.sqlite3", Path("/srv/bot.sqlite3")),
        ("sqlite:///:memory:", ":memory:"),
        ("data/bot.sqlite3", Path("data/bot.sqlite3")),
    ],
)
def test_sqlite_urls_name_files(url: str, path: object) -> None:
    assert backend_of(url) == "sqlite"
    assert sqlite_path(url) == path


def test_postgresql_urls_and_a_password_left_out_of_logs() -> None:
    url = "postgresql://bot:hunter2@db.example:5432/tablebot"
    assert backend_of(url) == backend_of("postgres://x@y/z") == "postgresql"
    assert "hunter2" not in describe(url)
    assert describe(url) == "postgresql://bot@db.example/tablebot"


def test_an_unknown_scheme_is_one_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_URL="mysql://x@y/z")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DATABASE_URL" in lines[0] and "postgresql://" in lines[0], lines


def test_the_sqlite_default_never_imports_the_postgresql_driver(tmp_path: Path) -> None:
    script = (
        "import asyncio, sys\n"
        "import bot.__main__\n"
        "from bot.storage.backend import open_database\n"
        "async def main():\n"
        f"    db = await open_database({str(tmp_path / 'd.sqlite3')!r})\n"
        "    await db.migrate()\n"
        "    await db.close()\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in sys.modules if m.startswith(('psycopg', 'bot.storage.pg'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_python_m_bot_migrates_a_postgresql_database_then_reaches_login(
    tmp_path: Path, pg_server: Server
) -> None:
    url = create_database(pg_server, template=None)
    try:
        result = run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_URL=url)
        output = result.stdout + result.stderr
        assert result.returncode != 0  # no Discord here: the login attempt fails cleanly
        assert "schema version" in output and "logging in to Discord" in output, output
        assert "Traceback" not in output
        assert not (tmp_path / "data").exists()  # nothing written to DATABASE_PATH
        import psycopg

        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT version FROM schema_version").fetchone()[0] >= 12
    finally:
        drop_database(pg_server, url)


def test_an_unreachable_postgresql_server_is_one_clear_line(tmp_path: Path) -> None:
    url = "postgresql://bot:hunter2@127.0.0.1:1/tablebot?connect_timeout=3"
    result = run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_URL=url)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: Database error"), result.stderr
    assert "hunter2" not in result.stdout + result.stderr
