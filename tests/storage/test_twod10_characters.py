"""2d10 character repository against a real SQLite file."""

from __future__ import annotations

import asyncio

import aiosqlite
import pytest

from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import Character, advance_attribute, create_character
from bot.rules.twod10.equipment import armor, weapon
from bot.rules.twod10.skills import Skill, SkillKey, defense
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.twod10.characters import (
    SheetChanged,
    TwoD10CharacterRepository,
    TwoD10Condition,
    TwoD10Kind,
    TwoD10NameTaken,
)

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

GUILD = 200
OTHER_GUILD = 201


def build(name: str = "Brann", toughness: int = 2) -> Character:
    # 4 points: toughness 2, strength 1, finesse 1 (or toughness 3, strength 1)
    attrs = Attributes(finesse=2 - toughness + 1, strength=1, toughness=toughness)
    return create_character(
        name=name,
        background="Smith",
        attributes=attrs,
        background_skills={SkillKey(skill=Skill.MACHINERY): 2, SkillKey(skill=Skill.MELEE): 2,
                           SkillKey(skill=Skill.ATHLETICS): 1},
        extra_skills={defense(Attribute.FINESSE): 2, SkillKey(skill=Skill.KNOWLEDGE,
                      subfield="Metallurgy"): 2, SkillKey(skill=Skill.ATHLETICS): 1},
        feats=("Strong grip", "Iron lungs"),
        armor=armor("leather"),
        weapons=(weapon("one-handed axe"),),
    )  # fmt: skip


async def create(db: Database, name: str = "Brann", owner: int = 1, guild: int = GUILD, **kw):
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild)
        return await TwoD10CharacterRepository(conn).create(
            guild_id=guild, owner_id=owner, kind=kw.pop("kind", TwoD10Kind.PC),
            character=build(name, **kw),
        )  # fmt: skip


async def test_new_character_starts_at_full_hp_and_round_trips(db: Database) -> None:
    brann = await create(db)
    # (toughness 2 x 5) + 15 = 25 HP; death at -2 x 2 = -4.
    assert (brann.hp, brann.max_hp, brann.death_threshold) == (25, 25, -4)
    assert brann.kind is TwoD10Kind.PC and brann.revision == 1 and brann.conditions == ()
    async with db.read() as conn:
        again = await TwoD10CharacterRepository(conn).get(GUILD, brann.id)
    assert again == brann
    assert again.character.skill(SkillKey(skill=Skill.KNOWLEDGE, subfield="metallurgy")) == 2
    assert again.character.armor == armor("leather")


async def test_names_are_unique_per_guild_ignoring_case_and_spacing(db: Database) -> None:
    await create(db, "Brann Ironhand")
    with pytest.raises(TwoD10NameTaken, match="already a character called"):
        await create(db, "  brann   ironhand ")
    other = await create(db, "Brann Ironhand", guild=OTHER_GUILD)
    assert other.guild_id == OTHER_GUILD


async def test_hocs_and_2d10_tables_are_separate(db: Database) -> None:
    from bot.rules.hocs.character import CharacterSheet
    from bot.storage.hocs.character_codec import CharacterDetails

    await create(db, "Mira")
    async with db.transaction() as conn:
        hocs = await CharacterRepository(conn).create(
            guild_id=GUILD, owner_id=1, kind=CharacterKind.PC,
            sheet=CharacterSheet(name="Mira", strength=3, agility=2, mind=2, presence=1),
            details=CharacterDetails(armor=0, traits=("a", "b", "c")),
        )  # fmt: skip
        assert [c.name for c in await CharacterRepository(conn).list(GUILD)] == ["Mira"]
        assert hocs.name == "Mira"


async def test_get_is_scoped_to_the_guild(db: Database) -> None:
    brann = await create(db)
    async with db.read() as conn:
        assert await TwoD10CharacterRepository(conn).get(OTHER_GUILD, brann.id) is None


async def test_find_list_get_many_and_search(db: Database) -> None:
    a = await create(db, "Zed", owner=1)
    b = await create(db, "anna", owner=2)
    c = await create(db, "Bo", owner=1, guild=OTHER_GUILD)
    async with db.read() as conn:
        repo = TwoD10CharacterRepository(conn)
        assert (await repo.find(GUILD, " ZED ")).id == a.id
        assert await repo.find(GUILD, "Bo") is None
        assert [s.name for s in await repo.list(GUILD)] == ["anna", "Zed"]
        assert [s.name for s in await repo.list(GUILD, owner_id=1)] == ["Zed"]
        many = await repo.get_many(GUILD, [a.id, b.id, c.id, 999])
        assert sorted(many) == sorted([a.id, b.id]) and many[a.id] == a
        assert await repo.get_many(GUILD, []) == {}
        assert await repo.search_names(GUILD, "", owner_id=2) == ["anna", "Zed"]
        assert await repo.search_names(GUILD, "ze") == ["Zed"]


