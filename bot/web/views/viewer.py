"""Who looks at a page: the server, the member, and which view their link opens.

Ruling ``web-viewer-roles`` (issue 28):

* ``gm``: everything, hidden NPC state and secret rolls included (the GM screen);
* ``player``: what the table sees in Discord: player characters' hit points,
  conditions, points and wounds, an NPC's only when the GM shows NPC hit points
  (see each ruleset's ``visibility``) or when the player owns it, as Discord's
  ``/character show`` lets an NPC's owner see it; never a secret roll's dice;
* ``overlay``: a stream's view: what a player sees and nothing more. It never has
  an owner's or a GM's sight, although the GM opens it (its link carries the GM's
  user id), because everyone watching the stream sees it.

The role comes from the signed link (``bot.web``'s tokens), which the bot hands only
to those entitled to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Role = Literal["player", "gm", "overlay"]
ROLES: tuple[str, ...] = get_args(Role)


@dataclass(frozen=True, kw_only=True)
class Viewer:
    guild_id: int
    user_id: int
    role: Role

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {self.role!r}")

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    def sees_state(self, *, is_pc: bool, owner_id: int | None, npc_shown: bool) -> bool:
        """Whether this viewer may read a character's hit points and conditions.

        ``npc_shown``: the GM's switch for this NPC where it is shown (each ruleset's
        ``visibility`` works it out)."""
        if is_pc or self.role == "gm":
            return True
        if self.role == "player" and owner_id is not None and owner_id == self.user_id:
            return True
        return npc_shown
