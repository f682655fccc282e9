"""The rulings /help shows for the 2d10 magic commands."""

from __future__ import annotations

from bot.rules.twod10.rulings import ruling

# Ruling caster-access: a casting is the caster's own act, like /task.
CASTER = "Players cast only with their own characters; the GM casts for any."
# Ruling concentration-end: letting go is the caster's choice (or the GM's ruling).
END = "Only the caster's owner or the GM ends a concentration by hand."
SECRET = (
    "secret:True hides the roll (you and the GM see it); a concentration it holds still"
    " shows on the sheet and in the tracker."
)
LOGGED = "Every casting is kept in the roll log, an interrupted one too."


def _rules(*keys: str) -> list[str]:
    return [ruling(key).text for key in keys]


RULINGS: dict[str, list[str]] = {
    "cast": [
        *_rules("spell-tiers", "no-mysteries", "casting-advantage", "backlash-bands",
                "random-effect", "damage-fails", "one-concentration", "natural-two",
                "cast-in-tracker", "attacked-while-casting", "spell-interrupted"),
        CASTER, SECRET, LOGGED,
    ],
    "ritual": [
        *_rules("ritual-time", "rituals-known", "no-mysteries", "casting-advantage",
                "backlash-bands", "random-effect", "damage-fails", "one-concentration"),
        CASTER, SECRET, LOGGED,
    ],
    "end": [*_rules("one-concentration", "concentration-damage"), END],
    "list": [*_rules("concentration-damage")],
}  # fmt: skip
