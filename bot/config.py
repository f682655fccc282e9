"""Settings read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.storage.backend import backend_of

DEFAULT_DATABASE_PATH = Path("data") / "tablebot.sqlite3"
# Discord asks for a shard per 2,500 guilds; 4,096 shards is room for ten million.
MAX_SHARD_COUNT = 4096


class Settings(BaseSettings):
    """Everything an operator configures; see ``.env.example`` for each entry."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = Field(default=None)
    database_path: Path = Field(default=DEFAULT_DATABASE_PATH)
    # sqlite:///path or postgresql://…; unset: the SQLite file at DATABASE_PATH.
    database_url: str | None = Field(default=None)
    command_prefix: str = Field(default="!", min_length=1, max_length=5)
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: str = Field(default="INFO")
    message_content_intent: bool = Field(default=False)

    # --- shards (README "Running at scale") ---
    # Both unset: one process, discord.py picks the shard count (AutoShardedBot).
    # SHARD_COUNT alone: one process running every shard. With SHARD_IDS: this process
    # runs those shards only, and another process must run the rest.
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARD_COUNT)
    # NoDecode: read "0,1" as text (our validator), not as JSON.
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(default=None)

    # --- web pages (docs/web.md) ---
    # Unset: no web server. Every process of a sharded bot reads the same settings, so an
    # operator running shard processes gives each its own WEB_PORT (docs/operations.md).
    web_port: int | None = Field(default=None, ge=1, le=65535)
    web_host: str = Field(default="127.0.0.1", min_length=1)
    # The address links use (a reverse proxy's public https://…); unset: http://localhost:PORT.
    web_base_url: str | None = Field(default=None)
    web_link_days: int = Field(default=30, ge=1, le=365)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_missing(cls, value: object) -> object:
        # An empty DISCORD_TOKEN= line copied from .env.example means "not configured".
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _blank_guild_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("web_port", "web_base_url", mode="before")
    @classmethod
    def _blank_web_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("web_base_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        scheme, _, rest = value.partition("://")
        if scheme.lower() not in ("http", "https") or not rest or any(c.isspace() for c in value):
            raise ValueError(f"WEB_BASE_URL must start with http:// or https://, not {value!r}")
        if value.endswith("/"):
            raise ValueError(f"WEB_BASE_URL must not end with a slash: {value.rstrip('/')!r}")
        return value

    @property
    def web_links_base(self) -> str:
        """WEB_BASE_URL, or http://localhost:WEB_PORT when it is unset (no trailing slash)."""
        return self.web_base_url or f"http://localhost:{self.web_port}"

    @field_validator("shard_count", mode="before")
    @classmethod
    def _blank_count_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        parts = value.replace(",", " ").split()
        if not parts:
            return None
        if not all(part.isdigit() for part in parts):
            raise ValueError(f"SHARD_IDS must be shard numbers separated by commas, not {value!r}")
        return tuple(int(part) for part in parts)

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids_fit_the_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if value is None:
            return None
        count = info.data.get("shard_count")
        if count is None:
            # (also when SHARD_COUNT itself was invalid: its own error is reported first)
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the total number of shards")
        if not value:
            raise ValueError("SHARD_IDS lists no shard; leave it empty to run them all")
        outside = [shard for shard in value if not 0 <= shard < count]
        if outside:
            raise ValueError(
                f"shard {outside[0]} is outside 0 to {count - 1} (SHARD_COUNT={count})"
            )
        if len(set(value)) != len(value):
            raise ValueError("SHARD_IDS names a shard twice")
        return tuple(sorted(value))

    @field_validator("database_url", mode="before")
    @classmethod
    def _known_backend(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, str):
            backend_of(value)  # ValueError names the schemes it accepts
            return value.strip()
        return value

    @property
    def database_target(self) -> str:
        """DATABASE_URL, or the SQLite file at DATABASE_PATH when it is unset."""
        return self.database_url or str(self.database_path)

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError(f"LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not {value!r}")
        return level


class SettingsInvalid(Exception):
    """A setting the operator must fix, as one line."""


def load_settings() -> Settings:
    """The settings, or SettingsInvalid naming the first bad one (the bot's start and
    the operator's commands word it alike)."""
    try:
        return Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]).upper()
        message = str(first["msg"]).removeprefix("Value error, ")  # pydantic's prefix
        raise SettingsInvalid(f"Setting {field} is invalid: {message} (check .env).") from None
