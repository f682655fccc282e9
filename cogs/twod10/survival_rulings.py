"""The rulings /help shows for the 2d10 rest, medicine and dying commands."""

from __future__ import annotations

from bot.rules.twod10.rulings import ruling

# Ruling rest-hp-source (cogs.twod10.survival_state): HP lost since the stored state
# counts as damage taken, as the bot can't hook every HP change.
HP_SOURCE = (
    "The sheet's HP is the truth: if it is lower than when the bot last saved the"
    " character's rest state, damage was taken and a short rest is allowed again; a"
    " character never rested yet counts as damaged when below its maximum."
)
# Ruling medic-supplies: the unit comes from the medic's own stock.
MEDIC_SUPPLIES = (
    "Medical supplies are counted per character (set by the GM with /medicine supplies);"
    " the medic's own unit is spent, exactly once, and without one the roll has disadvantage."
)
# Ruling dying-caller: outside a tracked fight the GM calls for the roll; the owner
# or the GM runs it.
DYING_CALLER = "Outside combat the GM calls for a dying roll; the owner or the GM rolls it."
# Ruling dying-in-tracker (cogs.twod10.initiative.dying): the tracker owns the roll.
DYING_TRACKER = (
    "A linked character at 0 HP or below owes one dying roll each time its side's turn"
    " starts; a roll not made stays due (each due turn gives one), and is dropped once the"
    " character is no longer dying. While it is in a tracked fight, /dying roll is refused:"
    " the prompt's button rolls it."
)
MEDIC_ACCESS = "You may roll medicine only with a medic you play (the GM with any)."


def _rules(*keys: str) -> list[str]:
    return [ruling(key).text for key in keys]


RULINGS: dict[str, list[str]] = {
    "short": [
        *_rules("short-rest-gain", "short-rest-cap", "rest-damage", "rest-while-dying",
                "short-rest-medicine", "medicine-bands"),
        HP_SOURCE, MEDIC_SUPPLIES, MEDIC_ACCESS,
    ],
    "long": [*_rules("short-rest-cap", "rest-while-dying", "medicine-day"), HP_SOURCE],
    "daily": [*_rules("medicine-bands", "medicine-day"), MEDIC_ACCESS],
    "stabilise": [*_rules("stabilise-at-zero", "next-toughness-roll"), MEDIC_ACCESS],
    "attribute": [*_rules("attribute-severity", "medicine-day"), MEDIC_SUPPLIES, MEDIC_ACCESS],
    "supplies": [MEDIC_SUPPLIES],
    "dying": [*_rules("dying-turn", "dying-awake", "next-toughness-roll", "death-threshold"),
              DYING_CALLER, DYING_TRACKER],
}  # fmt: skip
