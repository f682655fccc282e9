"""Options declared once and given to several commands: a roll and its /odds twin.

discord.py reads a command's options (names, types and bounds, defaults, order) from
its callback's signature. ``takes`` builds that signature from ``Opt`` declarations, so
/check and /odds check are made from the same tuple and can't drift apart: a bound
changed in one place changes in both. The callback is written ``async def cmd(self,
ctx, o)`` and gets the options, as chosen, in the namespace ``o`` (``o.boons``).

An option that exists only on the roll (``secret``, ``odds``) is marked ``roll_only``;
one whose bound, help or default differs on the odds twin carries ``odds_kind``/
``odds_help``/``odds_default``; ``odds_twin`` makes the twin's tuple from the roll's.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

from discord import app_commands
from discord.ext.commands.parameters import Parameter, Signature

REQUIRED: Any = inspect.Parameter.empty
_SAME: Any = object()  # odds_default when the twin's default is the roll's
_KIND = inspect.Parameter.POSITIONAL_OR_KEYWORD


class Chosen(SimpleNamespace):
    """The options a command was given, by name (defaults filled in)."""


@dataclass(frozen=True)
class Opt:
    """One option: its name, its type (a ``commands.Range`` carries the bounds), its
    default (``REQUIRED`` for none) and the help Discord shows."""

    name: str
    kind: Any
    default: Any = REQUIRED
    help: str = ""
    odds_kind: Any = None
    odds_help: str | None = None
    roll_only: bool = False
    complete: Any = None  # an autocomplete function (interaction, current) → choices
    # A roll's required option the twin may leave out (/odds attack's target: raw numbers).
    odds_default: Any = _SAME

    def parameter(self) -> Parameter:
        return Parameter(self.name, _KIND, default=self.default, annotation=self.kind)

    def for_odds(self) -> Opt:
        return replace(
            self,
            kind=self.kind if self.odds_kind is None else self.odds_kind,
            help=self.help if self.odds_help is None else self.odds_help,
            default=self.default if self.odds_default is _SAME else self.odds_default,
        )


def odds_twin(opts: Iterable[Opt]) -> tuple[Opt, ...]:
    """The roll's options as its /odds twin takes them: the same names, types and order,
    without the roll-only ones, with the twin's own bounds and help where it has them."""
    return tuple(o.for_odds() for o in opts if not o.roll_only)


def pick(opts: Iterable[Opt], *names: str) -> tuple[Opt, ...]:
    """The options named, in the order named (a command that takes only some of them, or
    shows them in its own order)."""
    by_name = {o.name: o for o in opts}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise TypeError(f"not all of {names} are declared: {missing}")
    return tuple(by_name[n] for n in names)


def with_help(opts: Iterable[Opt], help: Mapping[str, str]) -> tuple[Opt, ...]:
    """``opts`` with the help of those named in ``help`` replaced (one command's wording)."""
    return tuple(replace(o, help=help[o.name]) if o.name in help else o for o in opts)


Callback = Callable[[Any, Any, Chosen], Awaitable[None]]


def takes(*opts: Opt) -> Callable[[Callback], Callable[..., Awaitable[None]]]:
    """Give a command callback ``async def cmd(self, ctx, o)`` the options ``opts``."""
    names = [o.name for o in opts]
    if len(set(names)) != len(names):
        raise TypeError(f"an option is declared twice: {names}")
    # discord.py's own Parameter and Signature: its prefix side reads their extra fields.
    signature = Signature(
        [Parameter("self", _KIND), Parameter("ctx", _KIND)] + [o.parameter() for o in opts]
    )

    defaults = {o.name: o.default for o in opts if o.default is not REQUIRED}
    required = frozenset(o.name for o in opts if o.default is REQUIRED)
    known = frozenset(names)

    def decorate(func: Callback) -> Callable[..., Awaitable[None]]:
        @functools.wraps(func)
        async def command(self: Any, ctx: Any, *args: Any, **kwargs: Any) -> None:
            # The slash path passes options by name: the defaults under what was given
            # (what ``Signature.bind`` would make, without its cost: about 25 µs for
            # /clash's 20 options). The prefix path passes them by position, and any
            # other call shape gets bind's own checks and errors.
            if not args and known.issuperset(kwargs) and required.issubset(kwargs):
                await func(self, ctx, Chosen(**{**defaults, **kwargs}))
                return
            bound = signature.bind(self, ctx, *args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
            del values["self"], values["ctx"]
            await func(self, ctx, Chosen(**values))

        command.__signature__ = signature  # type: ignore[attr-defined]
        # discord.py's hybrid commands set and then delete the callback's __signature__
        # while building the slash side; inspect then follows __wrapped__ (set by wraps)
        # to ``func``, which keeps the declared one for every later copy of the command.
        func.__signature__ = signature  # type: ignore[attr-defined]
        helps = {o.name: o.help for o in opts if o.help}
        if helps:
            app_commands.describe(**helps)(command)
        completes = {o.name: o.complete for o in opts if o.complete is not None}
        if completes:
            app_commands.autocomplete(**completes)(command)
        return command

    return decorate
