"""/pool, /check and /clash's options, declared once: each roll command and its /odds
twin are made from the same tuple (``cogs.declared_options``), and ``modifiers_of``
is the one place the chosen modifiers become a ``PoolSpec``'s.
"""

from __future__ import annotations

from collections.abc import Mapping

from discord.ext import commands

from bot.rules.hocs.pool import PoolSpec
from cogs.declared_options import Chosen, Opt, with_help
from cogs.hocs.odds_preview import ODDS_MAX_REROLLS
from cogs.hocs.skill_rolls.options import (
    CHECK_OPTION_HELP,
    CLASH_OPTION_HELP,
    ODDS_OPTION_HELP,
    POOL_OPTION_HELP,
    ROLL_OPTION_HELP,
    Count,
    Dice,
    Name,
    Rerolls,
    Text,
)

# The exact reroll search is the slow part of odds (cogs.hocs.odds_preview): the /odds twin
# declares the lower bound, and a roll asked for its odds refuses past it.
OddsRerolls = commands.Range[int, 0, ODDS_MAX_REROLLS]
MODIFIERS = ("boons", "banes", "focus", "rerolls", "guaranteed", "determination")
# Nothing is spent by /odds: its determination options only count a point as spent.
COUNTED = {
    "determination": "Count a determination point spent before the roll (exploding boon)",
    "opponent_determination": "Count a determination point the opponent spends",
}


def modifier_opts(help: Mapping[str, str], *, prefix: str = "") -> tuple[Opt, ...]:
    """boons … determination (named ``prefix`` + name), with ``help``'s wording."""
    opts = []
    for name in MODIFIERS:
        key = prefix + name
        text = help.get(key, "")
        if name == "rerolls":
            opt = Opt(key, Rerolls, 0, text, odds_kind=OddsRerolls,
                      odds_help=f"{text} (0–{ODDS_MAX_REROLLS} for odds)")  # fmt: skip
        elif name == "determination":
            opt = Opt(key, bool, False, text, odds_help=COUNTED[key])
        else:
            opt = Opt(key, Count, 0, text)
        opts.append(opt)
    return tuple(opts)


def modifiers_of(o: Chosen, *, prefix: str = "") -> dict[str, int | bool]:
    """The chosen modifiers (``prefix``: the opponent's) as ``PoolSpec``'s keywords."""
    values = {name: getattr(o, prefix + name) for name in MODIFIERS}
    values["determination"] = bool(values["determination"])
    return values


def pool_spec(o: Chosen) -> PoolSpec:
    """/pool's (and /odds pool's) spec from its options."""
    return PoolSpec(base=o.dice, **modifiers_of(o))  # type: ignore[arg-type]


_DIFFICULTY = Opt("difficulty", str | None, None, ROLL_OPTION_HELP["difficulty"])
_CHARACTER = Opt("character", Name, None, CHECK_OPTION_HELP["character"])
_SECRET = Opt("secret", bool, False, ROLL_OPTION_HELP["secret"], roll_only=True)
_ODDS = Opt(
    "odds",
    bool,
    False,
    f"{ODDS_OPTION_HELP} (odds take up to {ODDS_MAX_REROLLS} talent rerolls)",
    roll_only=True,
)
_ROLL_HELP = ROLL_OPTION_HELP | POOL_OPTION_HELP

_POOL_SPENDS = "Spend a determination point of your active character (exploding boon)"
_CHECK_SPENDS = "Spend one of the character's determination points (exploding boon)"

POOL_OPTIONS = (
    Opt("dice", Dice, help=POOL_OPTION_HELP["dice"]),
    _DIFFICULTY,
    *modifier_opts(_ROLL_HELP | {"determination": _POOL_SPENDS}),
    Opt("label", Text, None, "What the roll is for", roll_only=True),
    _SECRET,
    _ODDS,
)
CHECK_OPTIONS = (
    Opt("skill", Text, help=CHECK_OPTION_HELP["skill"]),
    _DIFFICULTY,
    *modifier_opts(_ROLL_HELP | CHECK_OPTION_HELP | {"determination": _CHECK_SPENDS}),
    _CHARACTER,
    _SECRET,
    _ODDS,
)
CLASH_OPTIONS = with_help(
    (
        Opt("skill", Text),
        Opt("opponent", Name),
        Opt("opponent_skill", Text, None),
        Opt("attack", bool, False),
        *modifier_opts(CLASH_OPTION_HELP),
        *modifier_opts(CLASH_OPTION_HELP, prefix="opponent_"),
        _CHARACTER,
        _ODDS,
    ),
    CLASH_OPTION_HELP,
)
