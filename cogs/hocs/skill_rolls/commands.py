"""/pool, /check and /clash: skill rolls from a raw pool, a character sheet, or two sides.

Each command validates its options, then in ONE transaction loads what it needs,
spends a determination point (a conditional UPDATE), rolls and writes the roll
log; only then is the reply sent and its message id stored on the log row. /pool
and /check replies carry buttons to spend determination, hero or fortune points
on the roll afterwards (``cogs.hocs.points``).

The commands live in one module each and are mixed into one cog here.
"""

from __future__ import annotations

from bot.client import TableBot
from bot.interactions.ruleset_cog import RulesetCog
from bot.rulesets import Ruleset
from cogs.hocs.skill_rolls.check import CheckCommands
from cogs.hocs.skill_rolls.clash import ClashCommands
from cogs.hocs.skill_rolls.pool import PoolCommands


class SkillRollsCog(PoolCommands, CheckCommands, ClashCommands, RulesetCog, name="Skill rolls"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
