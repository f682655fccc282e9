"""What one interaction produced, and waiting until it has produced all of it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.support.slash_channel import SentMessage
from tests.support.slash_recorder import RecordedResponse

WAITED_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")
NOT_WAITED_PREFIXES = ("discord-ui-view-timeout",)


class HarnessError(AssertionError):
    """The dispatch went wrong in a way the test should see (bad payload, crash, hang)."""


@dataclass
class SlashResult:
    """What one interaction produced.

    ``responses`` are the recorded webhook requests in order (see
    :class:`RecordedResponse`); ``content``/``embeds``/``components``/``ephemeral``
    describe ``message``: the last response that carries a message (the reply, the
    follow-up after a defer, the edit after a button).
    """

    interaction: dict[str, Any]
    responses: list[RecordedResponse] = field(default_factory=list)
    channel_messages: list[SentMessage] = field(default_factory=list)
    command_errors: list[BaseException] = field(default_factory=list)

    @property
    def message(self) -> RecordedResponse | None:
        with_message = [r for r in self.responses if r.carries_message]
        return with_message[-1] if with_message else None

    def _need_message(self) -> RecordedResponse:
        if self.message is None:
            kinds = [(r.kind, r.type) for r in self.responses]
            raise HarnessError(f"the interaction produced no message; responses: {kinds}")
        return self.message

    @property
    def payloads(self) -> list[dict[str, Any]]:
        return [r.payload for r in self.responses]

    @property
    def content(self) -> str | None:
        message = self._need_message()
        return message.message.get("content") if message.message else message.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        message = self._need_message()
        return list(message.message.get("embeds") or []) if message.message else message.embeds

    @property
    def all_embeds(self) -> list[dict[str, Any]]:
        """The embeds of every message the interaction made, in order (a /help page with
        many rulings comes in more than one message)."""
        return [e for r in self.responses if r.message for e in r.message.get("embeds") or []]

    def field(self, name: str, embed: int = 0) -> str:
        """The value of the named field of the reply's embed (``KeyError`` if absent)."""
        return {f["name"]: f["value"] for f in self.embeds[embed]["fields"]}[name]

    @property
    def components(self) -> list[dict[str, Any]]:
        message = self._need_message()
        if message.message:
            return list(message.message.get("components") or [])
        return message.components

    @property
    def ephemeral(self) -> bool:
        return self._need_message().ephemeral

    @property
    def uploads(self) -> dict[str, bytes]:
        """The files ``message`` carried (``discord.File`` bytes, by filename)."""
        return dict(self._need_message().uploads)

    @property
    def deferred(self) -> bool:
        return any(r.kind == "callback" and r.type in (5, 6) for r in self.responses)

    @property
    def custom_ids(self) -> list[str]:
        return self._need_message().custom_ids if self.message else []

    @property
    def choices(self) -> list[dict[str, Any]]:
        return [c for r in self.responses for c in r.choices]

    def all_messages(self) -> Iterator[Any]:
        yield from (r for r in self.responses if r.carries_message)
        yield from self.channel_messages

    def assert_no_pings(self) -> None:
        """Every message this interaction sent has allowed_mentions that ping nobody."""
        for sent in self.all_messages():
            if not sent.pings_nobody:
                raise AssertionError(
                    f"a message may ping: allowed_mentions={sent.allowed_mentions}"
                )


async def settle(before: set[asyncio.Task[Any]], *, limit_seconds: float) -> list[BaseException]:
    """Wait for every task the dispatch started (and the tasks they started)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_seconds
    current = asyncio.current_task()
    seen: set[asyncio.Task[Any]] = set()
    while True:
        pending = [
            task
            for task in asyncio.all_tasks()
            if task is not current and task not in before and _waited(task)
        ]
        seen.update(pending)
        running = [task for task in pending if not task.done()]
        if not running:
            await asyncio.sleep(0)  # let call_soon'd work schedule its tasks
            if not any(
                t is not current and t not in before and _waited(t) and not t.done()
                for t in asyncio.all_tasks()
            ):
                break
            continue
        remaining = deadline - loop.time()
        if remaining <= 0:
            names = sorted(task.get_name() for task in running)
            raise HarnessError(f"still running after {limit_seconds}s: {names}")
        await asyncio.wait(running, timeout=remaining)
    failures = []
    for task in seen:
        if task.done() and not task.cancelled() and task.exception() is not None:
            failures.append(task.exception())  # type: ignore[arg-type]
    return failures


def _waited(task: asyncio.Task[Any]) -> bool:
    name = task.get_name()
    return name.startswith(WAITED_TASK_PREFIXES) and not name.startswith(NOT_WAITED_PREFIXES)
