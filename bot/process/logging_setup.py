"""Logging that can never print the bot token."""

from __future__ import annotations

import logging
import re

# Discord tokens are three base64url parts separated by dots; mask anything shaped
# like one even if it is not ours (a user pasting theirs into a label, say).
_TOKEN_SHAPE = re.compile(r"[\w-]{23,28}\.[\w-]{6,7}\.[\w-]{27,}")


class RedactSecrets(logging.Filter):
    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self._secrets = [s for s in secrets if s]

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "[token]")
        return _TOKEN_SHAPE.sub("[token]", text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg = self.redact(message)
        record.args = None
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


def configure_logging(level: str, secrets: list[str]) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")
    )
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(max(logging.getLevelName(level), logging.INFO))
    # A text-only bot has no use for voice; discord.py's warning about it is noise.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )
