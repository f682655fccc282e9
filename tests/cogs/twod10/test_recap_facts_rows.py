"""The recap's facts of real 2d10 roll-log rows: the commands run with scripted dice, each
row read back and ``facts_of`` checked field by field; then one evening's rows summed by
the shared ``recap`` (rulings recap-owners, recap-hurt, recap-critical, recap-naturals)."""

from __future__ import annotations

from fractions import Fraction

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.generic.recap import Figures, Luck, RollFacts, recap
from bot.rules.twod10.recap_facts import facts_of
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from bot.storage.twod10.characters import TwoD10Condition
from tests.cogs.twod10 import rounds_support
from tests.cogs.twod10.combat_helpers import gm, make, player, script, sheet, store, table
from tests.cogs.twod10.test_magic import mage
from tests.cogs.twod10.test_rounds_initiative import next_, setup_fight
from tests.rules.twod10.test_luck import oracle
from tests.support.slash import SlashHarness

# The light axe's d6 thrown twice, the higher kept, + 3: P(higher = k) = (2k − 1)/36.
AXE_8 = Luck(owner="Aria", percentile=Fraction(16, 36) + Fraction(9, 72),
             variance=(1 - Fraction(1 + 27 + 125 + 343 + 729 + 1331, 36**3)) / 12,
             part="damage")  # fmt: skip


async def rows(bot: TableBot) -> list[LoggedRoll]:
    async with bot.db.read() as conn:
        return await RollLogRepository(conn).between(bot.guilds[0].id)


async def last(bot: TableBot) -> LoggedRoll:
    return (await rows(bot))[-1]


def luck(owner: str | None, edge: str, natural: int, part: str) -> Luck:
    pct, var = oracle(edge, natural)
    return Luck(owner=owner, percentile=pct, variance=var, part=part)


async def party(bot: TableBot, slash: SlashHarness) -> dict[int, str]:
    """``table``'s Aria, with Cora (mind 1) and Vela (a mage) as player characters too."""
    await table(bot, slash)
    cora = await store(bot, make("Cora", mind=1), slash.members[2].id)
    vela = await store(bot, mage("Vela", "pyromancy"), slash.members[2].id)
    aria = await sheet(bot, "Aria")
    return {aria.id: "Aria", cora.id: "Cora", vela.id: "Vela"}


