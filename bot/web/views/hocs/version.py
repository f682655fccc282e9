"""The HOCS part of the live pages' change check (``bot.web.views.version``): scalar
subqueries, each taking the guild id once, on the guild indexes of its tables.

A character's ``revision`` rises with every write to its row (a trigger, migration
0008), so (count, sum of revisions) moves on any change, a deletion included; fortune
points live in their own table and are counted apart. An encounter's ``version`` rises
with each save; (count, sum, newest id) also moves when one ends and another begins.
"""

from __future__ import annotations

VERSION_PARTS = (
    "(SELECT COUNT(*) FROM characters WHERE guild_id = ?)",
    "(SELECT COALESCE(SUM(revision), 0) FROM characters WHERE guild_id = ?)",
    "(SELECT COUNT(*) FROM fortune_points f JOIN characters c ON c.id = f.character_id"
    " WHERE c.guild_id = ?)",
    "(SELECT COUNT(*) FROM encounters WHERE guild_id = ?)",
    "(SELECT COALESCE(SUM(version), 0) FROM encounters WHERE guild_id = ?)",
    "(SELECT COALESCE(MAX(id), 0) FROM encounters WHERE guild_id = ?)",
)
