"""/hp's change option, parsed once for both rulesets and answered in each one's words
(the sentences are the ones each ruleset's own parser said before they were one)."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from cogs.hocs.combat.options import parse_hp_change as hocs
from cogs.twod10.combat_options import parse_hp_change as twod10


@pytest.mark.parametrize("parse", [hocs, twod10])
@pytest.mark.parametrize(
    ("text", "parsed"),
    [("+5", ("heal", 5)), ("-3", ("lose", 3)), ("set 10", ("set", 10)), (" SET -2 ", ("set", -2))],
)
def test_both_rulesets_read_the_same_changes(parse, text, parsed) -> None:
    assert parse(text) == parsed


def test_only_hocs_has_temporary_hit_points() -> None:
    assert hocs("temp 4") == ("temp", 4)
    with pytest.raises(UserError, match=r"^Temporary hit points can't be negative"):
        hocs("temp -1")
    with pytest.raises(UserError) as refused:
        twod10("temp 4")
    assert str(refused.value) == (
        "Write the change as +5 to heal, -5 to take hit points away, or set 5."
    )


def test_each_ruleset_words_its_refusals() -> None:
    with pytest.raises(UserError) as unclear:
        hocs("7")
    assert str(unclear.value) == "Say what 7 means: +7 to heal, -7 to take away, set 7 or temp 7."
    with pytest.raises(UserError) as unclear:
        twod10("7")
    assert str(unclear.value) == "Say what 7 means: +7 to heal, -7 or set 7."
    with pytest.raises(UserError) as bad:
        hocs("lots")
    assert str(bad.value) == (
        "Write the change as +5 to heal, -5 to take hit points away, temp 5 or set 5."
    )
    for parse in (hocs, twod10):
        with pytest.raises(UserError, match=r"^Change hit points by at most 999 at a time\.$"):
            parse("+1000")
