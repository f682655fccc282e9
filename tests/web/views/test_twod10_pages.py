"""2d10 pages for each role: the table, a sheet, the tracker and the overlay, on a real
SQLite file; a hidden NPC's numbers are nowhere in a player's or the overlay's page."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.web.views import registry
from bot.web.views.common import PageNotFound
from bot.web.views.twod10.sheet import TwoD10SheetPage
from bot.web.views.twod10.table import TwoD10Table
from bot.web.views.twod10.tracker import TwoD10Tracker
from tests.web.views.support import (
    CHANNEL,
    GHOUL_HP,
    GHOUL_MAX,
    GM,
    OTHER_GUILD,
    holds,
    twod10_encounter,
    twod10_world,
    viewer,
)

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


async def test_the_table_for_each_role(db: Database) -> None:
    await twod10_encounter(db, await twod10_world(db))
    async with db.read() as conn:
        gm = await registry.table(conn, viewer("gm", GM))
        player = await registry.table(conn, viewer("player"))
        overlay = await registry.table(conn, viewer("overlay", GM))
    assert isinstance(gm, TwoD10Table) and gm.campaign.ruleset == "2d10"
    assert [c.name for c in gm.characters] == ["Brann", "Ghoul"]
    brann, ghoul = gm.characters
    assert (brann.vitals.hp, brann.vitals.max_hp) == (25, 25)
    assert (ghoul.vitals.hp, ghoul.vitals.max_hp, ghoul.vitals.conditions) == (
        GHOUL_HP, GHOUL_MAX, ("prone",),
    )  # fmt: skip
    for page in (player, overlay):
        assert page.characters[0].vitals.hp == 25
        hidden = page.characters[1].vitals
        assert hidden.hidden and (hidden.hp, hidden.max_hp, hidden.conditions) == (None, None, ())
        assert not any(holds(page, n) for n in (GHOUL_HP, GHOUL_MAX))
    summary = gm.encounters[0]
    assert (summary.channel_id, summary.round, summary.acting, summary.combatants) == (
        CHANNEL, 1, ("Players",), 3,
    )  # fmt: skip


async def test_the_campaign_switch_shows_npcs_to_players(db: Database) -> None:
    await twod10_world(db, show_npc_hp=True)
    async with db.read() as conn:
        player = await registry.table(conn, viewer("player"))
    assert player.characters[1].vitals.hp == GHOUL_HP


async def test_a_sheet_for_each_role(db: Database) -> None:
    world = await twod10_world(db)
    async with db.read() as conn:
        gm = await registry.sheet(conn, viewer("gm", GM), world.ghoul)
        player = await registry.sheet(conn, viewer("player"), world.ghoul)
        overlay = await registry.sheet(conn, viewer("overlay", GM), world.ghoul)
        with pytest.raises(PageNotFound):
            await registry.sheet(conn, viewer("gm", GM, OTHER_GUILD), world.ghoul)
    assert isinstance(gm, TwoD10SheetPage)
    assert (gm.vitals.hp, gm.vitals.max_hp, gm.death_threshold) == (GHOUL_HP, GHOUL_MAX, -6)
    for page in (player, overlay):
        assert page.hidden and page.death_threshold is None and page.vitals.conditions == ()
        # What /character show shows a player: attributes, skills, feats, equipment.
        assert page.feats == ("Strong grip", "Iron lungs") and page.background == "Smith"
        assert [a.label for a in page.attributes][:3] == ["Finesse", "Strength", "Toughness"]
        assert page.weapons and page.armor.startswith("Leather")
        assert not any(holds(page, n) for n in (GHOUL_HP, GHOUL_MAX))


async def test_the_tracker_and_the_overlay_for_each_role(db: Database) -> None:
    await twod10_encounter(db, await twod10_world(db))
    async with db.read() as conn:
        gm = await registry.tracker(conn, viewer("gm", GM), CHANNEL)
        player = await registry.tracker(conn, viewer("player"), CHANNEL)
        overlay = await registry.overlay(conn, viewer("gm", GM), CHANNEL)
    assert isinstance(gm, TwoD10Tracker)
    assert (gm.round, gm.phase, gm.acting, gm.first) == (1, "side turn", "players", "players")
    assert [(s.label, s.acting, s.standing) for s in gm.sides] == [
        ("Players", True, 1), ("NPCs", False, 2),
    ]  # fmt: skip
    ghoul = gm.sides[1].combatants[0]
    assert (ghoul.name, ghoul.vitals.hp, ghoul.vitals.conditions) == (
        "Ghoul", GHOUL_HP, ("prone",),
    )  # fmt: skip
    rat = gm.sides[1].combatants[1]
    assert (rat.linked, rat.vitals.hp, rat.vitals.hidden) == (False, None, False)
    # Ruling web-2d10-tracker-hp: the player's page hides the NPC sheet's HP.
    seen = player.sides[1].combatants[0]
    assert seen.vitals.hidden and seen.vitals.hp is None
    assert player.sides[0].combatants[0].vitals.hp == 25
    assert not any(holds(player, n) for n in (GHOUL_HP, GHOUL_MAX))
    assert overlay.heading == "Round 1 · the Players' turn" and overlay.acting == ("Players",)
    assert [(e.name, e.current) for e in overlay.entries] == [
        ("Brann", True), ("Ghoul", False), ("Rat", False),
    ]  # fmt: skip
    assert not any(holds(overlay, n) for n in (GHOUL_HP, GHOUL_MAX))


async def test_a_deleted_sheets_combatant_is_left_out(db: Database) -> None:
    from bot.storage.twod10.characters import TwoD10CharacterRepository

    world = await twod10_world(db)
    await twod10_encounter(db, world)
    async with db.transaction() as conn:
        await TwoD10CharacterRepository(conn).delete(100, world.ghoul)
    async with db.read() as conn:
        gm = await registry.tracker(conn, viewer("gm", GM), CHANNEL)
    assert [c.name for c in gm.sides[1].combatants] == ["Rat"]
