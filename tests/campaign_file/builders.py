"""A campaign played a little in both rulesets, written through the repositories: the
table the export tests read back. ``GUILD`` is tests.web.views.support's; another
guild's rows are written between ours so every query must filter by guild."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.rules.hocs.attack.turns import AttackTurn
from bot.rules.hocs.wounds import Wound, WoundKind
from bot.rules.twod10.ammo import AmmoState
from bot.rules.twod10.disease import Course, Disease, Infection, Severity
from bot.rules.twod10.encumbrance import Item
from bot.rules.twod10.healing import HealingState
from bot.rules.twod10.light import Light, LightKind
from bot.rules.twod10.magic import Form, Tier
from bot.rules.twod10.rations import RationState
from bot.storage.hocs.combat import CombatRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import SessionRepository
from bot.storage.sql import run
from bot.storage.twod10.ammo import TwoD10AmmoRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.infections import TwoD10InfectionRepository
from bot.storage.twod10.items import TwoD10ItemRepository
from bot.storage.twod10.lights import TwoD10LightRepository
from bot.storage.twod10.magic import Held, TwoD10MagicRepository
from bot.storage.twod10.rations import TwoD10CalendarRepository, TwoD10RationRepository
from bot.storage.twod10.shields import ShieldBlockRepository
from bot.storage.twod10.survival import TwoD10SurvivalRepository
from tests.web.views.support import (
    CHANNEL,
    GM,
    GUILD,
    OTHER_GUILD,
    PLAYER,
    hocs_encounter,
    hocs_world,
    twod10_encounter,
    twod10_world,
)

ROLE, GM_CHANNEL, TABLE = 700, 701, 555
WOUND = Wound(WoundKind.SPEED_MINUS_10, 3, (2, 1))


@dataclass(frozen=True)
class Played:
    mira: int
    ogre: int
    brann: int
    ghoul: int
    log_ids: tuple[int, ...]  # our guild's log rows, in order


async def _roll(conn: Any, guild: int, **kw: Any) -> int:
    logged = await RollLogRepository(conn).add(
        guild_id=guild, channel_id=TABLE, user_id=kw.pop("user_id", PLAYER), kind="roll",
        expression=kw.pop("expression", "2d6"), result={"faces": [3, 4]}, total=7,
        secret=kw.pop("secret", False), **kw,
    )  # fmt: skip
    return logged.id


async def play(db: Any) -> Played:
    hocs = await hocs_world(db)
    await hocs_encounter(db, hocs)
    two = await twod10_world(db)  # (turns the campaign's ruleset to 2d10)
    async with db.transaction() as conn:
        await run(
            conn,
            "UPDATE campaigns SET gm_role_id = ?, gm_channel_id = ? WHERE guild_id = ?",
            (ROLE, GM_CHANNEL, GUILD),
        )
        ids = [await _roll(conn, GUILD, character_id=hocs.mira)]
        await _roll(conn, OTHER_GUILD)
        sessions = SessionRepository(conn)
        await sessions.start(GUILD, started_by=GM, hero_points_given=True)
        ids.append(await _roll(conn, GUILD, character_id=hocs.mira, opponent_id=hocs.ogre))
        await _roll(conn, OTHER_GUILD)
        ids.append(await _roll(conn, GUILD, user_id=GM, secret=True, expression="d20"))
        await sessions.end(GUILD, ended_by=GM)
        await sessions.start(GUILD, started_by=GM)  # running, no roll yet
        await run(conn, "UPDATE roll_log SET message_id = 4242 WHERE id = ?", (ids[1],))
        combat = CombatRepository(conn)
        # (the combat commands write wounds with the sheet's vitals; a test sets them)
        await run(
            conn,
            "UPDATE characters SET wounds = ? WHERE id = ?",
            (json.dumps([WOUND.to_dict()]), hocs.mira),
        )
        record = await EncounterRepository(conn).get_by_channel(CHANNEL)
        assert record is not None
        await combat.save_attack_turn(record.id, hocs.mira, AttackTurn(round=1, turn=1, attacks=2))
        await run(
            conn, "UPDATE encounters SET tracker_message_id = 31337 WHERE id = ?", (record.id,)
        )
        brann, ghoul = two.brann, two.ghoul
        await TwoD10CharacterRepository(conn).set_active(GUILD, PLAYER, brann)
        await ShieldBlockRepository(conn).spend(brann, "buckler", 2)
        survival = TwoD10SurvivalRepository(conn)
        await survival.save_healing(GUILD, brann, HealingState(hp=20, max_hp=25))
        await survival.set_supplies(GUILD, brann, 3)
        await TwoD10LightRepository(conn).add(
            GUILD, brann, Light(kind=LightKind.TORCH, remaining=5)
        )
        ammo = TwoD10AmmoRepository(conn)
        await ammo.set(GUILD, brann, AmmoState(points=3, quivers=2, spent=1))
        await ammo.set_oil(GUILD, brann, 4)
        await TwoD10CalendarRepository(conn).advance(GUILD, 2)
        await TwoD10RationRepository(conn).save(
            GUILD, brann, RationState(quarters=8), expected=None
        )
        disease = Disease(name="Red Ache", difficulty=2, course=Course.ACUTE,
                          severity=Severity.MINOR)  # fmt: skip
        await TwoD10InfectionRepository(conn).add(
            GUILD, ghoul, Infection(disease=disease), due_day=4
        )
        await TwoD10ItemRepository(conn).add(GUILD, brann, Item(name="Rope", weight=1, count=2))
        await TwoD10MagicRepository(conn).hold(
            GUILD, Held(character_id=ghoul, effect="Shadow veil", form=Form.SPELL,
                        tier=Tier.ONE, roll_id=ids[2]),
        )  # fmt: skip
    await twod10_encounter(db, two)
    return Played(hocs.mira, hocs.ogre, brann, ghoul, tuple(ids))
