"""Signed link tokens: who may see which page of which server, until when.

A token is ``base64url(payload ‖ mac)`` without padding, where the payload is 26 bytes
(``struct`` ``>BQQBII``: format 1, guild id, user id, view, expiry in Unix seconds, the
server's secret version) and the mac is HMAC-SHA256 over a fixed label and the payload,
keyed with the server's 32-byte secret (``bot.storage.web_secrets``). 78 characters.

Why this shape: the payload names the server, so checking a token needs that one
server's secret (one read, no table of issued links); rotating the secret (``/web
revoke``) changes the key, so every earlier link fails at once; the version in the
payload lets the code tell "revoked" from "forged" in tests, never to the visitor.
Nothing here is secret but the key: the payload is readable, which is fine (ids and
a view), and the label keeps a mac made here from meaning anything elsewhere.

Pure: no I/O, the clock is an argument.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
from dataclasses import dataclass
from enum import Enum, StrEnum


class View(StrEnum):
    """What a link shows: a player's table, the GM's screen, the stream overlay."""

    TABLE = "table"
    GM = "gm"
    OVERLAY = "overlay"


_VIEW_CODES = {View.TABLE: 1, View.GM: 2, View.OVERLAY: 3}
_CODE_VIEWS = {code: view for view, code in _VIEW_CODES.items()}
_FORMAT = 1
_PAYLOAD = struct.Struct(">BQQBII")
_MAC_BYTES = 32
TOKEN_BYTES = _PAYLOAD.size + _MAC_BYTES
# base64url of TOKEN_BYTES without padding; longer input is refused before decoding.
TOKEN_CHARS = -(-TOKEN_BYTES * 4 // 3)
_LABEL = b"tablebot web link v1\x00"
# A key no server has, for checking a token whose server has no secret: the same work
# as a real check, so the answer's timing says nothing about whether the server exists.
_NO_KEY = bytes(32)


@dataclass(frozen=True)
class Claims:
    """What a token says (trusted only once :func:`verify` returned it)."""

    guild_id: int
    user_id: int
    view: View
    expires_at: int  # Unix seconds
    secret_version: int


class Refusal(Enum):
    """Why a token was refused: for tests and counters, never shown to the visitor."""

    MALFORMED = "malformed"
    FORGED = "forged"  # the mac doesn't match (wrong key, another server, tampered)
    REVOKED = "revoked"  # signed with a secret version the server has rotated away
    EXPIRED = "expired"


def _mac(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, _LABEL + payload, hashlib.sha256).digest()


def sign(claims: Claims, secret: bytes) -> str:
    """The token for ``claims``, keyed with the server's ``secret``."""
    payload = _PAYLOAD.pack(
        _FORMAT,
        claims.guild_id,
        claims.user_id,
        _VIEW_CODES[claims.view],
        claims.expires_at,
        claims.secret_version,
    )
    raw = payload + _mac(secret, payload)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def issue(
    *, guild_id: int, user_id: int, view: View, secret: bytes, version: int, now: float, days: int
) -> str:
    """A token for ``view`` valid ``days`` days from ``now`` (Unix seconds)."""
    claims = Claims(guild_id, user_id, view, int(now) + days * 86_400, version)
    return sign(claims, secret)


def _decode(token: str) -> tuple[bytes, bytes] | None:
    if len(token) != TOKEN_CHARS or not token.isascii():
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    if len(raw) != TOKEN_BYTES:
        return None
    # The last character carries two spare bits the decoder ignores: only the one
    # spelling sign() makes is a token, so a link can't be altered and still work.
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != token:
        return None
    return raw[: _PAYLOAD.size], raw[_PAYLOAD.size :]


def read(token: str) -> Claims | None:
    """What ``token`` claims, unchecked (to find whose secret checks it); None if it is
    not a token of this format at all."""
    parts = _decode(token)
    if parts is None:
        return None
    fmt, guild_id, user_id, code, expires_at, version = _PAYLOAD.unpack(parts[0])
    view = _CODE_VIEWS.get(code)
    if fmt != _FORMAT or view is None:
        return None
    return Claims(guild_id, user_id, view, expires_at, version)


def verify(
    token: str, secret: bytes | None, version: int | None, *, now: float
) -> Claims | Refusal:
    """The token's claims if ``secret`` signed it, ``version`` is the server's current
    secret version and it has not expired at ``now``; else why not.

    ``secret`` None (the server has no secret: never asked for a link, or no such
    server) still costs one mac, compared in constant time, and fails as forged.
    """
    parts = _decode(token)
    claims = read(token) if parts is not None else None
    if parts is None or claims is None:
        return Refusal.MALFORMED
    payload, mac = parts
    expected = _mac(secret if secret is not None else _NO_KEY, payload)
    if not hmac.compare_digest(mac, expected) or secret is None:
        # (an older version's key is gone: its links can't be told from forgeries by
        # the mac, only by the version they claim; either way the visitor sees a 403)
        if version is not None and claims.secret_version < version:
            return Refusal.REVOKED
        return Refusal.FORGED
    if claims.secret_version != version:  # (a key reused across versions: never, but)
        return Refusal.REVOKED
    if claims.expires_at <= now:
        return Refusal.EXPIRED
    return claims
