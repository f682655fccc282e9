"""Every ruling is listed once, applied in a commented code point, and in docs/twod10.md."""

from __future__ import annotations

import re
from pathlib import Path

from bot.rules.twod10.rulings import RULINGS, ruling, rulings_by_topic

PACKAGE = Path(__file__).resolve().parents[3] / "bot" / "rules" / "twod10"
PAGE = Path(__file__).resolve().parents[3] / "docs" / "twod10.md"


def _code() -> str:
    return "\n".join(
        p.read_text(encoding="utf-8")
        for p in PACKAGE.rglob("*.py")
        if not p.name.startswith("rulings")
    )


def test_keys_unique_and_texts_short() -> None:
    keys = [r.key for r in RULINGS]
    assert len(keys) == len(set(keys))
    for entry in RULINGS:
        assert entry.topic and entry.text.endswith(".")
        assert len(entry.text) <= 300  # fits an embed field with room to spare


def test_every_ruling_is_applied_in_code_and_every_reference_exists() -> None:
    code = _code()
    for entry in RULINGS:
        assert f"``{entry.key}``" in code, entry.key
    referenced = set(re.findall(r"``([a-z]+(?:-[a-z]+)+)``", code))
    assert referenced <= {r.key for r in RULINGS}


def test_issue_named_rulings_present() -> None:
    # The issue names these four; each needs a ruling.
    for key in ("ladder-signs", "two-heroics", "minus-six", "below-not-above"):
        assert ruling(key).text
    assert sum(len(items) for _, items in rulings_by_topic()) == len(RULINGS)


def test_the_docs_list_the_rulings() -> None:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("\n## Rulings", 1)[1].split("\n## ", 1)[0]
    for entry in RULINGS:
        assert entry.text in section, entry.key
