"""Recording what the bot sends: interaction responses and dpytest channel sends.

* :class:`RecordingWebhookAdapter` replaces discord.py's ``AsyncWebhookAdapter`` (the
  object behind ``discord.webhook.async_.async_context``) that every interaction
  response, follow-up, edit and delete goes through. It never opens a socket: it keeps
  each request's JSON body as a :class:`RecordedResponse`, validates it against
  Discord's schema (``tests/support/discord_schema.py``) and answers with plausible
  Discord JSON, so ``original_response()``, ``followup.send(wait=True)``, ``defer()``
  then ``edit_original_response()`` and views attached to responses all work.
* Ordinary channel sends are recorded by ``tests/support/slash_channel.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord import utils
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.support import discord_schema
from tests.support.slash_attachments import as_sent, sent_files
from tests.support.slash_payloads import iso_now, pings_nobody, snowflake, user_payload

EPHEMERAL = 64
LOADING = 128
MESSAGE_KEYS = ("content", "embeds", "components", "attachments", "allowed_mentions", "poll")


def plain_json(value: Any) -> Any:
    """Round-trip through JSON exactly as discord.py would put it on the wire."""
    return json.loads(utils._to_json(value)) if value is not None else None


def multipart_json(multipart: list[dict[str, Any]] | None) -> dict[str, Any] | None:
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _buttons(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        if component.get("type") in (2, 3, 5, 6, 7, 8):
            found.append(component)
        found += _buttons(component.get("components") or [])
    return found


class MessageFields:
    """Convenience accessors over a dict with message fields."""

    data: dict[str, Any]

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.data.get("allowed_mentions")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects), flattened from the action rows."""
        return _buttons(self.components)

    @property
    def custom_ids(self) -> list[str]:
        return [b["custom_id"] for b in self.buttons if b.get("custom_id")]

    @property
    def pings_nobody(self) -> bool:
        return pings_nobody(self.allowed_mentions)