async def test_active_character_per_member_and_cleared_on_delete(db: Database) -> None:
    a = await create(db, "A", owner=1)
    b = await create(db, "B", owner=1)
    async with db.transaction() as conn:
        repo = TwoD10CharacterRepository(conn)
        assert await repo.active(GUILD, 1) is None
        await repo.set_active(GUILD, 1, a.id)
        await repo.set_active(GUILD, 1, b.id)
        assert (await repo.active(GUILD, 1)).id == b.id
        assert await repo.active(GUILD, 2) is None
        assert await repo.delete(GUILD, b.id) is True
        assert await repo.active(GUILD, 1) is None
        assert await repo.delete(GUILD, b.id) is False
        assert await repo.get(GUILD, b.id) is None


async def test_change_hp_clamps_between_death_threshold_and_maximum(db: Database) -> None:
    brann = await create(db)
    async with db.transaction() as conn:
        repo = TwoD10CharacterRepository(conn)
        hurt = await repo.change_hp(GUILD, brann.id, -10)
        assert (hurt.hp, hurt.revision) == (15, 2)
        assert (await repo.change_hp(GUILD, brann.id, -100)).hp == -4
        assert (await repo.change_hp(GUILD, brann.id, +500)).hp == 25
        assert (await repo.set_hp(GUILD, brann.id, 3)).hp == 3


async def test_change_hp_with_a_stale_revision_writes_nothing(db: Database) -> None:
    brann = await create(db)
    async with db.transaction() as conn:
        repo = TwoD10CharacterRepository(conn)
        await repo.change_hp(GUILD, brann.id, -5, expected_revision=brann.revision)
        with pytest.raises(SheetChanged):
            await repo.change_hp(GUILD, brann.id, -5, expected_revision=brann.revision)
        assert (await repo.get(GUILD, brann.id)).hp == 20
        with pytest.raises(SheetChanged):
            await repo.change_hp(GUILD, 999, -1)


async def test_two_damage_commands_at_once_both_apply_once(db: Database) -> None:
    brann = await create(db)

    async def hit() -> None:
        async with db.transaction() as conn:
            await TwoD10CharacterRepository(conn).change_hp(GUILD, brann.id, -3)

    await asyncio.gather(hit(), hit())
    async with db.read() as conn:
        after = await TwoD10CharacterRepository(conn).get(GUILD, brann.id)
    assert (after.hp, after.revision) == (19, 3)


async def test_update_sheet_renames_and_clamps_hp_to_the_new_range(db: Database) -> None:
    brann = await create(db, toughness=3)  # 30 HP, death at -6
    other = await create(db, "Other")
    async with db.transaction() as conn:
        repo = TwoD10CharacterRepository(conn)
        await repo.set_hp(GUILD, brann.id, -6)
        weaker = build("Brann the Bent", toughness=1)  # 20 HP, death at -2
        saved = await repo.update_sheet(GUILD, brann.id, weaker, kind=TwoD10Kind.ALLY)
        assert (saved.name, saved.kind, saved.hp, saved.max_hp) == (
            "Brann the Bent", TwoD10Kind.ALLY, -2, 20,
        )  # fmt: skip
        tougher = advance_attribute(saved.character, Attribute.TOUGHNESS, by=5)
        assert (await repo.update_sheet(GUILD, brann.id, tougher)).max_hp == 45
        with pytest.raises(TwoD10NameTaken):
            await repo.update_sheet(GUILD, brann.id, build("other"))
        with pytest.raises(SheetChanged):
            await repo.update_sheet(GUILD, other.id, build("Other"), expected_revision=7)


async def test_conditions_are_a_sorted_set(db: Database) -> None:
    brann = await create(db)
    async with db.transaction() as conn:
        repo = TwoD10CharacterRepository(conn)
        sheet = await repo.set_conditions(GUILD, brann.id, ["unconscious", TwoD10Condition.PRONE,
                                                              "prone"])  # fmt: skip
        assert sheet.conditions == (TwoD10Condition.PRONE, TwoD10Condition.UNCONSCIOUS)
        assert sheet.has(TwoD10Condition.PRONE) and not sheet.has(TwoD10Condition.DEAD)
        with pytest.raises(ValueError):
            await repo.set_conditions(GUILD, brann.id, ["on fire"])
        assert (await repo.set_conditions(GUILD, brann.id, [])).conditions == ()


async def test_the_table_refuses_hp_outside_the_range(db: Database) -> None:
    brann = await create(db)
    async with db.transaction() as conn:
        with pytest.raises(aiosqlite.IntegrityError):
            await conn.execute("UPDATE twod10_characters SET hp = 26 WHERE id = ?", (brann.id,))


async def test_deleting_the_campaign_removes_its_2d10_characters(db: Database) -> None:
    await create(db)
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM campaigns WHERE guild_id = ?", (GUILD,))
        assert await TwoD10CharacterRepository(conn).list(GUILD) == []
