"""The JSON text of stored results: one compact encoder, and a way to build a document
around parts already encoded (an /attack's damage choice and roll-log row share them).

``json.dumps`` with arguments builds a new encoder per call, hence one here. A result is
a tree, so the cycle check is skipped (a clash's 2 KB of JSON took 59 µs, then 45). Keys
keep their insertion order (the roll log's form, which a damage choice's columns share
since migration 0016, so that an /attack encodes the parts both rows hold only once).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode

# Stands in for a part while the rest is encoded. It starts with NUL and holds a random
# nonce drawn at start-up, so no text a user typed (names, notes) can spell its encoding.
_HOLE = "\x00" + secrets.token_hex(8) + ":"


def _hole(outer: str, inner: str) -> tuple[str, str]:
    """What stands in for ``document[outer][inner]`` while the rest is encoded, and the
    text it encodes to (replaced afterwards by the part's own text)."""
    found = _holes.get((outer, inner))
    if found is None:
        value = f"{_HOLE}{outer}.{inner}"
        found = _holes[outer, inner] = (value, encode(value))
    return found


_holes: dict[tuple[str, str], tuple[str, str]] = {}


def encode_around(document: Mapping[str, Any], parts: Mapping[tuple[str, str], str]) -> str:
    """``encode(document)``, with each ``document[outer][inner]`` named in ``parts`` taken
    from its text there instead of encoded again. Each text must be ``encode`` of that
    value (the result is then the same text, byte for byte). ``document`` is not changed."""
    skeleton = dict(document)
    copied: set[str] = set()
    for outer, inner in parts:
        if outer not in copied:
            skeleton[outer] = dict(skeleton[outer])
            copied.add(outer)
        skeleton[outer][inner] = _hole(outer, inner)[0]
    text = encode(skeleton)
    for (outer, inner), part in parts.items():
        text = text.replace(_hole(outer, inner)[1], part, 1)
    return text