async def test_a_players_attack_on_an_npc(bot: TableBot, slash: SlashHarness) -> None:
    players = await party(bot, slash)
    # 8 + 5 − 2 = 11 hits Gob; the axe's 2 and 5, the 5 kept, + 3 strength = 8 damage.
    script(bot, 4, 4, 2, 5)
    await slash.run("attack", target="Gob", weapon="Light axe", **player(slash))
    row = await last(bot)
    assert row.message_id is not None  # the reply, for the recap's links
    assert facts_of(row, players) == RollFacts(
        roll_id=row.id, kind="2d10-attack", roller="Aria", succeeded=True, damage_dealt=8,
        luck=(luck("Aria", "none", 8, "to-hit"), AXE_8), channel_id=slash.channel.id,
        message_id=row.message_id, label="Aria's attack on Gob",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_an_npc_downs_a_player_then_kills_her_through_her_defense(
    bot: TableBot, slash: SlashHarness
) -> None:
    players = await party(bot, slash)
    await slash.run("character edit", name="Aria", hp=1, **gm(slash))
    # Gob's unarmed 8 + 8 − 1 = 15; its d3 shows 1: Aria 1 → 0 HP, down and dying.
    script(bot, 8, 8, 1)
    await slash.run("attack", character="Gob", target="Aria", weapon="Unarmed", **gm(slash))
    row = await last(bot)
    assert facts_of(row, players) == RollFacts(
        roll_id=row.id, kind="2d10-attack", roller=None, target="Aria", succeeded=True,
        damage_taken=1, downed=True, dying=True,
        luck=(luck(None, "none", 16, "to-hit"),
              Luck(owner=None, percentile=Fraction(1, 6), variance=Fraction(2, 27),
                   part="damage")),
        channel_id=slash.channel.id, message_id=row.message_id, label="an attack on Aria",
    )  # fmt: skip
    # Aria defends: 4 + 3 + 1 = 8, flipped to 12 (her luck, ruling luck-defended); the d2
    # shows 2: 0 → -2 stops at her death threshold -1, so she is dead, not dying.
    script(bot, 4, 3, 2)
    await slash.run("attack", character="Gob", target="Aria", weapon="Unarmed",
                    situation="target defends", **gm(slash))  # fmt: skip
    row = await last(bot)
    assert row.result["hp"] == [0, -1]
    assert (await sheet(bot, "Aria")).has(TwoD10Condition.DEAD)
    assert facts_of(row, players) == RollFacts(
        roll_id=row.id, kind="2d10-attack", roller=None, target="Aria", succeeded=True,
        damage_taken=2, downed=False, dying=False,
        luck=(luck("Aria", "none", 7, "defense"),
              Luck(owner=None, percentile=Fraction(3, 4), variance=Fraction(1, 16),
                   part="damage")),
        channel_id=slash.channel.id, message_id=row.message_id, label="an attack on Aria",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_secret_rolls_keep_their_message(bot: TableBot, slash: SlashHarness) -> None:
    players = await party(bot, slash)
    script(bot, 7, 5)  # 12 + mind 0 + perception 0
    await slash.run("task", attribute="mind", skill="perception", secret=True,
                    label="spot the trap", **player(slash))  # fmt: skip
    row = await last(bot)
    assert row.secret and row.message_id is not None
    assert facts_of(row, players) == RollFacts(
        roll_id=row.id, kind="2d10-task", roller="Aria", secret=True, succeeded=True,
        luck=(luck("Aria", "none", 12, "task"),), message_id=row.message_id,
        channel_id=slash.channel.id, label="Aria's perception task (spot the trap)",
    )  # fmt: skip
    script(bot, 1, 1)  # 2 + 3 mind + 2 Mysteries − 10 = −3: a natural 2, the worst band
    await slash.run("cast", tier=1, category="fire", character="Vela", secret=True, **gm(slash))
    row = await last(bot)
    assert facts_of(row, players) == RollFacts(
        roll_id=row.id, kind="2d10-cast", roller="Vela", secret=True, succeeded=False,
        critical_failure=True, natural_two=True, luck=(luck("Vela", "none", 2, "cast"),),
        message_id=row.message_id, channel_id=slash.channel.id, label="Vela's fire spell",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_medicine_is_the_medics_and_dying_the_patients(
    bot: TableBot, slash: SlashHarness
) -> None:
    players = await party(bot, slash)
    await slash.run("character edit", name="Aria", hp=0, **gm(slash))
    script(bot, 6, 5)  # Cora: 11 + 1 mind = 12, Aria stabilised
    await slash.run("medicine stabilise", patient="Aria", medic="Cora", **gm(slash))
    row = await last(bot)
    assert row.result["medic"] == "Cora"  # by name: the medic's luck and roll are Cora's
    assert facts_of(row, players) == RollFacts(
        roll_id=row.id, kind="2d10-medicine", roller="Cora", succeeded=True,
        luck=(luck("Cora", "none", 11, "medicine"),), channel_id=slash.channel.id,
        label="Cora's medicine on Aria (stabilise)",
    )  # fmt: skip
    script(bot, 2, 9, 8)  # the stabilisation's advantage: the 2 dropped, 17
    await slash.run("dying roll", character="Aria", **player(slash))
    row = await last(bot)
    assert facts_of(row, players) == RollFacts(
        roll_id=row.id, kind="2d10-dying", roller="Aria", succeeded=True,
        luck=(luck("Aria", "advantage", 17, "dying"),), channel_id=slash.channel.id,
        label="Aria's dying roll",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_the_side_initiative_and_an_interrupt_are_nobodys(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    mira_sheet = await sheet(bot, "Mira")
    players = {mira_sheet.id: "Mira"}
    script(bot)
    await next_(slash)  # round 1's declarations
    mira = rounds_support.player(slash)
    await slash.run("init react", kind="declare", trigger="a goblin attacks", **mira)
    script(bot, 5)  # the GM's d6: the NPCs first
    await next_(slash)
    got = facts_of(await last(bot), players)
    assert (got.roller, got.succeeded, got.label) == (None, None, "the side initiative, round 1")
    assert got.luck == (Luck(owner=None, percentile=Fraction(1, 4), variance=Fraction(1, 16),
                             part="initiative"),)  # fmt: skip
    script(bot, 3, 6)  # Mira's d8 3 + 2 against a goblin's 6: the goblin first
    await slash.run("init react", kind="interrupt", opponent="Goblin 1", **mira)
    got = facts_of(await last(bot), players)
    # The reactor is a tracker combatant, not Mira's sheet: nobody's roll, nobody's luck.
    assert (got.roller, got.succeeded, got.label) == (None, False, "an interrupt")
    assert [x.owner for x in got.luck] == [None]
    await dpytest.empty_queue()


async def test_an_evenings_rows_summed(bot: TableBot, slash: SlashHarness) -> None:
    players = await party(bot, slash)
    script(bot, 4, 4, 2, 5)  # Aria hits Gob for 8
    await slash.run("attack", target="Gob", weapon="Light axe", **player(slash))
    await slash.run("character edit", name="Aria", hp=1, **gm(slash))
    script(bot, 8, 8, 1)  # Gob downs Aria
    await slash.run("attack", character="Gob", target="Aria", weapon="Unarmed", **gm(slash))
    script(bot, 6, 5)  # Cora stabilises her
    await slash.run("medicine stabilise", patient="Aria", medic="Cora", **gm(slash))
    script(bot, 1, 1)  # Vela's secret natural 2
    await slash.run("cast", tier=1, category="fire", character="Vela", secret=True, **gm(slash))
    facts = [facts_of(r, players) for r in await rows(bot)]
    public = recap(facts, players=frozenset(players.values()))
    by_name = dict(public.characters)
    assert by_name["Aria"] == Figures(
        rolls=1, successes=1, damage_dealt=8, damage_taken=1, downs=1, dying=1,
        scored=(oracle("none", 8), (AXE_8.percentile, AXE_8.variance)),
    )  # fmt: skip
    assert by_name["Cora"] == Figures(rolls=1, successes=1, scored=(oracle("none", 11),))
    # The secret cast counts, its luck untold in public (unscored there).
    assert by_name["Vela"] == Figures(
        rolls=1, failures=1, critical_failures=1, natural_twos=1, unscored=1
    )
    assert (public.other_rolls, public.rolls) == (1, 4)
    assert public.luckiest is not None and public.luckiest.luck == AXE_8
    assert public.unluckiest is not None and public.unluckiest.luck.part == "to-hit"
    private = dict(recap(facts, public=False).characters)
    assert private["Vela"].scored == (oracle("none", 2),)
    await dpytest.empty_queue()
