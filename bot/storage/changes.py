"""Characters a write transaction changed, told once after it commits.

A repository that writes something another view shows (a 2d10 sheet's hit points,
conditions, gear or load, or the sheet's deletion) records the character here, on the
transaction's connection.
``Database.transaction`` (and PostgreSQL's) hands what was recorded to
``on_characters_changed`` after its COMMIT, and never for a transaction rolled back; the
bot turns it into one ``bot.delivery.events`` notice per guild. So no command can forget to
tell the initiative tracker: saving the sheet is telling it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Guild id → the ids of the characters written there.
Changed = dict[int, set[int]]
OnChanged = Callable[[Changed], None]

ATTRIBUTE = "changed_characters"  # on the connection: a Changed inside a write transaction


def characters_changed(conn: Any, guild_id: int, *character_ids: int) -> None:
    """Record in the open write transaction that these characters were written.

    Outside ``transaction()`` (a migration, a test's own connection) nothing is recorded:
    there is no commit to tell anyone about.
    """
    changed: Changed | None = getattr(conn, ATTRIBUTE, None)
    if changed is not None:
        changed.setdefault(guild_id, set()).update(character_ids)


def tell(on_changed: OnChanged | None, changed: Changed) -> None:
    """After a COMMIT: pass what the transaction recorded on, if anything."""
    if changed and on_changed is not None:
        on_changed(changed)
