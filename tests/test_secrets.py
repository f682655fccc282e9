"""The token never reaches a log line."""

from __future__ import annotations

import logging

import pytest

from bot.process.logging_setup import RedactSecrets

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GaBcDe.0123456789abcdefghijklmnopqrstuvwxyzABCD"


def test_token_is_masked_in_messages_args_and_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("test.secrets")
    logger.addFilter(RedactSecrets([TOKEN]))
    with caplog.at_level(logging.INFO, logger="test.secrets"):
        logger.info("token is %s", TOKEN)
        try:
            raise RuntimeError(f"bad {TOKEN}")
        except RuntimeError:
            logger.exception("failed")
    text = caplog.text + "".join(r.exc_text or "" for r in caplog.records)
    assert TOKEN not in text
    assert "[token]" in text


def test_token_shaped_strings_are_masked_even_if_unknown() -> None:
    assert "[token]" in RedactSecrets([]).redact(f"pasted {TOKEN}")
