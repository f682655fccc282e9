"""Light and sight for tasks.

"A character can operate in low light conditions but incurs disadvantage to any attacks
outside melee range as well as perception rolls. A character in complete darkness has
disadvantage on any action requiring sight."

Ruling ``sight-tasks``: a task names its light only when it needs sight; in low light a
perception task has one disadvantage more (any other task none), in darkness every task
that names it has one. Attacks take the light as a situation term instead (ruling
``darkness``).
"""

from __future__ import annotations

from enum import Enum

from bot.rules.twod10.skills import Skill, SkillKey


class Sight(Enum):
    LOW_LIGHT = "low light"
    DARKNESS = "darkness"


def sight_disadvantage(sight: Sight | None, skill: SkillKey | None) -> int:
    """The disadvantages the light gives a task with ``skill`` (None: an attribute alone)."""
    if sight is Sight.DARKNESS:
        return 1
    if sight is Sight.LOW_LIGHT and skill is not None and skill.skill is Skill.PERCEPTION:
        return 1
    return 0
