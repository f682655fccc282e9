"""Options, autocomplete and rulings for /attack, /damage, /hp and /condition."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.interactions.hp_change import HOCS_WORDING
from bot.interactions.hp_change import parse_hp_change as shared_parse_hp_change
from bot.render.text import safe
from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.damage_pool import DamageType
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.storage.hocs.characters import CharacterRepository
from bot.tables.character_access import MAX_NAME
from cogs.hocs.visibility import HIDDEN_RULING

Count = commands.Range[int, 0, MAX_MODIFIER]
Name = commands.Range[str, 1, MAX_NAME]
Text = commands.Range[str, 1, 100]
DifficultyValue = commands.Range[int, 0, 10]
ConditionValue = commands.Range[int, 1, 30]
AdvantageChoice = Literal["impact_d8", "impact_d6", "tempo", "aegis"]
KindChoice = Literal["melee", "ranged", "magic"]
ThresholdChoice = Literal["physique", "willpower"]
ConditionChoice = Literal[
    "staggered",
    "unconscious",
    "stable",
    "dying",
    "fatigued",
    "bleeding",
    "hindered",
    "slow",
    "defenseless",
    "outnumbered",
    "flanked",
    "dead",
]

CHOICE_MINUTES = 15

THRESHOLD_DETERMINATION_HELP = (
    "The target spends determination on its threshold test, if one is due (owner or GM)"
)

# /damage's options (also /odds damage's, which adds its own target and toughness).
DAMAGE_OPTION_HELP = {
    "dice": "Dice such as 1d10 1d8 2d6 (+N bonus), or one of your character's weapons",
    "target": "Apply the damage to this character",
    "damage_type": "Damage types of typed dice, e.g. slash, fire (default physical)",
    "nonlethal": "Non-lethal damage (a weapon then rolls no lethality die)",
    "threshold": "The target's threshold test skill (default: more dice)",
    "threshold_determination": THRESHOLD_DETERMINATION_HELP,
    "character": "Whose weapon (default: your active character)",
}

ATTACK_OPTION_HELP = {
    "target": "Character attacked",
    "weapon": "Weapon name or dice, e.g. 1d12 (default: first weapon)",
    "skill": "Default: melee/ranged combat or spellcasting",
    "lethal": "False: non-lethal (default: the weapon's)",
    "boons": "Extra boons",
    "banes": "Extra banes (conditions are automatic)",
    "focus": "Your focus: +1 to one die each",
    "rerolls": "Your rerolls: roll one failed die again each",
    "guaranteed": "Your guaranteed successes",
    "determination": "Spend a determination point on your roll (+1 exploding boon)",
    "advantage": "On a win by 2+ (default impact_d8)",
    "defense_skill": "Target's skill (default defense)",
    "defender_boons": "The target's boons on its defense roll",
    "defender_banes": "The target's extra banes (conditions are automatic)",
    "defender_focus": "The target's focus on its defense roll",
    "defender_rerolls": "The target's rerolls on its defense roll",
    "defender_guaranteed": "The target's guaranteed successes",
    "defender_determination": "The target spends a determination point (its owner or the GM only)",
    "threshold": "The target's threshold test skill (default: more dice)",
    "threshold_determination": THRESHOLD_DETERMINATION_HELP,
    "kind": "Typed dice: melee, ranged or magic",
    "damage_type": "Typed dice: e.g. slash, fire",
    "difficulty": "Ranged vs defenseless (default 1)",
    "character": "Attacker (default: your active one)",
}

# Which points a threshold test takes, and from whom: the same under /attack and /damage.
THRESHOLD_POINTS_RULING = (
    "The threshold test is the target's skill roll, so it takes the target's points as any"
    " roll does: determination before it (threshold_determination:, one exploding boon in"
    " the test's pool from the start; kept if no test is due) or after it, hero and"
    " fortune rerolls after it, with its own row of buttons. Only the target's owner or"
    " the GM spends them (not the attacker's player); each spend is atomic and judges the"
    " outcome (staggered, unconscious, dying) again, within the 15 minutes of the damage"
    " choice while the target is as the hit left it. /hero spend reroll, /fortune spend"
    " and /determination spend never reach a threshold test: use its buttons."
)
THRESHOLD_KEPT_RULING = (
    "A hit redone from its dice (another die kept, a hero point's reroll or 2d6) keeps its"
    " threshold test and the points spent on it (rolled dice stay rolled)."
)
# Points spent after the old test's roll answered dice the new test doesn't have: a
# table hands them back, and the new test takes points again by its own buttons.
THRESHOLD_REDO_RULING = (
    THRESHOLD_KEPT_RULING[:-1] + "; an attack decided again rolls new damage and a new"
    " test, which takes a determination point spent before the old one (given back if no"
    " test is due now). Points spent after the old test's roll (determination, hero,"
    " fortune) are given back once, in the same step (determination up to its maximum, a"
    " fortune point to its source): the new test has its own buttons."
)

ATTACK_RULINGS = [
    "The attacker's owner or the GM attacks (character: picks the sheet); any character"
    " can be the target.",
    "Clash: melee/ranged combat (spellcasting for magic) vs defense (defense_skill:);"
    " attacker wins ties; no successes on either side: rolled again.",
    "Automatic: banes for staggered (2), fatigued (1 each), injuries on most rolls; a boon"
    " each for a flanked/outnumbered target (melee) and per larger size group; 1 focus vs"
    " a larger target of the same group. Give limb injuries and extra attacks as banes:.",
    "Defenseless or unconscious target: melee hits without a roll, ranged is a test vs"
    " difficulty: (default 1); a hit earns a combat advantage.",
    "Win by 2+: advantage: (default impact_d8). Counter is the defender's and is announced.",
    "On the tracker (the attacker's turn in this channel's /init): the second and later"
    " attacks of the turn take 1 bane, none after tempo earned that turn; aegis gives its"
    " holder 1 reroll on each defense roll until the end of its next turn. Other attacks"
    " (of opportunity, without an encounter) aren't counted: give their banes by hand.",
    "Both sides take focus, rerolls, guaranteed successes and determination before the"
    " roll (defender_…); the defender's determination only by its owner or the GM. A side"
    " that rolls nothing keeps its point.",
    "After the roll each side has its own Spend determination, Hero reroll and Fortune"
    " reroll buttons (its owner or the GM). A spend that changes the outcome redoes the"
    " hit: the old damage is undone and new damage rolled and applied, in one step, while"
    " the target is as the hit left it and within the 15 minutes of the damage choice.",
    "A changed deciding round that ends deadlocked is repeated, as in any clash.",
    "threshold: the target's choice of physique or willpower for a threshold test"
    " (default: the one with more dice). " + THRESHOLD_POINTS_RULING,
    THRESHOLD_REDO_RULING,
    "Pool: weapon dice, d10 lethality unless non-lethal, the STR/AGI/mettle attribute die,"
    " size and weakness dice, impact. Then as /damage: see /help damage.",
]

DAMAGE_RULINGS = [
    "dice: typed dice (at most 12, d4–d20, +N bonus) plus the target's weakness d10s, or a"
    " weapon of your character (the full /attack pool). Anyone may apply damage to a target.",
    "The bot keeps the die with the best expected total (only it explodes on 10) and adds"
    " +1 per other die at its maximum.",
    "Toughness (armor) or mettle (mental, spiritual), +2 for one matching resistance; at"
    " least 1 HP lost; temporary HP first; non-lethal stops at 0 HP and knocks out.",
    "At 0 HP or below inside the threshold the bot rolls the target's threshold test at"
    " once with physique or willpower (threshold:, default the one with more dice);"
    " beyond it: dead. " + THRESHOLD_POINTS_RULING,
    "10+ received by a survivor: wound check, stored with its effects; wounds equal to"
    " strength or max HP 0 kill.",
    f"Buttons: the roller, the attacker's owner or the GM may keep another die for"
    f" {CHOICE_MINUTES} minutes while the target is unchanged; the hit is redone from"
    " before it, reusing every die already rolled.",
    "Hero point: 2d6 off your last hit (/hero spend damage). Attacks and damage are logged.",
    "Hero reroll damage (button, a player character's weapon roll): its owner or the GM"
    " spends a hero point to reroll every damage die below its average, within the same"
    " 15 minutes; the kept die is chosen again, the threshold test and wound check already"
    " rolled stay.",
    THRESHOLD_KEPT_RULING,
]

HP_RULINGS = [
    "GM only: /hp is the GM's manual adjustment.",
    "+N heals (never above the maximum, wounds included) and gives back non-lethal damage"
    " first as it heals; reaching 1 HP or more clears staggered.",
    "-N takes hit points straight off: no toughness, no temporary HP, no threshold test"
    " (use /damage for the full steps); the reply warns at 0 HP or beyond the threshold.",
    "temp N sets temporary hit points to N (0 clears them); set N sets current HP.",
]

CONDITION_RULINGS = [
    "add and remove are GM only; anyone can list a character's conditions, except an"
    " NPC's when the GM hides them: " + HIDDEN_RULING,
    "Fatigued stacks: add gives value: more instances (default 1), remove takes value:"
    " instances away (default all). Bleeding keeps the higher value.",
    "Wounded follows the wound list (/character wounds), so it isn't set by hand.",
    "The bot applies: staggered (2 banes), fatigued (1 bane each) on the character's rolls;"
    " outnumbered and flanked (1 boon each on melee attacks against it); defenseless and"
    " unconscious (attacks need no clash and gain a combat advantage).",
]


def user_rules_error(exc: RulesError) -> UserError:
    """A rules refusal whose text may quote what the user typed, made inert."""
    return UserError(discord.utils.escape_mentions(str(exc)))


def condition_from(name: str) -> Condition:
    try:
        return Condition(name)
    except ValueError:
        raise UserError(f"There is no condition called {safe(name[:30])}.") from None


def damage_type_names(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a list of types: completes the last word typed."""
    head, _, last = current.rpartition(",")
    prefix = (head + ", ") if head else ""
    names = [t.value for t in DamageType if t.value.startswith(last.strip().lower())]
    return [app_commands.Choice(name=(prefix + n)[:100], value=(prefix + n)[:100]) for n in names][
        :25
    ]


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        names = await CharacterRepository(conn).search_names(
            interaction.guild_id, current[:MAX_NAME], owner_id=interaction.user.id
        )
    return name_choices(names)


async def weapon_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The weapons of the character named in ``character`` (or the user's active one)."""
    if interaction.guild_id is None:
        return []
    named = getattr(interaction.namespace, "character", None)
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        repo = CharacterRepository(conn)
        if isinstance(named, str) and named.strip():
            character = await repo.find(interaction.guild_id, named[:MAX_NAME])
        else:
            character = await repo.get_active(interaction.guild_id, interaction.user.id)
    if character is None:
        return []
    text = current.strip().lower()
    return [
        app_commands.Choice(name=w.name, value=w.name)
        for w in character.details.weapons
        if text in w.name.lower()
    ][:25]


def parse_hp_change(text: str) -> tuple[str, int]:
    """``/hp``'s change in this ruleset's words (``bot.interactions.hp_change``)."""
    return shared_parse_hp_change(text, HOCS_WORDING, temp=True)
