"""A HOCS table and a 2d10 table written through the repositories, and a walk over a page's
values (to prove a hidden number is nowhere in it)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Conditions
from bot.rules.hocs.initiative import (
    Encounter,
    InitiativeStats,
    NewParticipant,
    Side,
    add_participants,
    next_turn,
)
from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import create_character
from bot.rules.twod10.equipment import armor, weapon
from bot.rules.twod10.initiative.model import Combatant, Phase, add_combatant
from bot.rules.twod10.initiative.model import Side as TwoSide
from bot.rules.twod10.skills import Skill, SkillKey, defense
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository, CampaignSettings
from bot.storage.database import Database
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from bot.storage.twod10.encounters import Seat, Tracker, TwoD10EncounterRepository
from bot.web.views.viewer import Viewer

GUILD = 100
OTHER_GUILD = 101
CHANNEL = 555
GM, PLAYER, OTHER_PLAYER = 9, 1, 2
HOSTILE = "**Bob** <script>alert(1)</script> @everyone `x`"
# The hidden NPCs' numbers: a player's page must hold none of them anywhere.
OGRE_HP, OGRE_MAX = 11, 16  # HOCS sheet NPC (strength 5: (5 x 2) + 6 = 16)
BRUTE_HP, BRUTE_MAX = 37, 41  # HOCS quick NPC on the tracker
GHOUL_HP, GHOUL_MAX = 23, 30  # 2d10 NPC sheet (toughness 3: (3 x 5) + 15 = 30)


def viewer(role: str, user_id: int = PLAYER, guild_id: int = GUILD) -> Viewer:
    return Viewer(guild_id=guild_id, user_id=user_id, role=role)  # type: ignore[arg-type]


def values(page: Any) -> Iterator[Any]:
    """Every leaf value of a page: dataclass fields, tuples, lists, dicts, recursively."""
    if dataclasses.is_dataclass(page) and not isinstance(page, type):
        for f in dataclasses.fields(page):
            yield from values(getattr(page, f.name))
    elif isinstance(page, (tuple, list)):
        for item in page:
            yield from values(item)
    elif isinstance(page, dict):
        for key, item in page.items():
            yield from values(key)
            yield from values(item)
    else:
        yield page


def holds(page: Any, number: int) -> bool:
    """Whether ``number`` is anywhere in the page, as a value or inside a text."""
    for value in values(page):
        if isinstance(value, int) and not isinstance(value, bool) and value == number:
            return True
        if isinstance(value, str) and str(number) in value:
            return True
    return False


@dataclass(frozen=True)
class HocsWorld:
    mira: int  # PC of PLAYER
    bob: int  # PC of OTHER_PLAYER, hostile name
    ogre: int  # antagonist of the GM, hidden
    pet: int  # ally owned by PLAYER (an owner sees their NPC)


def hocs_sheet(name: str, strength: int = 3) -> CharacterSheet:
    return CharacterSheet(name=name, strength=strength, agility=2, mind=2, presence=1)


async def hocs_world(db: Database, *, show_npc_hp: bool = False) -> HocsWorld:
    async with db.transaction() as conn:
        campaigns = CampaignRepository(conn)
        await campaigns.get_or_create(GUILD)
        await campaigns.get_or_create(OTHER_GUILD)
        await campaigns.update(GUILD, settings=CampaignSettings(show_npc_hp=show_npc_hp))
        repo = CharacterRepository(conn)

        async def make(name: str, owner: int, kind: CharacterKind, strength: int = 3) -> Any:
            return await repo.create(
                guild_id=GUILD, owner_id=owner, kind=kind, sheet=hocs_sheet(name, strength),
                details=CharacterDetails(armor=1, traits=("brave",)),
            )  # fmt: skip

        mira = await make("Mira", PLAYER, CharacterKind.PC)
        bob = await make(HOSTILE, OTHER_PLAYER, CharacterKind.PC)
        ogre = await make("Ogre", GM, CharacterKind.ANTAGONIST, strength=5)
        pet = await make("Pet", PLAYER, CharacterKind.ALLY)
        state = ogre.state
        await repo.write_recovery(
            ogre, hp=OGRE_HP, nonlethal=0, recovery=state.recovery,
            determination=state.determination, conditions=Conditions.of(bleeding=2),
        )  # fmt: skip
        await repo.give_hero_points(mira.id, 2, 5)
        await repo.grant_fortune(mira.id, "luck")
    return HocsWorld(mira=mira.id, bob=bob.id, ogre=ogre.id, pet=pet.id)


def _new(name: str, side: Side, **kw: Any) -> NewParticipant:
    return NewParticipant(name=name, side=side, stats=InitiativeStats(agility=2, presence=1), **kw)


async def hocs_encounter(
    db: Database, world: HocsWorld, *, show_npc_hp: bool = False, extra: int = 0
) -> None:
    """Mira, the Ogre (sheet-linked, stale snapshot) and the Brute (quick NPC), plus
    ``extra`` quick goblins; round 1 started (scripted dice)."""
    dice = RandomDice(random.Random(7))
    new = [
        _new("Mira", Side.PC, owner_id=PLAYER, character_id=world.mira, hp=12, max_hp=12),
        # A stale snapshot: the page shows the character's current 11/16 instead.
        _new("Ogre", Side.ANTAGONIST, owner_id=GM, character_id=world.ogre, hp=16, max_hp=16),
        _new("Brute", Side.ANTAGONIST, owner_id=GM, hp=BRUTE_HP, max_hp=BRUTE_MAX,
             conditions=Conditions.of(bleeding=3)),
        *(_new(f"Goblin {i}", Side.ANTAGONIST, owner_id=GM, hp=5, max_hp=5)
          for i in range(1, extra + 1)),
    ]  # fmt: skip
    enc, _ = add_participants(Encounter(show_npc_hp=show_npc_hp), new, dice)
    enc, _ = next_turn(enc, dice)
    async with db.transaction() as conn:
        await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=GM, state=enc
        )


@dataclass(frozen=True)
class TwoD10World:
    brann: int  # PC of PLAYER
    ghoul: int  # antagonist of the GM, hidden


def twod10_character(name: str, toughness: int = 2) -> Any:
    attrs = Attributes(finesse=2 - toughness + 1, strength=1, toughness=toughness)
    return create_character(
        name=name, background="Smith", attributes=attrs,
        background_skills={SkillKey(skill=Skill.MACHINERY): 2, SkillKey(skill=Skill.MELEE): 2,
                           SkillKey(skill=Skill.ATHLETICS): 1},
        extra_skills={defense(Attribute.FINESSE): 2, SkillKey(skill=Skill.KNOWLEDGE,
                      subfield="Metallurgy"): 2, SkillKey(skill=Skill.ATHLETICS): 1},
        feats=("Strong grip", "Iron lungs"), armor=armor("leather"),
        weapons=(weapon("one-handed axe"),),
    )  # fmt: skip


async def twod10_world(db: Database, *, show_npc_hp: bool = False) -> TwoD10World:
    async with db.transaction() as conn:
        campaigns = CampaignRepository(conn)
        await campaigns.get_or_create(GUILD)
        await campaigns.get_or_create(OTHER_GUILD)
        await campaigns.update(
            GUILD, ruleset=Ruleset.TWOD10, settings=CampaignSettings(show_npc_hp=show_npc_hp)
        )
        repo = TwoD10CharacterRepository(conn)
        brann = await repo.create(
            guild_id=GUILD, owner_id=PLAYER, kind=TwoD10Kind.PC,
            character=twod10_character("Brann"),
        )  # fmt: skip
        ghoul = await repo.create(
            guild_id=GUILD, owner_id=GM, kind=TwoD10Kind.ANTAGONIST,
            character=twod10_character("Ghoul", toughness=3),
        )  # fmt: skip
        await repo.set_hp(GUILD, ghoul.id, GHOUL_HP)
        await repo.set_conditions(GUILD, ghoul.id, ["prone"])
    return TwoD10World(brann=brann.id, ghoul=ghoul.id)


async def twod10_encounter(db: Database, world: TwoD10World, *, extra: int = 0) -> None:
    """Brann and the Ghoul seated for their sheets, a quick Rat, ``extra`` quick goblins;
    round 1, the players' turn."""
    tracker = Tracker()
    seats: list[tuple[str, TwoSide, Seat]] = [
        ("Brann", TwoSide.PLAYERS, Seat(owner_id=PLAYER, sheet_id=world.brann)),
        ("Ghoul", TwoSide.NPCS, Seat(owner_id=GM, sheet_id=world.ghoul)),
        ("Rat", TwoSide.NPCS, Seat(owner_id=GM)),
        *((f"Goblin {i}", TwoSide.NPCS, Seat(owner_id=GM)) for i in range(1, extra + 1)),
    ]
    for name, side, seat in seats:
        c = Combatant(id=tracker.next_id, name=name, side=side, finesse=1)
        tracker = replace(
            tracker, encounter=add_combatant(tracker.encounter, c),
            seats=(*tracker.seats, (c.id, seat)), next_id=tracker.next_id + 1,
        )  # fmt: skip
    enc = replace(
        tracker.encounter, round=1, phase=Phase.TURN, first=TwoSide.PLAYERS,
        acting=TwoSide.PLAYERS,
    )  # fmt: skip
    async with db.transaction() as conn:
        await TwoD10EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=GM, tracker=replace(tracker, encounter=enc)
        )
