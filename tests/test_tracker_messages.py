"""The platform's tracker message machinery, driven by a loader as any ruleset would."""

from __future__ import annotations

from typing import Any

import discord

from bot.tracker.messages import TrackerMessages, TrackerView


class FakeMessage:
    def __init__(self, message_id: int) -> None:
        self.id = message_id
        self.pinned = False
        self.embed: discord.Embed | None = None
        self.channel = type("C", (), {"id": 1})()

    async def edit(self, *, embed: discord.Embed, allowed_mentions: Any) -> FakeMessage:
        self.embed = embed
        return self

    async def pin(self, *, reason: str) -> None:
        self.pinned = True

    async def unpin(self, *, reason: str) -> None:
        self.pinned = False


class FakeChannel:
    id = 1

    def __init__(self) -> None:
        self.messages: dict[int, FakeMessage] = {}
        self.sends = 0

    async def send(self, *, embed: discord.Embed, allowed_mentions: Any) -> FakeMessage:
        self.sends += 1
        message = FakeMessage(100 + self.sends)
        message.embed = embed
        self.messages[message.id] = message
        return message

    async def fetch_message(self, message_id: int) -> FakeMessage:
        if message_id not in self.messages:
            raise discord.NotFound(type("R", (), {"status": 404, "reason": "x"})(), "gone")
        return self.messages[message_id]


async def test_post_edit_skip_repost_and_close() -> None:
    stored: list[tuple[int, int]] = []

    async def store(encounter_id: int, message_id: int) -> None:
        stored.append((encounter_id, message_id))

    trackers = TrackerMessages(store)
    channel = FakeChannel()
    views = [TrackerView(7, 1, None, discord.Embed(title="Round 1"))]

    async def load() -> TrackerView | None:
        return views[-1]

    await trackers.refresh(channel, load)  # type: ignore[arg-type]
    assert stored == [(7, 101)] and channel.messages[101].pinned
    views.append(TrackerView(7, 2, 101, discord.Embed(title="Round 2")))
    await trackers.refresh(channel, load)  # type: ignore[arg-type]
    await trackers.refresh(channel, load)  # the same version: nothing to do
    assert channel.sends == 1 and channel.messages[101].embed.title == "Round 2"  # type: ignore[union-attr]
    # Someone deleted the tracker: the next change posts a new one and stores its id.
    del channel.messages[101]
    views.append(TrackerView(7, 3, 101, discord.Embed(title="Round 3")))
    trackers._messages.clear()  # as after a restart: the message is fetched by id
    await trackers.refresh(channel, load)  # type: ignore[arg-type]
    assert stored[-1] == (7, 102) and channel.messages[102].pinned
    await trackers.close(channel, 102, discord.Embed(title="Over"))  # type: ignore[arg-type]
    assert channel.messages[102].embed.title == "Over" and not channel.messages[102].pinned  # type: ignore[union-attr]


async def test_no_encounter_shows_nothing() -> None:
    async def store(encounter_id: int, message_id: int) -> None:
        raise AssertionError("nothing to store")

    async def load() -> TrackerView | None:
        return None

    channel = FakeChannel()
    await TrackerMessages(store).refresh(channel, load)  # type: ignore[arg-type]
    assert channel.sends == 0
