"""Who may read a 2d10 NPC's hit points and conditions on the web, and the vitals shown.

The Discord rule (``cogs.twod10.access.shows_state``): player characters always; an NPC
for the GM and its owner, and for players when the campaign's ``show_npc_hp`` is on
(2d10 encounters carry no switch of their own). A hidden sheet shows neither hit points
nor conditions; what stays public is what the pinned tracker shows of a combatant that
is down (down, dying, dead, unconscious), kept here as the status word.

Ruling ``web-2d10-tracker-hp``: the pinned 2d10 tracker shows every linked sheet's hit
points, an NPC's included, whatever the switch; the web tracker follows the sheet's rule
instead (the stricter one, the one /character show and /hp follow), so a player's page
and the overlay never show an NPC's hit points the campaign hides.
"""

from __future__ import annotations

from bot.storage.campaigns import Campaign
from bot.storage.twod10.characters import TwoD10Condition, TwoD10Kind, TwoD10Sheet
from bot.web.views.common import Vitals
from bot.web.views.viewer import Viewer


def sees_sheet(viewer: Viewer, sheet: TwoD10Sheet, campaign: Campaign) -> bool:
    return viewer.sees_state(
        is_pc=sheet.kind is TwoD10Kind.PC,
        owner_id=sheet.owner_id,
        npc_shown=campaign.settings.show_npc_hp,
    )


def status_of(sheet: TwoD10Sheet, *, down: bool = False, dying_roll_due: bool = False) -> str:
    """The public word for a sheet: as the tracker's down marks ("dead", "dying",
    "unconscious", "dying roll due"), "down" for a combatant put down by hand, else ""."""
    if sheet.has(TwoD10Condition.DEAD) or sheet.hp <= sheet.death_threshold:
        return "dead"
    words = []
    if sheet.hp <= 0:
        words.append("dying")
    if sheet.has(TwoD10Condition.UNCONSCIOUS):
        words.append("unconscious")
    if dying_roll_due:
        words.append("dying roll due")
    if not words and down:
        words.append("down")
    return ", ".join(words)


def sheet_vitals(
    sheet: TwoD10Sheet, *, shown: bool, down: bool = False, dying_roll_due: bool = False
) -> Vitals:
    word = status_of(sheet, down=down, dying_roll_due=dying_roll_due)
    if not shown:
        return Vitals(hidden=True, hp=None, max_hp=None, status=word)
    return Vitals(
        hidden=False,
        hp=sheet.hp,
        max_hp=sheet.max_hp,
        status=word,
        conditions=tuple(c.value for c in sheet.conditions),
    )
