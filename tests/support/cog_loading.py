"""Loading the bot's cogs once per test for a fraction of discord.py's price.

Every test builds a new ``TableBot`` and loads all its cogs, as production does once per
process. discord.py makes that expensive in two ways a test pays thousands of times:

* ``load_extension`` executes the cog's module again from source each time, so every
  ``@app_commands.command`` decorator runs again;
* a cog's instance copies each of its commands, and a copy re-parses the callback's
  signature, annotations and docstring from scratch (``inspect.signature``,
  ``evaluate_annotation``, ``textwrap``).

Both do the same work with the same inputs every time, so this module remembers it:

* an extension already imported in this process runs its ``setup(bot)`` again instead
  of re-executing its source (what a second bot in one production process would see);
* a hybrid command's copy skips the application command its constructor builds only
  for discord.py to replace it with a copy of the original's;
* the five pure parsing steps (a docstring's first line, a prefix command's help and
  parameters, an application command's parameters, a hybrid command's converted
  signature) are
  memoised on their inputs, the callback and the signature it carries, and hand back
  fresh copies of what they built.

Nothing the bot does changes: tests/test_cog_loading.py builds the whole command tree
with and without this (in a clean interpreter) and compares every payload, parameter and
check. ``install()`` is idempotent and refuses a discord.py whose internals moved.
"""

from __future__ import annotations

import copy
import functools
import sys
from typing import Any

import discord.app_commands.commands as app_commands_impl
import discord.ext.commands.bot as bot_impl
import discord.ext.commands.core as core_impl
import discord.ext.commands.hybrid as hybrid_impl
import discord.utils as discord_utils
from discord.ext import commands

_installed = False


def _signature_key(function: Any) -> bool:
    """Whether the callback carries a signature of its own: a hybrid command replaces
    the callback's signature with its converters once it has parsed it. Parsing the
    replaced one again gives the same parameters each time (its converters stand for
    themselves), which tests/test_cog_loading.py proves against discord.py untouched;
    the objects in it are new each time, so they can't be the key themselves."""
    return "__signature__" in getattr(function, "__dict__", {})


def _memoised_prefix_parameters(original: Any) -> Any:
    cache: dict[Any, dict[str, Any]] = {}

    def get_signature_parameters(
        function: Any, globalns: dict[str, Any], /, *, skip_parameters: int | None = None
    ) -> dict[str, Any]:
        key = (function, id(globalns), skip_parameters, _signature_key(function))
        try:
            found = cache[key]
        except (KeyError, TypeError):
            found = original(function, globalns, skip_parameters=skip_parameters)
            try:
                cache[key] = found
            except TypeError:  # an unhashable callable: nothing to share
                return found
        # The values are commands.Parameter objects, immutable (they change by replace()).
        return dict(found)

    return get_signature_parameters


def _memoised_docstring_help(original: Any) -> Any:
    # function -> (the help text, the descriptions it gave parameters that had none)
    cache: dict[Any, tuple[str | None, tuple[tuple[str, str], ...]]] = {}

    def extract_descriptions_from_docstring(function: Any, params: dict[str, Any], /) -> Any:
        try:
            found = cache.get(function)
        except TypeError:  # an unhashable callable: nothing to share
            return original(function, params)
        if found is None:
            before = {name: p.description for name, p in params.items()}
            text = original(function, params)
            given = tuple(
                (name, p.description)
                for name, p in params.items()
                if before[name] is None and p.description is not None
            )
            cache[function] = found = (text, given)
            return text
        text, given = found
        for name, description in given:  # the same descriptions, on these parameters
            if name in params and params[name].description is None:
                params[name]._description = description
        return text

    return extract_descriptions_from_docstring


def _memoised_app_parameters(original: Any) -> Any:
    cache: dict[Any, dict[str, Any]] = {}

    def extract_parameters_from_callback(func: Any, globalns: dict[str, Any]) -> dict[str, Any]:
        key = (func, id(globalns), _signature_key(func))
        try:
            found = cache[key]
        except (KeyError, TypeError):
            found = original(func, globalns)
            try:
                cache[key] = {name: copy.copy(param) for name, param in found.items()}
            except TypeError:
                return found
            return found
        # CommandParameter is a mutable dataclass whose fields are reassigned (never
        # changed in place) as a command is set up: a shallow copy each is a fresh one.
        return {name: copy.copy(param) for name, param in found.items()}

    return extract_parameters_from_callback


