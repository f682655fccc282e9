"""/cast's and /ritual's options, declared once, and the Mysteries subfield a 2d10
casting rolls (with its autocomplete)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.render.text import safe
from bot.rules.errors import RulesError
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.tasks import MAX_EDGE
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Sheet
from cogs.declared_options import Opt, pick, with_help
from cogs.twod10 import options

NONE = "none"  # the label of a caster without any Mysteries skill


def subfields(sheet: TwoD10Sheet) -> list[str]:
    return [k.subfield or "" for k, _ in sheet.character.skills if k.skill is Skill.MYSTERIES]


def mysteries_of(sheet: TwoD10Sheet, named: str | None) -> str:
    """The subfield to roll (ruling ``no-mysteries`` in bot.rules.twod10.magic).

    A named subfield is rolled at the sheet's rank in it (0 if it has none); with
    none named, the sheet's only subfield, or "none" (0) for a sheet without one.
    """
    if named is not None:
        try:
            return SkillKey(skill=Skill.MYSTERIES, subfield=named).subfield or NONE
        except RulesError as exc:
            raise options.rules(exc) from None
    held = subfields(sheet)
    if not held:
        return NONE
    if len(held) == 1:
        return held[0]
    listed = ", ".join(safe(s) for s in held[:5])
    raise UserError(
        f"{safe(sheet.name)} has several Mysteries subfields ({listed}): name one with mysteries:."
    )


async def mysteries_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The named (or active) character's Mysteries subfields."""
    if interaction.guild_id is None:
        return []
    name = getattr(interaction.namespace, "character", None)
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        repo = TwoD10CharacterRepository(conn)
        if isinstance(name, str) and name.strip():
            sheet = await repo.find(interaction.guild_id, name[:64])
        else:
            sheet = await repo.active(interaction.guild_id, interaction.user.id)
    found = subfields(sheet) if sheet is not None else []
    typed = current[:40].lower()
    return name_choices(s for s in found if typed in s)


TierNumber = commands.Range[int, 1, 3]
Count = commands.Range[int, 0, MAX_EDGE]
Name = commands.Range[str, 1, 64]
Text = commands.Range[str, 1, 100]
Subfield = commands.Range[str, 1, 40]
Label = commands.Range[str, 1, 80]
Duration = commands.Range[str, 1, 40]

# What /cast and /ritual both take, declared once in /cast's order; /ritual shows them
# in its own order (extend first: a ritual's time is its way to advantage) and with its
# own help where a ritual differs (cogs.declared_options: pick, with_help).
CASTING = (
    Opt("mysteries", Subfield, None, "Your Mysteries subfield to roll (default: your only one)",
        complete=mysteries_choices),
    Opt("dangerously", bool, False, "Cast dangerously: +5 and a random magical effect"),
    Opt("attacked", bool, False,
        "Attacked while casting: disadvantage (a tracked fight counts its own)"),
    Opt("extend", bool, False, "Extend the casting by a full round: advantage"),
    Opt("concentrate", Text, None, "A lasting effect you concentrate on, e.g. 'levitating'"),
    Opt("damaged", bool, False, "You took damage in combat while casting: it fails unrolled"),
    Opt("advantage", Count, 0, "Other advantage sources (each cancels one disadvantage)"),
    Opt("disadvantage", Count, 0, "Other disadvantage sources"),
    Opt("character", Name, None, "Who casts (default: your active character)",
        complete=options.character_names),
)  # fmt: skip
SECRET = Opt("secret", bool, False, "Show the result only to you and the GM")


def _tier(form: str) -> Opt:
    return Opt(
        "tier", TierNumber, help=f"The {form}'s tier: 1 (difficulty -10), 2 (-15) or 3 (-20)"
    )


CAST_OPTIONS = (
    _tier("spell"),
    Opt("category", Text, help="The category of magic your special covers, e.g. lightning"),
    *CASTING,
    Opt("label", Label, None, "What the spell is for"),
    SECRET,
)
# A ritual takes minutes, so a tracked fight doesn't see it (ruling attacked-while-casting).
RITUAL_HELP = {
    "attacked": "You were attacked while casting: disadvantage",
    "concentrate": "A lasting effect (or one prepared in an object) you concentrate on",
}
RITUAL_OPTIONS = (
    _tier("ritual"),
    Opt("ritual", Text, help="The ritual, e.g. 'speak with the dead'"),
    Opt("time", Duration, None,
        "Casting time, e.g. '10 minutes', '1 hour', '1 day' (the maximum gives advantage)"),
    Opt("component", bool, False, "A ritual component is used (tier 2 always needs one)"),
    *with_help(pick(
        CASTING, "mysteries", "extend", "dangerously", "attacked", "concentrate", "damaged",
        "advantage", "disadvantage", "character",
    ), RITUAL_HELP),
    SECRET,
)  # fmt: skip
