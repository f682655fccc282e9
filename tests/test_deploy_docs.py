"""The operator's documents agree with the code: every setting in README's Settings
table and in .env.example (which loads as it stands), and the compose file and the
systemd template run every shard exactly once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = sorted(name.upper() for name in Settings.model_fields)


def readme_settings_rows() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Settings", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z_]+)` \|", table, flags=re.MULTILINE))


def test_every_setting_has_a_readme_row_and_an_env_example_line() -> None:
    assert set(SETTINGS) <= readme_settings_rows()
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    lines = set(re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE))
    assert set(SETTINGS) <= lines


def test_env_example_as_copied_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=ROOT / ".env.example")
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.discord_token is None


def test_compose_runs_each_shard_in_exactly_one_service() -> None:
    compose = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")
    [count] = re.findall(r'^\s+SHARD_COUNT: "(\d+)"$', compose, flags=re.MULTILINE)
    services = re.findall(r"^  (shard-\d+):$", compose, flags=re.MULTILINE)
    ids = re.findall(r'^\s+SHARD_IDS: "([\d,]+)"$', compose, flags=re.MULTILINE)
    assert len(services) == len(ids)
    shards = sorted(int(shard) for listed in ids for shard in listed.split(","))
    assert shards == list(range(int(count)))
    assert "DATABASE_URL: postgresql://" in compose
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    assert 'CMD ["python", "-m", "bot"]' in dockerfile


def test_systemd_template_takes_the_shard_from_the_instance_name() -> None:
    unit = (ROOT / "deploy" / "tablebot@.service").read_text(encoding="utf-8")
    assert "Environment=SHARD_IDS=%i" in unit.splitlines()
    assert re.search(r"^ExecStart=\S+/python -m bot$", unit, flags=re.MULTILINE)
    assert "EnvironmentFile=/etc/tablebot/env" in unit