def _memoised_hybrid_parameters(original: Any) -> Any:
    cache: dict[Any, list[Any]] = {}

    def replace_parameters(parameters: Any, callback: Any, signature: Any) -> list[Any]:
        key = (callback, _signature_key(callback))
        try:
            found = cache[key]
        except (KeyError, TypeError):
            found = original(parameters, callback, signature)
            try:
                cache[key] = found
            except TypeError:
                return found
        # inspect.Parameter objects are immutable; the list is the caller's to keep.
        return list(found)

    return replace_parameters


def _no_app_command(wrapped: Any, name: Any = None) -> None:
    return None


def _without_app_command(build: Any) -> Any:
    """Build a hybrid command's copy without the application command its constructor
    makes: ``HybridCommand._ensure_assignment_on_copy`` replaces that one at once with a
    copy of the original's, so building it (half of a cog's load) was work thrown away."""
    real = hybrid_impl.HybridAppCommand
    hybrid_impl.HybridAppCommand = _no_app_command
    try:
        return build()
    finally:
        hybrid_impl.HybridAppCommand = real


def _hybrid_copy(self: Any) -> Any:
    if self.app_command is None:
        return _original_copy(self)
    made = _without_app_command(lambda: self.__class__(self.callback, **self.__original_kwargs__))
    return self._ensure_assignment_on_copy(made)


def _hybrid_update_copy(self: Any, kwargs: dict[str, Any]) -> Any:
    if not kwargs or self.app_command is None:
        return _original_update_copy(self, kwargs)
    merged = {**kwargs, **self.__original_kwargs__}
    made = _without_app_command(lambda: self.__class__(self.callback, **merged))
    return self._ensure_assignment_on_copy(made)


_original_copy = core_impl.Command.copy
_original_update_copy = core_impl.Command._update_copy


async def _load_from_module_spec(self: commands.Bot, spec: Any, key: str) -> None:
    """discord.py's own, except that a module this process already executed is reused."""
    lib = sys.modules.get(key)
    if lib is None or getattr(lib, "__spec__", None) is None or not hasattr(lib, "setup"):
        await _original_load(self, spec, key)
        return
    try:
        await lib.setup(self)
    except Exception as exc:
        del sys.modules[key]
        await self._remove_module_references(lib.__name__)
        await self._call_module_finalizers(lib, key)
        raise commands.ExtensionFailed(key, exc) from exc
    self._BotBase__extensions[key] = lib  # type: ignore[attr-defined]


_original_load = bot_impl.BotBase._load_from_module_spec


def install() -> None:
    """Patch discord.py (this process only); a no-op when already done."""
    global _installed
    if _installed:
        return
    for owner, name in (
        (discord_utils, "_shorten"),
        (app_commands_impl, "_shorten"),
        (app_commands_impl, "_extract_parameters_from_callback"),
        (core_impl, "get_signature_parameters"),
        (core_impl, "extract_descriptions_from_docstring"),
        (hybrid_impl, "replace_parameters"),
        (hybrid_impl, "HybridAppCommand"),
        (core_impl.Command, "copy"),
        (bot_impl.BotBase, "_load_from_module_spec"),
    ):
        if not hasattr(owner, name):
            raise RuntimeError(
                f"discord.py has no {owner.__name__}.{name} any more:"
                " update tests/support/cog_loading.py"
            )
    shorten = functools.lru_cache(maxsize=None)(discord_utils._shorten)
    discord_utils._shorten = shorten
    app_commands_impl._shorten = shorten
    app_commands_impl._extract_parameters_from_callback = _memoised_app_parameters(
        app_commands_impl._extract_parameters_from_callback
    )
    core_impl.get_signature_parameters = _memoised_prefix_parameters(
        core_impl.get_signature_parameters
    )
    core_impl.extract_descriptions_from_docstring = _memoised_docstring_help(
        core_impl.extract_descriptions_from_docstring
    )
    hybrid_impl.replace_parameters = _memoised_hybrid_parameters(hybrid_impl.replace_parameters)
    hybrid_impl.HybridCommand.copy = _hybrid_copy  # type: ignore[method-assign]
    hybrid_impl.HybridCommand._update_copy = _hybrid_update_copy  # type: ignore[method-assign]
    bot_impl.BotBase._load_from_module_spec = _load_from_module_spec  # type: ignore[method-assign]
    _installed = True
