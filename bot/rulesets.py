"""The rule systems the bot plays, in ONE registry.

Adding a ruleset means: its packages (rules, storage, renderers, cogs) and one entry in
``RULESETS`` (docs/developers.md walks through it). The platform (campaign, /roll,
/help, the error handler...) never names a ruleset's commands;
``bot.interactions.command_sets`` registers them per guild from this registry, and a
ruleset's cogs derive from ``bot.interactions.ruleset_cog.RulesetCog``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Ruleset(StrEnum):
    """The rule systems the bot implements; a campaign plays exactly one."""

    HOCS = "hocs"
    TWOD10 = "2d10"

    @property
    def title(self) -> str:
        return RULESETS[self].title


@dataclass(frozen=True)
class RulesetSpec:
    """One rule system: its campaign key, display title, the extensions (cogs) that
    hold its commands, and the sentence /help shows above its commands."""

    key: Ruleset
    title: str
    extensions: tuple[str, ...]
    help_blurb: str


RULESETS: dict[Ruleset, RulesetSpec] = {
    Ruleset.HOCS: RulesetSpec(
        key=Ruleset.HOCS,
        title="Heroes of Countless Stories",
        extensions=(
            "cogs.hocs.characters",
            "cogs.hocs.skill_rolls",
            "cogs.hocs.odds",
            "cogs.hocs.combat",
            "cogs.hocs.initiative",
            "cogs.hocs.points",
            "cogs.hocs.resting",
        ),
        help_blurb="This server plays Heroes of Countless Stories (HOCS).",
    ),
    Ruleset.TWOD10: RulesetSpec(
        key=Ruleset.TWOD10,
        title="the 2d10 system",
        extensions=(
            "cogs.twod10.characters",
            "cogs.twod10.tasks",
            "cogs.twod10.odds",
            "cogs.twod10.combat",
            "cogs.twod10.combat_adjust",
            "cogs.twod10.initiative",
            "cogs.twod10.survival",
            "cogs.twod10.survival_medicine",
            "cogs.twod10.survival_light",
            "cogs.twod10.ammo",
            "cogs.twod10.morale",
            "cogs.twod10.disease",
            "cogs.twod10.rations",
            "cogs.twod10.inventory",
            "cogs.twod10.magic",
            "cogs.twod10.magic_concentration",
            "cogs.twod10.sessions",
        ),
        help_blurb="This server plays the 2d10 system.",
    ),
}

# Commands every guild has, whatever its ruleset (global slash commands).
PLATFORM_EXTENSIONS = ("cogs.meta", "cogs.campaign", "cogs.rolling", "cogs.web")
