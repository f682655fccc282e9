"""Seed a benchmark database through the real repositories and rules.

Every campaign, character and encounter is written by the same code the commands
use (``CampaignRepository``, ``CharacterRepository.create``, ``EncounterRepository``,
the initiative rules), in a few large transactions so seeding stays quick. Ids are
deterministic so the fake Discord world (``bench.world``) can mirror them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.character import CharacterSheet, SizeCategory
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.initiative import (
    Encounter,
    InitiativeStats,
    NewParticipant,
    Side,
    add_participants,
    next_turn,
)
from bot.storage.backend import open_database
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.character_codec import CharacterDetails, Weapon
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from cogs.hocs.initiative.operations import participant_from_character

GUILD_BASE = 1_000_000_000_000_000_000
TABLE_CHANNEL_BASE = 2_000_000_000_000_000_000
COMBAT_CHANNEL_BASE = 3_000_000_000_000_000_000
GM_ROLE_BASE = 4_000_000_000_000_000_000
USER_BASE = 5_000_000_000_000_000_000
PLAYERS_PER_GUILD = 4
NPC_KINDS = (CharacterKind.ANTAGONIST, CharacterKind.ALLY)
GUILDS_PER_TRANSACTION = 100

FIRST = ("Aria", "Bram", "Cora", "Dain", "Esme", "Finn", "Gwen", "Hald", "Isla", "Joss",
         "Kael", "Lira", "Moss", "Nell", "Orin", "Pell", "Quin", "Rhea", "Sven")  # fmt: skip
EPITHET = ("the Bold", "of Ashford", "Stormborn", "the Quiet", "Ironhand", "of the Vale",
           "Greycloak", "the Younger", "Thornwood", "Brightwater")  # fmt: skip
TRAITS = ("brave", "greedy", "loyal", "curious", "grim")
NPC = ("Goblin", "Bandit", "Cultist", "Wolf", "Skeleton", "Ogre", "Guard", "Knight")
TRAINABLE = ("Athletics", "Physique", "Acrobatics", "Stealth", "Analyze", "Survival",
             "Charisma", "Coercion", "Willpower", "Defense", "Initiative", "Melee Combat",
             "Ranged Combat")  # fmt: skip
SIZES = (SizeCategory.SMALL, SizeCategory.MEDIUM, SizeCategory.MEDIUM, SizeCategory.LARGE)
_P, _S, _B = DamageType.PIERCE, DamageType.SLASH, DamageType.BLUNT
WEAPONS = (
    Weapon(name="Longsword", dice=(8,), types=(_S,)),
    Weapon(name="Greataxe", dice=(12,), types=(_S,)),
    Weapon(name="Dagger", dice=(4,), types=(_P,)),
    Weapon(name="Warhammer", dice=(10,), types=(_B,)),
    Weapon(name="Flail", dice=(6, 6), types=(_B,)),
    Weapon(name="Flame sword", dice=(8, 6), types=(_S, DamageType.FIRE)),
    Weapon(name="Shortbow", dice=(6,), types=(_P,), kind=AttackKind.RANGED),
    Weapon(name="Crossbow", dice=(10,), types=(_P,), kind=AttackKind.RANGED),
    Weapon(name="Cudgel", dice=(6,), types=(_B,), lethal=False),
)
FIRE_BOLT = Weapon(name="Fire bolt", dice=(10, 8), types=(DamageType.FIRE,), kind=AttackKind.MAGIC)


@dataclass(frozen=True)
class Scale:
    guilds: int
    characters: int
    encounters: int


@dataclass(frozen=True)
class SeededCharacter:
    id: int
    name: str
    owner_id: int
    kind: CharacterKind
    weapons: tuple[str, ...]
    active: bool


@dataclass
class SeededGuild:
    index: int
    guild_id: int
    table_channel_id: int
    gm_role_id: int
    gm_id: int
    player_ids: tuple[int, ...]
    characters: list[SeededCharacter] = field(default_factory=list)
    combat_channel_id: int | None = None  # set when the guild has a running encounter

    @property
    def user_ids(self) -> tuple[int, ...]:
        return (self.gm_id, *self.player_ids)

    def active_of(self, user_id: int) -> SeededCharacter | None:
        return next((c for c in self.characters if c.owner_id == user_id and c.active), None)


@dataclass
class SeededWorld:
    path: Path | str  # the SQLite file, or the PostgreSQL URL
    guilds: list[SeededGuild]
    characters: int
    encounters: int
    participants: int


def guild_layout(index: int) -> SeededGuild:
    users = USER_BASE + index * 10
    return SeededGuild(
        index=index,
        guild_id=GUILD_BASE + index,
        table_channel_id=TABLE_CHANNEL_BASE + index,
        gm_role_id=GM_ROLE_BASE + index,
        gm_id=users,
        player_ids=tuple(users + k for k in range(1, PLAYERS_PER_GUILD + 1)),
    )


def characters_per_guild(scale: Scale, rng: random.Random) -> list[int]:
    """At least two characters per guild (someone to attack), the rest spread unevenly."""
    counts = [2] * scale.guilds
    weights = [rng.paretovariate(1.5) for _ in range(scale.guilds)]
    for index in rng.choices(range(scale.guilds), weights, k=scale.characters - 2 * scale.guilds):
        counts[index] += 1
    return counts


def random_sheet(
    name: str, rng: random.Random, *, npc: bool
) -> tuple[CharacterSheet, CharacterDetails]:
    tier = rng.choice((1, 1, 1, 2, 2, 3))
    caster = rng.random() < 0.2
    training: dict[str, int] = {
        skill: rng.randint(1, tier) for skill in rng.sample(TRAINABLE, rng.randint(1, 5))
    }
    if caster:
        training["Spellcasting"] = rng.randint(1, tier)
    sheet = CharacterSheet(
        name=name,
        strength=rng.randint(1, 4),
        agility=rng.randint(1, 4),
        mind=rng.randint(1, 4),
        presence=rng.randint(1, 4),
        tier=tier,
        exp=rng.randint(0, 20),
        size=rng.choice(SIZES),
        training=training,
        expertise=rng.choice(list(training)) if rng.random() < 0.3 else None,
    )
    weapons = rng.sample(WEAPONS, rng.randint(1, 3))
    if caster:
        weapons.insert(0, FIRE_BOLT)
    details = CharacterDetails(
        armor=rng.randint(0, 3),
        traits=tuple(rng.sample(TRAITS, rng.randint(0, 3))),
        who="A wandering sellsword" if not npc else "Trouble",
        believe="Gold is honest" if rng.random() < 0.5 else "",
        want="A quiet farm" if rng.random() < 0.5 else "",
        weapons=tuple(weapons),
        resistances=(DamageType.COLD,) if rng.random() < 0.1 else (),
        weaknesses=(DamageType.FIRE,) if rng.random() < 0.1 else (),
    )
    return sheet, details


async def _seed_guild(
    guild: SeededGuild, count: int, repo: CharacterRepository, rng: random.Random
) -> list[Character]:
    created = []
    has_active: set[int] = set()
    for number in range(count):
        npc = number % 10 in (3, 7)  # about one in five is the GM's antagonist or ally
        owner = guild.gm_id if npc else guild.player_ids[number % PLAYERS_PER_GUILD]
        base = rng.choice(NPC) if npc else f"{rng.choice(FIRST)} {rng.choice(EPITHET)}"
        name = f"{base} {number + 1}"
        sheet, details = random_sheet(name, rng, npc=npc)
        kind = rng.choice(NPC_KINDS) if npc else CharacterKind.PC
        character = await repo.create(
            guild_id=guild.guild_id, owner_id=owner, kind=kind, sheet=sheet, details=details
        )
        active = owner not in has_active
        if active:
            await repo.set_active(guild.guild_id, owner, character.id)
            has_active.add(owner)
        created.append(character)
        guild.characters.append(
            SeededCharacter(
                id=character.id, name=name, owner_id=owner, kind=kind,
                weapons=tuple(w.name for w in details.weapons), active=active,
            )
        )  # fmt: skip
    return created


def encounter_state(characters: list[Character], rng: random.Random, dice: RandomDice) -> Encounter:
    """6–10 participants (linked sheets first, then quick NPCs, some as a group), started."""
    size = rng.randint(6, 10)
    linked = [participant_from_character(c) for c in characters[: min(len(characters), size - 2)]]
    quick: list[NewParticipant] = []
    kind = rng.choice(NPC)
    grouped = rng.random() < 0.4
    for n in range(size - len(linked)):
        quick.append(
            NewParticipant(
                name=f"{kind} grunt {n + 1}", side=Side.ANTAGONIST,
                group=f"{kind} pack" if grouped else None,
                stats=InitiativeStats(agility=rng.randint(1, 4), presence=rng.randint(1, 3)),
                hp=rng.randint(5, 20), max_hp=20,
            )
        )  # fmt: skip
    state, _ = add_participants(Encounter(skip_down=rng.random() < 0.5), [*linked, *quick], dice)
    state, _ = next_turn(state, dice)  # round 1 begins
    for _ in range(rng.randint(0, 4)):
        state, _ = next_turn(state, dice)
    return state


async def seed(path: Path | str, scale: Scale, *, seed: int) -> SeededWorld:
    rng = random.Random(seed)
    dice = RandomDice(random.Random(seed + 1))
    db = await open_database(str(path))  # a file's path or a postgresql:// URL
    try:
        await db.migrate()
        guilds = [guild_layout(i) for i in range(scale.guilds)]
        counts = characters_per_guild(scale, rng)
        in_combat = set(rng.sample(range(scale.guilds), scale.encounters))
        sheets: dict[int, list[Character]] = {}
        for start in range(0, scale.guilds, GUILDS_PER_TRANSACTION):
            async with db.transaction() as conn:
                campaigns, characters = CampaignRepository(conn), CharacterRepository(conn)
                for guild in guilds[start : start + GUILDS_PER_TRANSACTION]:
                    await campaigns.update(guild.guild_id, gm_role_id=guild.gm_role_id)
                    created = await _seed_guild(guild, counts[guild.index], characters, rng)
                    if guild.index in in_combat:
                        sheets[guild.index] = created
        participants = 0
        async with db.transaction() as conn:
            encounters = EncounterRepository(conn)
            for index in sorted(in_combat):
                guild = guilds[index]
                guild.combat_channel_id = COMBAT_CHANNEL_BASE + index
                state = encounter_state(sheets[index], rng, dice)
                participants += len(state.participants)
                await encounters.create(
                    guild_id=guild.guild_id, channel_id=guild.combat_channel_id,
                    gm_id=guild.gm_id, state=state,
                )  # fmt: skip
        if db.backend == "sqlite":
            await db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        await db.close()
    return SeededWorld(
        path=path, guilds=guilds, characters=sum(counts), encounters=len(in_combat),
        participants=participants,
    )  # fmt: skip
