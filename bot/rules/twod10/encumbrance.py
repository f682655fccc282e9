"""Encumbrance: item weight to encumbrance points, toughness's ignored points, effects.

"Every 6 item weight in the backpack counts as 1 encumbrance point (ep). Every 4
readily accessible or worn item weight counts as 1 encumbrance point. ... Every
EP lowers movement by 5, penalizes rolls affected by encumbrance by one and
reduces overland travel points by one." Toughness ignores some points (the
table below). Weights come from the equipment tables (``equipment``).

Rulings:

* ``ep-rounding``: only full 6s (backpack) and full 4s (worn) count, each pile on
  its own; worn armor, shield and weapons are readily accessible.
* ``toughness-six``: the ignore table stops at toughness 5; toughness 6 ignores
  what 5 does.
* ``encumbrance-rolls``: the rolls encumbrance affects are Athletics, Stealth and
  every Finesse roll (attacks and Defense (finesse) included).
* ``backpack-draw``: drawing from a backpack with n EP in it rolls a d(2 + 2n)
  and draws the item on its top face, each earlier consecutive try adding 1;
  with no EP in the backpack the item comes out at once.
* ``mount-loads``: a cart's or mount's EP count full 10s of item weight (15s
  for what a mount pulls); they burden the cart or mount, not the character.
* ``pack-supplies``: rations (1/2 each) and medical supplies (1 a unit) ride in the
  backpack with the other backpack items; the sheet's armor, shield and weapons are
  worn (ruling ep-rounding).
* ``item-damage``: over 20 damage from one hit damages the item the d20 numbers,
  counting readily accessible items first; a number past the list hits nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.tasks import Modifier

BACKPACK_PER_EP = 6
WORN_PER_EP = 4
BASE_MOVEMENT = 30
FEET_PER_EP = 5
MAX_ITEMS = 200
MAX_WEIGHT = 20
ITEM_DAMAGE_OVER = 20
ITEM_DAMAGE_DIE = 20
MAX_TRIES = 50
CART_PER_EP = 10
MOUNT_CARRY_PER_EP = 10
MOUNT_PULL_PER_EP = 15

# Which encumbrance points (1-based) each toughness ignores, from the text's table.
IGNORED: dict[int, frozenset[int]] = {
    -1: frozenset({1}),
    0: frozenset({1}),
    1: frozenset({1, 3}),
    2: frozenset({1, 2, 4}),
    3: frozenset({1, 2, 4, 6}),
    4: frozenset({1, 2, 4, 5}),
    5: frozenset({1, 2, 3, 5, 6}),
    6: frozenset({1, 2, 3, 5, 6}),  # ruling toughness-six
}

MEDICAL_SUPPLIES_WEIGHT = 1
QUIVER_WEIGHT = 1
RATION_WEIGHT = Fraction(1, 2)


@dataclass(frozen=True, kw_only=True)
class Item:
    name: str
    weight: Fraction | int
    worn: bool = False  # readily accessible or worn, rather than in the backpack
    count: int = 1

    def __post_init__(self) -> None:
        clean = " ".join(str(self.name).split())
        if not clean or len(clean) > 60:
            raise RulesError("Name each item in 1 to 60 characters.")
        object.__setattr__(self, "name", clean)
        ok = isinstance(self.weight, (int, Fraction)) and not isinstance(self.weight, bool)
        weight = Fraction(self.weight) if ok else Fraction(-1)
        if not 0 <= weight <= MAX_WEIGHT:
            raise RulesError(f"An item weighs from 0 to {MAX_WEIGHT}.")
        object.__setattr__(self, "weight", weight)
        if (
            isinstance(self.count, bool)
            or not isinstance(self.count, int)
            or not (1 <= self.count <= MAX_ITEMS)
        ):
            raise RulesError(f"Carry from 1 to {MAX_ITEMS} of an item.")

    @property
    def total(self) -> Fraction:
        return Fraction(self.weight) * self.count


@dataclass(frozen=True, kw_only=True)
class Encumbrance:
    worn_weight: Fraction
    backpack_weight: Fraction
    toughness: int

    @property
    def worn_ep(self) -> int:
        return int(self.worn_weight // WORN_PER_EP)

    @property
    def backpack_ep(self) -> int:
        return int(self.backpack_weight // BACKPACK_PER_EP)

    @property
    def raw_ep(self) -> int:
        return self.worn_ep + self.backpack_ep

    @property
    def ignored(self) -> int:
        return len([n for n in range(1, self.raw_ep + 1) if n in IGNORED[self.toughness]])

    @property
    def ep(self) -> int:
        """Encumbrance points left after toughness ignores its share."""
        return self.raw_ep - self.ignored

    @property
    def movement(self) -> int:
        return max(BASE_MOVEMENT - FEET_PER_EP * self.ep, 0)

    @property
    def roll_penalty(self) -> int:
        return -self.ep

    @property
    def travel_penalty(self) -> int:
        return -self.ep


def equipped_items(character: Character) -> tuple[Item, ...]:
    """A sheet's armor, shield and weapons as worn items, weighed by the equipment tables."""
    gear: list[Item] = []
    if character.armor is not None:
        gear.append(Item(name=character.armor.name, weight=character.armor.weight, worn=True))
    if character.shield is not None:
        gear.append(Item(name=character.shield.name, weight=character.shield.weight, worn=True))
    gear.extend(Item(name=w.name, weight=w.weight, worn=True) for w in character.weapons)
    return tuple(gear)


