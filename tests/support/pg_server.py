"""A throwaway PostgreSQL server for the tests, started once per test session.

Where it comes from, first found wins:
1. ``TEST_POSTGRES_URL``: a server someone already runs (its database is used as the
   maintenance database; each test gets a database of its own created beside it);
2. the ``pgserver`` package (the ``test`` extra): PostgreSQL binaries in a wheel, so a
   fresh machine with only ``pip install -e '.[test]'`` has a server;
3. the system's binaries (``initdb`` and ``pg_ctl`` on PATH or under
   /usr/lib/postgresql/*/bin), run as a non-root user.

None of them: the PostgreSQL tests skip, unless the environment variable ``CI`` is set,
where they fail instead (CI must run both backends).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


class NoServer(RuntimeError):
    """No PostgreSQL server could be started; the message says why."""


@dataclass
class Server:
    url: str  # the maintenance database (``postgres``) of the server
    stop: object = field(default=None, repr=False)  # callable: shuts the server down
    counter: int = 0

    def database_url(self, name: str) -> str:
        return _with_dbname(self.url, name)


def _with_dbname(url: str, name: str) -> str:
    """``url`` (a postgresql:// URL) naming the database ``name`` instead."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def start() -> Server:
    """Start (or find) a server; raises NoServer with every reason it tried."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if url:
        return Server(url=url)
    reasons = []
    try:
        return _from_pgserver()
    except Exception as exc:  # an import error, a failed initdb: try the next source
        reasons.append(f"pgserver: {exc}")
    try:
        return _from_system()
    except Exception as exc:
        reasons.append(f"system binaries: {exc}")
    raise NoServer("; ".join(reasons))


def _from_pgserver() -> Server:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR
        import pgserver

    directory = tempfile.mkdtemp(prefix="tablebot-pg-")
    os.chmod(directory, 0o777)  # as root, pgserver runs the server as its own user
    server = pgserver.get_server(directory, cleanup_mode="delete")
    return Server(url=server.get_uri(), stop=server.cleanup)


def _from_system() -> Server:
    bindir = _system_bindir()
    directory = Path(tempfile.mkdtemp(prefix="tablebot-pg-"))
    data = directory / "data"
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run as the packaged 'postgres' user
        if shutil.which("runuser") is None:
            raise NoServer("running as root without runuser")
        run_as = ["runuser", "-u", "postgres", "--"]
        shutil.chown(directory, "postgres")
    port = _free_port()
    subprocess.run(
        [*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *run_as,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-w",
            "-l",
            str(directory / "log"),
            "-o",
            f"-p {port} -k {directory} -c listen_addresses='' -c fsync=off",
            "start",
        ],
        check=True,
        capture_output=True,
    )

    def stop() -> None:
        with contextlib.suppress(Exception):
            subprocess.run(
                [*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
                timeout=30,
            )
        shutil.rmtree(directory, ignore_errors=True)

    return Server(url=f"postgresql://postgres@/postgres?host={directory}&port={port}", stop=stop)


def _system_bindir() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    if candidates:
        return Path(candidates[0]).parent
    raise NoServer("no initdb/pg_ctl on PATH or under /usr/lib/postgresql")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
