"""Fill the shared HOCS reroll-odds table once the bot is ready, in a daemon thread.

``odds_rerolls.warm`` reads the precomputed futures of every state a query of up to
``WARM_REROLLS`` rerolls starts from (odds_table_build's file: about 60 ms of CPU and
2.7 MB, measured in bench/odds.py; with them merged as a clash on 6s reads them and the
shared 6s polynomials of odds_runs, ~9 ms and ~1 MiB traced more), so /odds and
``odds:True`` answers with up to 3 rerolls need no state of their own. It runs off the
event loop; a query arriving before it ends is exact all the same (it computes the
states it needs itself, as a cold table does).
"""

from __future__ import annotations

import logging
import threading
import time

from bot.rules.hocs.odds_rerolls import warm

log = logging.getLogger(__name__)

WARM_REROLLS = 3
_started = threading.Event()


def _run() -> None:
    start = time.thread_time()
    states = warm(WARM_REROLLS)
    log.info("odds warm-up: %d reroll states in %.2f s of CPU", states, time.thread_time() - start)


def start_odds_warm_up() -> None:
    """Start the warm-up thread, once per process."""
    if _started.is_set():
        return
    _started.set()
    threading.Thread(target=_run, name="odds-warm-up", daemon=True).start()
