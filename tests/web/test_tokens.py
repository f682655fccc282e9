"""Signed link tokens (bot.web.tokens): exact round trip, and every way one fails."""

from __future__ import annotations

import base64

import pytest

from bot.web import tokens
from bot.web.tokens import TOKEN_CHARS, Claims, Refusal, View

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
NOW = 1_800_000_000
CLAIMS = Claims(
    guild_id=1_234_567_890_123_456_789,
    user_id=987_654_321_098_765_432,
    view=View.GM,
    expires_at=NOW + 30 * 86_400,
    secret_version=3,
)


def flip(token: str, index: int) -> str:
    raw = bytearray(base64.urlsafe_b64decode(token + "=="))
    raw[index] ^= 0x01
    return base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()


@pytest.mark.parametrize("view", list(View))
def test_round_trip_keeps_every_claim(view: View) -> None:
    claims = Claims(CLAIMS.guild_id, CLAIMS.user_id, view, CLAIMS.expires_at, 3)
    token = tokens.sign(claims, KEY)
    assert len(token) == TOKEN_CHARS == 78
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert tokens.read(token) == claims
    assert tokens.verify(token, KEY, 3, now=NOW) == claims


def test_issue_expires_after_the_days_given() -> None:
    token = tokens.issue(
        guild_id=5, user_id=6, view=View.TABLE, secret=KEY, version=1, now=NOW + 0.9, days=30
    )
    assert tokens.read(token) == Claims(5, 6, View.TABLE, NOW + 30 * 86_400, 1)
    assert tokens.verify(token, KEY, 1, now=NOW + 30 * 86_400 - 1) == tokens.read(token)
    assert tokens.verify(token, KEY, 1, now=NOW + 30 * 86_400) is Refusal.EXPIRED


def test_the_same_claims_and_key_give_the_same_token() -> None:
    assert tokens.sign(CLAIMS, KEY) == tokens.sign(CLAIMS, KEY)
    assert tokens.sign(CLAIMS, KEY) != tokens.sign(CLAIMS, OTHER_KEY)


def test_another_key_is_forged() -> None:
    assert tokens.verify(tokens.sign(CLAIMS, OTHER_KEY), KEY, 3, now=NOW) is Refusal.FORGED


@pytest.mark.parametrize(
    ("index", "refusal"),
    [(1, Refusal.FORGED), (9, Refusal.FORGED), (17, Refusal.FORGED), (18, Refusal.FORGED),
     (26, Refusal.FORGED), (57, Refusal.FORGED),
     # version 3 → 2: an older version's key is gone, so it reads as revoked (same 403)
     (25, Refusal.REVOKED)],
)  # fmt: skip
def test_any_flipped_bit_is_refused(index: int, refusal: Refusal) -> None:
    token = flip(tokens.sign(CLAIMS, KEY), index)  # guild, user, view, expiry, mac
    assert tokens.verify(token, KEY, 3, now=NOW) is refusal


def test_a_view_raised_to_gm_is_forged() -> None:
    player = Claims(CLAIMS.guild_id, CLAIMS.user_id, View.TABLE, CLAIMS.expires_at, 3)
    token = flip(tokens.sign(player, KEY), 17)  # view code 1 (table) → 0 is no view
    assert tokens.verify(token, KEY, 3, now=NOW) is Refusal.MALFORMED
    raw = bytearray(base64.urlsafe_b64decode(tokens.sign(player, KEY) + "=="))
    raw[17] = 2  # the GM screen's code, mac unchanged
    raised = base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()
    assert tokens.read(raised).view is View.GM
    assert tokens.verify(raised, KEY, 3, now=NOW) is Refusal.FORGED


def test_an_older_secret_version_is_revoked() -> None:
    # After /web revoke the key is new and the version one higher.
    assert tokens.verify(tokens.sign(CLAIMS, KEY), OTHER_KEY, 4, now=NOW) is Refusal.REVOKED
    assert tokens.verify(tokens.sign(CLAIMS, KEY), KEY, 4, now=NOW) is Refusal.REVOKED


def test_a_server_without_secret_is_forged() -> None:
    assert tokens.verify(tokens.sign(CLAIMS, KEY), None, None, now=NOW) is Refusal.FORGED


def test_expired_is_checked_only_after_the_mac() -> None:
    late = NOW + 31 * 86_400
    assert tokens.verify(tokens.sign(CLAIMS, KEY), KEY, 3, now=late) is Refusal.EXPIRED
    assert tokens.verify(tokens.sign(CLAIMS, OTHER_KEY), KEY, 3, now=late) is Refusal.FORGED


@pytest.mark.parametrize(
    "token",
    ["", "x", "a" * TOKEN_CHARS, "a" * (TOKEN_CHARS + 1), "é" * TOKEN_CHARS, "=" * TOKEN_CHARS,
     "+" * TOKEN_CHARS, "../../etc/passwd"],
)  # fmt: skip
def test_malformed_tokens(token: str) -> None:
    assert tokens.verify(token, KEY, 3, now=NOW) in (Refusal.MALFORMED, Refusal.FORGED)
    if len(token) != TOKEN_CHARS:
        assert tokens.read(token) is None


def test_only_the_one_spelling_is_a_token() -> None:
    token = tokens.sign(CLAIMS, KEY)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = alphabet.index(token[-1])
    # 58 bytes fill 77 characters and 4 bits of the 78th: its 2 low bits are spare
    twins = [token[:-1] + alphabet[(last & ~3) | spare] for spare in range(4)]
    assert token in twins
    for twin in twins:
        expected = CLAIMS if twin == token else Refusal.MALFORMED
        assert tokens.verify(twin, KEY, 3, now=NOW) == expected
