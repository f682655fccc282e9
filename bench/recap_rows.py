"""Two tables for the recap benchmark (``bench.recap``), each with one ended session of
N logged rolls: a HOCS campaign and a 2d10 one, written through the real repositories.

The rows come from the luck benchmarks' generators (``bench.luck``, ``bench.luck_twod10``:
the real rules on seeded dice, the commands' mix of kinds), completed with what the cogs
log beside the dice, so the recap reads every row as it reads a real one (a row missing
a field it reads would count as damaged, unscored, and cost less):

* HOCS: the /pool and /check heading, the /clash headings and rival, and real attacks
  (``resolve_attack`` between the table's characters, ``attack_record`` as
  ``cogs.hocs.combat`` logs it, hits carrying their threshold tests and wounds, the
  target's vitals carried from one attack to the next), the ``luck`` snapshot taken
  again from the completed row; the row's ``character_id`` (and ``opponent_id``) name
  the table's characters, about 3 rows in 4 a player character's;
* 2d10: the sheet ids the rows name (``character_id``, ``attacker_id``, ``target_id``)
  made the table's, an attack's aimed target and HP before and after, the medic a player
  character's name.

The GM's /roll, /pool, /check and 2d10 tasks are secret now and then; every row gets a
message id, as the reply's is stored after it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import luck, luck_twod10
from bench.seed import TRAINABLE, SeededCharacter, SeededGuild, SeededWorld, guild_layout
from bench.seed import random_sheet as hocs_sheet
from bot.render.hocs.skill_roll_dice import RollHeading
from bot.rules.dice_source import RandomDice
from bot.rules.hocs.attack import Combatant, Vitals, WeaponUse, resolve_attack
from bot.rules.hocs.attack.record import attack_record
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.luck import SNAPSHOT_KEY, first_throw
from bot.rules.twod10.attributes import Attributes
from bot.rules.twod10.character import Character as TwoD10Character
from bot.rules.twod10.equipment import armor, weapon
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rulesets import Ruleset
from bot.storage.backend import open_database
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import SessionRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind

NPCS = 2  # the GM's, beside one player character per player
MESSAGE_BASE = 6_000_000_000_000_000_000
_DOWN = (Condition.DEAD, Condition.UNCONSCIOUS, Condition.DYING)
_SECRET_KINDS = frozenset({"roll", "pool", "check", "2d10-task"})


@dataclass(frozen=True)
class Who:
    id: int
    name: str
    owner_id: int
    pc: bool


@dataclass
class Row:
    kind: str
    result: dict[str, Any]
    who: Who | None  # whose row it is (None: a /roll, nobody's)
    opponent: Who | None = None  # a HOCS clash's rival or attack's target


@dataclass
class Table:
    """One campaign of the benchmark: its guild, characters and session's rows."""

    ruleset: Ruleset
    guild: SeededGuild
    cast: list[Who] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return "HOCS" if self.ruleset is Ruleset.HOCS else "2d10"


def _pick(rng: random.Random, cast: list[Who], *, pc_share: float = 0.75) -> Who:
    side = [w for w in cast if w.pc] if rng.random() < pc_share else [w for w in cast if not w.pc]
    return rng.choice(side)


def _other_side(rng: random.Random, cast: list[Who], who: Who) -> Who:
    return rng.choice([w for w in cast if w.pc != who.pc])


# --- HOCS ----------------------------------------------------------------------------------


def _heading(rng: random.Random, who: Who, result: dict[str, Any], kind: str) -> dict[str, Any]:
    if kind == "pool":
        what = f"{len(result['roll']['dice'])}d6"
    else:
        what = f"{rng.choice(TRAINABLE)} (AGI {rng.randint(1, 4)} + {rng.randint(0, 2)} training)"
    return RollHeading(who=who.name, what=what).to_dict()


class HocsAttacks:
    """Real attacks between the table's characters; a target's vitals carry over until it
    goes down, then it stands up fresh (the next fight)."""

    def __init__(self, characters: dict[int, Character], dice: RandomDice) -> None:
        self._characters = characters
        self._dice = dice
        self._vitals: dict[int, Vitals] = {}

    def _combatant(self, who: Who) -> Combatant:
        character = self._characters[who.id]
        vitals = self._vitals.get(who.id)
        if vitals is None or any(c in vitals.conditions for c in _DOWN):
            vitals = Vitals(hp=character.sheet.hit_points)
        details = character.details
        return Combatant(
            sheet=character.sheet, vitals=vitals, armor=details.armor,
            resistances=details.resistances, weaknesses=details.weaknesses,
        )  # fmt: skip

    def row(self, rng: random.Random, attacker: Who, target: Who) -> dict[str, Any]:
        kit = rng.choice(self._characters[attacker.id].details.weapons)
        use = WeaponUse(name=kit.name, dice=kit.dice, types=kit.types, kind=kit.kind,
                        lethal=kit.lethal)  # fmt: skip
        a, t = self._combatant(attacker), self._combatant(target)
        self._vitals[attacker.id] = a.vitals
        result = resolve_attack(a, t, use, dice=self._dice)
        self._vitals[target.id] = result.hit.after if result.hit is not None else t.vitals
        record = {**attack_record(result), "target_id": target.id, "choice_id": None,
                  "revision": 0}  # fmt: skip
        return record


