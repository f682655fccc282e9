"""The 2d10 part of the live pages' change check (``bot.web.views.version``): scalar
subqueries, each taking the guild id once, on the guild indexes of its tables.

Every write to a sheet bumps its ``revision``; every save of an encounter its
``version``; (count, sum, newest id) also moves when a row goes or a new one begins.
"""

from __future__ import annotations

VERSION_PARTS = (
    "(SELECT COUNT(*) FROM twod10_characters WHERE guild_id = ?)",
    "(SELECT COALESCE(SUM(revision), 0) FROM twod10_characters WHERE guild_id = ?)",
    "(SELECT COUNT(*) FROM twod10_encounters WHERE guild_id = ?)",
    "(SELECT COALESCE(SUM(version), 0) FROM twod10_encounters WHERE guild_id = ?)",
    "(SELECT COALESCE(MAX(id), 0) FROM twod10_encounters WHERE guild_id = ?)",
)
