"""Every survival state round-trips through plain data; damaged data is refused in one sentence."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from bot.rules.errors import RulesError
from bot.rules.twod10 import survival_codec as codec
from bot.rules.twod10.ammo import AmmoState
from bot.rules.twod10.disease import Course, Disease, Infection, Severity
from bot.rules.twod10.healing import HealingState
from bot.rules.twod10.light import Light, LightKind, LightStatus
from bot.rules.twod10.magic import Concentration
from bot.rules.twod10.morale import MoraleState
from bot.rules.twod10.rations import RationState

CASES: list[tuple[object, Callable[[Any], dict], Callable[[Any], object]]] = [  # type: ignore[type-arg]
    (HealingState(hp=-2, max_hp=25, short_rest_cap=13, damaged_since_rest=True,
                  unconscious=True, toughness_advantage=True, daily_medicine_used=True),
     codec.healing_to_dict, codec.healing_from_dict),
    (HealingState(hp=25, max_hp=25), codec.healing_to_dict, codec.healing_from_dict),
    (Light(kind=LightKind.LANTERN, remaining=3, status=LightStatus.DROPPED_OUT,
           burn_roll=(3, 1, 2)), codec.light_to_dict, codec.light_from_dict),
    (AmmoState(points=3, quivers=2, spent=1), codec.ammo_to_dict, codec.ammo_from_dict),
    (RationState(quarters=7, half_days=2, exhausted=True, full_days_needed=1),
     codec.rations_to_dict, codec.rations_from_dict),
    (Infection(disease=Disease(name="Red ache", difficulty=-10, course=Course.CHRONIC,
                               severity=Severity.SEVERE), treated=True),
     codec.infection_to_dict, codec.infection_from_dict),
    (MoraleState(score=-5, first_checked=True), codec.morale_to_dict, codec.morale_from_dict),
    (Concentration(effect="levitate"), codec.concentration_to_dict,
     codec.concentration_from_dict),
    (Concentration(), codec.concentration_to_dict, codec.concentration_from_dict),
]  # fmt: skip


@pytest.mark.parametrize(("state", "dump", "load"), CASES)
def test_round_trip(state: object, dump: Callable, load: Callable) -> None:  # type: ignore[type-arg]
    assert load(json.loads(json.dumps(dump(state)))) == state


@pytest.mark.parametrize(("state", "dump", "load"), CASES)
def test_damaged_data_is_refused(state: object, dump: Callable, load: Callable) -> None:  # type: ignore[type-arg]
    data = dump(state)
    for key in [k for k in data if k != "version"]:
        broken = dict(data)
        broken[key] = (
            7 if isinstance(data[key], str) else ("oops" if data[key] is not None else [1])
        )
        with pytest.raises(RulesError, match="damaged"):
            load(broken)
        missing = {k: v for k, v in data.items() if k != key}
        with pytest.raises(RulesError, match="damaged"):
            load(missing)
    with pytest.raises(RulesError, match="damaged"):
        load({**data, "version": 2})


def test_out_of_range_values_are_refused() -> None:
    data = codec.healing_to_dict(HealingState(hp=5, max_hp=25))
    with pytest.raises(RulesError, match="damaged"):
        codec.healing_from_dict({**data, "hp": 26})
    ammo = codec.ammo_to_dict(AmmoState(points=2, quivers=1))
    with pytest.raises(RulesError, match="damaged"):
        codec.ammo_from_dict({**ammo, "points": -1})
