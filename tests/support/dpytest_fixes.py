"""Workarounds for dpytest 0.7.0 against discord.py ≥ 2.6 (fixed on dpytest master).

discord.py 2.6 sends a role's colour as ``colors={"primary_color": …}``, which
dpytest's fake role factory rejects; patched here rather than pinning an old
discord.py.
"""

from __future__ import annotations

from typing import Any

import discord.ext.test.backend as backend
from discord.ext import commands

_patched = False


def patch_dpytest() -> None:
    global _patched
    if _patched:
        return
    original_make_role = backend.make_role

    def make_role(*args: Any, colors: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        if colors and "colour" not in kwargs and "color" not in kwargs:
            kwargs["colour"] = colors.get("primary_color") or 0
        if isinstance(kwargs.get("permissions"), str):
            kwargs["permissions"] = int(kwargs["permissions"])
        return original_make_role(*args, **kwargs)

    backend.make_role = make_role
    original_find_user_mentions = backend.find_user_mentions

    def find_user_mentions(content: str | None, guild: Any) -> list[Any]:
        # dpytest resolves a mention from its member cache, which the slash harness
        # empties while the bot handles an interaction (production has no members
        # intent). Discord itself resolves mentions server-side; an unknown member
        # here must not crash the fake backend.
        return [m for m in original_find_user_mentions(content, guild) if m is not None]

    backend.find_user_mentions = find_user_mentions
    _patched = True


def report_only_unexpected_errors(client: Any) -> None:
    """Let the bot's handler answer user mistakes without dpytest re-raising them.

    dpytest wraps ``on_command_error`` and re-raises every error from
    ``dpytest.message``; a user mistake is an expected, answered outcome, so only
    errors the handler treats as unexpected are still raised into the test.
    """
    import discord.ext.test.runner as runner

    from bot.interactions import error_handler

    handler = client.on_command_error
    original = getattr(handler, "__old__", handler)

    async def on_command_error(ctx: Any, error: Exception) -> None:
        await original(ctx, error)
        if error_handler.user_message(error) is None and not isinstance(
            error, commands.CommandNotFound
        ):
            await runner.error_queue.put((ctx, error))

    client.on_command_error = on_command_error


def record_sent_payloads(client: Any) -> list[dict[str, Any]]:
    """Every message payload the bot sends through ``Messageable.send``, in order.

    dpytest's ``Message`` objects drop ``allowed_mentions``; the payload keeps it,
    so tests can prove that nothing the bot sends can ping. The hook sits on the
    payload builder because dpytest's fake HTTP inspects its caller's frame.
    """
    import discord.abc

    sent: list[dict[str, Any]] = []
    builder = getattr(discord.abc.handle_message_parameters, "__wrapped_builder__", None)
    builder = builder or discord.abc.handle_message_parameters

    def handle_message_parameters(*args: Any, **kwargs: Any) -> Any:
        params = builder(*args, **kwargs)
        sent.append(dict(params.payload or {}))
        return params

    handle_message_parameters.__wrapped_builder__ = builder  # type: ignore[attr-defined]
    discord.abc.handle_message_parameters = handle_message_parameters
    return sent
