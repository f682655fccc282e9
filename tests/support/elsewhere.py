"""Writing to the bot's SQLite file as another process would: on a connection of its
own, committed at once, so nothing in the bot hears of it but what it reads back."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


def write_elsewhere(bot: Any, sql: str, params: tuple[object, ...] = ()) -> None:
    other = sqlite3.connect(Path(str(bot.db.path)), timeout=10)
    try:
        other.execute(sql, params)
        other.commit()
    finally:
        other.close()