def carried(
    character: Character,
    *,
    worn: Fraction,
    backpack: Fraction,
    rations: Fraction = Fraction(0),
    supplies: int = 0,
) -> Encumbrance:
    """A character's load: the sheet's gear and ``worn`` items readily accessible, the
    backpack items with rations and medical supplies in the backpack (ruling
    pack-supplies). ``rations`` counts rations (quarters allowed)."""
    if worn < 0 or backpack < 0 or rations < 0 or supplies < 0:
        raise RulesError("Carried weights can't be negative.")
    toughness = character.attribute(Attribute.TOUGHNESS)
    if toughness not in IGNORED:
        raise RulesError("Toughness must be a whole number from -1 to 6.")
    gear = sum((i.total for i in equipped_items(character)), Fraction(0))
    pack = backpack + rations * RATION_WEIGHT + supplies * MEDICAL_SUPPLIES_WEIGHT
    return Encumbrance(worn_weight=gear + worn, backpack_weight=pack, toughness=toughness)


def encumbrance(items: tuple[Item, ...], *, toughness: int) -> Encumbrance:
    if toughness not in IGNORED:
        raise RulesError("Toughness must be a whole number from -1 to 6.")
    if len(items) > MAX_ITEMS:
        raise RulesError(f"List at most {MAX_ITEMS} items.")
    worn = sum((i.total for i in items if i.worn), Fraction(0))
    pack = sum((i.total for i in items if not i.worn), Fraction(0))
    return Encumbrance(worn_weight=worn, backpack_weight=pack, toughness=toughness)


def encumbrance_applies(attribute: Attribute, skill: SkillKey | None = None) -> bool:
    """Ruling encumbrance-rolls."""
    if attribute is Attribute.FINESSE:
        return True
    return skill is not None and skill.skill in (Skill.ATHLETICS, Skill.STEALTH)


def encumbrance_modifier(
    load: Encumbrance, attribute: Attribute, skill: SkillKey | None = None
) -> Modifier | None:
    """The roll penalty a task takes, or None when encumbrance doesn't touch it."""
    if load.ep == 0 or not encumbrance_applies(attribute, skill):
        return None
    return Modifier(label="encumbrance", value=load.roll_penalty)


@dataclass(frozen=True, kw_only=True)
class Draw:
    face: int | None  # None: nothing to roll, the backpack carries no EP
    sides: int
    bonus: int

    @property
    def drawn(self) -> bool:
        return self.face is None or self.face + self.bonus >= self.sides


def draw_from_backpack(backpack_ep: int, *, attempt: int = 1, dice: Dice) -> Draw:
    """One action's try at getting an item out of the backpack (ruling backpack-draw)."""
    if isinstance(attempt, bool) or not isinstance(attempt, int) or not 1 <= attempt <= MAX_TRIES:
        raise RulesError(f"The attempt number goes from 1 to {MAX_TRIES}.")
    if (
        isinstance(backpack_ep, bool)
        or not isinstance(backpack_ep, int)
        or not (0 <= backpack_ep <= MAX_ITEMS)
    ):
        raise RulesError("Backpack encumbrance must be a whole number of points.")
    if backpack_ep == 0:
        return Draw(face=None, sides=0, bonus=0)
    sides = 2 + 2 * backpack_ep
    return Draw(face=dice.roll(sides), sides=sides, bonus=attempt - 1)


def damaged_item(damage: int, items: tuple[Item, ...], *, dice: Dice) -> Item | None:
    """Over 20 damage: the GM's d20 picks the numbered item (ruling item-damage)."""
    rolled = roll_item_damage(damage, items, dice=dice)
    return rolled[1] if rolled is not None else None


def roll_item_damage(
    damage: int, items: tuple[Item, ...], *, dice: Dice
) -> tuple[int, Item | None] | None:
    """The d20's face and the item it numbers (None past the list); None at 20 or less."""
    if damage <= ITEM_DAMAGE_OVER:
        return None
    listed = [i for i in items if i.worn] + [i for i in items if not i.worn]
    face = dice.roll(ITEM_DAMAGE_DIE)
    return face, (listed[face - 1] if face <= len(listed) else None)


def load_ep(weight: Fraction | int, *, pulled: bool = False, mount: bool = False) -> int:
    """A cart's or a four-legged mount's EP for the weight it holds (ruling mount-loads).

    "Every 10 items in a cart counts as one EP. A 4 legged mount can carry 10
    items per an EP and pull 15 per an EP."
    """
    ok = isinstance(weight, (int, Fraction)) and not isinstance(weight, bool)
    if not ok or not 0 <= weight <= 100 * MAX_ITEMS:
        raise RulesError(f"A load weighs from 0 to {100 * MAX_ITEMS}.")
    if mount and pulled:
        per = MOUNT_PULL_PER_EP
    elif mount:
        per = MOUNT_CARRY_PER_EP
    else:
        per = CART_PER_EP
    return int(Fraction(weight) // per)