@dataclass
class RecordedResponse(MessageFields):
    """One request the bot made about an interaction.

    ``kind`` is ``"callback"`` (the initial response; ``type`` is the callback type:
    4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete
    choices, 9 modal), ``"followup"``, ``"edit"`` or ``"delete"``. ``payload`` is the
    JSON body exactly as sent; ``data`` its message fields (``payload["data"]`` for a
    callback). ``message`` is the resulting message as the harness now stores it.
    """

    kind: str
    route: str
    payload: dict[str, Any]
    data: dict[str, Any]
    interaction_id: int
    token: str
    type: int | None = None
    message_id: int | None = None
    message: dict[str, Any] | None = None
    files: list[str] = field(default_factory=list)
    uploads: dict[str, bytes] = field(default_factory=dict)  # the files' bytes, by name

    @property
    def flags(self) -> int:
        flags = self.data.get("flags")
        if flags is None and self.message is not None:
            flags = self.message.get("flags")
        return int(flags or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the message this response created or changed is only seen by its user."""
        if self.message is not None:
            return bool(int(self.message.get("flags") or 0) & EPHEMERAL)
        return bool(self.flags & EPHEMERAL)

    @property
    def carries_message(self) -> bool:
        return self.kind in ("followup", "edit") or self.type in (4, 7)

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.data.get("choices") or []) if self.type == 8 else []

    def __repr__(self) -> str:
        text = (self.message or self.data).get("content") or ""
        return (
            f"<RecordedResponse {self.kind} type={self.type} content={text[:60]!r}"
            f" embeds={len(self.embeds)} components={len(self.components)}"
            f" ephemeral={self.ephemeral}>"
        )


@dataclass
class TokenInfo:
    interaction_id: int
    interaction_type: int
    channel_id: int
    user_id: int
    source_message_id: int | None
    original_id: int | None = None


def message_payload(
    message_id: int,
    channel_id: int,
    author: dict[str, Any],
    data: dict[str, Any],
    *,
    flags: int,
    kind: int,
    application_id: int | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": data.get("content") or "",
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "tts": bool(data.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": list(data.get("embeds") or []),
        "components": list(data.get("components") or []),
        "pinned": False,
        "type": kind,
        "flags": flags,
    }
    if application_id is not None:
        message["webhook_id"] = str(application_id)
        message["application_id"] = str(application_id)
    return message


def _http_error(status: int, text: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason=text)
    if status == 404:
        return discord.NotFound(response, text)  # type: ignore[arg-type]
    return discord.HTTPException(response, text)  # type: ignore[arg-type]


class RecordingWebhookAdapter(AsyncWebhookAdapter):
    """Stand-in for discord.py's webhook adapter: records instead of sending."""

    def __init__(self, *, bot_user: discord.abc.User, application_id: int) -> None:
        super().__init__()
        self.author = {**user_payload(bot_user), "bot": True}
        self.application_id = application_id
        self.records: list[RecordedResponse] = []
        self.messages: dict[int, dict[str, Any]] = {}  # current state of every message
        self.owners: dict[int, int] = {}  # message id → user who may see an ephemeral one
        self.tokens: dict[str, TokenInfo] = {}
        self.problems: list[str] = []  # payloads Discord would refuse
        self.expired: set[str] = set()  # tokens whose 3-second answer window has passed

    def register(self, token: str, info: TokenInfo) -> None:
        self.tokens[token] = info

    def stand_in_message(self, channel_id: int, custom_id: str) -> dict[str, Any]:
        """A message holding one button, as a persistent view's message after a restart."""
        button = {"type": 2, "style": 1, "label": custom_id[:80], "custom_id": custom_id}
        data = {"components": [{"type": 1, "components": [button]}]}
        message_id = snowflake()
        message = message_payload(message_id, channel_id, self.author, data, flags=0, kind=0)
        self.messages[message_id] = message
        return message

    async def request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        payload = kwargs.get("payload")
        body = plain_json(payload) if payload is not None else None
        if body is None:
            body = multipart_json(kwargs.get("multipart"))
        uploads = sent_files(kwargs.get("files"))
        token = route.webhook_token
        info = self.tokens.get(token)
        if info is None:
            raise _http_error(404, f"unknown interaction token {token!r}")
        tail = route.url.rsplit("/", 1)[-1]
        if route.path.endswith("/callback"):
            if token in self.expired:
                response = SimpleNamespace(status=404, reason="Not Found")
                error = {"code": 10062, "message": "Unknown interaction"}
                raise discord.NotFound(response, error)  # type: ignore[arg-type]
            return self._callback(info, token, body or {}, route, uploads)
        if route.method == "POST":
            return self._followup(info, token, body or {}, route, uploads)
        target = info.original_id if tail == "@original" else int(tail)
        if target is None or target not in self.messages:
            raise _http_error(404, "Unknown Message")
        if route.method == "GET":
            return self.messages[target]
        if route.method == "PATCH":
            return self._edit(info, token, target, body or {}, route, uploads)
        if route.method == "DELETE":
            self._record("delete", route, {}, {}, info, token, message_id=target)
            self.messages.pop(target, None)
            return None
        raise _http_error(405, f"{route.method} {route.path} is not emulated")

    # --- the four kinds of request ---

    def _callback(self, info: TokenInfo, token: str, body: dict, route: Any, files: dict) -> Any:
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        self._check(lambda: discord_schema.validate_interaction_callback(body))
        answer: dict[str, Any] = {
            "interaction": {"id": str(info.interaction_id), "type": info.interaction_type}
        }
        message = None
        message_id = None
        if kind in (4, 5):
            message_id = snowflake()
            flags = int(data.get("flags") or 0) | (LOADING if kind == 5 else 0)
            message = message_payload(
                message_id, info.channel_id, self.author, data, flags=flags, kind=20,
                application_id=self.application_id,
            )  # fmt: skip
            if kind == 5:
                message["content"] = ""
            self._attach(message, data, files)
            self.messages[message_id] = message
            self.owners[message_id] = info.user_id
            info.original_id = message_id
        elif kind in (6, 7) and info.source_message_id is not None:
            message_id = info.source_message_id
            info.original_id = message_id
            message = self.messages.get(message_id)
            if message is not None and kind == 7:
                self._apply(message, data)
                self._attach(message, data, files)
        if message is not None:
            answer["interaction"].update(
                response_message_id=str(message_id),
                response_message_loading=kind == 5,
                response_message_ephemeral=bool(int(message.get("flags") or 0) & EPHEMERAL),
            )
            answer["resource"] = {"type": 7 if kind == 6 else kind, "message": dict(message)}
        self._record(
            "callback", route, body, data, info, token, type=kind, message_id=message_id,
            message=message, files=list(files), uploads=files,
        )  # fmt: skip
        return answer

    def _followup(self, info: TokenInfo, token: str, body: dict, route: Any, files: dict) -> Any:
        self._check(lambda: discord_schema.validate_webhook_message(body))
        message_id = snowflake()
        message = message_payload(
            message_id, info.channel_id, self.author, body, flags=int(body.get("flags") or 0),
            kind=0, application_id=self.application_id,
        )  # fmt: skip
        self._attach(message, body, files)
        self.messages[message_id] = message
        self.owners[message_id] = info.user_id
        self._record(
            "followup", route, body, body, info, token, message_id=message_id, message=message,
            files=list(files), uploads=files,
        )  # fmt: skip
        return dict(message)

    def _edit(
        self, info: TokenInfo, token: str, target: int, body: dict, route: Any, files: dict
    ) -> Any:
        self._check(lambda: discord_schema.validate_webhook_message(body, edit=True))
        message = self.messages[target]
        self._apply(message, body)
        self._attach(message, body, files)
        self._record(
            "edit", route, body, body, info, token, message_id=target, message=message,
            files=list(files), uploads=files,
        )  # fmt: skip
        return dict(message)

    # --- helpers ---

    @staticmethod
    def _apply(message: dict[str, Any], changes: dict[str, Any]) -> None:
        for key in MESSAGE_KEYS:
            if key in changes:
                message[key] = changes[key] if changes[key] is not None else None
        if message.get("content") is None:
            message["content"] = ""
        flags = int(message.get("flags") or 0) & ~LOADING
        if changes.get("flags") is not None:
            flags |= int(changes["flags"]) & ~EPHEMERAL  # ephemerality can't change on edit
        message["flags"] = flags
        message["edited_timestamp"] = iso_now()

    @staticmethod
    def _attach(message: dict[str, Any], body: dict[str, Any], files: dict[str, bytes]) -> None:
        if "attachments" in body or files:
            message["attachments"] = as_sent(
                body.get("attachments"), files, channel_id=int(message["channel_id"]),
                new_id=snowflake, ephemeral=bool(int(message.get("flags") or 0) & EPHEMERAL),
            )  # fmt: skip

    def _check(self, validate: Any) -> None:
        try:
            validate()
        except discord_schema.DiscordPayloadError as error:
            self.problems.append(str(error))
            raise _http_error(400, "Invalid Form Body (see the slash harness report)") from None

    def _record(
        self,
        kind: str,
        route: Any,
        body: dict,
        data: dict,
        info: TokenInfo,
        token: str,
        **extra: Any,
    ) -> None:
        message = extra.pop("message", None)
        self.records.append(
            RecordedResponse(
                kind=kind,
                route=f"{route.method} {route.path}",
                payload=body,
                data=data,
                interaction_id=info.interaction_id,
                token=token,
                message=dict(message) if message is not None else None,
                **extra,
            )
        )
