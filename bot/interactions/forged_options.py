"""Option values only a forged interaction carries: a reference (user, channel, role,
mentionable, attachment) that is no snowflake, or that Discord didn't resolve.

Discord sends such an option's value as a snowflake and puts the thing it names in the
interaction's ``resolved`` data. discord.py trusts both: a value like "abc" keyed to a
resolved user in the forged data picks that user; a snowflake with nothing resolved
becomes a bare ``Object`` that reaches the command. Checked on the raw payload before
discord.py builds the options, so neither ever gets to a command.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

SNOWFLAKE_MAX = 2**63 - 1

# option type → the parts of ``resolved`` that may hold what it names
_RESOLVED_IN = {
    6: ("users",),  # user
    7: ("channels",),  # channel
    8: ("roles",),  # role
    9: ("users", "roles"),  # mentionable
    11: ("attachments",),  # attachment
}
_GROUPS = (1, 2)  # subcommand, subcommand group: their options are nested


def is_snowflake(value: Any) -> bool:
    """A Discord id as the API spells it: ASCII digits without a leading zero (a string,
    or an int that isn't a bool), from 1 to 2^63 - 1."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        digits = value.isascii() and value.isdigit() and not value.startswith("0")
        if not digits or len(value) > 19:  # (19 digits: 2^63 - 1 has 19)
            return False
        value = int(value)
    return isinstance(value, int) and 0 < value <= SNOWFLAKE_MAX


def _leaves(options: Any) -> Iterator[Mapping[str, Any]]:
    for option in options if isinstance(options, list) else ():
        if not isinstance(option, Mapping):
            continue
        if option.get("type") in _GROUPS:
            yield from _leaves(option.get("options"))
        else:
            yield option


def forged_reference(data: Any, *, resolved_needed: bool) -> str | None:
    """The name of the first reference option only a forged payload has, else None.
    ``resolved_needed``: False for autocomplete, which Discord sends unresolved."""
    if not isinstance(data, Mapping):
        return None
    resolved = data.get("resolved")
    resolved = resolved if isinstance(resolved, Mapping) else {}
    for option in _leaves(data.get("options")):
        parts = _RESOLVED_IN.get(option.get("type"))  # type: ignore[arg-type]
        if parts is None or "value" not in option:
            continue
        value = option["value"]
        if not is_snowflake(value):
            return str(option.get("name"))
        if resolved_needed and not any(
            isinstance(resolved.get(part), Mapping) and str(value) in resolved[part]
            for part in parts
        ):
            return str(option.get("name"))
    return None
