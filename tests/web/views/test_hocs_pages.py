"""HOCS pages for each role: the table, a sheet, the tracker and the overlay, on a real
SQLite file; a hidden NPC's numbers are nowhere in a player's or the overlay's page."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.web.views import registry
from bot.web.views.common import PageNotFound
from bot.web.views.hocs.sheet import HocsSheet
from bot.web.views.hocs.table import HocsTable
from bot.web.views.hocs.tracker import HocsTracker
from tests.web.views.support import (
    BRUTE_HP,
    BRUTE_MAX,
    CHANNEL,
    GM,
    HOSTILE,
    OGRE_HP,
    OGRE_MAX,
    OTHER_GUILD,
    OTHER_PLAYER,
    hocs_encounter,
    hocs_world,
    holds,
    values,
    viewer,
)

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

HIDDEN = (OGRE_HP, OGRE_MAX, BRUTE_HP, BRUTE_MAX)


def _row(page: HocsTable, name: str):
    return next(c for c in page.characters if c.name == name)


async def test_the_table_for_each_role(db: Database) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    async with db.read() as conn:
        gm = await registry.table(conn, viewer("gm", GM), guild_name="The Keep")
        player = await registry.table(conn, viewer("player"))
        overlay = await registry.table(conn, viewer("overlay", GM))
    assert isinstance(gm, HocsTable)
    assert (gm.campaign.guild_name, gm.campaign.ruleset, gm.campaign.show_npc_hp) == (
        "The Keep", "hocs", False,
    )  # fmt: skip
    # PCs first (by name), then allies, then antagonists.
    assert [c.name for c in gm.characters] == [HOSTILE, "Mira", "Pet", "Ogre"]
    mira = _row(player, "Mira")
    assert (mira.vitals.hp, mira.vitals.max_hp, mira.hero_points, mira.fortune) == (
        12, 12, 2, ("luck",),
    )  # fmt: skip
    assert (mira.determination, mira.recovery) == (3, 3)
    ogre = _row(gm, "Ogre")
    assert (ogre.vitals.hidden, ogre.vitals.hp, ogre.vitals.max_hp) == (False, OGRE_HP, OGRE_MAX)
    assert ogre.vitals.conditions == ("bleeding 2",)
    assert ogre.hero_points is None  # NPCs have none
    for page in (player, overlay):
        ogre = _row(page, "Ogre")
        assert ogre.vitals.hidden and ogre.vitals.hp is None and ogre.vitals.max_hp is None
        assert (ogre.vitals.status, ogre.vitals.conditions) == ("hurt", ())
        assert (ogre.determination, ogre.recovery, ogre.wounds) == (None, None, ())
        assert not any(holds(page, n) for n in (OGRE_HP, OGRE_MAX))
    assert gm.encounters[0].channel_id == CHANNEL and gm.encounters[0].round == 1
    assert gm.encounters[0].combatants == 3


async def test_an_owner_sees_their_npc_but_not_the_overlay(db: Database) -> None:
    world = await hocs_world(db)
    async with db.read() as conn:
        owner = await registry.table(conn, viewer("player"))  # PLAYER owns the Pet
        other = await registry.table(conn, viewer("player", OTHER_PLAYER))
        stream = await registry.table(conn, viewer("overlay"))
        pet_sheet = await registry.sheet(conn, viewer("player"), world.pet)
    assert _row(owner, "Pet").vitals.hp == 12 and not pet_sheet.hidden
    assert _row(other, "Pet").vitals.hidden and _row(stream, "Pet").vitals.hidden


async def test_the_campaign_switch_shows_npcs_unless_their_fight_hides_them(
    db: Database,
) -> None:
    world = await hocs_world(db, show_npc_hp=True)
    async with db.read() as conn:
        shown = await registry.table(conn, viewer("player"))
    assert _row(shown, "Ogre").vitals.hp == OGRE_HP
    # Ruling web-npc-visibility: seated in a fight that hides NPC HP, it is hidden.
    await hocs_encounter(db, world, show_npc_hp=False)
    async with db.read() as conn:
        hidden = await registry.table(conn, viewer("player"))
        sheet = await registry.sheet(conn, viewer("player"), world.ogre)
    assert _row(hidden, "Ogre").vitals.hidden and sheet.hidden


async def test_a_sheet_for_each_role(db: Database) -> None:
    world = await hocs_world(db)
    async with db.read() as conn:
        gm = await registry.sheet(conn, viewer("gm", GM), world.ogre)
        player = await registry.sheet(conn, viewer("player"), world.ogre)
        overlay = await registry.sheet(conn, viewer("overlay", GM), world.ogre)
        mira = await registry.sheet(conn, viewer("player", OTHER_PLAYER), world.mira)
    assert isinstance(gm, HocsSheet)
    assert (gm.vitals.hp, gm.vitals.max_hp, gm.recovery, gm.determination) == (
        OGRE_HP, OGRE_MAX, 5, 3,
    )  # fmt: skip
    assert gm.vitals.conditions == ("bleeding 2",)
    for page in (player, overlay):
        # What /character show shows a player: no HP, recovery, determination, conditions…
        assert page.hidden and page.vitals.status == "hurt"
        assert (page.recovery, page.determination, page.nonlethal) == (None, None, None)
        assert page.vitals.conditions == () and page.wounds == ()
        # …but the attributes, threshold, traits and the rest of the sheet.
        assert [a.value for a in page.attributes] == [5, 2, 2, 1]
        assert (page.threshold, page.traits) == (-8, ("brave",))
        assert not any(holds(page, n) for n in (OGRE_HP, OGRE_MAX))
    # A player sees all of another player's character.
    assert (mira.hidden, mira.hero_points, mira.fortune, mira.recovery) == (
        False, 2, ("luck",), 3,
    )  # fmt: skip


async def test_another_servers_character_or_channel_is_not_found(db: Database) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    async with db.read() as conn:
        with pytest.raises(PageNotFound):
            await registry.sheet(conn, viewer("gm", GM, OTHER_GUILD), world.ogre)
        with pytest.raises(PageNotFound):
            await registry.tracker(conn, viewer("gm", GM, OTHER_GUILD), CHANNEL)
        with pytest.raises(PageNotFound):
            await registry.tracker(conn, viewer("gm", GM), CHANNEL + 1)
        with pytest.raises(PageNotFound):
            await registry.sheet(conn, viewer("gm", GM), 999)


async def test_the_tracker_and_the_overlay_for_each_role(db: Database) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    async with db.read() as conn:
        gm = await registry.tracker(conn, viewer("gm", GM), CHANNEL)
        player = await registry.tracker(conn, viewer("player"), CHANNEL)
        gm_overlay = await registry.overlay(conn, viewer("gm", GM), CHANNEL)
        overlay = await registry.overlay(conn, viewer("overlay", GM), CHANNEL)
    assert isinstance(gm, HocsTracker)
    assert (gm.round, gm.started, gm.acting) == (1, True, ("Ogre",))
    by_name = {m.name: m for s in gm.slots for m in s.members}
    # The linked Ogre shows its character's current HP, not the stale snapshot (16/16).
    assert (by_name["Ogre"].vitals.hp, by_name["Ogre"].vitals.max_hp) == (OGRE_HP, OGRE_MAX)
    assert (by_name["Brute"].vitals.hp, by_name["Brute"].vitals.conditions) == (
        BRUTE_HP, ("bleeding 3",),
    )  # fmt: skip
    assert [s.state for s in gm.slots] == ["current", "next", "next"]
    seen = {m.name: m for s in player.slots for m in s.members}
    assert seen["Mira"].vitals.hp == 12
    assert seen["Brute"].vitals.hidden and seen["Brute"].vitals.status == "hurt"
    assert not any(holds(player, n) for n in HIDDEN)
    # The overlay is a player's view, even opened with the GM's link.
    assert gm_overlay == overlay
    assert overlay.heading == "Round 1" and overlay.acting == ("Ogre",)
    assert [(e.name, e.current) for e in overlay.entries] == [
        ("Ogre", True), ("Mira", False), ("Brute", False),
    ]  # fmt: skip
    assert not any(holds(overlay, n) for n in HIDDEN)


async def test_a_tracker_showing_npc_hp_shows_them_to_everyone(db: Database) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world, show_npc_hp=True)
    async with db.read() as conn:
        overlay = await registry.overlay(conn, viewer("overlay"), CHANNEL)
    brute = next(e for e in overlay.entries if e.name == "Brute")
    assert (brute.vitals.hp, brute.vitals.max_hp) == (BRUTE_HP, BRUTE_MAX)


async def test_a_hostile_name_stays_as_typed(db: Database) -> None:
    world = await hocs_world(db)
    async with db.read() as conn:
        table = await registry.table(conn, viewer("player"))
        sheet = await registry.sheet(conn, viewer("player"), world.bob)
    assert table.characters[0].name == HOSTILE and sheet.name == HOSTILE
    # Nothing escaped or pre-formatted anywhere (no backslashes added, no markdown).
    assert not any(isinstance(v, str) and "\\" in v for v in values(table))
