"""WAL checkpoints on a connection of their own, run on a thread (``Database``).

A checkpoint copies the WAL's pages back into the database file. SQLite does it
inside whichever COMMIT finds the WAL past ``wal_autocheckpoint`` pages, and that
copy is most of the latency spikes over 3 ms; here it runs beside the commands
instead: in WAL mode a checkpoint and writers go side by side, and PASSIVE never
waits for another connection's readers or writers.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

# A pass copies the pages written before it began; those written meanwhile are copied
# by another pass, up to this many in all. Once the WAL is all copied, the next write
# starts it again from its beginning instead of making it longer.
CHECKPOINT_PASSES = 3


class Checkpointer:
    def __init__(self, path: Path | str) -> None:
        self._path = str(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def run(self) -> bool:
        """Checkpoint (PASSIVE) now, on the calling thread; never on the event loop's.
        True if the WAL is all copied: nothing was written during the last pass."""
        with self._lock:
            if self._conn is None:
                self._conn = sqlite3.connect(
                    self._path, isolation_level=None, check_same_thread=False
                )
            previous = -1
            for _ in range(CHECKPOINT_PASSES):
                # The WAL's pages when the pass began, and how many are copied now.
                busy, pages, copied = self._conn.execute(
                    "PRAGMA wal_checkpoint(PASSIVE)"
                ).fetchone()
                # Stop when another pass can't help now (a checkpoint already running,
                # a reader still on old pages) or nothing was written since the last
                # (or fewer pages: the WAL was all copied and a writer restarted it).
                if busy or copied < pages:
                    return False
                if pages <= previous:
                    return True
                previous = pages
            return False

    def close(self) -> None:
        with self._lock:  # after a checkpoint still running finishes
            if self._conn is not None:
                self._conn.close()
                self._conn = None
