"""Every slash option checked against its declaration before any command runs.

Discord's client offers only an option's declared choices and keeps numbers and text
within their declared bounds, but discord.py trusts the payload: a ``Literal`` or a
``Range`` reaches the callback as whatever was sent. A forged or buggy payload would
then reach ``Enum(value)`` or a dict lookup deep in a command. The command tree
(``bot.client.TableTree``) runs ``option_problem`` on every slash invocation, for plain
and hybrid commands and subcommands alike, so commands can rely on their annotations.
Autocomplete-backed options declare no choices: only their length and text are checked.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.interactions.user_text import code, control_characters, direction_controls

_TEXT = AppCommandOptionType.string


def option_problem(
    command: app_commands.Command[Any, ..., Any], values: Mapping[str, Any]
) -> str | None:
    """The sentence refusing the first option that breaks its declaration, or None."""
    checked = _checked(command)
    first: tuple[int, str] | None = None
    # The few options given, not the command's every declared one (/attack has 23);
    # the refusal is still the first bad one in declaration order.
    for name, value in values.items():
        found = checked.get(name)
        if found is None:
            continue
        index, option = found
        if first is not None and index > first[0]:
            continue
        problem = _problem(option, value)
        if problem is not None:
            first = (index, problem)
    return first[1] if first is not None else None


@dataclass(frozen=True, slots=True)
class _Option:
    """What the check reads of one declared option, read once: discord.py's
    ``Parameter`` answers each of these through a property, and a choices set would
    otherwise be rebuilt on every invocation."""

    name: str  # the display name, as the payload's options are keyed
    shown: str  # the name as a refusal quotes it
    type: AppCommandOptionType
    choices: frozenset[Any] | None
    min_value: float | None
    max_value: float | None

    @classmethod
    def of(cls, param: app_commands.Parameter) -> _Option:
        choices = frozenset(choice.value for choice in param.choices) if param.choices else None
        name = param.display_name
        return cls(name, f"`{name}`", param.type, choices, param.min_value, param.max_value)


# A command's declarations never change once it is built: its parameters (discord.py
# makes new objects on every ``.parameters``) are read once per command.
_CHECKED: weakref.WeakKeyDictionary[Any, dict[str, tuple[int, _Option]]] = (
    weakref.WeakKeyDictionary()
)


def _checked(command: app_commands.Command[Any, ..., Any]) -> dict[str, tuple[int, _Option]]:
    """Each declared option by display name, with its place in the declaration."""
    checked = _CHECKED.get(command)
    if checked is None:
        options = (_Option.of(param) for param in command.parameters)
        checked = {option.name: (index, option) for index, option in enumerate(options)}
        _CHECKED[command] = checked
    return checked


def _problem(option: _Option, value: Any) -> str | None:
    name = option.shown
    kind = option.type
    if kind is _TEXT:
        if not isinstance(value, str):
            return f"{name} must be text: try again."
        # Printable text has no control character (those are Unicode's "Other"): the
        # C test spares nearly every option the per-character scan.
        if not value.isprintable() and control_characters(value):
            return f"{name} contains control characters: retype it without them."
        if direction_controls(value):
            return (
                f"{name} contains a text-direction control (it can make the reply read"
                " backwards): retype it without it."
            )
    elif kind is AppCommandOptionType.integer:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{name} must be a whole number: try again with one."
    elif kind is AppCommandOptionType.number:
        real = isinstance(value, int | float) and not isinstance(value, bool)
        if not real or not math.isfinite(value):
            return f"{name} must be a number: try again with one."
    else:
        return None  # users, channels, roles and booleans are resolved by Discord
    if option.choices is not None and value not in option.choices:
        return f"{code(value)} isn't one of the offered choices for {name}: pick one from the list."
    if kind is _TEXT:
        return _length_problem(name, len(value), option.min_value, option.max_value)
    return _range_problem(name, value, option.min_value, option.max_value)


def _length_problem(name: str, length: int, low: float | None, high: float | None) -> str | None:
    if low is not None and length < low:
        return f"{name} needs at least {_shown(low)} characters: add some and try again."
    if high is not None and length > high:
        return f"{name} must be at most {_shown(high)} characters: shorten it and try again."
    return None


def _range_problem(name: str, value: float, low: float | None, high: float | None) -> str | None:
    if (low is None or value >= low) and (high is None or value <= high):
        return None
    if low is not None and high is not None:
        return (
            f"{name} must be from {_shown(low)} to {_shown(high)}:"
            " try again with a value in that range."
        )
    if low is not None:
        return f"{name} must be at least {_shown(low)}: try again with a larger value."
    return f"{name} must be at most {_shown(high)}: try again with a smaller value."


def _shown(bound: float | None) -> str:
    """A bound as typed: 1000000, not 1e+06; 2.5 stays 2.5."""
    if isinstance(bound, float) and bound.is_integer():
        return str(int(bound))
    return str(bound)
