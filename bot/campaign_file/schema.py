"""The campaign file's JSON Schema, generated from the models, and its published copy.

    python -m bot.campaign_file.schema    # rewrite docs/campaign-file.schema.json

A test compares the published file with ``schema_text()``, so it cannot go stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.campaign_file.format import CampaignFile

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "campaign-file.schema.json"
SCHEMA_ID = "https://tablebot.invalid/campaign-file.schema.json"  # (a name, not a place)


def campaign_schema() -> dict[str, Any]:
    schema = CampaignFile.model_json_schema(mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def schema_text() -> str:
    return json.dumps(campaign_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
