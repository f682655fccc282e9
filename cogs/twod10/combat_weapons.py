"""What a 2d10 attack is made with: a weapon on the sheet, bare hands or an improvised one."""

from __future__ import annotations

from bot.errors import UserError
from bot.render.text import safe
from bot.rules.twod10.character import Character
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.wielding import Wielded, improvised_weapon, unarmed, wield
from cogs.twod10.combat_options import IMPROVISED, UNARMED


def _plain(what: str, *, thrown: bool, two_handed: bool, offhand: bool) -> None:
    if thrown or two_handed or offhand:
        raise UserError(f"{what} can't be thrown, gripped two-handed or held offhand.")


def wielded_for(
    character: Character,
    weapon: str | None,
    *,
    thrown: bool = False,
    two_handed: bool = False,
    offhand: bool = False,
) -> Wielded:
    """What ``weapon`` names on the sheet (default its first weapon, else unarmed).

    Raises RulesError for a use the weapon doesn't allow, UserError for a weapon the
    character doesn't carry.
    """
    brawl = character.skill(SkillKey(skill=Skill.BRAWL))
    key = " ".join((weapon or "").lower().replace("-", " ").split())
    if not key:
        if not character.weapons:
            _plain(UNARMED, thrown=thrown, two_handed=two_handed, offhand=offhand)
            return unarmed(brawl)
        chosen = character.weapons[0]
    elif key == UNARMED.lower():
        _plain(UNARMED, thrown=thrown, two_handed=two_handed, offhand=offhand)
        return unarmed(brawl)
    else:
        for label, size in IMPROVISED.items():
            if key == label.lower().replace("-", " "):
                _plain("An improvised weapon", thrown=thrown, two_handed=two_handed,
                       offhand=offhand)  # fmt: skip
                return improvised_weapon(size, brawl)
        found = [w for w in character.weapons if w.name.lower().replace("-", " ") == key]
        if not found:
            carried = ", ".join(w.name for w in character.weapons) or "no weapons"
            raise UserError(
                f"{safe(character.name)} carries {carried}: pick one of those, Unarmed or"
                " an Improvised size."
            )
        chosen = found[0]
    return wield(chosen, thrown=thrown, two_handed_grip=two_handed, offhand=offhand)
