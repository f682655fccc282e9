"""Character sheets, lists and changes as embeds and lines.

Values in play are the effective (wounded) ones from ``Character.effective``; where a
wound changes one, the sheet shows the base value after it: ``10/10 (base 14)``.

Everything a user typed (names, traits, fundamentals, skill names) goes through
``safe`` so markdown and mentions show as typed and never format or ping.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.render.text import clip, safe
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Condition, ConditionKind, Conditions
from bot.rules.hocs.effective import EffectiveValues
from bot.rules.hocs.skills import CATALOGUE, Skill, find_skill
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import Character, CharacterKind

COLOUR = discord.Colour.dark_gold()
NPC_COLOUR = discord.Colour.dark_red()
DESCRIPTION_LIMIT = 4096
MINUS = "\u2212"

FUNDAMENTAL_QUESTIONS = {
    "who": "Who are you?",
    "believe": "What do you believe in?",
    "want": "What do you want?",
}


def signed(value: int) -> str:
    """A number with a real minus sign: −6."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def dice_text(sizes: Sequence[int]) -> str:
    """(8,) → 1d8; (8, 8) → 2d8."""
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    return " + ".join(f"{n}d{size}" for size, n in counts.items())


def with_base(effective: int | str, base: int | str, *, unit: str = "") -> str:
    """ "−5 (base −6)", "10 slots (base 11)" when a wound changed the value, else the value."""
    shown = (signed(effective) if isinstance(effective, int) else effective) + unit
    if effective == base:
        return shown
    return f"{shown} (base {signed(base) if isinstance(base, int) else base})"


def attribute_text(values: EffectiveValues, attribute: Attribute) -> str:
    """ "STR 3 (1d8)", or wounded "STR 2 (1d6, base 3)"; mind shows as INS with instinct."""
    sheet, value, base = values.sheet, values.attribute(attribute), values.base.attribute(attribute)
    dice = dice_text(values.attribute_die(attribute))
    extra = f", base {base}" if value != base else ""
    return f"{sheet.attribute_short(attribute)} {value} ({dice}{extra})"


def skill_display_name(sheet: CharacterSheet, key: str) -> str:
    skill = find_skill(key, extra=sheet.custom_skills)
    return skill.name if skill is not None else key


def skill_attribute_text(sheet: CharacterSheet, skill: Skill) -> str:
    return sheet.attribute_short(sheet.skill_attribute(skill))


def skill_line(values: EffectiveValues, skill: Skill) -> str:
    """ "Athletics (STR): training 1 + expertise → value 5" (wounded: "value 4 (base 5)")."""
    sheet = values.base
    parts = []
    training = sheet.training_in(skill)
    if training:
        parts.append(f"training {training}")
    if sheet.has_expertise(skill):
        parts.append("expertise")
    how = " + ".join(parts) if parts else "untrained"
    custom = ", custom" if skill in sheet.custom_skills else ""
    name = f"{safe(skill.name)} ({skill_attribute_text(sheet, skill)}{custom})"
    value = with_base(values.skill_value(skill), values.unwounded.skill_value(skill))
    return f"{name}: {how} → value {value}"


def _skills_field(values: EffectiveValues) -> str:
    sheet = values.base
    shown: list[Skill] = []
    for skill in (*sheet.custom_skills, *CATALOGUE):
        if skill in sheet.custom_skills or sheet.training_in(skill) or sheet.has_expertise(skill):
            shown.append(skill)
    lines = [skill_line(values, s) for s in shown]
    lines.append(
        "-# Other skills use the attribute alone; special skills need training."
        " Train with /character skill."
    )
    return clip("\n".join(lines))


def conditions_text(conditions: Conditions) -> str:
    if not len(conditions):
        return "none"
    parts = []
    for condition, number in conditions.entries:
        if condition.kind is ConditionKind.FLAG:
            parts.append(condition.value)
        else:
            parts.append(f"{condition.value} {number}")
    return ", ".join(parts)