def hocs_rows(n: int, seed: int, cast: list[Who], characters: dict[int, Character]) -> list[Row]:
    rng = random.Random(seed + 3)
    attacks = HocsAttacks(characters, RandomDice(random.Random(seed + 4)))
    rows = []
    for kind, text in luck._session(n, seed):
        result: dict[str, Any] = json.loads(text)
        who: Who | None = _pick(rng, cast)
        opponent = None
        if kind == "attack":
            assert who is not None
            opponent = _other_side(rng, cast, who)
            result = attacks.row(rng, who, opponent)
        elif kind in ("pool", "check"):
            assert who is not None
            result["heading"] = _heading(rng, who, result, kind)
        elif kind == "clash":
            assert who is not None
            rival = _other_side(rng, cast, who) if rng.random() < 0.5 else None
            opponent = rival
            b_who = rival.name if rival is not None else "Opponent"
            result["a_heading"] = RollHeading(who=who.name, what="Melee Combat").to_dict()
            result["b_heading"] = RollHeading(who=b_who, what="4 dice").to_dict()
            result["opponent_character_id"] = rival.id if rival is not None else None
            result["notes"] = []
        elif kind == "roll":
            who = None  # /roll stores no character
        if kind != "roll":  # as the cogs take it, from the row as logged
            result[SNAPSHOT_KEY] = first_throw(kind, result)
        rows.append(Row(kind, result, who, opponent))
    return rows


# --- 2d10 ----------------------------------------------------------------------------------


def _twod10_character(name: str, rng: random.Random) -> TwoD10Character:
    ranks = {SkillKey(skill=Skill.MELEE): rng.randint(1, 3),
             SkillKey(skill=Skill.RANGED): rng.randint(0, 2)}  # fmt: skip
    return TwoD10Character(
        name=name, background="Soldier",
        attributes=Attributes(finesse=rng.randint(0, 2), strength=rng.randint(0, 2),
                              toughness=rng.randint(0, 2), mind=rng.randint(0, 1)),
        skills=tuple(sorted(((k, v) for k, v in ranks.items() if v), key=lambda kv: kv[0].label)),
        feats=("Brave",), armor=armor("leather") if rng.random() < 0.5 else None,
        weapons=tuple(weapon(w) for w in rng.sample(luck_twod10.WEAPONS, 2)),
    )  # fmt: skip


def twod10_rows(n: int, seed: int, cast: list[Who], max_hp: dict[int, int]) -> list[Row]:
    rng = random.Random(seed + 3)
    hp = dict(max_hp)
    pcs = [w for w in cast if w.pc]
    rows = []
    for kind, text in luck_twod10.session(seed)[:n]:
        result: dict[str, Any] = json.loads(text)
        who = _pick(rng, cast, pc_share=0.65 if kind == "2d10-attack" else 0.8)
        if kind == "2d10-attack":
            target = _other_side(rng, cast, who)
            before = hp[target.id] if hp[target.id] > 0 else max_hp[target.id]
            hp[target.id] = before - int(result.get("damage") or 0)
            result.update(attacker_id=who.id, target_id=target.id, aimed_at=target.name,
                          hp=[before, hp[target.id]])  # fmt: skip
        elif "character_id" in result:
            result["character_id"] = who.id
        if "medic" in result:
            result["medic"] = rng.choice(pcs).name
        rows.append(Row(kind, result, who))
    return rows


# --- the database --------------------------------------------------------------------------


