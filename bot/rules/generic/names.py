"""One spelling for names a user types, so every ruleset compares them alike."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_SEPARATORS = re.compile(r"[\s_\-]+")


@lru_cache(maxsize=4096)  # pure and called for every skill of every sheet built
def normalise_name(text: str) -> str:
    """Lower case, single spaces: "Melee_Combat " → "melee combat".

    NFKC first and invisible format characters (category Cf) dropped, so names that
    look alike compare alike: "Aria" + U+200B is "aria", "Cafe" + U+0301 is "café".
    """
    text = "".join(
        c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf"
    )
    return _SEPARATORS.sub(" ", text.strip().lower())