def weapons_text(details: CharacterDetails) -> str:
    """One line per weapon: "Greatsword: 1d12 slash, melee"."""
    if not details.weapons:
        return "none yet: /character weapon add"
    lines = []
    for weapon in details.weapons:
        types = "/".join(t.value for t in weapon.types)
        lethal = "" if weapon.lethal else ", non-lethal"
        lines.append(
            f"{safe(weapon.name)}: {dice_text(weapon.dice)} {types}, {weapon.kind.value}{lethal}"
        )
    return clip("\n".join(lines))


def defenses_text(details: CharacterDetails) -> str:
    """Resistances, immunities and weaknesses; empty when there are none."""
    parts = []
    for label, types in (
        ("Resistant", details.resistances),
        ("Immune", details.immunities),
        ("Weak", details.weaknesses),
    ):
        if types:
            parts.append(f"{label}: {', '.join(t.value for t in types)}")
    return clip(" · ".join(parts))


def hit_points_text(character: Character) -> str:
    state, values = character.state, character.effective
    text = f"{state.hp}/{with_base(values.max_hp, values.unwounded.max_hp)}"
    if state.temp_hp:
        text += f" (+{state.temp_hp} temp)"
    if state.nonlethal:
        text += f"\n{state.nonlethal} non-lethal"
    if Condition.WOUNDED in state.conditions:
        text += "\nwounded: /character wounds list"
    return text


def status_word(character: Character) -> str:
    """The tracker's one-word state, for an NPC whose numbers the GM keeps hidden."""
    state, max_hp = character.state, character.effective.max_hp
    for condition in (Condition.DEAD, Condition.DYING, Condition.UNCONSCIOUS):
        if condition in state.conditions:
            return condition.value
    if state.hp <= 0:
        return "down"
    if state.hp >= max_hp:
        return "unhurt"
    return "hurt" if state.hp * 2 > max_hp else "bloodied"


HIDDEN = "hidden by the GM"


def header_line(character: Character) -> str:
    sheet = character.sheet
    return (
        f"{character.kind.title} · Tier {sheet.tier} ({sheet.exp} exp)"
        f" · {sheet.size.value.title()} · owner <@{character.owner_id}>"
    )


def sheet_embed(
    character: Character, *, active: bool = False, hidden: bool = False
) -> discord.Embed:
    """The whole sheet as one embed a player can screenshot.

    ``hidden``: an NPC whose state the GM keeps from this viewer: a status word instead
    of hit points, and no recovery, determination or conditions.
    """
    sheet, details, state = character.sheet, character.details, character.state
    values = character.effective
    base = values.unwounded
    colour = COLOUR if character.kind.value == "pc" else NPC_COLOUR
    embed = discord.Embed(title=clip(safe(sheet.name), 256), colour=colour)
    embed.description = header_line(character) + ("\n★ active character" if active else "")
    embed.add_field(
        name="Attributes",
        value=" · ".join(attribute_text(values, a) for a in Attribute),
        inline=False,
    )
    if hidden:
        embed.add_field(name="Hit points", value=f"{status_word(character)} ({HIDDEN})")
    else:
        embed.add_field(name="Hit points", value=hit_points_text(character))
    embed.add_field(name="Threshold", value=with_base(values.threshold, base.threshold))
    recovery_max = with_base(values.recovery_max, base.recovery_max)
    recovery = HIDDEN if hidden else f"{state.recovery}/{recovery_max}"
    embed.add_field(name="Recovery", value=recovery)
    determination = HIDDEN if hidden else f"{state.determination}/{values.determination_max}"
    embed.add_field(name="Determination", value=determination)
    if character.kind is CharacterKind.PC:
        # Hero points are for player characters only: an NPC never has any to show.
        embed.add_field(name="Hero points", value=str(state.hero_points))
    fortune = ", ".join(safe(s) for s in character.fortune_sources) or "none"
    embed.add_field(name="Fortune points", value=clip(fortune))
    carrying = with_base(values.carrying_capacity, base.carrying_capacity, unit=" slots")
    if values.load:  # shown once the player sets it (/character edit load:)
        carrying += f", load {values.load}"
        if values.overloaded:
            carrying += " — overloaded: 3 banes on STR/AGI rolls"
    embed.add_field(name="Carrying capacity", value=carrying)
    embed.add_field(name="Toughness", value=f"{details.armor} (armor)")
    spirit = sheet.attribute_label(sheet.spirit_attribute).lower()
    embed.add_field(name="Mettle", value=f"{values.mettle} ({spirit})")
    embed.add_field(name="Speed", value=with_base(values.speed, base.speed))
    embed.add_field(name="Skills", value=_skills_field(values), inline=False)
    embed.add_field(name="Weapons", value=weapons_text(details), inline=False)
    defenses = defenses_text(details)
    if defenses:
        embed.add_field(name="Defenses", value=defenses, inline=False)
    traits = ", ".join(safe(t) for t in details.traits) or "none yet: /character trait add"
    embed.add_field(name="Traits", value=clip(traits), inline=False)
    answered = False
    for key, question in FUNDAMENTAL_QUESTIONS.items():
        answer = getattr(details, key)
        if answer:
            answered = True
            embed.add_field(name=question, value=clip(safe(answer)), inline=False)
    if not answered:
        embed.add_field(
            name="Fundamentals", value="not answered yet: /character fundamentals", inline=False
        )
    conditions = HIDDEN if hidden else conditions_text(state.conditions)
    embed.add_field(name="Conditions", value=conditions, inline=False)
    return embed


