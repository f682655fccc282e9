"""Sheet changes asked for by /character subcommands, as values: no Discord, no SQL.

Each function takes the current sheet and details and returns an ``Outcome``:
the new sheet and details, what changed (old → new) and notes for the player.
A refusal is a UserError or RulesError and nothing is saved.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.interactions.user_text import clean_name, clean_text, echo
from bot.render.hocs.character import FUNDAMENTAL_QUESTIONS, Change, skill_display_name
from bot.render.text import safe
from bot.rules.generic.names import normalise_name
from bot.rules.hocs.attributes import Attribute, parse_attribute
from bot.rules.hocs.character import CharacterSheet, SizeCategory, match_sheet_names
from bot.rules.hocs.skills import Skill, SkillCategory, find_skill
from bot.storage.hocs.character_codec import MAX_TRAITS, CharacterDetails
from cogs.hocs.characters.options import (
    MAX_CUSTOM_SKILLS,
    MAX_FUNDAMENTAL,
    MAX_SKILL_NAME,
    MAX_TRAIT,
)

CLEAR = "-"  # a fundamental given as "-" is cleared


@dataclass(frozen=True)
class Outcome:
    sheet: CharacterSheet
    details: CharacterDetails
    changes: tuple[Change, ...]
    notes: tuple[str, ...] = ()


def expected_traits(tier: int) -> int:
    """3 traits at tier 1 and one more per tier after (Character Arc)."""
    return 2 + tier


# --- edit ---------------------------------------------------------------------------

_LABELS = {
    "name": "Name",
    "strength": "STR",
    "agility": "AGI",
    "mind": "MIND",
    "presence": "PRES",
    "tier": "Tier",
    "exp": "Exp",
    "size": "Size",
    "spirit_attribute": "Mettle attribute",
    "uses_instinct": "Instinct",
    "armor": "Toughness (armor)",
    "load": "Load (item slots)",
}


def _shown(value: Any) -> Any:
    if isinstance(value, SizeCategory | Attribute):
        return value.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def edit_sheet(sheet: CharacterSheet, details: CharacterDetails, **given: Any) -> Outcome:
    """Change the sheet values given (None means unchanged).

    Refuses a tier below a skill's training: the training must be lowered first.
    """
    values = {key: value for key, value in given.items() if value is not None}
    if not values:
        raise UserError(
            "Nothing to change: give at least one option, e.g. strength, tier or new_name."
        )
    armor = values.pop("armor", details.armor)
    load = values.pop("load", details.load)
    if "new_name" in values:
        values["name"] = clean_name(values.pop("new_name"))
    if "size" in values:
        values["size"] = SizeCategory(values["size"])
    if "spirit_attribute" in values:
        values["spirit_attribute"] = Attribute(values["spirit_attribute"])
    if "instinct" in values:
        values["uses_instinct"] = bool(values.pop("instinct"))
    tier = values.get("tier", sheet.tier)
    too_high = [(key, bonus) for key, bonus in sheet.training if bonus > tier]
    if too_high:
        key, bonus = too_high[0]
        raise UserError(
            f"{safe(skill_display_name(sheet, key))} has {bonus} training, more than tier"
            f" {tier} allows: lower it first with /character skill, then change the tier."
        )
    new_sheet = dataclasses.replace(sheet, **values)
    new_details = dataclasses.replace(details, armor=armor, load=load)
    changes = [
        Change(_LABELS[key], _shown(getattr(sheet, key)), _shown(getattr(new_sheet, key)))
        for key in values
        if getattr(sheet, key) != getattr(new_sheet, key)
    ]
    if armor != details.armor:
        changes.append(Change(_LABELS["armor"], details.armor, armor))
    if load != details.load:
        changes.append(Change(_LABELS["load"], details.load, load))
    if not changes:
        raise UserError("Those are already the sheet's values: nothing changed.")
    return Outcome(new_sheet, new_details, tuple(changes))


# --- skills -------------------------------------------------------------------------


def known_skill(sheet: CharacterSheet, name: str) -> Skill:
    """A catalogue or custom skill by name; a UserError with suggestions otherwise."""
    skill = find_skill(name, extra=sheet.custom_skills)
    if skill is not None:
        return skill
    if parse_attribute(name) is not None:
        raise UserError(
            f"{echo(name)} is an attribute, not a skill: change it with /character edit."
        )
    close = [n for n in match_sheet_names(name, sheet, limit=3) if parse_attribute(n) is None]
    hint = f"did you mean {', '.join(map(safe, close))}?" if close else "pick one from the list."
    raise UserError(f"There is no skill called {echo(name)}: {hint}")


def set_skill(
    sheet: CharacterSheet,
    details: CharacterDetails,
    skill_name: str,
    *,
    training: int | None,
    expertise: bool | None,
) -> Outcome:
    """Set training (0..tier) and/or expertise (one skill per character: it moves)."""
    if training is None and expertise is None:
        raise UserError("Nothing to change: give training (0 to the tier) or expertise.")
    skill = known_skill(sheet, skill_name)
    label = safe(skill.name)
    changes: list[Change] = []
    notes: list[str] = []
    new_training = dict(sheet.training)
    new_expertise = sheet.expertise
    if training is not None:
        if training > sheet.tier:
            raise UserError(
                f"Training goes up by one per tier: {safe(sheet.name)} is tier {sheet.tier},"
                f" so {label} can have at most {sheet.tier} training."
            )
        old = sheet.training_in(skill)
        if training != old:
            changes.append(Change(f"{label} training", old, training))
        new_training[skill.key] = training
    if expertise is True and sheet.expertise != skill.key:
        if sheet.expertise is not None:
            previous = skill_display_name(sheet, sheet.expertise)
            notes.append(
                f"Expertise moved from {safe(previous)} to {label}:"
                " a character has expertise in one skill only."
            )
        changes.append(Change(f"{label} expertise", "no", "yes"))
        new_expertise = skill.key
    elif expertise is False and sheet.expertise == skill.key:
        changes.append(Change(f"{label} expertise", "yes", "no"))
        new_expertise = None
    if not changes:
        raise UserError(f"{label} already has those values: nothing changed.")
    new_sheet = dataclasses.replace(sheet, training=new_training, expertise=new_expertise)
    old_value, new_value = sheet.skill_value(skill), new_sheet.skill_value(skill)
    if old_value != new_value:
        changes.append(Change(f"{label} skill value", old_value, new_value))
    if (
        skill.category is SkillCategory.SPECIAL
        and not new_sheet.training_in(skill)
        and not new_sheet.has_expertise(skill)
    ):
        notes.append(f"{label} is a special skill: without training it can't be rolled.")
    return Outcome(new_sheet, details, tuple(changes), tuple(notes))


def set_custom_skill(
    sheet: CharacterSheet,
    details: CharacterDetails,
    skill_name: str,
    *,
    attribute: str | None,
    remove: bool,
) -> Outcome:
    """Add (or re-tie) a custom special skill, or remove one with its training and expertise."""
    name = clean_text(skill_name, what="A skill name", limit=MAX_SKILL_NAME)
    key = normalise_name(name)
    existing = next((s for s in sheet.custom_skills if s.key == key), None)
    if remove:
        if existing is None:
            raise UserError(
                f"{safe(sheet.name)} has no custom skill called {echo(name)}: nothing to remove."
            )
        customs = tuple(s for s in sheet.custom_skills if s.key != key)
        training = {k: v for k, v in sheet.training if k != key}
        expertise = None if sheet.expertise == key else sheet.expertise
        new_sheet = dataclasses.replace(
            sheet, custom_skills=customs, training=training, expertise=expertise
        )
        notes = ()
        if sheet.training_in(existing) or sheet.has_expertise(existing):
            notes = ("Its training and expertise were removed with it.",)
        change = Change("Custom skill", existing.name, "removed")
        return Outcome(new_sheet, details, (change,), notes)
    if attribute is None:
        raise UserError(
            "Give the attribute the skill uses (strength, agility, mind, presence"
            " or mind or presence) to add it."
        )
    tied = None if attribute == "mind or presence" else Attribute(attribute)
    skill = Skill(name=name, attribute=tied, category=SkillCategory.SPECIAL)
    if existing is not None:
        if existing.attribute == tied:
            raise UserError(f"{echo(name)} already uses that attribute: nothing changed.")
        skill = dataclasses.replace(skill, name=existing.name)
        customs = tuple(skill if s.key == key else s for s in sheet.custom_skills)
        change = Change(f"{safe(existing.name)} attribute", _tie(existing), _tie(skill))
    else:
        if find_skill(name) is not None or parse_attribute(name) is not None:
            raise UserError(
                f"{echo(name)} is already a skill or an attribute: pick another name"
                " (train catalogue skills with /character skill)."
            )
        if len(sheet.custom_skills) >= MAX_CUSTOM_SKILLS:
            raise UserError(
                f"A sheet holds at most {MAX_CUSTOM_SKILLS} custom skills: remove one first."
            )
        customs = (*sheet.custom_skills, skill)
        change = Change("Custom skill", "—", f"{name} ({_tie(skill)}, special)")
    new_sheet = dataclasses.replace(sheet, custom_skills=customs)
    return Outcome(new_sheet, details, (change,), ("Train it with /character skill.",))


def _tie(skill: Skill) -> str:
    return skill.attribute.value if skill.attribute else "mind or presence"


# --- traits and fundamentals ----------------------------------------------------------


def change_traits(
    sheet: CharacterSheet, details: CharacterDetails, action: str, trait: str
) -> Outcome:
    """Add or remove a trait; more than the text gives is allowed with a note."""
    text = clean_text(trait, what="A trait", limit=MAX_TRAIT)
    key = normalise_name(text)
    present = next((t for t in details.traits if normalise_name(t) == key), None)
    if action == "remove":
        if present is None:
            have = ", ".join(safe(t) for t in details.traits) or "none"
            raise UserError(f"{safe(sheet.name)} has no trait {echo(text)} (traits: {have}).")
        traits = tuple(t for t in details.traits if t != present)
        change = Change("Traits", _traits(details.traits), _traits(traits))
        return Outcome(sheet, dataclasses.replace(details, traits=traits), (change,))
    if present is not None:
        raise UserError(f"{safe(sheet.name)} already has the trait {safe(present)}.")
    if len(details.traits) >= MAX_TRAITS:
        raise UserError(f"A sheet holds at most {MAX_TRAITS} traits: remove one first.")
    traits = (*details.traits, text)
    notes: tuple[str, ...] = ()
    expected = expected_traits(sheet.tier)
    if len(traits) > expected:
        notes = (
            f"The rules give {expected} traits at tier {sheet.tier} (3 at tier 1, one more"
            " per tier): kept anyway, as players may describe their character beyond that.",
        )
    change = Change("Traits", _traits(details.traits), _traits(traits))
    return Outcome(sheet, dataclasses.replace(details, traits=traits), (change,), notes)


def _traits(traits: tuple[str, ...]) -> str:
    return ", ".join(traits) or "none"


def set_fundamentals(
    sheet: CharacterSheet,
    details: CharacterDetails,
    *,
    who: str | None,
    believe: str | None,
    want: str | None,
) -> Outcome:
    """Answer any of the three questions; "-" clears an answer."""
    given = {"who": who, "believe": believe, "want": want}
    given = {key: value for key, value in given.items() if value is not None}
    if not given:
        raise UserError("Give who, believe or want (or - to clear one).")
    answers: dict[str, str] = {}
    for key, value in given.items():
        if value.strip() == CLEAR:
            answers[key] = ""
        else:
            answers[key] = clean_text(value, what="An answer", limit=MAX_FUNDAMENTAL)
    new_details = dataclasses.replace(details, **answers)
    changes = tuple(
        Change(FUNDAMENTAL_QUESTIONS[key], getattr(details, key) or "—", answer or "—")
        for key, answer in answers.items()
        if getattr(details, key) != answer
    )
    if not changes:
        raise UserError("Those are already the answers: nothing changed.")
    return Outcome(sheet, new_details, changes)
