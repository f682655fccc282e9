"""Files in the slash harness: an attachment option's upload and the files the bot sends.

An attachment option (type 11) carries only the attachment's id; Discord puts the file's
description (``filename``, ``size``, ``url``…) in ``data.resolved.attachments`` and keeps
the bytes on its CDN, where ``discord.Attachment.read()`` fetches them
(``state.http.get_from_cdn(url)``). :class:`FakeCdn` serves the harness's uploads
there and counts what the bot downloaded, so a test can tell a file refused by its
size from one refused after reading it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import discord

CDN = "https://cdn.discordapp.com/ephemeral-attachments"
MEDIA = "https://media.discordapp.net/ephemeral-attachments"


@dataclass(frozen=True)
class AttachmentFile:
    """The value of an attachment option: the file a user uploads with the command."""

    filename: str
    data: bytes
    content_type: str = "application/json"


def attachment_payload(
    file: AttachmentFile, attachment_id: int, channel_id: int, *, ephemeral: bool = True
) -> dict[str, Any]:
    """The file as Discord describes it (in ``resolved.attachments`` an upload with a
    command is ephemeral: it belongs to the interaction, not to a message)."""
    path = f"{channel_id}/{attachment_id}/{quote(file.filename)}"
    return {
        "id": str(attachment_id),
        "filename": file.filename,
        "size": len(file.data),
        "url": f"{CDN}/{path}",
        "proxy_url": f"{MEDIA}/{path}",
        "content_type": file.content_type,
        "ephemeral": ephemeral,
    }


def as_sent(
    attachments: list[dict[str, Any]] | None,
    uploads: dict[str, bytes],
    *,
    channel_id: int,
    new_id: Callable[[], int],
    ephemeral: bool,
) -> list[dict[str, Any]]:
    """A message's attachments as Discord answers with them: a file uploaded with the
    request (named there by its index) gets an id, its size and URLs; one kept from
    before (``url`` known) stays as it was."""
    found = []
    for given in attachments or []:
        if "url" in given:
            found.append(given)
            continue
        name = str(given.get("filename") or "file")
        file = AttachmentFile(name, uploads.get(name, b""), "application/octet-stream")
        found.append(attachment_payload(file, new_id(), channel_id, ephemeral=ephemeral))
    return found


@dataclass
class FakeCdn:
    """Discord's CDN for the harness's uploads: ``get_from_cdn`` answers their URLs
    (``url`` or ``proxy_url``), anything else as Discord does a deleted file (404)."""

    files: dict[str, bytes] = field(default_factory=dict)
    downloads: list[str] = field(default_factory=list)  # every URL the bot fetched

    def upload(self, described: dict[str, Any], data: bytes) -> None:
        self.files[described["url"]] = data
        self.files[described["proxy_url"]] = data

    def install(self, http: Any) -> None:
        async def get_from_cdn(url: str) -> bytes:
            self.downloads.append(url)
            if url not in self.files:
                response = SimpleNamespace(status=404, reason="Not Found")
                raise discord.NotFound(response, "asset not found")  # type: ignore[arg-type]
            return self.files[url]

        http.get_from_cdn = get_from_cdn


def sent_files(files: Any) -> dict[str, bytes]:
    """The bytes of the ``discord.File`` objects of one request, by filename, left
    where discord.py expects them (it reads them itself when it sends)."""
    found = {}
    for n, file in enumerate(files or []):
        file.reset(seek=True)
        found[file.filename or f"file{n}"] = file.fp.read()
        file.reset(seek=True)
    return found
