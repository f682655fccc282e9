"""The stored results' JSON text: a document built around parts already encoded is the
same text, byte for byte, as the whole document encoded at once (compare-and-sets on the
roll log compare that text)."""

from __future__ import annotations

import json

from bot.storage.json_text import _HOLE, encode, encode_around

DOCUMENT = {
    # User text that imitates a stand-in, as typed and as encoded: it must come out intact.
    "attacker": "\x00inputs \\u0000 damage.inputs",
    "target": f"{_HOLE[:1]}hit.rolls",
    "damage": {"inputs": {"pool": [8, 6], "rolled": None}, "kept": {"index": 1}, "amount": 7},
    "hit": {
        "target": "Gob \u202e",
        "rolls": {"explosions": [[1, [6, 2]]], "hero_rerolls": 0},
        "before": {"hp": 10, "conditions": {}},
        "after": {"hp": 3, "conditions": {"staggered": True}},
        "death_causes": [],
    },
    "notes": ["é", "🎲"],
    "choice_id": 4,
}
PARTS = {
    ("damage", "inputs"): encode(DOCUMENT["damage"]["inputs"]),
    ("hit", "rolls"): encode(DOCUMENT["hit"]["rolls"]),
    ("hit", "before"): encode(DOCUMENT["hit"]["before"]),
    ("hit", "after"): encode(DOCUMENT["hit"]["after"]),
}


def test_a_document_built_around_its_parts_is_the_whole_encoded() -> None:
    expected = json.dumps(DOCUMENT, separators=(",", ":"))
    assert encode(DOCUMENT) == expected
    assert encode_around(DOCUMENT, PARTS) == expected
    assert encode_around(DOCUMENT, {}) == expected
    assert encode_around(DOCUMENT, {("hit", "after"): PARTS["hit", "after"]}) == expected


def test_the_document_is_not_changed() -> None:
    before = json.loads(json.dumps(DOCUMENT))
    encode_around(DOCUMENT, PARTS)
    assert DOCUMENT == before
    assert isinstance(DOCUMENT["hit"]["rolls"], dict)


def test_the_parts_text_is_what_lands_in_the_document() -> None:
    # (What proves the text is used rather than encoded again: a different text shows.)
    text = encode_around(DOCUMENT, {("hit", "rolls"): '{"marker":1}'})
    assert json.loads(text)["hit"]["rolls"] == {"marker": 1}
    assert json.loads(text)["hit"]["before"] == DOCUMENT["hit"]["before"]
