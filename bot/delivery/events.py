"""Custom bot events: decoupled notices from one cog to whoever listens.

A cog that changed characters says so after its transaction committed; the
initiative tracker (``cogs.hocs.initiative``) listens and redraws the encounters those
characters are in. The sender neither imports nor waits for the listeners.

The listeners are told at once rather than through ``bot.dispatch``, which starts a
task per listener inside the command's reply window (about 26 µs, and the task's run
before the reply goes out). A listener that only schedules its work for after the
reply (``bot.delivery.followups``), as the trackers do, finishes without ever suspending, so
no task is needed; one that does suspend goes on as a task of its own from there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Generator, Iterable
from typing import Any, Protocol

log = logging.getLogger(__name__)

CHARACTERS_CHANGED = "characters_changed"


class Dispatcher(Protocol):
    def dispatch(self, event_name: str, /, *args: object, **kwargs: object) -> None: ...


def notify_characters_changed(
    bot: Dispatcher, guild_id: int, character_ids: Iterable[int | None]
) -> None:
    """Tell listeners that these characters' hit points or conditions were written.

    Call it only after the transaction committed, and only when something was written.
    Listeners receive ``(guild_id, character_ids)`` with the ids as a sorted tuple.
    """
    ids = tuple(sorted({i for i in character_ids if i is not None}))
    if ids:
        tell_now(bot, CHARACTERS_CHANGED, guild_id, ids)


def tell_now(bot: Dispatcher, event: str, *args: object) -> None:
    """``bot.dispatch(event, *args)`` for a commands.Bot's listeners, run right here.

    Anything else that could be waiting for the event (a ``wait_for``, an ``on_<event>``
    method on the bot itself) or a sender that is no commands.Bot goes through
    ``dispatch`` as before."""
    name = "on_" + event
    listeners = getattr(bot, "extra_events", None)
    if (
        listeners is None
        or getattr(bot, "_listeners", {}).get(event)
        or callable(getattr(bot, name, None))
    ):
        bot.dispatch(event, *args)
        return
    for listener in tuple(listeners.get(name, ())):
        try:
            _start(listener(*args), f"{name}: {getattr(listener, '__qualname__', listener)}")
        except Exception:  # a listener's fault must not fail the command that told it
            log.exception("listener %r of %s failed", listener, event)


def _start(coro: Coroutine[Any, Any, Any], name: str) -> None:
    """Run ``coro`` up to its first suspension; if it suspends, the rest as a task."""
    try:
        waiting = coro.send(None)
    except StopIteration:
        return
    task = asyncio.get_running_loop().create_task(_rest(coro, waiting), name=name)
    task.add_done_callback(_log_failure)


async def _rest(coro: Coroutine[Any, Any, Any], waiting: object) -> Any:
    return await _Resumed(coro, waiting)


class _Resumed:
    """Awaitable going on with a coroutine already started: it hands the loop what the
    coroutine first yielded (the future it awaits), then passes everything through."""

    def __init__(self, coro: Coroutine[Any, Any, Any], waiting: object) -> None:
        self._coro = coro
        self._waiting = waiting

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, waiting = self._coro, self._waiting
        while True:
            try:
                sent = yield waiting
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # a cancellation, passed in to be handled there
                try:
                    waiting = coro.throw(exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration as stop:
                    return stop.value


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("listener %s failed", task.get_name(), exc_info=task.exception())
