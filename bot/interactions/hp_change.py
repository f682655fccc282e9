"""The ``change`` option of every ruleset's ``/hp``: "+5" heals, "-5" takes away, "set 5";
HOCS also has temporary hit points ("temp 5"). Each ruleset passes its own wording."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import UserError

MAX_HP_CHANGE = 999


@dataclass(frozen=True)
class HpChangeWording:
    how: str  # how to write a change, said when the text is not one
    unclear: str  # said for a bare number; {a} is the number


HOCS_WORDING = HpChangeWording(
    how="Write the change as +5 to heal, -5 to take hit points away, temp 5 or set 5.",
    unclear="Say what {a} means: +{a} to heal, -{a} to take away, set {a} or temp {a}.",
)
TWOD10_WORDING = HpChangeWording(
    how="Write the change as +5 to heal, -5 to take hit points away, or set 5.",
    unclear="Say what {a} means: +{a} to heal, -{a} or set {a}.",
)

_WITH_TEMP = re.compile(r"^(?:(?P<mode>temp|set)\s*)?(?P<amount>[+-]?\d{1,4})$")
_WITHOUT_TEMP = re.compile(r"^(?:(?P<mode>set)\s*)?(?P<amount>[+-]?\d{1,4})$")


def parse_hp_change(text: str, wording: HpChangeWording, *, temp: bool = False) -> tuple[str, int]:
    """ "+5" → ("heal", 5); "-3" → ("lose", 3); "set 10" → ("set", 10); with ``temp``
    also "temp 4" → ("temp", 4)."""
    match = (_WITH_TEMP if temp else _WITHOUT_TEMP).match(text.strip().lower())
    if match is None:
        raise UserError(wording.how)
    mode, amount_text = match.group("mode"), match.group("amount")
    amount = int(amount_text)
    if abs(amount) > MAX_HP_CHANGE:
        raise UserError(f"Change hit points by at most {MAX_HP_CHANGE} at a time.")
    if mode == "temp":
        if amount < 0:
            raise UserError("Temporary hit points can't be negative: temp 0 clears them.")
        return "temp", amount
    if mode == "set":
        return "set", amount
    if amount_text[0] == "+":
        return "heal", amount
    if amount_text[0] == "-":
        return "lose", -amount
    raise UserError(wording.unclear.format(a=amount))