def hidden_state_embed(character: Character, what: str) -> discord.Embed:
    """What a player learns of an NPC whose state the GM keeps hidden (``what``: a title)."""
    return discord.Embed(
        title=clip(f"{what}: {safe(character.name)}", 256),
        description=(
            f"{status_word(character)}. The GM keeps this character's hit points and"
            " conditions hidden."
        ),
        colour=NPC_COLOUR,
    )


def list_embed(
    characters: Sequence[Character], *, title: str, active_ids: Iterable[int]
) -> discord.Embed:
    """One line per character: active marker, name, kind, owner (a mention that never pings)."""
    active = set(active_ids)
    embed = discord.Embed(title=clip(title, 256), colour=COLOUR)
    if not characters:
        embed.description = "No characters yet: create one with /character create."
        return embed
    lines: list[str] = []
    used = 0
    for index, character in enumerate(characters):
        marker = "★ " if character.id in active else ""
        line = (
            f"{marker}**{safe(character.name)}** — {character.kind.title},"
            f" tier {character.sheet.tier} · <@{character.owner_id}>"
        )
        more = f"…and {len(characters) - index} more: filter with player:"
        if used + len(line) + 1 > DESCRIPTION_LIMIT - len(more) - 1:
            lines.append(more)
            break
        lines.append(line)
        used += len(line) + 1
    embed.description = "\n".join(lines)
    embed.set_footer(text="★ marks each player's active character.")
    return embed


@dataclass(frozen=True)
class Change:
    label: str
    old: object
    new: object

    def line(self) -> str:
        old, new = self.old, self.new
        if isinstance(old, int) and isinstance(new, int) and not isinstance(old, bool):
            old, new = signed(old), signed(new)
        if isinstance(old, str) and isinstance(new, str):
            old, new = safe(old), safe(new)
        return f"{self.label}: {old} → {new}"


def derived_values(character: Character) -> Mapping[str, int]:
    """Effective (wounded) maxima and tracked values, to compare before and after an edit."""
    values, state = character.effective, character.state
    return {
        "HP max": values.max_hp,
        "HP": state.hp,
        "Threshold": values.threshold,
        "Recovery max": values.recovery_max,
        "Recovery": state.recovery,
        "Determination max": values.determination_max,
        "Determination": state.determination,
        "Carrying capacity": values.carrying_capacity,
        "Mettle": values.mettle,
    }


def derived_changes(before: Character, after: Character) -> list[Change]:
    old, new = derived_values(before), derived_values(after)
    return [Change(key, old[key], new[key]) for key in old if old[key] != new[key]]


def changes_message(name: str, changes: Sequence[Change], notes: Sequence[str] = ()) -> str:
    """ "Updated **Mira**:" and one line per change, then notes; at most 2000 characters."""
    lines = [f"Updated **{safe(name)}**:"]
    lines += [f"• {change.line()}" for change in changes]
    lines += [f"-# {note}" for note in notes]
    return clip("\n".join(lines), 2000)
