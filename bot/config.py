"""Settings read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.backend import backend_of

DEFAULT_DATABASE_PATH = Path("data") / "tablebot.sqlite3"


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