async def _hocs_cast(
    conn: Any, guild: SeededGuild, rng: random.Random
) -> tuple[list[Who], dict[int, Character]]:
    repo = CharacterRepository(conn)
    cast, characters = [], {}
    owners = [*guild.player_ids, *[guild.gm_id] * NPCS]
    for number, owner in enumerate(owners):
        pc = owner != guild.gm_id
        sheet, details = hocs_sheet(f"{'Hero' if pc else 'Foe'} {number + 1}", rng, npc=not pc)
        made = await repo.create(
            guild_id=guild.guild_id, owner_id=owner,
            kind=CharacterKind.PC if pc else CharacterKind.ANTAGONIST, sheet=sheet,
            details=details,
        )  # fmt: skip
        if pc:
            await repo.set_active(guild.guild_id, owner, made.id)
        cast.append(Who(made.id, made.name, owner, pc))
        characters[made.id] = made
        guild.characters.append(
            SeededCharacter(id=made.id, name=made.name, owner_id=owner, kind=made.kind,
                            weapons=tuple(w.name for w in details.weapons), active=pc)
        )  # fmt: skip
    return cast, characters


async def _twod10_cast(
    conn: Any, guild: SeededGuild, rng: random.Random
) -> tuple[list[Who], dict[int, int]]:
    repo = TwoD10CharacterRepository(conn)
    cast, max_hp = [], {}
    owners = [*guild.player_ids, *[guild.gm_id] * NPCS]
    for number, owner in enumerate(owners):
        pc = owner != guild.gm_id
        sheet = await repo.create(
            guild_id=guild.guild_id, owner_id=owner,
            kind=TwoD10Kind.PC if pc else TwoD10Kind.ANTAGONIST,
            character=_twod10_character(f"{'Scout' if pc else 'Raider'} {number + 1}", rng),
        )  # fmt: skip
        if pc:
            await repo.set_active(guild.guild_id, owner, sheet.id)
        cast.append(Who(sheet.id, sheet.name, owner, pc))
        max_hp[sheet.id] = sheet.max_hp
    return cast, max_hp


def _secret(rng: random.Random, row: Row, gm_id: int) -> bool:
    gm = row.who is None or row.who.owner_id == gm_id
    return gm and row.kind in _SECRET_KINDS and rng.random() < 0.3


async def _log_session(conn: Any, table: Table, rows: list[Row], rng: random.Random) -> None:
    """Start the session, log its rows, end it (``bot.storage.sessions``' bounds)."""
    guild = table.guild
    sessions = SessionRepository(conn)
    await sessions.start(guild.guild_id, started_by=guild.gm_id)
    log = RollLogRepository(conn)
    hocs = table.ruleset is Ruleset.HOCS
    for number, row in enumerate(rows):
        who, opponent = row.who, row.opponent
        logged = await log.add(
            guild_id=guild.guild_id, channel_id=guild.table_channel_id,
            user_id=who.owner_id if who is not None else rng.choice(guild.user_ids),
            kind=row.kind, expression=row.kind, result=row.result,
            total=row.result.get("total") if row.kind == "roll" else None,
            secret=_secret(rng, row, guild.gm_id),
            character_id=who.id if hocs and who is not None else None,
            opponent_id=opponent.id if hocs and opponent is not None else None,
        )  # fmt: skip
        await log.set_message(logged.id, MESSAGE_BASE + guild.index * 100_000 + number)
        table.kinds[row.kind] = table.kinds.get(row.kind, 0) + 1
    await sessions.end(guild.guild_id, ended_by=guild.gm_id)


async def seed_tables(path: Path, n: int, *, seed: int) -> tuple[SeededWorld, list[Table]]:
    """A HOCS and a 2d10 campaign (guilds 0 and 1), each with 4 player characters, 2 NPCs
    and one ended session of ``n`` logged rolls."""
    rng = random.Random(seed)
    hocs = Table(Ruleset.HOCS, guild_layout(0))
    twod10 = Table(Ruleset.TWOD10, guild_layout(1))
    db = await open_database(str(path))
    try:
        await db.migrate()
        async with db.transaction() as conn:
            campaigns = CampaignRepository(conn)
            for table in (hocs, twod10):
                await campaigns.update(
                    table.guild.guild_id, gm_role_id=table.guild.gm_role_id, ruleset=table.ruleset
                )
            hocs.cast, characters = await _hocs_cast(conn, hocs.guild, rng)
            twod10.cast, max_hp = await _twod10_cast(conn, twod10.guild, rng)
        for table, rows in (
            (hocs, hocs_rows(n, seed, hocs.cast, characters)),
            (twod10, twod10_rows(n, seed, twod10.cast, max_hp)),
        ):
            async with db.transaction() as conn:
                await _log_session(conn, table, rows, rng)
        await db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        await db.close()
    guilds = [hocs.guild, twod10.guild]
    world = SeededWorld(path=path, guilds=guilds, characters=2 * len(hocs.cast), encounters=0,
                        participants=0)  # fmt: skip
    return world, [hocs, twod10]


def kinds_line(table: Table) -> str:
    return ", ".join(f"{kind} {count:,}" for kind, count in sorted(table.kinds.items()))
