"""Recording ordinary channel and DM sends made through dpytest's fake HTTP client.

dpytest turns a send into a ``discord.Message`` and drops the ``components`` and
``allowed_mentions`` of the request; :class:`ChannelSendRecorder` keeps the request's
JSON so tests can check that nothing pings and click the buttons of such messages.
``install_edits`` does the same for a channel edit (``PATCH /channels/…/messages/…``) of a
message an interaction made, which dpytest does not know: the bot's way to show a press
whose interaction expired.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord

from tests.support import discord_schema
from tests.support.slash_recorder import (
    EPHEMERAL,
    MESSAGE_KEYS,
    MessageFields,
    RecordingWebhookAdapter,
    message_payload,
    multipart_json,
    plain_json,
)


@dataclass
class SentMessage(MessageFields):
    """A message sent through dpytest's fake HTTP (channel.send, ctx.reply, DMs)."""

    channel_id: int
    payload: dict[str, Any]
    message_id: int | None
    error: BaseException | None = None

    @property
    def data(self) -> dict[str, Any]:  # type: ignore[override]
        return self.payload

    def as_message_payload(self, author: dict[str, Any]) -> dict[str, Any]:
        """Full message JSON (with components) for clicking its buttons."""
        return message_payload(
            self.message_id or 0, self.channel_id, author, self.payload, flags=0, kind=0
        )


class ChannelSendRecorder:
    """Keeps the JSON of every message sent through dpytest's fake HTTP client."""

    def __init__(self) -> None:
        self.sends: list[SentMessage] = []
        self.problems: list[str] = []

    def install(self, http: Any) -> None:
        if getattr(http, "_slash_harness_recorder", None) is not None:
            return
        original = http.send_message

        async def send_message(channel_id: int, *, params: Any) -> Any:
            # dpytest's FakeHttp.send_message reads `channel` from its caller's locals.
            channel = sys._getframe(1).f_locals.get("channel")  # noqa: F841
            body = plain_json(params.payload) or multipart_json(params.multipart) or {}
            record = SentMessage(channel_id=int(channel_id), payload=body, message_id=None)
            self.sends.append(record)
            try:
                discord_schema.validate_webhook_message(
                    {k: v for k, v in body.items() if k in MESSAGE_KEYS}
                )
            except discord_schema.DiscordPayloadError as error:
                self.problems.append(str(error))
            try:
                result = await original(channel_id, params=params)
            except BaseException as error:
                record.error = error
                raise
            record.message_id = int(result["id"])
            return result

        http.send_message = send_message
        http._slash_harness_recorder = self

    def install_edits(self, http: Any, messages: dict[int, dict[str, Any]]) -> None:
        """Edits of the interaction messages in ``messages`` (the harness's) apply there."""
        original = http.edit_message
        recorder = self
        recorder.edits: list[tuple[int, dict[str, Any]]] = []

        async def edit_message(channel_id: int, message_id: int, **fields: Any) -> Any:
            message = messages.get(int(message_id))
            if message is None:
                # dpytest's FakeHttp.edit_message reads `self` (the Message) from its caller.
                self = sys._getframe(1).f_locals.get("self")  # noqa: F841
                return await original(channel_id, message_id, **fields)
            if int(message.get("flags") or 0) & EPHEMERAL:
                # Discord: an ephemeral message exists for no channel endpoint.
                response = SimpleNamespace(status=404, reason="Not Found")
                raise discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})  # type: ignore[arg-type]
            params = fields["params"]
            body = plain_json(params.payload) or multipart_json(params.multipart) or {}
            try:
                discord_schema.validate_webhook_message(
                    {k: v for k, v in body.items() if k in MESSAGE_KEYS}, edit=True
                )
            except discord_schema.DiscordPayloadError as error:
                recorder.problems.append(str(error))
            RecordingWebhookAdapter._apply(message, body)
            recorder.edits.append((int(message_id), body))
            return dict(message)

        http.edit_message = edit_message
