"""Magic: rituals and spontaneous spells, the casting roll, backlash, concentration.

The casting roll is 2d10 + mind + mysteries (the caster's subfield) + the tier's
difficulty (tier one -10, tier two -15, tier three -20). Attacked while casting:
disadvantage. Damage in combat: the spell or ritual fails and concentration is
lost. Casting dangerously: +5 and a random magical effect. Extending the time
(a ritual's maximum time, or one more full round): advantage. Tier one also
gains advantage from an hour's casting or a ritual component; tier two from a
whole day. A failure is magical backlash: at 8-10 only a random magical effect,
below that further consequences.

Rulings:

* ``spell-tiers``: a spontaneous spell of tier n rolls at the ritual tier's
  difficulty; the bot records its category and the GM checks the caster's
  special covers it.
* ``ritual-time``: tier one takes a minute to an hour, tier two an hour to a day
  and always needs a component; casting for the tier's maximum (an hour, a day)
  gives advantage; tier three's time is the GM's, and it gains advantage only
  from one more full round (see ``magic_time``).
* ``casting-advantage``: a longer casting and a component give one advantage
  between them; being attacked while casting cancels it (ruling
  ``advantage-stack``).
* ``backlash-bands``: a failed total of 8 or 9 is only a random magical effect
  (10 succeeds); 7 or less adds consequences the GM scales by tier and by how
  far below 8 it fell (the to-hit table's band is shown beside it).
* ``random-effect``: the text has no table of random magical effects, so the bot
  announces each one and the GM names it; casting dangerously brings one and a
  backlash its own, so a dangerous casting that fails brings two.
* ``rituals-known``: the bot keeps no experience points, so the GM checks the
  caster knows a ritual (1 xp each); the bot rolls any ritual named.
* ``damage-fails``: a caster damaged in combat while casting fails with no roll
  and so no backlash; their concentration ends too.
* ``one-concentration``: a caster holds one concentration; casting another
  spell or ritual that needs it ends the one held (the caster lets go to cast),
  even if the new casting fails; only a success holds the new one.
* ``concentration-damage``: an attack's damage is damage in combat and ends the
  target's concentration; the GM's ``/hp`` loss ends it when the character sits
  in a tracked encounter; HP lost to a failed dying roll is not damage taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.tasks import Modifier, TaskResult, roll_task

RITUAL_XP = 1  # "a cost of 1xp per a ritual"
DANGEROUS_BONUS = 5
BACKLASH_EFFECT_ONLY = 8
MAX_TEXT = 100


class Tier(Enum):
    ONE = 1
    TWO = 2
    THREE = 3

    @property
    def difficulty(self) -> int:
        return {1: -10, 2: -15, 3: -20}[self.value]

    @property
    def casting_time(self) -> str:
        # Ruling ritual-time.
        return {1: "a minute to an hour", 2: "an hour to a day", 3: "as the GM rules"}[self.value]

    @property
    def needs_component(self) -> bool:
        return self is Tier.TWO


class Form(Enum):
    RITUAL = "ritual"
    SPELL = "spell"  # spontaneous, within a category bought with a special


class Extension(Enum):
    """What a caster did with the time to earn advantage."""

    NONE = "none"
    MAXIMUM_TIME = "maximum time"  # an hour for tier one, a whole day for tier two
    EXTRA_ROUND = "one more full round"
    COMPONENT = "ritual component"  # tier one rituals only


class Backlash(Enum):
    NONE = "none"
    EFFECT = "a random magical effect"
    CONSEQUENCES = "a random magical effect and further consequences"


def _text(value: str, what: str) -> str:
    clean = " ".join(str(value).split())
    if not clean or len(clean) > MAX_TEXT:
        raise RulesError(f"Give the {what} in 1 to {MAX_TEXT} characters.")
    return clean


def effect_text(value: str) -> str:
    """A concentration's effect as held: spaces tidied, 1 to 100 characters."""
    return _text(value, "effect")


@dataclass(frozen=True, kw_only=True)
class Casting:
    form: Form
    tier: Tier
    subfield: str  # the Mysteries subfield rolled
    category: str = ""  # a spell's category of magic
    extension: Extension = Extension.NONE
    component: bool = False  # a ritual component at hand
    dangerously: bool = False
    attacked: bool = False  # attacked while casting

    def __post_init__(self) -> None:
        object.__setattr__(self, "subfield", _text(self.subfield, "Mysteries subfield"))
        if self.form is Form.SPELL:
            object.__setattr__(self, "category", _text(self.category, "spell's category"))
        check_extension(self)


