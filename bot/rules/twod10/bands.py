"""The to-hit table: the outcome band of a total and the damage categories it moves.

Rows as printed: 5 "failure with extreme complication", 10 "success with
complication", 15 "success with no complication", 20 "succeed with an
additional bonus", 25 "gain an additional action". Ruling ``blank-bands``: a
band runs from its row up to the next named row, so 6–9, which the table leaves
unnamed, is a plain failure, and 3–4 join the extreme band below 5.

Damage categories: +1 for every 2 points above 10 (12 → +1 … 20 → +5; ruling
``past-twenty``: on past 20 as the text's "every 2 points" says, until the d12
cap stops it), and
−1 for every point below 10. Ruling ``below-not-above``: the text says the die
"decreases … for every point the attack was above the defense roll"; the table
shows it means below. Ruling ``minus-six``: the table jumps from −4 (at 6) to −6
(at 5); the bot follows the text's one category per point, so 5 is −5. No
weapon's die survives either: the largest die is a d12 and five steps down from
it is below a d4, which deals no damage.
"""

from __future__ import annotations

from enum import Enum

SUCCESS_TOTAL = 10


class OutcomeBand(Enum):
    EXTREME_FAILURE = "failure with extreme complication"
    FAILURE = "failure"
    SUCCESS_WITH_COMPLICATION = "success with complication"
    SUCCESS = "success with no complication"
    SUCCESS_WITH_BONUS = "success with an additional bonus"
    EXTRA_ACTION = "ridiculously good success: an additional action"

    @property
    def succeeded(self) -> bool:
        return self not in (OutcomeBand.EXTREME_FAILURE, OutcomeBand.FAILURE)


# (lowest total, band), highest first.
_BANDS = (
    (25, OutcomeBand.EXTRA_ACTION),
    (20, OutcomeBand.SUCCESS_WITH_BONUS),
    (15, OutcomeBand.SUCCESS),
    (10, OutcomeBand.SUCCESS_WITH_COMPLICATION),
    (6, OutcomeBand.FAILURE),
)


def band_for(total: int) -> OutcomeBand:
    """The to-hit table's band for a total (blank rows belong to the band above them)."""
    for low, band in _BANDS:
        if total >= low:
            return band
    return OutcomeBand.EXTREME_FAILURE


def category_shift(total: int) -> int:
    """Dice categories a total moves the damage die (before the ladder's floor and cap)."""
    if total >= SUCCESS_TOTAL:
        return (total - SUCCESS_TOTAL) // 2
    # Rulings below-not-above and minus-six: one category per point below 10.
    return total - SUCCESS_TOTAL
