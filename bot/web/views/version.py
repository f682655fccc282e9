"""The live pages' change check: one statement whose answer changes whenever anything a
page of the server shows changes (``bot.web.views.registry.version`` runs it).

Shared parts here, each ruleset's in its ``version`` module, all scalar subqueries of
one SELECT (one round trip), each on a guild index: the campaign row by its key (its
settings: ``show_npc_hp``), the newest roll-log id (``roll_log_by_guild``: a new roll),
the sessions (a start or an end), and per ruleset the characters' revisions and the
encounters' versions (a handful of rows per server). Both rulesets' parts are always
asked: a campaign may switch, and an empty range costs one index probe.

Not seen: a reroll that rewrites a logged roll's result in place (``update_result``)
without any character changing; every reroll the bot offers spends a point, which
does change the character.
"""

from __future__ import annotations

from collections.abc import Iterable

SHARED_PARTS = (
    "(SELECT ruleset FROM campaigns WHERE guild_id = ?)",
    "(SELECT settings FROM campaigns WHERE guild_id = ?)",
    "(SELECT COALESCE(MAX(id), 0) FROM roll_log WHERE guild_id = ?)",
    "(SELECT COUNT(*) FROM sessions WHERE guild_id = ?)",
    "(SELECT COUNT(ended_at) FROM sessions WHERE guild_id = ?)",
)


def version_sql(*ruleset_parts: Iterable[str]) -> tuple[str, int]:
    """The statement and how many times it takes the guild id."""
    parts = [*SHARED_PARTS, *(p for parts in ruleset_parts for p in parts)]
    return "SELECT " + ", ".join(parts), len(parts)