def check_extension(casting: Casting) -> None:
    """Refuse an advantage the text does not give this casting (ruling ritual-time)."""
    ext = casting.extension
    if casting.form is Form.SPELL and ext in (Extension.MAXIMUM_TIME, Extension.COMPONENT):
        raise RulesError("A spontaneous spell gains advantage only from one more full round.")
    if casting.tier is Tier.THREE and ext is Extension.MAXIMUM_TIME:
        raise RulesError("A tier three ritual can't use its maximum time; extend it a round.")
    if ext is Extension.COMPONENT and casting.tier is not Tier.ONE:
        raise RulesError("Only tier one rituals gain advantage from a component.")
    if casting.form is Form.RITUAL and casting.tier is Tier.TWO and not casting.component:
        raise RulesError("A tier two ritual always needs a ritual component.")


def advantage_sources(casting: Casting) -> int:
    """Ruling casting-advantage: one advantage however many sources."""
    if casting.extension is not Extension.NONE:
        return 1
    if casting.form is Form.RITUAL and casting.tier is Tier.ONE and casting.component:
        return 1
    return 0


def backlash_for(roll: TaskResult) -> Backlash:
    """Ruling backlash-bands."""
    if roll.succeeded:
        return Backlash.NONE
    if roll.total >= BACKLASH_EFFECT_ONLY:
        return Backlash.EFFECT
    return Backlash.CONSEQUENCES


@dataclass(frozen=True, kw_only=True)
class CastResult:
    """A casting's outcome; ``roll`` is None when damage made it fail unrolled."""

    casting: Casting
    roll: TaskResult | None
    backlash: Backlash

    @property
    def succeeded(self) -> bool:
        return self.roll is not None and self.roll.succeeded

    @property
    def interrupted(self) -> bool:
        return self.roll is None

    @property
    def random_effects(self) -> int:
        """Ruling ``random-effect``: one for casting dangerously, one for any backlash."""
        if self.roll is None:
            return 0  # nothing was cast, dangerously or not
        return int(self.casting.dangerously) + int(self.backlash is not Backlash.NONE)

    @property
    def random_effect(self) -> bool:
        return self.random_effects > 0

    @property
    def shortfall(self) -> int:
        """How far below 8 a backlash with consequences fell (0 otherwise)."""
        if self.roll is None or self.backlash is not Backlash.CONSEQUENCES:
            return 0
        return BACKLASH_EFFECT_ONLY - self.roll.total


def cast(
    character: Character,
    casting: Casting,
    *,
    advantage: int = 0,
    disadvantage: int = 0,
    dice: Dice,
) -> CastResult:
    """The casting roll: 2d10 + mind + mysteries (subfield) + the tier's difficulty.

    Ruling ``no-mysteries``: a caster without the subfield rolls it at 0, as any
    task without its skill does.
    """
    skill = SkillKey(skill=Skill.MYSTERIES, subfield=casting.subfield)
    extra: tuple[Modifier, ...] = ()
    if casting.dangerously:
        extra = (Modifier(label="casting dangerously", value=DANGEROUS_BONUS),)
    edge = advantage_sources(casting)
    roll = roll_task(
        attribute=character.attribute(Attribute.MIND),
        skill=character.skill(skill),
        difficulty=casting.tier.difficulty,
        extra=extra,
        advantage=advantage + edge,
        disadvantage=disadvantage + (1 if casting.attacked else 0),
        attribute_label="mind",
        skill_label=skill.label,
        difficulty_label=f"tier {casting.tier.value}",
        dice=dice,
    )
    return CastResult(casting=casting, roll=roll, backlash=backlash_for(roll))


def interrupted(casting: Casting) -> CastResult:
    """Ruling ``damage-fails``: damage in combat while casting fails it with no roll."""
    return CastResult(casting=casting, roll=None, backlash=Backlash.NONE)


@dataclass(frozen=True, kw_only=True)
class Concentration:
    """The one lasting effect a caster holds (ruling one-concentration)."""

    effect: str | None = None

    @property
    def holding(self) -> bool:
        return self.effect is not None


def concentrate(state: Concentration, effect: str) -> tuple[Concentration, str | None]:
    """Hold a new effect; returns the new state and the effect it ended, if any."""
    return Concentration(effect=_text(effect, "effect")), state.effect


def after_casting(
    state: Concentration, result: CastResult, effect: str | None
) -> tuple[Concentration, str | None]:
    """Concentration after a casting that needs it (``effect``) or not (None).

    Ruling ``one-concentration``: casting a concentration spell or ritual lets go of
    the one held, even when the new casting fails; only a success holds the new one.
    A casting damage interrupted ends concentration too (ruling ``damage-fails``).
    Returns the new state and the effect that ended, if any.
    """
    if result.interrupted:
        return on_damage(state)
    if effect is None:
        return state, None
    clean = effect_text(effect)
    if result.succeeded:
        return concentrate(state, clean)
    return Concentration(), state.effect


def on_damage(state: Concentration) -> tuple[Concentration, str | None]:
    """Damage in combat ends concentration (rulings ``damage-fails``, ``concentration-damage``).

    A casting under way when the damage lands fails outright: no roll is made,
    so there is no backlash either.
    """
    return Concentration(), state.effect
