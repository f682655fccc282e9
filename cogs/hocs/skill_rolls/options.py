"""Options shared by /pool, /check and /clash: bounds, parsing, autocomplete, rulings."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.rules.errors import RulesError
from bot.rules.hocs.character import CharacterSheet, match_sheet_names
from bot.rules.hocs.difficulty import Difficulty, match_difficulty_names, parse_difficulty
from bot.rules.hocs.modifiers import MAX_MODIFIER, MAX_POOL_DICE, MAX_REROLLS
from bot.tables.character_access import MAX_NAME

Count = commands.Range[int, 0, MAX_MODIFIER]
Rerolls = commands.Range[int, 0, MAX_REROLLS]
Dice = commands.Range[int, 0, MAX_POOL_DICE]
Text = commands.Range[str, 1, 100]
Name = commands.Range[str, 1, MAX_NAME]
MAX_LABEL = 100
MAX_DIFFICULTY_TEXT = 40

# What /pool and /check show Discord for the options they share (keyword arguments of
# ``app_commands.describe``).
ROLL_OPTION_HELP = {
    "difficulty": "Test difficulty: a number 0–10 or a name such as Hard",
    "boons": "Boons (any net boon adds 1d6; they cancel banes)",
    "focus": "Focus: +1 to one die each",
    "rerolls": "Rerolls: roll one failed die again each",
    "guaranteed": "Guaranteed successes: turn one die into a 4 each",
    "secret": "Show the result only to you and the GM",
}
# The options only one of /pool and /check has (also /odds pool and /odds check).
POOL_OPTION_HELP = {
    "dice": f"Number of d6 in the pool (0–{MAX_POOL_DICE})",
    "banes": "Banes (−1d6 per 2 banes, rounded up, after boons cancel them)",
}
CHECK_OPTION_HELP = {
    "skill": "Skill or attribute from the character's sheet",
    "banes": "Banes besides the conditions' (added automatically)",
    "character": "Whose sheet (default: your active character)",
}
ODDS_OPTION_HELP = "Show the exact chances before the dice"

_LABELLED = re.compile(r"^(?P<name>.*?)\s*\((?P<number>-?\d+)\)\s*$")

BUTTONS_RULING = (
    "Buttons under the reply spend the roller's determination, hero or fortune points"
    " after the roll (see /help hero spend); /clash and /attack have a row per side."
)

POOL_RULINGS = [
    "Successes are dice showing 4–6. Boons: any net boon adds 1d6 (they don't stack);"
    " each boon cancels one bane; net banes remove ⌈banes/2⌉ dice (1–2 → −1d6, 3–4 → −2d6).",
    "Banes can empty a pool: nothing is rolled and it counts 0 successes.",
    "Modifiers are used optimally (most successes expected, then most 6s, which break clash"
    " ties): rerolls one at a time, each after seeing the last (the determination die first"
    " among equal failures, a success only when a spare guarantee makes it free), then"
    " guarantees and focus fix failures and leftover focus turns 5s into 6s. Unusable ones"
    " are shown.",
    "Determination (spent before the roll) is one more boon; that boon die explodes on 6s."
    " On /pool it is spent from your active character; with none, it is refused.",
    "Difficulty 0 (Routinary or Easy): no need to roll — an automatic success.",
    "Advantage: 2 or more successes over the difficulty. A 1 on the determination die"
    " of a failed test flags a possible critical failure.",
    BUTTONS_RULING,
]

CHECK_RULINGS = [
    "The pool is the sheet's skill value (attribute + training + expertise), or the"
    " attribute alone; an untrained special skill is refused.",
    "Condition banes are added automatically: staggered 2, fatigued 1 per instance.",
    "Wounds count: the attribute is the wounded one (a strength wound lowers strength"
    " skills and the STR die), and injuries add their banes (on most rolls, or on"
    " strength and agility rolls). Arm and leg injuries: add those banes yourself.",
    "Determination is spent from the character atomically with the roll; with 0 points"
    " nothing is rolled. Only the owner or the GM may roll for a character.",
    POOL_RULINGS[0],
    "Banes can empty a pool (0 successes). Focus, rerolls and guaranteed successes are"
    " used optimally, as in /pool (see /help pool for the order).",
    POOL_RULINGS[4],
    POOL_RULINGS[5],
    BUTTONS_RULING,
]

CLASH_RULINGS = [
    "More successes wins; a tie goes to more 6s, but in an attack the attacker (you) wins"
    " ties. If neither side rolls a success the clash is repeated; every round is shown.",
    "A non-attack tie in successes and 6s is repeated too; after 20 rounds it is a"
    " stand-off. If neither side has dice: stand-off (an attack lands).",
    "The opponent is a character (its sheet and conditions) or a pool size such as 4."
    " Its skill defaults to yours, or to defense in an attack.",
    "Winning by 2 or more successes gives advantage. Boons, banes and condition banes"
    " apply to each side as in tests.",
    "Both sides take focus, rerolls, guaranteed successes and determination before the"
    " roll (opponent_…). The opponent's determination is spent only by its owner or the"
    " GM; a plain pool has none.",
    "After the roll each character's side has its own Spend determination, Hero reroll"
    " and Fortune reroll buttons (its owner or the GM), on its roll in the deciding round."
    " The clash is decided again; a round that ends deadlocked is repeated as usual.",
]

CLASH_OPTION_HELP = {
    "skill": "Your skill or attribute",
    "opponent": "A character's name, or a number of dice such as 4",
    "opponent_skill": "The opponent's skill (default: yours, or defense in an attack)",
    "attack": "You attack: the attacker wins ties",
    "boons": "Your boons",
    "banes": "Your banes besides your conditions'",
    "focus": "Your focus: +1 to one die each",
    "rerolls": "Your rerolls: roll one failed die again each",
    "guaranteed": "Your guaranteed successes: turn one die into a 4 each",
    "determination": "Spend a determination point on your roll (+1 exploding boon)",
    "opponent_boons": "The opponent's boons",
    "opponent_banes": "The opponent's banes besides its conditions'",
    "opponent_focus": "The opponent's focus",
    "opponent_rerolls": "The opponent's rerolls",
    "opponent_guaranteed": "The opponent's guaranteed successes",
    "opponent_determination": "The opponent spends a determination point (its owner or the GM)",
    "character": "Your character (default: your active character)",
}


def parse_difficulty_option(value: str | None) -> Difficulty | None:
    """A difficulty typed or picked: a number 0–10, a table name, or "Hard (4)"."""
    if value is None or not value.strip():
        return None
    text = value.strip()[:MAX_DIFFICULTY_TEXT]
    labelled = _LABELLED.match(text)
    if labelled:
        text = labelled["number"]
    try:
        return parse_difficulty(text)
    except RulesError as exc:
        raise UserError(escape_user_text(str(exc))) from None


def escape_user_text(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def clean_label(label: str | None) -> str | None:
    if label is None:
        return None
    text = " ".join(label.split())[:MAX_LABEL]
    return text or None


def difficulty_choices(current: str) -> list[app_commands.Choice[str]]:
    """Names with their numbers; the value sent back is the number."""
    choices = []
    for label in match_difficulty_names(current or ""):
        number = _LABELLED.match(label)
        value = number["number"] if number else label
        choices.append(app_commands.Choice(name=label, value=value))
    return choices[:25]


def skill_choices(current: str, sheet: CharacterSheet | None) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=name, value=name)
        for name in match_sheet_names((current or "")[:100], sheet)
    ][:25]


def opponent_pool_size(value: str) -> int | None:
    """The opponent as a bare number of dice ("4", "4d6"), or None for a character name."""
    match = re.fullmatch(r"\s*(\d{1,3})\s*(?:d6?)?\s*", value, flags=re.IGNORECASE)
    if not match:
        return None
    size = int(match[1])
    if size > MAX_POOL_DICE:
        raise UserError(f"An opponent pool has at most {MAX_POOL_DICE} dice; you gave {size}.")
    return size
